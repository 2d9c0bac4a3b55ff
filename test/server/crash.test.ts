/**
 * `kill -9` of a real `pg-checkout serve` process (SQLite under PG_DATA_DIR) between the gateway's
 * confirmation of a payment and the shop's acknowledgement of its result, then a restart on the
 * same folder: every result still reaches the shop, under the idempotency key it had before the
 * crash, the store holds one row per key, and a result the shop acknowledged is never delivered
 * again, even when its return is posted again after the restart.
 *
 * Everything is real loopback HTTP between processes: the gateway (the endpoint tests' fake
 * gateway, answering CHECK_STATUS signed) and the shop (order lookup and result webhook, whose
 * faults the tests switch) run in this test process; the service runs in a child process that is
 * killed with SIGKILL.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from '../../src/server/hook-signature.ts';
import { createResultProofs } from '../../src/server/result-proof.ts';
import { openStore } from '../../src/store/open.ts';
import type { StoredResult } from '../../src/store/store.ts';
import { MERCHANT_IDENTIFIER, REQUEST_PHRASE } from './fake-gateway.ts';
import { freePort, runCli, startServe, tempDir, until, type ServeProcess } from './support/processes.ts';
import { postReturn, signedReturn, signedTokenization } from './support/returns.ts';
import { serviceWorld } from './support/service-world.ts';
import { SHOP_SECRET } from './support/shop.ts';

const world = serviceWorld();

/** The service's settings: this test's gateway and shop, the store in `dataDir`. */
function settings(dataDir: string, hookTimeoutMs: number): Record<string, string> {
  return world.settings(dataDir, { PG_HOOK_TIMEOUT_MS: String(hookTimeoutMs) });
}

interface Payment {
  readonly reference: string;
  readonly svcId: string;
  /** Where the gateway says the order stands (what CHECK_STATUS answers). */
  readonly state: 'captured' | 'authorized';
  /** The key the result must keep across the crash. */
  readonly key: string;
  /** The signed return the customer's browser posts. */
  readonly body: string;
}

/** An order paid at the gateway (CHECK_STATUS says captured, or authorized), and its signed return. */
async function paid(reference: string, svcId: string, state: Payment['state'] = 'captured'): Promise<Payment> {
  world.gateway.fake.holds(reference, state, { svcId, amount: 250_000 });
  const body = await signedReturn(reference, state === 'captured' ? { svcId } : { svcId, command: 'AUTHORIZATION', code: '02000' });
  return { reference, svcId, state, key: `${reference}:${svcId}:${state}`, body };
}

/** The customer's return, answered by the service with a redirect to a success page. */
async function returnOf(service: ServeProcess, payment: Payment): Promise<void> {
  const response = await postReturn(service.url, payment.body);
  assert.equal(response.status, 303, `the return of ${payment.reference} is answered with a redirect`);
  assert.equal(new URL(response.headers.get('location') ?? '').searchParams.get('outcome'), 'success');
}

/** A return whose answer is cut off by the kill: resolves to its status, or `cut`. */
function returnInFlight(service: ServeProcess, payment: Payment): Promise<number | 'cut'> {
  return postReturn(service.url, payment.body).then(
    async (response) => {
      await response.body?.cancel();
      return response.status;
    },
    () => 'cut' as const,
  );
}

/** The service's pending list (the results route, signed as the shop signs it). */
async function pendingKeys(service: ServeProcess): Promise<string[]> {
  const body = JSON.stringify({});
  const response = await fetch(`${service.url}/results/pending`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [HOOK_SIGNATURE_HEADER]: await signHookBody(body, SHOP_SECRET) },
    body,
  });
  assert.equal(response.status, 200);
  const text = await response.text();
  assert.equal((await verifyHookSignature(text, response.headers.get(HOOK_SIGNATURE_HEADER), SHOP_SECRET)).valid, true);
  return (JSON.parse(text) as { results: StoredResult[] }).results.map((entry) => entry.result.idempotency_key);
}

