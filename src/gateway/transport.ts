/**
 * One HTTP exchange with the gateway: the request posted with a time limit, the answer read within
 * a size limit and turned into fields, JSON or XML. Everything that can go wrong on the way is a
 * `GatewayUnavailableError` of a named kind, because what a caller may do next depends on it: a
 * request that never left (`not_sent`) moved nothing, while an answer lost on the way back
 * (`timeout`, `connection`, `http_error`, `unreadable`) may belong to an operation the gateway
 * carried out. An HTTP status of 400 or more is the transport's answer, never the gateway's (which
 * states every outcome in `response_code`, HTTP 200): it is `rate_limited` (429) or `http_error`
 * whatever its body, with the wait its `Retry-After` asks for.
 */
import type { FieldError } from '../core/field-errors.ts';
import { parseXml } from '../core/xml.ts';
import { BodyTooLarge, readLimitedText } from './body.ts';

/** Why a call produced no usable answer. */
export type FailureKind =
  /** The connection was refused or the host is unknown: the request never reached the gateway. */
  | 'not_sent'
  /** No complete answer within the time limit. */
  | 'timeout'
  /** The connection broke (reset, closed) before the answer was read. */
  | 'connection'
  /** The gateway (or a proxy in front of it) answered an HTTP error, 4xx (not 429) or 5xx, whatever its body. */
  | 'http_error'
  /** The gateway (or a proxy in front of it) answered HTTP 429, too many requests, whatever its body. */
  | 'rate_limited'
  /** The answer is larger than the client reads. */
  | 'too_large'
  /** The answer is not a JSON object or an XML `response` document. */
  | 'unreadable'
  /** The answer is unsigned, or its signature does not verify with the response phrase. */
  | 'signature_invalid'
  /** A verified answer about another order or batch than the one asked about. */
  | 'foreign_answer'
  /** A verified answer that is not the operation's shape. */
  | 'answer_invalid';

/**
 * Kinds after which the gateway may have carried out the request. A 429 counts: nothing says the
 * limit is applied before the operation rather than after it, or by the gateway rather than a proxy
 * in front of it, and the official SDKs treat it as any failed call (docs/decisions.md). Settling it
 * costs a few CHECK_STATUS readings; taking it for "nothing moved" could capture twice.
 */
export function mayHaveArrived(kind: FailureKind): boolean {
  return kind !== 'not_sent';
}

/** Kinds worth another attempt of a read-only call: the network's and the transport's, not the answer's. */
export function isRetryable(kind: FailureKind): boolean {
  return (
    kind === 'not_sent' || kind === 'timeout' || kind === 'connection' || kind === 'http_error' || kind === 'rate_limited' || kind === 'unreadable'
  );
}

/** The gateway could not be asked, or its answer cannot be used. Nothing in it comes from the answer. */
export class GatewayUnavailableError extends Error {
  readonly kind: FailureKind;
  /** The operation, e.g. `CAPTURE`. */
  readonly operation: string;
  /** The HTTP status, for `http_error` and `rate_limited`. */
  readonly httpStatus: number | undefined;
  /** How long the answer's `Retry-After` asks to wait before asking again, in milliseconds, when it says. */
  readonly retryAfterMs: number | undefined;

  constructor(
    operation: string,
    kind: FailureKind,
    detail?: {
      readonly httpStatus?: number | undefined;
      readonly message?: string;
      readonly retryAfterMs?: number | undefined;
      /** The host the call was for (`gateway.example:443`), named when no connection could be made to it. */
      readonly host?: string | undefined;
    },
  ) {
    super(detail?.message ?? `${operation}: ${describeFailure(kind, detail?.httpStatus, detail?.retryAfterMs, detail?.host)}`);
    this.name = 'GatewayUnavailableError';
    this.kind = kind;
    this.operation = operation;
    this.httpStatus = detail?.httpStatus;
    this.retryAfterMs = detail?.retryAfterMs;
  }
}

