/**
 * `GET {base}/health` of `pg-checkout serve`, as a load balancer asks it over loopback: 200 while
 * the store works, 503 while it does not; the body says whether the gateway answers, asked at
 * most every 30 seconds, and, for monitoring, what waits for the shop and what is still watched.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createJsonLogger } from '../../src/log/logger.ts';
import { serve, type RunningServer } from '../../src/server/serve.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { StoreUnavailableError, type Store } from '../../src/store/store.ts';
import { resultOf } from '../store/store-contract.ts';
import { createFakeGateway, GATEWAY_ENV } from './fake-gateway.ts';

const running: RunningServer[] = [];
after(() => Promise.all(running.map((server) => server.close())));

const TOKEN = 'monitoring-token-0123456789abcdef0123456789';

async function start(options: { store: Store; gatewayDown?: () => boolean; now?: () => Date; token?: string }) {
  const gateway = createFakeGateway();
  const logs: Record<string, unknown>[] = [];
  const server = await serve(
    {
      ...GATEWAY_ENV,
      PG_PORT: '0',
      PG_BASE_PATH: '/pg',
      ...(options.token === undefined ? {} : { PG_HEALTH_TOKEN: options.token }),
    },
    {
      store: options.store,
      logger: createJsonLogger((line) => logs.push(JSON.parse(line) as Record<string, unknown>)),
      ...(options.now ? { now: options.now } : {}),
      fetch: (input, init) => (options.gatewayDown?.() ? Promise.reject(new TypeError('fetch failed')) : gateway.fetch(input, init)),
    },
  );
  running.push(server);
  return { server, gateway, logs };
}

const health = async (server: RunningServer, token?: string) => {
  const response = await fetch(`${server.endpointUrl}/health`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, { status?: string; engine?: string; reason?: string }> & { status: string } };
};

describe('the health route', () => {
  it('answers 200 with the store and the gateway answering', async () => {
    const { server, gateway } = await start({ store: createMemoryStore() });
    const { status, body } = await health(server);
    assert.equal(status, 200);
    assert.equal(body.status, 'ok');
    assert.deepEqual([body['store']?.engine, body['store']?.status, body['gateway']?.status], ['memory', 'ok', 'ok']);
    assert.equal(gateway.calls.filter((call) => call.request['query_command'] === 'CHECK_STATUS').length, 1);
    await health(server);
    assert.equal(gateway.calls.length, 1, 'the gateway is asked at most every 30 seconds');
  });

  it('still answers 200 when the gateway is down, saying so (every instance shares the gateway)', async () => {
    const { server } = await start({ store: createMemoryStore(), gatewayDown: () => true });
    const { status, body } = await health(server);
    assert.equal(status, 200);
    assert.equal(body['gateway']?.status, 'unreachable');
    assert.equal(body['gateway']?.reason, 'connection');
  });

  it('says the gateway refuses this service\'s settings (a wrong request phrase: 00008), naming what to check', async () => {
    const { server, gateway } = await start({ store: createMemoryStore() });
    gateway.answer('CHECK_STATUS', () => ({ code: '00008', status: '00' }));
    const { status, body } = await health(server);
    assert.equal(status, 200, 'every instance shares the settings: none is taken out of the balancer');
    assert.deepEqual([body['gateway']?.status, body['gateway']?.reason], ['misconfigured', '00008']);
    assert.match(String((body['gateway'] as { hint?: string } | undefined)?.hint), /PG_SHA_REQUEST_PHRASE/);
  });

  it('answers 503 while the store cannot be used, and 200 again once it can', async () => {
    const inner = createMemoryStore();
    let down = true;
    const store: Store = {
      ...inner,
      ping: () => (down ? Promise.reject(new StoreUnavailableError('connection', 'the database connection was lost')) : inner.ping()),
    };
    const { server, logs } = await start({ store });
    const failing = await health(server);
    assert.equal(failing.status, 503);
    assert.deepEqual([failing.body.status, failing.body['store']?.status], ['unavailable', 'unavailable']);
    // Anyone who reaches the endpoint reads this body: the failure's kind, its message (a host, a path) in the log only.
    assert.equal(failing.body['store']?.reason, 'connection');
    assert.ok(!JSON.stringify(failing.body).includes('connection was lost'));
    assert.deepEqual(
      logs.filter((line) => line['event'] === 'health_store_unavailable').map((line) => [line['level'], line['reason'], line['message']]),
      [['error', 'connection', 'the database connection was lost']],
    );
    down = false;
    assert.equal((await health(server)).status, 200);
  });

  it('counts the results the shop has not acknowledged, the failing ones and the oldest, and the payments still watched', async () => {
    const store = createMemoryStore();
    const { server } = await start({ store, token: TOKEN });
    const empty = (await health(server, TOKEN)).body;
    assert.deepEqual([empty['results'], empty['watches']], [{ undelivered: 0, failing: 0 }, { active: 0 }]);
    const recorded = (reference: string, at: string) => store.results.record(resultOf(reference, 'captured'), new Date(at));
    await recorded('order-1', '2026-11-26T08:00:00.000Z');
    await recorded('order-2', '2026-11-26T09:00:00.000Z');
    // The shop's webhook refused the first: it still waits, and it is failing.
    await store.results.recordFailure(resultOf('order-1', 'captured').idempotency_key, new Date('2026-11-26T08:05:00.000Z'), 'status 500');
    await store.watches.watch(
      { merchant_reference: 'order-3', kind: 'bill', language: 'en', last_state: 'pending', expires_at: '2026-11-30T00:00:00.000Z' },
      new Date('2026-11-26T09:30:00.000Z'),
    );
    const { status, body } = await health(server, TOKEN);
    assert.equal(status, 200, 'a backlog does not take the instance out of the balancer');
    assert.deepEqual(body['results'], { undelivered: 2, failing: 1, oldest_recorded_at: '2026-11-26T08:00:00.000Z' });
    assert.deepEqual(body['watches'], { active: 1 });
  });

  it('shows the counts to no one without the monitoring token: the route answers customers too', async () => {
    const store = createMemoryStore();
    await store.results.record(resultOf('order-1', 'captured'), new Date('2026-11-26T08:00:00.000Z'));
    const untokened = await start({ store });
    const withToken = await start({ store, token: TOKEN });
    for (const [server, token] of [[untokened.server, TOKEN], [withToken.server, undefined], [withToken.server, `${TOKEN}x`]] as const) {
      const { status, body } = await health(server, token);
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(body).sort(), ['gateway', 'status', 'store']);
    }
    assert.deepEqual((await health(withToken.server, TOKEN)).body['results'], { undelivered: 1, failing: 0, oldest_recorded_at: '2026-11-26T08:00:00.000Z' });
  });
});
