/**
 * Saving a card without paying, and the embedded page's signed form: `POST /save-card` signs a
 * TOKENIZATION (the spec's "create new token") for a known, unpaid order of the caller, with the
 * customer's consent; its return charges nothing and is confirmed with GET_TOKENS, not
 * CHECK_STATUS. `POST /merchant-page` signs installments through the gateway's page. A token never
 * reaches the browser.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formPostResult, framedResultMessage } from '../../src/core/endpoint-api.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { installmentsMerchantPageMerchantFields, tokenizationMerchantFields } from '../../src/core/schemas/index.ts';
import { signParams, verifySignature } from '../../src/core/signature.ts';
import { ACCESS_CODE, MERCHANT_IDENTIFIER, REQUEST_PHRASE, RESPONSE_PHRASE } from './fake-gateway.ts';
import { allLogs, BASE_PATH, RETURN_URL, setup, SHOP_ORIGIN, type Answer } from './harness.ts';
import { parse } from '../../src/core/shape.ts';

const harness = setup();

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, [], 'the endpoint sent the gateway a request it would refuse');
  harness.gateway.reset();
  harness.results.length = 0;
  harness.ledger.clear();
});

const ORDER = { merchant_reference: 'order-1001', language: 'en' } as const;

describe('POST /save-card', () => {
  it('signs a TOKENIZATION that says it only saves the card, with the customer’s consent left unsigned', async () => {
    const { status, body } = await harness.post('/save-card', ORDER);
    assert.equal(status, 200);
    const form = parse(formPostResult, body);
    assert.deepEqual(
      { ...form.fields, signature: undefined },
      {
        service_command: 'TOKENIZATION',
        access_code: ACCESS_CODE,
        merchant_identifier: MERCHANT_IDENTIFIER,
        merchant_reference: 'order-1001',
        language: 'en',
        return_url: RETURN_URL,
        merchant_extra1: 'SAVE_CARD',
        remember_me: 'YES',
        signature: undefined,
      },
    );
    assert.equal(form.fields['amount'], undefined, 'nothing to charge: no amount');
    assert.ok(tokenizationMerchantFields.safeParse(form.fields).success);
    // remember_me is posted but, as merchant page 2.0 and the official plugins do, not signed.
    assert.ok((await verifySignature(form.fields, REQUEST_PHRASE, 'sha256', { merchantPage: true })).valid);
    assert.ok(!(await verifySignature(form.fields, REQUEST_PHRASE, 'sha256')).valid);
  });

  it('marks the return URL of a framed flow', async () => {
    const { body } = await harness.post('/save-card', { ...ORDER, framed: true });
    assert.equal(parse(formPostResult, body).fields['return_url'], `${RETURN_URL}?pg_frame=1`);
  });

  it('refuses an order the caller does not have', async () => {
    const { status, body } = await harness.post('/save-card', { ...ORDER, merchant_reference: 'order-9999' });
    assert.equal(status, 404);
    assert.equal(body.error.code, 'unknown_order');
  });

  it('refuses an order that is paid, like every route that starts a payment', async () => {
    harness.gateway.holds('order-1001', 'captured');
    const { status, body } = await harness.post('/save-card', ORDER);
    assert.equal(status, 409);
    assert.equal(body.error.code, 'order_already_paid');
    assert.equal(harness.gateway.callsOf('CHECK_STATUS').length, 1);
  });

  it('refuses card data, a token, a command and the fields only the server sets', async () => {
    for (const [field, value, code] of [
      ['card_number', '4111111111111111', 'card_data_refused'],
      ['token_name', 'someone-elses', 'command_refused'],
      ['command', 'PURCHASE', 'command_refused'],
      ['merchant_extra1', 'PURCHASE', 'invalid_request'],
      ['return_url', 'https://evil.example/', 'invalid_request'],
    ] as const) {
      const { body } = await harness.post('/save-card', { ...ORDER, [field]: value });
      assert.equal(body.error.code, code, field);
    }
    assert.doesNotMatch(allLogs(harness), /4111111111111111/);
  });
});

describe('POST /merchant-page with installments STANDALONE (the embedded page offers the plans)', () => {
  it('signs installments through the merchant page: the order’s amount, currency and customer country', async () => {
    harness.orders.add({ merchant_reference: 'order-4004', amount: 250_000, currency: 'EGP', customer_country_code: 'EGY' });
    const { status, body } = await harness.post('/merchant-page', {
      merchant_reference: 'order-4004',
      language: 'ar',
      installments: 'STANDALONE',
      framed: true,
    });
    assert.equal(status, 200);
    const { fields } = parse(formPostResult, body);
    assert.equal(fields['installments'], 'STANDALONE');
    assert.equal(fields['amount'], '250000');
    assert.equal(fields['currency'], 'EGP');
    assert.equal(fields['customer_country_code'], 'EGY');
    assert.equal(fields['return_url'], `${RETURN_URL}?pg_frame=1`);
    assert.ok(installmentsMerchantPageMerchantFields.safeParse(fields).success);
    assert.ok((await verifySignature(fields, REQUEST_PHRASE, 'sha256', { merchantPage: true })).valid);
  });

  it('sends no customer_country_code for an order without one', async () => {
    const { body } = await harness.post('/merchant-page', { ...ORDER, installments: 'STANDALONE' });
    assert.equal(parse(formPostResult, body).fields['customer_country_code'], undefined);
  });

  it('refuses a plan chosen here as well', async () => {
    const { status, body } = await harness.post('/merchant-page', {
      ...ORDER,
      installments: 'STANDALONE',
      plan_code: 'NBE6',
      issuer_code: 'NBE01',
    });
    assert.equal(status, 400);
    assert.equal(body.error.field, 'plan_code');
  });

  it('refuses an order whose country is not three capital letters', () => {
    assert.throws(() => harness.orders.add({ merchant_reference: 'order-5005', amount: 1, currency: 'EGP', customer_country_code: 'eg' }), /customer_country_code/);
  });
});

async function savedCardAnswer(code: KnownResponseCode = '18000', extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return (await signParams(
    {
      service_command: 'TOKENIZATION',
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      merchant_reference: 'order-1001',
      language: 'en',
      return_url: `${RETURN_URL}?pg_frame=1`,
      merchant_extra1: 'SAVE_CARD',
      remember_me: 'YES',
      token_name: 'tok-saved',
      card_number: '411111******1111',
      expiry_date: '2812',
      ...extra,
      response_code: code,
      response_message: responseMessage(code, 'en'),
      status: expectedStatus(code),
    },
    RESPONSE_PHRASE,
    'sha256',
  )) as Record<string, string>;
}

function returnPost(fields: Record<string, string>, framed = true): Promise<Answer> {
  return harness.send(
    new Request(`${SHOP_ORIGIN}${BASE_PATH}/return${framed ? '?pg_frame=1' : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

function messageOf(answer: Answer) {
  const match = /<script type="application\/json" id="pg-message">([^<]*)<\/script>/.exec(String(answer.body));
  assert.ok(match, 'a framed page');
  return parse(framedResultMessage, JSON.parse(match[1] ?? ''));
}

describe('the return of a card saved without paying', () => {
  it('charges nothing, confirms the token with GET_TOKENS and reports the saved card once', async () => {
    harness.gateway.keepsToken('tok-saved');
    const answer = await returnPost(await savedCardAnswer());
    assert.deepEqual(
      harness.gateway.calls.map((call) => call.operation),
      ['GET_TOKENS'],
      'no payment, and no CHECK_STATUS: it knows no order for a tokenization',
    );
    const [tokens] = harness.gateway.callsOf('GET_TOKENS');
    assert.equal(tokens?.request['token_status'], 'ACTIVE');
    assert.equal(harness.results.length, 1);
    const [result] = harness.results;
    assert.equal(result?.source, 'save-card');
    assert.equal(result?.outcome, 'success');
    assert.equal(result?.order_state, 'not_found', 'nothing was charged');
    assert.equal(result?.command, 'TOKENIZATION');
    assert.equal(result?.kind, 'saved_card', 'a kind of its own: never a payment');
    assert.match(result?.idempotency_key ?? '', /^order-1001:card_saved:[0-9a-f]{16}$/);
    assert.doesNotMatch(result?.idempotency_key ?? '', /tok-saved/, 'a key is logged: it never carries the token');
    assert.deepEqual(result?.saved_card, {
      token_name: 'tok-saved',
      confirmed: true,
      card_number: '411111******1111',
      expiry_date: '2812',
      card_brand: 'VISA',
      card_bin: '411111',
    });
    // The element hears the card as the customer knows it; the token never reaches the browser.
    const message = messageOf(answer);
    assert.equal(message.intent, 'save-card');
    assert.equal(message.outcome, 'success');
    assert.deepEqual(message.card, { brand: 'VISA', last_four: '1111' });
    assert.doesNotMatch(String(answer.body), /tok-saved|411111\*/);
  });

  it('reports a replayed return once, with the first answer', async () => {
    harness.gateway.keepsToken('tok-saved');
    const fields = await savedCardAnswer();
    const first = messageOf(await returnPost(fields));
    const again = messageOf(await returnPost(fields));
    assert.deepEqual(again, first);
    assert.equal(harness.results.length, 1);
  });

  it('never reports a temporary token as a saved card', async () => {
    // The gateway made a token but does not keep it (no consent reached it, or tokenization is off):
    // GET_TOKENS does not list it.
    const answer = await returnPost(await savedCardAnswer());
    const [result] = harness.results;
    assert.equal(result?.outcome, 'failure');
    assert.equal(result?.error, 'card_not_saved');
    assert.equal(result?.saved_card, undefined);
    assert.equal(result?.gateway['token_name'], undefined);
    assert.equal(messageOf(answer).error, 'card_not_saved');
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT').length, 0);
  });

  it('never reports an INACTIVE token as saved', async () => {
    harness.gateway.keepsToken('tok-saved', { token_status: 'INACTIVE' });
    await returnPost(await savedCardAnswer());
    assert.equal(harness.results[0]?.saved_card, undefined);
  });

  it('reports the token of the signed answer, marked not confirmed, when the token list cannot be had', async () => {
    for (const [code, reason] of [
      ['00014', 'token_list_not_activated'],
      ['00001', 'token_list_refused'],
    ] as const) {
      harness.gateway.reset();
      harness.results.length = 0;
      harness.ledger.clear();
      harness.gateway.answer('GET_TOKENS', () => ({ code }));
      await returnPost(await savedCardAnswer());
      const [result] = harness.results;
      assert.equal(result?.outcome, 'success', reason);
      assert.equal(result?.kind, 'saved_card');
      assert.deepEqual(result?.saved_card, {
        token_name: 'tok-saved',
        confirmed: false,
        unconfirmed_reason: reason,
        card_number: '411111******1111',
        expiry_date: '2812',
      });
      const warned = harness.logs.map((line) => JSON.parse(line)).filter((line) => line.event === 'saved_card_unconfirmed').at(-1);
      assert.equal(warned?.reason, reason, 'said clearly in the log');
    }
    assert.doesNotMatch(allLogs(harness), /tok-saved/, 'the token never reaches a log line');
  });

  it('says pending, and reports nothing, when GET_TOKENS is refused for the merchant\'s own settings (00008, 00006): the reconciler asks again', async () => {
    for (const code of ['00008', '00006'] as const) {
      harness.gateway.reset();
      harness.results.length = 0;
      harness.ledger.clear();
      harness.gateway.answer('GET_TOKENS', () => ({ code }));
      const message = messageOf(await returnPost(await savedCardAnswer()));
      assert.equal(message.outcome, 'pending', code);
      assert.equal(harness.results.length, 0, `${code}: no card reported unconfirmed while the settings are wrong`);
      const refused = harness.logs.map((line) => JSON.parse(line)).filter((line) => line.event === 'gateway_configuration_refused').at(-1);
      assert.deepEqual([refused?.operation, refused?.response_code], ['GET_TOKENS', code]);
    }
  });

  it('says pending, and reports nothing, when GET_TOKENS cannot be reached', async () => {
    harness.gateway.goOffline();
    const message = messageOf(await returnPost(await savedCardAnswer()));
    assert.equal(message.outcome, 'pending');
    assert.equal(message.intent, 'save-card');
    assert.equal(harness.results.length, 0);
  });

  it('reports a refused card from the tokenization’s own answer, asking nothing', async () => {
    const { token_name: _token, ...refused } = await savedCardAnswer('17003');
    const { signature: _signature, ...unsigned } = refused;
    const resigned = (await signParams(unsigned, RESPONSE_PHRASE, 'sha256')) as Record<string, string>;
    await returnPost(resigned);
    assert.equal(harness.gateway.calls.length, 0);
    assert.equal(harness.results[0]?.outcome, 'failure');
    assert.equal(harness.results[0]?.response_code, '17003');
  });

  it('never turns a saved card into a charge, or a payment into a saved card (the choice is signed)', async () => {
    const asPayment = { ...(await savedCardAnswer()), merchant_extra1: 'PURCHASE' };
    assert.equal(messageOf(await returnPost(asPayment)).error, 'gateway_signature_invalid');
    assert.equal(harness.gateway.calls.length, 0);
  });

  it('redirects a top-level save (the redirect mode) to the result page', async () => {
    harness.gateway.keepsToken('tok-saved');
    const answer = await returnPost(await savedCardAnswer('18000', { return_url: RETURN_URL }), false);
    assert.equal(answer.status, 303);
    const location = new URL(answer.headers.get('location') ?? '');
    assert.equal(location.searchParams.get('outcome'), 'success');
    assert.doesNotMatch(location.href, /tok-saved/);
  });
});
