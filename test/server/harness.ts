/**
 * The endpoint as the tests drive it: real `Request` objects in, real `Response` objects out,
 * the fake gateway behind it, every log line captured, every `onResult` call recorded.
 */
import { createJsonLogger } from '../../src/log/logger.ts';
import { createMerchantEndpoint, type MerchantEndpoint, type RequestContext } from '../../src/server/endpoint.ts';
import type { EndpointConfig, VerifiedResult } from '../../src/server/config.ts';
import { InMemoryOrderStore, type MerchantOrder } from '../../src/server/orders.ts';
import { InMemoryResultLedger } from '../../src/server/result-ledger.ts';
import { CHECKOUT_URL, createFakeGateway, GATEWAY_ACCOUNT, type FakeGateway } from './fake-gateway.ts';

export const SHOP_ORIGIN = 'https://shop.example';
export const ELEMENTS_ORIGIN = 'https://elements.example';
export const BASE_PATH = '/pg';
export const RETURN_URL = `${SHOP_ORIGIN}${BASE_PATH}/return`;
export const START = new Date('2026-11-22T05:00:00Z');
/** The partner codes of the test account: a live account's, not the sandbox's. */
export const VOUCHER_PARTNER_CODE = 'VCH01';
export const FINANCING_PARTNER_CODE = 'FIN01';

export const ORDERS: readonly MerchantOrder[] = [
  {
    merchant_reference: 'order-1001',
    amount: 250_000,
    currency: 'EGP',
    description: 'Headphones',
    customer_email: 'buyer@example.com',
  },
  { merchant_reference: 'order-2002', amount: 19_900, currency: 'SAR' },
  { merchant_reference: 'order-3003', amount: 12_500, currency: 'KWD', description: 'Espresso machine' },
];

export interface Harness {
  readonly endpoint: MerchantEndpoint;
  readonly gateway: FakeGateway;
  readonly orders: InMemoryOrderStore;
  /** Every log line the endpoint wrote, as JSON text. */
  readonly logs: string[];
  /** Every result handed to onResult. */
  readonly results: VerifiedResult[];
  /** The results the endpoint has reported, by idempotency key (cleared between tests that share a harness). */
  readonly ledger: InMemoryResultLedger;
  /** Moves the endpoint's clock. */
  advance(ms: number): void;
  post(route: string, body: unknown, init?: PostInit): Promise<Answer>;
  /** The gateway's return (its fields, as the customer's browser form-posts them to the return URL). */
  postReturn(fields: Readonly<Record<string, string>>): Promise<Answer>;
  send(request: Request, context?: RequestContext): Promise<Answer>;
}

export interface PostInit {
  readonly origin?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly context?: RequestContext;
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  // Tests read into the JSON freely; the contract schemas check the shapes where it matters.
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function setup(overrides: Partial<EndpointConfig> = {}): Harness {
  const gateway = createFakeGateway();
  const orders = new InMemoryOrderStore(ORDERS);
  const logs: string[] = [];
  const results: VerifiedResult[] = [];
  const ledger = new InMemoryResultLedger();
  let now = START.getTime();
  const endpoint = createMerchantEndpoint({
    ...GATEWAY_ACCOUNT,
    checkoutUrl: CHECKOUT_URL,
    publicUrl: SHOP_ORIGIN,
    basePath: BASE_PATH,
    allowedOrigins: [ELEMENTS_ORIGIN],
    resolveOrder: orders.resolve,
    onResult: (result) => {
      results.push(result);
    },
    resultUrl: '/checkout/result',
    voucherPartnerCode: VOUCHER_PARTNER_CODE,
    financingPartnerCode: FINANCING_PARTNER_CODE,
    resultLedger: ledger,
    fetch: gateway.fetch,
    logger: createJsonLogger((line) => logs.push(line)),
    now: () => new Date(now),
    ...overrides,
  });

  const send = async (request: Request, context: RequestContext = { clientAddress: '203.0.113.7' }): Promise<Answer> => {
    const response = await endpoint(request, context);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body };
  };

  return {
    endpoint,
    gateway,
    orders,
    logs,
    results,
    ledger,
    advance(ms) {
      now += ms;
    },
    send,
    post(route, body, init = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
      if (init.origin) headers['origin'] = init.origin;
      const request = new Request(`${SHOP_ORIGIN}${BASE_PATH}${route}`, {
        method: 'POST',
        headers,
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return send(request, init.context);
    },
    postReturn(fields) {
      return send(
        new Request(`${SHOP_ORIGIN}${BASE_PATH}/return`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        }),
      );
    },
  };
}

/** Every log line, joined: for asserting that something never reached the logs. */
export function allLogs(harness: Harness): string {
  return harness.logs.join('\n');
}
