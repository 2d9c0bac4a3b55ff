import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  endpointError,
  financingOtpResult,
  financingVerifyOtpResult,
  paymentResult,
} from '../../src/core/endpoint-api.ts';
import { GATEWAY_ACCOUNT, GOOD_OTP, UNREGISTERED_PHONE } from './fake-gateway.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { allLogs, FINANCING_PARTNER_CODE, ORDERS, setup, START } from './harness.ts';
import { financingSteps, ORDER } from './support/financing-steps.ts';
import { createGatewayClient } from '../../src/gateway/client.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createReconciler } from '../../src/server/reconciler.ts';
import { recordAndReport } from '../../src/server/results.ts';
import { createMemoryStore } from '../../src/store/memory.ts';

import { parse } from '../../src/core/shape.ts';

const harness = setup();
const { verifyCustomer, sendOtp, verifyOtp } = financingSteps(harness);

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, []);
  harness.gateway.reset();
  harness.results.length = 0;
  harness.ledger.clear();
  // Every test sends OTPs to one phone number for one order: start each in a new limiter window.
  harness.advance(15 * 60_000);
});

function error(answer: { status: number; body: unknown }, status: number) {
  assert.equal(answer.status, status);
  return parse(endpointError, answer.body).error;
}

describe('the four financing steps', () => {
  it('verify the customer, send and verify the OTP, then purchase the order amount', async () => {
    const verified = await harness.post('/financing/verify-customer', { ...ORDER, phone_number: '+201001234567' });
    assert.equal(verified.status, 200);
    const [verifyCall] = harness.gateway.callsOf('CUSTOMER_VERIFY');
    assert.equal(verifyCall?.request['phone_number'], '01001234567', 'the phone is normalized');
    assert.equal(verifyCall?.request['payment_option'], FINANCING_PARTNER_CODE);

    const otp = await harness.post('/financing/otp', {
      ...ORDER,
      flow: verified.body.flow,
      products: [{ product_name: 'Headphones', product_price: '2500.00', product_category: 'audio' }],
    });
    assert.equal(otp.status, 200);
    assert.deepEqual({ ...parse(financingOtpResult, otp.body), flow: '' }, { flow: '', down_payment: 50_000, tenure_months: [6, 12, 24] });
    const [otpCall] = harness.gateway.callsOf('OTP_GENERATE');
    assert.equal(otpCall?.request['amount'], '250000');
    assert.equal(otpCall?.request['merchant_order_id'], 'order-1001');
    assert.deepEqual(otpCall?.request['products'], [
      { product_name: 'Headphones', product_price: '2500.00', product_category: 'audio' },
    ]);

    const checked = await harness.post('/financing/verify-otp', { ...ORDER, flow: otp.body.flow, otp: GOOD_OTP });
    assert.equal(checked.status, 200);
    assert.deepEqual(
      { ...parse(financingVerifyOtpResult, checked.body), flow: '' },
      {
        flow: '',
        down_payment: 50_000,
        tenures: [
          { months: 6, emi: 37_500, interest_rate: '2.5' },
          { months: 12, emi: 19_050, interest_rate: '3' },
        ],
      },
    );
    const [verifyOtpCall] = harness.gateway.callsOf('OTP_VERIFY');
    assert.equal(verifyOtpCall?.request['total_downpayment'], 50_000);
    assert.equal(verifyOtpCall?.request['phone_number'], '01001234567');

    const purchase = await harness.post('/financing/purchase', { ...ORDER, flow: checked.body.flow, tenure: 12 });
    assert.equal(purchase.status, 200);
    assert.deepEqual(parse(paymentResult, purchase.body), {
      merchant_reference: 'order-1001',
      outcome: 'success',
      response_code: '14000',
      response_message: 'Success',
      status: '14',
      svc_id: '1700000002',
      amount: 250_000,
      currency: 'EGP',
    });
    const [purchaseCall] = harness.gateway.callsOf('FINANCING_PURCHASE');
    assert.deepEqual(
      {
        amount: purchaseCall?.request['amount'],
        currency: purchaseCall?.request['currency'],
        transaction_id: purchaseCall?.request['transaction_id'],
        otp: purchaseCall?.request['otp'],
        tenure: purchaseCall?.request['tenure'],
        total_down_payment: purchaseCall?.request['total_down_payment'],
        phone_number: purchaseCall?.request['phone_number'],
        customer_code: purchaseCall?.request['customer_code'],
        customer_email: purchaseCall?.request['customer_email'],
      },
      {
        amount: '250000',
        currency: 'EGP',
        transaction_id: 'TX-1',
        otp: GOOD_OTP,
        tenure: 12,
        total_down_payment: 50_000,
        phone_number: '01001234567',
        customer_code: '01001234567',
        customer_email: 'buyer@example.com',
      },
    );
    assert.equal(harness.results.length, 1);
    assert.equal(harness.results[0]?.source, 'financing');
    assert.equal(harness.results[0]?.outcome, 'success');
  });

  it('describes the order as one product when neither the merchant nor the browser lists any', async () => {
    await sendOtp(await verifyCustomer());
    const [call] = harness.gateway.callsOf('OTP_GENERATE');
    assert.deepEqual(call?.request['products'], [
      { product_name: 'Headphones', product_price: '2500.00', product_category: 'general' },
    ]);
  });

  it('lets the customer ask for a new OTP before verifying one', async () => {
    const first = await sendOtp(await verifyCustomer());
    const second = await sendOtp(first);
    assert.ok(second);
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 2);
  });

  it('keeps the flow after a wrong OTP, so the customer can type it again', async () => {
    const flow = await sendOtp(await verifyCustomer());
    const wrong = await harness.post('/financing/verify-otp', { ...ORDER, flow, otp: '000000', language: 'ar' });
    assert.deepEqual(error(wrong, 422), { code: 'gateway_refused', response_code: '93001', message: 'رمز التحقق غير صحيح' });
    const right = await harness.post('/financing/verify-otp', { ...ORDER, flow, otp: GOOD_OTP });
    assert.equal(right.status, 200);
  });

  it('never logs the OTP, the phone number or the flow token', async () => {
    const flow = await sendOtp(await verifyCustomer());
    await harness.post('/financing/verify-otp', { ...ORDER, flow, otp: '918273' });
    const logs = allLogs(harness);
    for (const secret of ['918273', '01001234567', flow]) assert.ok(!logs.includes(secret), secret);
  });
});

