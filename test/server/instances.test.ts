/**
 * Two `pg-checkout serve` processes on ONE throwaway PostgreSQL database (PG_DATABASE_URL: each
 * process its own pool), behind a round-robin front, with the shop's result webhook: 100 orders
 * paid, and each one's signed return posted five times at once (the customer's browser, its
 * reload, a proxy's retry…), 500 posts 50 at a time, alternately to one instance and the other.
 * Each result is recorded once (one row per key in the database, one `payment_result` line across
 * both logs, the other four `payment_result_replayed`) and delivered once (the shop sees each key
 * exactly once), everything finishes within a bound (no deadlock between the instances), and
 * neither instance logs an error. And a cash bill asked of both instances at once is issued once,
 * both customers are shown it, and the database keeps it for the next request.
 *
 * PostgreSQL comes from test/support/postgres.ts (a cluster of Debian's `postgresql` package in a
 * temporary folder, or the server PG_TEST_DATABASE_URL names). Without one the test is skipped,
 * saying why.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/open.ts';
import { startInstancesWorld, type InstancesWorld } from './support/instances.ts';
import { freePort, killAll, removeTempDirs, startServe, until, type ServeProcess } from './support/processes.ts';
import { postReturn, signedReturn } from './support/returns.ts';
import { startRoundRobin, type RoundRobin } from './support/round-robin.ts';

const ORDERS = 100;
const POSTS_PER_ORDER = 5;
const CONCURRENCY = 50;
/** The whole burst must be answered within this: a deadlock between the instances would not be. */
const BURST_LIMIT_MS = 30_000;

let world: InstancesWorld;
let front: RoundRobin | undefined;

before(async () => {
  world = await startInstancesWorld('instances.test.ts');
});

after(async () => {
  await killAll();
  await Promise.all([front?.close(), world.close()]);
  removeTempDirs();
});

/** Runs `tasks` with at most `limit` under way at once. */
async function limited<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

