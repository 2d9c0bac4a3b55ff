/**
 * What every sandbox handler works with, and the gate every request passes before it may change
 * anything: the merchant is known, the access code is its own, the signature is right, and every
 * field keeps the spec's rules (core/schemas/). The first failing check decides the answer.
 *
 * The signature is checked over the request as it came, the gateway's reference of an order under
 * the wire's name (`gatewayReferenceField`); the fields are then checked, and handed to the
 * handler, with that reference named `svc_id`, and a refusal names the field as the wire does.
 */
import * as z from 'zod/mini';
import { fieldError, validate, type FieldError } from '../core/field-errors.ts';
import type { KnownResponseCode } from '../core/response.ts';
import { field, pure } from '../core/schemas/fields.ts';
import { customer, merchantExtras } from '../core/schemas/shared.ts';
import { verifySignature, type SignableParams, type SignatureOptions } from '../core/signature.ts';
import { foreignReferenceIn, fromWireNames, toWireFieldError } from '../core/wire-names.ts';
import type { GatewayAccount } from './merchants.ts';
import type { SuccessCodes } from './orders.ts';
import type { SandboxState } from './state.ts';
import { primaryFieldError, requestLanguage } from './wire.ts';

/** Where the gateway answers, all absolute paths (no origin). */
export interface GatewayPaths {
  /** `{basePath}/{apiRoot}/paymentPage`: the hosted page and merchant page form posts. */
  readonly paymentPage: string;
  /** `{basePath}/{apiRoot}/paymentPage/submit`: the sandbox card-entry form posts here. */
  readonly pageSubmit: string;
  /** `{basePath}/{apiRoot}/3ds/challenge`: the simulated issuer page (GET shows it, POST answers it). */
  readonly challenge: string;
  /** `{basePath}/{apiRoot}/3ds/acs`: the issuer's page of a 3DS_ENROLLMENT (its 3ds_url); it posts to merchant_3ds_url. */
  readonly acs: string;
  /** `{basePath}/{apiRoot}/paymentApi`: the JSON API. */
  readonly paymentApi: string;
  /** `{basePath}/{apiRoot}/upload`: UPLOAD_BATCH_FILE, a multipart form. */
  readonly batchUpload: string;
  /** `{basePath}/{apiRoot}/batchApi`: GET_BATCH_RESULTS, and PROCESS_BATCH as the live host takes it. */
  readonly batchApi: string;
  /** `{basePath}/integration-batch/batchApi`: the path of the batch sandbox host, PROCESS_BATCH only. */
  readonly batchSandboxApi: string;
  /** `{basePath}/{apiRoot}/reportingApi`: GENERATE_REPORT and DOWNLOAD_REPORT. */
  readonly reportingApi: string;
  /** `{basePath}/sandbox-tools`: test helpers that are not part of the spec (pay a bill, list orders, move the clock). */
  readonly tools: string;
}

export interface GatewayContext {
  readonly merchants: ReadonlyMap<string, GatewayAccount>;
  readonly state: SandboxState;
  /** Epoch milliseconds on the gateway's clock. */
  readonly now: () => number;
  readonly paths: GatewayPaths;
  /** The codes that accept a capture and a refund: the spec's 20064, or a live account's 04000 / 06000. */
  readonly successCodes: SuccessCodes;
}

export type Checked<T> =
  | { readonly ok: true; readonly merchant: GatewayAccount; readonly data: T }
  | {
      readonly ok: false;
      /** Known once the caller holds the merchant's access code: the refusal is then signed with its response phrase. */
      readonly merchant: GatewayAccount | undefined;
      readonly code: KnownResponseCode;
      readonly detail?: string;
      /** Every broken field rule, when the fields were at fault. */
      readonly errors?: readonly FieldError[];
    };

export interface CheckOptions {
  /**
   * Signature forms accepted, tried in order. Tokenization accepts both the merchant page 2.0
   * form (card fields left out) and a string over every field (the "create new token" post).
   */
  readonly signatureForms?: readonly SignatureOptions[];
  /** Values assumed for absent fields when checking the rules (not when checking the signature). */
  readonly defaults?: Readonly<Record<string, string>>;
}

