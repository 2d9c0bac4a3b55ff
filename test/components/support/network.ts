/**
 * The network of the element tests: msw in the browser, backed by the real merchant endpoint
 * (`createMerchantEndpoint`, mounted at `/pg`) whose server-to-server `fetch` goes to a real
 * sandbox gateway (`createSandboxGateway`) in the same page. One source of truth: the elements
 * meet the same endpoint and gateway logic as the Node tests and the demo.
 *
 * Every request the endpoint receives and every request it sends to the gateway is recorded, so
 * tests can assert on what crossed each boundary (for example, that no card data reached the
 * endpoint).
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupWorker, type SetupWorker } from 'msw/browser';
import { createSandboxGateway, endpointCredentials, SANDBOX_MERCHANT, type SandboxGateway } from '../../../src/sandbox/index.ts';
import { sandboxHandlers } from '../../../src/sandbox/msw.ts';
import type { EndpointConfig } from '../../../src/server/config.ts';
import { createMerchantEndpoint } from '../../../src/server/endpoint.ts';
import { InMemoryOrderStore, type MerchantOrder } from '../../../src/server/orders.ts';

/** The endpoint URL the elements are given. */
export const ENDPOINT = '/pg';
/** Host of the sandbox gateway (its API and its hosted page). */
export const GATEWAY_ORIGIN = 'https://sandbox.pg.test';
export const API_ROOT = 'FortAPI';
/** Where the signed forms are posted: `{checkout_url}/{api_root}/paymentPage`. */
export const PAYMENT_PAGE_URL = `${GATEWAY_ORIGIN}/${API_ROOT}/paymentPage`;

/** Orders the endpoint knows. Amounts in minor units. */
export const ORDERS = {
  /** EGP 2,500.00: every EGP plan of the sandbox issuers is eligible. */
  egp: { merchant_reference: 'order-egp-2500', amount: 250_000, currency: 'EGP', description: 'Headphones' },
  /** EGP 45.00: below every plan's minimum. */
  small: { merchant_reference: 'order-egp-45', amount: 4_500, currency: 'EGP', description: 'Phone case' },
  /** USD: no issuer has plans in this currency. */
  usd: { merchant_reference: 'order-usd-100', amount: 10_000, currency: 'USD', description: 'Gift card' },
} as const satisfies Record<string, MerchantOrder>;

/** A reference the endpoint does not know: it refuses with `unknown_order`. */
export const UNKNOWN_ORDER = 'order-unknown';

/** One request as it crossed a boundary. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  /** The raw body text. */
  readonly body: string;
  /** The body parsed as JSON (endpoint requests) or as form fields, when it is either. */
  readonly fields: Readonly<Record<string, unknown>> | undefined;
}

export interface TestNetwork {
  readonly worker: SetupWorker;
  readonly gateway: SandboxGateway;
  readonly orders: InMemoryOrderStore;
  /** Every request the merchant endpoint received from the browser, oldest first. */
  readonly endpointRequests: RecordedRequest[];
  /** Every request the endpoint sent to the gateway, oldest first. */
  readonly gatewayRequests: RecordedRequest[];
  /** Endpoint requests to one route (`/order`, `/hosted-page`, …). */
  requestsTo(route: string): RecordedRequest[];
  /** Makes the endpoint unreachable from the browser (a network error). */
  endpointUnreachable(): void;
  /** Makes the gateway unreachable from the endpoint (the endpoint answers `gateway_unreachable`). */
  gatewayUnreachable(): void;
  /**
   * Sets the clock of the endpoint and the gateway (bill expiry, flow lifetime, hold periods);
   * `reset()` puts the system clock back.
   */
  setClock(now: () => Date): void;
  /** Holds every endpoint answer until the returned function is called. */
  holdEndpoint(): () => void;
  /**
   * For one test, passes the answers of `route` through `transform` (the real endpoint still
   * answers; the test changes what the gateway would have said, e.g. issuer logos).
   */
  transformAnswer(route: string, transform: (answer: Record<string, unknown>) => Record<string, unknown>): void;
  /**
   * For one test, an endpoint configured with `settings` as well (the account's settings, e.g.
   * `cvvSuppression`); `reset()` puts the usual endpoint back.
   */
  configureEndpoint(settings: Partial<EndpointConfig>): void;
  /** Adds handlers for one test (msw `worker.use`). */
  use(...handlers: RequestHandler[]): void;
  /** Forgets recordings, one-test handlers and failure modes; keeps the orders. */
  reset(): void;
  stop(): void;
}