/** The request breaks a field rule of the gateway: it was neither signed nor sent. */
export class GatewayRequestError extends Error {
  readonly operation: string;
  /** Every broken rule, each naming its field, in the call's language. */
  readonly errors: readonly FieldError[];

  constructor(operation: string, errors: readonly FieldError[]) {
    super(`${operation}: ${errors.map((error) => error.message).join('; ')}`);
    this.name = 'GatewayRequestError';
    this.operation = operation;
    this.errors = errors;
  }
}

export function describeFailure(kind: FailureKind, httpStatus?: number, retryAfterMs?: number, host?: string): string {
  const asks = retryAfterMs === undefined ? '' : `; it asks to wait ${Math.ceil(retryAfterMs / 1000)} s`;
  switch (kind) {
    case 'not_sent':
      // Named, because a refused connection is most often a wrong address or a service not started.
      return `could not connect to the gateway${host ? ` at ${host}` : ''} (connection refused or unknown host); nothing was sent`;
    case 'timeout':
      return 'no answer from the gateway within the time limit';
    case 'connection':
      return 'the connection broke before the gateway answered';
    case 'http_error':
      return `the gateway answered HTTP ${httpStatus ?? 'error'}${asks}`;
    case 'rate_limited':
      return `the gateway is limiting requests (HTTP ${httpStatus ?? 429})${asks}`;
    case 'too_large':
      return 'the answer is larger than the client reads';
    case 'unreadable':
      return 'the answer is neither a JSON object nor an XML response';
    case 'signature_invalid':
      return 'the answer is not signed with the response phrase (check the access code, the SHA type and the phrases)';
    case 'foreign_answer':
      return 'the answer is about another order or batch';
    case 'answer_invalid':
      return 'the verified answer is not the shape of this operation';
  }
}

/** The host and port of a call's address, for a message; undefined when it is not an address. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/** Network error codes that mean the request never left this machine. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_INVALID_URL', 'UND_ERR_CONNECT_TIMEOUT']);

/** The kind of a failed `fetch` or body read: a time-out, a request that never left, or a broken connection. */
export function failureOf(error: unknown): FailureKind {
  if (error instanceof GatewayUnavailableError) return error.kind;
  if (!(error instanceof Error)) return 'connection';
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timeout';
  const cause = (error as { cause?: { code?: unknown; name?: unknown; message?: unknown; errors?: unknown } }).cause;
  if (cause?.name === 'TimeoutError') return 'timeout';
  if (typeof cause?.code === 'string' && NOT_SENT_CODES.has(cause.code)) return 'not_sent';
  // A host with several addresses (localhost: ::1 and 127.0.0.1) is refused once per address, as one AggregateError.
  const attempts = Array.isArray(cause?.errors) ? (cause.errors as { code?: unknown }[]) : [];
  if (attempts.length > 0 && attempts.every((attempt) => typeof attempt.code === 'string' && NOT_SENT_CODES.has(attempt.code))) return 'not_sent';
  // fetch refuses a port it never connects to (1, 9, 25, …) before sending anything.
  if (cause?.message === 'bad port') return 'not_sent';
  return 'connection';
}

export interface Exchange {
  readonly fetch: typeof fetch;
  /** The clock a `Retry-After` date is read against (epoch ms). */
  readonly now: () => number;
  readonly url: string;
  readonly operation: string;
  readonly body: BodyInit;
  readonly headers: Readonly<Record<string, string>>;
  /** The exchange's time limit ({@link timeLimit}), which covers reading the body too. */
  readonly signal: AbortSignal;
}

/** A time limit: `signal` aborts with a `TimeoutError` once `ms` have passed, unless `clear()` came first. */
export interface TimeLimit {
  readonly signal: AbortSignal;
  clear(): void;
}

