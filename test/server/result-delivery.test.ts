/**
 * A result committed to the store is never taken back by what happens after: a store that fails
 * for a moment as the result is first delivered (SQLite busy, a dropped pooled PostgreSQL
 * connection), or a caller's `onResult` hook that throws, leave the result in the store, and the
 * webhook delivers it. The customer is answered as usual: the result is safe.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createJsonLogger } from '../../src/log/logger.ts';
import { serve, type RunningServer, type ServeOptions } from '../../src/server/serve.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { StoreUnavailableError, type ResultStore, type Store } from '../../src/store/store.ts';
import { createFakeGateway, GATEWAY_BASE_URL, GATEWAY_ENV } from './fake-gateway.ts';
import { HOOK_SECRET, startFakeShop, type FakeShop } from './fake-shop.ts';
import { postReturn, signedReturn } from './support/returns.ts';

const SHOP_ORIGIN = 'http://127.0.0.1:9';
const REFERENCE = 'shop-3001';
/** An order not paid yet, for a cash bill. */
const BILLED = 'shop-3002';

let shop: FakeShop;
before(async () => {
  shop = await startFakeShop([
    { merchant_reference: REFERENCE, amount: 250_000, currency: 'EGP', token: 'tok-3001' },
    { merchant_reference: BILLED, amount: 50_000, currency: 'EGP', token: 'tok-3002' },
  ]);
});
after(() => shop.stop());

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
  shop.deliveries.length = 0;
  shop.results.clear();
});

/** A memory store whose results fail the named operation the first `times` times, as a store that hiccups. */
function hiccuping(operation: keyof ResultStore, times = 1): Store {
  const inner = createMemoryStore();
  let failures = 0;
  const results = new Proxy(inner.results, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (property === operation && failures < times) {
          failures += 1;
          return Promise.reject(new StoreUnavailableError('busy', 'database is locked'));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...inner, results };
}

async function startService(store: Store, options: ServeOptions = {}): Promise<{ service: RunningServer; logs: string[] }> {
  const gateway = createFakeGateway();
  gateway.holds(REFERENCE, 'captured', { svcId: '1700000001', amount: 250_000 });
  const logs: string[] = [];
  const service = await serve(
    {
      ...GATEWAY_ENV,
      PG_PORT: '0',
      PG_ALLOWED_ORIGINS: SHOP_ORIGIN,
      PG_ORDER_URL: shop.orderUrl,
      PG_RESULT_WEBHOOK_URL: shop.webhookUrl,
      PG_HOOK_SECRET: HOOK_SECRET,
      PG_HOOK_TIMEOUT_MS: '1000',
      PG_VOUCHER_PARTNER_CODE: 'FAWRY',
    },
    {
      logger: createJsonLogger((line) => logs.push(line)),
      fetch: (input, init) =>
        String(input instanceof Request ? input.url : input).startsWith(GATEWAY_BASE_URL) ? gateway.fetch(input, init) : globalThis.fetch(input, init),
      webhookRetry: { firstRetryMs: 50, maxRetryMs: 200, pollIntervalMs: 25 },
      store,
      ...options,
    },
  );
  running.push(service);
  return { service, logs };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const events = (logs: readonly string[], event: string) => logs.filter((line) => JSON.parse(line).event === event);

/** The customer's return of a paid order: answered with the redirect to a success page. */
async function paidReturn(service: RunningServer): Promise<void> {
  const answer = await postReturn(service.endpointUrl, await signedReturn(REFERENCE, { svcId: '1700000001' }));
  assert.equal(answer.status, 303);
  assert.equal(new URL(answer.headers.get('location') ?? '').searchParams.get('outcome'), 'success');
}

/** Waits until the shop has stored the result and the service has recorded its acknowledgement, and checks it was posted once. */
async function assertDeliveredOnce(service: RunningServer, key: string): Promise<void> {
  await until(() => shop.results.has(key), `${key} to reach the shop`);
  await until(async () => (await service.store.results.get(key))?.acknowledged_at !== undefined, `${key} to be acknowledged`);
  assert.equal(shop.deliveries.filter((delivery) => JSON.parse(delivery.body).result.idempotency_key === key).length, 1, 'posted once');
}

const PAID_KEY = `${REFERENCE}:1700000001:captured`;

describe('a result whose first delivery meets a store that fails for a moment', () => {
  it('is kept, and the background sender delivers it, when claiming it fails', async () => {
    const { service, logs } = await startService(hiccuping('claim'));
    await paidReturn(service);
    assert.ok(await service.store.results.get(PAID_KEY), 'still recorded after the failed claim');
    await assertDeliveredOnce(service, PAID_KEY);
    assert.equal(events(logs, 'result_delivery_deferred').length, 1);
  });

  it('is kept, and delivered again, when recording the failed delivery fails', async () => {
    shop.webhookStatus = 503;
    const { service } = await startService(hiccuping('recordFailure'));
    try {
      await paidReturn(service);
      assert.ok(await service.store.results.get(PAID_KEY), 'still recorded');
    } finally {
      shop.webhookStatus = undefined;
    }
    // Held for the claim of the delivery cut short (2 × 1 s + 1 s), then delivered.
    await until(() => shop.results.has(PAID_KEY), 'the delivery after the claim lapsed', 8_000);
  });

  it('shows the customer the bill, and the bill\'s pending result with its number reaches the shop', async () => {
    const { service } = await startService(hiccuping('claim'));
    const answer = await fetch(`${service.endpointUrl}/bill`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, 'pg-order-token': 'tok-3002' },
      body: JSON.stringify({ merchant_reference: BILLED, language: 'en' }),
    });
    const body = (await answer.json()) as { bill_number: string };
    assert.equal(answer.status, 200, JSON.stringify(body));
    const billNumber = body.bill_number;
    const key = `${BILLED}:${billNumber}:pending`;
    await assertDeliveredOnce(service, key);
    assert.equal((shop.results.get(key)?.['bill'] as { bill_number?: string } | undefined)?.bill_number, billNumber);
  });
});

describe('a caller\'s onResult hook that throws', () => {
  it('leaves the result in the store, delivered to the shop; the customer is redirected and the failure logged', async () => {
    let calls = 0;
    const { service, logs } = await startService(createMemoryStore(), {
      onResult: () => {
        calls += 1;
        throw new Error('the shop\'s database is down');
      },
    });
    await paidReturn(service);
    await assertDeliveredOnce(service, PAID_KEY);
    assert.equal(events(logs, 'result_hook_failed').length, 1);
    // A replay of the return is answered from the store, as every replay is.
    await paidReturn(service);
    assert.equal(calls, 1);
    assert.equal((await service.store.results.list({ state: 'all', limit: 10 })).length, 1);
  });
});
