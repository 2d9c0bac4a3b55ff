import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AmountError } from '../../src/core/amounts.ts';
import {
  earlierPaidStates,
  canMoveOrderState,
  isPaidState,
  orderStateOfAnswer,
  orderStatusOf,
  paymentOutcomeOf,
  resultKeyOf,
  summarizeOrder,
  type OrderState,
} from '../../src/core/order-status.ts';

/** A verified CHECK_STATUS answer (12000) whose last operation is `code`. */
function status(code: string, amounts: { authorized?: string; captured?: string; refunded?: string } = {}, transactionStatus?: string) {
  return {
    response_code: '12000',
    status: '12',
    svc_id: '1700000001',
    transaction_code: code,
    transaction_status: transactionStatus ?? (code === '20064' ? '04' : code.slice(0, 2)),
    ...(amounts.authorized === undefined ? {} : { authorized_amount: amounts.authorized }),
    ...(amounts.captured === undefined ? {} : { captured_amount: amounts.captured }),
    ...(amounts.refunded === undefined ? {} : { refunded_amount: amounts.refunded }),
  };
}

describe('orderStatusOf, the order a verified CHECK_STATUS answer describes', () => {
  it('reads a purchase as captured, with its amounts in minor units', () => {
    assert.deepEqual(orderStatusOf(status('14000', { authorized: '250000', captured: '250000', refunded: '0' })), {
      state: 'captured',
      authorized_amount: 250_000,
      captured_amount: 250_000,
      refunded_amount: 0,
      svc_id: '1700000001',
      transaction_code: '14000',
      transaction_status: '14',
    });
  });

  it('reads an authorization as authorized', () => {
    assert.equal(orderStatusOf(status('02000', { authorized: '250000', captured: '0', refunded: '0' })).state, 'authorized');
  });

  it('reads a successful void (08000, a success code) as voided, never paid', () => {
    const voided = orderStatusOf(status('08000', { authorized: '250000', captured: '0', refunded: '0' }));
    assert.equal(voided.state, 'voided');
    assert.equal(paymentOutcomeOf(voided.state), 'failure');
    assert.equal(isPaidState(voided.state), false);
  });

  it('tells a partial refund from a full one by the amounts (both answer 20064)', () => {
    assert.equal(orderStatusOf(status('20064', { authorized: '250000', captured: '250000', refunded: '100000' })).state, 'partially_refunded');
    assert.equal(orderStatusOf(status('20064', { authorized: '250000', captured: '250000', refunded: '250000' })).state, 'refunded');
  });

  it('reads a live account’s capture (04000) and refund (06000) as the spec’s 20064', () => {
    assert.equal(orderStatusOf(status('04000', { authorized: '250000', captured: '100000', refunded: '0' })).state, 'captured');
    assert.equal(orderStatusOf(status('06000', { authorized: '250000', captured: '250000', refunded: '100000' })).state, 'partially_refunded');
    assert.equal(orderStatusOf(status('06000', { authorized: '250000', captured: '250000', refunded: '250000' })).state, 'refunded');
    assert.equal(orderStateOfAnswer({ response_code: '04000', status: '04' }), 'captured');
    assert.equal(orderStateOfAnswer({ response_code: '06000', status: '06' }), 'captured', 'a refund answer says a payment exists');
  });

  it('keeps a captured order captured when the last operation is a refused refund', () => {
    assert.equal(orderStatusOf(status('06001', { authorized: '250000', captured: '250000', refunded: '0' })).state, 'captured');
  });

  it('reads an issued bill, a 3-D Secure check and a pending transaction as pending', () => {
    for (const code of ['30000', '20000', '19000']) {
      assert.equal(orderStatusOf(status(code, { authorized: '0', captured: '0', refunded: '0' })).state, 'pending', code);
    }
  });

  it('reads a declined attempt and an expired bill as failed', () => {
    for (const code of ['13001', '03002', '13004', '31001']) {
      assert.equal(orderStatusOf(status(code, { authorized: '0', captured: '0', refunded: '0' })).state, 'failed', code);
    }
  });

  it('falls back on the last operation when the answer carries no amounts', () => {
    assert.equal(orderStatusOf(status('14000')).state, 'captured');
    assert.equal(orderStatusOf(status('02000')).state, 'authorized');
  });

  it('reads "order not found" (12001) as not_found', () => {
    assert.equal(orderStatusOf({ response_code: '12001', status: '12' }).state, 'not_found');
    assert.equal(orderStatusOf({ response_code: '12036', status: '12' }).state, 'not_found', "a live account's code");
  });

  it('says unknown when the query itself failed or the last code is not one it knows', () => {
    assert.equal(orderStatusOf({ response_code: '00006', status: '00' }).state, 'unknown');
    assert.equal(orderStatusOf(status('77777', { authorized: '0', captured: '0', refunded: '0' })).state, 'unknown');
  });

  it('refuses an amount that is not digits, naming the field', () => {
    assert.throws(
      () => orderStatusOf(status('14000', { authorized: '2500.00', captured: '250000', refunded: '0' })),
      (error: unknown) => error instanceof AmountError && error.field === 'authorized_amount',
    );
  });
});

