import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { endpointError, paymentResult } from '../../src/core/endpoint-api.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { signParams } from '../../src/core/signature.ts';
import {
  ACCESS_CODE,
  MERCHANT_IDENTIFIER,
  REQUEST_PHRASE,
  RESPONSE_PHRASE,
  THREE_DS_TOKEN,
  THREE_DS_URL,
} from './fake-gateway.ts';
import { BASE_PATH, RETURN_URL, setup, SHOP_ORIGIN, type Harness } from './harness.ts';
import { parse } from '../../src/core/shape.ts';

const harness = setup();

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, []);
  harness.gateway.reset();
  harness.results.length = 0;
  harness.ledger.clear();
});

/** The customer paid on the gateway's hosted page: the gateway now holds the order (svc_id 169999). */
function paidAtGateway(on: Harness = harness, state: 'captured' | 'authorized' = 'captured'): void {
  on.gateway.holds('order-1001', state, { svcId: '169999' });
}

/** What the gateway sends back to return_url, signed with the response phrase. */
async function gatewayAnswer(
  code: KnownResponseCode,
  fields: Readonly<Record<string, string>>,
  phrase = RESPONSE_PHRASE,
): Promise<Record<string, string>> {
  const language = fields['language'] === 'ar' ? 'ar' : 'en';
  const signed = await signParams(
    {
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      language: 'en',
      return_url: RETURN_URL,
      ...fields,
      response_code: code,
      response_message: responseMessage(code, language),
      status: expectedStatus(code),
    },
    phrase,
    'sha256',
  );
  return signed as Record<string, string>;
}

const purchase = (extra: Record<string, string> = {}) =>
  gatewayAnswer('14000', {
    command: 'PURCHASE',
    merchant_reference: 'order-1001',
    amount: '250000',
    currency: 'EGP',
    svc_id: '169999',
    card_number: '400555******0001',
    ...extra,
  });

const tokenization = (extra: Record<string, string> = {}, code: KnownResponseCode = '18000') =>
  gatewayAnswer(code, {
    service_command: 'TOKENIZATION',
    merchant_reference: 'order-1001',
    token_name: 'tok-1',
    card_number: '400555******0001',
    expiry_date: '2812',
    merchant_extra1: 'PURCHASE',
    ...extra,
  });

