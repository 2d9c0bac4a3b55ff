/**
 * How the sandbox reads requests and writes answers: form and JSON bodies, the echo of every
 * request parameter (spec, General rules 2) with the card number masked and the security code
 * dropped, the outcome fields, the response signature, and field errors turned into response codes.
 */
import { currencyExponent } from '../core/amounts.ts';
import { maskCardNumber } from '../core/card-number.ts';
import { parseDateTimeWithOffset, type DateTimeWithOffset } from '../core/dates.ts';
import { fieldError, type FieldError } from '../core/field-errors.ts';
import { isLanguage, type Language } from '../core/language.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../core/response.ts';
import { signatureOptionsFor, signParams, wireParams, type SignableValue } from '../core/signature.ts';
import { toWireNames } from '../core/wire-names.ts';
import { toXml } from '../core/xml.ts';
import type { GatewayAccount } from './merchants.ts';

/** A request or answer as a flat map of wire fields (JSON answers may nest, e.g. the plans). */
export type WireParams = Record<string, SignableValue>;

/**
 * A response code with the status it goes out under, when that is not the code's own
 * (`expectedStatus`): a live account holds a charge for 3-D Secure with 20064 under status 20,
 * where 20064 alone is status 04, an accepted capture (docs/decisions.md).
 */
export interface StatusedCode {
  readonly code: KnownResponseCode;
  readonly status?: string | undefined;
}

/** What an answer reports: a code under its own status, or a {@link StatusedCode}. */
export type AnsweredCode = KnownResponseCode | StatusedCode;

/** The code of an {@link AnsweredCode}. */
export function codeOf(answered: AnsweredCode): KnownResponseCode {
  return typeof answered === 'string' ? answered : answered.code;
}

/** The status an {@link AnsweredCode} goes out under: the one it names, else its code's own. */
export function statusOf(answered: AnsweredCode): string {
  return typeof answered === 'string' ? expectedStatus(answered) : (answered.status ?? expectedStatus(answered.code));
}

/** Largest body the sandbox reads, in bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Fields never written back in clear. */
const NEVER_ECHOED = new Set(['signature', 'card_security_code']);

/** The language of the answer: the request's, or English when it has none the gateway knows. */
export function requestLanguage(params: Readonly<Record<string, unknown>>): Language {
  const language = params['language'];
  return isLanguage(language) ? language : 'en';
}

/** Every request parameter, for the answer: the card number masked, the CVV and signature left out. */
export function echo(params: Readonly<Record<string, unknown>>): WireParams {
  const echoed: WireParams = {};
  for (const [name, value] of Object.entries(params)) {
    if (NEVER_ECHOED.has(name) || value === undefined) continue;
    if (name === 'card_number') {
      echoed[name] = maskCardNumber(String(value).replace(/\D/g, ''));
      continue;
    }
    echoed[name] = value as SignableValue;
  }
  return echoed;
}

/** response_message's limit (spec, Limits). */
const MAX_MESSAGE_LENGTH = 150;

/**
 * The answer to a request: the echo, the operation's own fields, then the outcome, signed with the
 * merchant's response phrase (unsigned only when the merchant could not be identified).
 * `detail` (a field error) follows the code's message, within the 150-character limit. The echo is
 * the request as it came; the operation's fields name the gateway's reference `svc_id` and are
 * written under the wire's name (the account's `gatewayReferenceField`) before signing.
 */
export async function answer(
  params: Readonly<Record<string, unknown>>,
  merchant: GatewayAccount | undefined,
  answered: AnsweredCode,
  fields: WireParams = {},
  detail?: string,
): Promise<Record<string, Exclude<SignableValue, null | undefined>>> {
  const language = requestLanguage(params);
  const base = responseMessage(codeOf(answered), language);
  const message = detail ? `${base}: ${detail}`.slice(0, MAX_MESSAGE_LENGTH) : base;
  const body: WireParams = {
    ...echo(params),
    ...(merchant ? toWireNames(fields, merchant.gatewayReferenceField) : fields),
    response_code: codeOf(answered),
    response_message: message,
    status: statusOf(answered),
  };
  return merchant ? signParams(body, merchant.responsePhrase, merchant.shaType, signatureOptionsFor(body)) : wireParams(body);
}

/**
 * {@link answer} as paymentApi sends it: XML (root `response`, the same signed fields) when the
 * request asks `response_format: XML`, JSON otherwise.
 */
export async function apiAnswer(
  params: Readonly<Record<string, unknown>>,
  merchant: GatewayAccount | undefined,
  answered: AnsweredCode,
  fields: WireParams = {},
  detail?: string,
): Promise<Response> {
  const body = await answer(params, merchant, answered, fields, detail);
  return params['response_format'] === 'XML' ? xmlResponse(toXml(body)) : jsonResponse(body);
}

