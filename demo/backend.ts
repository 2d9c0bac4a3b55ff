/**
 * The demo's back end without the page server: the merchant endpoint at `/pg`, the demo shop's own
 * API at `/demo-api`, and the sandbox gateway for everything else, as one fetch-style handler.
 * demo/server.ts mounts it in Vite; the tests drive it directly.
 *
 * Orders belong to the browser session that created them (docs/endpoint.md, "Order ownership"):
 * `/demo-api/orders` sets an HttpOnly, SameSite=Lax session cookie, and `resolveOrder` finds an
 * order only for that session, except on the return path, where the reference comes from the
 * gateway's verified answer and the gateway's cross-site post carries no cookie.
 */
import {
  createGatewayClient,
  createMemoryStore,
  createMerchantEndpoint,
  InMemoryOrderStore,
  requestCookie,
  type IssuedBill,
  type OrderLookup,
  type RequestContext,
  type VerifiedResult,
} from '../src/server/index.ts';
import { createSandboxGateway, endpointCredentials, SANDBOX_MERCHANT, type SandboxGateway } from '../src/sandbox/index.ts';
import { createDemoApi, type DemoState } from './demo-api.ts';
import { QUICK_CHECKOUT_PATH, quickCheckoutPage } from './quick-checkout-page.ts';
import { RESULT_PATH, resultPage } from './result-page.ts';

/** The demo shop's session cookie: HttpOnly (no script reads it), SameSite=Lax. */
export const DEMO_SESSION_COOKIE = 'pg_demo_session';

export interface DemoBackend {
  /** Answers `/pg/*`, `/demo-api/*` and the sandbox gateway's paths. */
  handle(request: Request, context?: RequestContext): Promise<Response>;
  /** Whether `path` is one the back end answers (the rest is Vite's). */
  handles(path: string): boolean;
  readonly gateway: SandboxGateway;
  readonly state: DemoState;
}

export function createDemoBackend(origin: string, logs = false): DemoBackend {
  const apiRoot = 'FortAPI';
  // The shop's pages embed the card page and the 3-D Secure page: the account lets its origin frame them.
  const gateway = createSandboxGateway({ merchants: [{ ...SANDBOX_MERCHANT, framingOrigins: [origin] }], apiRoot });
  const orders = new InMemoryOrderStore();
  const owners = new Map<string, string>();
  const results = new Map<string, VerifiedResult>();
  const bills = new Map<string, IssuedBill>();

  /** An order for its owner's session only, except when the gateway's verified answer names it. */
  const resolveOrder = (reference: string, lookup: OrderLookup) => {
    if (lookup.referenceSource === 'gateway') return orders.resolve(reference);
    const session = requestCookie(lookup.request, DEMO_SESSION_COOKIE);
    return session !== undefined && owners.get(reference) === session ? orders.resolve(reference) : undefined;
  };

  const endpoint = createMerchantEndpoint({
    ...endpointCredentials(),
    gatewayBaseUrl: origin,
    checkoutUrl: origin,
    apiRoot,
    publicUrl: origin,
    basePath: '/pg',
    resolveOrder,
    // The storefront lets the shopper choose "charge later" (AUTHORIZATION) to show the merchant
    // panel's capture and void: this shop captures from its panel, so it allows both. A shop that
    // ships on success and never captures keeps the default, PURCHASE only.
    paymentCommands: ['PURCHASE', 'AUTHORIZATION'],
    // What a shop keeps in SQLite or PostgreSQL, kept here in memory: results once per key, and the
    // payments watched after checkout (a bill's watch keeps the bill, shown again in another tab).
    store: createMemoryStore(),
    resultUrl: '/result.html',
    onResult: (result) => {
      orders.recordResult(result);
      // A cash bill's issue (source 'bill', pending) is shown from the bill itself (onBill) and the
      // gateway's CHECK_STATUS, until its payment's own result arrives.
      if (result.source === 'bill') return;
      // The result page shows the order's current result: a later one never takes a paid one's place.
      if (orders.resultOf(result.merchant_reference) === result) results.set(result.merchant_reference, result);
    },
    onBill: (bill) => {
      bills.set(bill.merchant_reference, bill);
    },
    ...(logs ? { logger: { info: console.warn, warn: console.warn, error: console.error } } : {}),
  });
  // The merchant panel's back-office client. The sandbox runs in this process, so its requests are
  // handed to it directly; against a real gateway, leave `fetch` out.
  const client = createGatewayClient({
    ...endpointCredentials(),
    gatewayBaseUrl: origin,
    apiRoot,
    batchSandboxUrl: origin,
    fetch: (input, init) => gateway.handle(new Request(input, init)),
    ...(logs ? { logger: { info: console.warn, warn: console.warn, error: console.error } } : {}),
  });
  const state: DemoState = {
    orders,
    owners,
    results,
    bills,
    endpoint,
    gateway,
    origin,
    sessionCookie: DEMO_SESSION_COOKIE,
    client,
    operations: new Map(),
    reports: 0,
  };
  const api = createDemoApi(state);
  return {
    gateway,
    state,
    handles: (path) => path === QUICK_CHECKOUT_PATH || path === RESULT_PATH || path.startsWith('/pg/') || path.startsWith('/demo-api/') || gateway.handles(new URL(path, origin)),
    async handle(request, context = {}) {
      const { pathname } = new URL(request.url);
      if (pathname.startsWith('/pg/')) return endpoint(request, context);
      if (pathname.startsWith('/demo-api/')) return api(request);
      if (pathname === QUICK_CHECKOUT_PATH) return quickCheckoutPage(state, request);
      if (pathname === RESULT_PATH) return resultPage(state, request);
      return gateway.handle(request);
    },
  };
}
