import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { directionOf, formatCount, normalizeDigits } from '../../src/core/language.ts';
import { intlCount } from './intl-oracle.ts';
import { AmountError } from '../../src/core/amounts.ts';
import { financingProductsTotal, normalizeFinancingPhone } from '../../src/core/partners.ts';

describe('normalizeDigits', () => {
  it('turns Arabic-Indic and Extended Arabic-Indic digits into ASCII', () => {
    assert.equal(normalizeDigits('١٢٣٤٥٦'), '123456');
    assert.equal(normalizeDigits('۰۹۸'), '098');
  });

  it('removes bidi marks a paste from an Arabic page carries', () => {
    assert.equal(normalizeDigits('\u200f4111\u200e 1111\u2066'), '4111 1111');
  });
});

describe('directionOf', () => {
  it('is rtl for Arabic and ltr for English', () => {
    assert.equal(directionOf('ar'), 'rtl');
    assert.equal(directionOf('en'), 'ltr');
  });
});

describe('normalizeFinancingPhone', () => {
  it('accepts an Egyptian mobile number in the ways customers type it', () => {
    assert.equal(normalizeFinancingPhone('01012345678'), '01012345678');
    assert.equal(normalizeFinancingPhone('+20 101 234 5678'), '01012345678');
    assert.equal(normalizeFinancingPhone('٠١٠١٢٣٤٥٦٧٨'), '01012345678');
    assert.equal(normalizeFinancingPhone('00201512345678'), '01512345678');
  });

  it('refuses numbers of other markets or lengths', () => {
    assert.equal(normalizeFinancingPhone('0501234567'), undefined);
    assert.equal(normalizeFinancingPhone('0131234567'), undefined);
    assert.equal(normalizeFinancingPhone('0101234567'), undefined);
    assert.equal(normalizeFinancingPhone('+971501234567'), undefined);
  });
});

describe('formatCount', () => {
  it('writes Arabic numbers with the Arabic-Indic digits formatMoney uses', () => {
    assert.equal(formatCount(6, 'ar'), '٦');
    assert.equal(formatCount(12, 'ar'), '١٢');
    assert.equal(formatCount(0, 'ar'), '٠');
    assert.equal(formatCount(1200, 'ar'), '١٬٢٠٠');
    assert.equal(formatCount(7, 'ar'), new Intl.NumberFormat('ar-EG').format(7));
  });

  it('keeps the fraction digits of a decimal string', () => {
    assert.equal(formatCount('12.50', 'ar'), '١٢٫٥٠');
    assert.equal(formatCount('5', 'ar'), '٥');
  });

  it('writes what Intl.NumberFormat writes for ar-EG, grouping, fraction and minus sign included', () => {
    for (const value of ['0', '7', '1200', '1234567.5', '12.50', '-12', '-1234.05', String(Number.MAX_SAFE_INTEGER)]) {
      assert.equal(formatCount(value, 'ar'), intlCount(value), value);
    }
  });

  it('leaves English numbers as written', () => {
    assert.equal(formatCount(6, 'en'), '6');
    assert.equal(formatCount(1200, 'en'), '1200');
    assert.equal(formatCount('12.50', 'en'), '12.50');
  });
});

describe('financingProductsTotal', () => {
  const product = (price: string) => ({ product_name: 'x', product_price: price, product_category: 'y' });

  it('adds decimal major-unit prices exactly, in minor units (0.1 + 0.2 is 30)', () => {
    assert.equal(financingProductsTotal([product('0.10'), product('0.20')], 'EGP'), 30);
    assert.equal(financingProductsTotal([product('2000.10'), product('499.90')], 'EGP'), 250_000);
    assert.equal(financingProductsTotal([product('1.5')], 'KWD'), 1_500);
  });

  it('refuses a price that is not a decimal amount, naming the product', () => {
    assert.throws(
      () => financingProductsTotal([product('1.00'), product('1,000')], 'EGP'),
      (error: unknown) => error instanceof AmountError && error.field === 'products[1].product_price',
    );
  });
});
