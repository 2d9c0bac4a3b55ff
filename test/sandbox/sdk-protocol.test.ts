/**
 * What driving the sandbox with the official SDKs found (issue 11, "Fix"), each over loopback
 * HTTP as an SDK talks to it: the request as the SDK sends it, the answer read off the wire and
 * verified with the response phrase.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SANDBOX_FINANCING_PARTNER_CODE as FINANCING_PARTNER_CODE } from '../../src/sandbox/partners.ts';
import { SANDBOX_MERCHANT } from '../../src/sandbox/merchants.ts';
import { REGISTERED_FINANCING_PHONE, SANDBOX_OTP, testCard } from '../../src/sandbox/test-cards.ts';
import { callApi, phpSdkAccepts, postForm, postJson, signedAs, startLoopback, type LoopbackGateway } from './loopback.ts';
import { FUTURE_EXPIRY, hiddenFields } from './support.ts';

const M = SANDBOX_MERCHANT;
const card = { card_number: testCard('success').number, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123' };
let lb: LoopbackGateway;
let orders = 0;

before(async () => {
  lb = await startLoopback();
});
after(() => lb.close());

const nextReference = (): string => `sdk-${++orders}`;

/** A trusted-channel charge of the success card; returns its svc_id. */
async function charged(reference: string, command: 'AUTHORIZATION' | 'PURCHASE'): Promise<string> {
  const answer = await callApi(lb, {
    command,
    merchant_reference: reference,
    amount: '10000',
    currency: 'EGP',
    language: 'en',
    customer_email: 'buyer@example.com',
    ...card,
  });
  assert.equal(answer['response_code'], command === 'PURCHASE' ? '14000' : '02000');
  return String(answer['svc_id']);
}

const maintenance = (command: 'CAPTURE' | 'REFUND', reference: string, extra: Record<string, unknown> = {}) => ({
  command,
  merchant_reference: reference,
  amount: '4000',
  currency: 'EGP',
  language: 'en',
  ...extra,
});

