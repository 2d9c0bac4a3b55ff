/**
 * Migrations on PostgreSQL never wait without end for a lock. A starting instance whose migration
 * needs a table another session holds (an operator's psql left in a transaction, an older instance's
 * long transaction) waits a short while for it at a time, so the running instances' statements
 * queued behind it are not held past their own limit, tries again, and after its wait gives up with
 * an error that names the session holding the lock. A migrating instance that freezes mid-way
 * releases the migration lock after the idle-in-transaction limit. What a migration does once it
 * holds its locks is not limited: a long migration is not cut.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import type { LogData, Logger } from '../../src/log/logger.ts';
import { migratePostgres, POSTGRES_MIGRATIONS, type Migration } from '../../src/store/migrations.ts';
import { openPostgresStore } from '../../src/store/postgres.ts';
import { StoreOpenError, type Store } from '../../src/store/store.ts';
import { startTestPostgres } from '../support/postgres.ts';
import { at, resultOf } from './store-contract.ts';

const server = await startTestPostgres();
after(() => server.cleanup());

/** Short limits, so that the tests wait a fraction of a second where the service waits seconds. */
const LIMITS = { statementTimeoutMs: 500, migrationLockTimeoutMs: 150, migrationLockWaitMs: 1_500 };

const openAt = (url: string, options: { log?: Logger; migrationLockWaitMs?: number } = {}): Promise<Store> =>
  openPostgresStore(url, { dataDir: '/nowhere', ...LIMITS, ...options });

/** Another session on the same database, as an operator's psql or another instance would be. */
async function sessionOn(url: string, applicationName = 'pg-checkout-test'): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: applicationName });
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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recordingLog(): { log: Logger; lines: { event: string; data?: LogData | undefined }[] } {
  const lines: { event: string; data?: LogData | undefined }[] = [];
  const push = (event: string, data?: LogData) => void lines.push({ event, data });
  return { lines, log: { info: push, warn: push, error: push } };
}

/** A database left at schema version 1, as an older pg-checkout created it: migration 2 is still to apply. */
async function databaseAtVersion1(): Promise<string> {
  const url = await server.createDatabase();
  await (await openAt(url)).close();
  const client = await sessionOn(url);
  try {
    await client.query('ALTER TABLE pg_checkout_watches DROP COLUMN detail');
    await client.query('DELETE FROM pg_checkout_schema WHERE version = 2');
  } finally {
    await client.end();
  }
  return url;
}

async function schemaVersion(url: string): Promise<number> {
  const client = await sessionOn(url);
  try {
    const { rows } = await client.query<{ version: number }>('SELECT MAX(version) AS version FROM pg_checkout_schema');
    return rows[0]?.version ?? 0;
  } finally {
    await client.end();
  }
}

/** An operator's psql that read the watches in a transaction and left it open: it holds ACCESS SHARE on the table. */
async function operatorReadingWatches(url: string): Promise<{ client: pg.Client; pid: number }> {
  const client = await sessionOn(url, 'operator-psql');
  await client.query('BEGIN');
  await client.query('SELECT count(*) FROM pg_checkout_watches');
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return { client, pid: rows[0]?.pid ?? 0 };
}