/**
 * The spec's optional common fields (its "Common fields" table, which covers service requests and
 * queries too) that any request may carry and gets back unchanged (General rules 2), each with its
 * core field rule. Some core request schemas (CHECK_STATUS, BILL_PRESENTMENT, CUSTOMER_VERIFY,
 * 3DS_ENROLLMENT, …) do not list them; the sandbox adds those missing, and an operation's own rule
 * for one of them (the financing phone_number, required) stays.
 */
const COMMON_OPTIONAL_FIELDS = pure(() => ({
  ...merchantExtras,
  ...customer,
  order_description: z.optional(field('order_description')),
}));

const withCommonFieldsOf = new WeakMap<z.ZodMiniObject, z.ZodMiniObject>();

/** `schema` with the common optional fields it does not list (its checks and strictness kept). */
function withCommonFields<S extends z.ZodMiniObject>(schema: S): S {
  let widened = withCommonFieldsOf.get(schema);
  if (!widened) {
    const missing = Object.fromEntries(Object.entries(COMMON_OPTIONAL_FIELDS).filter(([name]) => !(name in schema.shape)));
    widened = z.safeExtend(schema as z.ZodMiniObject, missing);
    withCommonFieldsOf.set(schema, widened);
  }
  // The added fields are only echoed, never read: the handler keeps the schema's own type.
  return widened as S;
}

/** Identity, signature, then fields. Changes nothing: a refusal leaves the gateway as it was. */
export async function checkRequest<S extends z.ZodMiniObject>(
  ctx: GatewayContext,
  params: Readonly<Record<string, unknown>>,
  schema: S,
  options: CheckOptions = {},
): Promise<Checked<z.infer<S>>> {
  const language = requestLanguage(params);
  const identifier = params['merchant_identifier'];
  if (typeof identifier !== 'string' || identifier === '') {
    return refusal(undefined, '00001', fieldError('merchant_identifier', 'required', {}, language).message);
  }
  // One rule for both: the sandbox signs only for a caller that holds the merchant's access code,
  // so an unknown identifier and a wrong (or missing) access code get the same unsigned refusal.
  const merchant = ctx.merchants.get(identifier);
  if (!merchant) return refusal(undefined, '00006');
  const accessCode = params['access_code'];
  if (typeof accessCode !== 'string' || accessCode === '') {
    return refusal(undefined, '00001', fieldError('access_code', 'required', {}, language).message);
  }
  if (accessCode !== merchant.accessCode) return refusal(undefined, '00006');

  const forms = options.signatureForms ?? [{}];
  let signatureOk = false;
  for (const form of forms) {
    const result = await verifySignature(params as SignableParams, merchant.requestPhrase, merchant.shaType, form);
    if (!result.valid && result.reason === 'missing') {
      return refusal(merchant, '00001', fieldError('signature', 'required', {}, language).message);
    }
    if (result.valid) {
      signatureOk = true;
      break;
    }
  }
  if (!signatureOk) return refusal(merchant, '00008');

  const field = merchant.gatewayReferenceField;
  // The reference under the name this wire does not use is a name the gateway does not know.
  const foreign = foreignReferenceIn(params, field);
  if (foreign !== undefined) {
    const error = fieldError(foreign, foreign.includes('[') ? 'invalid' : 'unknown_field', {}, language);
    return { ...refusal(merchant, '00002', error.message), errors: [error] };
  }
  const validation = validate(withCommonFields(schema), { ...options.defaults, ...fromWireNames(params, field) }, language);
  if (!validation.ok) {
    const errors = validation.errors.map((error) => toWireFieldError(error, field));
    const primary = primaryFieldError(errors, params);
    return { ...refusal(merchant, primary?.code ?? '00002', primary?.error.message), errors };
  }
  return { ok: true, merchant, data: validation.data };
}

/**
 * The merchant a request names, if its access code is that merchant's: only such a merchant's
 * refusals are signed (never sign for someone who does not hold the access code).
 */
export function identifiedMerchant(ctx: GatewayContext, params: Readonly<Record<string, unknown>>): GatewayAccount | undefined {
  const merchant = ctx.merchants.get(String(params['merchant_identifier'] ?? ''));
  return merchant && merchant.accessCode === params['access_code'] ? merchant : undefined;
}

type Refusal = Extract<Checked<never>, { readonly ok: false }>;

function refusal(merchant: GatewayAccount | undefined, code: KnownResponseCode, detail?: string): Refusal {
  return detail === undefined ? { ok: false, merchant, code } : { ok: false, merchant, code, detail };
}
