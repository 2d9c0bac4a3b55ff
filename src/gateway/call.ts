/**
 * Every call to the gateway takes the same path: the request checked by the core's schema of that
 * request (a refused field is named, in English or Arabic, and nothing is signed or sent), signed
 * with the request phrase, posted with a time limit, the answer read within a size limit (JSON, or
 * XML read with the core's `parseXml`), its signature verified with the response phrase by the
 * core's rule for its operation, its echo of the order or batch compared with what was asked,
 * parsed with the core's answer schema, and its `3ds_url`, if any, checked to be one a customer may
 * be sent to (https; core `isUsableThreeDsUrl`). Only then is anything of it believed.
 *
 * The gateway's reference of an order is `svc_id` here and whatever `gatewayReferenceField` says on
 * the wire: the request is renamed just before it is signed, the answer just after it verified
 * (core `toWireNames` / `fromWireNames`), so every signature is over the names the gateway sees.
 *
 * A read-only call may be tried again after a transport failure (`retry: true`), waiting at least
 * what the gateway's `Retry-After` asks, within the call's deadline; a call that moves money never
 * is: see reconcile.ts.
 */
import type * as z from 'zod/mini';
import { toFieldErrors, validate } from '../core/field-errors.ts';
import type { Language } from '../core/language.ts';
import { isNotFoundCode } from '../core/order-status.ts';
import { isUsableThreeDsUrl, operationOutcome, parseResponseCode } from '../core/response.ts';
import { signatureOptionsFor, signParams, verifySignature, wireParams, type SignableParams } from '../core/signature.ts';
import { fromWireNames, toWireNames } from '../core/wire-names.ts';
import type { Logger } from '../log/logger.ts';
import { compiled } from './compiled.ts';
import type { GatewaySettings } from './settings.ts';
import {
  answerFields,
  GatewayRequestError,
  GatewayUnavailableError,
  isRetryable,
  post,
  readText,
  timeLimit,
} from './transport.ts';

/** What the client knows of one operation of the gateway. */
export interface OperationSpec<Answer> {
  /** The operation's name in logs and errors, e.g. `CAPTURE`. */
  readonly name: string;
  /** The core's schema of the request (signature included). */
  readonly requestSchema: z.ZodMiniType;
  /** The core's schema of the answer, checked after the signature. */
  readonly answerSchema: z.ZodMiniType<Answer>;
  /** Where it is posted (default paymentApi). */
  readonly endpoint?: keyof GatewaySettings['urls'];
}

/** A file sent beside the signed fields, as a multipart form (UPLOAD_BATCH_FILE). */
export interface FilePart {
  readonly name: string;
  readonly type: string;
  readonly data: string | Uint8Array<ArrayBuffer>;
}

export interface CallRequest {
  /** The request's fields; `access_code` and `merchant_identifier` are added, `signature` computed. */
  readonly params: SignableParams;
  /** Language of field errors (the request's `language`, when it has one). */
  readonly language: Language;
  /** Retry on transport failures: for read-only calls only. */
  readonly retry?: boolean;
  /** Sent as a multipart form with this file part (the batch upload). */
  readonly file?: FilePart;
  /** Largest answer read (default the client's `maxAnswerBytes`). */
  readonly maxAnswerBytes?: number;
  /** Time limit of each attempt (default the client's `timeoutMs`). */
  readonly timeoutMs?: number;
}

/** A verified answer: the parsed shape and every field it carried (for logs and merchant hooks). */
export interface VerifiedAnswer<Answer> {
  readonly answer: Answer;
  /** Every field of the answer, the gateway's reference named `svc_id` whatever the wire called it. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** 1 for the first attempt; more when a read was tried again. */
  readonly attempt: number;
}

/** What calls share: the settings and a redacting logger. */
export interface CallContext {
  readonly settings: GatewaySettings;
  readonly log: Logger;
}

/** The language of a call: the one it names, else the client's default. */
export function languageOf(ctx: CallContext, input: { readonly language?: Language | undefined }): Language {
  return input.language ?? ctx.settings.language;
}

/**
 * A stand-in for the signature while the request is checked before signing: every request schema
 * requires one, and the real one is only computed for a request that passed.
 */
const SIGNATURE_PLACEHOLDER = '0'.repeat(64);

/** Fields whose echo must be the value sent: an answer naming another is not about this request. */
const ECHOED_IDENTITIES: readonly string[] = ['merchant_reference', 'batch_reference'];

