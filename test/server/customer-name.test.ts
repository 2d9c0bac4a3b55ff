/**
 * A customer named in Arabic, as a shop keeps the name (direction marks, a long chain of names),
 * against the sandbox gateway through the standalone service: the shop's order is read, the bill
 * carries the name as the gateway takes it, and the financing steps go through. The sandbox holds
 * customer_name to the rule the gateway applies (letters of any script, `_ \ / - . '`, spaces, 50).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { billResult, financingOtpResult, financingVerifyOtpResult, paymentResult } from '../../src/core/endpoint-api.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import { createSandboxGateway } from '../../src/sandbox/gateway.ts';
import { endpointCredentials, SANDBOX_MERCHANT } from '../../src/sandbox/merchants.ts';
import { REGISTERED_FINANCING_PHONE, SANDBOX_OTP } from '../../src/sandbox/test-cards.ts';
import { serve, type RunningServer } from '../../src/server/serve.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { api, rig } from '../sandbox/support.ts';
import { HOOK_SECRET, startFakeShop, type FakeShop } from './fake-shop.ts';
import { parse } from '../../src/core/shape.ts';

const SANDBOX = 'https://sandbox.gateway.test';
const SHOP_ORIGIN = 'http://127.0.0.1:9';
/** 60 characters, a direction mark at each end: as a shop may hold it, and longer than the gateway's 50. */
const ARABIC_NAME = '\u200fعبد الرحمن بن محمد بن عبد العزيز بن عبد الله بن فيصل آل سعود\u200e';
/** What the gateway is sent: the marks gone, cut after the last whole word within 50 characters. */
const SENT_NAME = 'عبد الرحمن بن محمد بن عبد العزيز بن عبد الله بن';

let shop: FakeShop;
let service: RunningServer;
const sentToGateway: Record<string, unknown>[] = [];

before(async () => {
  shop = await startFakeShop([
    { merchant_reference: 'ar-bill-1', amount: 250_000, currency: 'EGP', description: 'Headphones', customer_name: ARABIC_NAME, token: 'tok-bill' },
    { merchant_reference: 'ar-fin-1', amount: 120_000, currency: 'EGP', description: 'Watch', customer_name: ARABIC_NAME, token: 'tok-fin' },
  ]);
  const gateway = createSandboxGateway({ merchants: [SANDBOX_MERCHANT], apiRoot: 'FortAPI' });
  const credentials = endpointCredentials();
  service = await serve(
    {
      PG_MERCHANT_IDENTIFIER: credentials.merchantIdentifier,
      PG_ACCESS_CODE: credentials.accessCode,
      PG_SHA_TYPE: 'SHA-256',
      PG_SHA_REQUEST_PHRASE: credentials.requestPhrase,
      PG_SHA_RESPONSE_PHRASE: credentials.responsePhrase,
      PG_GATEWAY_BASE_URL: SANDBOX,
      PG_CHECKOUT_URL: SANDBOX,
      PG_API_ROOT: 'FortAPI',
      PG_PORT: '0',
      PG_ALLOWED_ORIGINS: SHOP_ORIGIN,
      PG_ORDER_URL: shop.orderUrl,
      PG_RESULT_WEBHOOK_URL: shop.webhookUrl,
      PG_HOOK_SECRET: HOOK_SECRET,
      PG_SHOP_URL: `${SHOP_ORIGIN}/`,
      PG_VOUCHER_PARTNER_CODE: credentials.voucherPartnerCode,
      PG_FINANCING_PARTNER_CODE: credentials.financingPartnerCode,
    },
    {
      logger: createJsonLogger(() => {}),
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (!request.url.startsWith(SANDBOX)) return globalThis.fetch(request);
        sentToGateway.push(JSON.parse(await request.clone().text()) as Record<string, unknown>);
        return gateway.handle(request);
      },
      store: createMemoryStore(),
    },
  );
});

after(async () => {
  await service.close();
  await shop.stop();
});

async function post(route: string, token: string, body: Record<string, unknown>): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const response = await fetch(`${service.endpointUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, 'pg-order-token': token },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('a customer named in Arabic, as the shop keeps the name', () => {
  it('gets a bill, the name sent as the gateway takes it', async () => {
    const bill = await post('/bill', 'tok-bill', { merchant_reference: 'ar-bill-1', language: 'ar' });
    assert.equal(bill.status, 200, JSON.stringify(bill.body));
    assert.match(parse(billResult, bill.body).bill_number, /^\d+$/);
    const presented = sentToGateway.find((request) => request['service_command'] === 'BILL_PRESENTMENT');
    assert.equal(presented?.['customer_name'], SENT_NAME);
  });

  it('goes through the four financing steps', async () => {
    const order = { merchant_reference: 'ar-fin-1', language: 'ar' };
    const verified = await post('/financing/verify-customer', 'tok-fin', { ...order, phone_number: REGISTERED_FINANCING_PHONE });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const otp = await post('/financing/otp', 'tok-fin', { ...order, flow: verified.body.flow });
    assert.equal(otp.status, 200, JSON.stringify(otp.body));
    const checked = await post('/financing/verify-otp', 'tok-fin', { ...order, flow: parse(financingOtpResult, otp.body).flow, otp: SANDBOX_OTP });
    assert.equal(checked.status, 200, JSON.stringify(checked.body));
    const { flow, tenures } = parse(financingVerifyOtpResult, checked.body);
    const bought = await post('/financing/purchase', 'tok-fin', { ...order, flow, tenure: tenures[0]?.months });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    assert.equal(parse(paymentResult, bought.body).outcome, 'success');
  });
});

describe('the sandbox’s rule for customer_name', () => {
  const bill = (customer_name: string, merchant_reference: string) => ({
    service_command: 'BILL_PRESENTMENT',
    merchant_reference,
    amount: '10000',
    currency: 'EGP',
    language: 'ar',
    request_expiry_date: '2030-01-01T10:00:00+02:00',
    payment_partner: endpointCredentials().voucherPartnerCode,
    customer_name,
  });

  it('takes letters of any script with the specification’s symbols, up to 50 characters', async () => {
    const { gateway } = rig();
    for (const [i, name] of [SENT_NAME, "Mona O'Neil-Hassan", 'م'.repeat(50)].entries()) {
      assert.equal((await api(gateway, bill(name, `name-ok-${i}`)))['response_code'], '30000', name);
    }
  });

  it('refuses digits, other symbols and invisible marks (00004), and a 51st character (00003)', async () => {
    const { gateway } = rig();
    for (const [i, name] of ['محمد 2', 'Mona <b>', '\u200fمحمد'].entries()) {
      const answer = await api(gateway, bill(name, `name-bad-${i}`));
      assert.equal(answer['response_code'], '00004', name);
      assert.match(String(answer['response_message']), /customer_name/);
    }
    assert.equal((await api(gateway, bill('م'.repeat(51), 'name-long')))['response_code'], '00003');
  });
});
