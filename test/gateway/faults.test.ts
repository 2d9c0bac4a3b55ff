/**
 * No blind retries of money. A proxy between the client and the sandbox forwards a CAPTURE and
 * loses its answer (reset connection, 502), fails it before the gateway sees it (503), holds it
 * past the client's time limit, or never delivers it; each time the client asks CHECK_STATUS
 * instead of sending it again, and says what really happened. A read-only call is retried.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayUnavailableError, type GatewayClient } from '../../src/gateway/index.ts';
import {
  authorize,
  clientFor,
  nextReference,
  sleepsOn,
  startFaultProxy,
  startSandbox,
  type FaultProxy,
  type Sandbox,
} from './support.ts';

let sandbox: Sandbox;
let proxy: FaultProxy;

before(async () => {
  sandbox = await startSandbox();
  proxy = await startFaultProxy(sandbox.origin);
});
after(async () => {
  await proxy.close();
  await sandbox.close();
});

const count = (operation: string) => proxy.forwarded.filter((name) => name === operation).length;
const capturedAt = (reference: string) => sandbox.gateway.order({ merchantReference: reference })?.capturedAmount;

/**
 * An authorized order of EGP 1,000.00 (made with a client of ordinary time limits), and the client
 * under test: it waits by the sandbox's clock, with `overrides` (a short time limit where a test
 * needs one).
 */
async function authorizedOrder(overrides: Parameters<typeof clientFor>[1] = {}): Promise<{ reference: string; client: GatewayClient; waits: number[] }> {
  const reference = nextReference('fault');
  await authorize(clientFor(proxy.origin), reference, 100_000);
  const sleeps = sleepsOn(sandbox.clock);
  const client = clientFor(proxy.origin, { sleep: sleeps.sleep, ...overrides });
  return { reference, client, waits: sleeps.waits };
}

describe('a capture whose answer is lost', () => {
  it('after the gateway acted (connection reset): CHECK_STATUS shows it applied, success, captured once', async () => {
    const { reference, client, waits } = await authorizedOrder();
    const sent = count('CAPTURE');
    proxy.inject('CAPTURE', 'reset_after_forward');
    const result = await client.capture({ merchant_reference: reference, amount: 40_000, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.source, result.reason], ['success', 'check_status', 'connection']);
    assert.equal(result.answer, undefined, 'the capture’s own answer never arrived');
    assert.deepEqual([result.order?.captured_amount, result.order?.authorized_amount], [40_000, 100_000]);
    assert.equal(result.response_code, '20064', 'the order’s last operation, as CHECK_STATUS reports it');
    assert.equal(count('CAPTURE') - sent, 1, 'the capture was sent once, never again');
    assert.equal(capturedAt(reference), 40_000, 'no double capture at the gateway');
    assert.ok(waits.length >= 1, 'the client waited before asking');
  });

  it('after the gateway acted (502 from a proxy): the same, read from CHECK_STATUS', async () => {
    const { reference, client } = await authorizedOrder();
    proxy.inject('CAPTURE', 'bad_gateway_after_forward');
    const result = await client.capture({ merchant_reference: reference, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.reason, result.order?.captured_amount], ['success', 'http_error', 100_000]);
    assert.equal(capturedAt(reference), 100_000);
  });

  it('sent to a slow gateway that acts after the client gave up (time-out): settled as success once it shows', async () => {
    // This proxy holds the capture for 1.5 s, three times the client's time limit.
    const slow = await startFaultProxy(sandbox.origin, 1_500);
    try {
      const reference = nextReference('late');
      await authorize(clientFor(slow.origin), reference, 100_000);
      // The client's CHECK_STATUS readings wait for the held capture to reach the gateway first.
      const late = clientFor(slow.origin, { timeoutMs: 500, sleep: () => slow.delivered('CAPTURE') });
      slow.inject('CAPTURE', 'late');
      const result = await late.capture({ merchant_reference: reference, amount: 25_000, currency: 'EGP' });
      assert.deepEqual([result.outcome, result.reason, result.order?.captured_amount], ['success', 'timeout', 25_000]);
      assert.deepEqual(slow.forwarded.filter((name) => name === 'CAPTURE'), ['CAPTURE'], 'sent once');
    } finally {
      await slow.close();
    }
  });

  it('failed before the gateway saw it (503): unknown, with the amounts read and nothing sent again', async () => {
    const { reference, client, waits } = await authorizedOrder({ reconcile: { attempts: 3, delayMs: 500, maxDelayMs: 1_000 } });
    const sent = count('CAPTURE');
    proxy.inject('CAPTURE', 'unavailable');
    const result = await client.capture({ merchant_reference: reference, amount: 10_000, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.source, result.reason], ['unknown', 'check_status', 'http_error']);
    assert.deepEqual([result.order?.authorized_amount, result.order?.captured_amount], [100_000, 0]);
    assert.match(result.response_message, /lost.*check the order before trying again/);
    assert.equal(count('CAPTURE'), sent, 'the gateway never saw a capture, and none was sent again');
    assert.deepEqual(waits.slice(-3), [500, 1_000, 1_000], 'three readings, the waits growing to the cap');
  });

  it('never delivered and never answered (time-out): unknown after the readings, nothing captured', async () => {
    const { reference, client } = await authorizedOrder({ timeoutMs: 300, reconcile: { attempts: 2 } });
    proxy.inject('CAPTURE', 'hang');
    const result = await client.capture({ merchant_reference: reference, amount: 10_000, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.reason, result.order?.captured_amount], ['unknown', 'timeout', 0]);
    assert.equal(capturedAt(reference), 0);
  });

  it('is never sent when the gateway cannot be reached at all: nothing moved, an error says so', async () => {
    const { reference } = await authorizedOrder();
    const closed = await startFaultProxy(sandbox.origin);
    const origin = closed.origin;
    await closed.close();
    const unreachable = clientFor(origin, { retry: { attempts: 2 } });
    await assert.rejects(
      unreachable.capture({ merchant_reference: reference, amount: 1_000, currency: 'EGP' }),
      (error: unknown) => error instanceof GatewayUnavailableError && error.kind === 'not_sent' && error.operation === 'CHECK_STATUS',
    );
  });
});

