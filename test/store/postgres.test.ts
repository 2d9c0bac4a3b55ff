import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import type { LogData, Logger } from '../../src/log/logger.ts';
import { openPostgresStore } from '../../src/store/postgres.ts';
import { POSTGRES_MIGRATIONS } from '../../src/store/migrations.ts';
import { StoreOpenError, StoreUnavailableError, type Store } from '../../src/store/store.ts';
import { startTestPostgres } from '../support/postgres.ts';
import { at, describeStoreContract, resultOf } from './store-contract.ts';

const server = await startTestPostgres();
after(() => server.cleanup());

const openAt = (url: string, options: { poolSize?: number; log?: Logger } = {}): Promise<Store> =>
  openPostgresStore(url, { dataDir: '/nowhere', ...options });

async function sql(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** Two stores (two pools) on one new database, as two instances behind a load balancer. */
async function twoInstances(): Promise<[Store, Store]> {
  const url = await server.createDatabase();
  return Promise.all([openAt(url, { poolSize: 8 }), openAt(url, { poolSize: 8 })]);
}

const isUnavailable = (reason: StoreUnavailableError['reason']) => (error: unknown): boolean => {
  assert.ok(error instanceof StoreUnavailableError, `expected StoreUnavailableError, got ${String(error)}`);
  assert.equal(error.reason, reason);
  return true;
};

describeStoreContract('PostgreSQL', async () => {
  const url = await server.createDatabase();
  const stores: Store[] = [];
  const open = async (): Promise<Store> => {
    const store = await openAt(url, { poolSize: 4 });
    stores.push(store);
    return store;
  };
  return {
    store: await open(),
    reopen: open,
    async cleanup() {
      for (const store of stores) await store.close();
    },
  };
});

describe('the PostgreSQL store, opening', () => {
  it('names its database without the password as its location', async () => {
    const url = new URL(await server.createDatabase());
    url.password = 'not-shown';
    const store = await openAt(url.href);
    try {
      assert.equal(store.engine, 'postgres');
      assert.equal(store.location.includes('not-shown'), false);
      assert.match(store.location, /^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/pg_checkout_test_/);
    } finally {
      await store.close();
    }
  });

  it('refuses an unreachable server, naming PG_DATABASE_URL and never the password', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
      });
    });
    const url = `postgres://shop:s3cret-pass@127.0.0.1:${port}/shop`;
    await assert.rejects(openAt(url), (error: unknown) => {
      assert.ok(error instanceof StoreOpenError);
      assert.equal(error.message, `PG_DATABASE_URL: cannot connect to postgres://shop:***@127.0.0.1:${port}/shop (ECONNREFUSED)`);
      return true;
    });
  });

  it('applies each migration once when four instances start at the same moment', async () => {
    const url = await server.createDatabase();
    const stores = await Promise.all([openAt(url), openAt(url), openAt(url), openAt(url)]);
    try {
      const { rows } = await sql(url, 'SELECT version, name FROM pg_checkout_schema ORDER BY version');
      assert.deepEqual(rows, POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version, name })));
      const outcomes = await Promise.all(stores.map((store, index) => store.results.record(resultOf('order-1', 'captured'), at(index))));
      assert.equal(outcomes.filter((outcome) => outcome.first).length, 1);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('refuses a database whose schema is newer than this code', async () => {
    const url = await server.createDatabase();
    await (await openAt(url)).close();
    await sql(url, "INSERT INTO pg_checkout_schema (version, name, applied_at) VALUES (99, 'from the future', 0)");
    await assert.rejects(openAt(url), (error: unknown) => {
      assert.ok(error instanceof StoreOpenError);
      assert.equal(
        error.message,
        'PG_DATABASE_URL: the database schema is version 99, newer than this pg-checkout knows (2): upgrade pg-checkout or use another database',
      );
      return true;
    });
  });
});