describe('driving the sandbox as the official SDKs do', () => {
  describe('CAPTURE and REFUND', () => {
    it('accept merchant_reference alone, as the PHP SDK sends them (it has no svc_id for a capture)', async () => {
      const reference = nextReference();
      await charged(reference, 'AUTHORIZATION');
      const captured = await callApi(lb, maintenance('CAPTURE', reference));
      assert.deepEqual([captured['response_code'], captured['status']], ['20064', '04']);
      const refunded = await callApi(lb, maintenance('REFUND', reference, { maintenance_reference: 'refund-1' }));
      assert.deepEqual([refunded['response_code'], refunded['status']], ['20064', '04']);
      assert.equal(refunded['maintenance_reference'], 'refund-1');
      assert.equal(lb.gateway.order({ merchantReference: reference })?.refundedAmount, 4000);
    });

    it('still accept svc_id beside it, and refuse the two naming different orders (00007)', async () => {
      const first = nextReference();
      const svcId = await charged(first, 'AUTHORIZATION');
      const other = nextReference();
      const otherSvcId = await charged(other, 'AUTHORIZATION');
      assert.equal((await callApi(lb, maintenance('CAPTURE', first, { svc_id: otherSvcId })))['response_code'], '00007');
      assert.equal((await callApi(lb, maintenance('CAPTURE', first, { svc_id: svcId })))['response_code'], '20064');
      assert.equal(lb.gateway.order({ svcId: otherSvcId })?.capturedAmount, 0, 'the refused capture changed nothing');
    });

    it('answer CHECK_STATUS with the two naming different orders 00007, as CAPTURE does, and 12001 when none is held', async () => {
      const first = nextReference();
      await charged(first, 'AUTHORIZATION');
      const otherSvcId = await charged(nextReference(), 'AUTHORIZATION');
      const status = (extra: Record<string, unknown>) => callApi(lb, { query_command: 'CHECK_STATUS', language: 'en', ...extra });
      const mismatch = await status({ merchant_reference: first, svc_id: otherSvcId });
      assert.deepEqual([mismatch['response_code'], mismatch['status']], ['00007', '00']);
      assert.ok(!('transaction_status' in mismatch));
      assert.equal((await status({ merchant_reference: nextReference(), svc_id: '1234567890' }))['response_code'], '12001');
    });
  });

  describe('GET_INSTALLMENTS_PLANS', () => {
    it('is signed so that a verifier following the PHP SDK accepts it (installment_detail left out)', async () => {
      const answer = await callApi(lb, { query_command: 'GET_INSTALLMENTS_PLANS', language: 'en', amount: '300000', currency: 'AED' });
      assert.equal(answer['response_code'], '62000');
      assert.ok('installment_detail' in answer);
      assert.ok(phpSdkAccepts(answer, M.responsePhrase));
    });
  });

  describe('installments HOSTED', () => {
    it('charges a merchant page 2.0 token with the chosen plan, as YES does', async () => {
      const reference = nextReference();
      const tokenization = await postForm(`${lb.origin}${lb.gateway.paths.paymentPage}`, {
        ...(await signedAs(M, { service_command: 'TOKENIZATION', merchant_reference: reference, language: 'en', return_url: 'http://shop.test/return' })),
        card_number: testCard('success', 'MASTERCARD').number,
        expiry_date: FUTURE_EXPIRY.yymm,
        card_security_code: '123',
      });
      const token = hiddenFields(await tokenization.text())['token_name'];
      assert.ok(token);
      const answer = await callApi(lb, {
        command: 'PURCHASE',
        merchant_reference: reference,
        amount: '600000',
        currency: 'EGP',
        language: 'en',
        customer_email: 'buyer@example.com',
        customer_ip: '192.0.2.10',
        token_name: token,
        installments: 'HOSTED',
        plan_code: 'EGR12',
        issuer_code: 'EGMIX1',
      });
      assert.equal(answer['response_code'], '14000');
      assert.deepEqual([answer['installments'], answer['number_of_installments'], answer['plan_code']], ['HOSTED', '12', 'EGR12']);
    });
  });

  describe('optional fields', () => {
    const sdkFields = {
      billing_street: 'Tahrir St. 1',
      billing_city: 'Cairo',
      shipping_sameAsBilling: 'YES',
      agreement_id: 'AGR-7',
      app_programming: '.NET',
      app_framework: '.NET',
      app_ver: 'v8',
      app_plugin: '.dotNETSDK',
      app_plugin_version: 'v2.0.0',
      customer_first_name: 'Mona',
      fraud_extra1: 'gold',
    };

    it('accepts and echoes the billing, shipping, agreement, app_* and fraud-screening fields the SDKs send', async () => {
      const answer = await callApi(lb, {
        command: 'PURCHASE',
        merchant_reference: nextReference(),
        amount: '10000',
        currency: 'EGP',
        language: 'en',
        customer_email: 'buyer@example.com',
        ...card,
        ...sdkFields,
      });
      assert.equal(answer['response_code'], '14000');
      for (const [name, value] of Object.entries(sdkFields)) assert.equal(answer[name], value, name);
    });

    it('still refuses a name no one sends (00002, unknown field)', async () => {
      const answer = await callApi(lb, {
        command: 'PURCHASE',
        merchant_reference: nextReference(),
        amount: '10000',
        currency: 'EGP',
        language: 'en',
        ...card,
        billing_planet: 'Mars',
      });
      assert.equal(answer['response_code'], '00002');
      assert.match(String(answer['response_message']), /billing_planet: is not a field of this request/);
    });
  });

  describe('the spec’s optional common fields on services and queries', () => {
    const common = {
      merchant_extra: 'x0',
      merchant_extra1: 'cart-7',
      merchant_extra2: 'x2',
      merchant_extra3: 'x3',
      merchant_extra4: 'x4',
      merchant_extra5: 'x5',
      order_description: 'Headphones',
      customer_ip: '192.0.2.44',
    };
    const operations: readonly [string, () => Record<string, unknown>, string][] = [
      ['BILL_PRESENTMENT', () => ({ service_command: 'BILL_PRESENTMENT', merchant_reference: nextReference(), amount: '10000', currency: 'EGP', language: 'en', request_expiry_date: '2026-03-12T11:00:00+02:00', payment_partner: 'CASHP', phone_number: REGISTERED_FINANCING_PHONE }), '30000'],
      ['CHECK_STATUS', () => ({ query_command: 'CHECK_STATUS', merchant_reference: nextReference(), language: 'en', customer_email: 'buyer@example.com', customer_name: 'Mona Hassan' }), '12001'],
      ['CUSTOMER_VERIFY', () => ({ service_command: 'CUSTOMER_VERIFY', merchant_reference: nextReference(), language: 'en', payment_option: FINANCING_PARTNER_CODE, phone_number: REGISTERED_FINANCING_PHONE, customer_email: 'buyer@example.com' }), '90000'],
      ['3DS_ENROLLMENT', () => ({ service_command: '3DS_ENROLLMENT', merchant_reference: nextReference(), amount: '10000', currency: 'EGP', language: 'en', card_number: card.card_number, expiry_date: card.expiry_date, merchant_3ds_url: 'https://shop.test/3ds' }), '44000'],
      ['GET_INSTALLMENTS_PLANS', () => ({ query_command: 'GET_INSTALLMENTS_PLANS', language: 'en', currency: 'EGP' }), '62000'],
    ];
    for (const [operation, request, code] of operations) {
      it(`takes merchant_extra…5, order_description and the customer fields on ${operation}, and returns them signed`, async () => {
        const sent = { ...request(), ...common };
        const answer = await callApi(lb, sent);
        assert.equal(answer['response_code'], code, String(answer['response_message']));
        for (const [name, value] of Object.entries(common)) assert.equal(answer[name], value, name);
      });
    }

    it('keeps each field’s rule and an operation’s own: an empty merchant_extra1 (00001), a financing phone that is no mobile (00002)', async () => {
      const [, status] = operations[1] ?? [];
      const empty = await callApi(lb, { ...status?.(), merchant_extra1: '' });
      assert.equal(empty['response_code'], '00001');
      assert.match(String(empty['response_message']), /merchant_extra1/);
      const [, verify] = operations[2] ?? [];
      assert.equal((await callApi(lb, { ...verify?.(), phone_number: '12345' }))['response_code'], '00002');
      const unknown = await callApi(lb, { ...status?.(), merchant_extra6: 'x' });
      assert.equal(unknown['response_code'], '00002', 'a name outside the table is still unknown');
      assert.match(String(unknown['response_message']), /merchant_extra6: is not a field of this request/);
    });
  });

  describe('the trusted channel', () => {
    it('charges clear card data with eci RECURRING', async () => {
      const answer = await callApi(lb, {
        command: 'PURCHASE',
        merchant_reference: nextReference(),
        amount: '10000',
        currency: 'EGP',
        language: 'en',
        customer_email: 'buyer@example.com',
        eci: 'RECURRING',
        card_number: testCard('3ds').number,
        expiry_date: FUTURE_EXPIRY.yymm,
      });
      assert.equal(answer['response_code'], '14000', 'merchant-initiated: no challenge, no security code');
      assert.equal(answer['eci'], 'RECURRING');
    });
  });

  describe('CHECK_STATUS by svc_id alone', () => {
    it('answers the order’s merchant_reference', async () => {
      const reference = nextReference();
      const svcId = await charged(reference, 'PURCHASE');
      const status = await callApi(lb, { query_command: 'CHECK_STATUS', svc_id: svcId, language: 'en' });
      assert.equal(status['response_code'], '12000');
      assert.equal(status['merchant_reference'], reference);
    });
  });

  describe('consumer financing', () => {
    const common = () => ({ language: 'en', payment_option: FINANCING_PARTNER_CODE, phone_number: REGISTERED_FINANCING_PHONE });
    const money = { merchant_order_id: 'shop-1', amount: '1200000', currency: 'EGP' };

    async function generated(reference: string): Promise<Record<string, unknown>> {
      const products = [{ product_name: 'Phone', product_price: '12000.00', product_category: 'Electronics' }];
      await callApi(lb, { service_command: 'CUSTOMER_VERIFY', merchant_reference: reference, ...common() });
      const answer = await callApi(lb, { service_command: 'OTP_GENERATE', merchant_reference: reference, ...common(), ...money, products });
      assert.equal(answer['response_code'], '88000');
      return answer;
    }
    const verify = (reference: string, downPayment: number) =>
      callApi(lb, { service_command: 'OTP_VERIFY', merchant_reference: reference, ...common(), ...money, total_downpayment: downPayment, otp: SANDBOX_OTP });
    const purchase = (reference: string, otp: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      callApi(lb, {
        command: 'PURCHASE',
        merchant_reference: reference,
        ...common(),
        ...money,
        customer_email: 'buyer@example.com',
        customer_code: 'c-1',
        transaction_id: otp['transaction_id'],
        otp: SANDBOX_OTP,
        tenure: '6',
        total_down_payment: otp['total_down_payment'],
        purchase_description: 'Phone',
        ...extra,
      });

    it('refuses an OTP_VERIFY whose down payment is not the one OTP_GENERATE answered (93004)', async () => {
      const reference = nextReference();
      const otp = await generated(reference);
      assert.equal((await verify(reference, Number(otp['total_down_payment']) - 1))['response_code'], '93004');
      assert.equal((await verify(reference, Number(otp['total_down_payment'])))['response_code'], '92182');
    });

    it('refuses a PURCHASE with another down payment (93004), and takes customer_ip and answers it', async () => {
      const reference = nextReference();
      const otp = await generated(reference);
      await verify(reference, Number(otp['total_down_payment']));
      assert.equal((await purchase(reference, otp, { total_down_payment: 1 }))['response_code'], '93004');
      const done = await purchase(reference, otp, { customer_ip: '192.0.2.44' });
      assert.equal(done['response_code'], '14000');
      assert.equal(done['customer_ip'], '192.0.2.44');
    });
  });

  describe('a caller without the merchant’s access code', () => {
    const status = { query_command: 'CHECK_STATUS', merchant_reference: 'anything', language: 'en' };

    for (const [what, change] of [
      ['an unknown merchant_identifier', { merchant_identifier: 'someoneElse' }],
      ['a wrong access_code', { access_code: 'wrongAccessCode' }],
    ] as const) {
      it(`gets ${what} answered 00006, HTTP 200, unsigned`, async () => {
        const answer = await postJson(lb.paymentApiUrl, { ...(await signedAs(M, status)), ...change });
        assert.equal(answer.httpStatus, 200);
        assert.equal(answer.fields['response_code'], '00006');
        assert.ok(!('signature' in answer.fields), 'the sandbox signs only for whoever holds the access code');
      });
    }

    it('gets a missing access_code answered 00001, unsigned', async () => {
      const { access_code: _accessCode, ...without } = await signedAs(M, status);
      const answer = await postJson(lb.paymentApiUrl, without);
      assert.equal(answer.fields['response_code'], '00001');
      assert.ok(!('signature' in answer.fields));
    });

    it('is shown the refusal on the hosted page instead of being sent to return_url with a signed one', async () => {
      const fields = await signedAs(M, {
        command: 'PURCHASE',
        merchant_reference: nextReference(),
        amount: '10000',
        currency: 'EGP',
        language: 'en',
        return_url: 'http://shop.test/return',
      });
      const page = await postForm(`${lb.origin}${lb.gateway.paths.paymentPage}`, { ...fields, access_code: 'wrongAccessCode' });
      assert.equal(page.status, 400);
      const html = await page.text();
      assert.doesNotMatch(html, /return-form/);
      assert.doesNotMatch(html, /name="signature"/);
    });
  });
});
