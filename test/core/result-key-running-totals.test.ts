/**
 * What tells one capture or refund of a payment from the next, when the state stays the same: a
 * hold captured in parts is `captured` after each part, a capture refunded in parts
 * `partially_refunded`. Only the totals CHECK_STATUS names move, so a further result's key carries
 * the running total; and a reading that says money is held or taken without naming any is not an
 * answer about the money.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { namesNoPaidAmount, orderStatusOf, resultKeyOf, runningTotalOf } from '../../src/core/order-status.ts';
import { expectedStatus, type KnownResponseCode } from '../../src/core/response.ts';

function reading(code: KnownResponseCode, amounts: { authorized?: string; captured?: string; refunded?: string } = {}) {
  return orderStatusOf({
    response_code: '12000',
    status: '12',
    svc_id: '1700000004',
    transaction_code: code,
    transaction_status: expectedStatus(code),
    ...(amounts.authorized === undefined ? {} : { authorized_amount: amounts.authorized }),
    ...(amounts.captured === undefined ? {} : { captured_amount: amounts.captured }),
    ...(amounts.refunded === undefined ? {} : { refunded_amount: amounts.refunded }),
  });
}

describe('runningTotalOf', () => {
  it('is the captured total of a hold captured in parts, which stays captured after each part', () => {
    const first = reading('20064', { authorized: '10000', captured: '4000', refunded: '0' });
    const second = reading('20064', { authorized: '10000', captured: '7000', refunded: '0' });
    assert.deepEqual([first.state, second.state], ['captured', 'captured']);
    assert.deepEqual([runningTotalOf(first), runningTotalOf(second)], [4_000, 7_000]);
  });

  it('is the refunded total of a capture refunded in parts', () => {
    const first = reading('20064', { authorized: '10000', captured: '10000', refunded: '2000' });
    const second = reading('20064', { authorized: '10000', captured: '10000', refunded: '5000' });
    assert.deepEqual([first.state, second.state], ['partially_refunded', 'partially_refunded']);
    assert.deepEqual([runningTotalOf(first), runningTotalOf(second)], [2_000, 5_000]);
  });

  it('is undefined for a state whose totals cannot move while it holds, and for a reading that names no amount', () => {
    assert.equal(runningTotalOf(reading('02000', { authorized: '10000', captured: '0', refunded: '0' })), undefined);
    assert.equal(runningTotalOf(reading('20064', { authorized: '10000', captured: '10000', refunded: '10000' })), undefined);
    assert.equal(runningTotalOf(reading('14000')), undefined);
  });
});

describe('resultKeyOf, with a running total', () => {
  const state = { merchant_reference: 'order-1001', svc_id: '1700000004', state: 'captured', response_code: '20064' } as const;

  it('keeps the state\'s key without one, as every key recorded so far', () => {
    assert.equal(resultKeyOf(state), 'order-1001:1700000004:captured');
  });

  it('names the running total after the state, so two captures in one state have two keys', () => {
    assert.equal(resultKeyOf({ ...state, running_total: 7_000 }), 'order-1001:1700000004:captured:7000');
    assert.notEqual(resultKeyOf({ ...state, running_total: 7_000 }), resultKeyOf({ ...state, running_total: 10_000 }));
  });
});

describe('namesNoPaidAmount', () => {
  it('is true for a captured or authorized reading that names no amount', () => {
    assert.equal(namesNoPaidAmount(reading('14000')), true);
    assert.equal(namesNoPaidAmount(reading('02000')), true);
  });

  it('is false once an amount is named, and for a state that holds no money', () => {
    assert.equal(namesNoPaidAmount(reading('14000', { captured: '10000' })), false);
    assert.equal(namesNoPaidAmount(reading('13001')), false);
    assert.equal(namesNoPaidAmount(reading('30000')), false);
  });
});
