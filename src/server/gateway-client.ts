/**
 * Server-to-server calls to the gateway's paymentApi. Every request is signed with the request
 * phrase and checked against the core's request schema before it leaves; every answer is read
 * within a size limit, its signature verified with the response phrase, its echo of the
 * merchant_reference compared, and it is parsed with the core's response schema, all before
 * anything of it can reach the browser.
 */
import type * as z from 'zod/mini';
import { AmountError, parseWireAmount } from '../core/amounts.ts';
import { signatureOptionsFor, signParams, verifySignature, type SignableParams } from '../core/signature.ts';
import { toFieldErrors } from '../core/field-errors.ts';
import {
  classifyResponse,
  parseResponseCode,
  RESPONSE_CODES,
  responseMessage,
  type KnownResponseCode,
} from '../core/response.ts';
import type { Language } from '../core/language.ts';
import type { EndpointSettings } from './config.ts';
import { ERROR_MESSAGES, EndpointRefusal } from './errors.ts';
import type { Logger } from './logger.ts';
import { checkOutgoing, type OutgoingCheck } from './outgoing.ts';

/** Largest gateway answer read (a plans answer with many issuers is the biggest). */
const MAX_ANSWER_BYTES = 1024 * 1024;

export interface GatewayCall<Answer> extends OutgoingCheck {
  /** Unsigned parameters; `signature` is added here. */
  readonly params: SignableParams;
  /** The core schema of the answer, checked after the signature. */
  readonly answerSchema: z.ZodMiniType<Answer>;
}

export interface GatewayClient {
  call<Answer>(request: GatewayCall<Answer>): Promise<Answer>;
}

export function createGatewayClient(settings: EndpointSettings, log: Logger): GatewayClient {
  return {
    async call<Answer>(request: GatewayCall<Answer>): Promise<Answer> {
      const signed = await signParams(request.params, settings.requestPhrase, settings.shaType);
      checkOutgoing(request, signed, log);

      let text: string;
      try {
        const answer = await settings.fetch(settings.paymentApiUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(signed),
          signal: AbortSignal.timeout(settings.gatewayTimeoutMs),
        });
        // The gateway states outcomes in response_code; a server error is an outage, not an answer.
        if (answer.status >= 500) throw new Error(`HTTP ${answer.status}`);
        text = await readLimited(answer);
      } catch (error) {
        log.error('gateway_unreachable', { operation: request.operation, reason: describe(error) });
        throw new EndpointRefusal('gateway_unreachable');
      }

      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        answer = undefined;
      }
      if (!answer || typeof answer !== 'object' || Array.isArray(answer)) {
        log.error('gateway_answer_unreadable', { operation: request.operation });
        throw new EndpointRefusal('gateway_unreachable');
      }
      const fields = answer as Record<string, unknown>;
      const verified = await verifySignature(fields as SignableParams, settings.responsePhrase, settings.shaType, signatureOptionsFor(fields));
      if (!verified.valid) {
        log.error('gateway_signature_invalid', { operation: request.operation, reason: verified.reason });
        throw new EndpointRefusal('gateway_signature_invalid');
      }
      const sentReference = signed['merchant_reference'];
      if (sentReference !== undefined && fields['merchant_reference'] !== sentReference) {
        log.error('gateway_answer_foreign', { operation: request.operation });
        throw new EndpointRefusal('gateway_signature_invalid');
      }
      const parsed = request.answerSchema.safeParse(fields);
      if (!parsed.success) {
        log.error('gateway_answer_malformed', {
          operation: request.operation,
          fields: toFieldErrors(parsed.error.issues, fields, 'en').map((error) => `${error.field} ${error.rule}`),
        });
        throw new EndpointRefusal('gateway_unreachable');
      }
      log.info('gateway_answer', {
        operation: request.operation,
        response_code: fields['response_code'],
        outcome: classifyResponse(fields),
      });
      return parsed.data;
    },
  };
}

async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) throw new Error('answer too large');
  const text = await response.text();
  if (text.length > MAX_ANSWER_BYTES) throw new Error('answer too large');
  return text;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  if (error.name === 'TimeoutError') return 'timeout';
  return /^HTTP \d+$/.test(error.message) ? error.message : error.name;
}

/**
 * Refuses a verified answer that is not a success, with the gateway's response_code and its
 * message in the request language (the project's text for a known code, else the gateway's own).
 */
export function requireSuccess(answer: Readonly<Record<string, unknown>>, language: Language): void {
  if (classifyResponse(answer) === 'success') return;
  throw new EndpointRefusal('gateway_refused', {
    responseCode: parseResponseCode(answer['response_code'])?.code,
    message: gatewayMessage(answer, language),
  });
}

/** The message for an answer in `language`: the project's text for a known code, else the gateway's. */
export function gatewayMessage(answer: Readonly<Record<string, unknown>>, language: Language): string {
  const code = parseResponseCode(answer['response_code'])?.code;
  if (code !== undefined && code in RESPONSE_CODES) return responseMessage(code as KnownResponseCode, language);
  const own = answer['response_message'];
  return typeof own === 'string' && own !== '' ? own : ERROR_MESSAGES.gateway_refused[language];
}

/**
 * An amount of a verified gateway answer, in minor units. Amounts travel as digits; anything else
 * (a decimal EMI, a negative, text) is the gateway's fault, not the customer's: it is logged by
 * field name and answered 502 `gateway_answer_invalid`, never a 500.
 */
export function gatewayAmount(value: unknown, fieldName: string, operation: string, log: Logger): number {
  try {
    return parseWireAmount(value, fieldName);
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    log.error('gateway_amount_invalid', { operation, field: fieldName, rule: error.rule });
    throw new EndpointRefusal('gateway_answer_invalid');
  }
}

/** A count of months in a verified gateway answer ("6"); anything but 1 to 3 digits is answered like a bad amount. */
export function gatewayMonths(value: unknown, fieldName: string, operation: string, log: Logger): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text === 'string' && /^\d{1,3}$/.test(text) && Number(text) > 0) return Number(text);
  log.error('gateway_amount_invalid', { operation, field: fieldName, rule: 'format' });
  throw new EndpointRefusal('gateway_answer_invalid');
}
