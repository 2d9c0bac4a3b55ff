/**
 * What every store engine promises, as one suite that memory, SQLite and PostgreSQL all run
 * (memory.ts is the reference). Each test opens a fresh, empty store. Times are fixed dates passed
 * in, never the clock; answers are compared whole with deepEqual, so that every engine gives the
 * same shape: ISO times, and optional fields absent rather than null.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { paymentOutcomeOf, type OrderState } from '../../src/core/order-status.ts';
import type { VerifiedResult } from '../../src/core/verified-result.ts';
import type { NewWatch, PaymentWatch, Store, StoredResult } from '../../src/store/store.ts';

export interface OpenedStore {
  readonly store: Store;
  /** Closes nothing itself: the test closes `store` first, then opens the same data again. */
  readonly reopen?: () => Promise<Store>;
  /** Closes every store it opened (closing twice is allowed) and removes their data. */
  readonly cleanup: () => Promise<void>;
}

/** 2025-03-01T10:00:00Z and seconds after it. */
const T0 = Date.parse('2025-03-01T10:00:00.000Z');
export const at = (seconds: number): Date => new Date(T0 + seconds * 1000);
const iso = (seconds: number): string => at(seconds).toISOString();
const DAY = 24 * 60 * 60;

/** A result of `reference` reaching `state`; its key follows core's `resultKeyOf`. */
export function resultOf(reference: string, state: OrderState, extra: Partial<VerifiedResult> = {}): VerifiedResult {
  return {
    merchant_reference: reference,
    outcome: paymentOutcomeOf(state),
    response_code: '14000',
    response_message: 'Success',
    status: '14',
    svc_id: '1700000004',
    amount: 125000,
    currency: 'EGP',
    source: 'return',
    kind: 'payment',
    idempotency_key: `${reference}:1700000004:${state}`,
    order_state: state,
    gateway: { command: 'PURCHASE', response_code: '14000', card_number: '411111******1111' },
    ...extra,
  };
}

function watchOf(reference: string, extra: Partial<NewWatch> = {}): NewWatch {
  return {
    merchant_reference: reference,
    kind: 'bill',
    svc_id: '1700000009',
    amount: 50000,
    currency: 'EGP',
    language: 'ar',
    last_state: 'pending',
    due_at: iso(3 * DAY),
    expires_at: iso(4 * DAY),
    ...extra,
  };
}

const keys = (rows: readonly StoredResult[]): string[] => rows.map((row) => row.result.idempotency_key);
const references = (rows: readonly PaymentWatch[]): string[] => rows.map((row) => row.merchant_reference);

