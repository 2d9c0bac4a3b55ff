/**
 * The worlds of the tests that follow a payment past the endpoint: the endpoint and a reconciler
 * on one hand-moved clock and one memory store, over the fake gateway (`reconcilerWorld`) or over
 * the sandbox gateway with a shop that keeps its orders and results (`sandboxWorld`); and what the
 * tests read of them (`summary` of a result, `events` of the logs, `returnQuery` of a return).
 */
import assert from 'node:assert/strict';
import { createGatewayClient } from '../../../src/gateway/client.ts';
import { createJsonLogger, silentLogger } from '../../../src/log/logger.ts';
import type { EndpointConfig, VerifiedResult } from '../../../src/server/config.ts';
import { createMerchantEndpoint } from '../../../src/server/endpoint.ts';
import { InMemoryOrderStore, type MerchantOrder } from '../../../src/server/orders.ts';
import { createReconciler, type ReconcilerOptions } from '../../../src/server/reconciler.ts';
import { createResultWebhook } from '../../../src/server/result-webhook.ts';
import { recordAndReport } from '../../../src/server/results.ts';
import { ShopAvailability } from '../../../src/server/shop-client.ts';
import { createSandboxClock } from '../../../src/sandbox/clock.ts';
import { createSandboxGateway, type SandboxGateway } from '../../../src/sandbox/gateway.ts';
import { endpointCredentials, SANDBOX_MERCHANT } from '../../../src/sandbox/merchants.ts';
import { testCard, type CardOutcome } from '../../../src/sandbox/test-cards.ts';
import { createMemoryStore } from '../../../src/store/memory.ts';
import type { NewWatch, Store } from '../../../src/store/store.ts';
import { formAction, hiddenFields, sessionOf } from '../../sandbox/support.ts';
import { GATEWAY_ACCOUNT } from '../fake-gateway.ts';
import { setup, SHOP_ORIGIN, START, type Harness } from '../harness.ts';

export const MINUTE = 60_000;
/** Where the sandbox gateway answers, in the sandbox worlds. */
export const SANDBOX = 'https://sandbox.test';
/** The sandbox worlds' clock at the start of a test (the sandbox's "today"). */
export const SANDBOX_START = '2026-03-10T09:00:00Z';

/** Log lines of `event`, parsed. */
export function events(logs: readonly string[], event: string): Record<string, unknown>[] {
  return logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === event);
}

/** What a test compares of a result. */
export function summary(result: VerifiedResult | undefined) {
  return result && {
    outcome: result.outcome,
    order_state: result.order_state,
    error: result.error,
    amount: result.amount,
    currency: result.currency,
  };
}

/** Posts the gateway's return to the harness's endpoint: the query of the page the customer is sent to (a 303). */
export async function returnQuery(h: Harness, fields: Record<string, string>): Promise<URLSearchParams> {
  const answer = await h.postReturn(fields);
  assert.equal(answer.status, 303);
  return new URL(answer.headers.get('location') ?? '', SHOP_ORIGIN).searchParams;
}

/** A form post, as the customer's browser sends one. */
export function formPost(url: string, fields: Record<string, string>): Request {
  return new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
}

/** The endpoint's `fetch` to the sandbox gateway, in process. */
export function sandboxFetch(gateway: SandboxGateway): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    const answer = gateway.handle(new Request(input, init));
    const signal = init?.signal;
    if (!signal) return answer;
    // A caller that stops waiting (its time limit) gets its abort, as over the network; the gateway goes on.
    return new Promise<Response>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      answer.then(resolve, reject);
    });
  }) as typeof fetch;
}

/** The endpoint's settings of the sandbox merchant, its gateway the sandbox at SANDBOX, as a shop's `/pg`. */
export function sandboxSettings() {
  return {
    ...endpointCredentials(),
    gatewayBaseUrl: SANDBOX,
    checkoutUrl: SANDBOX,
    apiRoot: 'FortAPI',
    publicUrl: SHOP_ORIGIN,
    basePath: '/pg',
  };
}

// ---- Over the fake gateway ----

export interface ReconcilerWorldOptions {
  /** The endpoint's own settings, over the harness's (the world gives it its store and its clock). */
  readonly endpoint?: Partial<EndpointConfig>;
  /** false: the endpoint keeps no store, its results in the harness's ledger in memory (the reconciler keeps the world's). */
  readonly endpointStore?: boolean;
  /** Handed each result the reconciler reports (`reported` keeps them too). */
  readonly onReport?: (result: VerifiedResult) => void;
  /** The merchant's order lookup, when the reconciler is given one. */
  readonly orderOf?: ReconcilerOptions['orderOf'];
}

/** The endpoint (the harness) and a reconciler on one clock and one memory store, as the standalone service runs them. */
export function reconcilerWorld(options: ReconcilerWorldOptions = {}) {
  let clock = START.getTime();
  const now = () => new Date(clock);
  const store = createMemoryStore();
  const reported: VerifiedResult[] = [];
  const harness = setup({ ...(options.endpointStore === false ? {} : { store, resultLedger: undefined }), now, ...options.endpoint });
  const logs: string[] = [];
  const log = createJsonLogger((line) => logs.push(line));
  const onResult = (result: VerifiedResult) => {
    reported.push(result);
    options.onReport?.(result);
  };
  const reconciler = createReconciler({
    store,
    gateway: createGatewayClient({ ...GATEWAY_ACCOUNT, fetch: harness.gateway.fetch, retry: false, now }),
    log,
    now,
    questionsPerMinute: 60_000,
    settings: { intervalSeconds: 60 },
    ...(options.orderOf === undefined ? {} : { orderOf: options.orderOf }),
    report: async (result) => void (await recordAndReport(result, { ledger: store.results, onResult, log, now })),
  });
  return {
    harness,
    store,
    /** Every result the reconciler reported. */
    reported,
    /** The reconciler's log lines. */
    logs,
    reconciler,
    now,
    advance(ms: number) {
      clock += ms;
    },
    async watch(watch: NewWatch) {
      await store.watches.watch(watch, now());
    },
    /** 31 minutes on, a reconciler round. */
    async round() {
      clock += 31 * MINUTE;
      return reconciler.runDue();
    },
  };
}

