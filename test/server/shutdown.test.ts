/**
 * Stopping `pg-checkout serve` as a deploy does (SIGTERM; `docker stop`, systemd, Kubernetes), over
 * real loopback HTTP between processes: the gateway (the endpoint tests' fake, whose answers a test
 * holds) and the shop (order lookup and result webhook) run in this test process, the service in a
 * child process with its SQLite store in a temporary folder.
 *
 * (a) A request under way when the signal arrives finishes: the customer gets the bill the gateway
 *     issued, the shop hears of it, no new connection is taken meanwhile, and the process exits 0.
 * (b) A request that outlasts PG_SHUTDOWN_GRACE_SECONDS is cut and the process exits 1; what it
 *     sent the gateway is watched, so its payment at the counter still reaches the shop once.
 * (c) A second signal stops the process at once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, startServe, tempDir, until, type ServeProcess } from './support/processes.ts';
import { serviceWorld } from './support/service-world.ts';

const world = serviceWorld();

/** The fake gateway's number for every bill it issues. */
const BILL_NUMBER = '12345678901234';

function settings(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return world.settings(dataDir, {
    PG_HOOK_TIMEOUT_MS: '2000',
    PG_RECONCILE_INTERVAL_SECONDS: '1',
    PG_VOUCHER_PARTNER_CODE: 'FAWRY',
    ...extra,
  });
}

/** The customer's bill request, as `<pg-bill-voucher>` sends it; resolves to its answer, or `cut`. */
function askForBill(service: ServeProcess, reference: string) {
  return fetch(`${service.url}/bill`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: service.url },
    body: JSON.stringify({ merchant_reference: reference, language: 'en' }),
  }).then(
    async (response) => ({
      status: response.status,
      connection: response.headers.get('connection'),
      body: (await response.json()) as { bill_number?: string; error?: { code: string } },
    }),
    () => 'cut' as const,
  );
}

/** Whether a new connection to the service is refused. */
async function refusesConnections(service: ServeProcess): Promise<boolean> {
  try {
    await fetch(`${service.url}/health`, { signal: AbortSignal.timeout(2_000) });
    return false;
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
  }
}

describe('pg-checkout serve stopped by a signal', () => {
  it('(a) SIGTERM while the gateway issues a bill: the customer still gets it, the shop hears of it, no new connection is taken, exit 0', async () => {
    const dataDir = tempDir('pg-stop-a-');
    const port = await freePort();
    const reference = 'stop-a-1';
    const first = await startServe({ env: settings(dataDir), port });
    const issuing = world.gateway.holdNext('BILL_PRESENTMENT');
    const asked = askForBill(first, reference);
    await issuing.arrived;
    first.child.kill('SIGTERM');
    await until(() => first.events('stopping').length === 1, 'the service to say it is stopping');
    assert.equal(first.events('stopping')[0]?.['in_flight'], 1, 'one request under way');
    assert.equal(await refusesConnections(first), true, 'a new connection is refused while the request finishes');
    issuing.release();

    const answer = await asked;
    assert.notEqual(answer, 'cut', 'the request under way is answered');
    if (answer === 'cut') return;
    assert.equal(answer.status, 200);
    assert.equal(answer.body.bill_number, BILL_NUMBER);
    assert.equal(answer.connection, 'close', 'its connection is not kept alive');
    assert.equal(await first.exited, 0);
    assert.deepEqual(first.events('stopped').map((line) => line['cut']), [0]);
    assert.deepEqual(first.errors(), []);
    // Committed and reported before the customer was answered, so before the process ended.
    assert.equal(world.shop.acknowledgedCount(`${reference}:${BILL_NUMBER}:pending`), 1, 'the shop heard of the bill');

    // After the restart (the deploy's new process) the same bill is shown again, never issued twice.
    const second = await startServe({ env: settings(dataDir), port });
    const again = await askForBill(second, reference);
    assert.ok(again !== 'cut' && again.status === 200 && again.body.bill_number === BILL_NUMBER, JSON.stringify(again));
    assert.equal(world.gateway.received.filter((request) => request.command === 'BILL_PRESENTMENT' && request.reference === reference).length, 1, 'one bill issued');
    await second.kill('SIGTERM');
    assert.equal(await second.exited, 0, 'an idle service stops at once with 0');
  });

  it('(b) a request that outlasts PG_SHUTDOWN_GRACE_SECONDS is cut, exit 1; the bill it sent is watched and its payment reaches the shop once', async () => {
    const dataDir = tempDir('pg-stop-b-');
    const port = await freePort();
    const reference = 'stop-b-1';
    const first = await startServe({ env: settings(dataDir, { PG_SHUTDOWN_GRACE_SECONDS: '1' }), port });
    const issuing = world.gateway.holdNext('BILL_PRESENTMENT');
    const asked = askForBill(first, reference);
    await issuing.arrived;
    const signalled = Date.now();
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 1, 'exit 1: a request was cut');
    const took = Date.now() - signalled;
    assert.ok(took >= 900 && took < 5_000, `stopped after the grace period (${took} ms)`);
    issuing.release();
    assert.equal(await asked, 'cut');
    assert.deepEqual(first.events('stop_deadline').map((line) => line['cut']), [1]);
    assert.deepEqual(first.errors(), []);

    const second = await startServe({ env: settings(dataDir), port });
    const svcId = world.gateway.fake.held(reference)?.svcId ?? '';
    world.gateway.fake.holds(reference, 'captured', { svcId, amount: 250_000 });
    const key = `${reference}:${svcId}:captured`;
    await until(() => world.shop.acknowledgedCount(key) === 1, "the bill's payment to reach the shop", 20_000);
    assert.equal(world.gateway.received.filter((request) => request.command === 'BILL_PRESENTMENT' && request.reference === reference).length, 1, 'one bill issued');
    assert.equal(world.shop.deliveries.filter((delivery) => delivery.merchantReference === reference && delivery.orderState === 'captured').length, 1);
    assert.deepEqual(second.errors(), []);
  });

  it('(c) a second signal stops it at once', async () => {
    const port = await freePort();
    const first = await startServe({ env: settings(tempDir('pg-stop-c-'), { PG_SHUTDOWN_GRACE_SECONDS: '60' }), port });
    const issuing = world.gateway.holdNext('BILL_PRESENTMENT');
    const asked = askForBill(first, 'stop-c-1');
    await issuing.arrived;
    first.child.kill('SIGTERM');
    await until(() => first.events('stopping').length === 1, 'the service to say it is stopping');
    const signalled = Date.now();
    first.child.kill('SIGINT');
    assert.equal(await first.exited, 130);
    assert.ok(Date.now() - signalled < 5_000, 'without waiting for the grace period');
    issuing.release();
    assert.equal(await asked, 'cut');
  });
});
