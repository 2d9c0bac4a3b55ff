/**
 * The amount a payment result reports from a CHECK_STATUS reading: what the customer was charged.
 * The hold while only authorized; what was captured once anything was, however much was held;
 * refunds are told beside it (`refunded_amount`), not taken off.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chargedAmountOf, orderStatusOf } from '../../src/core/order-status.ts';
import { expectedStatus, type KnownResponseCode } from '../../src/core/response.ts';

function reading(code: KnownResponseCode, amounts: { authorized?: string; captured?: string; refunded?: string } = {}) {
  return orderStatusOf({
    response_code: '12000',
    status: '12',
    transaction_code: code,
    transaction_status: expectedStatus(code),
    ...(amounts.authorized === undefined ? {} : { authorized_amount: amounts.authorized }),
    ...(amounts.captured === undefined ? {} : { captured_amount: amounts.captured }),
    ...(amounts.refunded === undefined ? {} : { refunded_amount: amounts.refunded }),
  });
}

describe('chargedAmountOf', () => {
  it('is the amount held while the payment is only authorized', () => {
    assert.equal(chargedAmountOf(reading('02000', { authorized: '10000', captured: '0', refunded: '0' })), 10_000);
  });

  it('is the amount captured, not the hold, after a partial capture, and the total after a second one', () => {
    const first = reading('20064', { authorized: '10000', captured: '4000', refunded: '0' });
    assert.equal(first.state, 'captured');
    assert.equal(chargedAmountOf(first), 4_000);
    assert.equal(chargedAmountOf(reading('20064', { authorized: '10000', captured: '7000', refunded: '0' })), 7_000);
  });

  it('is the whole amount of a purchase, read with or without its authorization', () => {
    assert.equal(chargedAmountOf(reading('14000', { authorized: '250000', captured: '250000', refunded: '0' })), 250_000);
    assert.equal(chargedAmountOf(reading('14000', { captured: '250000' })), 250_000);
  });

  it('stays the amount captured when part or all of it is refunded', () => {
    const partlyRefunded = reading('20064', { authorized: '10000', captured: '4000', refunded: '1000' });
    assert.equal(partlyRefunded.state, 'partially_refunded');
    assert.equal(chargedAmountOf(partlyRefunded), 4_000);
    assert.equal(chargedAmountOf(reading('20064', { authorized: '10000', captured: '4000', refunded: '4000' })), 4_000);
  });

  it('is undefined when the answer names no amount', () => {
    assert.equal(chargedAmountOf(reading('14000')), undefined);
  });
});