describe('a refund whose answer is lost', () => {
  it('is settled by CHECK_STATUS: the refunded amount grew, sent once', async () => {
    const { reference, client } = await authorizedOrder();
    await client.capture({ merchant_reference: reference, currency: 'EGP' });
    const sent = count('REFUND');
    proxy.inject('REFUND', 'reset_after_forward');
    const result = await client.refund({ merchant_reference: reference, amount: 30_000, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.source, result.order?.refunded_amount], ['success', 'check_status', 30_000]);
    assert.equal(count('REFUND') - sent, 1);
  });
});

describe('a charge whose answer is lost', () => {
  it('is settled by CHECK_STATUS: the order shows paid, charged once', async () => {
    const sleeps = sleepsOn(sandbox.clock);
    const client = clientFor(proxy.origin, { sleep: sleeps.sleep });
    const reference = nextReference('charge');
    const sent = count('PURCHASE');
    proxy.inject('PURCHASE', 'reset_after_forward');
    const { card_number, expiry_date } = { card_number: '4111111111111111', expiry_date: '2908' };
    const result = await client.trustedPurchase({ merchant_reference: reference, amount: 5_000, currency: 'EGP', eci: 'MOTO', card_number, expiry_date });
    assert.deepEqual([result.outcome, result.source, result.order?.state], ['success', 'check_status', 'captured']);
    assert.equal(count('PURCHASE') - sent, 1);
  });

  it('is refused before sending when the reference already holds a payment', async () => {
    const client = clientFor(proxy.origin);
    const reference = nextReference('reused');
    await authorize(client, reference, 5_000, 'PURCHASE');
    const sent = count('PURCHASE');
    const again = await client.trustedPurchase({ merchant_reference: reference, amount: 5_000, currency: 'EGP', eci: 'MOTO', card_number: '4111111111111111', expiry_date: '2908' });
    assert.deepEqual([again.outcome, again.reason], ['refused', 'reference_in_use']);
    assert.equal(count('PURCHASE'), sent);
  });
});

describe('a read-only call', () => {
  it('is tried again after a reset connection, with a growing wait', async () => {
    const sleeps = sleepsOn();
    const client = clientFor(proxy.origin, { sleep: sleeps.sleep, retry: { attempts: 3, delayMs: 100 } });
    const reference = nextReference('read');
    await authorize(client, reference, 1_000);
    const before = proxy.received.filter((name) => name === 'CHECK_STATUS').length;
    proxy.inject('CHECK_STATUS', 'reset', 2);
    const status = await client.checkStatus({ merchant_reference: reference });
    assert.equal(status.order?.state, 'authorized');
    assert.equal(proxy.received.filter((name) => name === 'CHECK_STATUS').length - before, 3, 'two failed attempts, then the answer');
    assert.deepEqual(sleeps.waits, [100, 200]);
  });

  it('gives up after its attempts with an error naming the failure', async () => {
    const client = clientFor(proxy.origin, { retry: { attempts: 2 } });
    proxy.inject('CHECK_STATUS', 'unavailable', 2);
    await assert.rejects(client.checkStatus({ merchant_reference: 'anything' }), (error: unknown) => {
      assert.ok(error instanceof GatewayUnavailableError);
      assert.deepEqual([error.kind, error.httpStatus], ['http_error', 503]);
      assert.match(error.message, /HTTP 503/);
      return true;
    });
  });

  it('times out on a gateway that does not answer', async () => {
    const client = clientFor(proxy.origin, { timeoutMs: 100, retry: false });
    proxy.inject('CURRENCY_CONVERSION', 'hang');
    await assert.rejects(
      client.currencyExchange({ amount: 100, currency: 'USD', converted_currency: 'EUR' }),
      (error: unknown) => error instanceof GatewayUnavailableError && error.kind === 'timeout',
    );
  });
});
