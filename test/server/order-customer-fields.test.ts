/**
 * The customer's e-mail and name are the merchant's, like the amount: the gateway screens payments
 * by e-mail (block and allow lists), so an address the browser chose must not replace the one the
 * shop keeps for the order. When the order has `customer_email` (or `customer_name`), that value
 * is sent whatever the browser sent, on the hosted page, the bill and the financing PURCHASE (as
 * the merchant page's completion already does); the browser's is used only for an order that has
 * none (a guest checkout). A different browser value is ignored, not refused: the elements send
 * their `customer-email` attribute, which the shop's own page sets.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  billResult,
  financingOtpResult,
  financingVerifyCustomerResult,
  financingVerifyOtpResult,
  formPostResult,
} from '../../src/core/endpoint-api.ts';
import { parse } from '../../src/core/shape.ts';
import { customerFieldsFor, InMemoryOrderStore, type MerchantOrder } from '../../src/server/orders.ts';
import { createMerchantEndpoint } from '../../src/server/endpoint.ts';
import { createSandboxGateway } from '../../src/sandbox/gateway.ts';
import { endpointCredentials, SANDBOX_MERCHANT } from '../../src/sandbox/merchants.ts';
import { FRAUD_SCREENING_EMAIL, testCard } from '../../src/sandbox/test-cards.ts';
import { GOOD_OTP } from './fake-gateway.ts';
import { allLogs, setup, type Answer, type Harness } from './harness.ts';

const harnesses: Harness[] = [];
afterEach(() => {
  for (const harness of harnesses.splice(0)) assert.deepEqual(harness.gateway.problems, []);
});

const MERCHANT_EMAIL = 'mona@shop-customers.example';
const MERCHANT_NAME = 'Mona Hassan';
const BROWSER_EMAIL = 'clean@example.com';
const BROWSER_NAME = 'Someone Else';

/** A shop with an order that names its customer, and a guest order that names none. */
function shop(): Harness {
  const harness = setup();
  harness.orders.add({ merchant_reference: 'known-1', amount: 250_000, currency: 'EGP', description: 'Headphones', customer_email: MERCHANT_EMAIL, customer_name: MERCHANT_NAME });
  harness.orders.add({ merchant_reference: 'guest-1', amount: 250_000, currency: 'EGP', description: 'Headphones' });
  harnesses.push(harness);
  return harness;
}

function signedFields(answer: Answer): Record<string, string> {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return parse(formPostResult, answer.body).fields;
}

/** The four financing steps for `reference`, up to the PURCHASE, with `purchase` added to its request. */
async function financeWith(harness: Harness, reference: string, purchase: Record<string, unknown>): Promise<Answer> {
  const order = { merchant_reference: reference, language: 'en' };
  const verified = await harness.post('/financing/verify-customer', { ...order, phone_number: '01001234567' });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  const sent = await harness.post('/financing/otp', { ...order, flow: parse(financingVerifyCustomerResult, verified.body).flow });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const checked = await harness.post('/financing/verify-otp', { ...order, flow: parse(financingOtpResult, sent.body).flow, otp: GOOD_OTP });
  assert.equal(checked.status, 200, JSON.stringify(checked.body));
  return harness.post('/financing/purchase', { ...order, flow: parse(financingVerifyOtpResult, checked.body).flow, tenure: 12, ...purchase });
}

