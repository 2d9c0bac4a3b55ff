import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '../../src/core/field-errors.ts';
import {
  hostedPageResponse,
  installmentsDirectResponse,
  recurringPurchaseResponse,
  trustedChannelResponse,
} from '../../src/core/schemas/index.ts';
import { SANDBOX_MERCHANT, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { testCard, type CardOutcome } from '../../src/sandbox/test-cards.ts';
import {
  answerChallenge,
  api,
  FUTURE_EXPIRY,
  PAST_EXPIRY,
  postForm,
  RETURN_URL,
  returnedAnswer,
  rig,
  sessionOf,
  signed,
  verifiesAsGateway,
  type Rig,
} from './support.ts';

const TOKENIZATION_RETURN = 'http://shop.test/pg/return?step=token';
/** The test account with CVV suppression off (every other service as it is). */
const WITHOUT_CVV_SUPPRESSION: SandboxMerchant = { ...SANDBOX_MERCHANT, services: { cvv_suppression: false } };

/** What the merchant's server signs for the merchant page (card fields are not known to it). */
function merchantFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    service_command: 'TOKENIZATION',
    merchant_reference: 'order-1',
    language: 'en',
    return_url: TOKENIZATION_RETURN,
    ...overrides,
  };
}

function typedCard(number: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    card_number: number,
    expiry_date: FUTURE_EXPIRY.yymm,
    card_security_code: '123',
    card_holder_name: 'Test Buyer',
    remember_me: 'YES',
    ...overrides,
  };
}

/** The browser posts the signed merchant fields plus the card the customer typed. */
async function tokenize(r: Rig, number: string, overrides: Record<string, unknown> = {}, card: Record<string, unknown> = {}) {
  const fields = { ...(await signed(merchantFields(overrides), { merchantPage: true })), ...typedCard(number, card) };
  return postForm(r.gateway, r.gateway.paths.paymentPage, fields);
}

async function tokenFor(r: Rig, outcome: CardOutcome, brand: 'VISA' | 'MASTERCARD' = 'VISA'): Promise<string> {
  const answer = await returnedAnswer(await tokenize(r, testCard(outcome, brand).number), TOKENIZATION_RETURN);
  assert.equal(answer['response_code'], '18000');
  return answer['token_name'] ?? '';
}

function tokenCharge(tokenName: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: 'PURCHASE',
    merchant_reference: 'order-1',
    amount: '250000',
    currency: 'EGP',
    language: 'en',
    token_name: tokenName,
    customer_ip: '192.0.2.10',
    customer_email: 'buyer@example.com',
    return_url: RETURN_URL,
    ...overrides,
  };
}

