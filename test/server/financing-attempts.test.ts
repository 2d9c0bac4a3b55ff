/**
 * Consumer financing as an attempt at paying the order, like a card payment (docs/decisions.md,
 * "How a new attempt maps to the gateway's references"): its first step chooses the reference its
 * gateway calls use (core payment-attempts.ts, `payableReference`), the flow token keeps it sealed
 * through every later step, and its result is the order's, naming the attempt.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { endpointError, financingVerifyCustomerResult, financingVerifyOtpResult, paymentResult } from '../../src/core/endpoint-api.ts';
import { parse } from '../../src/core/shape.ts';
import { createGatewayClient } from '../../src/gateway/client.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createFlowSealer, type FlowState } from '../../src/server/flow-token.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { createReconciler } from '../../src/server/reconciler.ts';
import { recordAndReport } from '../../src/server/results.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { createMerchantEndpoint } from '../../src/server/endpoint.ts';
import { createSandboxClock } from '../../src/sandbox/clock.ts';
import { createSandboxGateway } from '../../src/sandbox/gateway.ts';
import { endpointCredentials, SANDBOX_MERCHANT } from '../../src/sandbox/merchants.ts';
import { REGISTERED_FINANCING_PHONE, SANDBOX_OTP } from '../../src/sandbox/test-cards.ts';
import { GATEWAY_ACCOUNT, type Operation } from './fake-gateway.ts';
import { ORDERS, setup, START, type Harness } from './harness.ts';
import { financingSteps, ORDER, PHONE, type FinancingSteps } from './support/financing-steps.ts';
import { signedAnswer } from './support/returns.ts';
import { sandboxWorld } from './support/worlds.ts';

// A new endpoint for each test: its ledger, limiters and clock (START) are the test's own.
let harness: Harness;
let steps: FinancingSteps;

beforeEach(() => {
  harness = setup();
  steps = financingSteps(harness);
});

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, []);
});

const FINANCING_STEPS: readonly Operation[] = ['CUSTOMER_VERIFY', 'OTP_GENERATE', 'OTP_VERIFY', 'FINANCING_PURCHASE'];

/**
 * The gateway keeps a reference it holds for anything but a declined payment (an expired bill
 * included) and refuses a financing step under it with 00005, as the sandbox's OTP_GENERATE does.
 */
function refuseHeldReferences(on: Harness): void {
  on.gateway.answer('OTP_GENERATE', (request) => {
    const held = on.gateway.held(String(request['merchant_reference']));
    if (held && held.state !== 'declined') return { code: '00005' };
    return { code: '88000', fields: { transaction_id: 'TX-1', total_down_payment: '50000', otp_status: '1', tenure: '6-12-24' } };
  });
}

/** The merchant_reference and merchant_order_id each financing step sent the gateway, in order. */
function referencesSent(on: Harness = harness): [string, unknown, unknown][] {
  return on.gateway.calls
    .filter((call) => FINANCING_STEPS.includes(call.operation))
    .map((call) => [call.operation, call.request['merchant_reference'], call.request['merchant_order_id']]);
}

/** Seals a flow token as the test's endpoint does (its account, its clock at START). */
const sealer = createFlowSealer({
  requestPhrase: GATEWAY_ACCOUNT.requestPhrase,
  merchantIdentifier: GATEWAY_ACCOUNT.merchantIdentifier,
  lifetimeSeconds: 600,
  now: () => START,
});