describe('when a financing step is refused', () => {
  it('refuses a phone number the partner cannot serve, naming the field', async () => {
    const answer = await harness.post('/financing/verify-customer', { ...ORDER, phone_number: '0123' + '45678' });
    assert.deepEqual(error(answer, 400), {
      code: 'invalid_request',
      field: 'phone_number',
      message: 'phone_number: must be an Egyptian mobile number such as 01012345678',
    });
    assert.equal(harness.gateway.calls.length, 0);
  });

  it('passes on the partner refusing the customer, in Arabic', async () => {
    const answer = await harness.post('/financing/verify-customer', {
      ...ORDER,
      language: 'ar',
      phone_number: UNREGISTERED_PHONE,
    });
    assert.deepEqual(error(answer, 422), {
      code: 'gateway_refused',
      response_code: '91001',
      message: 'العميل غير مسجل لدى شريك التمويل',
    });
  });

  it('refuses a tenure the partner did not offer', async () => {
    const flow = await verifyOtp(await sendOtp(await verifyCustomer()));
    const answer = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 36 });
    assert.deepEqual(error(answer, 400), {
      code: 'invalid_request',
      field: 'tenure',
      message: 'tenure: must be one of: 6, 12',
    });
    assert.equal(harness.gateway.callsOf('FINANCING_PURCHASE').length, 0);
  });

  it('reports a declined purchase as a failure, never as paid', async () => {
    harness.gateway.answer('FINANCING_PURCHASE', () => ({ code: '93003' }));
    const flow = await verifyOtp(await sendOtp(await verifyCustomer()));
    const answer = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(answer.status, 200);
    assert.equal(parse(paymentResult, answer.body).outcome, 'failure');
    assert.equal(answer.body.response_code, '93003');
  });

  it('watches a purchase whose answer could not be believed, and the reconciler reports what the partner did, once', async () => {
    const store = createMemoryStore();
    const reported: VerifiedResult[] = [];
    const watched = setup({ store, resultLedger: undefined, onResult: (result) => void reported.push(result) });
    watched.gateway.answer('FINANCING_PURCHASE', () => ({ code: '14000', fields: { svc_id: '1700000077' }, tamper: (signed) => ({ ...signed, amount: '1' }) }));
    const steps = financingSteps(watched);
    const flow = await steps.verifyOtp(await steps.sendOtp(await steps.verifyCustomer()));
    const answer = await watched.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(error(answer, 502).code, 'gateway_signature_invalid');
    assert.equal(reported.length, 0, 'nothing reported from an answer that does not verify');
    const watch = await store.watches.get('order-1001');
    assert.deepEqual([watch?.kind, watch?.last_state], ['in_progress', 'unknown'], 'the purchase is watched');

    // The partner did take the money (CHECK_STATUS says captured): the reconciler finds it.
    watched.gateway.holds('order-1001', 'captured', { svcId: '1700000077' });
    watched.advance(5 * 60_000);
    const log = createJsonLogger(() => {});
    const reconciler = createReconciler({
      store,
      gateway: createGatewayClient({ ...GATEWAY_ACCOUNT, fetch: watched.gateway.fetch, retry: false, now: () => new Date(START.getTime() + 5 * 60_000) }),
      log,
      now: () => new Date(START.getTime() + 5 * 60_000),
      questionsPerMinute: 60_000,
      report: async (result) => void (await recordAndReport(result, { ledger: store.results, onResult: (r) => void reported.push(r), log, now: () => new Date() })),
    });
    assert.equal((await reconciler.runDue()).reported, 1);
    assert.deepEqual(
      reported.map((result) => [result.source, result.order_state, result.idempotency_key]),
      [['reconcile', 'captured', 'order-1001:1700000077:captured']],
    );
    assert.ok((await store.watches.get('order-1001'))?.ended_at, 'a captured purchase is final');
  });

  it('leaves no watch of a purchase that never left for the gateway', async () => {
    const store = createMemoryStore();
    const watched = setup({ store, resultLedger: undefined });
    const steps = financingSteps(watched);
    const flow = await steps.verifyOtp(await steps.sendOtp(await steps.verifyCustomer()));
    watched.gateway.refuseConnections();
    const answer = await watched.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(error(answer, 502).code, 'gateway_unreachable');
    const watch = await store.watches.get('order-1001');
    assert.equal(watch?.end_reason, 'not_sent', 'nothing moved: nothing to ask the gateway about');
  });

  it('never reports a purchase whose answer has a bad signature', async () => {
    harness.gateway.answer('FINANCING_PURCHASE', () => ({ code: '14000', tamper: (signed) => ({ ...signed, amount: '1' }) }));
    const flow = await verifyOtp(await sendOtp(await verifyCustomer()));
    const answer = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(error(answer, 502).code, 'gateway_signature_invalid');
    assert.equal(harness.results.length, 0);
  });
});

