/**
 * The one client the elements use to reach the merchant endpoint. Every body is checked against
 * the route's request schema before it leaves and every answer against its result schema before
 * an element sees it (src/core/endpoint-api.ts is the contract). Elements never call `fetch`.
 */
import * as z from 'zod/mini';
import {
  ORDER_TOKEN_HEADER,
  ROUTES,
  billRequest,
  billResult,
  endpointError,
  financingOtpRequest,
  financingOtpResult,
  financingPurchaseRequest,
  financingVerifyCustomerRequest,
  financingVerifyCustomerResult,
  financingVerifyOtpRequest,
  financingVerifyOtpResult,
  formPostResult,
  hostedPageRequest,
  installmentPlansRequest,
  installmentPlansResult,
  merchantPageRequest,
  orderRequest,
  saveCardRequest,
  orderResult,
  paymentResult,
  statusRequest,
  statusResult,
} from '../../core/endpoint-api.ts';
import type { RequestErrorKind } from './events.ts';

/** Request and result schema of each route the elements call. */
export const CLIENT_CONTRACT = {
  order: { request: orderRequest, result: orderResult },
  hostedPage: { request: hostedPageRequest, result: formPostResult },
  merchantPage: { request: merchantPageRequest, result: formPostResult },
  saveCard: { request: saveCardRequest, result: formPostResult },
  installmentPlans: { request: installmentPlansRequest, result: installmentPlansResult },
  bill: { request: billRequest, result: billResult },
  financingVerifyCustomer: { request: financingVerifyCustomerRequest, result: financingVerifyCustomerResult },
  financingOtp: { request: financingOtpRequest, result: financingOtpResult },
  financingVerifyOtp: { request: financingVerifyOtpRequest, result: financingVerifyOtpResult },
  financingPurchase: { request: financingPurchaseRequest, result: paymentResult },
  status: { request: statusRequest, result: statusResult },
} as const;

/** A route the elements call (every route but the gateway's return address). */
export type ClientRoute = keyof typeof CLIENT_CONTRACT;
/** The body a route accepts (what the element sends, before the schema's defaults). */
export type RequestOf<R extends ClientRoute> = z.input<(typeof CLIENT_CONTRACT)[R]['request']>;
/** The checked answer of a route. */
export type ResultOf<R extends ClientRoute> = z.output<(typeof CLIENT_CONTRACT)[R]['result']>;

/**
 * A failed call. `kind` says where it failed; `code` and `field` come from the endpoint, and
 * `responseCode` is the gateway's five-digit code when the gateway refused (`gateway_refused`).
 */
export class EndpointRequestError extends Error {
  constructor(
    readonly route: ClientRoute,
    readonly kind: RequestErrorKind,
    message: string,
    readonly details: { code?: string; field?: string; responseCode?: string; httpStatus?: number; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'EndpointRequestError';
  }

  get code(): string | undefined {
    return this.details.code;
  }

  get field(): string | undefined {
    return this.details.field;
  }

  get responseCode(): string | undefined {
    return this.details.responseCode;
  }

  /** Seconds the endpoint asked to wait before trying again (`Retry-After`, e.g. `otp_resend_limited`). */
  get retryAfterSeconds(): number | undefined {
    return this.details.retryAfterSeconds;
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

/** Posts JSON to `{endpoint}{route}` and returns the zod-checked result. */
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
   * Sends one request. Throws {@link EndpointRequestError} for a body the contract refuses, a
   * network failure, a refusal by the endpoint or an answer that breaks the result schema; an
   * aborted request rejects with the signal's `AbortError` unchanged.
   */
  async request<R extends ClientRoute>(route: R, body: RequestOf<R>, signal?: AbortSignal): Promise<ResultOf<R>> {
    const contract = CLIENT_CONTRACT[route];
    const checkedBody = z.safeParse(contract.request as z.ZodMiniType, body);
    if (!checkedBody.success) {
      const issue = checkedBody.error.issues[0];
      throw new EndpointRequestError(route, 'invalid_request', `invalid request to ${route}`, {
        field: issue?.path.join('.') || undefined,
      });
    }
    if (!this.endpoint) {
      throw new EndpointRequestError(route, 'invalid_request', 'no endpoint URL configured', { field: 'endpoint' });
    }

    let response: Response;
    try {
      response = await this.#fetch(this.urlOf(route), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          // A standalone endpoint on another origin gets no cookie: this tells the shop whose request it is.
          ...(this.orderToken ? { [ORDER_TOKEN_HEADER]: this.orderToken } : {}),
        },
        body: JSON.stringify(checkedBody.data),
        credentials: 'same-origin',
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw new EndpointRequestError(route, 'network', `the endpoint could not be reached (${String(error)})`);
    }

    const payload = await readJson(response);
    if (signal?.aborted) throw signal.reason;
    if (!response.ok) {
      const refusal = z.safeParse(endpointError, payload);
      if (refusal.success) {
        const { code, message, field, response_code: responseCode } = refusal.data.error;
        const retryAfterSeconds = retryAfterOf(response);
        return Promise.reject(
          new EndpointRequestError(route, 'refused', message, {
            code,
            field,
            responseCode,
            httpStatus: response.status,
            ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
          }),
        );
      }
      throw new EndpointRequestError(route, 'unavailable', `the endpoint answered HTTP ${response.status}`, {
        httpStatus: response.status,
      });
    }
    const checkedResult = z.safeParse(contract.result as z.ZodMiniType, payload);
    if (!checkedResult.success) {
      throw new EndpointRequestError(route, 'invalid_response', `the answer of ${route} does not match the contract`, {
        httpStatus: response.status,
      });
    }
    return checkedResult.data as ResultOf<R>;
  }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}
