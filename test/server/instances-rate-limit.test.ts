/**
 * A rate-limiting gateway and two `pg-checkout serve` processes on ONE throwaway PostgreSQL
 * database: fifteen authorizations are watched (more than one reconciler pass takes), and the
 * gateway answers the first CHECK_STATUS with HTTP 429 and `Retry-After: 12`. Neither instance asks
 * the gateway anything before those 12 seconds are over (the wait is kept in the store, not only in
 * the instance that was told), and both ask again after it, each payment once. Over real HTTP on
 * loopback, each process with its own pool.
 *
 * PostgreSQL comes from test/support/postgres.ts; without one the test is skipped, saying why.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/open.ts';
import { startTestPostgres, type TestPostgres } from '../support/postgres.ts';
import { startHttpGateway, type HttpGateway } from './support/http-gateway.ts';
import { freePort, killAll, removeTempDirs, startServe, tempDir, until, type ServeProcess } from './support/processes.ts';
import { SHOP_SECRET, startShop, type TestShop } from './support/shop.ts';

const PAYMENTS = 15;
const RETRY_AFTER_SECONDS = 12;

let postgres: TestPostgres | undefined;
let noPostgres: string | undefined;
let gateway: HttpGateway;
let shop: TestShop;

before(async () => {
  try {
    postgres = await startTestPostgres();
  } catch (error) {
    noPostgres = `no PostgreSQL could be started: ${error instanceof Error ? error.message : String(error)}`;
    console.warn(`instances-rate-limit.test.ts skipped: ${noPostgres}`);
  }
  [gateway, shop] = await Promise.all([startHttpGateway(), startShop()]);
});

after(async () => {
  await killAll();
  await Promise.all([gateway.close(), shop.stop()]);
  await postgres?.cleanup();
  removeTempDirs();
});

describe('two instances and a gateway that asks them to wait', () => {
  it('ask nothing before the Retry-After of a 429 that only one of them received, and every payment after it', async (t) => {
    if (!postgres) {
      t.skip(noPostgres);
      return;
    }
    const databaseUrl = await postgres.createDatabase();
    const dataDir = tempDir('pg-instances-limit-');
    const start = new Date();
    const references = Array.from({ length: PAYMENTS }, (_, n) => `held-${n + 1}`);
    const store = await openStore({ dataDir, databaseUrl, poolSize: 1 });
    try {
      for (const [n, reference] of references.entries()) {
        gateway.fake.holds(reference, 'authorized', { svcId: String(1_700_200_000 + n), amount: 250_000 });
        await store.watches.watch(
          {
            merchant_reference: reference,
            kind: 'authorization',
            language: 'en',
            last_state: 'authorized',
            amount: 250_000,
            currency: 'EGP',
            expires_at: new Date(start.getTime() + 7 * 24 * 3600_000).toISOString(),
          },
          start,
        );
      }
    } finally {
      await store.close();
    }

    gateway.limitNext(1, RETRY_AFTER_SECONDS);
    const settings = {
      ...gateway.env,
      PG_DATABASE_URL: databaseUrl,
      PG_DATA_DIR: dataDir,
      PG_ORDER_URL: shop.orderUrl,
      PG_RESULT_WEBHOOK_URL: shop.webhookUrl,
      PG_HOOK_SECRET: SHOP_SECRET,
      PG_RECONCILE_INTERVAL_SECONDS: '1',
    };
    const instances: ServeProcess[] = [];
    for (let n = 0; n < 2; n += 1) instances.push(await startServe({ env: settings, port: await freePort() }));
    const questions = () => gateway.received.filter((request) => request.command === 'CHECK_STATUS');

    await until(() => questions().length >= 1, 'the first question');
    const limitedAt = questions()[0]!.at;
    const quietEnds = limitedAt + RETRY_AFTER_SECONDS * 1000;
    // Both instances poll every 5 s: the second has had its passes before the wait ends.
    await until(() => Date.now() >= quietEnds - 500, 'the wait nearly over', (RETRY_AFTER_SECONDS + 5) * 1000, 100);
    const during = questions().filter((request) => request.at < quietEnds - 50);
    assert.equal(during.length, 1, `one question before the Retry-After was over, not ${during.length}`);
    assert.equal(
      instances.reduce((sum, instance) => sum + instance.events('reconcile_paused').length, 0) >= 1,
      true,
      'the instance told to wait logs reconcile_paused',
    );

    const askedAfter = () => new Set(questions().slice(1).map((request) => request.reference));
    await until(() => askedAfter().size === PAYMENTS, () => `every payment asked after the wait (${askedAfter().size} of ${PAYMENTS})`, 30_000, 100);
    assert.ok(questions().slice(1).every((request) => request.at >= quietEnds - 50), 'no question before the wait was over');
    assert.deepEqual(instances.flatMap((instance) => instance.errors()), [], 'no error-level line in either log');
  });
});