describe('when the browser tries to skip a financing step', () => {
  it('cannot ask for an OTP without a verified customer', async () => {
    const answer = await harness.post('/financing/otp', { ...ORDER });
    assert.deepEqual(error(answer, 400), { code: 'invalid_request', field: 'flow', message: 'flow: is required' });
  });

  it('cannot verify an OTP that was never sent', async () => {
    const flow = await verifyCustomer();
    const answer = await harness.post('/financing/verify-otp', { ...ORDER, flow, otp: GOOD_OTP });
    assert.deepEqual(error(answer, 409), {
      code: 'step_out_of_order',
      field: 'flow',
      message: 'Please complete the previous financing step first.',
    });
    assert.equal(harness.gateway.callsOf('OTP_VERIFY').length, 0);
  });

  it('cannot purchase before the OTP is verified', async () => {
    const flow = await sendOtp(await verifyCustomer());
    const answer = await harness.post('/financing/purchase', { ...ORDER, language: 'ar', flow, tenure: 6 });
    assert.deepEqual(error(answer, 409), {
      code: 'step_out_of_order',
      field: 'flow',
      message: 'يرجى إكمال خطوة التمويل السابقة أولًا.',
    });
    assert.equal(harness.gateway.callsOf('FINANCING_PURCHASE').length, 0);
  });

  it('cannot ask for a new OTP after verifying one', async () => {
    const flow = await verifyOtp(await sendOtp(await verifyCustomer()));
    const answer = await harness.post('/financing/otp', { ...ORDER, flow });
    assert.equal(error(answer, 409).code, 'step_out_of_order');
  });
});