describe('customerFieldsFor: the one rule every route uses', () => {
  const known: MerchantOrder = { merchant_reference: 'k', amount: 1, currency: 'EGP', customer_email: MERCHANT_EMAIL, customer_name: MERCHANT_NAME };
  const guest: MerchantOrder = { merchant_reference: 'g', amount: 1, currency: 'EGP' };

  it('keeps the order’s value whatever the browser sent, and says which browser values it ignored', () => {
    assert.deepEqual(customerFieldsFor(known, { customer_email: BROWSER_EMAIL, customer_name: BROWSER_NAME }, ['customer_email', 'customer_name']), {
      values: { customer_email: MERCHANT_EMAIL, customer_name: MERCHANT_NAME },
      fromBrowser: [],
      ignored: ['customer_email', 'customer_name'],
    });
  });

  it('does not count as ignored a browser value equal to the order’s', () => {
    assert.deepEqual(customerFieldsFor(known, { customer_email: MERCHANT_EMAIL }, ['customer_email']), {
      values: { customer_email: MERCHANT_EMAIL },
      fromBrowser: [],
      ignored: [],
    });
  });

  it('uses the browser’s value for an order that has none (a guest checkout), an empty one included', () => {
    assert.deepEqual(customerFieldsFor(guest, { customer_email: BROWSER_EMAIL }, ['customer_email', 'customer_name']), {
      values: { customer_email: BROWSER_EMAIL },
      fromBrowser: ['customer_email'],
      ignored: [],
    });
    const blank: MerchantOrder = { ...guest, customer_email: '', customer_name: '  ' };
    assert.deepEqual(customerFieldsFor(blank, { customer_name: BROWSER_NAME }, ['customer_email', 'customer_name']), {
      values: { customer_name: BROWSER_NAME },
      fromBrowser: ['customer_name'],
      ignored: [],
    });
  });

  it('sends nothing when neither has a value', () => {
    assert.deepEqual(customerFieldsFor(guest, {}, ['customer_email']), { values: {}, fromBrowser: [], ignored: [] });
  });
});

describe('the hosted page', () => {
  it('signs the order’s customer_email, not the one the browser sent, and does not refuse the request', async () => {
    const harness = shop();
    const fields = signedFields(await harness.post('/hosted-page', { merchant_reference: 'known-1', language: 'en', command: 'PURCHASE', customer_email: BROWSER_EMAIL }));
    assert.equal(fields['customer_email'], MERCHANT_EMAIL);
    assert.ok(!JSON.stringify(fields).includes(BROWSER_EMAIL));
  });

  it('logs that the browser’s value was ignored, by field name only', async () => {
    const harness = shop();
    signedFields(await harness.post('/hosted-page', { merchant_reference: 'known-1', language: 'en', command: 'PURCHASE', customer_email: BROWSER_EMAIL }));
    assert.match(allLogs(harness), /"event":"customer_field_ignored".*"field":"customer_email"/);
    assert.ok(!allLogs(harness).includes(BROWSER_EMAIL), 'the address is not logged');
    assert.ok(!allLogs(harness).includes(MERCHANT_EMAIL), 'nor the order’s');
  });

  it('signs the order’s address when the browser repeats it in another letter case', async () => {
    const harness = shop();
    const fields = signedFields(await harness.post('/hosted-page', { merchant_reference: 'known-1', language: 'en', command: 'PURCHASE', customer_email: MERCHANT_EMAIL.toUpperCase() }));
    assert.equal(fields['customer_email'], MERCHANT_EMAIL);
  });

  it('signs the browser’s customer_email for a guest order, and none when neither has one', async () => {
    const harness = shop();
    const guest = signedFields(await harness.post('/hosted-page', { merchant_reference: 'guest-1', language: 'en', command: 'PURCHASE', customer_email: BROWSER_EMAIL }));
    assert.equal(guest['customer_email'], BROWSER_EMAIL);
    assert.doesNotMatch(allLogs(harness), /customer_field_ignored/);
    const none = signedFields(await harness.post('/hosted-page', { merchant_reference: 'guest-1', language: 'en', command: 'PURCHASE' }));
    assert.equal(none['customer_email'], undefined);
  });

  it('blames the merchant’s data, not the browser, when the order’s own address is one the gateway refuses', async () => {
    const harness = setup({ resolveOrder: () => ({ merchant_reference: 'odd-1', amount: 100, currency: 'EGP', customer_email: 'not an address' }) });
    harnesses.push(harness);
    const answer = await harness.post('/hosted-page', { merchant_reference: 'odd-1', language: 'en', command: 'PURCHASE', customer_email: BROWSER_EMAIL });
    assert.equal(answer.status, 500, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, 'internal_error');
    assert.match(allLogs(harness), /"event":"gateway_request_invalid".*customer_email/);
  });
});

