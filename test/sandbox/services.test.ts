/**
 * Service activation per merchant account, over loopback HTTP: the second sandbox merchant has
 * every optional service off and answers each of their operations 00014; fraud prevention screens
 * the documented test address where it is on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signParams } from '../../src/core/signature.ts';
import {
  endpointCredentials,
  hasService,
  SANDBOX_MERCHANT,
  SANDBOX_MERCHANT_BASIC,
  SANDBOX_SERVICES,
} from '../../src/sandbox/merchants.ts';
import { FRAUD_SCREENING_EMAIL, testCard } from '../../src/sandbox/test-cards.ts';
import { callApi, postForm, postJson, signedAs, startLoopback, type LoopbackGateway } from './loopback.ts';
import { FUTURE_EXPIRY, hiddenFields } from './support.ts';

const M = SANDBOX_MERCHANT;
const BASIC = SANDBOX_MERCHANT_BASIC;
let lb: LoopbackGateway;
let references = 0;
before(async () => {
  lb = await startLoopback();
});
after(() => lb.close());
const nextReference = (): string => `svc-${++references}`;
const card = { card_number: testCard('success').number, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123' };

describe('service activation per merchant account', () => {
  it('has every optional service on for the first merchant and off for the second', () => {
    for (const service of SANDBOX_SERVICES) {
      assert.equal(hasService(M, service), true, service);
      assert.equal(hasService(BASIC, service), false, service);
    }
  });

  it('gives the merchant endpoint the second merchant’s credentials, with its SHA-512 phrases', async () => {
    assert.deepEqual(endpointCredentials(BASIC), {
      merchantIdentifier: 'pgSandboxBasic',
      accessCode: 'SBXaccess0000000002',
      shaType: 'sha512',
      requestPhrase: 'basic-request-phrase',
      responsePhrase: 'basic-response-phrase',
      voucherPartnerCode: 'CASHP',
      financingPartnerCode: 'FINCO',
    });
    const answer = await callApi(lb, { query_command: 'CHECK_STATUS', merchant_reference: 'none', language: 'en' }, BASIC);
    assert.equal(answer['response_code'], '12001');
    assert.match(String(answer['signature']), /^[0-9a-f]{128}$/);
  });

  describe('the second merchant, with every optional service off', () => {
    const operations: readonly (readonly [string, Record<string, unknown>])[] = [
      ['GET_INSTALLMENTS_PLANS', { query_command: 'GET_INSTALLMENTS_PLANS', language: 'en' }],
      ['installments YES', { command: 'PURCHASE', merchant_reference: 'i-1', amount: '600000', currency: 'EGP', language: 'en', ...card, installments: 'YES', plan_code: 'EGX06', issuer_code: 'EGFIX1' }],
      ['GET_TOKENS', { query_command: 'GET_TOKENS', language: 'en' }],
      ['UPDATE_TOKEN', { service_command: 'UPDATE_TOKEN', merchant_reference: 'u-1', language: 'en', token_name: 'any' }],
      ['TOKENIZATION', { service_command: 'TOKENIZATION', merchant_reference: 't-1', language: 'en', ...card }],
      ['3DS_ENROLLMENT', { service_command: '3DS_ENROLLMENT', merchant_reference: 'e-1', amount: '100', currency: 'EGP', language: 'en', card_number: card.card_number, expiry_date: card.expiry_date, merchant_3ds_url: 'http://shop.test/3ds' }],
      ['3DS_AUTHENTICATION', { service_command: '3DS_AUTHENTICATION', merchant_reference: 'e-1', language: 'en', third_party_body: 'MD=a&PaRes=b' }],
      ['CURRENCY_CONVERSION', { service_command: 'CURRENCY_CONVERSION', amount: '100', currency: 'USD', converted_currency: 'EUR', language: 'en' }],
      ['Check 3-D Secure', { command: 'PURCHASE', merchant_reference: 'c-1', amount: '100', currency: 'EGP', language: 'en', ...card, check_3ds: 'NO' }],
      ['External MPI', { command: 'PURCHASE', merchant_reference: 'm-1', amount: '100', currency: 'EGP', language: 'en', ...card, '3ds_enrolled': 'N' }],
    ];
    for (const [name, params] of operations) {
      it(`answers ${name} with 00014, signed, in the request language`, async () => {
        const answer = await callApi(lb, params, BASIC);
        assert.deepEqual([answer['response_code'], answer['status']], ['00014', '00']);
        assert.equal(answer['response_message'], 'Service not activated for this merchant');
        const arabic = await callApi(lb, { ...params, language: 'ar' }, BASIC);
        assert.equal(arabic['response_message'], 'الخدمة غير مفعلة لهذا التاجر');
      });
    }

    for (const [name, params] of operations) {
      it(`refuses ${name} signed wrongly (00008), for either account`, async () => {
        for (const merchant of [M, BASIC]) {
          const body = await signedAs(merchant, params);
          const answer = await postJson(lb.paymentApiUrl, { ...body, language: 'ar' }, merchant);
          assert.equal(answer.fields['response_code'], '00008');
          assert.ok(answer.verified, 'the refusal verifies with the account’s response phrase');
        }
      });
    }

    it('refuses installments on the hosted page (00014) and takes no order', async () => {
      const fields = await signParams(
        {
          access_code: BASIC.accessCode,
          merchant_identifier: BASIC.merchantIdentifier,
          command: 'PURCHASE',
          merchant_reference: nextReference(),
          amount: '600000',
          currency: 'EGP',
          language: 'en',
          installments: 'STANDALONE',
          return_url: 'http://shop.test/return',
        },
        BASIC.requestPhrase,
        BASIC.shaType,
      );
      const page = await postForm(`${lb.origin}${lb.gateway.paths.paymentPage}`, fields);
      assert.equal(hiddenFields(await page.text())['response_code'], '00014');
    });

    it('still pays: charges, maintenance and status need no optional service', async () => {
      const reference = nextReference();
      const paid = await callApi(lb, { command: 'AUTHORIZATION', merchant_reference: reference, amount: '10000', currency: 'EGP', language: 'en', ...card }, BASIC);
      assert.equal(paid['response_code'], '02000');
      const captured = await callApi(lb, { command: 'CAPTURE', merchant_reference: reference, amount: '10000', currency: 'EGP', language: 'en' }, BASIC);
      assert.equal(captured['response_code'], '20064');
    });
  });

  describe('fraud prevention', () => {
    const charge = (command: 'PURCHASE' | 'AUTHORIZATION', email: string, merchant = M) =>
      callApi(lb, { command, merchant_reference: nextReference(), amount: '10000', currency: 'EGP', language: 'en', customer_email: email, ...card }, merchant);

    it(`rejects a charge for ${FRAUD_SCREENING_EMAIL} where it is on (13005 / 03005), leaving the reference free`, async () => {
      const rejected = await charge('PURCHASE', FRAUD_SCREENING_EMAIL);
      assert.equal(rejected['response_code'], '13005');
      assert.equal(rejected['response_message'], 'Transaction rejected by fraud screening');
      assert.equal((await charge('AUTHORIZATION', FRAUD_SCREENING_EMAIL.toUpperCase()))['response_code'], '03005');
      const retry = await callApi(lb, { command: 'PURCHASE', merchant_reference: rejected['merchant_reference'], amount: '10000', currency: 'EGP', language: 'en', customer_email: 'buyer@example.com', ...card });
      assert.equal(retry['response_code'], '14000');
    });

    it('screens nothing where it is off', async () => {
      assert.equal((await charge('PURCHASE', FRAUD_SCREENING_EMAIL, BASIC))['response_code'], '14000');
    });
  });
});