describe('when the flow token is not one the endpoint issued for this order', () => {
  it('refuses an altered token', async () => {
    const flow = await verifyOtp(await sendOtp(await verifyCustomer()));
    const last = flow.at(-2) === 'A' ? 'B' : 'A';
    const altered = `${flow.slice(0, -2)}${last}${flow.slice(-1)}`;
    const answer = await harness.post('/financing/purchase', { ...ORDER, flow: altered, tenure: 6 });
    assert.deepEqual(error(answer, 400), {
      code: 'flow_invalid',
      field: 'flow',
      message: 'This financing session is not valid or has expired; please start again.',
    });
  });

  it('refuses an invented token', async () => {
    const invented = `v1.${btoa(JSON.stringify({ step: 'otp_verified', merchant_reference: 'order-1001' }))}`;
    const answer = await harness.post('/financing/purchase', { ...ORDER, flow: invented, tenure: 6 });
    assert.equal(error(answer, 400).code, 'flow_invalid');
  });

  it('refuses the token of another order', async () => {
    const flow = await verifyCustomer();
    const answer = await harness.post('/financing/otp', { ...ORDER, merchant_reference: 'order-2002', flow });
    assert.equal(error(answer, 400).code, 'flow_invalid');
  });

  it('refuses a token issued by another merchant endpoint (other phrase)', async () => {
    const other = setup({ requestPhrase: 'another-phrase' });
    const flow = await financingSteps(other).verifyCustomer();
    const answer = await harness.post('/financing/otp', { ...ORDER, flow });
    assert.equal(error(answer, 400).code, 'flow_invalid');
  });

  it('refuses an expired token', async () => {
    const timed = setup();
    const flow = await financingSteps(timed).verifyCustomer();
    timed.advance(15 * 60_000 + 1000);
    const answer = await timed.post('/financing/otp', { ...ORDER, flow });
    assert.equal(error(answer, 400).code, 'flow_invalid');
  });

  it('refuses the flow when the merchant changed the order meanwhile', async () => {
    const changing = setup();
    const flow = await financingSteps(changing).verifyCustomer();
    changing.orders.add({ merchant_reference: 'order-1001', amount: 1, currency: 'EGP' });
    const answer = await changing.post('/financing/otp', { ...ORDER, flow });
    assert.equal(error(answer, 400).code, 'flow_invalid');
  });

  it('keeps the OTP and phone number unreadable inside the token', async () => {
    const flow = await verifyOtp(await sendOtp(await verifyCustomer()));
    const decoded = atob(flow.slice(3).replace(/-/g, '+').replace(/_/g, '/'));
    assert.ok(!decoded.includes(GOOD_OTP));
    assert.ok(!decoded.includes('01001234567'));
  });
});

