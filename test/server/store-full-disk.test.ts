/**
 * A store that reads but cannot write (a full disk, a read-only file, a lock held by another
 * process): the log says so once, not once per request, and `GET {base}/health` takes the instance
 * out of the balancer until a write succeeds again, though its ping, a read, still works.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GatewayClient } from '../../src/gateway/client.ts';
import type { LogData, Logger } from '../../src/log/logger.ts';
import { createHealthRoute } from '../../src/server/health.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { monitoredStore } from '../../src/store/monitored.ts';
import { StoreUnavailableError, type Store } from '../../src/store/store.ts';
import { resultOf } from '../store/store-contract.ts';

const READS = new Set(['list', 'get', 'latestFor', 'backlog', 'countActive', 'recall']);

/** A memory store whose writes fail with a full disk while `full` is set; its reads always work. */
function diskStore(): { store: Store; disk: { full: boolean } } {
  const inner = createMemoryStore();
  const disk = { full: false };
  const guard = <Part extends object>(part: Part): Part =>
    new Proxy(part, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (disk.full && !READS.has(String(property))) {
            return Promise.reject(new StoreUnavailableError('disk_full', 'SQLite store unavailable (SQLITE_FULL): database or disk is full'));
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return { disk, store: { ...inner, results: guard(inner.results), watches: guard(inner.watches), orders: guard(inner.orders), limits: guard(inner.limits) } };
}

function service() {
  const lines: { event: string; data?: LogData | undefined }[] = [];
  const log: Logger = {
    info: (event, data) => lines.push({ event, data }),
    warn: (event, data) => lines.push({ event, data }),
    error: (event, data) => lines.push({ event, data }),
  };
  const { store: inner, disk } = diskStore();
  const store = monitoredStore(inner, log);
  const gateway = { call: async () => ({ fields: { response_code: '12036', status: '12' } }) } as unknown as Pick<GatewayClient, 'call'>;
  const route = createHealthRoute({ store, gateway, basePath: '/pg', now: () => new Date(), log });
  const health = async () => {
    const response = await route(new Request('http://127.0.0.1/pg/health'));
    assert.ok(response);
    return { status: response.status, store: ((await response.json()) as { store: Record<string, unknown> }).store };
  };
  const events = () => lines.map((line) => line.event);
  return { store, disk, health, events };
}

describe('a store that reads but cannot write', () => {
  it('is unavailable from the first failed write until a write succeeds, whatever reads succeed between', async () => {
    const { store, disk, events } = service();
    disk.full = true;
    await assert.rejects(store.results.record(resultOf('order-1', 'captured')), StoreUnavailableError);
    for (let request = 0; request < 5; request += 1) {
      // Each request reads first (its order's results), then fails to write.
      await store.results.latestFor('order-1');
      await assert.rejects(store.watches.watch({ merchant_reference: 'order-1', kind: 'in_progress', language: 'en' } as never, new Date()));
    }
    assert.equal(store.health.available, false);
    assert.deepEqual(events(), ['store_unavailable'], 'one line for the outage, not a pair per request');

    disk.full = false;
    assert.equal((await store.results.record(resultOf('order-1', 'captured'))).first, true);
    assert.equal(store.health.available, true);
    assert.deepEqual(events(), ['store_unavailable', 'store_recovered']);
  });

  it('takes the instance out of the balancer (health 503 disk_full) although the ping reads, and back once a write succeeds', async () => {
    const { store, disk, health } = service();
    assert.deepEqual(await health(), { status: 200, store: { engine: 'memory', status: 'ok' } });
    disk.full = true;
    await assert.rejects(store.results.record(resultOf('order-1', 'captured')), StoreUnavailableError);
    assert.deepEqual(await health(), { status: 503, store: { engine: 'memory', status: 'unavailable', reason: 'disk_full' } });
    assert.equal((await health()).status, 503, 'a health check is a read: it does not end the outage');

    disk.full = false;
    await store.results.claimDue(new Date(), new Date(Date.now() + 60_000), 10);
    assert.deepEqual(await health(), { status: 200, store: { engine: 'memory', status: 'ok' } });
  });

  it('is available again after a read succeeds when a read found the failure (a lost connection)', async () => {
    const { store } = service();
    let lost = true;
    const failing = monitoredStore(
      { ...store, ping: () => (lost ? Promise.reject(new StoreUnavailableError('connection', 'ECONNREFUSED')) : store.ping()) },
      { info() {}, warn() {}, error() {} },
    );
    const gateway = { call: async () => ({ fields: { response_code: '12036', status: '12' } }) } as unknown as Pick<GatewayClient, 'call'>;
    const route = createHealthRoute({ store: failing, gateway, basePath: '/pg', now: () => new Date() });
    const health = async () => (await route(new Request('http://127.0.0.1/pg/health')))?.status;
    assert.equal(await health(), 503);
    assert.equal(failing.health.available, false);
    lost = false;
    await failing.results.get('anything');
    assert.equal(failing.health.available, true);
    assert.equal(await health(), 200);
  });
});
