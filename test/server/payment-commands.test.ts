/**
 * Whether the money is taken now (PURCHASE) or only held (AUTHORIZATION) is the merchant's
 * decision, like the amount: the browser may ask only for what `paymentCommands` allows, or for
 * the order's own `command` when the merchant sets one. An authorization reads as a success; a
 * shop that ships on success and never captures would otherwise ship goods the gateway later voids.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { endpointError, formPostResult, ROUTES } from '../../src/core/endpoint-api.ts';
import { parse } from '../../src/core/shape.ts';
import type { EndpointConfig } from '../../src/server/config.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { allLogs, setup, type Answer, type Harness } from './harness.ts';

const harnesses: Harness[] = [];
afterEach(() => {
  for (const harness of harnesses.splice(0)) assert.deepEqual(harness.gateway.problems, []);
});

function shop(overrides: Partial<EndpointConfig> = {}): Harness {
  const harness = setup(overrides);
  // Pre-orders are authorized and captured when they ship; the rest is purchased.
  harness.orders.add({ merchant_reference: 'preorder-1', amount: 99_900, currency: 'EGP', command: 'AUTHORIZATION' });
  harness.orders.add({ merchant_reference: 'instock-1', amount: 19_900, currency: 'EGP', command: 'PURCHASE' });
  harnesses.push(harness);
  return harness;
}

/** The three ways an element asks for a payment: the hosted page, the merchant page, the embedded page. */
const PAYMENT_REQUESTS = [
  ['the hosted page', ROUTES.hostedPage, {}],
  ['the merchant page', ROUTES.merchantPage, {}],
  ['the embedded page', ROUTES.merchantPage, { framed: true, embedded: true }],
] as const;

/** The command a form was signed for: the hosted page's own, or the merchant page's completion choice. */
function signedCommand(answer: Answer): string | undefined {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const form = parse(formPostResult, answer.body);
  return form.fields['command'] ?? form.fields['merchant_extra1'];
}

function commandRefusal(answer: Answer) {
  assert.equal(answer.status, 403);
  assert.equal(answer.body.fields, undefined, 'no form');
  return parse(endpointError, answer.body).error;
}