/**
 * Fields an answer may leave out, but that must be the value sent when it echoes them (the
 * specification: every parameter sent comes back): another amount, currency, command or order of
 * the gateway's is another request's answer, from a faulty proxy or an answer replayed.
 */
const ECHOED_WHEN_GIVEN: readonly string[] = ['amount', 'currency', 'command', 'query_command', 'service_command', 'svc_id'];

/** The first field the answer echoes otherwise than it was sent (inside names both), if any. */
function foreignField(sent: SignableParams, answer: Readonly<Record<string, unknown>>): string | undefined {
  const differs = (name: string) => sent[name] !== undefined && String(answer[name]) !== String(sent[name]);
  return ECHOED_IDENTITIES.find(differs) ?? ECHOED_WHEN_GIVEN.find((name) => answer[name] !== undefined && differs(name));
}

/**
 * The request as it will be sent, unsigned and under the inside names (the wire's are given when it
 * is signed): identity first, absent values dropped. Throws GatewayRequestError.
 */
export function checkedRequest(ctx: CallContext, operation: OperationSpec<unknown>, request: CallRequest): SignableParams {
  const { settings } = ctx;
  const wire: Record<string, unknown> = wireParams({
    access_code: settings.accessCode,
    merchant_identifier: settings.merchantIdentifier,
    ...request.params,
  });
  delete wire['signature'];
  const checked = validate(compiled(operation.requestSchema), { ...wire, signature: SIGNATURE_PLACEHOLDER }, request.language);
  if (!checked.ok) throw new GatewayRequestError(operation.name, checked.errors);
  return wire as SignableParams;
}

/** Signs and sends once; the answer verified and parsed. */
async function attempt<Answer>(
  ctx: CallContext,
  operation: OperationSpec<Answer>,
  request: CallRequest,
  unsigned: SignableParams,
): Promise<{ answer: Answer; fields: Record<string, unknown> }> {
  const { settings, log } = ctx;
  const signed = await signParams(toWireNames(unsigned, settings.gatewayReferenceField), settings.requestPhrase, settings.shaType);
  const url = settings.urls[operation.endpoint ?? 'paymentApi'];
  let body: BodyInit;
  let headers: Record<string, string> = { accept: 'application/json, application/xml' };
  if (request.file) {
    const form = new FormData();
    for (const [name, value] of Object.entries(signed)) form.set(name, String(value));
    form.set('file', new Blob([request.file.data], { type: request.file.type }), request.file.name);
    body = form;
  } else {
    body = JSON.stringify(signed);
    headers = { ...headers, 'content-type': 'application/json; charset=utf-8' };
  }
  const limit = timeLimit(request.timeoutMs ?? settings.timeoutMs);
  let text: string;
  let contentType: string;
  try {
    const now = () => settings.now().getTime();
    const response = await post({ fetch: settings.fetch, now, url, operation: operation.name, body, headers, signal: limit.signal });
    contentType = response.headers.get('content-type') ?? '';
    text = await readText(response, request.maxAnswerBytes ?? settings.maxAnswerBytes, operation.name);
  } finally {
    limit.clear();
  }
  const wire = answerFields(text, contentType, operation.name);

  // Verified as it came, over the wire's names; read under the inside names only then.
  const verified = await verifySignature(wire as SignableParams, settings.responsePhrase, settings.shaType, signatureOptionsFor(wire));
  if (!verified.valid) {
    log.error('gateway_signature_invalid', { operation: operation.name, reason: verified.reason });
    throw new GatewayUnavailableError(operation.name, 'signature_invalid');
  }
  const fields = fromWireNames(wire, settings.gatewayReferenceField);
  const foreign = foreignField(unsigned, fields);
  if (foreign !== undefined) {
    log.error('gateway_answer_foreign', { operation: operation.name, field: foreign });
    throw new GatewayUnavailableError(operation.name, 'foreign_answer');
  }
  const parsed = compiled(operation.answerSchema).safeParse(fields);
  if (!parsed.success) {
    log.error('gateway_answer_malformed', {
      operation: operation.name,
      fields: toFieldErrors(parsed.error.issues, fields, 'en').map((error) => `${error.field} ${error.rule}`),
    });
    throw new GatewayUnavailableError(operation.name, 'answer_invalid');
  }
  // Where the customer would be sent for 3-D Secure: https from a live gateway (core
  // isUsableThreeDsUrl). An answer sending them elsewhere cannot be used, like a malformed one: a
  // money call settles it with CHECK_STATUS, the endpoint asks CHECK_STATUS, the address goes nowhere.
  const threeDsUrl = fields['3ds_url'];
  if (threeDsUrl !== undefined && threeDsUrl !== '' && !isUsableThreeDsUrl(String(threeDsUrl), settings.gatewayBaseUrl)) {
    log.error('gateway_answer_malformed', { operation: operation.name, fields: ['3ds_url https'] });
    throw new GatewayUnavailableError(operation.name, 'answer_invalid');
  }
  log.info('gateway_answer', {
    operation: operation.name,
    merchant_reference: fields['merchant_reference'],
    response_code: fields['response_code'],
    // "No such order" answers the question (a CHECK_STATUS before the first payment, every time): not a refusal.
    outcome: isNotFoundCode(parseResponseCode(fields['response_code'])?.code) ? 'not_found' : operationOutcome(fields),
  });
  return { answer: parsed.data, fields };
}

