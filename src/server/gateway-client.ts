/**
 * The endpoint's server-to-server calls, through the back-office client of `pg-checkout/gateway`:
 * one code path for every call to the gateway. The client checks each request against the core's
 * schema before signing it, signs it, sends it with the endpoint's time limit, reads the answer
 * within 1 MiB, verifies its signature with the response phrase, compares its echo of the
 * merchant_reference and parses it with the core's answer schema. This adapter adds the endpoint's
 * policy: no retries (a customer is waiting, and the endpoint confirms results with CHECK_STATUS
 * itself), and every failure becomes the endpoint's refusal, never a detail for the browser.
 */
import type * as z from 'zod/mini';
import { AmountError, parseWireAmount } from '../core/amounts.ts';
import {
  classifyResponse,
  parseResponseCode,
  RESPONSE_CODES,
  responseMessage,
  type KnownResponseCode,
} from '../core/response.ts';
import type { SignableParams } from '../core/signature.ts';
import type { Language } from '../core/language.ts';
import { createGatewayClient } from '../gateway/client.ts';
import { GatewayRequestError, GatewayUnavailableError } from '../gateway/transport.ts';
import { connectionOf } from '../gateway/settings.ts';
import type { EndpointSettings } from './config.ts';
import { ERROR_MESSAGES, EndpointRefusal } from './errors.ts';
import type { Logger } from '../log/logger.ts';
import { outgoingRefusal, type OutgoingCheck } from './outgoing.ts';

/** Largest gateway answer read (a plans answer with many issuers is the biggest). */
const MAX_ANSWER_BYTES = 1024 * 1024;

export interface GatewayCall<Answer> extends OutgoingCheck {
  /** Unsigned parameters; `signature` is added by the client. */
  readonly params: SignableParams;
  /** The core schema of the answer, checked after the signature. */
  readonly answerSchema: z.ZodMiniType<Answer>;
  /** Time limit of this call (default `gatewayTimeoutMs`). */
  readonly timeoutMs?: number;
}

export interface EndpointGateway {
  call<Answer>(request: GatewayCall<Answer>): Promise<Answer>;
}

export function endpointGateway(settings: EndpointSettings, log: Logger): EndpointGateway {
  const client = createGatewayClient({
    ...connectionOf(settings),
    fetch: settings.fetch,
    timeoutMs: settings.gatewayTimeoutMs,
    retry: false,
    logger: log,
    now: settings.now,
    maxAnswerBytes: MAX_ANSWER_BYTES,
  });
  return {
    async call<Answer>(request: GatewayCall<Answer>): Promise<Answer> {
      const operation = { name: request.operation, requestSchema: request.schema, answerSchema: request.answerSchema };
      try {
        return (await client.call(operation, { params: request.params, language: request.language, timeoutMs: request.timeoutMs })).answer;
      } catch (error) {
        if (error instanceof GatewayRequestError) throw outgoingRefusal(request, error.errors, log);
        if (error instanceof GatewayUnavailableError) {
          // Only an answer that reached us and failed its check is "invalid"; an HTTP error (429, any other 4xx, 5xx), whatever
          // its body, is the transport's refusal (rate_limited, http_error): unreachable.
          const unverified = error.kind === 'signature_invalid' || error.kind === 'foreign_answer';
          // A rate limit's wait, as the gateway named it, for the browser to try again after.
          const wait = error.kind === 'rate_limited' && error.retryAfterMs !== undefined ? { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) } : undefined;
          throw new EndpointRefusal(unverified ? 'gateway_signature_invalid' : 'gateway_unreachable', { failure: error.kind, ...(wait && { headers: wait }) });
        }
        throw error;
      }
    },
  };
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
