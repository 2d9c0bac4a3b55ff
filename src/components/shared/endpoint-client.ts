/**
 * The one client the elements use to reach the merchant endpoint. Every answer is checked against
 * its route's result schema before an element sees it (src/core/endpoint-results.ts, the browser's half of
 * the contract in src/core/endpoint-api.ts);
 * the bodies the elements build are not checked again here, since the endpoint parses every one.
 * Elements never call `fetch`.
 */
import { ORDER_TOKEN_HEADER, ROUTES, type ClientRouteName, type EndpointCall } from '../../core/endpoint-routes.ts';
import { isPaymentCommand } from '../../core/payment-commands.ts';
import { readOrderAnswer } from '../../core/order-answer.ts';
import { loadContract } from './contract.ts';
import type { RequestErrorKind } from './events.ts';

/**
 * Answers read without loading the contract's other shapes: the order's, which a page asks for
 * before the customer acts, so that the first screen waits for no other code (its shape is in the
 * entry, src/core/order-answer.ts). Every other answer, and a refusal of any request, is read with
 * the contract's shapes, which load with that request.
 */
const READERS: Partial<Record<EndpointCall['result'], (payload: unknown) => unknown>> = { orderResult: readOrderAnswer };

/** A route the elements call (every route but the gateway's return address). */
export type ClientRoute = ClientRouteName;

/**
 * A failed call. `kind` says where it failed; `code` and `field` come from the endpoint, and
 * `responseCode` is the gateway's five-digit code when the gateway refused (`gateway_refused`).
 */
export class EndpointRequestError extends Error {
  readonly code: string | undefined;
  readonly field: string | undefined;
  readonly responseCode: string | undefined;
  /** Seconds the endpoint asked to wait before trying again (`Retry-After`, e.g. `otp_resend_limited`). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly route: ClientRoute,
    readonly kind: RequestErrorKind,
    message: string,
    readonly details: { code?: string; field?: string; responseCode?: string; httpStatus?: number; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'EndpointRequestError';
    this.code = details.code;
    this.field = details.field;
    this.responseCode = details.responseCode;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** `Retry-After` as seconds: a number of seconds, or an HTTP date; undefined when absent or unreadable. */
function retryAfterOf(response: Response): number | undefined {
  const header = response.headers.get('retry-after')?.trim();
  if (!header) return undefined;
  if (/^\d+$/.test(header)) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

export interface EndpointClientOptions {
  /** Replaces the global `fetch` (tests, or a merchant wrapping requests). */
  readonly fetch?: typeof fetch;
  /** The shop's opaque token for this order and customer, sent as the `pg-order-token` header. */
  readonly orderToken?: string;
}

/** Posts JSON to `{endpoint}{route}` and returns the result, read with its route's shape. */
export class EndpointClient {
  readonly endpoint: string;
  readonly orderToken: string;
  readonly #fetch: typeof fetch;

  constructor(endpoint: string, options: EndpointClientOptions = {}) {
    this.endpoint = endpoint.replace(/\/+$/, '');
    this.orderToken = options.orderToken ?? '';
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** The address a route is posted to. */
  urlOf(route: ClientRoute): string {
    return `${this.endpoint}${ROUTES[route]}`;
  }

  /**
   * Sends one request. Throws {@link EndpointRequestError} for a missing endpoint URL, a network
   * failure, a refusal by the endpoint or an answer that breaks the result schema; an aborted
   * request rejects with the signal's `AbortError` unchanged.
   */
  async request<Body, Result>(call: EndpointCall<ClientRoute, Body, Result>, body: Body, signal?: AbortSignal): Promise<Result> {
    const route = call.name;
    // The page gives `command` (an attribute): a typo stops here, before any request.
    const command = (body as { command?: unknown }).command;
    if (command !== undefined && !isPaymentCommand(command)) {
      throw new EndpointRequestError(route, 'invalid_request', `invalid command for ${route}`, { field: 'command' });
    }
    if (!this.endpoint) {
      throw new EndpointRequestError(route, 'invalid_request', 'no endpoint URL configured', { field: 'endpoint' });
    }

    // The schemas load while the request travels (once per page; at hand afterwards), unless its answer is read without them.
    const reader = READERS[call.result];
    const contract = reader ? undefined : loadContract();
    contract?.catch(() => {});
    let response: Response;
    try {
      response = await this.#fetch(this.urlOf(route), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          // A standalone endpoint on another origin gets no cookie: this tells the shop whose request it is.
          ...(this.orderToken && { [ORDER_TOKEN_HEADER]: this.orderToken }),
        },
        body: JSON.stringify(body),
        credentials: 'same-origin',
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw new EndpointRequestError(route, 'network', `the endpoint could not be reached (${String(error)})`);
    }

    const payload = await readJson(response);
    if (signal?.aborted) throw signal.reason;
    if (response.ok && reader) {
      const result = reader(payload) as Result | undefined;
      if (result === undefined) throw invalidAnswer(route, response);
      return result;
    }
    let check: Awaited<ReturnType<typeof loadContract>>;
    try {
      check = await (contract ?? loadContract());
    } catch {
      throw new EndpointRequestError(route, 'network', 'the checkout could not load the code that reads the answer');
    }
    if (!response.ok) {
      const refusal = check.checkedRefusal(payload);
      if (refusal) {
        const { code, message, field, response_code: responseCode } = refusal;
        throw new EndpointRequestError(route, 'refused', message, {
          code,
          field,
          responseCode,
          httpStatus: response.status,
          retryAfterSeconds: retryAfterOf(response),
        });
      }
      throw new EndpointRequestError(route, 'unavailable', `the endpoint answered HTTP ${response.status}`, {
        httpStatus: response.status,
      });
    }
    const result = check.checkedResult(call, payload);
    if (result === undefined) throw invalidAnswer(route, response);
    return result;
  }
}

function invalidAnswer(route: ClientRoute, response: Response): EndpointRequestError {
  return new EndpointRequestError(route, 'invalid_response', `the answer of ${route} does not match the contract`, {
    httpStatus: response.status,
  });
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}