// ---- Over the sandbox gateway ----

export interface SandboxWorldOptions {
  /** The reconciler asks the shop for the order as it is now (`orderOf`), each reference kept in `lookedUp`. */
  readonly orderLookup?: boolean;
  /** How long the endpoint waits for the gateway (its default otherwise): shorter than a planned slow answer, the answer is lost. */
  readonly gatewayTimeoutMs?: number;
}

/** The endpoint, the sandbox gateway, a store, a reconciler and a shop that records results, on one clock. */
export function sandboxWorld(orders: MerchantOrder[], options: SandboxWorldOptions = {}) {
  const clock = createSandboxClock(SANDBOX_START);
  const gateway = createSandboxGateway({ merchants: [SANDBOX_MERCHANT], apiRoot: 'FortAPI', now: clock.now });
  const shop = new InMemoryOrderStore(orders);
  const results: VerifiedResult[] = [];
  const logs: string[] = [];
  const store = createMemoryStore();
  const fetchGateway = sandboxFetch(gateway);
  const onResult = (result: VerifiedResult) => {
    results.push(result);
    shop.recordResult(result);
  };
  const log = createJsonLogger((line) => logs.push(line));
  const endpoint = createMerchantEndpoint({
    ...sandboxSettings(),
    resolveOrder: shop.resolve,
    resultUrl: '/result',
    paymentCommands: ['PURCHASE', 'AUTHORIZATION'],
    onResult,
    store,
    fetch: fetchGateway,
    now: clock.now,
    logger: log,
    ...(options.gatewayTimeoutMs === undefined ? {} : { gatewayTimeoutMs: options.gatewayTimeoutMs }),
  } as EndpointConfig);
  const lookedUp: string[] = [];
  const reconciler = createReconciler({
    store,
    gateway: createGatewayClient({ ...endpointCredentials(), gatewayBaseUrl: SANDBOX, apiRoot: 'FortAPI', fetch: fetchGateway, retry: false, now: clock.now }),
    log,
    now: clock.now,
    questionsPerMinute: 60_000,
    settings: { intervalSeconds: 60 },
    ...(options.orderLookup
      ? {
          orderOf: (reference: string) => {
            lookedUp.push(reference);
            return shop.get(reference);
          },
        }
      : {}),
    report: async (result) => void (await recordAndReport(result, { ledger: store.results, onResult, log, now: clock.now })),
  });
  /** Posts JSON to one of the endpoint's routes, as the shop's page does. */
  const post = async (route: string, body: unknown) => {
    const response = await endpoint(
      new Request(`${SHOP_ORIGIN}/pg${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      { clientAddress: '198.51.100.4' },
    );
    return { status: response.status, body: (await response.json()) as { action: string; fields: Record<string, string> } };
  };
  /** Posts a form to the gateway, as the customer's browser does. */
  const toGateway = (url: string, fields: Record<string, string>) => gateway.handle(formPost(url, fields));
  /** Posts a return to the endpoint, as the customer's browser does; the redirect's query. */
  const toEndpoint = async (url: string, fields: Record<string, string>) => {
    const response = await endpoint(formPost(url, fields), { clientAddress: '198.51.100.4' });
    assert.equal(response.status, 303);
    return new URL(response.headers.get('location') ?? '').searchParams;
  };
  /** Pays a signed hosted-page form with a card of `outcome`; the gateway's return (not posted yet). */
  const payForm = async (form: { action: string; fields: Record<string, string> }, outcome: CardOutcome = 'success') => {
    const page = await toGateway(form.action, form.fields);
    const paid = await toGateway(`${SANDBOX}${gateway.paths.pageSubmit}`, {
      session: sessionOf(await page.text()),
      card_number: testCard(outcome).number,
      expiry_date: '08/29',
      card_security_code: '123',
      card_holder_name: 'A B',
    });
    const html = await paid.text();
    return { action: formAction(html), fields: hiddenFields(html) };
  };
  return { clock, gateway, shop, results, logs, store, reconciler, lookedUp, post, toGateway, toEndpoint, payForm };
}

/** What the shop's result webhook receives from `store`, one delivery pass (acknowledging each). */
export async function deliveredFrom(store: Store, now: () => Date): Promise<VerifiedResult[]> {
  const delivered: VerifiedResult[] = [];
  const webhook = createResultWebhook({
    url: 'https://shop.example/pg-hooks/result',
    secret: 'a-hook-secret-of-at-least-32-characters',
    timeoutMs: 1_000,
    now,
    fetch: async (_input, init) => {
      delivered.push((JSON.parse(String(init?.body)) as { result: VerifiedResult }).result);
      return new Response('{}', { status: 200 });
    },
    results: store.results,
    log: silentLogger,
    availability: new ShopAvailability(silentLogger),
  });
  await webhook.deliverDue();
  return delivered;
}
