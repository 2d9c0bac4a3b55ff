/**
 * The XML response builder over loopback HTTP: any paymentApi answer as XML when the request says
 * `response_format: XML` — root `response`, list fields as child nodes, content type
 * application/xml — signed over the same fields as the JSON answer, so that parsed back it verifies.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SANDBOX_FINANCING_PARTNER_CODE as FINANCING_PARTNER_CODE } from '../../src/sandbox/partners.ts';
import { SANDBOX_MERCHANT } from '../../src/sandbox/merchants.ts';
import { REGISTERED_FINANCING_PHONE, SANDBOX_OTP, testCard } from '../../src/sandbox/test-cards.ts';
import { callApi, postJson, signedAs, startLoopback, type LoopbackGateway, type WireAnswer } from './loopback.ts';
import { FUTURE_EXPIRY } from './support.ts';

const M = SANDBOX_MERCHANT;
let lb: LoopbackGateway;
before(async () => {
  lb = await startLoopback();
});
after(() => lb.close());

async function inXml(params: Record<string, unknown>): Promise<WireAnswer> {
  const answer = await postJson(lb.paymentApiUrl, await signedAs(M, { ...params, response_format: 'XML' }));
  assert.equal(answer.httpStatus, 200);
  assert.match(answer.contentType, /^application\/xml; charset=utf-8$/);
  assert.match(answer.text, /^<\?xml version="1\.0" encoding="UTF-8"\?><response>.*<\/response>$/s);
  return answer;
}

/** Every value as the XML carries it: text. */
function asText(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asText);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asText(v)]));
  return String(value);
}

describe('answers as XML', () => {
  it('carries the same fields as the JSON answer, signed alike', async () => {
    const reference = 'xml-1';
    await callApi(lb, { command: 'PURCHASE', merchant_reference: reference, amount: '10000', currency: 'EGP', language: 'en', card_number: testCard('success').number, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123' });
    const status = { query_command: 'CHECK_STATUS', merchant_reference: reference, language: 'en' };
    const json = await callApi(lb, status);
    const xml = await inXml(status);
    assert.ok(xml.verified);
    const { signature: _json, ...jsonFields } = json;
    const { signature: _xml, response_format: format, ...xmlFields } = xml.fields;
    assert.equal(format, 'XML');
    assert.deepEqual(xmlFields, asText(jsonFields));
  });

  it('writes the plans as nested nodes and leaves them out of the signature as the JSON answer does', async () => {
    const answer = await inXml({ query_command: 'GET_INSTALLMENTS_PLANS', language: 'en', currency: 'AED' });
    assert.match(answer.text, /<installment_detail><issuer_detail><item><issuer_code>AEFLAT1<\/issuer_code>/);
    assert.ok(answer.verified);
  });

  it('writes a financing answer’s products list and tenure object as nodes, and verifies', async () => {
    const common = { merchant_reference: 'xml-fin', language: 'en', payment_option: FINANCING_PARTNER_CODE, phone_number: REGISTERED_FINANCING_PHONE, merchant_order_id: 'o-1', amount: '1200000', currency: 'EGP' };
    const { merchant_order_id: _id, amount: _amount, currency: _currency, ...customer } = common;
    await inXml({ service_command: 'CUSTOMER_VERIFY', ...customer });
    const generated = await inXml({ service_command: 'OTP_GENERATE', ...common, products: [{ product_name: 'Phone', product_price: '12000.00', product_category: 'Electronics' }] });
    assert.match(generated.text, /<products><item><product_name>Phone<\/product_name>/);
    assert.ok(generated.verified);
    const verified = await inXml({ service_command: 'OTP_VERIFY', ...common, total_downpayment: Number(generated.fields['total_down_payment']), otp: SANDBOX_OTP });
    assert.equal(verified.fields['response_code'], '92182');
    assert.match(verified.text, /<tenure><TENURE_VM><item><EMI>/);
    assert.ok(verified.verified);
  });

  it('answers a refusal in XML too: 00008 signed, and an unknown merchant unsigned', async () => {
    const body = await signedAs(M, { query_command: 'CHECK_STATUS', merchant_reference: 'x', language: 'en', response_format: 'XML' });
    const mismatch = await postJson(lb.paymentApiUrl, { ...body, merchant_reference: 'y' });
    assert.match(mismatch.contentType, /xml/);
    assert.equal(mismatch.fields['response_code'], '00008');
    assert.ok(mismatch.verified);
    const stranger = await postJson(lb.paymentApiUrl, { ...body, merchant_identifier: 'someoneElse' });
    assert.match(stranger.contentType, /xml/);
    assert.equal(stranger.fields['response_code'], '00006');
    assert.ok(!('signature' in stranger.fields));
  });

  it('answers JSON for response_format JSON, and refuses another format (00002) in JSON', async () => {
    const json = await postJson(lb.paymentApiUrl, await signedAs(M, { query_command: 'CHECK_STATUS', merchant_reference: 'x', language: 'en', response_format: 'JSON' }));
    assert.match(json.contentType, /^application\/json/);
    assert.ok(json.verified);
    const csv = await postJson(lb.paymentApiUrl, await signedAs(M, { query_command: 'CHECK_STATUS', merchant_reference: 'x', language: 'en', response_format: 'CSV' }));
    assert.match(csv.contentType, /^application\/json/);
    assert.equal(csv.fields['response_code'], '00002');
  });
});
