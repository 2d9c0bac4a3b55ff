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
import { startInstancesWorld, type InstancesWorld } from './support/instances.ts';
import { freePort, killAll, removeTempDirs, startServe, until, type ServeProcess } from './support/processes.ts';

const PAYMENTS = 15;
const RETRY_AFTER_SECONDS = 12;

let world: InstancesWorld;

before(async () => {
  world = await startInstancesWorld('instances-rate-limit.test.ts');
});

after(async () => {
  await killAll();
  await world.close();
  removeTempDirs();
});

describe('two instances and a gateway that asks them to wait', () => {
  it('ask nothing before the Retry-After of a 429 that only one of them received, and every payment after it', async (t) => {
    if (!world.postgres) {
      t.skip(world.skipReason);
      return;
    }
    const { gateway } = world;
    const { databaseUrl, dataDir, settings: shared } = await world.database('pg-instances-limit-');
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
    const settings = { ...shared, PG_RECONCILE_INTERVAL_SECONDS: '1' };
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
