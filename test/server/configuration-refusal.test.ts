/**
 * An endpoint whose settings are not the gateway's: a wrong SHA request phrase (00008 signature
 * mismatch), or a wrong access code or merchant identifier the gateway still answers signed
 * (00006). The gateway refuses every request it signs, so nothing is ever started: the endpoint
 * sends no customer to the gateway, shows a customer who comes back anyway a failure (never
 * "Payment pending"), watches nothing, and tells the operator which settings to check, never
 * their values.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formPostResult } from '../../src/core/endpoint-api.ts';
import { parse } from '../../src/core/shape.ts';
import { expectedStatus, type KnownResponseCode } from '../../src/core/response.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createMerchantEndpoint } from '../../src/server/endpoint.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { createSandboxGateway } from '../../src/sandbox/gateway.ts';
import { SANDBOX_MERCHANT } from '../../src/sandbox/merchants.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { formAction, hiddenFields } from '../sandbox/support.ts';
import { RETURN_URL, setup, type Harness } from './harness.ts';
import { signedAnswer, signedTokenization } from './support/returns.ts';
import { formPost, sandboxFetch, sandboxSettings } from './support/worlds.ts';

const HINT = "check PG_SHA_REQUEST_PHRASE, PG_SHA_TYPE, PG_ACCESS_CODE and PG_MERCHANT_IDENTIFIER against the gateway's back office";
const WRONG_PHRASE = 'not-the-back-office-phrase-5e1d';
const SHOP = 'https://shop.example';

type LogLine = Record<string, unknown> & { readonly event: string; readonly level: string };

function parsed(logs: readonly string[]): LogLine[] {
  return logs.map((line) => JSON.parse(line) as LogLine);
}

/** The walkthrough: `serve --sandbox` as the gateway, and a second endpoint pointed at it with a wrong PG_SHA_REQUEST_PHRASE. */
function walkthrough() {
  const gateway = createSandboxGateway({ merchants: [SANDBOX_MERCHANT], apiRoot: 'FortAPI' });
  const store = createMemoryStore();
  const logs: string[] = [];
  const results: VerifiedResult[] = [];
  const endpoint = createMerchantEndpoint({
    ...sandboxSettings(),
    requestPhrase: WRONG_PHRASE,
    resolveOrder: new InMemoryOrderStore([{ merchant_reference: 'shop-1', amount: 250_000, currency: 'EGP', description: 'Headphones' }]).resolve,
    resultUrl: '/result',
    store,
    onResult: (result) => void results.push(result),
    logger: createJsonLogger((line) => logs.push(line)),
    fetch: sandboxFetch(gateway),
  });
  return {
    gateway,
    store,
    logs,
    results,
    endpoint,
    async post(route: string, body: unknown) {
      const response = await endpoint(
        new Request(`${SHOP}/pg${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      );
      return { status: response.status, body: await response.json() };
    },
  };
}

describe('an endpoint with a wrong SHA request phrase, against the sandbox gateway', () => {
  it('refuses to start a payment (501 service_not_configured), signs nothing, and logs the settings to check', async () => {
    const w = walkthrough();
    for (const [route, body] of [
      ['/hosted-page', { merchant_reference: 'shop-1', language: 'en', command: 'PURCHASE' }],
      ['/merchant-page', { merchant_reference: 'shop-1', language: 'en' }],
      ['/save-card', { merchant_reference: 'shop-1', language: 'en' }],
      ['/bill', { merchant_reference: 'shop-1', language: 'en' }],
      ['/financing/verify-customer', { merchant_reference: 'shop-1', language: 'en', phone_number: '01012345678' }],
    ] as const) {
      const answer = await w.post(route, body);
      assert.equal(answer.status, 501, route);
      assert.equal(answer.body.error.code, 'service_not_configured', route);
      assert.ok(!JSON.stringify(answer.body).includes('signature'), `${route}: no signed form`);
    }
    assert.equal(await w.store.watches.get('shop-1'), undefined, 'nothing to watch: nothing was started');
    const refused = parsed(w.logs).filter((line) => line.event === 'gateway_configuration_refused');
    assert.equal(refused.length, 5);
    for (const line of refused) {
      assert.equal(line.level, 'error');
      assert.equal(line['operation'], 'CHECK_STATUS');
      assert.equal(line['response_code'], '00008');
      assert.equal(line['hint'], HINT);
    }
    assert.ok(!parsed(w.logs).some((line) => line.event === 'order_status_unknown'), 'a refusal, not an unknown state');
    const everything = w.logs.join('\n');
    for (const secret of [WRONG_PHRASE, SANDBOX_MERCHANT.requestPhrase, SANDBOX_MERCHANT.responsePhrase, SANDBOX_MERCHANT.accessCode]) {
      assert.ok(!everything.includes(secret), 'no phrase or access code in the logs');
    }
  });

  it('shows the customer who comes back with the gateway’s signed 00008 a failure, not "pending", reports it once and watches nothing', async () => {
    const w = walkthrough();
    // A form signed with the wrong phrase before this endpoint refused to sign one (an older page,
    // or a pre-payment check that went unanswered), posted by the customer's browser to the gateway.
    const sandboxShop = createMerchantEndpoint({
      ...sandboxSettings(),
      requestPhrase: WRONG_PHRASE,
      resolveOrder: new InMemoryOrderStore([{ merchant_reference: 'shop-1', amount: 250_000, currency: 'EGP' }]).resolve,
      // The pre-payment question goes unanswered: the form is signed.
      fetch: (async () => {
        throw new TypeError('fetch failed');
      }) as typeof fetch,
    });
    const signed = await sandboxShop(
      new Request(`${SHOP}/pg/hosted-page`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchant_reference: 'shop-1', language: 'en', command: 'PURCHASE' }),
      }),
    );
    const form = parse(formPostResult, await signed.json());
    const page = await w.gateway.handle(formPost(form.action, form.fields));
    const html = await page.text();
    const back = { action: formAction(html), fields: hiddenFields(html) };
    assert.equal(back.fields['response_code'], '00008');

    const returned = await w.endpoint(formPost(back.action, back.fields), { clientAddress: '198.51.100.4' });
    assert.equal(returned.status, 303);
    const location = new URL(returned.headers.get('location') ?? '');
    assert.equal(location.searchParams.get('outcome'), 'failure');
    assert.equal(location.searchParams.get('response_code'), '00008');
    assert.notEqual(location.searchParams.get('error'), 'gateway_unreachable');

    assert.equal(w.results.length, 1, 'reported once, as a failure');
    assert.deepEqual(
      [w.results[0]?.outcome, w.results[0]?.order_state, w.results[0]?.response_code, w.results[0]?.idempotency_key, w.results[0]?.error],
      ['failure', 'failed', '00008', 'shop-1:00008', 'service_not_configured'],
    );
    assert.equal(await w.store.watches.get('shop-1'), undefined, 'no day-long watch');
    const lines = parsed(w.logs);
    assert.ok(!lines.some((line) => line.event === 'result_unconfirmed'));
    const returnRefusal = lines.find((line) => line.event === 'gateway_configuration_refused' && line['operation'] === 'PURCHASE');
    assert.deepEqual(
      [returnRefusal?.level, returnRefusal?.['merchant_reference'], returnRefusal?.['response_code'], returnRefusal?.['hint']],
      ['error', 'shop-1', '00008', HINT],
    );

    // Posted again: the same failure, reported once.
    const again = await w.endpoint(formPost(back.action, back.fields), { clientAddress: '198.51.100.4' });
    assert.equal(new URL(again.headers.get('location') ?? '').searchParams.get('outcome'), 'failure');
    assert.equal(w.results.length, 1);
  });
});

/** The gateway's signed return of a hosted-page PURCHASE of order-1001 (EGP 2,500.00) with `code`. */
function signedReturn(code: KnownResponseCode, status: string = expectedStatus(code)): Promise<Record<string, string>> {
  return signedAnswer(
    code,
    { merchant_reference: 'order-1001', command: 'PURCHASE', amount: '250000', currency: 'EGP', customer_email: 'buyer@example.com' },
    status,
  );
}

describe('a gateway refusal for the merchant’s settings, with the in-test gateway', () => {
  let store = createMemoryStore();
  let harness: Harness = setup({ store, resultLedger: undefined });

  beforeEach(() => {
    store = createMemoryStore();
    harness = setup({ store, resultLedger: undefined });
  });

  afterEach(() => {
    assert.deepEqual(harness.gateway.problems, []);
  });

  for (const code of ['00008', '00006'] as const) {
    it(`refuses every way to start a payment when CHECK_STATUS is answered ${code}, and starts nothing`, async () => {
      harness.gateway.answer('CHECK_STATUS', () => ({ code }));
      for (const [route, body] of [
        ['/hosted-page', { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' }],
        ['/merchant-page', { merchant_reference: 'order-1001', language: 'ar' }],
        ['/bill', { merchant_reference: 'order-1001', language: 'en' }],
        ['/financing/verify-customer', { merchant_reference: 'order-1001', language: 'en', phone_number: '01012345678' }],
      ] as const) {
        const answer = await harness.post(route, body);
        assert.equal(answer.status, 501, route);
        assert.equal(answer.body.error.code, 'service_not_configured');
      }
      for (const operation of ['TOKEN_PAYMENT', 'BILL_PRESENTMENT', 'CUSTOMER_VERIFY'] as const) {
        assert.equal(harness.gateway.callsOf(operation).length, 0, operation);
      }
      const refused = parsed(harness.logs).filter((line) => line.event === 'gateway_configuration_refused');
      assert.equal(refused.length, 4);
      assert.ok(refused.every((line) => line['response_code'] === code && line['hint'] === HINT));
    });
  }

  it('still starts the payment when CHECK_STATUS is refused for the request, not the settings (00002)', async () => {
    harness.gateway.answer('CHECK_STATUS', () => ({ code: '00002' }));
    const answer = await harness.post('/hosted-page', { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' });
    assert.equal(answer.status, 200);
    assert.ok(!parsed(harness.logs).some((line) => line.event === 'gateway_configuration_refused'));
  });

  it('reports the gateway’s refusal of a form altered in the browser (00008, CHECK_STATUS answered) as a failure, not as the settings', async () => {
    const back = await harness.postReturn(await signedReturn('00008'));
    assert.equal(back.status, 303);
    const location = new URL(back.headers.get('location') ?? '', 'https://shop.example');
    assert.equal(location.searchParams.get('outcome'), 'failure');
    assert.deepEqual([harness.results.at(-1)?.response_code, harness.results.at(-1)?.order_state, harness.results.at(-1)?.error], ['00008', 'not_found', undefined]);
    assert.ok(!parsed(harness.logs).some((line) => line.event === 'gateway_configuration_refused'), 'the settings are right: CHECK_STATUS was answered');
  });

  it('reports a 00008 return as a failure of the settings when CHECK_STATUS is refused alike, and watches nothing', async () => {
    harness.gateway.answer('CHECK_STATUS', () => ({ code: '00008' }));
    const back = await harness.postReturn(await signedReturn('00008'));
    const location = new URL(back.headers.get('location') ?? '', 'https://shop.example');
    assert.deepEqual(
      [location.searchParams.get('outcome'), location.searchParams.get('response_code'), location.searchParams.get('error')],
      ['failure', '00008', 'service_not_configured'],
    );
    assert.deepEqual([harness.results.at(-1)?.order_state, harness.results.at(-1)?.error], ['failed', 'service_not_configured']);
    assert.deepEqual(
      parsed(harness.logs)
        .filter((line) => line.event === 'gateway_configuration_refused')
        .map((line) => [line.level, line['operation'], line['response_code'], line['hint']]),
      [
        ['error', 'CHECK_STATUS', '00008', HINT],
        ['error', 'PURCHASE', '00008', HINT],
      ],
    );
    assert.equal(harness.gateway.callsOf('CHECK_STATUS').length, 1, 'asked once');
    assert.equal(await store.watches.get('order-1001'), undefined);
  });

  it('keeps a 00008 return pending while CHECK_STATUS cannot be reached: the settings or an altered form, it cannot tell', async () => {
    harness.gateway.goOffline();
    const back = await harness.postReturn(await signedReturn('00008'));
    const location = new URL(back.headers.get('location') ?? '', 'https://shop.example');
    assert.equal(location.searchParams.get('outcome'), 'pending');
    assert.equal(harness.results.length, 0);
  });

  it('reports a merchant-page charge the gateway refused for the settings (server to server) as such a failure', async () => {
    harness.gateway.answer('TOKEN_PAYMENT', () => ({ code: '00008' }));
    const tokenization = await signedTokenization('order-1001', 'tok-1', { return_url: RETURN_URL, card_number: '400555******0001', expiry_date: '2812' });
    const back = await harness.postReturn(tokenization);
    const location = new URL(back.headers.get('location') ?? '', 'https://shop.example');
    assert.deepEqual([location.searchParams.get('outcome'), location.searchParams.get('error')], ['failure', 'service_not_configured']);
    const refused = parsed(harness.logs).filter((line) => line.event === 'gateway_configuration_refused');
    assert.deepEqual(refused.map((line) => [line['operation'], line['response_code']]), [['PURCHASE', '00008']]);
  });

  it('tells the operator what to check when /status is refused for the settings, and answers it as the gateway’s refusal', async () => {
    harness.gateway.answer('CHECK_STATUS', () => ({ code: '00008' }));
    const answer = await harness.post('/status', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(answer.status, 422);
    assert.deepEqual([answer.body.error.code, answer.body.error.response_code], ['gateway_refused', '00008']);
    assert.ok(parsed(harness.logs).some((line) => line.event === 'gateway_configuration_refused' && line['hint'] === HINT));
  });

  it('keeps a return it cannot read (00008 under another status) pending while CHECK_STATUS is refused: only CHECK_STATUS settles it', async () => {
    harness.gateway.answer('CHECK_STATUS', () => ({ code: '00008' }));
    const back = await harness.postReturn(await signedReturn('00008', '14'));
    const location = new URL(back.headers.get('location') ?? '', 'https://shop.example');
    assert.equal(location.searchParams.get('outcome'), 'pending');
    assert.equal(harness.results.length, 0);
    assert.ok((await store.watches.get('order-1001')) !== undefined, 'watched until the gateway says');
  });
});