/** The proofs the service signs into its returns' redirects (same phrase and merchant: the same key). */
const proofs = createResultProofs({ requestPhrase: REQUEST_PHRASE, merchantIdentifier: MERCHANT_IDENTIFIER, now: () => new Date() });

/** The service's own result page for an order, as the customer the gateway returned sees it (with the redirect's proof). */
async function resultPage(service: ServeProcess, reference: string): Promise<string> {
  const proof = await proofs.issue(reference);
  const response = await fetch(`${service.url}/result?merchant_reference=${encodeURIComponent(reference)}&proof=${proof}`, { headers: { 'accept-language': 'en' } });
  assert.equal(response.status, 200);
  return response.text();
}

/** The rows of the SQLite store in `dataDir`, read directly once the service is gone. */
async function storedRows(dataDir: string): Promise<StoredResult[]> {
  const store = await openStore({ dataDir });
  try {
    return await store.results.list({ state: 'all', limit: 1000 });
  } finally {
    await store.close();
  }
}

/** Longer than the background sender's poll (1 s): time for a delivery that must not happen. */
const QUIET_MS = 1_500;

/**
 * After the shop has acknowledged every payment's result: the customer's browser posts each return
 * again, and nothing new reaches the shop; the pending list stays empty and the result pages do not
 * change. Then the service is killed and its store read directly: one acknowledged row per key.
 */
async function assertSettled(
  service: ServeProcess,
  dataDir: string,
  payments: readonly Payment[],
  expectedErrors: readonly string[] = [],
): Promise<void> {
  for (const payment of payments) {
    assert.equal(world.shop.acknowledgedCount(payment.key), 1, `${payment.key} acknowledged once`);
    assert.equal(world.shop.stored.get(payment.key)?.['idempotency_key'], payment.key);
    const keysOfOrder = payments.filter((other) => other.reference === payment.reference).map((other) => other.key);
    for (const delivery of world.shop.deliveries.filter((entry) => entry.merchantReference === payment.reference)) {
      assert.ok(keysOfOrder.includes(delivery.key), `every delivery of ${payment.reference} carries a key it had before the crash (${delivery.key})`);
      assert.equal(delivery.valid, true, 'every delivery is signed with the shared secret');
    }
  }
  // The shop's 2xx is read, then the row acknowledged: wait for that write rather than racing it.
  await until(async () => (await pendingKeys(service)).length === 0, 'the service to record the acknowledgements');
  const pagesBefore = await Promise.all(payments.map((payment) => resultPage(service, payment.reference)));
  for (const page of pagesBefore) assert.match(page, /<main data-outcome="success">/);
  const deliveriesBefore = world.shop.deliveries.length;
  const replayedBefore = service.events('payment_result_replayed').length;
  for (const payment of payments) await returnOf(service, payment);
  await until(
    () => service.events('payment_result_replayed').length === replayedBefore + payments.length,
    'the replayed returns to be logged as replays',
  );
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  assert.equal(world.shop.deliveries.length, deliveriesBefore, 'an acknowledged result is never delivered again, even when its return is replayed');
  assert.deepEqual(await pendingKeys(service), []);
  assert.deepEqual(await Promise.all(payments.map((payment) => resultPage(service, payment.reference))), pagesBefore);
  assert.deepEqual(
    service.errors().filter((line) => !expectedErrors.includes(line.event)),
    [],
    'the restarted service logs no error but the ones the scenario causes',
  );

  await service.kill('SIGKILL');
  const rows = await storedRows(dataDir);
  assert.deepEqual(
    rows.map((row) => row.result.idempotency_key).sort(),
    payments.map((payment) => payment.key).sort(),
    'one row per key in the store',
  );
  for (const row of rows) assert.ok(row.acknowledged_at, `${row.result.idempotency_key} is acknowledged in the store`);
}