describe('the bill', () => {
  it('sends the order’s customer_email and customer_name, not the browser’s', async () => {
    const harness = shop();
    const answer = await harness.post('/bill', { merchant_reference: 'known-1', language: 'en', customer_email: BROWSER_EMAIL, customer_name: BROWSER_NAME });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    parse(billResult, answer.body);
    const [call] = harness.gateway.callsOf('BILL_PRESENTMENT');
    assert.equal(call?.request['customer_email'], MERCHANT_EMAIL);
    assert.equal(call?.request['customer_name'], MERCHANT_NAME);
    assert.match(allLogs(harness), /"event":"customer_field_ignored".*"field":"customer_name"/);
    assert.match(allLogs(harness), /"event":"customer_field_ignored".*"field":"customer_email"/);
  });

  it('sends the browser’s for a guest order', async () => {
    const harness = shop();
    const answer = await harness.post('/bill', { merchant_reference: 'guest-1', language: 'en', customer_email: BROWSER_EMAIL, customer_name: BROWSER_NAME });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [call] = harness.gateway.callsOf('BILL_PRESENTMENT');
    assert.equal(call?.request['customer_email'], BROWSER_EMAIL);
    assert.equal(call?.request['customer_name'], BROWSER_NAME);
  });

  it('leaves out an order’s name the gateway would refuse rather than send the browser’s instead', async () => {
    const harness = shop();
    harness.orders.add({ merchant_reference: 'digits-1', amount: 250_000, currency: 'EGP', customer_name: 'Customer 42' });
    const answer = await harness.post('/bill', { merchant_reference: 'digits-1', language: 'en', customer_name: BROWSER_NAME });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [call] = harness.gateway.callsOf('BILL_PRESENTMENT');
    assert.equal(call?.request['customer_name'], undefined);
    assert.match(allLogs(harness), /"event":"customer_name_left_out"/);
  });
});

describe('the financing PURCHASE', () => {
  it('sends the order’s customer_email, not the browser’s', async () => {
    const harness = shop();
    const bought = await financeWith(harness, 'known-1', { customer_email: BROWSER_EMAIL });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    const [call] = harness.gateway.callsOf('FINANCING_PURCHASE');
    assert.equal(call?.request['customer_email'], MERCHANT_EMAIL);
    assert.match(allLogs(harness), /"event":"customer_field_ignored".*"field":"customer_email"/);
  });

  it('sends the browser’s for a guest order', async () => {
    const harness = shop();
    const bought = await financeWith(harness, 'guest-1', { customer_email: BROWSER_EMAIL });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    const [call] = harness.gateway.callsOf('FINANCING_PURCHASE');
    assert.equal(call?.request['customer_email'], BROWSER_EMAIL);
  });
});

describe('against the sandbox gateway’s fraud screening by e-mail', () => {
  const SANDBOX = 'https://sandbox.test';
  const SHOP = 'https://shop.example';

  /** The hidden fields of the sandbox's return page. */
  function returned(html: string): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[match[1] ?? ''] = match[2] ?? '';
    return fields;
  }

  it('screens the order’s address: the browser sending a clean one does not get the payment through', async () => {
    const gateway = createSandboxGateway({ merchants: [SANDBOX_MERCHANT], apiRoot: 'FortAPI' });
    const orders = new InMemoryOrderStore([{ merchant_reference: 'o-fraud', amount: 10_000, currency: 'EGP', customer_email: FRAUD_SCREENING_EMAIL }]);
    const endpoint = createMerchantEndpoint({
      ...endpointCredentials(),
      gatewayBaseUrl: SANDBOX,
      checkoutUrl: SANDBOX,
      apiRoot: 'FortAPI',
      publicUrl: SHOP,
      basePath: '/pg',
      resolveOrder: orders.resolve,
      resultUrl: '/result',
      onResult: () => {},
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => gateway.handle(new Request(input, init))) as typeof fetch,
    });
    const formPost = (url: string, fields: Record<string, string>) =>
      gateway.handle(new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }));
    const response = await endpoint(
      new Request(`${SHOP}/pg/hosted-page`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchant_reference: 'o-fraud', language: 'en', command: 'PURCHASE', customer_email: BROWSER_EMAIL }),
      }),
    );
    const form = parse(formPostResult, await response.json());
    const page = await (await formPost(form.action, form.fields)).text();
    const session = /name="session" value="([0-9a-f]+)"/.exec(page)?.[1] ?? '';
    const paid = await formPost(`${SANDBOX}${gateway.paths.pageSubmit}`, {
      session,
      card_number: testCard('success').number,
      expiry_date: '08/29',
      card_security_code: '123',
      card_holder_name: 'Test Buyer',
    });
    assert.equal(returned(await paid.text())['response_code'], '13005', 'rejected by the screening');
  });
});
