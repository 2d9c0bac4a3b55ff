import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { OrderState } from '../../src/core/order-status.ts';
import { attemptOf, attemptReference, isAbandonableCheck, isAttemptReference, isOwnFailure, isReferenceLetGo, orderReferenceOf, paidOtherAttempt } from '../../src/core/payment-attempts.ts';

describe('the merchant_reference of each attempt at paying an order', () => {
  it('is the order reference for the first attempt and `<order>.pg<n>` after', () => {
    assert.equal(attemptReference('order-1001', 1), 'order-1001');
    assert.equal(attemptReference('order-1001', 2), 'order-1001.pg2');
    assert.equal(attemptReference('order-1001', 9), 'order-1001.pg9');
    assert.equal(attemptReference('order-1001', 10), undefined);
  });

  it('has no later attempt when the reference would pass 40 characters', () => {
    assert.equal(attemptReference('a'.repeat(36), 2), `${'a'.repeat(36)}.pg2`);
    assert.equal(attemptReference('a'.repeat(37), 2), undefined);
  });

  it('maps back to the order and the attempt', () => {
    assert.deepEqual(attemptOf('order-1001.pg3'), { orderReference: 'order-1001', attempt: 3 });
    assert.deepEqual(attemptOf('order-1001'), { orderReference: 'order-1001', attempt: 1 });
    assert.equal(orderReferenceOf('inv.2026.pg2'), 'inv.2026');
    assert.equal(orderReferenceOf('inv.pg10'), 'inv.pg10', 'not an attempt: attempts stop at 9');
  });

  it('tells a later attempt\'s reference, which no order of the merchant may carry, from an order reference', () => {
    assert.equal(isAttemptReference('inv.2026.pg2'), true);
    assert.equal(isAttemptReference('order-1001.pg9'), true);
    for (const reference of ['order-1001', 'inv.pg1', 'inv.pg10', '.pg2', 'inv.PG2', 'inv-pg2']) assert.equal(isAttemptReference(reference), false, reference);
  });
});

describe('a pending order at the gateway', () => {
  it('may be followed by a new attempt when it is a card check, never when a bill waits', () => {
    assert.equal(isAbandonableCheck({ state: 'pending', transaction_code: '20000' }), true);
    assert.equal(isAbandonableCheck({ state: 'pending', transaction_code: '30000' }), false);
    assert.equal(isAbandonableCheck({ state: 'failed', transaction_code: '13004' }), false);
  });
});

describe('another paid attempt of the same order', () => {
  const gateway = (states: Record<string, OrderState>) => {
    const asked: string[] = [];
    return { asked, stateOf: async (reference: string) => (asked.push(reference), states[reference] ?? 'not_found') };
  };

  it('is found among the earlier attempts', async () => {
    const { stateOf } = gateway({ 'o-1': 'captured', 'o-1.pg2': 'captured' });
    assert.equal(await paidOtherAttempt('o-1.pg2', stateOf), 'o-1');
  });

  it('is found among the later attempts, which are asked until one is not held', async () => {
    const { asked, stateOf } = gateway({ 'o-1': 'captured', 'o-1.pg2': 'failed', 'o-1.pg3': 'authorized' });
    assert.equal(await paidOtherAttempt('o-1', stateOf), 'o-1.pg3');
    const none = gateway({ 'o-1': 'captured' });
    assert.equal(await paidOtherAttempt('o-1', none.stateOf), undefined);
    assert.deepEqual(none.asked, ['o-1.pg2']);
    assert.deepEqual(asked, ['o-1.pg2', 'o-1.pg3']);
  });

  it('is not a pending or failed attempt', async () => {
    const { stateOf } = gateway({ 'o-1': 'pending', 'o-1.pg2': 'captured', 'o-1.pg3': 'failed' });
    assert.equal(await paidOtherAttempt('o-1.pg2', stateOf), undefined);
  });
});

describe('isReferenceLetGo', () => {
  it('lets a declined card\'s reference go, not an expired bill\'s, nor anything still open or paid', () => {
    assert.equal(isReferenceLetGo({ state: 'failed', transaction_code: '13001' }), true);
    assert.equal(isReferenceLetGo({ state: 'failed' }), true);
    assert.equal(isReferenceLetGo({ state: 'failed', transaction_code: '31001' }), false);
    assert.equal(isReferenceLetGo({ state: 'pending', transaction_code: '30000' }), false);
    assert.equal(isReferenceLetGo({ state: 'captured', transaction_code: '14000' }), false);
  });
});

describe('isOwnFailure', () => {
  const declined = { state: 'failed', transaction_code: '13001', svc_id: '169990' } as const;

  it('takes a card page left after a declined card as its own word, not the decline CHECK_STATUS reads', () => {
    assert.equal(isOwnFailure({ response_code: '00072', status: '00' }, declined), true);
    assert.equal(isOwnFailure({ response_code: '13001', status: '13', svc_id: '169991' }, declined), true, 'another card\'s decline');
  });

  it('leaves the reading to the declined charge\'s own return, to any success, and while money is held or a payment waits', () => {
    assert.equal(isOwnFailure({ response_code: '13001', status: '13', svc_id: '169990' }, declined), false);
    assert.equal(isOwnFailure({ response_code: '14000', status: '14', svc_id: '169991' }, declined), false);
    assert.equal(isOwnFailure({ response_code: '00072', status: '00' }, { state: 'captured', transaction_code: '14000', svc_id: '169990' }), false);
    assert.equal(isOwnFailure({ response_code: '00072', status: '00' }, { state: 'pending', transaction_code: '20000' }), false);
    assert.equal(isOwnFailure({ response_code: '00072', status: '00' }, { state: 'failed', transaction_code: '31001' }), false, 'an expired bill keeps its reference');
  });
});