/** {@link answer} as a JSON response, whatever the request asks. */
export async function jsonAnswer(
  params: Readonly<Record<string, unknown>>,
  merchant: GatewayAccount | undefined,
  answered: AnsweredCode,
  fields: WireParams = {},
  detail?: string,
): Promise<Response> {
  return jsonResponse(await answer(params, merchant, answered, fields, detail));
}

/** Which failure code a field error earns: missing 00001, too long 00003, charset 00004, anything else 00002. */
export function codeOfFieldError(error: FieldError, input: Readonly<Record<string, unknown>>): KnownResponseCode {
  switch (error.rule) {
    case 'required':
    case 'required_without':
    case 'empty':
      return '00001';
    case 'max_length':
      return '00003';
    case 'length': {
      const value = input[error.field];
      const length = typeof value === 'string' || typeof value === 'number' ? String(value).length : 0;
      return error.limit !== undefined && length > error.limit ? '00003' : '00002';
    }
    case 'charset':
      return '00004';
    default:
      return '00002';
  }
}

const CODE_PRIORITY: readonly KnownResponseCode[] = ['00001', '00003', '00004', '00002'];

/** The one error an answer reports when several fields are wrong: missing before too long before charset before format. */
export function primaryFieldError(
  errors: readonly FieldError[],
  input: Readonly<Record<string, unknown>>,
): { readonly code: KnownResponseCode; readonly error: FieldError } | undefined {
  let best: { code: KnownResponseCode; error: FieldError } | undefined;
  for (const error of errors) {
    const code = codeOfFieldError(error, input);
    if (!best || CODE_PRIORITY.indexOf(code) < CODE_PRIORITY.indexOf(best.code)) best = { code, error };
  }
  return best;
}

/**
 * A date-time field read by the core's rule (`parseDateTimeWithOffset`), or the words refusing it
 * (00002): the field rules' own message, so that a day that does not exist, which their shape check
 * lets through, is answered as every other malformed date is, in every operation.
 */
export function readDateField(name: string, text: string, language: Language): DateTimeWithOffset | { readonly refused: string } {
  return parseDateTimeWithOffset(text) ?? { refused: fieldError(name, 'format', { format: 'datetime_offset' }, language).message };
}

export class BodyError extends Error {
  readonly httpStatus: number;
  constructor(message: string, httpStatus: number) {
    super(message);
    this.name = 'BodyError';
    this.httpStatus = httpStatus;
  }
}

async function readText(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw new BodyError('body too large', 413);
  const text = await request.text();
  if (new TextEncoder().encode(text).length > MAX_BODY_BYTES) throw new BodyError('body too large', 413);
  return text;
}

/** A form post (urlencoded or multipart) as a map of its first value per name. */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const type = request.headers.get('content-type') ?? '';
  const fields: Record<string, string> = {};
  if (type.startsWith('multipart/form-data')) {
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > MAX_BODY_BYTES) throw new BodyError('body too large', 413);
    const form = await request.formData();
    for (const [name, value] of form) {
      if (typeof value === 'string' && !(name in fields)) fields[name] = value;
    }
    return fields;
  }
  if (type && !type.startsWith('application/x-www-form-urlencoded')) {
    throw new BodyError('expected a form post', 415);
  }
  for (const [name, value] of new URLSearchParams(await readText(request))) {
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}

/** A JSON object body. */
export async function readJson(request: Request): Promise<Record<string, SignableValue>> {
  const text = await readText(request);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BodyError('body is not JSON', 400);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new BodyError('body must be a JSON object', 400);
  }
  return parsed as Record<string, SignableValue>;
}

/** A JSON answer. The gateway signals outcomes in response_code, so answers are HTTP 200. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** An XML answer (the XML response builder). */
export function xmlResponse(xml: string, status = 200): Response {
  return new Response(xml, {
    status,
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** An ISO 4217 code the amounts module knows (so it has a minor unit to charge in). */
export function isChargeableCurrency(currency: string): boolean {
  try {
    currencyExponent(currency);
    return true;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL, or undefined. */
export function httpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Random lowercase hex, from Web Crypto (works in browsers without a secure context, and in Node). */
export function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  let hex = '';
  for (const byte of buffer) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Random decimal digits. */
export function randomDigits(count: number): string {
  const buffer = new Uint8Array(count);
  globalThis.crypto.getRandomValues(buffer);
  let digits = '';
  for (const byte of buffer) digits += String(byte % 10);
  return digits;
}
