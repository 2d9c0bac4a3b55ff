/**
 * The gateway's other services through the back-office client, against the sandbox over loopback
 * HTTP: currency exchange, installment plans (JSON and the spec's XML), a cash bill, the four
 * financing steps; a service the account does not have (not_activated); an answer that does not
 * verify; and the configuration's own checks.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, createGatewayClient, GatewayUnavailableError, type GatewayClient } from '../../src/gateway/index.ts';
import { SANDBOX_FINANCING_PARTNER_CODE, SANDBOX_VOUCHER_PARTNER_CODE } from '../../src/sandbox/partners.ts';
import { SANDBOX_MERCHANT_BASIC } from '../../src/sandbox/merchants.ts';
import { REGISTERED_FINANCING_PHONE, SANDBOX_OTP } from '../../src/sandbox/test-cards.ts';
import { clientFor, M, nextReference, startSandbox, type Sandbox } from './support.ts';

let sandbox: Sandbox;
let client: GatewayClient;

before(async () => {
  sandbox = await startSandbox();
  client = clientFor(sandbox.origin);
});
after(() => sandbox.close());

describe('currency exchange and installment plans', () => {
  it('converts an amount at the gateway’s rate (42000): 100.00 USD is 367.25 AED', async () => {
    const result = await client.currencyExchange({ amount: 10_000, currency: 'USD', converted_currency: 'AED' });
    assert.deepEqual([result.outcome, result.response_code, String(result.answer?.converted_amount), result.answer?.conversion_rate], ['success', '42000', '36725', '3.672500']);
  });

  it('lists the plans for an amount, as JSON and as the spec’s XML read into the same shape', async () => {
    const json = await client.installmentPlans({ amount: 500_000, currency: 'EGP' });
    const xml = await client.installmentPlans({ amount: 500_000, currency: 'EGP', response_format: 'XML' });
    assert.equal(json.response_code, '62000');
    assert.equal(xml.answer?.response_format, 'XML');
    const plansOf = (result: typeof json) =>
      result.answer?.installment_detail?.issuer_detail.flatMap((issuer) => issuer.plan_details.map((plan) => [issuer.issuer_code, plan.plan_code, plan.number_of_installment]));
    assert.ok((plansOf(json)?.length ?? 0) > 0);
    assert.deepEqual(plansOf(xml), plansOf(json), 'the same plans, months read as numbers');
  });
});

describe('a cash bill', () => {
  it('is issued (30000) with a bill number; a second bill for the reference is refused before sending', async () => {
    const reference = nextReference('bill');
    const bill = { merchant_reference: reference, amount: 45_000, currency: 'EGP' as const, request_expiry_date: '2026-03-12T11:00:00+02:00', payment_partner: SANDBOX_VOUCHER_PARTNER_CODE };
    const issued = await client.billPresentment(bill);
    assert.deepEqual([issued.outcome, issued.response_code], ['success', '30000']);
    assert.match(String(issued.answer?.bill_number), /^\d{14}$/);
    const again = await client.billPresentment(bill);
    assert.deepEqual([again.outcome, again.reason, again.order?.state], ['refused', 'reference_in_use', 'pending']);
  });
});

describe('consumer financing, step by step', () => {
  it('verifies the customer, sends and checks the OTP, and completes the purchase (14000)', async () => {
    const reference = nextReference('fin');
    const common = { merchant_reference: reference, payment_option: SANDBOX_FINANCING_PARTNER_CODE, phone_number: REGISTERED_FINANCING_PHONE };
    const money = { amount: 300_000, currency: 'EGP', merchant_order_id: reference };
    const verified = await client.customerVerify(common);
    assert.deepEqual([verified.outcome, verified.response_code], ['success', '90000']);
    const otp = await client.otpGenerate({ ...common, ...money, products: [{ product_name: 'Phone', product_price: '3000.00', product_category: 'Mobiles' }] });
    assert.deepEqual([otp.outcome, otp.response_code, otp.answer?.tenure], ['success', '88000', '3-6-12']);
    const downPayment = otp.answer?.total_down_payment ?? 0;
    const wrong = await client.otpVerify({ ...common, ...money, total_downpayment: downPayment, otp: '000000' });
    assert.deepEqual([wrong.outcome, wrong.response_code], ['declined', '93001']);
    const checked = await client.otpVerify({ ...common, ...money, total_downpayment: downPayment, otp: SANDBOX_OTP });
    assert.deepEqual([checked.outcome, checked.answer?.tenure?.TENURE_VM.length], ['success', 3]);
    const purchase = await client.financingPurchase({
      ...common,
      ...money,
      customer_code: REGISTERED_FINANCING_PHONE,
      transaction_id: String(otp.answer?.transaction_id),
      otp: SANDBOX_OTP,
      tenure: '6',
      total_down_payment: downPayment,
      purchase_description: 'Phone in six months',
    });
    assert.deepEqual([purchase.outcome, purchase.response_code], ['success', '14000']);
    assert.equal((await client.checkStatus({ merchant_reference: reference })).order?.state, 'captured');
  });
});

describe('a service the account does not have', () => {
  it('answers not_activated (00014), with the gateway’s message in the language asked', async () => {
    const basic = clientFor(sandbox.origin, {}, SANDBOX_MERCHANT_BASIC);
    const result = await basic.currencyExchange({ amount: 100, currency: 'USD', converted_currency: 'EUR', language: 'ar' });
    assert.deepEqual([result.outcome, result.response_code], ['not_activated', '00014']);
    assert.match(result.response_message, /[\u0600-\u06FF]/);
  });
});

describe('an answer the client cannot believe', () => {
  it('is refused when it does not verify with the response phrase, and never retried', async () => {
    const wrong = clientFor(sandbox.origin, { responsePhrase: 'another-phrase', retry: { attempts: 3 } });
    await assert.rejects(wrong.checkStatus({ merchant_reference: 'x' }), (error: unknown) => {
      assert.ok(error instanceof GatewayUnavailableError);
      assert.equal(error.kind, 'signature_invalid');
      assert.match(error.message, /response phrase/);
      return true;
    });
  });
});

describe('the configuration', () => {
  it('names every setting at fault and never a value', () => {
    assert.throws(
      () =>
        createGatewayClient({
          merchantIdentifier: 'merchant 01',
          accessCode: M.accessCode,
          shaType: 'sha256',
          requestPhrase: 'secret-request-phrase',
          responsePhrase: '',
          gatewayBaseUrl: 'http://api.gateway.example',
          apiRoot: 'FortAPI',
          batchSandboxUrl: 'https://batch.example/path',
          timeoutMs: 0,
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(
          error.problems.map((problem) => problem.name),
          ['merchantIdentifier', 'responsePhrase', 'gatewayBaseUrl', 'batchSandboxUrl', 'timeoutMs'],
        );
        assert.doesNotMatch(error.message, /secret-request-phrase|merchant 01/);
        return true;
      },
    );
  });
});