describe('the PostgreSQL store, shared by two instances', () => {
  it('records each key once when 200 records of 50 keys race across both, answering the others with the first result', async () => {
    const [a, b] = await twoInstances();
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, (_, index) => {
          const result = resultOf(`order-${index % 50}`, 'captured', { response_message: `attempt ${index}` });
          return (index % 2 === 0 ? a : b).results.record(result, at(index));
        }),
      );
      const firsts = outcomes.filter((outcome) => outcome.first);
      assert.equal(firsts.length, 50);
      const stored = new Map(firsts.map((outcome) => [outcome.result.idempotency_key, outcome.result]));
      for (const outcome of outcomes) assert.deepEqual(outcome.result, stored.get(outcome.result.idempotency_key));
      assert.equal((await b.results.list({ state: 'all', limit: 500 })).length, 50);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('gives each of 100 due results to exactly one of four claimers', async () => {
    const [a, b] = await twoInstances();
    try {
      await Promise.all(Array.from({ length: 100 }, (_, index) => a.results.record(resultOf(`order-${index}`, 'captured'), at(0))));
      const claimed: string[] = [];
      const claimer = async (store: Store): Promise<void> => {
        for (;;) {
          const rows = await store.results.claimDue(at(1), at(600), 3);
          if (rows.length === 0) return;
          claimed.push(...rows.map((row) => row.result.idempotency_key));
        }
      };
      await Promise.all([claimer(a), claimer(b), claimer(a), claimer(b)]);
      assert.equal(claimed.length, 100);
      assert.equal(new Set(claimed).size, 100);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('gives one result claimed by key from both at once to exactly one', async () => {
    const [a, b] = await twoInstances();
    try {
      await a.results.record(resultOf('order-1', 'captured'), at(0));
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? a : b).results.claim('order-1:1700000004:captured', at(1), at(60))),
      );
      assert.equal(claims.filter((claim) => claim !== undefined).length, 1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('gives each of 60 due watches to exactly one of four claimers', async () => {
    const [a, b] = await twoInstances();
    try {
      for (let index = 0; index < 60; index += 1) {
        await a.watches.watch(
          { merchant_reference: `order-${index}`, kind: 'bill', language: 'en', last_state: 'pending', expires_at: at(3600).toISOString() },
          at(index),
        );
      }
      const claimed: string[] = [];
      const claimer = async (store: Store): Promise<void> => {
        for (;;) {
          const watches = await store.watches.claimDue(at(100), at(700), 4);
          if (watches.length === 0) return;
          claimed.push(...watches.map((watch) => watch.merchant_reference));
        }
      };
      await Promise.all([claimer(a), claimer(b), claimer(a), claimer(b)]);
      assert.equal(claimed.length, 60);
      assert.equal(new Set(claimed).size, 60);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('counts every instance’s hits in one window: 60 racing hits under a limit of 10 allow exactly 10', async () => {
    const [a, b] = await twoInstances();
    try {
      const decisions = await Promise.all(
        Array.from({ length: 60 }, (_, index) => (index % 2 === 0 ? a : b).limits.hit('sms:201000000000', 10, 600, at(index / 10))),
      );
      assert.equal(decisions.filter((decision) => decision.allowed).length, 10);
      for (const decision of decisions.filter((d) => !d.allowed)) assert.ok(decision.retryAfterSeconds >= 594);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the PostgreSQL store, when the database cannot serve', () => {
  it('answers busy when the server refuses another connection (53300)', async () => {
    const url = new URL(await server.createDatabase());
    const database = url.pathname.slice(1);
    const role = `limited_${database.slice(-12)}`;
    await sql(server.url, `CREATE ROLE ${role} LOGIN CONNECTION LIMIT 1`);
    await sql(server.url, `ALTER DATABASE ${database} OWNER TO ${role}`);
    url.username = role;
    const store = await openAt(url.href, { poolSize: 2 });
    try {
      const answers = await Promise.allSettled([store.ping(), store.ping()]);
      const refused = answers.find((answer) => answer.status === 'rejected');
      assert.ok(refused, 'one of the two needed a second connection');
      assert.ok(isUnavailable('busy')(refused.reason));
    } finally {
      await store.close();
      // Roles outlive databases: leave none behind on a server given by PG_TEST_DATABASE_URL.
      const owned = new URL(url.href);
      owned.username = new URL(server.url).username;
      await sql(owned.href, `REASSIGN OWNED BY ${role} TO CURRENT_USER; DROP OWNED BY ${role}`);
      await sql(server.url, `DROP ROLE ${role}`);
    }
  });

  it('answers connection while the server is down, logs it once, and works again once the server is back', async (t) => {
    if (!server.canRestart) {
      t.skip('PG_TEST_DATABASE_URL names a server these tests cannot stop');
      return;
    }
    const warnings: { event: string; data?: LogData }[] = [];
    const log: Logger = { info: () => {}, error: () => {}, warn: (event, data) => warnings.push({ event, data }) };
    const store = await openAt(await server.createDatabase(), { poolSize: 3, log });
    try {
      await store.results.record(resultOf('order-1', 'authorized'), at(0));
      await server.stop();
      await assert.rejects(store.results.record(resultOf('order-1', 'captured'), at(1)), isUnavailable('connection'));
      await assert.rejects(store.ping(), isUnavailable('connection'));
      await assert.rejects(store.results.get('order-1:1700000004:authorized'), isUnavailable('connection'));
      assert.deepEqual(
        warnings.map((warning) => warning.event),
        ['store_connection_lost'],
        'logged once until the next success',
      );
      assert.equal(typeof warnings[0]?.data?.['reason'], 'string');

      await server.start();
      assert.equal((await store.results.record(resultOf('order-1', 'captured'), at(2))).first, true);
      assert.deepEqual(
        (await store.results.list({ state: 'all', limit: 10 })).map((row) => row.result.order_state),
        ['authorized', 'captured'],
        'nothing written while down',
      );
      await server.stop();
      await assert.rejects(store.ping(), isUnavailable('connection'));
      assert.equal(warnings.length, 2, 'a new outage after a success is logged again');
    } finally {
      await server.start();
      await store.close();
    }
  });
});
