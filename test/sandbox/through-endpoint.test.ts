/**
 * Every flow end to end over real HTTP on loopback: the merchant endpoint and the sandbox gateway
 * share one `node:http` server on 127.0.0.1 (as `pg-checkout serve` hosts them), the endpoint calls
 * the gateway with the real `fetch`, and this test plays the customer's browser: it posts the
 * endpoint's signed fields to the gateway, types a card on the gateway's page, and follows the
 * gateway's return post back to the endpoint's /return.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROUTES } from '../../src/core/endpoint-api.ts';
import { createMerchantEndpoint, type MerchantEndpoint } from '../../src/server/endpoint.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { toNodeListener } from '../../src/server/node.ts';
import { InMemoryOrderStore, type MerchantOrder } from '../../src/server/orders.ts';
import { createSandboxClock } from '../../src/sandbox/clock.ts';
import { createSandboxGateway } from '../../src/sandbox/gateway.ts';
import { endpointCredentials } from '../../src/sandbox/merchants.ts';
import {
  REGISTERED_FINANCING_PHONE,
  SANDBOX_OTP,
  testCard,
  UNREGISTERED_FINANCING_PHONE,
  type CardOutcome,
} from '../../src/sandbox/test-cards.ts';
import { FUTURE_EXPIRY, START, challengeOf, formAction, hiddenFields, sessionOf, verifiesAsGateway } from './support.ts';

const BASE_PATH = '/pg';
const clock = createSandboxClock(START);
// The gateway is mounted at the root: the endpoint takes the gateway's host without a path.
const gateway = createSandboxGateway({ now: clock.now });
const store = new InMemoryOrderStore();
const results: VerifiedResult[] = [];
let server: Server;
let origin = '';
let endpoint: MerchantEndpoint;
let orderCount = 0;

before(async () => {
  server = createServer(
    toNodeListener((request, context) => (gateway.handles(request.url) ? gateway.handle(request) : endpoint(request, context))),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint = createMerchantEndpoint({
    ...endpointCredentials(),
    gatewayBaseUrl: origin,
    checkoutUrl: origin,
    apiRoot: 'FortAPI',
    publicUrl: origin,
    basePath: BASE_PATH,
    resolveOrder: store.resolve,
    // Some journeys authorize from the browser: this shop captures from its back office.
    paymentCommands: ['PURCHASE', 'AUTHORIZATION'],
    onResult: (result) => {
      results.push(result);
      store.recordResult(result);
    },
    now: clock.now,
  });
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A fresh merchant order for one test. */
function newOrder(overrides: Partial<MerchantOrder> = {}): MerchantOrder {
  orderCount += 1;
  return store.add({
    merchant_reference: `e2e-${orderCount}`,
    amount: 250_000,
    currency: 'EGP',
    description: 'Headphones',
    customer_email: 'buyer@example.com',
    ...overrides,
  });
}

