/**
 * Tokens over loopback HTTP: creating them (trusted-channel TOKENIZATION, remember_me on a charge,
 * the merchant page), listing them (GET_TOKENS, JSON and XML), updating them (UPDATE_TOKEN), and
 * what a kept, an inactive and a temporary token may pay.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '../../src/core/field-errors.ts';
import { getTokensResponse, tokenizationApiResponse, updateTokenResponse } from '../../src/core/schemas/index.ts';
import { signParams } from '../../src/core/signature.ts';
import { SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { PAGE_SESSION_MS, testCard } from '../../src/sandbox/test-cards.ts';
import { callApi, postForm, postJson, signedAs, startLoopback, type LoopbackGateway } from './loopback.ts';
import { FUTURE_EXPIRY, hiddenFields, PAST_EXPIRY, START } from './support.ts';

const M = SANDBOX_MERCHANT;
const BASIC = SANDBOX_MERCHANT_BASIC;
let lb: LoopbackGateway;
let references = 0;

before(async () => {
  lb = await startLoopback();
});
after(() => lb.close());
beforeEach(() => {
  lb.gateway.reset();
  lb.clock.set(START);
});

const nextReference = (): string => `tok-${++references}`;

function createToken(number: string, extra: Record<string, unknown> = {}, merchant: SandboxMerchant = M) {
  return callApi(
    lb,
    {
      service_command: 'TOKENIZATION',
      merchant_reference: nextReference(),
      language: 'en',
      card_number: number,
      expiry_date: FUTURE_EXPIRY.yymm,
      card_security_code: '123',
      card_holder_name: 'Test Buyer',
      ...extra,
    },
    merchant,
  );
}

async function tokenOf(number = testCard('success').number, extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await createToken(number, extra);
  assert.equal(answer['response_code'], '18000');
  return String(answer['token_name']);
}

const purchase = (extra: Record<string, unknown>, merchant: SandboxMerchant = M) =>
  callApi(
    lb,
    {
      command: 'PURCHASE',
      merchant_reference: nextReference(),
      amount: '10000',
      currency: 'EGP',
      language: 'en',
      customer_email: 'buyer@example.com',
      ...extra,
    },
    merchant,
  );

const listTokens = (extra: Record<string, unknown> = {}, merchant: SandboxMerchant = M) =>
  callApi(lb, { query_command: 'GET_TOKENS', language: 'en', ...extra }, merchant);

const updateToken = (tokenName: string, extra: Record<string, unknown>, merchant: SandboxMerchant = M) =>
  callApi(lb, { service_command: 'UPDATE_TOKEN', merchant_reference: nextReference(), language: 'en', token_name: tokenName, ...extra }, merchant);

/** The merchant page 2.0 post: signed merchant fields plus the card the customer typed; the return post's fields. */
async function merchantPageToken(reference: string, card: Record<string, unknown> = {}, merchant: SandboxMerchant = M) {
  const signed = await signParams(
    {
      access_code: merchant.accessCode,
      merchant_identifier: merchant.merchantIdentifier,
      service_command: 'TOKENIZATION',
      merchant_reference: reference,
      language: 'en',
      return_url: 'http://shop.test/return',
    },
    merchant.requestPhrase,
    merchant.shaType,
    { merchantPage: true },
  );
  const response = await postForm(`${lb.origin}${lb.gateway.paths.paymentPage}`, {
    ...signed,
    card_number: testCard('success').number,
    expiry_date: FUTURE_EXPIRY.yymm,
    card_security_code: '123',
    ...card,
  });
  const fields = hiddenFields(await response.text());
  assert.equal(fields['response_code'], '18000');
  return String(fields['token_name']);
}