export function describeStoreContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`the ${name} store`, () => {
    let opened: OpenedStore;
    let store: Store;

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });

    afterEach(async () => {
      await opened.cleanup();
    });

    describe('results', () => {
      it('records a result once per idempotency key: a second record answers first: false and the first result', async () => {
        const first = resultOf('order-1', 'captured');
        assert.deepEqual(await store.results.record(first, at(0)), { first: true, result: first });
        const replay = { ...first, response_message: 'Replayed', amount: 1 };
        assert.deepEqual(await store.results.record(replay, at(5)), { first: false, result: first });
        assert.deepEqual(await store.results.get(first.idempotency_key), {
          result: first,
          recorded_at: iso(0),
          attempts: 0,
          next_attempt_at: iso(0),
        });
      });

      it('keeps every field of a result as it was recorded', async () => {
        const result = resultOf('order-ü', 'captured', {
          order_status: { state: 'captured', authorized_amount: 0, captured_amount: 125000, refunded_amount: 0, svc_id: '1700000004' },
          command: 'PURCHASE',
          saved_card: { token_name: 'tok_1', confirmed: true, card_number: '411111******1111', expiry_date: '2712', card_brand: 'VISA' },
          installments: { number_of_installments: 6, plan_code: 'P6', issuer_code: 'CIB' },
          gateway: { nested: { list: [1, 'two', null, { three: 3.5 }] }, arabic: 'تم الدفع', quote: 'a "b" \\ c' },
        });
        await store.results.record(result, at(0));
        assert.deepEqual((await store.results.get(result.idempotency_key))?.result, result);
        assert.deepEqual(await store.results.record(result, at(1)), { first: false, result });
      });

      it('answers undefined for a key it does not hold', async () => {
        assert.equal(await store.results.get('order-0:none'), undefined);
      });

      it('release forgets a key, so that the next record of it is first again', async () => {
        const result = resultOf('order-1', 'captured');
        await store.results.record(result, at(0));
        await store.results.release(result.idempotency_key);
        assert.equal(await store.results.get(result.idempotency_key), undefined);
        assert.equal((await store.results.record(result, at(9))).first, true);
        assert.equal((await store.results.get(result.idempotency_key))?.recorded_at, iso(9));
        await store.results.release('order-0:none');
      });

      describe('release keeps a result a delivery has handled: the outbox row', () => {
        const result = resultOf('order-1', 'captured');
        const key = result.idempotency_key;

        /** Releases the key, then checks that the result is still there, as it was, and that a record of it is no first. */
        async function assertKept(why: string): Promise<void> {
          const before = await store.results.get(key);
          assert.ok(before, why);
          await store.results.release(key);
          assert.deepEqual(await store.results.get(key), before, why);
          assert.equal((await store.results.record(result, at(50))).first, false, why);
        }

        it('keeps a result a delivery claimed, even before it was posted', async () => {
          await store.results.record(result, at(0));
          assert.ok(await store.results.claim(key, at(1), at(30)));
          await assertKept('claimed by a delivery');
        });

        it('keeps a result a batch claimed', async () => {
          await store.results.record(result, at(0));
          assert.equal((await store.results.claimDue(at(1), at(30), 10)).length, 1);
          await assertKept('claimed by a delivery');
        });

        it('keeps a result whose delivery failed', async () => {
          await store.results.record(result, at(0));
          await store.results.recordFailure(key, at(30), 'status 503');
          await assertKept('a delivery was tried');
        });

        it('keeps a result the shop acknowledged', async () => {
          await store.results.record(result, at(0));
          assert.equal(await store.results.acknowledge(key, at(2)), true);
          await assertKept('acknowledged');
        });
      });

      describe('list', () => {
        const a = resultOf('order-a', 'captured');
        const b = resultOf('order-b', 'captured');
        const c = resultOf('order-c', 'captured');
        const d = resultOf('order-d', 'captured');

        /** a: pending; b: failing (one failed delivery); c: delivered; d: pending. */
        async function recordFour(): Promise<void> {
          await store.results.record(a, at(0));
          await store.results.record(b, at(10));
          await store.results.record(c, at(20));
          await store.results.record(d, at(30));
          await store.results.recordFailure(b.idempotency_key, at(70), 'status 503');
          assert.equal(await store.results.acknowledge(c.idempotency_key, at(25)), true);
        }

        it('lists pending results (not acknowledged) by default, oldest first', async () => {
          await recordFour();
          assert.deepEqual(keys(await store.results.list({ limit: 10 })), [a, b, d].map((r) => r.idempotency_key));
          assert.deepEqual(keys(await store.results.list({ state: 'pending', limit: 10 })), [a, b, d].map((r) => r.idempotency_key));
        });

        it('lists failing results: not acknowledged, with at least one failed delivery', async () => {
          await recordFour();
          assert.deepEqual(await store.results.list({ state: 'failing', limit: 10 }), [
            { result: b, recorded_at: iso(10), attempts: 1, next_attempt_at: iso(70), last_error: 'status 503' },
          ]);
        });

        it('lists delivered results: acknowledged', async () => {
          await recordFour();
          assert.deepEqual(await store.results.list({ state: 'delivered', limit: 10 }), [
            { result: c, recorded_at: iso(20), attempts: 0, next_attempt_at: iso(20), acknowledged_at: iso(25) },
          ]);
        });

        it('lists all results', async () => {
          await recordFour();
          assert.deepEqual(keys(await store.results.list({ state: 'all', limit: 10 })), [a, b, c, d].map((r) => r.idempotency_key));
        });

        it('lists only results recorded at or after `since`', async () => {
          await recordFour();
          assert.deepEqual(keys(await store.results.list({ state: 'all', since: at(10), limit: 10 })), [b, c, d].map((r) => r.idempotency_key));
          assert.deepEqual(keys(await store.results.list({ state: 'pending', since: at(11), limit: 10 })), [d.idempotency_key]);
          assert.deepEqual(await store.results.list({ state: 'all', since: at(31), limit: 10 }), []);
        });

        it('lists at most `limit` results, the oldest', async () => {
          await recordFour();
          assert.deepEqual(keys(await store.results.list({ state: 'all', limit: 2 })), [a, b].map((r) => r.idempotency_key));
          assert.deepEqual(keys(await store.results.list({ state: 'pending', limit: 2 })), [a, b].map((r) => r.idempotency_key));
          assert.deepEqual(await store.results.list({ state: 'all', limit: 0 }), []);
        });
      });

      describe('claimDue', () => {
        it('takes due results oldest first and holds them until `until`', async () => {
          const a = resultOf('order-a', 'captured');
          const b = resultOf('order-b', 'authorized');
          await store.results.record(a, at(0));
          await store.results.record(b, at(1));
          assert.deepEqual(await store.results.claimDue(at(2), at(62), 10), [
            { result: a, recorded_at: iso(0), attempts: 0, next_attempt_at: iso(62) },
            { result: b, recorded_at: iso(1), attempts: 0, next_attempt_at: iso(62) },
          ]);
          assert.deepEqual(await store.results.claimDue(at(61), at(121), 10), [], 'held until `until`');
          assert.deepEqual(keys(await store.results.claimDue(at(62), at(122), 10)), [a.idempotency_key, b.idempotency_key]);
        });

        it('takes at most `limit`', async () => {
          for (const reference of ['order-a', 'order-b', 'order-c']) await store.results.record(resultOf(reference, 'captured'), at(0));
          assert.deepEqual(keys(await store.results.claimDue(at(1), at(60), 2)), ['order-a:1700000004:captured', 'order-b:1700000004:captured']);
          assert.deepEqual(keys(await store.results.claimDue(at(1), at(60), 2)), ['order-c:1700000004:captured']);
        });

        it('does not take a result before its next attempt, nor an acknowledged one', async () => {
          const later = resultOf('order-a', 'captured');
          const done = resultOf('order-b', 'captured');
          await store.results.record(later, at(0));
          await store.results.record(done, at(0));
          await store.results.recordFailure(later.idempotency_key, at(300), 'timeout');
          await store.results.acknowledge(done.idempotency_key, at(1));
          assert.deepEqual(await store.results.claimDue(at(299), at(400), 10), []);
          assert.deepEqual(keys(await store.results.claimDue(at(300), at(400), 10)), [later.idempotency_key]);
        });

        it("holds an order's later result while an earlier one is unacknowledged, without blocking other orders", async () => {
          const authorized = resultOf('order-1', 'authorized');
          const captured = resultOf('order-1', 'captured');
          const other = resultOf('order-2', 'captured');
          await store.results.record(authorized, at(0));
          await store.results.record(captured, at(1));
          await store.results.record(other, at(2));
          assert.deepEqual(keys(await store.results.claimDue(at(3), at(60), 10)), [authorized.idempotency_key, other.idempotency_key]);
          // The earlier one failed and is due again: still it goes first, the later one waits.
          await store.results.recordFailure(authorized.idempotency_key, at(100), 'status 500');
          await store.results.acknowledge(other.idempotency_key, at(10));
          assert.deepEqual(await store.results.claimDue(at(99), at(160), 10), []);
          assert.deepEqual(keys(await store.results.claimDue(at(100), at(160), 10)), [authorized.idempotency_key]);
          assert.equal(await store.results.acknowledge(authorized.idempotency_key, at(101)), true);
          assert.deepEqual(keys(await store.results.claimDue(at(102), at(160), 10)), [captured.idempotency_key]);
        });
      });

      describe('claim', () => {
        it('takes one due result and holds it until `until`', async () => {
          const result = resultOf('order-1', 'captured');
          await store.results.record(result, at(0));
          assert.deepEqual(await store.results.claim(result.idempotency_key, at(1), at(31)), {
            result,
            recorded_at: iso(0),
            attempts: 0,
            next_attempt_at: iso(31),
          });
          assert.equal(await store.results.claim(result.idempotency_key, at(30), at(60)), undefined, 'held');
          assert.deepEqual(await store.results.claimDue(at(30), at(60), 10), []);
          assert.equal((await store.results.claim(result.idempotency_key, at(31), at(61)))?.next_attempt_at, iso(61));
        });

        it('does not take an unknown, acknowledged or not yet due result, nor one behind an earlier result of its order', async () => {
          const first = resultOf('order-1', 'authorized');
          const second = resultOf('order-1', 'captured');
          const done = resultOf('order-2', 'captured');
          await store.results.record(first, at(0));
          await store.results.record(second, at(1));
          await store.results.record(done, at(2));
          await store.results.acknowledge(done.idempotency_key, at(3));
          assert.equal(await store.results.claim('order-9:none', at(5), at(60)), undefined);
          assert.equal(await store.results.claim(done.idempotency_key, at(5), at(60)), undefined);
          assert.equal(await store.results.claim(second.idempotency_key, at(5), at(60)), undefined);
          assert.equal(await store.results.claim(first.idempotency_key, at(-1), at(60)), undefined, 'recorded after now');
          assert.equal((await store.results.get(second.idempotency_key))?.next_attempt_at, iso(1), 'nothing held');
        });
      });

      describe('recordFailure', () => {
        it('counts a failed delivery, keeps its reason and makes the result due at the next attempt', async () => {
          const result = resultOf('order-1', 'captured');
          await store.results.record(result, at(0));
          await store.results.recordFailure(result.idempotency_key, at(60), 'timeout');
          await store.results.recordFailure(result.idempotency_key, at(180), 'status 503');
          assert.deepEqual(await store.results.get(result.idempotency_key), {
            result,
            recorded_at: iso(0),
            attempts: 2,
            next_attempt_at: iso(180),
            last_error: 'status 503',
          });
        });

        it('has no effect once the result is acknowledged, nor on an unknown key', async () => {
          const result = resultOf('order-1', 'captured');
          await store.results.record(result, at(0));
          await store.results.acknowledge(result.idempotency_key, at(5));
          await store.results.recordFailure(result.idempotency_key, at(60), 'timeout');
          await store.results.recordFailure('order-9:none', at(60), 'timeout');
          assert.deepEqual(await store.results.get(result.idempotency_key), {
            result,
            recorded_at: iso(0),
            attempts: 0,
            next_attempt_at: iso(0),
            acknowledged_at: iso(5),
          });
        });
      });

      describe('acknowledge', () => {
        it('acknowledges an unacknowledged result once: true, then false', async () => {
          const result = resultOf('order-1', 'captured');
          await store.results.record(result, at(0));
          await store.results.recordFailure(result.idempotency_key, at(60), 'network');
          assert.equal(await store.results.acknowledge(result.idempotency_key, at(61)), true);
          assert.equal(await store.results.acknowledge(result.idempotency_key, at(62)), false);
          assert.deepEqual(await store.results.get(result.idempotency_key), {
            result,
            recorded_at: iso(0),
            attempts: 1,
            next_attempt_at: iso(60),
            last_error: 'network',
            acknowledged_at: iso(61),
          });
        });

        it('answers false for a key it does not hold', async () => {
          assert.equal(await store.results.acknowledge('order-9:none', at(0)), false);
        });
      });

      describe('redeliver', () => {
        it('makes an acknowledged result pending and due again at `at`', async () => {
          const result = resultOf('order-1', 'captured');
          await store.results.record(result, at(0));
          await store.results.acknowledge(result.idempotency_key, at(5));
          assert.equal(await store.results.redeliver(result.idempotency_key, at(100)), true);
          assert.deepEqual(await store.results.get(result.idempotency_key), {
            result,
            recorded_at: iso(0),
            attempts: 0,
            next_attempt_at: iso(100),
          });
          assert.deepEqual(await store.results.claimDue(at(99), at(200), 10), []);
          assert.deepEqual(keys(await store.results.claimDue(at(100), at(200), 10)), [result.idempotency_key]);
          assert.equal(await store.results.acknowledge(result.idempotency_key, at(101)), true, 'acknowledged again');
        });

        it('moves the next attempt of an unacknowledged result, and answers false for an unknown key', async () => {
          const result = resultOf('order-1', 'captured');
          await store.results.record(result, at(0));
          await store.results.recordFailure(result.idempotency_key, at(600), 'timeout');
          assert.equal(await store.results.redeliver(result.idempotency_key, at(10)), true);
          assert.equal((await store.results.get(result.idempotency_key))?.next_attempt_at, iso(10));
          assert.equal(await store.results.redeliver('order-9:none', at(10)), false);
        });
      });

      describe('hastenRetries (the shop is back)', () => {
        it('makes due at `now` every failed result waiting past `beyond`, and counts them', async () => {
          const waiting = resultOf('order-1', 'captured');
          const longer = resultOf('order-2', 'captured');
          await store.results.record(waiting, at(0));
          await store.results.record(longer, at(1));
          await store.results.recordFailure(waiting.idempotency_key, at(120), 'status 503');
          await store.results.recordFailure(longer.idempotency_key, at(300), 'timeout');
          assert.equal(await store.results.hastenRetries(at(50), at(57)), 2);
          assert.deepEqual(await store.results.get(waiting.idempotency_key), {
            result: waiting,
            recorded_at: iso(0),
            attempts: 1,
            next_attempt_at: iso(50),
            last_error: 'status 503',
          });
          assert.deepEqual(keys(await store.results.claimDue(at(50), at(57), 10)), [waiting.idempotency_key, longer.idempotency_key]);
        });

        it('leaves a result a sender holds (its claim ends by `beyond`) and an acknowledged one', async () => {
          const held = resultOf('order-1', 'captured');
          const waiting = resultOf('order-2', 'captured');
          const done = resultOf('order-3', 'captured');
          for (const result of [held, waiting, done]) await store.results.record(result, at(0));
          await store.results.recordFailure(held.idempotency_key, at(10), 'status 503');
          await store.results.recordFailure(waiting.idempotency_key, at(400), 'status 503');
          await store.results.recordFailure(done.idempotency_key, at(600), 'status 503');
          await store.results.acknowledge(done.idempotency_key, at(20));
          // Another sender took the first again at 10 s, until 17 s, and is posting it now.
          assert.deepEqual(keys(await store.results.claimDue(at(10), at(17), 1)), [held.idempotency_key]);
          assert.equal(await store.results.hastenRetries(at(11), at(18)), 1);
          assert.equal((await store.results.get(held.idempotency_key))?.next_attempt_at, iso(17), 'the claim stands');
          assert.equal((await store.results.get(waiting.idempotency_key))?.next_attempt_at, iso(11));
          assert.equal((await store.results.get(done.idempotency_key))?.next_attempt_at, iso(600));
          assert.equal(await store.results.hastenRetries(at(12), at(19)), 0, 'nothing left to hasten');
        });

        it('never hastens a result that was never tried: it is due already, or claimed', async () => {
          const result = resultOf('order-1', 'captured');
          await store.results.record(result, at(0));
          assert.equal((await store.results.claim(result.idempotency_key, at(0), at(3600)))?.next_attempt_at, iso(3600));
          assert.equal(await store.results.hastenRetries(at(1), at(8)), 0);
          assert.equal((await store.results.get(result.idempotency_key))?.next_attempt_at, iso(3600));
        });
      });

      describe('latestFor', () => {
        it('answers undefined for an order with no result', async () => {
          await store.results.record(resultOf('order-2', 'captured'), at(0));
          assert.equal(await store.results.latestFor('order-1'), undefined);
        });

        it('keeps a capture when a failure is recorded after it', async () => {
          const captured = resultOf('order-1', 'captured');
          await store.results.record(resultOf('order-1', 'pending'), at(0));
          await store.results.record(captured, at(1));
          await store.results.record(resultOf('order-1', 'failed', { svc_id: '1700000005', idempotency_key: 'order-1:1700000005:failed' }), at(2));
          assert.deepEqual(await store.results.latestFor('order-1'), captured);
        });

        it('moves on to a refund recorded after the capture, acknowledged or not', async () => {
          const refunded = resultOf('order-1', 'refunded');
          await store.results.record(resultOf('order-1', 'captured'), at(0));
          await store.results.acknowledge('order-1:1700000004:captured', at(1));
          await store.results.record(refunded, at(2));
          await store.results.record(resultOf('order-2', 'authorized'), at(3));
          assert.deepEqual(await store.results.latestFor('order-1'), refunded);
        });

        it('counts an overruled result (an error) as failed', async () => {
          const authorized = resultOf('order-1', 'authorized');
          await store.results.record(authorized, at(0));
          await store.results.record(resultOf('order-1', 'captured', { error: 'amount_mismatch' }), at(1));
          assert.deepEqual(await store.results.latestFor('order-1'), authorized);
        });
      });

      describe('backlog', () => {
        it('counts what the shop has not acknowledged, the failing ones among them, and when the oldest was recorded', async () => {
          assert.deepEqual(await store.results.backlog(), { undelivered: 0, failing: 0 });
          await store.results.record(resultOf('order-1', 'captured'), at(10));
          await store.results.record(resultOf('order-2', 'captured'), at(20));
          await store.results.record(resultOf('order-3', 'authorized'), at(30));
          await store.results.recordFailure('order-2:1700000004:captured', at(80), 'status 503');
          await store.results.recordFailure('order-3:1700000004:authorized', at(90), 'timeout');
          await store.results.acknowledge('order-1:1700000004:captured', at(40));
          assert.deepEqual(await store.results.backlog(), { undelivered: 2, failing: 2, oldest_recorded_at: iso(20) });
          await store.results.acknowledge('order-2:1700000004:captured', at(100));
          assert.deepEqual(await store.results.backlog(), { undelivered: 1, failing: 1, oldest_recorded_at: iso(30) });
          await store.results.record(resultOf('order-4', 'captured'), at(110));
          assert.deepEqual(await store.results.backlog(), { undelivered: 2, failing: 1, oldest_recorded_at: iso(30) });
        });
      });
    });

    describe('watches', () => {
      it('starts a watch with no checks, due at once unless a first check is given', async () => {
        await store.watches.watch(watchOf('order-1'), at(0));
        await store.watches.watch(watchOf('order-2', { kind: 'authorization', last_state: 'authorized', next_check_at: iso(600) }), at(1));
        assert.deepEqual(await store.watches.get('order-1'), {
          ...watchOf('order-1'),
          next_check_at: iso(0),
          checks: 0,
          created_at: iso(0),
        });
        assert.deepEqual(await store.watches.get('order-2'), {
          ...watchOf('order-2', { kind: 'authorization', last_state: 'authorized' }),
          next_check_at: iso(600),
          checks: 0,
          created_at: iso(1),
        });
      });

      it('keeps a watch without its optional fields as such', async () => {
        const bare: NewWatch = { merchant_reference: 'order-1', kind: 'in_progress', language: 'en', last_state: 'pending', expires_at: iso(3600) };
        await store.watches.watch(bare, at(0));
        assert.deepEqual(await store.watches.get('order-1'), { ...bare, next_check_at: iso(0), checks: 0, created_at: iso(0) });
      });

      it('keeps what a kind needs besides the order (its detail), and drops it when a watch without one replaces it', async () => {
        const detail = { token_name: 'TK7f3a', response_code: '18000', response_message: 'Success', status: '18' };
        await store.watches.watch(watchOf('order-1', { kind: 'saved_card', last_state: 'unknown', detail }), at(0));
        assert.deepEqual((await store.watches.get('order-1'))?.detail, detail);
        const [claimed] = await store.watches.claimDue(at(0), at(60), 10);
        assert.deepEqual(claimed?.detail, detail);
        await store.watches.watch(watchOf('order-1'), at(1));
        assert.equal((await store.watches.get('order-1'))?.detail, undefined);
      });

      it("replaces the order's watch with a newer one: its schedule, checks and error start again", async () => {
        await store.watches.watch(watchOf('order-1'), at(0));
        await store.watches.update('order-1', { next_check_at: iso(300), checked: 3, last_error: 'timeout' });
        await store.watches.end('order-1', at(400), 'expired');
        await store.watches.watch(watchOf('order-1', { kind: 'money_call', last_state: 'captured' }), at(500));
        assert.deepEqual(await store.watches.get('order-1'), {
          ...watchOf('order-1', { kind: 'money_call', last_state: 'captured' }),
          next_check_at: iso(500),
          checks: 0,
          created_at: iso(500),
        });
      });

      it('never replaces an open bill or authorization watch with a shorter kind; another of those, or any once it ended, replaces it', async () => {
        const kept = { bill: { bill_number: '12345678901234' } };
        await store.watches.watch(watchOf('order-1', { detail: kept }), at(0));
        await store.watches.watch(watchOf('order-2', { kind: 'authorization', last_state: 'authorized' }), at(0));
        for (const kind of ['in_progress', 'money_call', 'saved_card'] as const) {
          await store.watches.watch(watchOf('order-1', { kind, last_state: 'unknown', expires_at: iso(DAY) }), at(1));
          await store.watches.watch(watchOf('order-2', { kind, last_state: 'unknown', expires_at: iso(DAY) }), at(1));
        }
        assert.deepEqual(await store.watches.get('order-1'), { ...watchOf('order-1', { detail: kept }), next_check_at: iso(0), checks: 0, created_at: iso(0) });
        assert.deepEqual(await store.watches.get('order-2'), {
          ...watchOf('order-2', { kind: 'authorization', last_state: 'authorized' }),
          next_check_at: iso(0),
          checks: 0,
          created_at: iso(0),
        });

        await store.watches.watch(watchOf('order-1', { kind: 'authorization', last_state: 'authorized' }), at(2));
        await store.watches.watch(watchOf('order-2', { last_state: 'pending' }), at(2));
        assert.deepEqual((await store.watches.list({ limit: 10 })).map((row) => [row.merchant_reference, row.kind, row.created_at]), [
          ['order-1', 'authorization', iso(2)],
          ['order-2', 'bill', iso(2)],
        ]);
        await store.watches.end('order-2', at(3), 'failed');
        await store.watches.watch(watchOf('order-2', { kind: 'in_progress', last_state: 'unknown' }), at(4));
        assert.equal((await store.watches.get('order-2'))?.kind, 'in_progress');
      });

      it('answers undefined for an order it does not watch', async () => {
        assert.equal(await store.watches.get('order-9'), undefined);
      });

      describe('watchIfUnchanged', () => {
        it('writes while the order has no watch and none was read', async () => {
          assert.deepEqual(await store.watches.watchIfUnchanged(watchOf('order-1'), at(0), undefined), { created_at: iso(0) });
          assert.equal((await store.watches.get('order-1'))?.created_at, iso(0));
        });

        it("replaces the watch read, and answers nothing, writing nothing, once another request's has replaced it", async () => {
          await store.watches.watch(watchOf('order-1'), at(0));
          const read = await store.watches.get('order-1');
          // Another request's watch, with what it kept, lands after this request read the order's.
          const kept = { bill: { bill_number: '12345678901234' } };
          await store.watches.watch(watchOf('order-1', { detail: kept }), at(5));
          assert.equal(await store.watches.watchIfUnchanged(watchOf('order-1'), at(9), read), undefined);
          assert.deepEqual((await store.watches.get('order-1'))?.detail, kept, 'the other request keeps what it wrote');
          const now = await store.watches.get('order-1');
          assert.deepEqual(await store.watches.watchIfUnchanged(watchOf('order-1', { last_state: 'captured' }), at(12), now), {
            created_at: iso(12),
          });
          assert.deepEqual(await store.watches.get('order-1'), {
            ...watchOf('order-1', { last_state: 'captured' }),
            next_check_at: iso(12),
            checks: 0,
            created_at: iso(12),
          });
        });

        it('does not write over a watch that appeared after none was read', async () => {
          await store.watches.watch(watchOf('order-1', { last_state: 'captured' }), at(3));
          assert.equal(await store.watches.watchIfUnchanged(watchOf('order-1'), at(4), undefined), undefined);
          assert.equal((await store.watches.get('order-1'))?.last_state, 'captured');
        });

        it('writes when the watch read is gone (pruned since)', async () => {
          await store.watches.watch(watchOf('order-1'), at(0));
          const read = await store.watches.get('order-1');
          await store.watches.end('order-1', at(1), 'paid');
          await store.prune({ acknowledgedBefore: at(2), endedBefore: at(2), ordersBefore: at(2), now: at(2) });
          assert.equal(await store.watches.get('order-1'), undefined);
          assert.deepEqual(await store.watches.watchIfUnchanged(watchOf('order-1'), at(3), read), { created_at: iso(3) });
          assert.equal((await store.watches.get('order-1'))?.created_at, iso(3));
        });

        it("counts the reconciler's questions and an end as the same watch", async () => {
          await store.watches.watch(watchOf('order-1'), at(0));
          const read = await store.watches.get('order-1');
          await store.watches.claimDue(at(0), at(60), 10);
          await store.watches.update('order-1', { next_check_at: iso(120), checked: 1 });
          await store.watches.end('order-1', at(130), 'expired');
          assert.deepEqual(await store.watches.watchIfUnchanged(watchOf('order-1'), at(200), read), { created_at: iso(200) });
          assert.equal((await store.watches.get('order-1'))?.ended_at, undefined);
        });

        it('tells two writes within one millisecond apart, so the first cannot end or replace the second', async () => {
          const first = await store.watches.watchIfUnchanged(watchOf('order-1'), at(7), undefined);
          // A second request (on another instance, say) reads the first's watch and replaces it in the same millisecond.
          const second = await store.watches.watchIfUnchanged(watchOf('order-1', { last_state: 'captured' }), at(7), first);
          assert.ok(first && second);
          assert.notDeepEqual(second, first);
          assert.equal(await store.watches.watchIfUnchanged(watchOf('order-1'), at(7), first), undefined);
          await store.watches.end('order-1', at(8), 'not_sent', first);
          const kept = await store.watches.get('order-1');
          assert.equal(kept?.ended_at, undefined, "the first request's take-back leaves the second's watch");
          assert.equal(kept?.last_state, 'captured');
          await store.watches.end('order-1', at(8), 'not_sent', second);
          assert.equal((await store.watches.get('order-1'))?.end_reason, 'not_sent');
        });

        it('writes after the replaced watch even from a clock that is behind', async () => {
          await store.watches.watch(watchOf('order-1'), at(50));
          const read = await store.watches.get('order-1');
          const written = await store.watches.watchIfUnchanged(watchOf('order-1'), at(40), read);
          const oneMsAfter = (time: string): string => new Date(Date.parse(time) + 1).toISOString();
          assert.deepEqual(written, { created_at: oneMsAfter(iso(50)) });
          await store.watches.watch(watchOf('order-1'), at(10));
          assert.equal((await store.watches.get('order-1'))?.created_at, oneMsAfter(oneMsAfter(iso(50))));
        });
      });

      describe('claimDue', () => {
        it('takes active due watches by next check, as they were, and holds them until `until`', async () => {
          await store.watches.watch(watchOf('order-a', { next_check_at: iso(3) }), at(0));
          await store.watches.watch(watchOf('order-b', { next_check_at: iso(1) }), at(1));
          await store.watches.watch(watchOf('order-c', { next_check_at: iso(2) }), at(2));
          await store.watches.watch(watchOf('order-later', { next_check_at: iso(100) }), at(3));
          const before = await store.watches.get('order-b');
          const claimed = await store.watches.claimDue(at(10), at(70), 10);
          assert.deepEqual(references(claimed), ['order-b', 'order-c', 'order-a']);
          assert.deepEqual(claimed[0], before);
          assert.equal((await store.watches.get('order-b'))?.next_check_at, iso(70));
          assert.deepEqual(await store.watches.claimDue(at(69), at(130), 10), [], 'held until `until`');
          assert.deepEqual(references(await store.watches.claimDue(at(70), at(130), 10)), ['order-a', 'order-b', 'order-c']);
          assert.deepEqual(references(await store.watches.claimDue(at(100), at(160), 10)), ['order-later']);
        });

        it('takes at most `limit`, the earliest due', async () => {
          await store.watches.watch(watchOf('order-a', { next_check_at: iso(2) }), at(0));
          await store.watches.watch(watchOf('order-b', { next_check_at: iso(1) }), at(0));
          await store.watches.watch(watchOf('order-c', { next_check_at: iso(3) }), at(0));
          assert.deepEqual(references(await store.watches.claimDue(at(5), at(60), 2)), ['order-b', 'order-a']);
        });

        it('does not take an ended watch', async () => {
          await store.watches.watch(watchOf('order-1'), at(0));
          await store.watches.end('order-1', at(1), 'paid');
          assert.deepEqual(await store.watches.claimDue(at(10), at(70), 10), []);
        });
      });

      describe('update', () => {
        it('records a question asked: the state, the payment id, the next check, the checks added and the error', async () => {
          const { svc_id: _noPaymentYet, ...unpaid } = watchOf('order-1');
          await store.watches.watch(unpaid, at(0));
          await store.watches.update('order-1', {
            last_state: 'captured',
            svc_id: '1700000010',
            next_check_at: iso(60),
            checked: 1,
            last_error: 'timeout',
          });
          await store.watches.update('order-1', { next_check_at: iso(120), checked: 2 });
          assert.deepEqual(await store.watches.get('order-1'), {
            ...watchOf('order-1', { svc_id: '1700000010', last_state: 'captured' }),
            next_check_at: iso(120),
            checks: 3,
            last_error: 'timeout',
            created_at: iso(0),
          });
        });

        it('clears the error with last_error: null', async () => {
          await store.watches.watch(watchOf('order-1'), at(0));
          await store.watches.update('order-1', { next_check_at: iso(60), checked: 1, last_error: 'network' });
          await store.watches.update('order-1', { next_check_at: iso(120), checked: 1, last_error: null });
          const watch = await store.watches.get('order-1');
          assert.equal(watch && 'last_error' in watch, false);
          assert.equal(watch?.checks, 2);
        });

        it('has no effect on an ended watch, nor on an order not watched', async () => {
          await store.watches.watch(watchOf('order-1'), at(0));
          await store.watches.end('order-1', at(5), 'paid');
          const ended = await store.watches.get('order-1');
          await store.watches.update('order-1', { last_state: 'captured', next_check_at: iso(60), checked: 1, last_error: 'timeout' });
          await store.watches.update('order-9', { next_check_at: iso(60), checked: 1 });
          assert.deepEqual(await store.watches.get('order-1'), ended);
          assert.equal(await store.watches.get('order-9'), undefined);
        });
      });

      describe('deferAll', () => {
        it('moves every active watch due before `until` to `until`, and leaves later and ended ones alone', async () => {
          await store.watches.watch(watchOf('order-now', { next_check_at: iso(0) }), at(0));
          await store.watches.watch(watchOf('order-soon', { next_check_at: iso(30) }), at(0));
          await store.watches.watch(watchOf('order-later', { next_check_at: iso(900) }), at(0));
          await store.watches.watch(watchOf('order-ended', { next_check_at: iso(0) }), at(0));
          await store.watches.end('order-ended', at(1), 'paid');
          assert.equal(await store.watches.deferAll(at(600)), 2);
          assert.equal((await store.watches.get('order-now'))?.next_check_at, iso(600));
          assert.equal((await store.watches.get('order-soon'))?.next_check_at, iso(600));
          assert.equal((await store.watches.get('order-later'))?.next_check_at, iso(900));
          assert.equal((await store.watches.get('order-ended'))?.next_check_at, iso(0));
          assert.deepEqual(await store.watches.claimDue(at(599), at(700), 10), [], 'nothing is due before `until`');
          assert.deepEqual(references(await store.watches.claimDue(at(600), at(700), 10)), ['order-now', 'order-soon']);
        });
      });

      describe('end', () => {
        it('ends the watch with its reason, once', async () => {
          await store.watches.watch(watchOf('order-1'), at(0));
          await store.watches.end('order-1', at(5), 'paid');
          await store.watches.end('order-1', at(9), 'expired');
          assert.deepEqual(await store.watches.get('order-1'), {
            ...watchOf('order-1'),
            next_check_at: iso(0),
            checks: 0,
            created_at: iso(0),
            ended_at: iso(5),
            end_reason: 'paid',
          });
          await store.watches.end('order-9', at(5), 'paid');
          assert.equal(await store.watches.get('order-9'), undefined);
        });

        it('with `only`, ends the watch only while it is that write, not a newer one', async () => {
          await store.watches.watch(watchOf('order-1'), at(0));
          const mine = await store.watches.get('order-1');
          await store.watches.watch(watchOf('order-1', { last_state: 'captured' }), at(5));
          await store.watches.end('order-1', at(6), 'not_sent', mine);
          assert.equal((await store.watches.get('order-1'))?.ended_at, undefined, "another request's watch stays open");
          const theirs = await store.watches.get('order-1');
          await store.watches.end('order-1', at(7), 'not_sent', theirs);
          assert.equal((await store.watches.get('order-1'))?.end_reason, 'not_sent');
        });
      });

      describe('list', () => {
        it('lists watches oldest first: the active ones, or all, at most `limit`', async () => {
          await store.watches.watch(watchOf('order-b'), at(1));
          await store.watches.watch(watchOf('order-a'), at(2));
          await store.watches.watch(watchOf('order-c'), at(3));
          await store.watches.end('order-a', at(4), 'paid');
          assert.deepEqual(references(await store.watches.list({ limit: 10 })), ['order-b', 'order-a', 'order-c']);
          assert.deepEqual(references(await store.watches.list({ active: true, limit: 10 })), ['order-b', 'order-c']);
          assert.deepEqual(references(await store.watches.list({ active: false, limit: 2 })), ['order-b', 'order-a']);
          assert.deepEqual(references(await store.watches.list({ active: true, limit: 1 })), ['order-b']);
          assert.deepEqual((await store.watches.list({ limit: 10 }))[1], await store.watches.get('order-a'));
        });
      });

      describe('countActive', () => {
        it('counts the active watches, not the ended ones', async () => {
          assert.equal(await store.watches.countActive(), 0);
          await store.watches.watch(watchOf('order-a'), at(1));
          await store.watches.watch(watchOf('order-b'), at(2));
          await store.watches.watch(watchOf('order-c'), at(3));
          await store.watches.end('order-b', at(4), 'paid');
          assert.equal(await store.watches.countActive(), 2);
        });
      });
    });

    describe('orders', () => {
      const order = { merchant_reference: 'order-1', amount: '1250.00', currency: 'EGP', items: [{ name: 'كتاب', qty: 1 }] };

      it('recalls the order remembered at or after `notBefore`', async () => {
        await store.orders.remember('order-1', order, at(100));
        assert.deepEqual(await store.orders.recall('order-1', at(100)), order);
        assert.deepEqual(await store.orders.recall('order-1', at(0)), order);
      });

      it('does not recall an order remembered before `notBefore`, nor one never remembered', async () => {
        await store.orders.remember('order-1', order, at(100));
        assert.equal(await store.orders.recall('order-1', at(101)), undefined);
        assert.equal(await store.orders.recall('order-2', at(0)), undefined);
      });

      it('keeps the order as the shop last answered it', async () => {
        await store.orders.remember('order-1', order, at(100));
        await store.orders.remember('order-1', { ...order, amount: '99.00' }, at(200));
        assert.deepEqual(await store.orders.recall('order-1', at(150)), { ...order, amount: '99.00' });
      });
    });

    describe('limits', () => {
      it('allows up to the limit within a window, then refuses with the seconds until it ends', async () => {
        for (const second of [0, 1, 2]) {
          assert.deepEqual(await store.limits.hit('sms:201000000000', 3, 60, at(second)), { allowed: true, retryAfterSeconds: 0 });
        }
        assert.deepEqual(await store.limits.hit('sms:201000000000', 3, 60, at(10)), { allowed: false, retryAfterSeconds: 50 });
        assert.deepEqual(await store.limits.hit('sms:201000000000', 3, 60, at(59.5)), { allowed: false, retryAfterSeconds: 1 });
        assert.deepEqual(await store.limits.hit('sms:201000000000', 3, 60, at(59.999)), { allowed: false, retryAfterSeconds: 1 });
      });

      it('starts a new window when the old one ends, refused hits not counted', async () => {
        await store.limits.hit('sms:1', 2, 60, at(0));
        await store.limits.hit('sms:1', 2, 60, at(30));
        assert.equal((await store.limits.hit('sms:1', 2, 60, at(45))).allowed, false);
        assert.equal((await store.limits.hit('sms:1', 2, 60, at(60))).allowed, true);
        assert.equal((await store.limits.hit('sms:1', 2, 60, at(61))).allowed, true);
        assert.deepEqual(await store.limits.hit('sms:1', 2, 60, at(62)), { allowed: false, retryAfterSeconds: 58 });
      });

      it('counts each key apart', async () => {
        assert.equal((await store.limits.hit('sms:1', 1, 60, at(0))).allowed, true);
        assert.equal((await store.limits.hit('sms:2', 1, 60, at(0))).allowed, true);
        assert.equal((await store.limits.hit('sms:1', 1, 60, at(1))).allowed, false);
      });

      it('refuses everything under a limit of 0, for the whole window', async () => {
        assert.deepEqual(await store.limits.hit('sms:1', 0, 60, at(0)), { allowed: false, retryAfterSeconds: 60 });
        assert.deepEqual(await store.limits.hit('sms:1', 0, 60, at(20)), { allowed: false, retryAfterSeconds: 40 });
      });
    });

    describe('prune', () => {
      it('removes only what is done and old: acknowledged results, ended watches, old orders, ended windows', async () => {
        const now = 30 * DAY;
        const oldDone = resultOf('order-1', 'captured');
        const oldPending = resultOf('order-2', 'captured');
        const newDone = resultOf('order-3', 'captured');
        await store.results.record(oldDone, at(0));
        await store.results.record(oldPending, at(1));
        await store.results.record(newDone, at(now - DAY));
        await store.results.acknowledge(oldDone.idempotency_key, at(2));
        await store.results.acknowledge(newDone.idempotency_key, at(now - DAY));

        await store.watches.watch(watchOf('watch-old-ended'), at(0));
        await store.watches.end('watch-old-ended', at(DAY), 'paid');
        await store.watches.watch(watchOf('watch-new-ended'), at(1));
        await store.watches.end('watch-new-ended', at(now - 60), 'paid');
        await store.watches.watch(watchOf('watch-old-active'), at(2));

        await store.orders.remember('order-old', { a: 1 }, at(0));
        await store.orders.remember('order-new', { b: 2 }, at(now - 60));

        await store.limits.hit('sms:ended', 1, 60, at(now - 60));
        await store.limits.hit('sms:open', 1, 60, at(now - 30));

        const counts = await store.prune({
          acknowledgedBefore: at(now - 7 * DAY),
          endedBefore: at(now - 7 * DAY),
          ordersBefore: at(now - 7 * DAY),
          now: at(now),
        });
        assert.deepEqual(counts, { results: 1, watches: 1, orders: 1, limits: 1 });
        assert.equal(await store.results.get(oldDone.idempotency_key), undefined);
        assert.notEqual(await store.results.get(oldPending.idempotency_key), undefined);
        assert.notEqual(await store.results.get(newDone.idempotency_key), undefined);
        assert.deepEqual(references(await store.watches.list({ limit: 10 })), ['watch-new-ended', 'watch-old-active']);
        assert.equal(await store.orders.recall('order-old', at(0)), undefined);
        assert.deepEqual(await store.orders.recall('order-new', at(0)), { b: 2 });
        assert.equal((await store.limits.hit('sms:open', 1, 60, at(now))).allowed, false, 'an open window is kept');
      });

      it('keeps an order\'s acknowledged results while the order is still watched (the reconciler reads them to tell what the shop heard)', async () => {
        const now = 30 * DAY;
        const billWaiting = resultOf('order-bill', 'pending');
        const ended = resultOf('order-done', 'captured');
        for (const result of [billWaiting, ended]) {
          await store.results.record(result, at(0));
          await store.results.acknowledge(result.idempotency_key, at(1));
        }
        await store.watches.watch(watchOf('order-bill'), at(2));
        await store.watches.watch(watchOf('order-done'), at(2));
        await store.watches.end('order-done', at(now - 60), 'paid');

        const counts = await store.prune({ acknowledgedBefore: at(now - 7 * DAY), endedBefore: at(now - 7 * DAY), ordersBefore: at(now - 7 * DAY), now: at(now) });

        assert.equal(counts.results, 1);
        assert.notEqual(await store.results.get(billWaiting.idempotency_key), undefined, 'kept while its order is watched');
        assert.equal(await store.results.get(ended.idempotency_key), undefined, 'pruned once its watch ended');
      });

      it('counts nothing in an empty store', async () => {
        assert.deepEqual(await store.prune({ acknowledgedBefore: at(0), endedBefore: at(0), ordersBefore: at(0), now: at(0) }), {
          results: 0,
          watches: 0,
          orders: 0,
          limits: 0,
        });
      });
    });

    it('answers ping', async () => {
      await store.ping();
    });

    it('may be closed twice', async () => {
      await store.close();
      await store.close();
    });

    it('keeps results and their delivery state across a restart, where the engine keeps data', async (t) => {
      if (opened.reopen === undefined) {
        t.skip(`the ${name} store keeps nothing across a restart`);
        return;
      }
      const delivered = resultOf('order-1', 'captured');
      const failing = resultOf('order-2', 'captured');
      await store.results.record(delivered, at(0));
      await store.results.record(failing, at(1));
      await store.results.acknowledge(delivered.idempotency_key, at(2));
      await store.results.recordFailure(failing.idempotency_key, at(60), 'status 502');
      await store.watches.watch(watchOf('order-3'), at(3));
      const before = await store.results.list({ state: 'all', limit: 10 });
      await store.close();
      const reopened = await opened.reopen();
      assert.deepEqual(await reopened.results.list({ state: 'all', limit: 10 }), before);
      assert.equal((await reopened.results.record(delivered, at(9))).first, false);
      assert.equal((await reopened.watches.get('order-3'))?.created_at, iso(3));
      await reopened.close();
    });
  });
}