interface JsonAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** The element's call to the endpoint (same origin). */
async function callEndpoint(route: string, body: Record<string, unknown>): Promise<JsonAnswer> {
  const response = await fetch(`${origin}${BASE_PATH}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The browser submitting a form (never following redirects by itself). */
async function submit(action: string, fields: Record<string, unknown>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, String(value));
  return fetch(action, { method: 'POST', body, redirect: 'manual' });
}

/** The gateway's return page posts its signed fields to the endpoint's /return; answers the endpoint's result. */
async function followReturn(response: Response): Promise<{ gatewayFields: Record<string, string>; result: JsonAnswer }> {
  assert.equal(response.status, 200);
  const html = await response.text();
  const action = formAction(html);
  assert.equal(action, `${origin}${BASE_PATH}${ROUTES.gatewayReturn}`, 'the gateway returns to the endpoint');
  const gatewayFields = hiddenFields(html);
  assert.ok(await verifiesAsGateway(gatewayFields), 'the return post is signed with the response phrase');
  const back = await submit(action, gatewayFields);
  return { gatewayFields, result: { status: back.status, body: (await back.json()) as Record<string, unknown> } };
}

interface FormPost {
  readonly action: string;
  readonly fields: Record<string, string>;
}

async function formPost(route: string, body: Record<string, unknown>): Promise<FormPost> {
  const answer = await callEndpoint(route, body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body['method'], 'POST');
  return { action: String(answer.body['action']), fields: answer.body['fields'] as Record<string, string> };
}

/** Opens the gateway's card page from the endpoint's form and types a test card on it. */
async function payOnHostedPage(post: FormPost, card: string, extra: Record<string, string> = {}): Promise<Response> {
  assert.equal(post.action, `${origin}/FortAPI/paymentPage`);
  const page = await submit(post.action, post.fields);
  assert.equal(page.status, 200);
  const html = await page.text();
  const submitAction = new URL(/<form class="credit-card-container" method="post" action="([^"]+)"/.exec(html)?.[1] ?? '', origin);
  return submit(submitAction.href, {
    session: sessionOf(html),
    card_number: card,
    expiry_date: FUTURE_EXPIRY.typed,
    card_security_code: '123',
    card_holder_name: 'Test Buyer',
    ...extra,
  });
}

/** Opens a 3-D Secure challenge page and answers it. */
async function challenge(url: string, decision: 'approve' | 'fail'): Promise<Response> {
  assert.ok(url.startsWith(`${origin}/FortAPI/3ds/challenge?id=`), url);
  const page = await fetch(url);
  assert.equal(page.status, 200);
  return submit(`${origin}/FortAPI/3ds/challenge`, { challenge: challengeOf(await page.text()), decision });
}

async function status(reference: string): Promise<Record<string, unknown>> {
  const answer = await callEndpoint(ROUTES.status, { merchant_reference: reference, language: 'en' });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

describe('through the merchant endpoint, over HTTP on loopback', () => {
  describe('hosted payment page', () => {
    it('pays with the success card: signed return, verified result, captured status', async () => {
      const order = newOrder();
      const post = await formPost(ROUTES.hostedPage, { merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE' });
      const { gatewayFields, result } = await followReturn(await payOnHostedPage(post, testCard('success').number));
      assert.equal(gatewayFields['response_code'], '14000');
      assert.equal(result.status, 200);
      assert.equal(result.body['outcome'], 'success');
      assert.equal(result.body['response_code'], '14000');
      assert.equal(result.body['svc_id'], gatewayFields['svc_id']);
      assert.equal(results.at(-1)?.gateway['card_number'], '411111******1111');
      assert.deepEqual(await status(order.merchant_reference), {
        merchant_reference: order.merchant_reference,
        transaction_status: '14',
        transaction_code: '14000',
        transaction_message: 'Success',
        authorized_amount: 250_000,
        captured_amount: 250_000,
        refunded_amount: 0,
      });
    });

    it('authorizes, in Arabic, and the status shows the hold', async () => {
      const order = newOrder();
      const post = await formPost(ROUTES.hostedPage, { merchant_reference: order.merchant_reference, language: 'ar', command: 'AUTHORIZATION' });
      const { result } = await followReturn(await payOnHostedPage(post, testCard('success', 'MASTERCARD').number));
      assert.equal(result.body['response_code'], '02000');
      assert.equal(result.body['response_message'], 'تمت العملية بنجاح');
      const held = await status(order.merchant_reference);
      assert.equal(held['authorized_amount'], 250_000);
      assert.equal(held['captured_amount'], 0);
    });

    for (const [outcome, code] of [
      ['decline', '13001'],
      ['insufficient_funds', '13002'],
      ['invalid_card', '13003'],
    ] as const satisfies readonly (readonly [CardOutcome, string])[]) {
      it(`reports the ${outcome} card as a failure (${code})`, async () => {
        const order = newOrder();
        const post = await formPost(ROUTES.hostedPage, { merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE' });
        const { result } = await followReturn(await payOnHostedPage(post, testCard(outcome).number));
        assert.equal(result.body['outcome'], 'failure');
        assert.equal(result.body['response_code'], code);
      });
    }

    it('passes the 3-D Secure card through the challenge page', async () => {
      const order = newOrder();
      const post = await formPost(ROUTES.hostedPage, { merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE' });
      const redirected = await payOnHostedPage(post, testCard('3ds').number);
      assert.equal(redirected.status, 303);
      const { result } = await followReturn(await challenge(redirected.headers.get('location') ?? '', 'approve'));
      assert.equal(result.body['outcome'], 'success');
    });

    it('reports a failed challenge (13004)', async () => {
      const order = newOrder();
      const post = await formPost(ROUTES.hostedPage, { merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE' });
      const redirected = await payOnHostedPage(post, testCard('3ds', 'MASTERCARD').number);
      const { result } = await followReturn(await challenge(redirected.headers.get('location') ?? '', 'fail'));
      assert.equal(result.body['outcome'], 'failure');
      assert.equal(result.body['response_code'], '13004');
    });

    it('returns the installment plan chosen on the page (STANDALONE)', async () => {
      const order = newOrder({ amount: 600_000 });
      const post = await formPost(ROUTES.hostedPage, {
        merchant_reference: order.merchant_reference,
        language: 'en',
        command: 'PURCHASE',
        installments: 'STANDALONE',
      });
      const { gatewayFields, result } = await followReturn(
        await payOnHostedPage(post, testCard('success').number, { installment_plan: 'EGFIX1:EGX12' }),
      );
      assert.equal(result.body['outcome'], 'success');
      assert.deepEqual(
        [gatewayFields['installments'], gatewayFields['number_of_installments'], gatewayFields['plan_code'], gatewayFields['issuer_code']],
        ['STANDALONE', '12', undefined, undefined],
      );
    });
  });

  describe('merchant page 2.0', () => {
    /** The merchant page: the endpoint's signed fields plus the card typed in the browser. */
    async function tokenize(body: Record<string, unknown>, card: string): Promise<Response> {
      const post = await formPost(ROUTES.merchantPage, body);
      assert.equal(post.fields['service_command'], 'TOKENIZATION');
      return submit(post.action, {
        ...post.fields,
        card_number: card,
        expiry_date: FUTURE_EXPIRY.yymm,
        card_security_code: '123',
        card_holder_name: 'Test Buyer',
      });
    }

    it('tokenizes, and the endpoint completes the PURCHASE with the token', async () => {
      const order = newOrder();
      const { gatewayFields, result } = await followReturn(
        await tokenize({ merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE' }, testCard('success').number),
      );
      assert.equal(gatewayFields['response_code'], '18000');
      assert.ok(gatewayFields['token_name']);
      assert.equal(result.body['outcome'], 'success');
      assert.equal(result.body['response_code'], '14000');
      const stored = gateway.order({ merchantReference: order.merchant_reference });
      assert.equal(stored?.channel, 'token');
      assert.equal(stored?.card?.tokenName, gatewayFields['token_name']);
    });

    it('completes an AUTHORIZATION with a plan chosen on the merchant’s page (hosted checkout, installments HOSTED)', async () => {
      const order = newOrder({ amount: 600_000 });
      const { result } = await followReturn(
        await tokenize(
          { merchant_reference: order.merchant_reference, language: 'en', command: 'AUTHORIZATION', plan_code: 'EGR12', issuer_code: 'EGMIX1' },
          testCard('success', 'MASTERCARD').number,
        ),
      );
      assert.equal(result.body['response_code'], '02000');
      assert.deepEqual(gateway.order({ merchantReference: order.merchant_reference })?.installments, {
        issuerCode: 'EGMIX1',
        planCode: 'EGR12',
        months: 12,
      });
    });

    it('sends the 3-D Secure card to the challenge, whose signed result returns to the endpoint', async () => {
      const order = newOrder();
      const returned = await tokenize({ merchant_reference: order.merchant_reference, language: 'en' }, testCard('3ds').number);
      const html = await returned.text();
      const toEndpoint = await submit(formAction(html), hiddenFields(html));
      assert.equal(toEndpoint.status, 303, 'the endpoint sends the customer to the 3ds_url');
      const { result } = await followReturn(await challenge(toEndpoint.headers.get('location') ?? '', 'approve'));
      assert.equal(result.body['outcome'], 'success');
      assert.equal(result.body['response_code'], '14000');
    });

    it('reports a declined token charge', async () => {
      const order = newOrder();
      const { result } = await followReturn(
        await tokenize({ merchant_reference: order.merchant_reference, language: 'en' }, testCard('decline').number),
      );
      assert.equal(result.body['outcome'], 'failure');
      assert.equal(result.body['response_code'], '13001');
    });
  });

  describe('installment plans', () => {
    it('lists the fixture plans that fit the order', async () => {
      const order = newOrder({ amount: 300_000, currency: 'AED' });
      const answer = await callEndpoint(ROUTES.installmentPlans, { merchant_reference: order.merchant_reference, language: 'en' });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const issuers = answer.body['issuers'] as { issuer_code: string; plan_details: { plan_code: string }[] }[];
      assert.deepEqual(
        issuers.map((issuer) => [issuer.issuer_code, issuer.plan_details.map((plan) => plan.plan_code)]),
        [
          ['AEFLAT1', ['AEF03', 'AEF06', 'AEF12']],
          ['AEISLM1', ['AEI06', 'AEI12']],
        ],
      );
    });
  });

  describe('cash bill', () => {
    it('issues a bill, shows it issued, and cancels it once its expiry passes unpaid', async () => {
      const order = newOrder();
      const answer = await callEndpoint(ROUTES.bill, { merchant_reference: order.merchant_reference, language: 'en' });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.match(String(answer.body['bill_number']), /^\d{14}$/);
      assert.equal((await status(order.merchant_reference))['transaction_code'], '30000');
      clock.advance(48 * 3_600_000);
      const expired = await status(order.merchant_reference);
      assert.equal(expired['transaction_code'], '31001');
      assert.equal(expired['transaction_message'], 'Bill expired');
    });

    it('shows a bill paid through the sandbox tool as captured', async () => {
      const order = newOrder();
      const answer = await callEndpoint(ROUTES.bill, { merchant_reference: order.merchant_reference, language: 'en' });
      const paid = await fetch(`${origin}${gateway.paths.tools}/pay-bill`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bill_number: answer.body['bill_number'] }),
      });
      assert.equal(paid.status, 200);
      const after = await status(order.merchant_reference);
      assert.equal(after['transaction_code'], '14000');
      assert.equal(after['captured_amount'], 250_000);
    });
  });

  describe('consumer financing', () => {
    it('verifies, sends the OTP, refuses a wrong one, accepts the sandbox OTP and completes the purchase', async () => {
      const order = newOrder({ amount: 1_200_000 });
      const reference = order.merchant_reference;
      const verified = await callEndpoint(ROUTES.financingVerifyCustomer, {
        merchant_reference: reference,
        language: 'en',
        phone_number: REGISTERED_FINANCING_PHONE,
      });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      const otp = await callEndpoint(ROUTES.financingOtp, { merchant_reference: reference, language: 'en', flow: verified.body['flow'] });
      assert.equal(otp.status, 200, JSON.stringify(otp.body));
      assert.equal(otp.body['down_payment'], 120_000);
      assert.deepEqual(otp.body['tenure_months'], [3, 6, 12]);

      const wrong = await callEndpoint(ROUTES.financingVerifyOtp, {
        merchant_reference: reference,
        language: 'en',
        flow: otp.body['flow'],
        otp: '000000',
      });
      assert.equal((wrong.body['error'] as Record<string, unknown>)['response_code'], '93001');

      const right = await callEndpoint(ROUTES.financingVerifyOtp, {
        merchant_reference: reference,
        language: 'en',
        flow: otp.body['flow'],
        otp: SANDBOX_OTP,
      });
      assert.equal(right.status, 200, JSON.stringify(right.body));
      assert.deepEqual(right.body['tenures'], [
        { months: 3, emi: 360_000, interest_rate: '0' },
        { months: 6, emi: 189_000, interest_rate: '5' },
        { months: 12, emi: 99_000, interest_rate: '10' },
      ]);

      const purchase = await callEndpoint(ROUTES.financingPurchase, {
        merchant_reference: reference,
        language: 'en',
        flow: right.body['flow'],
        tenure: 6,
      });
      assert.equal(purchase.status, 200, JSON.stringify(purchase.body));
      assert.equal(purchase.body['outcome'], 'success');
      assert.equal(purchase.body['response_code'], '14000');
      assert.equal((await status(reference))['captured_amount'], 1_200_000);
    });

    it('refuses the unregistered phone number (91001)', async () => {
      const order = newOrder();
      const answer = await callEndpoint(ROUTES.financingVerifyCustomer, {
        merchant_reference: order.merchant_reference,
        language: 'en',
        phone_number: UNREGISTERED_FINANCING_PHONE,
      });
      assert.equal((answer.body['error'] as Record<string, unknown>)['response_code'], '91001');
    });
  });

  describe('refusals', () => {
    it('answers a tampered form post with a signed 00008 that the endpoint reports as a failure', async () => {
      const order = newOrder();
      const post = await formPost(ROUTES.hostedPage, { merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE' });
      const { gatewayFields, result } = await followReturn(await submit(post.action, { ...post.fields, amount: '1' }));
      assert.equal(gatewayFields['response_code'], '00008');
      assert.equal(result.body['outcome'], 'failure');
      assert.equal(gateway.order({ merchantReference: order.merchant_reference }), undefined, 'no order was created');
    });

    it('refuses to pay an order twice (00005), and reports the paid order, not the refusal', async () => {
      const order = newOrder();
      const body = { merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE' };
      const second = await formPost(ROUTES.hostedPage, body);
      await followReturn(await payOnHostedPage(await formPost(ROUTES.hostedPage, body), testCard('success').number));
      const { gatewayFields, result } = await followReturn(await submit(second.action, second.fields));
      assert.equal(gatewayFields['response_code'], '00005');
      assert.equal(result.body['outcome'], 'success', 'CHECK_STATUS says the order is paid');
      assert.equal(store.resultOf(order.merchant_reference)?.outcome, 'success');
      assert.equal(gateway.orders().filter((stored) => stored.merchantReference === order.merchant_reference).length, 1);
    });

    it('refuses to sign another form for an order paid at the gateway (order_already_paid)', async () => {
      const order = newOrder();
      const body = { merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE' };
      await followReturn(await payOnHostedPage(await formPost(ROUTES.hostedPage, body), testCard('success').number));
      const again = await callEndpoint(ROUTES.hostedPage, body);
      assert.equal(again.status, 409);
      assert.equal((again.body['error'] as Record<string, unknown>)['code'], 'order_already_paid');
    });

    it('reports a forged return post as unverified', async () => {
      const order = newOrder();
      const post = await formPost(ROUTES.hostedPage, { merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE' });
      const html = await (await payOnHostedPage(post, testCard('decline').number)).text();
      const forged = { ...hiddenFields(html), response_code: '14000', status: '14' };
      const back = await submit(formAction(html), forged);
      assert.equal(back.status, 400);
      assert.equal(((await back.json()) as { error: { code: string } }).error.code, 'gateway_signature_invalid');
    });
  });
});