describe('tokens', () => {
  describe('TOKENIZATION with clear card data (trusted channel)', () => {
    it('verifies the card, keeps a token and charges nothing (18000)', async () => {
      const answer = await createToken(testCard('success').number, { token_name: 'buyer-1.visa' });
      assert.deepEqual([answer['response_code'], answer['status']], ['18000', '18']);
      assert.equal(answer['token_name'], 'buyer-1.visa');
      assert.equal(answer['card_number'], '411111******1111');
      assert.equal(answer['card_bin'], '411111');
      assert.equal(answer['payment_option'], 'VISA');
      assert.ok(!('card_security_code' in answer));
      assert.ok(validate(tokenizationApiResponse, answer, 'en').ok);
      assert.equal(lb.gateway.orders().length, 0);
      assert.deepEqual(lb.gateway.tokens().map((token) => [token.tokenName, token.temporary]), [['buyer-1.visa', false]]);
    });

    it('refuses an invalid card (17003) and an expired one (00011)', async () => {
      assert.equal((await createToken(testCard('invalid_card').number))['response_code'], '17003');
      assert.equal((await createToken('4111111111111112'))['response_code'], '17003');
      assert.equal((await createToken(testCard('success').number, { expiry_date: PAST_EXPIRY.yymm }))['response_code'], '00011');
      assert.equal(lb.gateway.tokens().length, 0);
    });

    it('refuses a request signed wrongly (00008)', async () => {
      const body = await signedAs(M, { service_command: 'TOKENIZATION', merchant_reference: 'x', language: 'en', card_number: testCard('success').number, expiry_date: FUTURE_EXPIRY.yymm });
      const answer = await postJson(lb.paymentApiUrl, { ...body, card_holder_name: 'Added After Signing' });
      assert.equal(answer.fields['response_code'], '00008');
      assert.ok(answer.verified, 'the refusal is signed for the merchant');
    });
  });

  describe('remember_me YES on an API charge of clear card data', () => {
    it('keeps a token once the charge succeeds and answers its token_name', async () => {
      const answer = await purchase({ card_number: testCard('success').number, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123', remember_me: 'YES' });
      assert.equal(answer['response_code'], '14000');
      const tokenName = String(answer['token_name']);
      assert.match(tokenName, /^TK[0-9a-f]+$/);
      assert.equal((await purchase({ token_name: tokenName }))['response_code'], '14000', 'the token pays later orders');
    });

    it('keeps nothing when the charge is declined, or without remember_me', async () => {
      const declined = await purchase({ card_number: testCard('decline').number, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123', remember_me: 'YES' });
      assert.equal(declined['response_code'], '13001');
      assert.ok(!('token_name' in declined));
      const plain = await purchase({ card_number: testCard('success').number, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123' });
      assert.ok(!('token_name' in plain));
      assert.equal(lb.gateway.tokens().length, 0);
    });

    it('keeps the token of a 3-D Secure card once its challenge is approved', async () => {
      const pending = await purchase({ card_number: testCard('3ds').number, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123', remember_me: 'YES', token_name: 'after-3ds', return_url: 'http://shop.test/return' });
      assert.equal(pending['response_code'], '20000');
      assert.equal(lb.gateway.tokens().length, 0);
      const page = await fetch(String(pending['3ds_url']));
      const challenge = /name="challenge" value="([0-9a-f]+)"/.exec(await page.text())?.[1];
      const done = hiddenFields(await (await postForm(`${lb.origin}${lb.gateway.paths.challenge}`, { challenge, decision: 'approve' })).text());
      assert.equal(done['response_code'], '14000');
      assert.equal(done['token_name'], 'after-3ds');
      assert.deepEqual(lb.gateway.tokens().map((token) => token.tokenName), ['after-3ds']);
    });

    it('keeps nothing for an account without tokenization', async () => {
      const answer = await purchase(
        { card_number: testCard('success').number, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123', remember_me: 'YES' },
        BASIC,
      );
      assert.equal(answer['response_code'], '14000');
      assert.ok(!('token_name' in answer));
    });
  });

  describe('GET_TOKENS', () => {
    it('lists the kept tokens with the spec’s fields, the window and the count (54000)', async () => {
      const first = await tokenOf(testCard('success').number);
      lb.clock.advance(60_000);
      const second = await tokenOf(testCard('success', 'MASTERCARD').number);
      const answer = await listTokens();
      assert.deepEqual([answer['response_code'], answer['status']], ['54000', '54']);
      assert.equal(answer['data_count'], '2');
      assert.equal(answer['response_format'], 'JSON');
      assert.equal(answer['from_date'], '2026-03-10T09:00:00+00:00', 'from the oldest token when not sent');
      assert.equal(answer['to_date'], '2026-03-10T09:01:00+00:00', 'to now when not sent');
      assert.deepEqual(answer['data_list'], [
        { card_number: '411111******1111', expiry_date: FUTURE_EXPIRY.yymm, token_name: first, card_brand: 'VISA', card_bin: '411111', token_status: 'ACTIVE', creation_date: '2026-03-10T09:00:00+00:00' },
        { card_number: '512345******2346', expiry_date: FUTURE_EXPIRY.yymm, token_name: second, card_brand: 'MASTERCARD', card_bin: '512345', token_status: 'ACTIVE', creation_date: '2026-03-10T09:01:00+00:00' },
      ]);
      assert.ok(validate(getTokensResponse, answer, 'en').ok);
    });

    it('answers in the spec’s XML shape when asked: root response, data_list of data nodes, signed over the same fields', async () => {
      const tokenName = await tokenOf();
      const answer = await postJson(lb.paymentApiUrl, await signedAs(M, { query_command: 'GET_TOKENS', language: 'en', response_format: 'XML' }));
      assert.match(answer.contentType, /^application\/xml/);
      assert.match(answer.text, /^<\?xml version="1.0" encoding="UTF-8"\?><response>/);
      assert.match(answer.text, /<data_list><data><card_number>411111\*\*\*\*\*\*1111<\/card_number>/);
      assert.ok(answer.verified, 'the XML, parsed back, verifies with the response phrase');
      assert.equal(answer.fields['query_command'], 'GET_TOKENS');
      assert.equal(answer.fields['response_format'], 'XML');
      assert.equal(answer.fields['data_count'], '1');
      assert.equal((answer.fields['data_list'] as Record<string, string>[])[0]?.['token_name'], tokenName);
    });

    it('narrows by creation date and status, and refuses a window that ends before it starts (55001)', async () => {
      const early = await tokenOf();
      lb.clock.advance(3_600_000);
      const late = await tokenOf(testCard('success', 'MASTERCARD').number);
      await updateToken(early, { token_status: 'INACTIVE' });
      const names = (answer: Record<string, unknown>) => (answer['data_list'] as { token_name: string }[]).map((entry) => entry.token_name);
      assert.deepEqual(names(await listTokens({ from_date: '2026-03-10T11:30:00+02:00' })), [late]);
      assert.deepEqual(names(await listTokens({ to_date: '2026-03-10T09:30:00+00:00' })), [early]);
      assert.deepEqual(names(await listTokens({ token_status: 'INACTIVE' })), [early]);
      const window = await listTokens({ from_date: '2026-03-10T11:30:00+02:00' });
      assert.equal(window['from_date'], '2026-03-10T11:30:00+02:00', 'a bound sent is echoed as sent');
      assert.equal((await listTokens({ from_date: '2026-03-11T00:00:00+00:00', to_date: '2026-03-10T00:00:00+00:00' }))['response_code'], '55001');
    });

    it('never lists a temporary token, nor another merchant’s', async () => {
      await merchantPageToken(nextReference());
      await createToken(testCard('success').number, {}, M);
      assert.equal((await listTokens({}, M))['data_count'], '1');
      assert.equal(lb.gateway.tokens().filter((token) => token.temporary).length, 1);
    });
  });

  describe('UPDATE_TOKEN', () => {
    it('deactivates a token (58000); an inactive token pays nothing (00015) until activated again', async () => {
      const tokenName = await tokenOf();
      const answer = await updateToken(tokenName, { token_status: 'INACTIVE' });
      assert.deepEqual([answer['response_code'], answer['status']], ['58000', '58']);
      assert.equal(answer['token_status'], 'INACTIVE');
      assert.equal(answer['card_number'], '411111******1111');
      assert.equal(answer['card_bin'], '411111');
      assert.equal(answer['card_brand'], 'VISA');
      assert.equal(answer['creation_date'], '2026-03-10T09:00:00+00:00');
      assert.ok(validate(updateTokenResponse, answer, 'en').ok);
      const refused = await purchase({ token_name: tokenName });
      assert.equal(refused['response_code'], '00015');
      assert.equal(refused['response_message'], 'Token is inactive');
      assert.equal(lb.gateway.orders().length, 0);
      await updateToken(tokenName, { token_status: 'ACTIVE' });
      assert.equal((await purchase({ token_name: tokenName }))['response_code'], '14000');
    });

    it('changes the card’s expiry date and holder name', async () => {
      const tokenName = await tokenOf();
      await updateToken(tokenName, { expiry_date: '3112', card_holder_name: 'New Holder' });
      const entry = ((await listTokens())['data_list'] as Record<string, string>[])[0];
      assert.equal(entry?.['expiry_date'], '3112');
      assert.equal(lb.gateway.tokens()[0]?.expiryDate, '3112');
      assert.equal((await updateToken(tokenName, { expiry_date: PAST_EXPIRY.yymm }))['response_code'], '00011');
    });

    it('renames a token: the new name pays, the old one is unknown (00010), a name in use is refused (59001)', async () => {
      const tokenName = await tokenOf();
      const other = await tokenOf(testCard('success', 'MASTERCARD').number);
      assert.equal((await updateToken(tokenName, { new_token_name: other }))['response_code'], '59001');
      assert.equal((await updateToken(tokenName, { new_token_name: 'renamed.card' }))['response_code'], '58000');
      assert.equal((await purchase({ token_name: tokenName }))['response_code'], '00010');
      assert.equal((await purchase({ token_name: 'renamed.card' }))['response_code'], '14000');
    });

    it('answers 00010 for a token the merchant does not have, and 00016 for a temporary one', async () => {
      assert.equal((await updateToken('nope', { token_status: 'INACTIVE' }))['response_code'], '00010');
      const temporary = await merchantPageToken(nextReference());
      assert.equal((await updateToken(temporary, { token_status: 'INACTIVE' }))['response_code'], '00016');
    });
  });

  describe('a temporary token (merchant page without remember_me YES)', () => {
    it('pays the payment it was made for, once', async () => {
      const reference = nextReference();
      const tokenName = await merchantPageToken(reference);
      const paid = await callApi(lb, { command: 'PURCHASE', merchant_reference: reference, amount: '10000', currency: 'EGP', language: 'en', token_name: tokenName });
      assert.equal(paid['response_code'], '14000');
      const again = await purchase({ token_name: tokenName });
      assert.equal(again['response_code'], '00016');
      assert.equal(again['response_message'], 'Token is valid only for the payment it was created for');
    });

    it('may be tried again after a declined attempt, and lapses with the page session', async () => {
      const reference = nextReference();
      const tokenName = await merchantPageToken(reference, { card_number: testCard('decline').number });
      const charge = () => callApi(lb, { command: 'PURCHASE', merchant_reference: reference, amount: '10000', currency: 'EGP', language: 'en', token_name: tokenName });
      assert.equal((await charge())['response_code'], '13001');
      assert.equal((await charge())['response_code'], '13001', 'a declined attempt does not spend it');
      lb.clock.advance(PAGE_SESSION_MS);
      assert.equal((await charge())['response_code'], '00016');
    });

    it('never pays a recurring charge', async () => {
      const reference = nextReference();
      const tokenName = await merchantPageToken(reference);
      const answer = await callApi(lb, { command: 'PURCHASE', merchant_reference: reference, amount: '10000', currency: 'EGP', language: 'en', eci: 'RECURRING', token_name: tokenName });
      assert.equal(answer['response_code'], '00016');
    });

    it('is kept with remember_me YES, and stays temporary for an account without tokenization', async () => {
      const kept = await merchantPageToken(nextReference(), { remember_me: 'YES' });
      assert.equal((await purchase({ token_name: kept }))['response_code'], '14000', 'a kept token pays any order');
      const basic = await merchantPageToken(nextReference(), { remember_me: 'YES' }, BASIC);
      assert.equal(lb.gateway.tokens().find((token) => token.tokenName === basic)?.temporary, true);
    });
  });

  describe('an account without tokenization', () => {
    it('answers GET_TOKENS, UPDATE_TOKEN and TOKENIZATION with 00014, signed with its own SHA-512 phrase', async () => {
      assert.equal((await listTokens({}, BASIC))['response_code'], '00014');
      assert.equal((await updateToken('any', { token_status: 'INACTIVE' }, BASIC))['response_code'], '00014');
      const answer = await createToken(testCard('success').number, {}, BASIC);
      assert.equal(answer['response_code'], '00014');
      assert.equal(answer['response_message'], 'Service not activated for this merchant');
      assert.match(String(answer['signature']), /^[0-9a-f]{128}$/);
    });
  });
});