describe('two instances on one PostgreSQL database behind a round-robin front', () => {
  it('record each of 500 concurrent returns and replays once, and deliver each result once', async (t) => {
    if (!world.postgres) {
      t.skip(world.skipReason);
      return;
    }
    const { gateway, shop } = world;
    const { dataDir, databaseUrl, settings } = await world.database('pg-instances-');
    // One after the other: the second finds the schema the first created.
    const instances: ServeProcess[] = [];
    for (let n = 0; n < 2; n += 1) instances.push(await startServe({ env: settings, port: await freePort() }));
    for (const instance of instances) {
      assert.match(String(instance.events('listening')[0]?.['store']), /^postgres /);
      const health = await fetch(`${instance.url}/health`);
      assert.equal(health.status, 200);
      assert.deepEqual(((await health.json()) as { store: unknown }).store, { engine: 'postgres', status: 'ok' });
    }
    front = await startRoundRobin(instances.map((instance) => instance.url));

    const payments = await Promise.all(
      Array.from({ length: ORDERS }, async (_, n) => {
        const reference = `multi-${n + 1}`;
        const svcId = String(1_700_100_000 + n);
        gateway.fake.holds(reference, 'captured', { svcId, amount: 250_000 });
        return { reference, key: `${reference}:${svcId}:captured`, body: await signedReturn(reference, { svcId }) };
      }),
    );
    // Each order's five posts side by side, so that the copies of one return race each other.
    const posts = payments.flatMap((payment) => Array.from({ length: POSTS_PER_ORDER }, () => payment));
    const url = front.url;
    const started = Date.now();
    const answers = await limited(
      posts.map((payment) => async () => {
        const response = await postReturn(url, payment.body, AbortSignal.timeout(BURST_LIMIT_MS));
        await response.body?.cancel();
        return { reference: payment.reference, status: response.status, location: response.headers.get('location') ?? '' };
      }),
      CONCURRENCY,
    );
    const elapsed = Date.now() - started;
    t.diagnostic(`${posts.length} returns answered in ${elapsed} ms`);
    assert.ok(elapsed < BURST_LIMIT_MS, `500 returns answered in ${elapsed} ms`);
    assert.deepEqual(front.failures, []);
    assert.deepEqual(front.counts, [250, 250], 'both instances answered half of the returns');
    for (const answer of answers) {
      assert.equal(answer.status, 303, `the return of ${answer.reference} is answered with a redirect`);
      assert.equal(new URL(answer.location).searchParams.get('outcome'), 'success', answer.reference);
    }

    // Delivered once: every key reaches the shop, and nothing more comes after a quiet while.
    await until(() => payments.every((payment) => shop.acknowledgedCount(payment.key) >= 1), () => `every result delivered (${shop.stored.size} of ${ORDERS})`);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // longer than two polls of both background senders
    for (const payment of payments) {
      assert.equal(shop.deliveriesOf(payment.key).length, 1, `${payment.key} delivered exactly once`);
    }
    assert.equal(shop.deliveries.length, ORDERS);
    assert.ok(shop.deliveries.every((delivery) => delivery.valid));

    // Recorded once: one payment_result line per order across both logs, every other post a replay.
    const logged = instances.flatMap((instance) => instance.events('payment_result'));
    const replayed = instances.flatMap((instance) => instance.events('payment_result_replayed'));
    assert.deepEqual(
      logged.map((line) => String(line['merchant_reference'])).sort(),
      payments.map((payment) => payment.reference).sort(),
      'one payment_result line per order across both instances',
    );
    assert.equal(replayed.length, ORDERS * (POSTS_PER_ORDER - 1));
    t.diagnostic(`first records per instance: ${instances.map((instance) => instance.events('payment_result').length).join(' / ')}`);
    assert.deepEqual(instances.flatMap((instance) => instance.errors()), [], 'no error-level line in either log');

    // The database: one row per key, every one acknowledged.
    const store = await openStore({ dataDir, databaseUrl, poolSize: 1 });
    try {
      const rows = await store.results.list({ state: 'all', limit: 1000 });
      assert.deepEqual(rows.map((row) => row.result.idempotency_key).sort(), payments.map((payment) => payment.key).sort());
      assert.ok(rows.every((row) => row.acknowledged_at !== undefined), 'every result acknowledged');
      assert.deepEqual(await store.results.list({ state: 'pending', limit: 1000 }), []);
    } finally {
      await store.close();
    }
  });

  it('issue one cash bill for two requests at once, one to each, and keep it for the next', async (t) => {
    if (!world.postgres) {
      t.skip(world.skipReason);
      return;
    }
    const { gateway } = world;
    const { settings } = await world.database('pg-instances-bill-');
    const env = { ...settings, PG_VOUCHER_PARTNER_CODE: 'FAWRY' };
    const [one, two] = [await startServe({ env, port: await freePort() }), await startServe({ env, port: await freePort() })] as const;
    const reference = 'twice-asked-1';
    const askBill = (instance: ServeProcess) =>
      fetch(`${instance.url}/bill`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: instance.url },
        body: JSON.stringify({ merchant_reference: reference, language: 'en' }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { bill_number?: string; error?: { code: string } } }));
    // Both instances read the order and ask the gateway before either has sent a bill: the gateway
    // answers each "not found", and holds the answers.
    const firstAsked = gateway.holdNext('CHECK_STATUS');
    const first = askBill(one);
    await firstAsked.arrived;
    const secondAsked = gateway.holdNext('CHECK_STATUS');
    const second = askBill(two);
    await secondAsked.arrived;
    // The first goes on: it issues the bill and keeps it in the database.
    firstAsked.release();
    const issued = await first;
    assert.equal(issued.status, 200);
    // The second goes on after that, with the "not found" it was given before.
    secondAsked.release();
    const shown = await second;
    assert.deepEqual([shown.status, shown.body.bill_number], [200, issued.body.bill_number], JSON.stringify(shown.body));
    assert.equal(gateway.received.filter((request) => request.command === 'BILL_PRESENTMENT' && request.reference === reference).length, 1, 'one bill issued');
    // The log line comes through the process's stdout, which may reach this test after its answer.
    await until(() => two.events('order_raced').length === 1, 'the second instance to log order_raced');
    // The kept bill survived both writes: either instance shows it again.
    const later = await askBill(one);
    assert.deepEqual([later.status, later.body.bill_number], [200, issued.body.bill_number]);
    assert.deepEqual([...one.errors(), ...two.errors()], []);
  });
});