describe('orderStateOfAnswer, the state an operation answer leaves', () => {
  it('reads PURCHASE, AUTHORIZATION, 3-D Secure and a decline', () => {
    assert.equal(orderStateOfAnswer({ response_code: '14000', status: '14' }), 'captured');
    assert.equal(orderStateOfAnswer({ response_code: '02000', status: '02' }), 'authorized');
    assert.equal(orderStateOfAnswer({ response_code: '20000', status: '20' }), 'pending');
    assert.equal(orderStateOfAnswer({ response_code: '13001', status: '13' }), 'failed');
  });

  it('never reads a tokenization or a status disagreeing with its code as paid, nor the latter as failed', () => {
    assert.equal(orderStateOfAnswer({ response_code: '18000', status: '18' }), 'unknown');
    // Malformed: it proves nothing, so a reference under it is not taken as free to use again.
    assert.equal(orderStateOfAnswer({ response_code: '14000', status: '13' }), 'unknown');
    assert.equal(orderStateOfAnswer({ response_code: '13001', status: '14' }), 'unknown');
  });

  it("reads a live account's 20064 under status 20 (held for 3-D Secure) as pending, under 04 as captured", () => {
    assert.equal(orderStateOfAnswer({ response_code: '20064', status: '20' }), 'pending');
    assert.equal(orderStateOfAnswer({ response_code: '20064', status: '04' }), 'captured');
  });
});

describe('canMoveOrderState', () => {
  const states: OrderState[] = ['authorized', 'captured', 'partially_refunded', 'refunded', 'voided', 'failed', 'pending', 'not_found', 'unknown'];

  it('lets the lifecycle move forward', () => {
    for (const [from, to] of [
      ['authorized', 'captured'],
      ['authorized', 'voided'],
      ['captured', 'partially_refunded'],
      ['captured', 'refunded'],
      ['partially_refunded', 'refunded'],
      ['failed', 'captured'],
      ['pending', 'failed'],
      ['failed', 'pending'],
    ] as const) {
      assert.ok(canMoveOrderState(from, to), `${from} → ${to}`);
    }
  });

  it('never moves a paid order back to failed, pending, not found or unknown', () => {
    for (const from of ['authorized', 'captured', 'partially_refunded', 'refunded', 'voided'] as const) {
      for (const to of ['failed', 'pending', 'not_found', 'unknown'] as const) {
        assert.equal(canMoveOrderState(from, to), false, `${from} → ${to}`);
      }
    }
  });

  it('never moves backwards within the lifecycle', () => {
    assert.equal(canMoveOrderState('captured', 'authorized'), false);
    assert.equal(canMoveOrderState('refunded', 'captured'), false);
    assert.equal(canMoveOrderState('captured', 'voided'), false);
    // A void is not undone by an authorization that may be the voided payment's own, read before
    // its void (a capture after a void is another payment's: test/core/order-status-attempts.test.ts).
    assert.equal(canMoveOrderState('voided', 'authorized'), false);
  });

  it('keeps a state where it is', () => {
    for (const state of states) assert.ok(canMoveOrderState(state, state), state);
  });
});