function formPost(fields: Record<string, string>, on: Harness = harness, query = '', clientAddress = '198.51.100.20') {
  return on.send(
    new Request(`${SHOP_ORIGIN}${BASE_PATH}/return${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://checkout.gateway.test' },
      body: new URLSearchParams(fields).toString(),
    }),
    { clientAddress },
  );
}

function redirectParams(location: string | null): Record<string, string> {
  assert.ok(location, 'a Location header');
  const url = new URL(location);
  assert.equal(`${url.origin}${url.pathname}`, `${SHOP_ORIGIN}/checkout/result`);
  return Object.fromEntries(url.searchParams);
}

describe('when the gateway returns a signed payment answer', () => {
  it('hands the merchant the verified result and sends the customer to the result page (form post)', async () => {
    paidAtGateway();
    const answer = await formPost(await purchase());
    assert.equal(answer.status, 303);
    assert.deepEqual(redirectParams(answer.headers.get('location')), {
      merchant_reference: 'order-1001',
      outcome: 'success',
      response_code: '14000',
    });
    assert.equal(harness.results.length, 1);
    const [result] = harness.results;
    assert.equal(result?.outcome, 'success');
    assert.equal(result?.source, 'return');
    assert.equal(result?.command, 'PURCHASE');
    assert.equal(result?.svc_id, '169999');
    assert.equal(result?.amount, 250_000);
    assert.equal(result?.gateway['signature'], undefined);
    assert.equal(result?.idempotency_key, 'order-1001:169999:captured');
    assert.equal(result?.order_state, 'captured');
    assert.equal(result?.order_status?.captured_amount, 250_000);
  });

  it('verifies an answer sent as a query string', async () => {
    paidAtGateway();
    const query = new URLSearchParams(await purchase()).toString();
    const answer = await harness.send(new Request(`${SHOP_ORIGIN}${BASE_PATH}/return?${query}`));
    assert.equal(answer.status, 303);
    assert.equal(redirectParams(answer.headers.get('location'))['outcome'], 'success');
  });

  it('ignores the merchant’s own pg_ routing parameters, in the query string and the form', async () => {
    paidAtGateway();
    const fields = { ...(await purchase()), pg_session: 'abc' };
    const answer = await formPost(fields, harness, '?pg_site=eg&anything=else');
    assert.equal(redirectParams(answer.headers.get('location'))['outcome'], 'success');
    const query = new URLSearchParams({ ...(await purchase()), pg_site: 'eg' }).toString();
    const viaGet = await harness.send(new Request(`${SHOP_ORIGIN}${BASE_PATH}/return?${query}`));
    assert.equal(redirectParams(viaGet.headers.get('location'))['outcome'], 'success');
  });

  it('reports a declined payment as a failure', async () => {
    const answer = await formPost(
      await gatewayAnswer('13002', { command: 'PURCHASE', merchant_reference: 'order-1001', amount: '250000', currency: 'EGP' }),
    );
    assert.deepEqual(redirectParams(answer.headers.get('location')), {
      merchant_reference: 'order-1001',
      outcome: 'failure',
      response_code: '13002',
    });
  });

  it('answers the PaymentResult as JSON when the merchant configured no result page', async () => {
    const json = setup({ resultUrl: undefined });
    paidAtGateway(json);
    const answer = await formPost(await purchase({ language: 'ar' }), json);
    assert.equal(answer.status, 200);
    assert.deepEqual(parse(paymentResult, answer.body), {
      merchant_reference: 'order-1001',
      outcome: 'success',
      response_code: '14000',
      response_message: 'تمت العملية بنجاح',
      status: '14',
      svc_id: '169999',
      amount: 250_000,
      currency: 'EGP',
    });
  });

  it('lets onResult answer the customer itself', async () => {
    const custom = setup({ onResult: () => new Response('thank you', { status: 200 }) });
    paidAtGateway(custom);
    const answer = await formPost(await purchase(), custom);
    assert.equal(answer.status, 200);
    assert.equal(answer.body, 'thank you');
  });

  it('does not report a signed answer for another amount than the order as paid', async () => {
    // The gateway took 100, as its answer says: not the order's 250,000.
    harness.gateway.holds('order-1001', 'captured', { svcId: '169999', amount: 100 });
    const answer = await formPost(await purchase({ amount: '100' }));
    assert.deepEqual(redirectParams(answer.headers.get('location')), {
      merchant_reference: 'order-1001',
      outcome: 'failure',
      response_code: '14000',
      error: 'amount_mismatch',
    });
    assert.equal(harness.results[0]?.error, 'amount_mismatch');
  });

  it('names the currency when a signed answer differs from the order in currency and amount', async () => {
    paidAtGateway();
    const answer = await formPost(await purchase({ amount: '100', currency: 'USD' }));
    assert.equal(redirectParams(answer.headers.get('location'))['error'], 'currency_mismatch');
    assert.equal(harness.results[0]?.outcome, 'failure');
  });
});

describe('when the return is unsigned or tampered with', () => {
  it('never reports a tampered answer as paid, and does not call onResult', async () => {
    const fields = { ...(await gatewayAnswer('13001', { command: 'PURCHASE', merchant_reference: 'order-1001', amount: '250000', currency: 'EGP' })) };
    fields['response_code'] = '14000';
    fields['status'] = '14';
    const answer = await formPost(fields);
    assert.equal(answer.status, 303);
    assert.deepEqual(redirectParams(answer.headers.get('location')), {
      merchant_reference: 'order-1001',
      outcome: 'failure',
      error: 'gateway_signature_invalid',
    });
    assert.equal(harness.results.length, 0);
  });

  it('never reports an unsigned answer as paid', async () => {
    const { signature: _signature, ...unsigned } = await purchase();
    const answer = await formPost(unsigned);
    assert.equal(redirectParams(answer.headers.get('location'))['error'], 'gateway_signature_invalid');
  });

  it('refuses an answer signed with the request phrase instead of the response phrase', async () => {
    const answer = await formPost(
      await gatewayAnswer('14000', { command: 'PURCHASE', merchant_reference: 'order-1001', amount: '250000', currency: 'EGP' }, REQUEST_PHRASE),
    );
    assert.equal(redirectParams(answer.headers.get('location'))['outcome'], 'failure');
  });

  it('refuses a field added to a signed answer', async () => {
    const answer = await formPost({ ...(await purchase()), authorization_code: 'FORGED' });
    assert.equal(redirectParams(answer.headers.get('location'))['error'], 'gateway_signature_invalid');
  });

  it('refuses a field sent twice', async () => {
    const fields = await purchase();
    const body = `${new URLSearchParams(fields).toString()}&response_code=14000`;
    const answer = await harness.send(
      new Request(`${SHOP_ORIGIN}${BASE_PATH}/return`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }),
    );
    assert.equal(redirectParams(answer.headers.get('location'))['error'], 'gateway_signature_invalid');
  });

  it('answers 400 gateway_signature_invalid as JSON when there is no result page', async () => {
    const json = setup({ resultUrl: undefined });
    const answer = await json.send(new Request(`${SHOP_ORIGIN}${BASE_PATH}/return?merchant_reference=order-1001&response_code=14000&status=14`));
    assert.equal(answer.status, 400);
    assert.deepEqual(parse(endpointError, answer.body).error, {
      code: 'gateway_signature_invalid',
      message: 'The payment gateway answer could not be verified.',
    });
    assert.equal(json.results.length, 0);
  });

  it('answers 405 for other methods', async () => {
    const answer = await harness.send(new Request(`${SHOP_ORIGIN}${BASE_PATH}/return`, { method: 'PUT', body: 'x' }));
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.get('allow'), 'GET, POST');
  });
});

describe('merchant page completion', () => {
  it('completes a verified tokenization with PURCHASE, the token, the customer IP and the return URL', async () => {
    const answer = await formPost(await tokenization());
    assert.equal(answer.status, 303);
    assert.deepEqual(redirectParams(answer.headers.get('location')), {
      merchant_reference: 'order-1001',
      outcome: 'success',
      response_code: '14000',
    });
    const [call] = harness.gateway.callsOf('TOKEN_PAYMENT');
    assert.deepEqual(
      {
        command: call?.request['command'],
        token_name: call?.request['token_name'],
        customer_ip: call?.request['customer_ip'],
        return_url: call?.request['return_url'],
        amount: call?.request['amount'],
        currency: call?.request['currency'],
        eci: call?.request['eci'],
      },
      {
        command: 'PURCHASE',
        token_name: 'tok-1',
        customer_ip: '198.51.100.20',
        return_url: RETURN_URL,
        amount: '250000',
        currency: 'EGP',
        eci: 'ECOMMERCE',
      },
    );
    assert.equal(harness.results[0]?.source, 'merchant-page');
    assert.equal(harness.results[0]?.outcome, 'success');
  });

  it('reports a card page the customer left after a declined card as cancelled, not as the earlier decline', async () => {
    // The declined card's charge stays under the reference, which the gateway lets go for the next card.
    harness.gateway.holds('order-1001', 'declined', { svcId: '169990' });
    // "Back to the shop" on the gateway's card page: a signed 00072, no token, no card.
    const answer = await formPost(await gatewayAnswer('00072', { service_command: 'TOKENIZATION', merchant_reference: 'order-1001', merchant_extra1: 'PURCHASE' }));
    assert.equal(redirectParams(answer.headers.get('location'))['response_code'], '00072');
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT').length, 0, 'nothing charged');
    assert.deepEqual(
      [harness.results[0]?.response_code, harness.results[0]?.outcome, harness.results[0]?.idempotency_key],
      ['00072', 'failure', 'order-1001:00072'],
    );
  });

  it('still reports the gateway\'s decline when the return of that declined charge comes back', async () => {
    harness.gateway.holds('order-1001', 'declined', { svcId: '169990' });
    await formPost(await gatewayAnswer('13001', { command: 'PURCHASE', merchant_reference: 'order-1001', amount: '250000', currency: 'EGP', svc_id: '169990' }));
    assert.deepEqual([harness.results[0]?.response_code, harness.results[0]?.idempotency_key], ['13001', 'order-1001:169990:failed']);
  });

  it('completes with AUTHORIZATION when the element chose it', async () => {
    await formPost(await tokenization({ merchant_extra1: 'AUTHORIZATION' }));
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT')[0]?.request['command'], 'AUTHORIZATION');
    assert.equal(harness.results[0]?.response_code, '02000');
  });

  it('completes a plan chosen on the merchant’s page as hosted checkout (installments HOSTED)', async () => {
    await formPost(await tokenization({ merchant_extra2: 'NBE6', merchant_extra3: 'NBE01' }));
    const [call] = harness.gateway.callsOf('INSTALLMENTS_PAYMENT');
    assert.equal(call?.request['installments'], 'HOSTED');
    assert.equal(call?.request['token_name'], 'tok-1');
    assert.equal(call?.request['plan_code'], 'NBE6');
    assert.equal(call?.request['issuer_code'], 'NBE01');
  });

  it('takes the customer IP from X-Forwarded-For only behind configured proxies', async () => {
    const proxied = setup({ trustedProxyHops: 1 });
    const fields = await tokenization();
    await proxied.send(
      new Request(`${SHOP_ORIGIN}${BASE_PATH}/return`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '1.1.1.1, 192.0.2.44' },
        body: new URLSearchParams(fields).toString(),
      }),
      { clientAddress: '10.0.0.2' },
    );
    assert.equal(proxied.gateway.callsOf('TOKEN_PAYMENT')[0]?.request['customer_ip'], '192.0.2.44');

    await harness.send(
      new Request(`${SHOP_ORIGIN}${BASE_PATH}/return`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '1.1.1.1' },
        body: new URLSearchParams(fields).toString(),
      }),
      { clientAddress: '::ffff:198.51.100.9' },
    );
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT')[0]?.request['customer_ip'], '198.51.100.9');
  });

  it('sends the customer to the 3ds_url, then verifies the final return like any other', async () => {
    const first = await formPost(await tokenization({ token_name: THREE_DS_TOKEN }));
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('location'), THREE_DS_URL);
    assert.equal(harness.results.length, 0, 'nothing is reported before 3-D Secure finishes');

    // The customer passes the challenge: the gateway captures the payment it held pending.
    harness.gateway.holds('order-1001', 'captured', { svcId: '1700000003' });
    const final = await formPost(await purchase({ token_name: THREE_DS_TOKEN, eci: 'ECOMMERCE' }));
    assert.equal(redirectParams(final.headers.get('location'))['outcome'], 'success');
    assert.equal(harness.results.length, 1);
  });

  it("sends the customer to the 3ds_url of a live account's charge held for 3-D Secure (20064 under status 20)", async () => {
    harness.gateway.answer('TOKEN_PAYMENT', () => ({ code: '20064', status: '20', fields: { '3ds_url': THREE_DS_URL, svc_id: '1700000003' } }));
    const first = await formPost(await tokenization({ token_name: 'tok-live' }));
    assert.equal(first.status, 303);
    assert.equal(first.headers.get('location'), THREE_DS_URL);
    assert.equal(harness.results.length, 0, 'nothing is reported before 3-D Secure finishes');
  });

  it('reports a failed tokenization as a failure without charging', async () => {
    const answer = await formPost(await tokenization({}, '00010'));
    assert.equal(redirectParams(answer.headers.get('location'))['outcome'], 'failure');
    assert.deepEqual(harness.gateway.calls.map((call) => call.operation), ['CHECK_STATUS']);
  });

  it('never reports a tokenization success without a token as paid', async () => {
    const { token_name: _token, signature: _signature, ...withoutToken } = await tokenization();
    const answer = await formPost(await gatewayAnswer('18000', withoutToken));
    assert.deepEqual(redirectParams(answer.headers.get('location')), {
      merchant_reference: 'order-1001',
      outcome: 'failure',
      error: 'invalid_request',
    });
    assert.equal(harness.results.length, 0);
    assert.equal(harness.gateway.calls.length, 0);
  });

  it('never charges a tampered tokenization', async () => {
    const fields = { ...(await tokenization()), token_name: 'someone-elses-token' };
    const answer = await formPost(fields);
    assert.equal(redirectParams(answer.headers.get('location'))['error'], 'gateway_signature_invalid');
    assert.equal(harness.gateway.calls.length, 0);
  });

  it('never reports a completion whose answer has a bad signature as paid', async () => {
    harness.gateway.answer('TOKEN_PAYMENT', () => ({ code: '13001', tamper: (signed) => ({ ...signed, response_code: '14000', status: '14' }) }));
    const answer = await formPost(await tokenization());
    // The answer proves nothing; CHECK_STATUS says the payment was declined.
    assert.deepEqual(redirectParams(answer.headers.get('location')), {
      merchant_reference: 'order-1001',
      outcome: 'failure',
      response_code: '13001',
      error: 'gateway_signature_invalid',
    });
    assert.equal(harness.results[0]?.outcome, 'failure');
  });

  it('reports the payment as pending when the gateway cannot be reached', async () => {
    harness.gateway.goOffline();
    const answer = await formPost(await tokenization());
    assert.deepEqual(redirectParams(answer.headers.get('location')), {
      merchant_reference: 'order-1001',
      outcome: 'pending',
      error: 'gateway_unreachable',
    });
  });

  it('reports a tokenization for an unknown order as a failure without charging', async () => {
    const answer = await formPost(await tokenization({ merchant_reference: 'gone-1' }));
    assert.deepEqual(redirectParams(answer.headers.get('location')), {
      merchant_reference: 'gone-1',
      outcome: 'failure',
      response_code: '18000',
      error: 'unknown_order',
    });
    assert.deepEqual(harness.gateway.calls.map((call) => call.operation), ['CHECK_STATUS']);
  });
});