/**
 * Starts a time limit. Cleared when the answer has been read, so a timer lives no longer than its
 * exchange (`AbortSignal.timeout` costs a weak reference and a finalizer per call on Node).
 */
export function timeLimit(ms: number): TimeLimit {
  const controller = new AbortController();
  const timer: unknown = setTimeout(() => controller.abort(new DOMException('no answer within the time limit', 'TimeoutError')), ms);
  // Like AbortSignal.timeout's, the timer alone does not keep a Node process running.
  (timer as { unref?: () => void }).unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer as ReturnType<typeof setTimeout>) };
}

/**
 * `Retry-After` in milliseconds from `nowMs`: delay-seconds, or an HTTP date (IMF-fixdate, the
 * obsolete RFC 850 and asctime forms, all GMT), 0 for a date past; undefined when absent or not one
 * of these (RFC 9110, 10.2.3).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  let at = Number.NaN;
  if (/ GMT$/.test(text)) at = Date.parse(text);
  else if (/^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/.test(text)) at = Date.parse(`${text} GMT`);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * The transport's refusal carried by an HTTP answer, if it is one: 429 (`rate_limited`) or any other
 * status of 300 or more (`http_error`), whatever the body, with its `Retry-After`. A redirect is
 * never followed (`redirect: 'manual'`): it would post the signed request, a card's fields
 * included on the trusted channel, again to wherever it points. The body is
 * discarded: a proxy's or a firewall's page is not the gateway's answer, and reading it as one
 * would call it a forged signature. The official SDKs fail such a call the same way (curl's
 * FAILONERROR, Guzzle's http_errors).
 */
export async function transportRefusal(response: Response, operation: string, nowMs: number): Promise<GatewayUnavailableError | undefined> {
  if (response.status < 300) return undefined;
  await response.body?.cancel().catch(() => {});
  return new GatewayUnavailableError(operation, response.status === 429 ? 'rate_limited' : 'http_error', {
    httpStatus: response.status,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), nowMs),
  });
}

/**
 * Posts the request and waits for the head of the answer, within the exchange's time limit. An HTTP
 * error (4xx, 5xx) is the transport's refusal, never an answer: the gateway states outcomes in
 * `response_code`.
 */
export async function post(exchange: Exchange): Promise<Response> {
  let response: Response;
  try {
    response = await exchange.fetch(exchange.url, {
      method: 'POST',
      headers: exchange.headers,
      body: exchange.body,
      signal: exchange.signal,
      redirect: 'manual',
    });
  } catch (error) {
    throw new GatewayUnavailableError(exchange.operation, failureOf(error), { host: hostOf(exchange.url) });
  }
  const refusal = await transportRefusal(response, exchange.operation, exchange.now());
  if (refusal) throw refusal;
  return response;
}

/** Reads the body as UTF-8 text, refusing more than `maxBytes`. */
export async function readText(response: Response, maxBytes: number, operation: string): Promise<string> {
  try {
    return await readLimitedText(response, maxBytes);
  } catch (error) {
    throw new GatewayUnavailableError(operation, error instanceof BodyTooLarge ? 'too_large' : failureOf(error));
  }
}

/** True when an answer is XML: by its content type, or by its first character when the type says nothing. */
export function isXmlAnswer(contentType: string, text: string): boolean {
  if (/\bxml\b/i.test(contentType)) return true;
  return !/\bjson\b/i.test(contentType) && text.trimStart().startsWith('<');
}

/** The answer's fields: a JSON object, or an XML `response` document read with the core's `parseXml`. */
export function answerFields(text: string, contentType: string, operation: string): Record<string, unknown> {
  let fields: unknown;
  try {
    fields = isXmlAnswer(contentType, text) ? parseXml(text) : JSON.parse(text);
  } catch {
    throw new GatewayUnavailableError(operation, 'unreadable');
  }
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) throw new GatewayUnavailableError(operation, 'unreadable');
  return fields as Record<string, unknown>;
}