describe('merchant page 2.0', () => {
  describe('TOKENIZATION with the card fields left out of the signature', () => {
    it('returns a token_name and the masked card in a signed answer (18000)', async () => {
      const r = rig();
      const answer = await returnedAnswer(await tokenize(r, testCard('success').number), TOKENIZATION_RETURN);
      assert.equal(answer['response_code'], '18000');
      assert.equal(answer['status'], '18');
      assert.match(answer['token_name'] ?? '', /^[A-Za-z0-9.@_-]{1,100}$/);
      assert.equal(answer['card_number'], '411111******1111');
      assert.equal(answer['expiry_date'], FUTURE_EXPIRY.yymm);
      assert.equal(answer['card_holder_name'], 'Test Buyer');
      assert.equal(answer['remember_me'], 'YES');
      assert.ok(!('card_security_code' in answer));
      assert.ok(validate(hostedPageResponse, answer, 'en').ok);
      assert.deepEqual(
        r.gateway.tokens().map((token) => [token.tokenName, token.cardNumber]),
        [[answer['token_name'], '411111******1111']],
      );
    });

    it('keeps the token name the merchant chose', async () => {
      const r = rig();
      const answer = await returnedAnswer(await tokenize(r, testCard('success').number, { token_name: 'buyer-42.card' }), TOKENIZATION_RETURN);
      assert.equal(answer['token_name'], 'buyer-42.card');
    });

    it('also accepts a "create new token" post signed over every field', async () => {
      const r = rig();
      const fields = await signed({ ...merchantFields(), ...typedCard(testCard('success').number) });
      const answer = await returnedAnswer(await postForm(r.gateway, r.gateway.paths.paymentPage, fields), TOKENIZATION_RETURN);
      assert.equal(answer['response_code'], '18000');
    });

    it('refuses the invalid card and a number failing the Luhn check (17003), storing no token', async () => {
      const r = rig();
      for (const number of [testCard('invalid_card').number, '4111111111111112']) {
        const answer = await returnedAnswer(await tokenize(r, number), TOKENIZATION_RETURN);
        assert.equal(answer['response_code'], '17003');
        assert.ok(!('token_name' in answer));
      }
      assert.equal(r.gateway.tokens().length, 0);
    });

    it('refuses an expired card (00011)', async () => {
      const r = rig();
      const answer = await returnedAnswer(
        await tokenize(r, testCard('success').number, {}, { expiry_date: PAST_EXPIRY.yymm }),
        TOKENIZATION_RETURN,
      );
      assert.equal(answer['response_code'], '00011');
    });

    it('refuses a missing security code (00001) where the account has no CVV suppression', async () => {
      const r = rig({ merchants: [WITHOUT_CVV_SUPPRESSION] });
      const answer = await returnedAnswer(
        await tokenize(r, testCard('success').number, {}, { card_security_code: undefined }),
        TOKENIZATION_RETURN,
      );
      assert.equal(answer['response_code'], '00001');
      assert.match(answer['response_message'] ?? '', /card_security_code/);
      assert.equal(r.gateway.tokens().length, 0);
    });

    it('takes a card without its security code where the account has CVV suppression (18000)', async () => {
      const r = rig();
      const answer = await returnedAnswer(
        await tokenize(r, testCard('success').number, {}, { card_security_code: undefined }),
        TOKENIZATION_RETURN,
      );
      assert.equal(answer['response_code'], '18000');
      assert.ok(answer['token_name']);
    });
  });

  describe('TOKENIZATION without card fields', () => {
    it('opens the card-entry page and returns the token after entry', async () => {
      const r = rig();
      const page = await postForm(r.gateway, r.gateway.paths.paymentPage, await signed(merchantFields({ language: 'ar' })));
      const html = await page.text();
      // The token pays the merchant's payment next: the page asks for the card, not to keep it.
      assert.match(html, /<title>أدخل بطاقتك<\/title>/);
      assert.match(html, /<button type="submit" id="pay" class="Pay">متابعة<\/button>/);
      const response = await postForm(r.gateway, r.gateway.paths.pageSubmit, {
        session: sessionOf(html),
        card_number: testCard('success', 'MASTERCARD').number,
        expiry_date: FUTURE_EXPIRY.typed,
        card_security_code: '123',
      });
      const answer = await returnedAnswer(response, TOKENIZATION_RETURN);
      assert.equal(answer['response_code'], '18000');
      assert.equal(answer['card_number'], '512345******2346');
    });
  });

  describe('TOKENIZATION with installments STANDALONE', () => {
    it('asks for a plan of the card’s issuer, then returns token and plan', async () => {
      const r = rig();
      const fields = {
        ...(await signed(merchantFields({ installments: 'STANDALONE', amount: '300000', currency: 'AED' }), { merchantPage: true })),
        ...typedCard(testCard('success', 'MASTERCARD').number),
      };
      const page = await postForm(r.gateway, r.gateway.paths.paymentPage, fields);
      const html = await page.text();
      assert.match(html, /Choose your installment plan/);
      assert.match(html, /512345\*\*\*\*\*\*2346/);
      assert.match(html, /value="AEISLM1:AEI06"/);
      assert.doesNotMatch(html, /AEFLAT1/, 'only the plans of the bank that issued the card');
      assert.doesNotMatch(html, /<input id="card_number"/, 'the card is not asked again');
      const response = await postForm(r.gateway, r.gateway.paths.pageSubmit, { session: sessionOf(html), installment_plan: 'AEISLM1:AEI06' });
      const answer = await returnedAnswer(response, TOKENIZATION_RETURN);
      assert.equal(answer['response_code'], '18000');
      assert.equal(answer['installments'], 'STANDALONE');
      assert.equal(answer['plan_code'], 'AEI06');
      assert.equal(answer['issuer_code'], 'AEISLM1');
      assert.equal(answer['number_of_installments'], '6');
    });
  });

  describe('completion by paymentApi with the token', () => {
    it('answers PURCHASE with 14000 and the card details', async () => {
      const r = rig();
      const token = await tokenFor(r, 'success');
      const answer = await api(r.gateway, tokenCharge(token));
      assert.equal(answer['response_code'], '14000');
      assert.equal(answer['token_name'], token);
      assert.equal(answer['card_number'], '411111******1111');
      assert.equal(answer['eci'], 'ECOMMERCE');
      assert.ok(await verifiesAsGateway(answer));
      assert.ok(validate(trustedChannelResponse, answer, 'en').ok);
      assert.equal(r.gateway.order({ merchantReference: 'order-1' })?.state, 'captured');
    });

    it('answers AUTHORIZATION with 02000', async () => {
      const r = rig();
      const token = await tokenFor(r, 'success');
      const answer = await api(r.gateway, tokenCharge(token, { command: 'AUTHORIZATION' }));
      assert.equal(answer['response_code'], '02000');
      assert.equal(r.gateway.order({ merchantReference: 'order-1' })?.state, 'authorized');
    });

    for (const [outcome, code] of [['decline', '13001'], ['insufficient_funds', '13002']] as const) {
      it(`answers ${code} for the ${outcome} card's token`, async () => {
        const r = rig();
        const answer = await api(r.gateway, tokenCharge(await tokenFor(r, outcome)));
        assert.equal(answer['response_code'], code);
        assert.equal(r.gateway.order({ merchantReference: 'order-1' })?.state, 'declined');
      });
    }

    it('answers the 3-D Secure card with 20000 and a 3ds_url whose challenge posts the signed result to return_url', async () => {
      const r = rig();
      const token = await tokenFor(r, '3ds');
      const pending = await api(r.gateway, tokenCharge(token));
      assert.equal(pending['response_code'], '20000');
      assert.equal(pending['status'], '20');
      const url = String(pending['3ds_url']);
      assert.ok(url.startsWith(`http://sandbox.test${r.gateway.paths.challenge}?id=`));
      assert.equal(r.gateway.order({ merchantReference: 'order-1' })?.state, 'pending_3ds');
      const status = await api(r.gateway, { query_command: 'CHECK_STATUS', merchant_reference: 'order-1', language: 'en' });
      assert.equal(status['transaction_code'], '20000');

      const answer = await returnedAnswer(await answerChallenge(r.gateway, url, 'approve'));
      assert.equal(answer['response_code'], '14000');
      assert.equal(answer['token_name'], token);
      assert.equal(answer['merchant_reference'], 'order-1');
      assert.equal(answer['customer_ip'], '192.0.2.10');
      assert.equal(r.gateway.order({ merchantReference: 'order-1' })?.state, 'captured');
    });

    it('returns 03004 when the challenge of an AUTHORIZATION fails', async () => {
      const r = rig();
      const pending = await api(r.gateway, tokenCharge(await tokenFor(r, '3ds', 'MASTERCARD'), { command: 'AUTHORIZATION' }));
      const answer = await returnedAnswer(await answerChallenge(r.gateway, String(pending['3ds_url']), 'fail'));
      assert.equal(answer['response_code'], '03004');
    });

    it('answers 00010 for a token the merchant does not have', async () => {
      const r = rig();
      assert.equal((await api(r.gateway, tokenCharge('no-such-token')))['response_code'], '00010');
    });

    it('answers 00005 when the reference already has an order', async () => {
      const r = rig();
      const token = await tokenFor(r, 'success');
      await api(r.gateway, tokenCharge(token));
      assert.equal((await api(r.gateway, tokenCharge(token, { amount: '1' })))['response_code'], '00005');
      assert.equal(r.gateway.orders().length, 1);
    });

    it('answers 00011 once the stored card has expired', async () => {
      const r = rig();
      const token = await tokenFor(r, 'success');
      r.clock.set('2029-09-01T00:00:00Z');
      assert.equal((await api(r.gateway, tokenCharge(token)))['response_code'], '00011');
    });
  });

  describe('installments by direct operation (installments YES)', () => {
    it('charges with the chosen plan and returns number_of_installments', async () => {
      const r = rig();
      const token = await tokenFor(r, 'success', 'MASTERCARD');
      const answer = await api(r.gateway, tokenCharge(token, { installments: 'YES', plan_code: 'EGR12', issuer_code: 'EGMIX1' }));
      assert.equal(answer['response_code'], '14000');
      assert.equal(answer['number_of_installments'], '12');
      assert.equal(answer['plan_code'], 'EGR12');
      assert.equal(answer['issuer_code'], 'EGMIX1');
      assert.ok(validate(installmentsDirectResponse, answer, 'en').ok);
    });

    it('refuses a plan of another issuer or outside the plan’s amounts (00012)', async () => {
      const r = rig();
      const token = await tokenFor(r, 'success', 'VISA');
      const otherIssuer = await api(r.gateway, tokenCharge(token, { installments: 'YES', plan_code: 'EGR12', issuer_code: 'EGMIX1' }));
      assert.equal(otherIssuer['response_code'], '00012');
      const tooSmall = await api(r.gateway, tokenCharge(token, { installments: 'YES', plan_code: 'EGX12', issuer_code: 'EGFIX1', amount: '100' }));
      assert.equal(tooSmall['response_code'], '00012');
      assert.equal(r.gateway.orders().length, 0);
    });
  });

  describe('installments by hosted checkout (installments HOSTED)', () => {
    it('charges the plan chosen on the merchant’s page with the token of its merchant page 2.0 form', async () => {
      const r = rig();
      const token = await tokenFor(r, 'success', 'MASTERCARD');
      const answer = await api(r.gateway, tokenCharge(token, { installments: 'HOSTED', plan_code: 'EGF06', issuer_code: 'EGMIX1' }));
      assert.equal(answer['response_code'], '14000');
      assert.equal(answer['installments'], 'HOSTED');
      assert.equal(answer['number_of_installments'], '6');
      assert.ok(validate(installmentsDirectResponse, answer, 'en').ok);
    });

    it('refuses clear card data: the card was typed on the merchant’s page and tokenized there (00001, token_name)', async () => {
      const r = rig();
      const card = { token_name: undefined, card_number: testCard('success', 'MASTERCARD').number, expiry_date: '3012', card_security_code: '123' };
      const answer = await api(r.gateway, tokenCharge('', { ...card, installments: 'HOSTED', plan_code: 'EGF06', issuer_code: 'EGMIX1' }));
      assert.equal(answer['response_code'], '00001');
      assert.match(String(answer['response_message']), /token_name/);
      assert.equal(r.gateway.orders().length, 0);
      const direct = await api(r.gateway, tokenCharge('', { ...card, installments: 'YES', plan_code: 'EGF06', issuer_code: 'EGMIX1' }));
      assert.equal(direct['response_code'], '14000', 'a direct operation (YES) of a trusted merchant still may');
    });
  });

  describe('recurring PURCHASE with a token', () => {
    it('charges without a challenge, even for the 3-D Secure card', async () => {
      const r = rig();
      const token = await tokenFor(r, '3ds');
      const answer = await api(r.gateway, tokenCharge(token, { eci: 'RECURRING', return_url: undefined, customer_ip: undefined }));
      assert.equal(answer['response_code'], '14000');
      assert.equal(answer['eci'], 'RECURRING');
      assert.match(String(answer['settlement_reference']), /^SBX\d+$/);
      assert.ok(validate(recurringPurchaseResponse, answer, 'en').ok);
      assert.equal(r.gateway.order({ merchantReference: 'order-1' })?.channel, 'recurring');
    });
  });

  describe('trusted channel with clear card data', () => {
    it('charges the card and returns it masked, never the CVV', async () => {
      const r = rig();
      const answer = await api(r.gateway, {
        ...tokenCharge('', { eci: 'MOTO' }),
        token_name: undefined,
        card_number: testCard('success').number,
        expiry_date: FUTURE_EXPIRY.yymm,
        card_security_code: '123',
      });
      assert.equal(answer['response_code'], '14000');
      assert.equal(answer['card_number'], '411111******1111');
      assert.ok(!('card_security_code' in answer));
      assert.ok(await verifiesAsGateway(answer));
    });
  });
});
