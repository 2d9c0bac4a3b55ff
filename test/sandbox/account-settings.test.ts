/**
 * The account settings of issue 23 end to end: the merchant endpoint configured with the account's
 * Check 3-D Secure and CVV suppression, against the sandbox gateway holding the same account, with
 * this test as the customer's browser (the endpoint's signed form plus the typed card, posted to
 * the gateway; the gateway's return posted back to the endpoint), as `<pg-checkout
 * mode="merchant-page">` does.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formPostResult, orderResult } from '../../src/core/endpoint-api.ts';
import type { EndpointConfig, VerifiedResult } from '../../src/server/config.ts';
import { createMerchantEndpoint, type MerchantEndpoint } from '../../src/server/endpoint.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { createSandboxGateway, type SandboxGateway } from '../../src/sandbox/gateway.ts';
import { endpointCredentials, SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { formAction, FUTURE_EXPIRY, hiddenFields, START } from './support.ts';
import { parse } from '../../src/core/shape.ts';

const SANDBOX = 'https://sandbox.test';
const SHOP = 'https://shop.example';
const ORDER = 'order-1';

interface Shop {
  readonly endpoint: MerchantEndpoint;
  readonly gateway: SandboxGateway;
  readonly results: VerifiedResult[];
  /** The element's call to the endpoint. */
  call(route: string, body: Record<string, unknown>): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The browser submitting a form to the gateway or the endpoint (never following a redirect by itself). */
  submit(action: string, fields: Record<string, string>): Promise<Response>;
}

/** A shop whose endpoint holds `settings`, paying into the sandbox account `account`. */
function shop(account: SandboxMerchant, settings: Partial<EndpointConfig> = {}): Shop {
  const gateway = createSandboxGateway({ merchants: [account], now: () => new Date(START) });
  const orders = new InMemoryOrderStore([{ merchant_reference: ORDER, amount: 250_000, currency: 'EGP', description: 'Headphones' }]);
  const results: VerifiedResult[] = [];
  const endpoint = createMerchantEndpoint({
    ...endpointCredentials(account),
    gatewayBaseUrl: SANDBOX,
    checkoutUrl: SANDBOX,
    apiRoot: 'FortAPI',
    publicUrl: SHOP,
    basePath: '/pg',
    resolveOrder: orders.resolve,
    resultUrl: '/result',
    onResult: (result) => void results.push(result),
    now: () => new Date(START),
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => gateway.handle(new Request(input, init))) as typeof fetch,
    ...settings,
  });
  return {
    endpoint,
    gateway,
    results,
    async call(route, body) {
      const request = new Request(`${SHOP}/pg${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const response = await endpoint(request);
      return { status: response.status, body: await response.json() };
    },
    submit(action, fields) {
      const request = new Request(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      return new URL(action).origin === SANDBOX ? gateway.handle(request) : endpoint(request, { clientAddress: '198.51.100.4' });
    },
  };
}

/**
 * The merchant page: the endpoint signs the TOKENIZATION, the browser adds the card and posts it to
 * the gateway, and the gateway's signed return goes back to the endpoint, which completes the
 * payment. Answers the endpoint's answer to that return.
 */
async function payOnMerchantPage(on: Shop, card: Record<string, string>, tokenization = '18000'): Promise<Response> {
  const signedForm = await on.call('/merchant-page', { merchant_reference: ORDER, language: 'en' });
  assert.equal(signedForm.status, 200, JSON.stringify(signedForm.body));
  const form = parse(formPostResult, signedForm.body);
  const page = await (await on.submit(form.action, { ...form.fields, ...card })).text();
  const returned = hiddenFields(page);
  assert.equal(returned['response_code'], tokenization, `the gateway's answer to the card: ${returned['response_message']}`);
  return on.submit(formAction(page), returned);
}

function landing(response: Response): Record<string, string> {
  assert.equal(response.status, 303);
  const location = new URL(response.headers.get('location') ?? '');
  return Object.fromEntries(location.searchParams);
}

const enrolled = { card_number: testCard('3ds').number, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123' };

describe('Check 3-D Secure through the endpoint', () => {
  it('pays an enrolled card without the challenge when the account skips 3-D Secure (check3ds NO)', async () => {
    const skipping = shop(SANDBOX_MERCHANT, { check3ds: 'NO' });
    const answer = await payOnMerchantPage(skipping, enrolled);
    assert.deepEqual(landing(answer), { merchant_reference: ORDER, outcome: 'success', response_code: '14000' });
    assert.equal(skipping.gateway.order({ merchantReference: ORDER })?.state, 'captured');
    assert.equal(skipping.results[0]?.outcome, 'success');
  });

  it('sends the same card to the challenge without the setting, as before', async () => {
    const plain = shop(SANDBOX_MERCHANT);
    const answer = await payOnMerchantPage(plain, enrolled);
    assert.equal(answer.status, 303);
    assert.match(answer.headers.get('location') ?? '', /\/FortAPI\/3ds\/challenge\?id=/);
    assert.equal(plain.gateway.order({ merchantReference: ORDER })?.state, 'pending_3ds');
  });

  it('is refused (00014) by an account without the service, and reported as a failure', async () => {
    const basic = shop(SANDBOX_MERCHANT_BASIC, { check3ds: 'NO' });
    const answer = await payOnMerchantPage(basic, enrolled);
    assert.deepEqual(landing(answer), { merchant_reference: ORDER, outcome: 'failure', response_code: '00014' });
    assert.equal(basic.gateway.order({ merchantReference: ORDER }), undefined, 'nothing was charged');
  });
});

describe('CVV suppression through the endpoint', () => {
  const withoutCvv = { card_number: testCard('success').number, expiry_date: FUTURE_EXPIRY.yymm };

  it('tells the element, and a card without its security code pays (14000) where the account has the setting', async () => {
    const suppressing = shop(SANDBOX_MERCHANT, { cvvSuppression: true });
    const order = parse(orderResult, (await suppressing.call('/order', { merchant_reference: ORDER, language: 'en' })).body);
    assert.equal(order.cvv_optional, true);
    const answer = await payOnMerchantPage(suppressing, withoutCvv);
    assert.deepEqual(landing(answer), { merchant_reference: ORDER, outcome: 'success', response_code: '14000' });
    assert.equal(suppressing.gateway.order({ merchantReference: ORDER })?.state, 'captured');
  });

  it('is refused by the gateway (00001) for an account without the setting, and nothing is charged', async () => {
    const account: SandboxMerchant = { ...SANDBOX_MERCHANT, services: { cvv_suppression: false } };
    const plain = shop(account);
    const order = parse(orderResult, (await plain.call('/order', { merchant_reference: ORDER, language: 'en' })).body);
    assert.equal(order.cvv_optional, undefined, 'the element keeps the security code required');
    const answer = await payOnMerchantPage(plain, withoutCvv, '00001');
    assert.deepEqual(landing(answer), { merchant_reference: ORDER, outcome: 'failure', response_code: '00001' });
    assert.equal(plain.gateway.order({ merchantReference: ORDER }), undefined);
  });
});
