/**
 * The PostgreSQL store never waits without end: a statement stuck behind another session's lock
 * is cancelled by the server after the statement timeout (`busy`), and one the server never answers
 * (frozen, or cut off by a silent network partition) is given up by the client a little later
 * (`connection`), its connection dropped. Both reach the caller as StoreUnavailableError, which
 * every caller already handles (503, or the next round of a background loop). What may take long,
 * a migration waiting for another instance's and the hourly prune, is not cut at a request's timeout.
 *
 * It also measures how far this process's clock is from the database's, at open and on each ping:
 * claims between instances are only as good as their clocks' agreement.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import type { LogData, Logger } from '../../src/log/logger.ts';
import { openPostgresStore } from '../../src/store/postgres.ts';
import { StoreUnavailableError, type Store } from '../../src/store/store.ts';
import { startTestPostgres } from '../support/postgres.ts';
import { at, resultOf } from './store-contract.ts';

const server = await startTestPostgres();
after(() => server.cleanup());

/** A short timeout, so that the tests wait half a second where the service waits five. */
const STATEMENT_TIMEOUT_MS = 500;

const openAt = (url: string, options: { poolSize?: number; log?: Logger } = {}): Promise<Store> =>
  openPostgresStore(url, { dataDir: '/nowhere', statementTimeoutMs: STATEMENT_TIMEOUT_MS, ...options });

/** Another session on the same database, as another instance or an operator's psql would be. */
async function sessionOn(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** The promise's outcome, or a failure once `ms` have passed: a test that would hang fails instead. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const isUnavailable = (reason: StoreUnavailableError['reason']) => (error: unknown): boolean => {
  assert.ok(error instanceof StoreUnavailableError, `expected StoreUnavailableError, got ${String(error)}`);
  assert.equal(error.reason, reason);
  return true;
};

interface Line {
  readonly level: 'info' | 'warn' | 'error';
  readonly event: string;
  readonly data?: LogData | undefined;
}

function recordingLog(): { log: Logger; lines: Line[] } {
  const lines: Line[] = [];
  return {
    lines,
    log: {
      info: (event, data) => lines.push({ level: 'info', event, data }),
      warn: (event, data) => lines.push({ level: 'warn', event, data }),
      error: (event, data) => lines.push({ level: 'error', event, data }),
    },
  };
}