describe('when the merchant sets nothing: the browser may ask for a purchase only', () => {
  for (const [name, route, extra] of PAYMENT_REQUESTS) {
    it(`refuses an AUTHORIZATION on ${name} with 403 command_refused naming command; nothing is signed and the gateway is not asked`, async () => {
      const harness = shop();
      const answer = await harness.post(route, { merchant_reference: 'order-1001', language: 'en', command: 'AUTHORIZATION', ...extra });
      assert.deepEqual(commandRefusal(answer), {
        code: 'command_refused',
        field: 'command',
        message: 'This operation cannot be requested from the browser.',
      });
      assert.equal(harness.gateway.calls.length, 0, 'not even CHECK_STATUS');
      assert.ok(!allLogs(harness).includes('"signature"'));
      assert.match(allLogs(harness), /"event":"payment_command_refused".*"allowed":"paymentCommands"/);
    });
  }

  it('refuses it in Arabic when the request is in Arabic', async () => {
    const harness = shop();
    const answer = await harness.post(ROUTES.hostedPage, { merchant_reference: 'order-1001', language: 'ar', command: 'AUTHORIZATION' });
    assert.deepEqual(commandRefusal(answer), { code: 'command_refused', field: 'command', message: 'لا يمكن طلب هذه العملية من المتصفح.' });
    assert.equal(harness.gateway.calls.length, 0);
  });

  it('signs a PURCHASE, and completes a merchant page that names no command with PURCHASE', async () => {
    const harness = shop();
    assert.equal(signedCommand(await harness.post(ROUTES.hostedPage, { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' })), 'PURCHASE');
    assert.equal(signedCommand(await harness.post(ROUTES.merchantPage, { merchant_reference: 'order-2002', language: 'en' })), 'PURCHASE');
  });
});

describe('when the merchant allows authorizations (paymentCommands)', () => {
  for (const [name, route, extra] of PAYMENT_REQUESTS) {
    it(`signs an AUTHORIZATION on ${name}`, async () => {
      const harness = shop({ paymentCommands: ['PURCHASE', 'AUTHORIZATION'] });
      const answer = await harness.post(route, { merchant_reference: 'order-1001', language: 'en', command: 'AUTHORIZATION', ...extra });
      assert.equal(signedCommand(answer), 'AUTHORIZATION');
    });
  }

  it('uses the first allowed when the browser names none, and refuses a PURCHASE it does not allow', async () => {
    const harness = shop({ paymentCommands: ['AUTHORIZATION'] });
    assert.equal(signedCommand(await harness.post(ROUTES.merchantPage, { merchant_reference: 'order-1001', language: 'en' })), 'AUTHORIZATION');
    const purchase = await harness.post(ROUTES.hostedPage, { merchant_reference: 'order-2002', language: 'en', command: 'PURCHASE' });
    assert.equal(commandRefusal(purchase).field, 'command');
  });
});

describe('when the order names its own command', () => {
  it('signs the order’s AUTHORIZATION though the endpoint allows purchases only, which still holds for the other orders', async () => {
    const harness = shop();
    assert.equal(signedCommand(await harness.post(ROUTES.hostedPage, { merchant_reference: 'preorder-1', language: 'en', command: 'AUTHORIZATION' })), 'AUTHORIZATION');
    const other = await harness.post(ROUTES.hostedPage, { merchant_reference: 'order-1001', language: 'en', command: 'AUTHORIZATION' });
    assert.equal(commandRefusal(other).code, 'command_refused');
  });

  it('refuses the other command, whatever the endpoint allows', async () => {
    const harness = shop({ paymentCommands: ['PURCHASE', 'AUTHORIZATION'] });
    for (const [reference, other] of [['preorder-1', 'PURCHASE'], ['instock-1', 'AUTHORIZATION']] as const) {
      const answer = await harness.post(ROUTES.hostedPage, { merchant_reference: reference, language: 'en', command: other });
      assert.deepEqual(commandRefusal(answer).code, 'command_refused', `${reference} ${other}`);
    }
    assert.equal(harness.gateway.calls.length, 0);
    assert.match(allLogs(harness), /"event":"payment_command_refused".*"allowed":"order"/);
  });

  it('completes with the order’s command when the browser names none, on the merchant page and the embedded page', async () => {
    const harness = shop({ paymentCommands: ['PURCHASE'] });
    for (const extra of [{}, { framed: true, embedded: true }]) {
      const answer = await harness.post(ROUTES.merchantPage, { merchant_reference: 'preorder-1', language: 'en', ...extra });
      assert.equal(signedCommand(answer), 'AUTHORIZATION');
    }
  });

  it('is refused when it is neither PURCHASE nor AUTHORIZATION, by the order store and by the endpoint', async () => {
    assert.throws(
      () => new InMemoryOrderStore([{ merchant_reference: 'odd-1', amount: 100, currency: 'EGP', command: 'CAPTURE' as 'PURCHASE' }]),
      /command: PURCHASE or AUTHORIZATION/,
    );
    // A resolver in plain JavaScript answering a command nobody allowed: nothing is signed.
    const harness = shop({ resolveOrder: () => ({ merchant_reference: 'odd-1', amount: 100, currency: 'EGP', command: 'purchase' as 'PURCHASE' }) });
    const answer = await harness.post(ROUTES.merchantPage, { merchant_reference: 'odd-1', language: 'en' });
    assert.equal(answer.status, 500);
    assert.equal(answer.body.fields, undefined);
    assert.equal(harness.gateway.calls.length, 0);
    assert.match(allLogs(harness), /"event":"order_command_invalid"/);
  });
});