describe('when a cash bill for the order expired unpaid (the gateway keeps its reference)', () => {
  it('runs every financing step under the next attempt\'s reference, the order\'s id unchanged, and pays', async () => {
    harness.gateway.holds('order-1001', 'bill_expired');
    refuseHeldReferences(harness);
    const flow = await steps.verifyOtp(await steps.sendOtp(await steps.verifyCustomer()));
    const purchase = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(purchase.status, 200, JSON.stringify(purchase.body));
    assert.deepEqual(referencesSent(), [
      ['CUSTOMER_VERIFY', 'order-1001.pg2', undefined],
      ['OTP_GENERATE', 'order-1001.pg2', 'order-1001'],
      ['OTP_VERIFY', 'order-1001.pg2', 'order-1001'],
      ['FINANCING_PURCHASE', 'order-1001.pg2', 'order-1001'],
    ]);
    const answered = parse(paymentResult, purchase.body);
    assert.deepEqual([answered.merchant_reference, answered.outcome], ['order-1001', 'success']);
  });

  it('reports the payment under the order\'s reference, naming the attempt as payment_reference', async () => {
    harness.gateway.holds('order-1001', 'bill_expired');
    const flow = await steps.verifyOtp(await steps.sendOtp(await steps.verifyCustomer()));
    await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.deepEqual(
      harness.results.map((result) => [result.merchant_reference, result.payment_reference, result.source, result.order_state, result.idempotency_key]),
      [['order-1001', 'order-1001.pg2', 'financing', 'captured', 'order-1001.pg2:1700000002:captured']],
    );
  });

  it('asks the gateway where the order stands only at the first step', async () => {
    harness.gateway.holds('order-1001', 'bill_expired');
    const verified = await steps.verifyCustomer();
    const asked = harness.gateway.callsOf('CHECK_STATUS').map((call) => call.request['merchant_reference']);
    assert.deepEqual(asked, ['order-1001', 'order-1001.pg2']);
    await steps.verifyOtp(await steps.sendOtp(verified));
    assert.equal(harness.gateway.callsOf('CHECK_STATUS').length, asked.length, 'the later steps keep the sealed reference');
  });
});

describe('when the customer closed a 3-D Secure check for the order', () => {
  it('starts financing under the next attempt\'s reference instead of refusing it as in progress', async () => {
    harness.gateway.holds('order-1001', 'pending_3ds');
    await steps.sendOtp(await steps.verifyCustomer());
    assert.deepEqual(referencesSent().map(([, reference]) => reference), ['order-1001.pg2', 'order-1001.pg2']);
  });

  it('charges nothing when the closed check was finished in another tab before the purchase (order_already_paid)', async () => {
    harness.gateway.holds('order-1001', 'pending_3ds');
    const flow = await steps.verifyOtp(await steps.sendOtp(await steps.verifyCustomer()));
    harness.gateway.holds('order-1001', 'captured', { svcId: '1700000066' });
    const purchase = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(purchase.status, 409);
    assert.equal(parse(endpointError, purchase.body).error.code, 'order_already_paid');
    assert.equal(harness.gateway.callsOf('FINANCING_PURCHASE').length, 0);
  });
});

describe('which attempts refuse financing', () => {
  it('reuses a declined payment\'s reference (the gateway lets it go)', async () => {
    harness.gateway.holds('order-1001', 'declined');
    await steps.verifyCustomer();
    assert.deepEqual(referencesSent(), [['CUSTOMER_VERIFY', 'order-1001', undefined]]);
  });

  it('refuses with 409 order_already_paid when a later attempt is paid, though the first still waits', async () => {
    harness.gateway.holds('order-1001', 'pending_3ds');
    harness.gateway.holds('order-1001.pg2', 'captured');
    const answer = await harness.post('/financing/verify-customer', { ...ORDER, phone_number: PHONE });
    assert.equal(answer.status, 409);
    assert.equal(parse(endpointError, answer.body).error.code, 'order_already_paid');
    assert.deepEqual(referencesSent(), []);
  });

  it('refuses with 409 order_in_progress while a bill waits', async () => {
    harness.gateway.holds('order-1001', 'bill_issued');
    const answer = await harness.post('/financing/verify-customer', { ...ORDER, phone_number: PHONE });
    assert.equal(answer.status, 409);
    assert.equal(parse(endpointError, answer.body).error.code, 'order_in_progress');
    assert.deepEqual(referencesSent(), []);
  });
});