describe('the PostgreSQL store, when a statement cannot finish', () => {
  it('fails a write stuck behind another session’s table lock as busy within the timeout, and writes again once the lock is gone', async () => {
    const url = await server.createDatabase();
    const store = await openAt(url);
    const locker = await sessionOn(url);
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE pg_checkout_results IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      await assert.rejects(within(5_000, store.results.record(resultOf('order-1', 'captured'), at(0))), isUnavailable('busy'));
      assert.ok(Date.now() - started < STATEMENT_TIMEOUT_MS + 1_500, `failed after ${Date.now() - started} ms`);
      await assert.rejects(within(5_000, store.results.claimDue(at(1), at(10), 5)), isUnavailable('busy'));

      await locker.query('ROLLBACK');
      assert.equal((await store.results.record(resultOf('order-1', 'captured'), at(2))).first, true);
    } finally {
      await locker.end();
      await store.close();
    }
  });

  it('gives up on a server that does not answer at all (its session frozen) as connection, and answers again on a new connection', async (t) => {
    if (!server.canRestart) {
      t.skip('PG_TEST_DATABASE_URL names a server whose processes these tests cannot signal');
      return;
    }
    const url = await server.createDatabase();
    const { log, lines } = recordingLog();
    const store = await openAt(url, { poolSize: 1, log });
    const observer = await sessionOn(server.url);
    const frozen: number[] = [];
    try {
      await store.ping();
      const { rows } = await observer.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [new URL(url).pathname.slice(1)],
      );
      assert.equal(rows.length, 1, 'the pool keeps one connection');
      for (const { pid } of rows) {
        process.kill(pid, 'SIGSTOP');
        frozen.push(pid);
      }
      const started = Date.now();
      await assert.rejects(within(10_000, store.ping()), isUnavailable('connection'));
      assert.ok(Date.now() - started < STATEMENT_TIMEOUT_MS + 4_000, `failed after ${Date.now() - started} ms`);
      assert.deepEqual(
        lines.filter((line) => line.event === 'store_connection_lost').map((line) => line.level),
        ['warn'],
      );
      // The frozen connection was dropped: the next call opens another, which the server answers.
      await within(5_000, store.ping());
    } finally {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      await observer.end();
      await store.close();
    }
  });

  it('prunes under a longer timeout than a request’s: a prune waiting out a lock finishes once it is gone', async () => {
    const url = await server.createDatabase();
    const store = await openAt(url);
    const locker = await sessionOn(url);
    try {
      await store.results.record(resultOf('order-1', 'captured'), at(0));
      await store.results.acknowledge('order-1:1700000004:captured', at(1));
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE pg_checkout_results IN ACCESS EXCLUSIVE MODE');
      const pruned = store.prune({ acknowledgedBefore: at(10), endedBefore: at(10), ordersBefore: at(10), now: at(10) });
      await new Promise((resolve) => setTimeout(resolve, STATEMENT_TIMEOUT_MS * 3));
      await locker.query('ROLLBACK');
      assert.deepEqual(await within(5_000, pruned), { results: 1, watches: 0, orders: 0, limits: 0 });
    } finally {
      await locker.end();
      await store.close();
    }
  });

  it('opens while another instance holds the migration lock for longer than a request’s timeout', async () => {
    const url = await server.createDatabase();
    const other = await sessionOn(url);
    try {
      // The lock of migrations.ts, held the way a migrating instance holds it.
      await other.query("SELECT pg_advisory_lock('31638856778933603'::bigint)");
      const opening = openAt(url);
      await new Promise((resolve) => setTimeout(resolve, STATEMENT_TIMEOUT_MS * 3));
      await other.query("SELECT pg_advisory_unlock('31638856778933603'::bigint)");
      const store = await within(5_000, opening);
      await store.close();
    } finally {
      await other.end();
    }
  });
});

describe('the PostgreSQL store, and the clocks of the instances sharing it', () => {
  it('answers a ping with how far this process’s clock is from the database’s: about nothing on one host', async () => {
    const store = await openAt(await server.createDatabase());
    try {
      const { clockSkewMs } = await store.ping();
      assert.equal(typeof clockSkewMs, 'number');
      assert.ok(Math.abs(clockSkewMs ?? Infinity) < 1_000, `skew ${clockSkewMs} ms`);
    } finally {
      await store.close();
    }
  });

  it('warns once, at open, of a clock 20 s ahead of the database’s, and says once when it agrees again', async (t) => {
    const url = await server.createDatabase();
    const realNow = Date.now.bind(Date);
    let ahead = 20_000;
    // This process's clock, as a host without NTP would have it.
    t.mock.method(Date, 'now', () => realNow() + ahead);
    const { log, lines } = recordingLog();
    const store = await openAt(url, { log });
    try {
      const warnings = lines.filter((line) => line.event === 'clock_skew');
      assert.equal(warnings.length, 1, 'warned at open');
      assert.equal(warnings[0]?.level, 'warn');
      assert.ok(Math.abs(Number(warnings[0]?.data?.['skew_ms']) - 20_000) < 1_000, `skew_ms ${String(warnings[0]?.data?.['skew_ms'])}`);
      assert.match(String(warnings[0]?.data?.['message']), /NTP/);

      const { clockSkewMs } = await store.ping();
      assert.ok(Math.abs((clockSkewMs ?? 0) - 20_000) < 1_000, `skew ${clockSkewMs} ms`);
      assert.equal(lines.filter((line) => line.event === 'clock_skew').length, 1, 'not again on each ping');

      ahead = 0;
      assert.ok(Math.abs((await store.ping()).clockSkewMs ?? Infinity) < 1_000);
      await store.ping();
      assert.deepEqual(
        lines.filter((line) => line.event.startsWith('clock_skew')).map((line) => [line.level, line.event]),
        [
          ['warn', 'clock_skew'],
          ['info', 'clock_skew_resolved'],
        ],
      );
    } finally {
      await store.close();
    }
  });
});
