/**
 * An order's results across its payments: after a void, a new attempt (another merchant_reference
 * at the gateway, `<order>.pg2`, or another payment id) moves the order on, while the same payment
 * never moves back from paid and a replay never downgrades the order.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canMoveOrderState, type OrderState } from '../../src/core/order-status.ts';
import { canMoveOrderPayment, isAnotherPayment, type PaymentResultState } from '../../src/core/payment-attempts.ts';

const ORDER = 'order-1001';
const STATES: readonly OrderState[] = ['authorized', 'captured', 'partially_refunded', 'refunded', 'voided', 'failed', 'pending', 'not_found', 'unknown'];
const PAID: readonly OrderState[] = ['authorized', 'captured', 'partially_refunded', 'refunded'];

/** The first attempt's payment (the order's own reference). */
const first = (state: OrderState): PaymentResultState => ({ merchant_reference: ORDER, svc_id: '1700000001', state });
/** The second attempt's payment, reported under the order's reference with its own. */
const second = (state: OrderState): PaymentResultState => ({ merchant_reference: ORDER, payment_reference: `${ORDER}.pg2`, svc_id: '1700000002', state });

describe('canMoveOrderState after a void', () => {
  it('follows a capture or a refund, which a voided authorization never has: another payment of the order', () => {
    for (const to of ['captured', 'partially_refunded', 'refunded'] as const) assert.ok(canMoveOrderState('voided', to), `voided → ${to}`);
  });

  it('keeps the void against an authorization, a pending or failed payment not known to be another payment’s', () => {
    for (const to of ['authorized', 'pending', 'failed', 'not_found', 'unknown'] as const) {
      assert.equal(canMoveOrderState('voided', to), false, `voided → ${to}`);
      assert.equal(canMoveOrderState('voided', to, { anotherPayment: false }), false, `voided → ${to}`);
    }
  });
});

describe('isAnotherPayment', () => {
  it('tells attempts apart by their references at the gateway', () => {
    assert.equal(isAnotherPayment(first('voided'), second('captured')), true);
    assert.equal(isAnotherPayment(second('authorized'), { ...second('voided'), svc_id: undefined }), false);
  });

  it('tells payments of one reference apart by their payment ids, and takes an unnamed id for the same payment', () => {
    assert.equal(isAnotherPayment(first('failed'), { ...first('authorized'), svc_id: '1700000009' }), true);
    assert.equal(isAnotherPayment(first('authorized'), first('voided')), false);
    assert.equal(isAnotherPayment(first('authorized'), { ...first('voided'), svc_id: undefined }), false);
  });
});

describe('canMoveOrderPayment', () => {
  it('moves an order on from a voided payment to a new attempt authorized, captured, waiting or declined', () => {
    for (const to of ['authorized', 'captured', 'partially_refunded', 'refunded', 'pending', 'failed'] as const) {
      assert.ok(canMoveOrderPayment(first('voided'), second(to)), `voided → another attempt ${to}`);
    }
    // Another payment id under the same reference is another payment too.
    assert.ok(canMoveOrderPayment(first('voided'), { ...first('authorized'), svc_id: '1700000009' }));
  });

  it('moves an order on from a failed payment to any new attempt, as before', () => {
    for (const to of STATES) assert.ok(canMoveOrderPayment(first('failed'), second(to)), `failed → another attempt ${to}`);
  });

  it('never takes a voided payment back to authorized, pending or failed: only its own lifecycle moves it', () => {
    for (const to of ['authorized', 'pending', 'failed', 'not_found', 'unknown'] as const) {
      assert.equal(canMoveOrderPayment(first('voided'), first(to)), false, `voided → ${to}, same payment`);
    }
  });

  it('never moves an order back from paid, whichever payment the later result is of', () => {
    for (const from of PAID) {
      for (const to of ['failed', 'pending', 'not_found', 'unknown'] as const) {
        assert.equal(canMoveOrderPayment(first(from), first(to)), false, `${from} → ${to}, same payment`);
        assert.equal(canMoveOrderPayment(first(from), second(to)), false, `${from} → ${to}, another attempt`);
      }
    }
    assert.equal(canMoveOrderPayment(first('captured'), second('voided')), false, 'a void of another payment does not undo a capture');
    assert.equal(canMoveOrderPayment(first('captured'), second('authorized')), false);
    assert.equal(canMoveOrderPayment(second('captured'), first('voided')), false, 'the voided first attempt heard of again');
  });

  it('still follows the lifecycle within one payment', () => {
    assert.ok(canMoveOrderPayment(first('authorized'), first('captured')));
    assert.ok(canMoveOrderPayment(first('authorized'), first('voided')));
    assert.ok(canMoveOrderPayment(second('captured'), second('refunded')));
    assert.equal(canMoveOrderPayment(first('captured'), first('authorized')), false);
  });

  it('keeps a state where it is', () => {
    for (const state of STATES) assert.ok(canMoveOrderPayment(first(state), first(state)), state);
  });
});