describe('the PostgreSQL store, when a migration waits for a lock', () => {
  it('refuses to start after its wait, naming the session that holds the table, instead of hanging', async () => {
    const url = await databaseAtVersion1();
    const operator = await operatorReadingWatches(url);
    const { log, lines } = recordingLog();
    try {
      const started = Date.now();
      await assert.rejects(within(10_000, openAt(url, { log })), (error: unknown) => {
        assert.ok(error instanceof StoreOpenError, `expected StoreOpenError, got ${String(error)}`);
        assert.match(error.message, /^PG_DATABASE_URL: cannot migrate the schema of postgres:\/\/.+: migration 2 \(watch details\) waited/);
        assert.match(error.message, new RegExp(`pid ${operator.pid} \\(operator-psql, idle in transaction`));
        assert.match(error.message, /pg_checkout_watches/);
        return true;
      });
      assert.ok(Date.now() - started < LIMITS.migrationLockWaitMs + 2_000, `gave up after ${Date.now() - started} ms`);
      const waiting = lines.filter((line) => line.event === 'store_migration_waiting');
      assert.equal(waiting.length, 1, 'said once while waiting');
      assert.equal(waiting[0]?.data?.['version'], 2);
      assert.equal(await schemaVersion(url), 1, 'nothing half applied');
    } finally {
      await operator.client.end();
    }
    const store = await within(5_000, openAt(url));
    await store.close();
    assert.equal(await schemaVersion(url), 2, 'applied at the next start once the session is gone');
  });

  it('starts once the session lets the table go within its wait, though that took longer than one lock limit', async () => {
    const url = await databaseAtVersion1();
    const operator = await operatorReadingWatches(url);
    try {
      const opening = openAt(url, { migrationLockWaitMs: 10_000 });
      await pause(LIMITS.migrationLockTimeoutMs * 5);
      await operator.client.query('ROLLBACK');
      const store = await within(5_000, opening);
      await store.close();
      assert.equal(await schemaVersion(url), 2);
    } finally {
      await operator.client.end();
    }
  });

  it('keeps a running instance writing while a starting instance’s migration waits for the same table', async () => {
    const url = await server.createDatabase();
    const running = await openAt(url);
    const operator = await sessionOn(url, 'operator-psql');
    const starting = await sessionOn(url);
    const newer: Migration = { version: 3, name: 'a note on results', sql: 'ALTER TABLE pg_checkout_results ADD COLUMN note TEXT' };
    try {
      await operator.query('BEGIN');
      await operator.query('SELECT count(*) FROM pg_checkout_results');
      const migrating = migratePostgres(starting, [...POSTGRES_MIGRATIONS, newer], { lockTimeoutMs: 150, waitMs: 5_000 });
      migrating.catch(() => {});
      await pause(50);
      // Queued behind the migration's ALTER TABLE, the running instance's writes wait no longer than its lock limit.
      for (let index = 0; index < 5; index++) {
        assert.equal((await within(5_000, running.results.record(resultOf(`order-${index}`, 'captured'), at(index)))).first, true);
      }
      await operator.query('ROLLBACK');
      await within(5_000, migrating);
      assert.equal(await schemaVersion(url), 3);
    } finally {
      await operator.end();
      await starting.end();
      await running.close();
    }
  });

  it('does not cut a migration that runs long once it holds its locks', async () => {
    const url = await server.createDatabase();
    const client = await sessionOn(url);
    const slow: Migration = { version: 3, name: 'a slow one', sql: 'SELECT pg_sleep(1); CREATE TABLE pg_checkout_test_slow (id INTEGER)' };
    try {
      await within(10_000, migratePostgres(client, [...POSTGRES_MIGRATIONS, slow], { lockTimeoutMs: 150, waitMs: 500 }));
      assert.equal(await schemaVersion(url), 3);
    } finally {
      await client.end();
    }
  });

  it('counts only its own wait for a lock, not the time an earlier migration took to run', async () => {
    const url = await server.createDatabase();
    await (await openAt(url)).close();
    const operator = await operatorReadingWatches(url);
    const client = await sessionOn(url);
    const slow: Migration = { version: 3, name: 'a slow one', sql: 'SELECT pg_sleep(1); CREATE TABLE pg_checkout_test_slow (id INTEGER)' };
    const blocked: Migration = { version: 4, name: 'needs the watches', sql: 'ALTER TABLE pg_checkout_watches ADD COLUMN test_extra INTEGER' };
    try {
      const migrating = migratePostgres(client, [...POSTGRES_MIGRATIONS, slow, blocked], { lockTimeoutMs: 150, waitMs: 1_500 });
      // Let go of the table 0.8 s into the blocked step's wait: within its own 1.5 s, past 1.5 s since the start.
      await pause(1_800);
      await operator.client.query('ROLLBACK');
      await within(5_000, migrating);
      assert.equal(await schemaVersion(url), 4);
    } finally {
      await operator.client.end();
      await client.end();
    }
  });

  it('lets another instance have the migration lock once a migrating instance froze mid-way past the idle limit', async () => {
    const url = await server.createDatabase();
    const client = await sessionOn(url);
    // An instance that stops between two statements of its migration (its process paused, its host frozen).
    const frozen = new Proxy(client, {
      get(target, name, receiver) {
        if (name !== 'query') return Reflect.get(target, name, receiver);
        return async (...args: Parameters<pg.Client['query']>) => {
          const answer = await (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
          if (String(args[0]).includes('pg_advisory_xact_lock')) await pause(1_500);
          return answer;
        };
      },
    });
    const other = await sessionOn(url);
    try {
      const migrating = migratePostgres(frozen, POSTGRES_MIGRATIONS, { lockTimeoutMs: 150, waitMs: 500, idleInTransactionMs: 300 });
      migrating.catch(() => {});
      await pause(900);
      const { rows } = await other.query<{ locked: boolean }>("SELECT pg_try_advisory_lock('31638856778933603'::bigint) AS locked");
      assert.equal(rows[0]?.locked, true, 'the frozen session was ended and its lock released');
      await assert.rejects(migrating);
    } finally {
      await other.end();
      await client.end().catch(() => {});
    }
  });
});
