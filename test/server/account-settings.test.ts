/**
 * Settings of the merchant's gateway account that the endpoint applies at checkout: Check 3-D
 * Secure (`check3ds`, sent as `check_3ds` with the server-to-server completion) and CVV
 * suppression (`cvvSuppression`, told to the elements by the order route).
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formPostResult, orderResult } from '../../src/core/endpoint-api.ts';
import { expectedStatus, responseMessage } from '../../src/core/response.ts';
import { signParams, verifySignature, type SignableParams } from '../../src/core/signature.ts';
import { ACCESS_CODE, MERCHANT_IDENTIFIER, REQUEST_PHRASE, RESPONSE_PHRASE } from './fake-gateway.ts';
import { BASE_PATH, RETURN_URL, setup, SHOP_ORIGIN, type Harness } from './harness.ts';
import { parse } from '../../src/core/shape.ts';

const plain = setup();
const skipping = setup({ check3ds: 'NO' });
const asking = setup({ check3ds: 'YES' });

afterEach(() => {
  for (const harness of [plain, skipping, asking]) {
    assert.deepEqual(harness.gateway.problems, [], 'the endpoint sent the gateway a request it would refuse');
    harness.gateway.reset();
    harness.results.length = 0;
    harness.ledger.clear();
  }
});

/** The gateway's signed return after the merchant page tokenized the card. */
async function tokenization(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const signed = await signParams(
    {
      service_command: 'TOKENIZATION',
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      merchant_reference: 'order-1001',
      language: 'en',
      return_url: RETURN_URL,
      token_name: 'tok-1',
      card_number: '400555******0001',
      expiry_date: '2812',
      merchant_extra1: 'PURCHASE',
      ...extra,
      response_code: '18000',
      response_message: responseMessage('18000', 'en'),
      status: expectedStatus('18000'),
    },
    RESPONSE_PHRASE,
    'sha256',
  );
  return signed as Record<string, string>;
}

/** The customer's browser posting the gateway's return to the endpoint. */
async function returnPost(harness: Harness, fields: Record<string, string>) {
  return harness.send(
    new Request(`${SHOP_ORIGIN}${BASE_PATH}/return`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
    { clientAddress: '198.51.100.20' },
  );
}

describe('Check 3-D Secure at checkout (check3ds)', () => {
  describe('the completion of a merchant-page or embedded payment', () => {
    it('carries check_3ds NO, signed with the other fields, when the account skips 3-D Secure', async () => {
      await returnPost(skipping, await tokenization());
      const [call] = skipping.gateway.callsOf('TOKEN_PAYMENT');
      const sent = (call?.request ?? {}) as SignableParams;
      assert.equal(sent['check_3ds'], 'NO');
      assert.deepEqual(await verifySignature(sent, REQUEST_PHRASE, 'sha256'), { valid: true });
      const { check_3ds: _sent, ...without } = sent;
      assert.deepEqual(
        await verifySignature(without, REQUEST_PHRASE, 'sha256'),
        { valid: false, reason: 'mismatch' },
        'the signature covers check_3ds',
      );
    });

    it('carries check_3ds YES when so configured', async () => {
      await returnPost(asking, await tokenization({ merchant_extra1: 'AUTHORIZATION' }));
      assert.equal(asking.gateway.callsOf('TOKEN_PAYMENT')[0]?.request['check_3ds'], 'YES');
    });

    it('carries it on an installments operation too (a plan chosen in the element: hosted checkout)', async () => {
      await returnPost(skipping, await tokenization({ merchant_extra2: 'NBE6', merchant_extra3: 'NBE01' }));
      const [call] = skipping.gateway.callsOf('INSTALLMENTS_PAYMENT');
      assert.equal(call?.request['installments'], 'HOSTED');
      assert.equal(call?.request['check_3ds'], 'NO');
    });

    it('leaves check_3ds out when the setting is unset, as before', async () => {
      await returnPost(plain, await tokenization());
      const [call] = plain.gateway.callsOf('TOKEN_PAYMENT');
      assert.ok(call, 'the completion was sent');
      assert.ok(!('check_3ds' in call.request));
    });
  });

  describe('the forms the element posts', () => {
    it('are signed without check_3ds: the gateway takes it on the completion, not on the page forms', async () => {
      for (const [route, body] of [
        ['/hosted-page', { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' }],
        ['/merchant-page', { merchant_reference: 'order-1001', language: 'en' }],
        ['/save-card', { merchant_reference: 'order-1001', language: 'en' }],
      ] as const) {
        const answer = await skipping.post(route, body);
        assert.equal(answer.status, 200, route);
        assert.ok(!('check_3ds' in parse(formPostResult, answer.body).fields), route);
      }
    });
  });

  describe('a browser that asks for it', () => {
    for (const route of ['/hosted-page', '/merchant-page']) {
      it(`is refused on ${route}: a page cannot skip 3-D Secure`, async () => {
        for (const harness of [plain, asking]) {
          const answer = await harness.post(route, { merchant_reference: 'order-1001', language: 'en', check_3ds: 'NO' });
          assert.equal(answer.status, 400);
          assert.equal(answer.body.error.code, 'invalid_request');
          assert.equal(answer.body.error.field, 'check_3ds');
        }
        assert.equal(plain.gateway.calls.length + asking.gateway.calls.length, 0, 'nothing was asked of the gateway');
      });
    }
  });
});

describe('CVV suppression at checkout (cvvSuppression)', () => {
  const suppressing = setup({ cvvSuppression: true });

  it('tells the elements in the order answer, so that the card form may leave the security code empty', async () => {
    const { status, body } = await suppressing.post('/order', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(status, 200);
    assert.deepEqual(parse(orderResult, body), {
      merchant_reference: 'order-1001',
      amount: 250_000,
      currency: 'EGP',
      description: 'Headphones',
      cvv_optional: true,
    });
  });

  it('says nothing of it for an account without the setting, as before', async () => {
    const { body } = await plain.post('/order', { merchant_reference: 'order-1001', language: 'en' });
    assert.ok(!('cvv_optional' in body));
  });

  it('cannot be turned on by the browser', async () => {
    const { status, body } = await plain.post('/order', { merchant_reference: 'order-1001', language: 'en', cvv_optional: true });
    assert.equal(status, 200);
    assert.ok(!('cvv_optional' in body));
  });
});