describe('kill -9 between the gateway’s confirmation and the shop’s acknowledgement', () => {
  it('(a) results recorded while the shop refuses them: after a restart every one reaches the shop, same key, in order per order', async () => {
    const dataDir = tempDir('pg-crash-a-');
    const port = await freePort();
    const payments = await Promise.all([1, 2, 3].map((n) => paid(`crash-a-${n}`, `17000001${n}`)));
    world.shop.mode = 'refuse';
    const first = await startServe({ env: settings(dataDir, 1_000), port });
    for (const payment of payments) await returnOf(first, payment);
    // Recorded, tried at once, refused.
    for (const payment of payments) {
      const modes = world.shop.deliveriesOf(payment.key).map((delivery) => delivery.mode);
      assert.ok(modes.length >= 1 && modes.every((mode) => mode === 'refuse'), `${payment.key} was tried and refused`);
    }
    // One more order with two results: authorized, then captured (the same payment, two keys).
    const authorized = await paid('crash-a-4', '1700000114', 'authorized');
    await returnOf(first, authorized);
    const captured = await paid('crash-a-4', '1700000114', 'captured');
    await returnOf(first, captured);
    assert.deepEqual(world.shop.deliveriesOf(captured.key), [], 'the later result of an order waits for the earlier one');
    const all = [...payments, authorized, captured];
    const keys = all.map((payment) => payment.key).sort();
    assert.equal(world.shop.stored.size, 0);
    await first.kill('SIGKILL');

    const second = await startServe({ env: settings(dataDir, 1_000), port });
    // The operator asks what the shop has not acknowledged, from the store and from the service.
    const listed = await runCli(['results', '--json', '--all'], { PG_DATA_DIR: dataDir });
    assert.equal(listed.code, 0, listed.stderr);
    const entries = JSON.parse(listed.stdout) as StoredResult[];
    assert.deepEqual(entries.map((entry) => entry.result.idempotency_key).sort(), keys, 'pg-checkout results lists every result after the restart');
    assert.ok(entries.every((entry) => entry.acknowledged_at === undefined), 'none acknowledged');
    const failing = await runCli(['results', '--failing'], { PG_DATA_DIR: dataDir });
    assert.equal(failing.code, 0, failing.stderr);
    for (const payment of payments) assert.match(failing.stdout, new RegExp(`${payment.key}.*status 503`), 'the last failure is shown');
    assert.deepEqual((await pendingKeys(second)).sort(), keys);

    world.shop.mode = 'ok';
    await until(() => all.every((payment) => world.shop.acknowledgedCount(payment.key) === 1), 'every result stored by the shop');
    assert.equal(world.shop.stored.size, all.length);
    assert.deepEqual(
      world.shop.deliveries.filter((delivery) => delivery.merchantReference === 'crash-a-4' && delivery.mode === 'ok').map((delivery) => delivery.orderState),
      ['authorized', 'captured'],
      'one order’s results reach the shop in the order they were recorded',
    );
    const afterwards = await runCli(['results'], { PG_DATA_DIR: dataDir });
    assert.equal(afterwards.code, 0, afterwards.stderr);
    assert.match(afterwards.stdout, /no result is waiting for the shop/);
    // The shop refused after the restart too: saying so is expected, once, and nothing else.
    assert.ok(second.errors().filter((line) => line.event === 'shop_unreachable').length <= 1);
    await assertSettled(second, dataDir, all, ['shop_unreachable']);
  });

  it('(b) killed while the shop holds a delivery without answering: delivered again after the restart, same key', async () => {
    const dataDir = tempDir('pg-crash-b-');
    const port = await freePort();
    const payment = await paid('crash-b-1', '1700000201');
    world.shop.mode = 'hang';
    const first = await startServe({ env: settings(dataDir, 2_000), port });
    // SIGKILL the moment the delivery has reached the shop, while the service waits for its answer.
    world.shop.onDelivery = (delivery) => delivery.key === payment.key && first.child.kill('SIGKILL');
    const returning = returnInFlight(first, payment);
    await until(() => world.shop.deliveriesOf(payment.key).length === 1, 'the first delivery to reach the shop');
    await first.kill('SIGKILL');
    world.shop.onDelivery = undefined;
    assert.equal(await returning, 'cut', 'the process died while the delivery was under way');
    assert.equal(world.shop.stored.size, 0);

    world.shop.mode = 'ok';
    const restartedAt = Date.now();
    const second = await startServe({ env: settings(dataDir, 2_000), port });
    await until(() => world.shop.acknowledgedCount(payment.key) === 1, 'the delivery after the restart');
    // The claim of the killed delivery lapses (2 × 2 s + 1 s) before the new process takes the result.
    assert.ok(Date.now() - restartedAt < 15_000, 'delivered again within a bounded time');
    assert.deepEqual(world.shop.deliveriesOf(payment.key).map((delivery) => delivery.mode), ['hang', 'ok']);
    await assertSettled(second, dataDir, [payment]);
  });

  it('(c) killed after the shop stored a result but before its 2xx was read: sent again, held once by the shop', async () => {
    const dataDir = tempDir('pg-crash-c-');
    const port = await freePort();
    const payment = await paid('crash-c-1', '1700000301');
    world.shop.mode = 'store-then-hang';
    const first = await startServe({ env: settings(dataDir, 2_000), port });
    // SIGKILL the moment the shop has stored the result, before it answers.
    world.shop.onDelivery = (delivery) => delivery.key === payment.key && first.child.kill('SIGKILL');
    const returning = returnInFlight(first, payment);
    await until(() => world.shop.stored.has(payment.key), 'the shop to store the result');
    await first.kill('SIGKILL');
    world.shop.onDelivery = undefined;
    assert.equal(await returning, 'cut', 'the process died before the shop’s answer');

    world.shop.mode = 'ok';
    const second = await startServe({ env: settings(dataDir, 2_000), port });
    await until(() => world.shop.acknowledgedCount(payment.key) === 1, 'the delivery after the restart');
    assert.deepEqual(world.shop.deliveriesOf(payment.key).map((delivery) => delivery.mode), ['store-then-hang', 'ok']);
    assert.equal([...world.shop.stored.keys()].filter((key) => key.startsWith('crash-c-1:')).length, 1, 'the shop holds the result once');
    await assertSettled(second, dataDir, [payment]);
  });

  it('(c) killed after the shop stored a result and cut the connection: sent again, held once by the shop', async () => {
    const dataDir = tempDir('pg-crash-c2-');
    const port = await freePort();
    const payment = await paid('crash-c-2', '1700000302');
    world.shop.mode = 'store-then-destroy';
    const first = await startServe({ env: settings(dataDir, 2_000), port });
    const returning = returnInFlight(first, payment);
    await until(() => world.shop.stored.has(payment.key), 'the shop to store the result');
    await first.kill('SIGKILL');
    await returning;

    world.shop.mode = 'ok';
    const second = await startServe({ env: settings(dataDir, 2_000), port });
    await until(() => world.shop.acknowledgedCount(payment.key) === 1, 'the delivery after the restart');
    assert.deepEqual(world.shop.deliveriesOf(payment.key).map((delivery) => delivery.mode), ['store-then-destroy', 'ok']);
    assert.equal([...world.shop.stored.keys()].filter((key) => key.startsWith('crash-c-2:')).length, 1, 'the shop holds the result once');
    await assertSettled(second, dataDir, [payment]);
  });

  it('(d) killed while the gateway charges a merchant page\'s card, before any answer: the payment reaches the shop after the restart', async () => {
    const dataDir = tempDir('pg-crash-d-');
    const port = await freePort();
    const reference = 'crash-d-1';
    // The card form's token came back (TOKENIZATION); the service charges it server to server.
    const tokenization = await signedTokenization(reference, 'tok-crash-d');
    const env = { ...settings(dataDir, 2_000), PG_RECONCILE_INTERVAL_SECONDS: '1' };
    const first = await startServe({ env, port });
    const charge = world.gateway.holdNext('PURCHASE');
    const returning = returnInFlight(first, { reference, svcId: '', state: 'captured', key: '', body: new URLSearchParams(tokenization).toString() });
    // The gateway has charged the card; its answer is on its way when the process dies.
    await charge.arrived;
    await first.kill('SIGKILL');
    charge.release();
    assert.equal(await returning, 'cut', 'the customer\'s browser saw no answer');
    assert.equal(world.shop.deliveries.length, 0, 'nobody was told before the crash');
    const held = world.gateway.fake.held(reference);
    assert.equal(held?.state, 'captured', 'the gateway holds the payment');

    const second = await startServe({ env, port });
    const key = `${reference}:${held?.svcId}:captured`;
    await until(() => world.shop.acknowledgedCount(key) === 1, 'the payment to reach the shop after the restart', 20_000);
    const delivered = world.shop.deliveriesOf(key)[0];
    assert.deepEqual([delivered?.source, delivered?.outcome, delivered?.orderState], ['reconcile', 'success', 'captured']);
    assert.equal(world.gateway.received.filter((request) => request.command === 'PURCHASE' && request.reference === reference).length, 1, 'charged once');
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    assert.equal(world.shop.deliveries.filter((delivery) => delivery.merchantReference === reference).length, 1, 'reported once');
    assert.deepEqual(second.errors(), []);
  });

  it('(e) killed while the gateway issues a cash bill: the bill is watched after the restart, and its payment at the counter reaches the shop once', async () => {
    const dataDir = tempDir('pg-crash-e-');
    const port = await freePort();
    const reference = 'crash-e-1';
    const env = { ...settings(dataDir, 2_000), PG_RECONCILE_INTERVAL_SECONDS: '1', PG_VOUCHER_PARTNER_CODE: 'FAWRY' };
    const first = await startServe({ env, port });
    const issuing = world.gateway.holdNext('BILL_PRESENTMENT');
    const asked = fetch(`${first.url}/bill`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: first.url },
      body: JSON.stringify({ merchant_reference: reference, language: 'en' }),
    }).then(
      (response) => response.status,
      () => 'cut' as const,
    );
    // The gateway has issued the bill; its answer, with the bill's number, is on its way when the process dies.
    await issuing.arrived;
    await first.kill('SIGKILL');
    issuing.release();
    assert.equal(await asked, 'cut', 'the customer saw no bill');
    assert.equal(world.gateway.fake.held(reference)?.state, 'bill_issued');

    const second = await startServe({ env, port });
    // The customer asks again: the number never arrived, so the order waits for that bill.
    const again = await fetch(`${second.url}/bill`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: second.url },
      body: JSON.stringify({ merchant_reference: reference, language: 'en' }),
    });
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'order_in_progress');
    // Paid at the partner's counter while nobody is on the page.
    const svcId = world.gateway.fake.held(reference)?.svcId ?? '';
    world.gateway.fake.holds(reference, 'captured', { svcId, amount: 250_000 });
    const key = `${reference}:${svcId}:captured`;
    await until(() => world.shop.acknowledgedCount(key) === 1, 'the bill\'s payment to reach the shop', 20_000);
    assert.deepEqual([world.shop.deliveriesOf(key)[0]?.source, world.shop.deliveriesOf(key)[0]?.orderState], ['reconcile', 'captured']);
    assert.equal(world.gateway.received.filter((request) => request.command === 'BILL_PRESENTMENT').length, 1, 'one bill issued');
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    // The bill whose answer the kill cut is reported by the reconciler while it waits, unless it was paid first.
    const heard = world.shop.deliveries.filter((delivery) => delivery.merchantReference === reference).map((delivery) => delivery.key);
    assert.ok([[key], [`${reference}:${svcId}:pending`, key]].some((expected) => expected.join() === heard.join()), `reported once each: ${heard.join(', ')}`);
    assert.deepEqual(second.errors(), []);
  });
});