describe('the reference sealed in the flow token', () => {
  it('keeps working for a token sealed before attempts (none in it): the order\'s own reference', async () => {
    const old: FlowState = { merchant_reference: 'order-1001', phone_number: PHONE, step: 'customer_verified', amount: ORDERS[0]!.amount, currency: 'EGP' };
    const flow = await steps.verifyOtp(await steps.sendOtp(await sealer.seal(old)));
    const purchase = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(purchase.status, 200);
    assert.deepEqual(referencesSent().map(([, reference]) => reference), ['order-1001', 'order-1001', 'order-1001']);
    assert.deepEqual(harness.results.map((result) => [result.merchant_reference, result.payment_reference]), [['order-1001', undefined]]);
  });

  it('refuses a token whose attempt reference is of another order (flow_invalid), asking the gateway nothing', async () => {
    const foreign = await sealer.seal({
      merchant_reference: 'order-1001',
      payment_reference: 'order-2002.pg2',
      phone_number: PHONE,
      step: 'customer_verified',
      amount: ORDERS[0]!.amount,
      currency: 'EGP',
    });
    const answer = await harness.post('/financing/otp', { ...ORDER, flow: foreign });
    assert.equal(answer.status, 400);
    assert.equal(parse(endpointError, answer.body).error.code, 'flow_invalid');
    assert.deepEqual(referencesSent(), []);
  });

  it('answers a replayed purchase with the attempt\'s outcome (CHECK_STATUS of the attempt, not of the expired bill)', async () => {
    harness.gateway.holds('order-1001', 'bill_expired');
    const flow = await steps.verifyOtp(await steps.sendOtp(await steps.verifyCustomer()));
    assert.equal((await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 })).status, 200);
    const again = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(again.status, 200);
    assert.deepEqual([again.body.merchant_reference, again.body.outcome, again.body.response_code], ['order-1001', 'success', '14000']);
    assert.equal(harness.results.length, 1, 'reported once');
  });
});

describe('the watch of a financing purchase under a new attempt', () => {
  it('is the attempt\'s, and the reconciler reports what the partner did under the order\'s reference', async () => {
    const store = createMemoryStore();
    const reported: VerifiedResult[] = [];
    const watched = setup({ store, resultLedger: undefined, onResult: (result) => void reported.push(result) });
    watched.gateway.holds('order-1001', 'bill_expired');
    watched.gateway.answer('FINANCING_PURCHASE', () => ({ code: '14000', fields: { svc_id: '1700000077' }, tamper: (signed) => ({ ...signed, amount: '1' }) }));
    const watchedSteps = financingSteps(watched);
    const flow = await watchedSteps.verifyOtp(await watchedSteps.sendOtp(await watchedSteps.verifyCustomer()));
    const answer = await watched.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(answer.status, 502);
    const watch = await store.watches.get('order-1001.pg2');
    assert.deepEqual([watch?.kind, watch?.last_state], ['in_progress', 'unknown'], 'the attempt is watched');

    watched.gateway.holds('order-1001.pg2', 'captured', { svcId: '1700000077' });
    const later = new Date(START.getTime() + 5 * 60_000);
    const log = createJsonLogger(() => {});
    const reconciler = createReconciler({
      store,
      gateway: createGatewayClient({ ...GATEWAY_ACCOUNT, fetch: watched.gateway.fetch, retry: false, now: () => later }),
      log,
      now: () => later,
      questionsPerMinute: 60_000,
      report: async (result) => void (await recordAndReport(result, { ledger: store.results, onResult: (r) => void reported.push(r), log, now: () => later })),
    });
    assert.equal((await reconciler.runDue()).reported, 1);
    assert.deepEqual(
      reported.map((result) => [result.merchant_reference, result.payment_reference, result.order_state, result.idempotency_key]),
      [['order-1001', 'order-1001.pg2', 'captured', 'order-1001.pg2:1700000077:captured']],
    );
    assert.ok((await store.watches.get('order-1001.pg2'))?.ended_at, 'a captured purchase is final');
  });
});

