/**
 * The amount of the payment a CHECK_STATUS reading shows: what the gateway authorized, or what it
 * captured when it names no authorization. A partial capture or a refund does not change it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { orderStatusOf, paymentAmountOf } from '../../src/core/order-status.ts';
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

describe('paymentAmountOf', () => {
  it('is the authorized amount of a purchase, an authorization, a partial capture and a refund', () => {
    assert.equal(paymentAmountOf(reading('14000', { authorized: '250000', captured: '250000', refunded: '0' })), 250_000);
    assert.equal(paymentAmountOf(reading('02000', { authorized: '250000', captured: '0', refunded: '0' })), 250_000);
    const partlyCaptured = reading('20064', { authorized: '250000', captured: '100000', refunded: '0' });
    assert.equal(partlyCaptured.state, 'captured');
    assert.equal(paymentAmountOf(partlyCaptured), 250_000, 'captured less than authorized: the payment is still the authorized amount');
    assert.equal(paymentAmountOf(reading('20064', { authorized: '250000', captured: '250000', refunded: '50000' })), 250_000);
    assert.equal(paymentAmountOf(reading('20064', { authorized: '250000', captured: '250000', refunded: '250000' })), 250_000);
  });

  it('is the captured amount when the gateway names no authorization (a purchase as a live account may read it)', () => {
    assert.equal(paymentAmountOf(reading('14000', { captured: '10000' })), 10_000);
    assert.equal(paymentAmountOf(reading('20064', { authorized: '0', captured: '10000', refunded: '10000' })), 10_000);
  });

  it('is undefined when the answer names no amount', () => {
    const bare = reading('14000');
    assert.equal(bare.state, 'captured', 'read from the last operation alone');
    assert.equal(paymentAmountOf(bare), undefined);
  });
});