describe('earlierPaidStates', () => {
  it('names the paid states a payment passes through before a capture or a refund, first held first', () => {
    assert.deepEqual(earlierPaidStates('captured'), ['authorized']);
    assert.deepEqual(earlierPaidStates('partially_refunded'), ['authorized', 'captured']);
    assert.deepEqual(earlierPaidStates('refunded'), ['authorized', 'captured', 'partially_refunded']);
    assert.deepEqual(earlierPaidStates('authorized'), []);
    assert.deepEqual(earlierPaidStates('pending'), []);
  });
});

describe('resultKeyOf', () => {
  it('keys a result by the order, the payment and the state it reached', () => {
    assert.equal(resultKeyOf({ merchant_reference: 'order-1', svc_id: '17', state: 'captured', response_code: '14000' }), 'order-1:17:captured');
    assert.notEqual(
      resultKeyOf({ merchant_reference: 'order-1', svc_id: '17', state: 'authorized', response_code: '02000' }),
      resultKeyOf({ merchant_reference: 'order-1', svc_id: '17', state: 'captured', response_code: '20064' }),
    );
  });

  it('never gives two orders the same key, even for one payment id', () => {
    assert.notEqual(
      resultKeyOf({ merchant_reference: 'order-1', svc_id: '17', state: 'captured', response_code: '14000' }),
      resultKeyOf({ merchant_reference: 'order-2', svc_id: '17', state: 'captured', response_code: '14000' }),
    );
  });

  it('keys an answer without a payment id by the reference and its response code', () => {
    assert.equal(resultKeyOf({ merchant_reference: 'order-1', state: 'not_found', response_code: '00008' }), 'order-1:00008');
  });
});

describe('summarizeOrder, how a back office words an order', () => {
  it('says an order captured in part is partly captured, with what is left to capture', () => {
    const summary = summarizeOrder(orderStatusOf(status('20064', { authorized: '1284800', captured: '500000', refunded: '0' })));
    assert.equal(summary.standing, 'partially_captured');
    assert.equal(summary.capturable, 784_800);
    assert.equal(summary.refundable, 500_000);
    assert.equal(summary.voidable, false);
    assert.equal(summary.uncapturable, undefined);
  });

  it('says an order captured in full, or bought in one step, is captured with nothing left', () => {
    for (const answer of [status('20064', { authorized: '250000', captured: '250000', refunded: '0' }), status('14000', { authorized: '250000', captured: '250000', refunded: '0' })]) {
      const summary = summarizeOrder(orderStatusOf(answer));
      assert.equal(summary.standing, 'captured');
      assert.equal(summary.capturable, 0);
    }
  });

  it('says why the uncaptured rest of a refunded order can no longer be captured or voided', () => {
    const summary = summarizeOrder(orderStatusOf(status('20064', { authorized: '1284800', captured: '500000', refunded: '100050' })));
    assert.equal(summary.standing, 'partially_refunded');
    assert.equal(summary.capturable, 0);
    assert.equal(summary.voidable, false);
    assert.deepEqual(summary.uncapturable, { amount: 784_800, reason: 'refunded' });
  });

  it('lets an authorization with nothing captured be captured or voided', () => {
    const summary = summarizeOrder(orderStatusOf(status('02000', { authorized: '250000', captured: '0', refunded: '0' })));
    assert.equal(summary.standing, 'authorized');
    assert.equal(summary.capturable, 250_000);
    assert.equal(summary.voidable, true);
  });
});
