import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withSandboxDefaults } from '../../src/cli/serve.ts';
import { configFromEnv } from '../../src/server/config.ts';
import { endpointCredentials } from '../../src/sandbox/merchants.ts';
import { SANDBOX_FINANCING_PARTNER_CODE, SANDBOX_VOUCHER_PARTNER_CODE } from '../../src/sandbox/partners.ts';
import { FINANCING_PARTNER_CODE, setup, VOUCHER_PARTNER_CODE } from './harness.ts';

const configured = setup();
const unconfigured = setup({ voucherPartnerCode: undefined, financingPartnerCode: undefined });

afterEach(() => {
  configured.gateway.reset();
  unconfigured.gateway.reset();
});

describe('the payment partners of the gateway account', () => {
  it('sends the configured voucher partner code with BILL_PRESENTMENT', async () => {
    const answer = await configured.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(answer.status, 200);
    assert.equal(configured.gateway.callsOf('BILL_PRESENTMENT')[0]?.request['payment_partner'], VOUCHER_PARTNER_CODE);
  });

  it('sends the configured financing partner code with every financing step', async () => {
    await configured.post('/financing/verify-customer', { merchant_reference: 'order-1001', language: 'en', phone_number: '01012345678' });
    assert.equal(configured.gateway.callsOf('CUSTOMER_VERIFY')[0]?.request['payment_option'], FINANCING_PARTNER_CODE);
  });

  it('refuses a bill with 501 service_not_configured, in the request language, when no voucher partner is configured', async () => {
    const answer = await unconfigured.post('/bill', { merchant_reference: 'order-1001', language: 'ar' });
    assert.equal(answer.status, 501);
    assert.deepEqual(answer.body.error, { code: 'service_not_configured', message: 'لم يقم التاجر بإعداد طريقة الدفع هذه.' });
    assert.equal(unconfigured.gateway.calls.length, 0, 'nothing was signed or sent');
  });

  for (const route of ['/financing/verify-customer', '/financing/otp', '/financing/verify-otp', '/financing/purchase']) {
    it(`refuses ${route} with 501 service_not_configured when no financing partner is configured`, async () => {
      const answer = await unconfigured.post(route, {
        merchant_reference: 'order-1001',
        language: 'en',
        ...(route === '/financing/verify-customer' ? { phone_number: '01012345678' } : { flow: 'v1.x' }),
        ...(route === '/financing/verify-otp' ? { otp: '123456' } : {}),
        ...(route === '/financing/purchase' ? { tenure: 6 } : {}),
      });
      assert.equal(answer.status, 501);
      assert.equal(answer.body.error.code, 'service_not_configured');
      assert.equal(unconfigured.gateway.calls.length, 0);
    });
  }

  it('reads the codes from PG_VOUCHER_PARTNER_CODE and PG_FINANCING_PARTNER_CODE, and has none by default', () => {
    const env = {
      PG_MERCHANT_IDENTIFIER: 'merchant01',
      PG_ACCESS_CODE: 'accessCode01',
      PG_SHA_TYPE: 'SHA-256',
      PG_SHA_REQUEST_PHRASE: 'a',
      PG_SHA_RESPONSE_PHRASE: 'b',
      PG_GATEWAY_BASE_URL: 'https://api.gateway.test',
      PG_CHECKOUT_URL: 'https://checkout.gateway.test',
      PG_API_ROOT: 'FortAPI',
    };
    assert.equal(configFromEnv(env).voucherPartnerCode, undefined);
    assert.equal(configFromEnv(env).financingPartnerCode, undefined);
    const set = configFromEnv({ ...env, PG_VOUCHER_PARTNER_CODE: 'VCH01', PG_FINANCING_PARTNER_CODE: 'FIN01' });
    assert.equal(set.voucherPartnerCode, 'VCH01');
    assert.equal(set.financingPartnerCode, 'FIN01');
  });

  it('gives the sandbox’s codes to an endpoint only through the sandbox: endpointCredentials() and serve --sandbox', () => {
    assert.equal(endpointCredentials().voucherPartnerCode, SANDBOX_VOUCHER_PARTNER_CODE);
    assert.equal(endpointCredentials().financingPartnerCode, SANDBOX_FINANCING_PARTNER_CODE);
    const env = withSandboxDefaults({});
    assert.equal(env['PG_VOUCHER_PARTNER_CODE'], SANDBOX_VOUCHER_PARTNER_CODE);
    assert.equal(env['PG_FINANCING_PARTNER_CODE'], SANDBOX_FINANCING_PARTNER_CODE);
    assert.equal(withSandboxDefaults({ PG_VOUCHER_PARTNER_CODE: 'LIVE1' })['PG_VOUCHER_PARTNER_CODE'], 'LIVE1');
  });
});
