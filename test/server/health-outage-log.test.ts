/**
 * What `GET {base}/health` says in the log while the store is down, asked as a load balancer asks
 * it (every half second or so, from every balancer node): one `health_store_unavailable` line when
 * the store stops answering, with its reason, and one `health_store_recovered` line when it answers
 * again, not a line per check. And what it says of an instance whose clock is off the database's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GatewayClient } from '../../src/gateway/client.ts';
import type { LogData, Logger } from '../../src/log/logger.ts';
import { createHealthRoute, type HealthOptions } from '../../src/server/health.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { StoreUnavailableError, type StorePing } from '../../src/store/store.ts';

const AT = Date.parse('2026-11-26T10:00:00Z');

interface Line {
  readonly level: 'info' | 'warn' | 'error';
  readonly event: string;
  readonly data?: LogData | undefined;
}

/** A gateway that answers every CHECK_STATUS "not found": it answers. */
const gateway = {
  call: async () => ({ fields: { response_code: '12036', status: '12' } }),
} as unknown as Pick<GatewayClient, 'call'>;

function healthWith(ping: () => Promise<StorePing>) {
  const lines: Line[] = [];
  const log: Logger = {
    info: (event, data) => lines.push({ level: 'info', event, data }),
    warn: (event, data) => lines.push({ level: 'warn', event, data }),
    error: (event, data) => lines.push({ level: 'error', event, data }),
  };
  let now = AT;
  const inner = createMemoryStore();
  const store: HealthOptions['store'] = { engine: 'postgres', ping, results: inner.results, watches: inner.watches };
  const route = createHealthRoute({ store, gateway, basePath: '/pg', now: () => new Date(now), log });
  const check = async () => {
    now += 500;
    const response = await route(new Request('http://127.0.0.1/pg/health'));
    assert.ok(response);
    return { status: response.status, body: (await response.json()) as { store: Record<string, unknown> } };
  };
  return { check, lines };
}

describe('the health route’s log while the store is down', () => {
  it('says health_store_unavailable once per outage with its reason, and health_store_recovered once it answers again', async () => {
    let failure: StoreUnavailableError | undefined;
    const { check, lines } = healthWith(async () => {
      if (failure) throw failure;
      return {};
    });
    assert.equal((await check()).status, 200);

    failure = new StoreUnavailableError('connection', 'PostgreSQL store unavailable: ECONNREFUSED');
    for (let index = 0; index < 10; index += 1) {
      const { status, body } = await check();
      assert.equal(status, 503);
      assert.deepEqual(body.store, { engine: 'postgres', status: 'unavailable', reason: 'connection' }, 'every answer still names the reason');
    }
    failure = undefined;
    assert.equal((await check()).status, 200);
    await check();

    assert.deepEqual(
      lines.map((line) => [line.level, line.event]),
      [
        ['error', 'health_store_unavailable'],
        ['info', 'health_store_recovered'],
      ],
    );
    assert.deepEqual(lines[0]?.data, { reason: 'connection', message: 'PostgreSQL store unavailable: ECONNREFUSED' });
    assert.equal(lines[1]?.data?.['down_seconds'], 5, 'ten checks half a second apart');
  });

  it('says it again for the next outage', async () => {
    let down = false;
    const { check, lines } = healthWith(async () => {
      if (down) throw new StoreUnavailableError('busy', 'PostgreSQL store unavailable: canceling statement due to statement timeout');
      return {};
    });
    for (const state of [true, true, false, true, false]) {
      down = state;
      await check();
    }
    assert.deepEqual(
      lines.map((line) => [line.event, line.data?.['reason']]),
      [
        ['health_store_unavailable', 'busy'],
        ['health_store_recovered', undefined],
        ['health_store_unavailable', 'busy'],
        ['health_store_recovered', undefined],
      ],
    );
  });
});

describe('the health route, for an instance whose clock is off the database’s', () => {
  it('shows the skew beyond 2 s in the store’s part of the body, and still answers 200', async () => {
    let skew = 20_013.4;
    const { check } = healthWith(async () => ({ clockSkewMs: skew }));
    const skewed = await check();
    assert.equal(skewed.status, 200, 'the store works: the instance stays in the balancer');
    assert.deepEqual(skewed.body.store, { engine: 'postgres', status: 'ok', clock_skew_ms: 20_013 });

    skew = -2_500;
    assert.equal((await check()).body.store['clock_skew_ms'], -2_500, 'behind, too');

    skew = 150;
    assert.deepEqual((await check()).body.store, { engine: 'postgres', status: 'ok' }, 'within 2 s: nothing to say');
  });
});
