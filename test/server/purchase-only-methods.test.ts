/**
 * A cash bill and consumer financing take the money at once: they are purchases. An order the
 * merchant allows only to be held (its own `command` AUTHORIZATION, or `paymentCommands` without
 * PURCHASE) is refused them as a PURCHASE on the hosted page is, `403 command_refused` naming
 * `command`, before anything is asked of the gateway. The rule is the hosted page's
 * (`paymentCommandFor`), asked for a PURCHASE.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  endpointError,
  financingOtpResult,
  financingVerifyCustomerResult,
  financingVerifyOtpResult,
} from '../../src/core/endpoint-api.ts';
import { parse } from '../../src/core/shape.ts';
import type { EndpointConfig } from '../../src/server/config.ts';
import { GOOD_OTP } from './fake-gateway.ts';
import { allLogs, setup, type Answer, type Harness } from './harness.ts';

const harnesses: Harness[] = [];
afterEach(() => {
  for (const harness of harnesses.splice(0)) assert.deepEqual(harness.gateway.problems, []);
});

function shop(overrides: Partial<EndpointConfig> = {}): Harness {
  const harness = setup(overrides);
  // Pre-orders are authorized and captured when they ship; the rest is purchased.
  harness.orders.add({ merchant_reference: 'preorder-1', amount: 250_000, currency: 'EGP', command: 'AUTHORIZATION' });
  harness.orders.add({ merchant_reference: 'instock-1', amount: 250_000, currency: 'EGP', command: 'PURCHASE' });
  harness.orders.add({ merchant_reference: 'plain-1', amount: 250_000, currency: 'EGP' });
  harnesses.push(harness);
  return harness;
}

const MESSAGE = {
  en: 'command: this payment method takes the money at once (PURCHASE), which the merchant does not allow for this order.',
  ar: 'command: طريقة الدفع هذه تأخذ المبلغ فورًا (PURCHASE)، وهذا ما لا يسمح به التاجر لهذا الطلب.',
} as const;

function purchaseRefusal(answer: Answer, language: 'en' | 'ar' = 'en') {
  assert.equal(answer.status, 403, JSON.stringify(answer.body));
  assert.deepEqual(parse(endpointError, answer.body).error, { code: 'command_refused', field: 'command', message: MESSAGE[language] });
}

const verifyCustomer = (harness: Harness, reference: string, language: 'en' | 'ar' = 'en') =>
  harness.post('/financing/verify-customer', { merchant_reference: reference, language, phone_number: '01001234567' });

describe('the cash bill', () => {
  it('is refused for an order the merchant allows only to be held (the order’s command); nothing is asked or issued', async () => {
    const harness = shop();
    purchaseRefusal(await harness.post('/bill', { merchant_reference: 'preorder-1', language: 'en' }));
    assert.equal(harness.gateway.calls.length, 0, 'not even CHECK_STATUS');
    assert.equal(harness.results.length, 0);
    assert.match(allLogs(harness), /"event":"payment_command_refused".*"command":"PURCHASE".*"allowed":"order"/);
  });

  it('is refused when paymentCommands allows only AUTHORIZATION, in Arabic for an Arabic request', async () => {
    const harness = shop({ paymentCommands: ['AUTHORIZATION'] });
    purchaseRefusal(await harness.post('/bill', { merchant_reference: 'plain-1', language: 'ar' }), 'ar');
    assert.equal(harness.gateway.calls.length, 0);
    assert.match(allLogs(harness), /"event":"payment_command_refused".*"allowed":"paymentCommands"/);
  });

  it('is issued when a PURCHASE is allowed: by default, by paymentCommands, or by the order’s own command', async () => {
    for (const [overrides, reference] of [
      [{}, 'plain-1'],
      [{ paymentCommands: ['AUTHORIZATION', 'PURCHASE'] }, 'plain-1'],
      [{ paymentCommands: ['AUTHORIZATION'] }, 'instock-1'],
    ] as const) {
      const harness = shop(overrides);
      const answer = await harness.post('/bill', { merchant_reference: reference, language: 'en' });
      assert.equal(answer.status, 200, `${JSON.stringify(overrides)} ${reference}: ${JSON.stringify(answer.body)}`);
      assert.equal(harness.gateway.callsOf('BILL_PRESENTMENT').length, 1);
    }
  });

  it('still answers 501 service_not_configured first when the shop has no voucher partner', async () => {
    const harness = shop({ voucherPartnerCode: undefined });
    const answer = await harness.post('/bill', { merchant_reference: 'preorder-1', language: 'en' });
    assert.equal(answer.status, 501);
    assert.equal(answer.body.error.code, 'service_not_configured');
  });
});

describe('consumer financing', () => {
  it('is refused at its first step for an order the merchant allows only to be held: no SMS, no customer check', async () => {
    const harness = shop();
    purchaseRefusal(await verifyCustomer(harness, 'preorder-1'));
    assert.equal(harness.gateway.calls.length, 0);
  });

  it('is refused when paymentCommands allows only AUTHORIZATION, in Arabic for an Arabic request', async () => {
    const harness = shop({ paymentCommands: ['AUTHORIZATION'] });
    purchaseRefusal(await verifyCustomer(harness, 'plain-1', 'ar'), 'ar');
    assert.equal(harness.gateway.calls.length, 0);
  });

  it('refuses every later step, and the PURCHASE, once the merchant allows the order only to be held', async () => {
    const harness = shop();
    const order = { merchant_reference: 'plain-1', language: 'en' } as const;
    const verified = await verifyCustomer(harness, 'plain-1');
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const sent = await harness.post('/financing/otp', { ...order, flow: parse(financingVerifyCustomerResult, verified.body).flow });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const checked = await harness.post('/financing/verify-otp', { ...order, flow: parse(financingOtpResult, sent.body).flow, otp: GOOD_OTP });
    assert.equal(checked.status, 200, JSON.stringify(checked.body));

    // The shop now says the order is a pre-order: authorized, captured when it ships.
    harness.orders.add({ merchant_reference: 'plain-1', amount: 250_000, currency: 'EGP', command: 'AUTHORIZATION' });
    purchaseRefusal(await harness.post('/financing/otp', { ...order, flow: parse(financingVerifyCustomerResult, verified.body).flow }));
    purchaseRefusal(await harness.post('/financing/verify-otp', { ...order, flow: parse(financingOtpResult, sent.body).flow, otp: GOOD_OTP }));
    purchaseRefusal(await harness.post('/financing/purchase', { ...order, flow: parse(financingVerifyOtpResult, checked.body).flow, tenure: 12 }));
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 1, 'no second SMS');
    assert.equal(harness.gateway.callsOf('OTP_VERIFY').length, 1);
    assert.equal(harness.gateway.callsOf('FINANCING_PURCHASE').length, 0, 'the money is not taken');
    assert.equal(harness.results.length, 0);
  });

  it('goes through when the order’s own command is PURCHASE, whatever paymentCommands says', async () => {
    const harness = shop({ paymentCommands: ['AUTHORIZATION'] });
    const verified = await verifyCustomer(harness, 'instock-1');
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
  });
});