describe('when the partner sends an amount that is not digits', () => {
  it('answers a decimal EMI with 502 gateway_answer_invalid and a log line naming the field, never a 500', async () => {
    const on = setup();
    on.gateway.answer('OTP_VERIFY', () => ({
      code: '92182',
      fields: { otp_status: '1', tenure: { TENURE_VM: [{ EMI: '375.00', TENURE: '6', InterestRate: '2.5' }] } },
    }));
    const steps = financingSteps(on);
    const sent = await steps.sendOtp(await steps.verifyCustomer());
    const answer = await on.post('/financing/verify-otp', { ...ORDER, flow: sent, otp: GOOD_OTP });
    assert.equal(answer.status, 502);
    assert.deepEqual(answer.body.error, {
      code: 'gateway_answer_invalid',
      message: 'The payment gateway sent an answer that cannot be used; please try again later.',
    });
    const line = on.logs.find((entry) => entry.includes('"event":"gateway_amount_invalid"'));
    assert.ok(line, 'logged');
    assert.match(line, /"field":"EMI"/);
    assert.ok(!allLogs(on).includes('internal_error'));
  });

  it('answers a tenure that is not a whole number of months the same way', async () => {
    const on = setup();
    on.gateway.answer('OTP_VERIFY', () => ({
      code: '92182',
      fields: { otp_status: '1', tenure: { TENURE_VM: [{ EMI: '37500', TENURE: '6.5', InterestRate: '2.5' }] } },
    }));
    const steps = financingSteps(on);
    const answer = await on.post('/financing/verify-otp', { ...ORDER, flow: await steps.sendOtp(await steps.verifyCustomer()), otp: GOOD_OTP });
    assert.equal(answer.status, 502);
    assert.equal(answer.body.error.code, 'gateway_answer_invalid');
    assert.match(allLogs(on), /"field":"TENURE"/);
  });
});

describe('when the browser names the products to finance', () => {
  const product = (price: string, name = 'Headphones') => ({ product_name: name, product_price: price, product_category: 'audio' });

  it('refuses a list priced 0.01 for an order of EGP 2,500.00, naming products, and sends no OTP', async () => {
    const answer = await harness.post('/financing/otp', { ...ORDER, flow: await verifyCustomer(), products: [product('0.01')] });
    const refusal = error(answer, 400);
    assert.deepEqual(
      { ...refusal, message: refusal.message.replace(/\s/g, ' ') },
      { code: 'invalid_request', field: 'products', message: 'products: the prices must add up to the order amount, EGP 2,500.00' },
    );
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 0);
  });

  it('says so in Arabic', async () => {
    const answer = await harness.post('/financing/otp', { ...ORDER, language: 'ar', flow: await verifyCustomer(), products: [product('10.00')] });
    const refusal = error(answer, 400);
    assert.equal(refusal.field, 'products');
    assert.match(refusal.message, /^products: يجب أن يساوي مجموع الأسعار مبلغ الطلب/);
  });

  it('accepts a list whose prices add up to the order amount, exactly, in minor units', async () => {
    const products = [product('2000.10', 'Headphones'), product('499.90', 'Case')];
    const answer = await harness.post('/financing/otp', { ...ORDER, flow: await verifyCustomer(), products });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(harness.gateway.callsOf('OTP_GENERATE')[0]?.request['products'], products);
  });

  it('refuses a price that is not a decimal amount, naming it', async () => {
    const answer = await harness.post('/financing/otp', { ...ORDER, flow: await verifyCustomer(), products: [product('2500.001')] });
    const refusal = error(answer, 400);
    assert.equal(refusal.field, 'products[0].product_price');
    assert.match(refusal.message, /^products\[0\]\.product_price: must have at most 2 decimal places/);
  });

  it('refuses any list for an order that lists its own products', async () => {
    const store = new InMemoryOrderStore([
      { ...ORDERS[0]!, products: [product('2500.00')] },
    ]);
    const shop = setup({ resolveOrder: store.resolve });
    const flow = await financingSteps(shop).verifyCustomer();
    const answer = await shop.post('/financing/otp', { ...ORDER, flow, products: [product('2500.00', 'Other')] });
    assert.deepEqual(error(answer, 400), { code: 'invalid_request', field: 'products', message: 'products: are set by the merchant for this order' });
    assert.equal(shop.gateway.callsOf('OTP_GENERATE').length, 0);
  });
});
