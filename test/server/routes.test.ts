import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  billResult,
  formPostResult,
  installmentPlansResult,
  orderResult,
  statusResult,
} from '../../src/core/endpoint-api.ts';
import { verifySignature } from '../../src/core/signature.ts';
import { hostedPaymentRequest, tokenizationMerchantFields } from '../../src/core/schemas/index.ts';
import { parseExpiry } from '../../src/core/voucher.ts';
import type { IssuedBill } from '../../src/server/config.ts';
import { SPEC_FORMULAS } from '../../src/core/installments.ts';
import { ACCESS_CODE, API_ROOT, CHECKOUT_URL, MERCHANT_IDENTIFIER, PLANS_ANSWER, REQUEST_PHRASE, RESPONSE_PHRASE } from './fake-gateway.ts';
import { allLogs, RETURN_URL, setup, START, VOUCHER_PARTNER_CODE } from './harness.ts';
import { parse } from '../../src/core/shape.ts';

// A shop that captures from its back office: the browser may ask for a purchase or an authorization.
const harness = setup({ paymentCommands: ['PURCHASE', 'AUTHORIZATION'] });

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, [], 'the endpoint sent the gateway a request it would refuse');
  harness.gateway.reset();
});

describe('POST /order', () => {
  it('answers the amount, currency and description of the merchant order', async () => {
    const { status, body } = await harness.post('/order', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(status, 200);
    assert.deepEqual(parse(orderResult, body), {
      merchant_reference: 'order-1001',
      amount: 250_000,
      currency: 'EGP',
      description: 'Headphones',
    });
  });
});

describe('POST /hosted-page', () => {
  it('answers the payment page URL and a complete field set signed with the request phrase', async () => {
    const { status, body } = await harness.post('/hosted-page', {
      merchant_reference: 'order-1001',
      language: 'ar',
      command: 'PURCHASE',
    });
    assert.equal(status, 200);
    const form = parse(formPostResult, body);
    assert.equal(form.action, `${CHECKOUT_URL}/${API_ROOT}/paymentPage`);
    assert.equal(form.method, 'POST');
    assert.deepEqual(
      { ...form.fields, signature: undefined },
      {
        command: 'PURCHASE',
        access_code: ACCESS_CODE,
        merchant_identifier: MERCHANT_IDENTIFIER,
        merchant_reference: 'order-1001',
        amount: '250000',
        currency: 'EGP',
        language: 'ar',
        customer_email: 'buyer@example.com',
        order_description: 'Headphones',
        return_url: RETURN_URL,
        signature: undefined,
      },
    );
    assert.deepEqual(await verifySignature(form.fields, REQUEST_PHRASE, 'sha256'), { valid: true });
    assert.ok(hostedPaymentRequest.safeParse(form.fields).success, 'the gateway schema accepts the form');
  });

  it('offers installments on the hosted page with installments STANDALONE', async () => {
    const { body } = await harness.post('/hosted-page', {
      merchant_reference: 'order-1001',
      language: 'en',
      command: 'AUTHORIZATION',
      installments: 'STANDALONE',
      customer_email: 'other@example.com',
    });
    const form = parse(formPostResult, body);
    assert.equal(form.fields['installments'], 'STANDALONE');
    assert.equal(form.fields['command'], 'AUTHORIZATION');
    // The order's own e-mail is signed, not the browser's (order-customer-fields.test.ts).
    assert.equal(form.fields['customer_email'], 'buyer@example.com');
    assert.deepEqual(await verifySignature(form.fields, REQUEST_PHRASE, 'sha256'), { valid: true });
  });

  it('takes the amount from the order even when the browser repeats it', async () => {
    const { status, body } = await harness.post('/hosted-page', {
      merchant_reference: 'order-3003',
      language: 'en',
      command: 'PURCHASE',
      amount: 12_500,
      currency: 'KWD',
    });
    assert.equal(status, 200);
    assert.equal(body.fields.amount, '12500');
    assert.equal(body.fields.currency, 'KWD');
  });

  it('never sends a phrase to the browser', async () => {
    const { body } = await harness.post('/hosted-page', { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' });
    const text = JSON.stringify(body);
    assert.ok(!text.includes(REQUEST_PHRASE));
    assert.ok(!text.includes(RESPONSE_PHRASE));
  });
});

describe('POST /merchant-page', () => {
  it('answers a TOKENIZATION form, signed as merchant page 2.0, carrying the completion choice', async () => {
    const { status, body } = await harness.post('/merchant-page', {
      merchant_reference: 'order-1001',
      language: 'en',
      command: 'AUTHORIZATION',
      plan_code: 'NBE6',
      issuer_code: 'NBE01',
    });
    assert.equal(status, 200);
    const form = parse(formPostResult, body);
    assert.equal(form.action, `${CHECKOUT_URL}/${API_ROOT}/paymentPage`);
    assert.equal(form.fields['service_command'], 'TOKENIZATION');
    assert.equal(form.fields['return_url'], RETURN_URL);
    assert.equal(form.fields['merchant_extra1'], 'AUTHORIZATION');
    assert.equal(form.fields['merchant_extra2'], 'NBE6');
    assert.equal(form.fields['merchant_extra3'], 'NBE01');
    assert.equal(form.fields['amount'], undefined, 'the token is created without an amount');
    assert.ok(tokenizationMerchantFields.safeParse(form.fields).success);
    // The card fields the customer adds in the browser do not change the signature.
    const posted = { ...form.fields, card_number: '4005550000000001', card_security_code: '123', expiry_date: '2812' };
    assert.deepEqual(await verifySignature(posted, REQUEST_PHRASE, 'sha256', { merchantPage: true }), { valid: true });
  });

  it('completes with PURCHASE when the element names no command', async () => {
    const { body } = await harness.post('/merchant-page', { merchant_reference: 'order-2002', language: 'en' });
    assert.equal(body.fields.merchant_extra1, 'PURCHASE');
    assert.equal(body.fields.merchant_extra2, undefined);
  });

  it('refuses a plan without its issuer', async () => {
    const { status, body } = await harness.post('/merchant-page', {
      merchant_reference: 'order-1001',
      language: 'en',
      plan_code: 'NBE6',
    });
    assert.equal(status, 400);
    assert.deepEqual(body.error, { code: 'invalid_request', field: 'issuer_code', message: 'issuer_code: is required' });
  });
});

describe('POST /installment-plans', () => {
  it('asks GET_INSTALLMENTS_PLANS for the order amount and answers only the plans this order can use', async () => {
    const { status, body } = await harness.post('/installment-plans', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(status, 200);
    const result = parse(installmentPlansResult, body);
    assert.equal(result.amount, 250_000);
    assert.equal(result.currency, 'EGP');
    assert.deepEqual(
      result.issuers.map((issuer) => [issuer.issuer_code, issuer.plan_details.map((plan) => plan.plan_code)]),
      [['NBE01', ['NBE6']]],
    );
    assert.equal(result.issuers[0]?.issuer_name_ar, 'البنك الأهلي', 'the issuer comes through as the gateway signed it');
    const [call] = harness.gateway.callsOf('GET_INSTALLMENTS_PLANS');
    assert.equal(call?.request['amount'], '250000');
    assert.equal(call?.request['currency'], 'EGP');
  });

  it('tells the merchant when the gateway’s amountPerMonth disagrees with the flat variant the issuer’s formula names', async () => {
    // NBE6: 2,500.00 EGP at 2% over 6 months; the gateway says 425.00 a month (the fee once), the formula the fee every month.
    const [nbe, ...others] = PLANS_ANSWER.installment_detail.issuer_detail;
    const perMonthIssuer = { ...nbe!, formula: SPEC_FORMULAS.flatPerMonth };
    harness.gateway.answer('GET_INSTALLMENTS_PLANS', () => ({ code: '62000', fields: { installment_detail: { issuer_detail: [perMonthIssuer, ...others] } } }));
    const logged = harness.logs.length;
    const { status } = await harness.post('/installment-plans', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(status, 200);
    const warnings = harness.logs.slice(logged).map((line) => JSON.parse(line)).filter((line) => line.event === 'installment_amount_disagreement');
    assert.deepEqual(
      warnings.map(({ issuer_code, plan_code, flat_variant, decided_by, monthly, amount_per_month, disagreement }) => ({ issuer_code, plan_code, flat_variant, decided_by, monthly, amount_per_month, disagreement })),
      [{ issuer_code: 'NBE01', plan_code: 'NBE6', flat_variant: 'per-month', decided_by: 'formula', monthly: 46_667, amount_per_month: '425.00', disagreement: 46_667 - 42_500 }],
    );
  });

  it('says nothing when the gateway’s amountPerMonth is one of the flat variants and no formula names another', async () => {
    const logged = harness.logs.length;
    const { status } = await harness.post('/installment-plans', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(status, 200);
    assert.doesNotMatch(harness.logs.slice(logged).join('\n'), /installment_amount_disagreement|installment_plan_unquotable/);
  });

  it('passes the gateway refusal on with its response code', async () => {
    harness.gateway.answer('GET_INSTALLMENTS_PLANS', () => ({ code: '00006' }));
    const { status, body } = await harness.post('/installment-plans', { merchant_reference: 'order-1001', language: 'ar' });
    assert.equal(status, 422);
    assert.deepEqual(body.error, {
      code: 'gateway_refused',
      response_code: '00006',
      message: 'رمز الوصول أو معرف التاجر غير صحيح',
    });
  });
});

describe('POST /bill', () => {
  it('issues a bill in EGP that expires 48 hours from now, and tells the merchant', async () => {
    const bills: IssuedBill[] = [];
    const withHook = setup({ onBill: (bill) => void bills.push(bill) });
    const { status, body } = await withHook.post('/bill', {
      merchant_reference: 'order-1001',
      language: 'en',
      customer_name: 'Mona Hassan',
    });
    assert.equal(status, 200);
    const bill = parse(billResult, body);
    assert.equal(bill.bill_number, '12345678901234');
    assert.equal(bill.amount, 250_000);
    assert.equal(bill.currency, 'EGP');
    assert.equal(bill.payment_partner, VOUCHER_PARTNER_CODE);
    assert.equal(withHook.gateway.callsOf('BILL_PRESENTMENT')[0]?.request['payment_partner'], VOUCHER_PARTNER_CODE);
    assert.equal(bill.request_expiry_date, '2026-11-24T05:00:00+00:00');
    assert.equal(parseExpiry(bill.request_expiry_date), START.getTime() + 48 * 3600_000);
    const [call] = withHook.gateway.callsOf('BILL_PRESENTMENT');
    assert.equal(call?.request['customer_name'], 'Mona Hassan');
    assert.equal(call?.request['customer_email'], 'buyer@example.com');
    assert.equal(bills.length, 1);
    assert.equal(bills[0]?.bill_number, '12345678901234');
    assert.deepEqual(withHook.gateway.problems, []);
  });

  it('refuses an order in another currency before calling the gateway', async () => {
    const { status, body } = await harness.post('/bill', { merchant_reference: 'order-2002', language: 'en' });
    assert.equal(status, 422);
    assert.deepEqual(body.error, {
      code: 'currency_not_supported',
      field: 'currency',
      message: 'This payment method is not available in the order currency.',
    });
    assert.equal(harness.gateway.calls.length, 0);
  });

  it('refuses a customer name the gateway would refuse, naming the field', async () => {
    const { status, body } = await harness.post('/bill', {
      merchant_reference: 'order-1001',
      language: 'en',
      customer_name: 'Mona <script>',
    });
    assert.equal(status, 400);
    assert.equal(body.error.code, 'invalid_request');
    assert.equal(body.error.field, 'customer_name');
    assert.match(body.error.message, /^customer_name: may contain only letters/);
    assert.equal(harness.gateway.calls.length, 0);
  });
});

describe('POST /status', () => {
  it('asks CHECK_STATUS for the merchant order and answers amounts in minor units', async () => {
    harness.gateway.holds('order-1001', 'captured');
    const { status, body } = await harness.post('/status', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(status, 200);
    assert.deepEqual(parse(statusResult, body), {
      merchant_reference: 'order-1001',
      transaction_status: '14',
      transaction_code: '14000',
      transaction_message: 'Success',
      authorized_amount: 250_000,
      captured_amount: 250_000,
      refunded_amount: 0,
    });
  });

  it('logs the call without the signature, phrases or access code', async () => {
    await harness.post('/status', { merchant_reference: 'order-1001', language: 'en' });
    const logs = allLogs(harness);
    assert.match(logs, /"event":"gateway_answer"/);
    for (const secret of [REQUEST_PHRASE, RESPONSE_PHRASE, ACCESS_CODE]) assert.ok(!logs.includes(secret), secret);
    assert.ok(!/"signature":"[0-9a-f]{64}"/.test(logs));
  });
});