let running: TestNetwork | undefined;

async function record(request: Request): Promise<RecordedRequest> {
  const body = await request.clone().text();
  const url = new URL(request.url);
  return { method: request.method, url: request.url, path: url.pathname, body, fields: parseFields(body) };
}

function parseFields(body: string): Record<string, unknown> | undefined {
  if (!body) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return Object.fromEntries(new URLSearchParams(body));
  }
}

/** Starts (once per test file) the worker, the endpoint and the gateway. */
export async function startNetwork(): Promise<TestNetwork> {
  if (running) return running;
  const systemClock = (): Date => new Date();
  let clock = systemClock;
  const now = (): Date => clock();
  const gateway = createSandboxGateway({ merchants: [SANDBOX_MERCHANT], apiRoot: API_ROOT, now });
  const orders = new InMemoryOrderStore(Object.values(ORDERS));
  const endpointRequests: RecordedRequest[] = [];
  const gatewayRequests: RecordedRequest[] = [];
  let gatewayDown = false;
  let hold: Promise<void> | undefined;

  const endpointWith = (settings: Partial<EndpointConfig> = {}) => createMerchantEndpoint({
    ...endpointCredentials(),
    gatewayBaseUrl: GATEWAY_ORIGIN,
    checkoutUrl: GATEWAY_ORIGIN,
    apiRoot: API_ROOT,
    publicUrl: location.origin,
    basePath: ENDPOINT,
    resolveOrder: orders.resolve,
    // The elements may be configured for either payment (command="AUTHORIZATION"): this shop allows both.
    paymentCommands: ['PURCHASE', 'AUTHORIZATION'],
    now,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      gatewayRequests.push(await record(request));
      if (gatewayDown) throw new TypeError('Failed to fetch');
      return gateway.handle(request);
    },
    ...settings,
  });
  let endpoint = endpointWith();

  const endpointHandler = http.all(`${ENDPOINT}/*`, async ({ request }) => {
    endpointRequests.push(await record(request));
    if (hold) await hold;
    return endpoint(request);
  });

  const worker = setupWorker(endpointHandler, ...sandboxHandlers({ gateway, origin: GATEWAY_ORIGIN }));
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });

  running = {
    worker,
    gateway,
    orders,
    endpointRequests,
    gatewayRequests,
    requestsTo: (route) => endpointRequests.filter((request) => request.path === `${ENDPOINT}${route}`),
    endpointUnreachable: () => worker.use(http.all(`${ENDPOINT}/*`, () => HttpResponse.error())),
    gatewayUnreachable: () => {
      gatewayDown = true;
    },
    setClock: (next) => {
      clock = next;
    },
    holdEndpoint: () => {
      let release = () => {};
      hold = new Promise<void>((resolve) => {
        release = () => {
          hold = undefined;
          resolve();
        };
      });
      return release;
    },
    transformAnswer: (route, transform) =>
      worker.use(
        http.post(`${ENDPOINT}${route}`, async ({ request }) => {
          endpointRequests.push(await record(request));
          const response = await endpoint(request);
          if (!response.ok) return response;
          return HttpResponse.json(transform((await response.json()) as Record<string, unknown>));
        }),
      ),
    configureEndpoint: (settings) => {
      endpoint = endpointWith(settings);
    },
    use: (...handlers) => worker.use(...handlers),
    reset: () => {
      worker.resetHandlers();
      endpointRequests.length = 0;
      gatewayRequests.length = 0;
      gatewayDown = false;
      hold = undefined;
      clock = systemClock;
      gateway.reset();
      // The browser forgets what it kept of the gateway's state (a bill issued, a financing flow) with it:
      // test files share a tab, so its sessionStorage outlives the file.
      sessionStorage.clear();
      // A new endpoint each test: its settings and its counters (the OTP limits) start again.
      endpoint = endpointWith();
    },
    stop: () => {
      worker.stop();
      running = undefined;
    },
  };
  return running;
}
