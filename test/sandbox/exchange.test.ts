/** Currency exchange (CURRENCY_CONVERSION) over loopback HTTP, at the sandbox's rate table. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { convertMinorUnits, crossRate } from '../../src/core/exchange.ts';
import { validate } from '../../src/core/field-errors.ts';
import { currencyConversionResponse } from '../../src/core/schemas/index.ts';
import { SANDBOX_EXCHANGE_RATES } from '../../src/sandbox/exchange.ts';
import { SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC } from '../../src/sandbox/merchants.ts';
import { callApi, postJson, signedAs, startLoopback, type LoopbackGateway } from './loopback.ts';

let lb: LoopbackGateway;
before(async () => {
  lb = await startLoopback();
});
after(() => lb.close());

const convert = (amount: string | number, currency: string, converted: string, extra: Record<string, unknown> = {}) =>
  callApi(lb, { service_command: 'CURRENCY_CONVERSION', amount, currency, converted_currency: converted, language: 'en', ...extra });

describe('currency exchange', () => {
  it('converts 100.00 USD to AED at the table’s rate (42000), echoing the request', async () => {
    const answer = await convert('10000', 'USD', 'AED');
    assert.deepEqual([answer['response_code'], answer['status']], ['42000', '42']);
    assert.equal(answer['conversion_rate'], '3.672500');
    assert.equal(answer['converted_amount'], '36725');
    assert.deepEqual([answer['amount'], answer['currency'], answer['converted_currency']], ['10000', 'USD', 'AED']);
    assert.ok(validate(currencyConversionResponse, answer, 'en').ok);
  });

  it('converts across exponents and through the dollar, as the core’s integer arithmetic does', async () => {
    for (const [amount, from, to] of [[1000, 'KWD', 'EGP'], [250000, 'EGP', 'SAR'], [9_999_999_999, 'EGP', 'JOD'], [1, 'SAR', 'KWD']] as const) {
      const answer = await convert(amount, from, to);
      const rate = crossRate(SANDBOX_EXCHANGE_RATES[from] ?? '', SANDBOX_EXCHANGE_RATES[to] ?? '');
      assert.equal(answer['conversion_rate'], rate);
      assert.equal(answer['converted_amount'], String(convertMinorUnits(amount, from, to, rate)));
    }
    assert.equal((await convert(1000, 'KWD', 'EGP'))['converted_amount'], '15772', '1.000 KWD = 157.72 EGP (48.5 / 0.3075 = 157.723577)');
  });

  it('has a rate for EGP, SAR, AED, KWD, USD and EUR at least', () => {
    for (const currency of ['EGP', 'SAR', 'AED', 'KWD', 'USD', 'EUR']) assert.ok(SANDBOX_EXCHANGE_RATES[currency], currency);
  });

  it('refuses a currency the table lacks (00009) and an amount of zero (00002)', async () => {
    assert.equal((await convert('10000', 'USD', 'JPY'))['response_code'], '00009');
    assert.equal((await convert('10000', 'XXX', 'USD'))['response_code'], '00009');
    assert.equal((await convert('0', 'USD', 'EUR'))['response_code'], '00002');
  });

  it('refuses a request signed wrongly (00008) and answers in XML when asked', async () => {
    const body = await signedAs(SANDBOX_MERCHANT, { service_command: 'CURRENCY_CONVERSION', amount: '100', currency: 'USD', converted_currency: 'EUR', language: 'en' });
    assert.equal((await postJson(lb.paymentApiUrl, { ...body, converted_currency: 'AED' })).fields['response_code'], '00008');
    const xml = await postJson(lb.paymentApiUrl, await signedAs(SANDBOX_MERCHANT, { service_command: 'CURRENCY_CONVERSION', amount: '100', currency: 'USD', converted_currency: 'EUR', language: 'ar', response_format: 'XML' }));
    assert.match(xml.contentType, /^application\/xml/);
    assert.ok(xml.verified);
    assert.equal(xml.fields['converted_amount'], '92');
    assert.equal(xml.fields['response_message'], 'تمت العملية بنجاح');
  });

  it('is refused (00014) unless activated for the account', async () => {
    const answer = await callApi(
      lb,
      { service_command: 'CURRENCY_CONVERSION', amount: '10000', currency: 'USD', converted_currency: 'AED', language: 'en' },
      SANDBOX_MERCHANT_BASIC,
    );
    assert.equal(answer['response_code'], '00014');
    assert.ok(!('converted_amount' in answer));
  });
});