/** The wait before attempt `next` (2, 3, …): the policy's delay, doubled each time, capped. */
export function backoff(policy: { readonly delayMs: number; readonly maxDelayMs: number }, next: number): number {
  return Math.min(policy.delayMs * 2 ** Math.max(0, next - 2), policy.maxDelayMs);
}

/** The waits of one call, from its first attempt to its deadline. */
export interface CallWaits {
  /**
   * Waits before attempt `next`: the policy's growing wait, or longer when the last failure's
   * `Retry-After` asked for more. Resolves to the wait, or undefined without waiting when it would
   * end past the call's deadline (the caller then gives up).
   */
  before(policy: { readonly delayMs: number; readonly maxDelayMs: number }, next: number, retryAfterMs?: number): Promise<number | undefined>;
}

export function callWaits(ctx: CallContext): CallWaits {
  const { now, sleep, deadlineMs } = ctx.settings;
  const deadline = now().getTime() + deadlineMs;
  return {
    async before(policy, next, retryAfterMs) {
      const delay = Math.max(backoff(policy, next), retryAfterMs ?? 0);
      if (now().getTime() + delay > deadline) return undefined;
      await sleep(delay);
      return delay;
    },
  };
}

/**
 * One operation, end to end. Throws GatewayRequestError (nothing sent) or GatewayUnavailableError
 * (no usable answer, after the retries of a read-only call).
 */
export async function call<Answer>(
  ctx: CallContext,
  operation: OperationSpec<Answer>,
  request: CallRequest,
): Promise<VerifiedAnswer<Answer>> {
  const unsigned = checkedRequest(ctx, operation as OperationSpec<unknown>, request);
  const attempts = request.retry ? ctx.settings.retry.attempts : 1;
  const waits = callWaits(ctx);
  for (let number = 1; ; number++) {
    try {
      return { ...(await attempt(ctx, operation, request, unsigned)), attempt: number };
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      const last = number >= attempts || !isRetryable(error.kind);
      logFailure(ctx.log, operation.name, error, !last);
      if (last) throw error;
      const delay = await waits.before(ctx.settings.retry, number + 1, error.retryAfterMs);
      if (delay === undefined) {
        ctx.log.error('gateway_retry_abandoned', { operation: operation.name, reason: error.kind, retry_after_ms: error.retryAfterMs });
        throw error;
      }
      ctx.log.info('gateway_retry', { operation: operation.name, attempt: number + 1, reason: error.kind, delay_ms: delay });
    }
  }
}

/**
 * Logs a call's failure: what was lost, and the wait a `Retry-After` asked for. A rate limit is a
 * warning, retried or not: the gateway answered, asking for less, and every caller keeps its wait
 * (an error line would page an operator for the gateway doing its job).
 */
function logFailure(log: Logger, operation: string, error: GatewayUnavailableError, willRetry: boolean): void {
  const { kind, httpStatus, retryAfterMs } = error;
  // The answer's own problems were logged where they were found.
  if (kind === 'signature_invalid' || kind === 'foreign_answer' || kind === 'answer_invalid') return;
  const event =
    kind === 'unreadable' || kind === 'too_large' ? 'gateway_answer_unreadable' : kind === 'rate_limited' ? 'gateway_rate_limited' : 'gateway_unreachable';
  const reason = kind === 'http_error' || kind === 'rate_limited' ? `HTTP ${httpStatus ?? 'error'}` : kind;
  (willRetry || kind === 'rate_limited' ? log.warn : log.error).call(log, event, {
    operation,
    reason,
    ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }),
  });
}