describe('against the sandbox gateway', () => {
  it('finances an order under its next attempt\'s reference after its cash bill expired', async () => {
    const clock = createSandboxClock('2026-03-10T09:00:00Z');
    const gateway = createSandboxGateway({ merchants: [SANDBOX_MERCHANT], apiRoot: 'FortAPI', now: clock.now });
    const results: VerifiedResult[] = [];
    const endpoint = createMerchantEndpoint({
      ...endpointCredentials(),
      gatewayBaseUrl: 'https://sandbox.test',
      checkoutUrl: 'https://sandbox.test',
      apiRoot: 'FortAPI',
      publicUrl: 'https://shop.example',
      basePath: '/pg',
      resolveOrder: new InMemoryOrderStore([{ merchant_reference: 'shop-1', amount: 250_000, currency: 'EGP', description: 'Headphones' }]).resolve,
      onResult: (result) => void results.push(result),
      now: () => new Date(clock.now()),
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => gateway.handle(new Request(input, init))) as typeof fetch,
    });
    const post = async (route: string, body: Record<string, unknown>) => {
      const response = await endpoint(
        new Request(`https://shop.example/pg${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ merchant_reference: 'shop-1', language: 'en', ...body }) }),
      );
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    assert.equal((await post('/bill', {})).status, 200);
    clock.advance(49 * 60 * 60_000);
    const verified = await post('/financing/verify-customer', { phone_number: REGISTERED_FINANCING_PHONE });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const sent = await post('/financing/otp', { flow: verified.body['flow'] });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const checked = await post('/financing/verify-otp', { flow: sent.body['flow'], otp: SANDBOX_OTP });
    assert.equal(checked.status, 200, JSON.stringify(checked.body));
    const months = parse(financingVerifyOtpResult, checked.body).tenures[0]?.months;
    const bought = await post('/financing/purchase', { flow: checked.body['flow'], tenure: months });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    assert.deepEqual([bought.body['merchant_reference'], bought.body['outcome']], ['shop-1', 'success']);
    const paid = results.find((result) => result.source === 'financing');
    assert.deepEqual([paid?.merchant_reference, paid?.payment_reference, paid?.order_state], ['shop-1', 'shop-1.pg2', 'captured']);
    const status = await post('/status', {});
    assert.equal(status.body['transaction_code'], '14000', 'the order reads paid: the financed attempt');
  });
});

describe('the financing purchase, once the order was paid another way during the flow', () => {
  it('charges nothing when a card paid the order under another attempt meanwhile (the gateway holds it paid)', async () => {
    const flow = await steps.verifyOtp(await steps.sendOtp(await steps.verifyCustomer()));
    // In another tab: the card's 3-D Secure check under the order's reference was closed, and the next card paid under .pg2.
    harness.gateway.holds('order-1001.pg2', 'captured', { svcId: '1700000090' });
    const purchase = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(purchase.status, 409);
    assert.equal(parse(endpointError, purchase.body).error.code, 'order_already_paid');
    assert.equal(harness.gateway.callsOf('FINANCING_PURCHASE').length, 0, 'no second payment for one order');
    assert.equal(harness.results.length, 0);
  });

  it('answers the purchase posted again from the ledger, sending nothing', async () => {
    const flow = await steps.verifyOtp(await steps.sendOtp(await steps.verifyCustomer()));
    const first = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const calls = harness.gateway.calls.length;
    const again = await harness.post('/financing/purchase', { ...ORDER, flow, tenure: 6 });
    assert.equal(again.status, 200);
    assert.deepEqual(parse(paymentResult, again.body), parse(paymentResult, first.body));
    assert.equal(harness.gateway.calls.length, calls, 'nothing sent: no 00005, no CHECK_STATUS');
    assert.equal(harness.results.length, 1, 'reported once');
  });
});

describe('the code by SMS (OTP_GENERATE), once a card paid the order after the first step', () => {
  /** In another tab, a card paid the order under `reference` and its return reached the endpoint (recorded). */
  async function cardPaidAndReturned(reference: string): Promise<void> {
    harness.gateway.holds(reference, 'captured', { svcId: '1700000090' });
    const fields = await signedAnswer('14000', { command: 'PURCHASE', merchant_reference: reference, amount: '250000', currency: 'EGP', svc_id: '1700000090' });
    assert.equal((await harness.postReturn(fields)).status, 303);
  }

  function assertAlreadyPaid(answer: { status: number; body: unknown }, message = 'This order has already been paid.'): void {
    assert.equal(answer.status, 409);
    assert.deepEqual(parse(endpointError, answer.body).error, { code: 'order_already_paid', field: 'merchant_reference', message });
  }

  it('sends no code when the ledger holds the card\'s payment under the flow\'s own reference (409 order_already_paid)', async () => {
    const flow = await steps.verifyCustomer();
    await cardPaidAndReturned('order-1001');
    assertAlreadyPaid(await harness.post('/financing/otp', { ...ORDER, flow }));
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 0, 'no SMS for a paid order');
  });

  it('sends no code when the ledger holds the card\'s payment under another attempt', async () => {
    const flow = await steps.verifyCustomer();
    await cardPaidAndReturned('order-1001.pg2');
    assertAlreadyPaid(await harness.post('/financing/otp', { ...ORDER, flow }));
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 0);
  });

  it('sends no code when the merchant\'s order says it is paid', async () => {
    const flow = await steps.verifyCustomer();
    harness.orders.add({ ...ORDERS[0]!, paid: true });
    assertAlreadyPaid(await harness.post('/financing/otp', { ...ORDER, flow }));
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 0);
  });

  it('answers the gateway\'s duplicate refusal (00005) with order_already_paid when CHECK_STATUS shows the flow\'s reference paid', async () => {
    refuseHeldReferences(harness);
    const flow = await steps.verifyCustomer();
    // The card's return has not reached the endpoint (the customer is still on the gateway's page, or closed it).
    harness.gateway.holds('order-1001', 'captured', { svcId: '1700000090' });
    const answer = await harness.post('/financing/otp', { ...ORDER, language: 'ar', flow });
    assertAlreadyPaid(answer, 'تم دفع هذا الطلب بالفعل.');
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 1);
    assert.equal(harness.gateway.callsOf('CHECK_STATUS').at(-1)?.request['merchant_reference'], 'order-1001', 'asked after the refusal');
  });

  it('answers 00005 with order_already_paid when another attempt is paid, the flow\'s reference held by a closed check', async () => {
    refuseHeldReferences(harness);
    const flow = await steps.verifyCustomer();
    harness.gateway.holds('order-1001', 'pending_3ds');
    harness.gateway.holds('order-1001.pg2', 'captured', { svcId: '1700000090' });
    assertAlreadyPaid(await harness.post('/financing/otp', { ...ORDER, flow }));
  });

  it('answers 00005 with order_in_progress when a payment waits under the flow\'s reference (a bill issued in another tab), as the first step would', async () => {
    refuseHeldReferences(harness);
    const flow = await steps.verifyCustomer();
    harness.gateway.holds('order-1001', 'bill_issued');
    const answer = await harness.post('/financing/otp', { ...ORDER, language: 'ar', flow });
    assert.equal(answer.status, 409);
    const { code, field, message } = parse(endpointError, answer.body).error;
    assert.deepEqual([code, field], ['order_in_progress', 'merchant_reference']);
    assert.match(message, /[\u0600-\u06ff]/, 'in the request\'s language');
  });

  it('keeps the gateway\'s refusal when 00005 comes and CHECK_STATUS shows nothing paid or waiting (a bill that expired meanwhile)', async () => {
    refuseHeldReferences(harness);
    const flow = await steps.verifyCustomer();
    harness.gateway.holds('order-1001', 'bill_expired');
    const answer = await harness.post('/financing/otp', { ...ORDER, flow });
    assert.equal(answer.status, 422);
    const { code, response_code } = parse(endpointError, answer.body).error;
    assert.deepEqual([code, response_code], ['gateway_refused', '00005']);
  });

  it('against the sandbox gateway: a card paid on the hosted page in another tab, its return not posted yet', async () => {
    const w = sandboxWorld([{ merchant_reference: 'shop-1', amount: 250_000, currency: 'EGP', description: 'Headphones' }]);
    const order = { merchant_reference: 'shop-1', language: 'en' };
    const verified = await w.post('/financing/verify-customer', { ...order, phone_number: REGISTERED_FINANCING_PHONE });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const form = await w.post('/hosted-page', { ...order, command: 'PURCHASE' });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    await w.payForm(form.body);
    assert.equal(w.gateway.order({ merchantReference: 'shop-1' })?.state, 'captured', 'the card paid under the flow\'s reference');
    assertAlreadyPaid(await w.post('/financing/otp', { ...order, flow: parse(financingVerifyCustomerResult, verified.body).flow }));
    assert.deepEqual(w.gateway.financingTransactions(), [], 'no code sent');
  });
});
