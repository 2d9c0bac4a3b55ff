/**
 * Rate limits and outages: an HTTP 429, or any other 4xx or 5xx with an HTML or unsigned body, is the transport's
 * answer, never a forged one. It is `rate_limited` / `http_error` with the wait its Retry-After asks;
 * a read is tried again no sooner than that, within the call's deadline; a money call is never sent
 * again and is settled by CHECK_STATUS. Against the sandbox over loopback HTTP, its outage tool
 * (`POST sandbox-tools/faults`) answering 429 and 503, on a clock that only the client's waits move.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayUnavailableError, parseRetryAfter, type GatewayClient } from '../../src/gateway/index.ts';
import type { SandboxFaults } from '../../src/sandbox/index.ts';
import { authorize, card, clientFor, nextReference, sleepsOn, startSandbox, type Sandbox, type Sleeps } from './support.ts';

let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox.close());

/** Plans an outage with the sandbox's tool, as a test or a merchant would over HTTP. */
async function outage(plan: { status: 429 | 503; count: number; retry_after?: number; operation?: string }): Promise<void> {
  const answer = await fetch(`${sandbox.origin}/sandbox-tools/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(plan),
  });
  assert.equal(answer.status, 200, await answer.text());
}

const pending = async (): Promise<Partial<SandboxFaults> & { count: number }> =>
  (await (await fetch(`${sandbox.origin}/sandbox-tools/faults`)).json()) as { count: number };

/** A client whose waits move the sandbox's clock, which is also its own: the deadline is counted on it. */
function timedClient(overrides: Parameters<typeof clientFor>[1] = {}, then?: () => Promise<void>): { client: GatewayClient; sleeps: Sleeps } {
  const sleeps = sleepsOn(sandbox.clock, then);
  return { client: clientFor(sandbox.origin, { sleep: sleeps.sleep, now: sandbox.clock.now, ...overrides }), sleeps };
}

const operationsOf = (reference: string) => sandbox.gateway.order({ merchantReference: reference })?.operations.map((operation) => operation.operation);

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-10T09:00:00Z');
  it('reads delay-seconds and the three forms of an HTTP date', () => {
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Tue, 10 Mar 2026 09:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Tuesday, 10-Mar-26 09:01:00 GMT', now), 60_000);
    assert.equal(parseRetryAfter('Tue Mar 10 09:00:05 2026', now), 5_000);
  });

  it('gives 0 for a date past and nothing for anything else', () => {
    assert.equal(parseRetryAfter('Mon, 09 Mar 2026 09:00:00 GMT', now), 0);
    for (const value of [null, undefined, '', '-5', '1.5', 'soon', '2026-03-10T09:00:30Z']) assert.equal(parseRetryAfter(value, now), undefined, String(value));
  });
});

describe('a 429 or a 503 answer', () => {
  it('is rate_limited (429, unsigned JSON body), never signature_invalid, with the wait it asks', async () => {
    await outage({ status: 429, count: 1, retry_after: 2 });
    const { client } = timedClient({ retry: false });
    await assert.rejects(client.checkStatus({ merchant_reference: 'anything' }), (error: unknown) => {
      assert.ok(error instanceof GatewayUnavailableError);
      assert.deepEqual([error.kind, error.httpStatus, error.retryAfterMs], ['rate_limited', 429, 2_000]);
      assert.match(error.message, /limiting requests \(HTTP 429\); it asks to wait 2 s/);
      return true;
    });
  });

  it('is http_error (503, an HTML page), with its Retry-After', async () => {
    await outage({ status: 503, count: 1, retry_after: 5 });
    const { client } = timedClient({ retry: false });
    await assert.rejects(client.checkStatus({ merchant_reference: 'anything' }), (error: unknown) => {
      assert.ok(error instanceof GatewayUnavailableError);
      assert.deepEqual([error.kind, error.httpStatus, error.retryAfterMs], ['http_error', 503, 5_000]);
      return true;
    });
  });
});

describe('any other HTTP error (a proxy or a firewall in front of the gateway)', () => {
  for (const [status, body, type] of [
    [403, '{"response_code":"00008","response_message":"Forbidden"}', 'application/json'],
    [404, '<html><body>Not Found</body></html>', 'text/html'],
    [400, '{"message":"Bad Request"}', 'application/json'],
  ] as const) {
    it(`is http_error (${status}), never signature_invalid, whatever its body says`, async () => {
      const client = clientFor(sandbox.origin, {
        retry: false,
        fetch: async () => new Response(body, { status, headers: { 'content-type': type } }),
      });
      await assert.rejects(client.checkStatus({ merchant_reference: 'anything' }), (error: unknown) => {
        assert.ok(error instanceof GatewayUnavailableError);
        assert.deepEqual([error.kind, error.httpStatus], ['http_error', status]);
        assert.match(error.message, new RegExp(`the gateway answered HTTP ${status}`));
        return true;
      });
    });
  }
});

describe('a read-only call under a rate limit', () => {
  it('is tried again no sooner than Retry-After asks, longer than its own growing wait', async () => {
    const reference = nextReference('limited-read');
    await authorize(clientFor(sandbox.origin), reference, 1_000);
    await outage({ status: 429, count: 2, retry_after: 3 });
    const { client, sleeps } = timedClient({ retry: { attempts: 3, delayMs: 100 } });
    const status = await client.checkStatus({ merchant_reference: reference });
    assert.equal(status.order?.state, 'authorized');
    assert.deepEqual(sleeps.waits, [3_000, 3_000]);
  });

  it('gives up at once with rate_limited, sleeping nothing, when the wait would pass the call’s deadline', async () => {
    await outage({ status: 429, count: 2, retry_after: 60 });
    const { client, sleeps } = timedClient({ deadlineMs: 30_000 });
    await assert.rejects(
      client.checkStatus({ merchant_reference: 'anything' }),
      (error: unknown) => error instanceof GatewayUnavailableError && error.kind === 'rate_limited' && error.retryAfterMs === 60_000,
    );
    assert.deepEqual(sleeps.waits, [], 'never slept past the deadline');
    assert.equal((await pending()).count, 1, 'asked once, not again');
    await fetch(`${sandbox.origin}/sandbox-tools/faults`, { method: 'DELETE' });
  });
});

describe('a money call under a rate limit or an outage', () => {
  it('is never sent again: a capture answered 429 is settled by CHECK_STATUS, the first reading after Retry-After', async () => {
    const reference = nextReference('limited-capture');
    await authorize(clientFor(sandbox.origin), reference, 100_000);
    await outage({ status: 429, count: 1, retry_after: 4, operation: 'CAPTURE' });
    const { client, sleeps } = timedClient({ reconcile: { attempts: 2 } });
    const result = await client.capture({ merchant_reference: reference, amount: 40_000, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.source, result.reason], ['unknown', 'check_status', 'rate_limited']);
    assert.match(result.response_message, /limiting requests \(HTTP 429\) when the capture was sent.*check the order before trying again/);
    assert.equal(result.order?.captured_amount, 0);
    assert.ok((sleeps.waits[0] ?? 0) >= 4_000, `the first reading waited what Retry-After asked: ${sleeps.waits.join(', ')}`);
    assert.deepEqual(operationsOf(reference), ['AUTHORIZATION'], 'the capture was refused before the gateway did anything, and not sent again');
  });

  it('honours the Retry-After of a reading answered 429 before the next reading', async () => {
    const reference = nextReference('limited-reading');
    await authorize(clientFor(sandbox.origin), reference, 100_000);
    await outage({ status: 503, count: 1, operation: 'CAPTURE' });
    let first = true;
    const { client, sleeps } = timedClient({ reconcile: { attempts: 3, delayMs: 500 } }, async () => {
      // Before the first reading, the gateway starts limiting CHECK_STATUS.
      if (first) await outage({ status: 429, count: 1, retry_after: 7, operation: 'CHECK_STATUS' });
      first = false;
    });
    const result = await client.capture({ merchant_reference: reference, amount: 10_000, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.reason], ['unknown', 'http_error']);
    assert.deepEqual(sleeps.waits, [500, 7_000, 2_000], 'the second reading waited what the limited one asked');
  });

  it('ends unknown without sleeping past the call’s deadline when Retry-After asks too much', async () => {
    const reference = nextReference('limited-long');
    await authorize(clientFor(sandbox.origin), reference, 100_000);
    await outage({ status: 429, count: 1, retry_after: 3_600, operation: 'REFUND' });
    const { client, sleeps } = timedClient({ deadlineMs: 60_000 });
    await client.capture({ merchant_reference: reference, currency: 'EGP' });
    const result = await client.refund({ merchant_reference: reference, amount: 1_000, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.reason], ['unknown', 'rate_limited']);
    assert.deepEqual(sleeps.waits, [], 'no reading within the deadline: none was taken');
    assert.deepEqual(operationsOf(reference), ['AUTHORIZATION', 'CAPTURE']);
  });
});

describe('a whole lifecycle through 429 and 503 answers', () => {
  it('charges, captures, refunds and reads the status, every amount moved exactly once', async () => {
    const reference = nextReference('outage-life');
    const { client, sleeps } = timedClient();

    // The charge: its reading of the reference meets two 429s and is tried again after each Retry-After.
    await outage({ status: 429, count: 2, retry_after: 2 });
    const charge = await client.trustedAuthorization({ merchant_reference: reference, amount: 100_000, currency: 'EGP', eci: 'ECOMMERCE', customer_email: 'buyer@example.com', ...card() });
    assert.deepEqual([charge.outcome, charge.source], ['success', 'answer']);
    assert.deepEqual(sleeps.waits.splice(0), [2_000, 2_000]);

    // The capture meets a 503 page: not sent again, settled unknown (nothing captured); asked again, it succeeds.
    await outage({ status: 503, count: 1, retry_after: 1, operation: 'CAPTURE' });
    const lost = await client.capture({ merchant_reference: reference, amount: 60_000, currency: 'EGP' });
    assert.deepEqual([lost.outcome, lost.reason, lost.order?.captured_amount], ['unknown', 'http_error', 0]);
    const captured = await client.capture({ merchant_reference: reference, amount: 60_000, currency: 'EGP' });
    assert.deepEqual([captured.outcome, captured.source, captured.response_code], ['success', 'answer', '20064']);

    // The refund meets a 429: the same.
    await outage({ status: 429, count: 1, retry_after: 3, operation: 'REFUND' });
    const limited = await client.refund({ merchant_reference: reference, amount: 25_000, currency: 'EGP' });
    assert.deepEqual([limited.outcome, limited.reason, limited.order?.refunded_amount], ['unknown', 'rate_limited', 0]);
    const refunded = await client.refund({ merchant_reference: reference, amount: 25_000, currency: 'EGP' });
    assert.deepEqual([refunded.outcome, refunded.source], ['success', 'answer']);

    // The status meets two 503 pages and is read on the third attempt.
    await outage({ status: 503, count: 2, retry_after: 1, operation: 'CHECK_STATUS' });
    const status = await client.checkStatus({ merchant_reference: reference });
    assert.deepEqual(
      [status.order?.state, status.order?.authorized_amount, status.order?.captured_amount, status.order?.refunded_amount],
      ['partially_refunded', 100_000, 60_000, 25_000],
    );

    const order = sandbox.gateway.order({ merchantReference: reference });
    assert.deepEqual(operationsOf(reference), ['AUTHORIZATION', 'CAPTURE', 'REFUND'], 'each operation carried out once');
    assert.deepEqual([order?.capturedAmount, order?.refundedAmount], [60_000, 25_000]);
    assert.equal((await pending()).count, 0, 'every planned fault was met');
  });
});
