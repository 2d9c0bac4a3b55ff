/**
 * Charges and tokens through the back-office client, against the sandbox over loopback HTTP: a
 * card saved at checkout (merchant page, remember_me=YES) charged again as recurring; the token
 * listed (the spec's XML answer, parsed), switched off and on; a token made from card data on the
 * trusted channel; a trusted MOTO charge; and the 3-D Secure services ending in an External MPI
 * purchase.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { externalMpiResult, GatewayRequestError, type GatewayClient } from '../../src/gateway/index.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import {
  card,
  challengeOf,
  clientFor,
  formAction,
  FUTURE_EXPIRY,
  hiddenFields,
  nextReference,
  saveCardAtCheckout,
  startSandbox,
  type Sandbox,
} from './support.ts';

let sandbox: Sandbox;
let client: GatewayClient;

before(async () => {
  sandbox = await startSandbox();
  client = clientFor(sandbox.origin);
});
after(() => sandbox.close());

describe('a card saved at checkout', () => {
  let token = '';

  before(async () => {
    const checkout = nextReference('checkout');
    const saved = await saveCardAtCheckout(sandbox.origin, checkout);
    assert.equal(saved['response_code'], '18000');
    token = saved['token_name'] ?? '';
    // The checkout's own payment: the merchant page completion, PURCHASE with the token.
    const first = await client.trustedPurchase({ merchant_reference: checkout, amount: 49_900, currency: 'EGP', eci: 'ECOMMERCE', token_name: token, customer_ip: '203.0.113.7' });
    assert.equal(first.outcome, 'success');
  });

  it('is charged again as a recurring PURCHASE (eci RECURRING, 14000)', async () => {
    const result = await client.recurringPurchase({ merchant_reference: nextReference('sub'), amount: 49_900, currency: 'EGP', token_name: token, customer_email: 'subscriber@example.com' });
    assert.deepEqual([result.outcome, result.response_code, result.answer?.eci], ['success', '14000', 'RECURRING']);
    assert.match(String(result.answer?.svc_id), /^\d+$/);
    assert.equal(result.answer?.card_number, '411111******1111', 'the answer carries the card masked');
  });

  it('is listed by GET_TOKENS, asked for as the spec’s XML and read into the typed list', async () => {
    const list = await client.listTokens({ token_status: 'ACTIVE' });
    assert.deepEqual([list.outcome, list.response_code, list.answer?.response_format], ['success', '54000', 'XML']);
    const entry = list.answer?.data_list?.find((item) => item.token_name === token);
    assert.deepEqual([entry?.card_number, entry?.token_status, entry?.card_bin], ['411111******1111', 'ACTIVE', '411111']);
    assert.equal(String(list.answer?.data_count), String(list.answer?.data_list?.length));
  });

  it('switched INACTIVE by UPDATE_TOKEN pays nothing (00015, refused), and pays again once ACTIVE', async () => {
    const off = await client.updateToken({ merchant_reference: nextReference('tok'), token_name: token, token_status: 'INACTIVE' });
    assert.deepEqual([off.outcome, off.response_code, off.answer?.token_status], ['success', '58000', 'INACTIVE']);
    const refused = await client.recurringPurchase({ merchant_reference: nextReference('sub'), amount: 1_000, currency: 'EGP', token_name: token, customer_email: 'subscriber@example.com' });
    assert.deepEqual([refused.outcome, refused.response_code], ['refused', '00015']);
    await client.updateToken({ merchant_reference: nextReference('tok'), token_name: token, token_status: 'ACTIVE' });
    const paid = await client.recurringPurchase({ merchant_reference: nextReference('sub'), amount: 1_000, currency: 'EGP', token_name: token, customer_email: 'subscriber@example.com' });
    assert.equal(paid.outcome, 'success');
  });
});

describe('the trusted channel (PCI-certified merchants)', () => {
  it('charges clear card data as MOTO (14000, eci MOTO), and a declined card is declined', async () => {
    const moto = await client.trustedPurchase({ merchant_reference: nextReference('moto'), amount: 12_500, currency: 'EGP', eci: 'MOTO', ...card() });
    assert.deepEqual([moto.outcome, moto.response_code, moto.answer?.eci], ['success', '14000', 'MOTO']);
    const declined = await client.trustedPurchase({ merchant_reference: nextReference('moto'), amount: 12_500, currency: 'EGP', eci: 'MOTO', ...card('decline') });
    assert.deepEqual([declined.outcome, declined.response_code], ['declined', '13001']);
  });

  it('creates a token from card data (TOKENIZATION, 18000) that a later MOTO charge uses', async () => {
    const made = await client.createToken({ merchant_reference: nextReference('tok'), card_number: testCard('success', 'MASTERCARD').number, expiry_date: FUTURE_EXPIRY, remember_me: 'YES' });
    assert.deepEqual([made.outcome, made.response_code, made.answer?.payment_option], ['success', '18000', 'MASTERCARD']);
    const token = String(made.answer?.token_name);
    const charged = await client.trustedAuthorization({ merchant_reference: nextReference('moto'), amount: 3_000, currency: 'EGP', eci: 'MOTO', token_name: token });
    assert.deepEqual([charged.outcome, charged.response_code], ['success', '02000']);
  });

  it('logs names and outcomes, never the card, the phrases or a signature', async () => {
    const lines: string[] = [];
    const record = (event: string, data?: unknown) => void lines.push(JSON.stringify({ event, ...(data as object) }));
    const logged = clientFor(sandbox.origin, { logger: { info: record, warn: record, error: record } });
    await logged.trustedPurchase({ merchant_reference: nextReference('log'), amount: 100, currency: 'EGP', eci: 'MOTO', ...card() });
    const text = lines.join('\n');
    assert.match(text, /"event":"gateway_answer"/);
    assert.doesNotMatch(text, /4111111111111111|411111\*+1111|sandbox-request-phrase|sandbox-response-phrase|"signature"/);
  });

  it('logs a CHECK_STATUS of an order the gateway does not hold as not_found, naming the order, not as a refusal', async () => {
    const lines: Record<string, unknown>[] = [];
    const record = (event: string, data?: unknown) => void lines.push({ event, ...(data as object) });
    const logged = clientFor(sandbox.origin, { logger: { info: record, warn: record, error: record } });
    const reference = nextReference('unknown');
    const status = await logged.checkStatus({ merchant_reference: reference });
    assert.equal(status.order?.state, 'not_found');
    const answer = lines.find((line) => line['event'] === 'gateway_answer');
    assert.deepEqual([answer?.['operation'], answer?.['merchant_reference'], answer?.['outcome']], ['CHECK_STATUS', reference, 'not_found']);
  });

  it('names a field the gateway would refuse before signing anything, in English or Arabic', async () => {
    for (const [language, pattern] of [
      ['en', /^card_number: /],
      ['ar', /^card_number: .*[\u0600-\u06FF]/],
    ] as const) {
      await assert.rejects(
        client.trustedPurchase({ merchant_reference: nextReference('bad'), amount: 100, currency: 'EGP', eci: 'MOTO', ...card(), card_number: '4111-1111', language }),
        (error: unknown) => {
          assert.ok(error instanceof GatewayRequestError);
          assert.equal(error.errors[0]?.field, 'card_number');
          assert.match(error.errors[0]?.message ?? '', pattern);
          assert.doesNotMatch(error.message, /4111-1111/, 'the value is never repeated');
          return true;
        },
      );
    }
  });
});

describe('3-D Secure enrollment, authentication, then an External MPI purchase', () => {
  it('enrolls the card, the customer approves on the issuer’s page, authentication answers, the MPI purchase is paid', async () => {
    const reference = nextReference('3ds');
    const merchant3dsUrl = 'http://shop.test/3ds-return';
    const threeDsCard = testCard('3ds').number;
    const enrollment = await client.threeDsEnrollment({ merchant_reference: reference, amount: 10_000, currency: 'EGP', card_number: threeDsCard, expiry_date: FUTURE_EXPIRY, merchant_3ds_url: merchant3dsUrl });
    assert.deepEqual([enrollment.outcome, enrollment.response_code, enrollment.answer?.['3ds_enrolled']], ['success', '44000', 'Y']);

    // The customer on the issuer's page (3ds_url) presses Approve; the page posts its parameters to merchant_3ds_url.
    const page = await fetch(String(enrollment.answer?.['3ds_url']));
    const answered = await fetch(`${sandbox.origin}/FortAPI/3ds/acs`, {
      method: 'POST',
      body: new URLSearchParams({ challenge: challengeOf(await page.text()), decision: 'approve' }),
    });
    const html = await answered.text();
    assert.equal(formAction(html), merchant3dsUrl);
    const thirdPartyBody = new URLSearchParams(hiddenFields(html)).toString();

    const authentication = await client.threeDsAuthentication({ merchant_reference: reference, third_party_body: thirdPartyBody });
    assert.deepEqual([authentication.outcome, authentication.answer?.['3ds_status']], ['success', 'Y']);

    const purchase = await client.mpiPurchase({
      merchant_reference: reference,
      amount: 10_000,
      currency: 'EGP',
      eci: 'ECOMMERCE',
      ...card('3ds'),
      ...externalMpiResult(authentication.answer!),
      '3ds_enrolled': 'Y',
    });
    assert.deepEqual([purchase.outcome, purchase.response_code], ['success', '14000']);
    assert.equal(purchase.answer?.['3ds_url'], undefined, 'no challenge: the check was done already');
  });
});
