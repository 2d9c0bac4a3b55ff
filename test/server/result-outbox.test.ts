/**
 * The in-memory result outbox: a result ledger that also keeps what the shop has not acknowledged,
 * hands due results to one sender at a time, and knows each order's furthest result.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { VerifiedResult } from '../../src/server/config.ts';
import { InMemoryResultOutbox } from '../../src/server/result-outbox.ts';

function result(key: string, state: VerifiedResult['order_state'] = 'captured', reference = 'order-1'): VerifiedResult {
  return {
    merchant_reference: reference,
    outcome: state === 'captured' || state === 'authorized' ? 'success' : 'failure',
    response_code: '14000',
    response_message: 'Success.',
    status: '14',
    source: 'return',
    idempotency_key: key,
    order_state: state,
    gateway: {},
  };
}

describe('InMemoryResultOutbox', () => {
  it('records a key once, like any ledger, and keeps it pending until acknowledged', () => {
    const outbox = new InMemoryResultOutbox();
    assert.equal(outbox.record(result('order-1:1:captured')).first, true);
    const replay = outbox.record({ ...result('order-1:1:captured'), response_message: 'again' });
    assert.equal(replay.first, false);
    assert.equal(replay.result.response_message, 'Success.');
    assert.deepEqual(outbox.pending(10).map((entry) => entry.result.idempotency_key), ['order-1:1:captured']);
    assert.equal(outbox.acknowledge('order-1:1:captured'), true);
    assert.equal(outbox.acknowledge('order-1:1:captured'), false, 'once');
    assert.deepEqual(outbox.pending(10), []);
    assert.equal(outbox.record(result('order-1:1:captured')).first, false, 'still a replay after acknowledgement');
  });

  it('holds a new result for its first delivery, then hands due results to one sender at a time', () => {
    let now = new Date('2026-11-22T10:00:00Z');
    const outbox = new InMemoryResultOutbox({ now: () => now, firstDeliveryHoldMs: 30_000 });
    outbox.record(result('order-1:1:captured'));
    assert.deepEqual(outbox.claimDue(now, new Date(now.getTime() + 10_000), 10), [], 'held for the first delivery');
    outbox.recordFailure('order-1:1:captured', new Date(now.getTime() + 2_000), 'network');
    now = new Date(now.getTime() + 2_000);
    const [claimed] = outbox.claimDue(now, new Date(now.getTime() + 10_000), 10);
    assert.deepEqual([claimed?.attempts, claimed?.last_error], [1, 'network']);
    assert.deepEqual(outbox.claimDue(now, new Date(now.getTime() + 10_000), 10), [], 'taken by the first claim');
  });

  it('knows each order’s furthest result: a paid order never goes back to failed', () => {
    const outbox = new InMemoryResultOutbox();
    outbox.record(result('order-1:13001', 'failed'));
    outbox.record(result('order-1:7:captured', 'captured'));
    outbox.record(result('order-1:8:failed', 'failed'));
    assert.equal(outbox.latestFor('order-1')?.idempotency_key, 'order-1:7:captured');
    outbox.record(result('order-1:7:refunded', 'refunded'));
    assert.equal(outbox.latestFor('order-1')?.idempotency_key, 'order-1:7:refunded');
  });

  it('forgets acknowledged results first when it is full', () => {
    const outbox = new InMemoryResultOutbox({ capacity: 2 });
    outbox.record(result('a:1:captured', 'captured', 'a'));
    outbox.acknowledge('a:1:captured');
    outbox.record(result('b:1:captured', 'captured', 'b'));
    outbox.record(result('c:1:captured', 'captured', 'c'));
    assert.deepEqual(outbox.pending(10).map((entry) => entry.result.merchant_reference), ['b', 'c']);
    assert.equal(outbox.latestFor('a'), undefined);
  });
});
