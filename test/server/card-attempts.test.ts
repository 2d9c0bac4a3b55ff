/**
 * Card testing: the cards the endpoint puts to use for one order are counted (each hosted payment
 * page signed, each charge completing a card taken on the merchant's page, each card saved), and
 * past the limit the endpoint refuses: no form is signed and no card charged, so no issuer's answer
 * is learnt through it. A payment already made is still shown as made.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../src/server/config.ts';
import { createMerchantEndpoint } from '../../src/server/endpoint.ts';
import { GATEWAY_ACCOUNT } from './fake-gateway.ts';
import { BASE_PATH, SHOP_ORIGIN, setup, type Harness } from './harness.ts';
import { signedTokenization } from './support/returns.ts';

const HOUR = 3600_000;

function signHostedPage(on: Harness, reference: string, language: 'en' | 'ar' = 'en') {
  return on.post('/hosted-page', { merchant_reference: reference, language, command: 'PURCHASE' });
}

/** The gateway's return of a card taken on the merchant's page, posted by the customer's browser. */
async function returnWithCard(on: Harness, reference: string, token: string) {
  const tokenization = await signedTokenization(reference, token, { return_url: `${SHOP_ORIGIN}${BASE_PATH}/return` });
  const answer = await on.postReturn(tokenization);
  assert.equal(answer.status, 303);
  return new URL(answer.headers.get('location') ?? '', SHOP_ORIGIN).searchParams;
}

const limitedLines = (on: Harness) => on.logs.map((line) => JSON.parse(line)).filter((line) => line.event === 'card_attempts_limited');

describe('cards tried on one order (card testing)', () => {
  it('signs a hosted payment page for at most the limit of cards an hour per order, then refuses with 429 and Retry-After, in the request’s language', async () => {
    const harness = setup({ cardAttemptsPerHour: 3 });
    for (let attempt = 1; attempt <= 3; attempt++) {
      assert.equal((await signHostedPage(harness, 'order-1001')).status, 200, `attempt ${attempt}`);
    }
    const refused = await signHostedPage(harness, 'order-1001', 'ar');
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.body, {
      error: { code: 'card_attempts_limited', message: 'جُرّبت بطاقات كثيرة لهذا الطلب؛ يرجى الانتظار قبل المحاولة مرة أخرى.' },
    });
    const wait = Number(refused.headers.get('retry-after'));
    assert.ok(wait > 0 && wait <= 3600, `Retry-After ${wait}`);
    assert.deepEqual(
      limitedLines(harness).map((line) => [line.level, line.merchant_reference, line.use]),
      [['warn', 'order-1001', 'hosted_page']],
    );
    assert.equal((await signHostedPage(harness, 'order-2002')).status, 200, 'another order is not held back');
    harness.advance(HOUR);
    assert.equal((await signHostedPage(harness, 'order-1001')).status, 200, 'an hour later the order may be paid again');
  });

  it('charges at most the limit of cards taken on the merchant’s page, counting a new attempt as its order, and charges none past it', async () => {
    const harness = setup({ cardAttemptsPerHour: 2 });
    harness.gateway.answer('TOKEN_PAYMENT', () => ({ code: '13001' }));
    assert.equal((await returnWithCard(harness, 'order-1001', 'tok-stolen-1')).get('outcome'), 'failure');
    assert.equal((await returnWithCard(harness, 'order-1001', 'tok-stolen-2')).get('outcome'), 'failure');
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT').length, 2);

    // A third card, under the order's own reference and as its next attempt (a reference of its own): neither is charged.
    for (const [reference, token] of [
      ['order-1001', 'tok-stolen-3'],
      ['order-1001.pg2', 'tok-stolen-4'],
    ] as const) {
      const refused = await returnWithCard(harness, reference, token);
      assert.deepEqual([refused.get('merchant_reference'), refused.get('outcome'), refused.get('error')], ['order-1001', 'failure', 'card_attempts_limited']);
    }
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT').length, 2, 'no card past the limit is charged');
    assert.deepEqual(
      harness.results.map((result) => [result.outcome, result.response_code]),
      [['failure', '13001']],
      'nothing new happened at the gateway to report: the declines only (one key)',
    );
    assert.deepEqual(
      limitedLines(harness).map((line) => [line.merchant_reference, line.use]),
      [
        ['order-1001', 'charge'],
        ['order-1001', 'charge'],
      ],
    );
  });

  it('still shows a paid order as paid when its return is posted again past the limit', async () => {
    const harness = setup({ cardAttemptsPerHour: 1 });
    assert.equal((await returnWithCard(harness, 'order-1001', 'tok-good')).get('outcome'), 'success');
    // The customer's browser posts the same return again (a reload): the limit is reached, the payment stands.
    const again = await returnWithCard(harness, 'order-1001', 'tok-good');
    assert.equal(again.get('outcome'), 'success');
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT').length, 1, 'charged once');
    assert.deepEqual(limitedLines(harness), [], 'a reload is no card-testing alert');
    assert.deepEqual(
      harness.results.map((result) => result.outcome),
      ['success'],
      'reported once, never downgraded',
    );
  });

  it('signs at most the limit of cards to save for an order', async () => {
    const harness = setup({ cardAttemptsPerHour: 1 });
    const save = () => harness.post('/save-card', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal((await save()).status, 200);
    const refused = await save();
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'card_attempts_limited');
  });

  it('refuses a cardAttemptsPerHour that is not a whole number from 1 to 1000', () => {
    assert.throws(
      () => createMerchantEndpoint({ ...GATEWAY_ACCOUNT, checkoutUrl: 'https://checkout.gateway.test', publicUrl: SHOP_ORIGIN, resolveOrder: () => undefined, cardAttemptsPerHour: 1.5 }),
      (error) => error instanceof ConfigError && /cardAttemptsPerHour/.test(error.message),
    );
  });
});
