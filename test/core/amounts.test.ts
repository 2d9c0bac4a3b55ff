import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AmountError,
  currencyExponent,
  formatMoney,
  fromMinorUnits,
  parseWireAmount,
  toMinorUnits,
  totalFromMinorUnits,
} from '../../src/core/amounts.ts';
import { amountErrorMessage } from '../../src/core/amount-messages.ts';
import { intlMoney, MINOR_AMOUNTS } from './intl-oracle.ts';

describe('currencyExponent', () => {
  it('gives 2 for EGP, 3 for KWD and BHD, 0 for JPY', () => {
    assert.equal(currencyExponent('EGP'), 2);
    assert.equal(currencyExponent('KWD'), 3);
    assert.equal(currencyExponent('BHD'), 3);
    assert.equal(currencyExponent('JPY'), 0);
  });

  it('follows ISO 4217 where CLDR writes fewer digits (IQD has 3, LBP and PKR 2)', () => {
    assert.equal(currencyExponent('IQD'), 3);
    assert.equal(currencyExponent('LBP'), 2);
    assert.equal(currencyExponent('PKR'), 2);
  });

  it('knows the ISO 4217 units that Intl does not list (CLF and UYW have 4)', () => {
    assert.equal(currencyExponent('CLF'), 4);
    assert.equal(currencyExponent('UYW'), 4);
  });

  it('gives every currency the runtime lists the digits Intl writes, unless ISO 4217 says otherwise', () => {
    const iso4217Differs = new Set(['IQD', 'LBP', 'IRR', 'RSD', 'SYP', 'YER', 'KPW', 'MGA', 'ALL', 'AFN', 'AMD', 'COP', 'HUF', 'IDR', 'LAK', 'MMK', 'PKR', 'SLL', 'SOS', 'TWD', 'TZS', 'UZS', 'MRU']);
    for (const currency of Intl.supportedValuesOf('currency')) {
      if (iso4217Differs.has(currency)) continue;
      const cldr = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
      assert.equal(currencyExponent(currency), cldr, currency);
    }
  });

  it('refuses a code that is not a currency, naming the field', () => {
    assert.throws(() => currencyExponent('XYZ'), (error: unknown) => {
      return error instanceof AmountError && error.field === 'currency' && error.rule === 'unknown_currency';
    });
    assert.throws(() => currencyExponent('egp'), AmountError);
  });
});

describe('toMinorUnits', () => {
  it('multiplies a 2-decimal currency by 100 without float error', () => {
    assert.equal(toMinorUnits('123.45', 'EGP'), 12345);
    assert.equal(toMinorUnits('0.29', 'EGP'), 29); // 0.29 * 100 is 28.999999999999996 in floats
    assert.equal(toMinorUnits('1.1', 'SAR'), 110);
    assert.equal(toMinorUnits('10', 'AED'), 1000);
  });

  it('multiplies a 3-decimal currency by 1000', () => {
    assert.equal(toMinorUnits('1.5', 'KWD'), 1500);
    assert.equal(toMinorUnits('0.125', 'JOD'), 125);
  });

  it('keeps a 0-decimal currency as it is', () => {
    assert.equal(toMinorUnits('500', 'JPY'), 500);
  });

  it('refuses more decimals than the currency has', () => {
    assert.throws(() => toMinorUnits('1.234', 'EGP'), /at most 2 decimal places/);
    assert.throws(() => toMinorUnits('5.5', 'JPY'), /at most 0 decimal places/);
  });

  it('refuses negatives, text and empty input', () => {
    assert.throws(() => toMinorUnits('-1.00', 'EGP'), /must not be negative/);
    assert.throws(() => toMinorUnits('ten', 'EGP'), /must be a decimal number/);
    assert.throws(() => toMinorUnits('', 'EGP'), /must be a decimal number/);
    assert.throws(() => toMinorUnits('1e3', 'EGP'), /must be a decimal number/);
  });

  it('refuses an amount over 10 digits in minor units', () => {
    assert.equal(toMinorUnits('99999999.99', 'EGP'), 9999999999);
    assert.throws(() => toMinorUnits('100000000.00', 'EGP'), /at most 10 digits/);
  });

  it('refuses an unknown currency', () => {
    assert.throws(() => toMinorUnits('1.00', 'ABC'), /ISO 4217/);
  });
});

describe('fromMinorUnits', () => {
  it('writes the decimal amount for each exponent', () => {
    assert.equal(fromMinorUnits(12345, 'EGP'), '123.45');
    assert.equal(fromMinorUnits(5, 'EGP'), '0.05');
    assert.equal(fromMinorUnits(1500, 'KWD'), '1.500');
    assert.equal(fromMinorUnits(500, 'JPY'), '500');
  });

  it('refuses fractions and negatives', () => {
    assert.throws(() => fromMinorUnits(1.5, 'EGP'), AmountError);
    assert.throws(() => fromMinorUnits(-1, 'EGP'), AmountError);
  });
});

describe('totalFromMinorUnits', () => {
  it('writes a total past the 10 digits one amount on the wire may have, which fromMinorUnits refuses', () => {
    assert.throws(() => fromMinorUnits(10_000_000_000, 'EGP'), AmountError);
    assert.equal(totalFromMinorUnits(10_000_000_000, 'EGP'), '100000000.00');
    assert.equal(totalFromMinorUnits(19_999_999_998, 'IQD'), '19999999.998');
    assert.equal(totalFromMinorUnits(5, 'KWD'), '0.005');
  });

  it('still refuses fractions, negatives and unsafe integers', () => {
    for (const minor of [1.5, -1, 2 ** 53]) assert.throws(() => totalFromMinorUnits(minor, 'EGP'), AmountError);
  });
});

describe('parseWireAmount', () => {
  it('reads the amount as a string or number of digits', () => {
    assert.equal(parseWireAmount('10000'), 10000);
    assert.equal(parseWireAmount(10000), 10000);
  });

  it('refuses decimals, signs and eleven digits', () => {
    assert.throws(() => parseWireAmount('100.00'), AmountError);
    assert.throws(() => parseWireAmount('-5'), AmountError);
    assert.throws(() => parseWireAmount('12345678901'), AmountError);
  });
});

describe('amountErrorMessage', () => {
  it('names the field in English and Arabic', () => {
    const error = { field: 'amount', rule: 'too_many_decimals' as const, limit: 2 };
    assert.equal(amountErrorMessage(error, 'en'), 'amount: must have at most 2 decimal places for this currency');
    assert.match(amountErrorMessage(error, 'ar'), /^amount: يجب ألا يزيد عدد الخانات العشرية عن ٢ لهذه العملة$/);
  });
});

describe('formatMoney', () => {
  const plainSpaces = (text: string) => text.replace(/\s/g, ' ');

  it('formats the exact amount in the page language', () => {
    assert.equal(plainSpaces(formatMoney(123450, 'EGP', 'en')), 'EGP 1,234.50');
    assert.match(formatMoney(123450, 'EGP', 'ar'), /١٬٢٣٤٫٥٠/);
    assert.equal(plainSpaces(formatMoney(1500, 'KWD', 'en')), 'KWD 1.500');
    assert.equal(plainSpaces(formatMoney(2345678901, 'EGP', 'en')), 'EGP 23,456,789.01');
  });

  it('formats a total past the 10 digits of one wire amount: a plan’s total with its fees', () => {
    // KWD 9,000,000.000 at 2% Islamic over 12 months: 11,160,000,000 fils.
    assert.equal(plainSpaces(formatMoney(11_160_000_000, 'KWD', 'en')), 'KWD 11,160,000.000');
    assert.match(formatMoney(11_160_000_000, 'KWD', 'ar'), /١١٬١٦٠٬٠٠٠٫٠٠٠/);
    assert.equal(plainSpaces(formatMoney(Number.MAX_SAFE_INTEGER, 'JPY', 'en')), '¥9,007,199,254,740,991');
  });

  it('still refuses fractions, negatives and unsafe integers', () => {
    for (const minor of [1.5, -1, 2 ** 53]) assert.throws(() => formatMoney(minor, 'EGP', 'en'), AmountError);
  });

  it('writes what Intl.NumberFormat writes, for every currency the runtime lists, in both languages', () => {
    for (const currency of Intl.supportedValuesOf('currency')) {
      for (const language of ['en', 'ar'] as const) {
        for (const minor of MINOR_AMOUNTS) {
          assert.equal(formatMoney(minor, currency, language), intlMoney(minor, currency, language), `${currency} ${language} ${minor}`);
        }
      }
    }
  });

  it('asks Intl.NumberFormat nothing, so a page never waits for its number-formatting data', (t) => {
    t.mock.method(Intl, 'NumberFormat', () => {
      throw new Error('Intl.NumberFormat was asked');
    });
    assert.equal(plainSpaces(formatMoney(19900, 'SAR', 'en')), 'SAR 199.00');
    assert.equal(formatMoney(2500, 'KWD', 'ar'), '\u200f٢٫٥٠٠\u00a0د.ك.\u200f');
    assert.equal(formatMoney(500, 'USD', 'en'), '$5.00');
    assert.equal(currencyExponent('BHD'), 3);
  });
});

describe('amount round trips', () => {
  const currencies = fc.constantFrom('EGP', 'SAR', 'KWD', 'BHD', 'JPY', 'AED');

  it('fromMinorUnits then toMinorUnits gives back the same integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), currencies, (minor, currency) => {
        return toMinorUnits(fromMinorUnits(minor, currency), currency) === minor;
      }),
    );
  });

  it('toMinorUnits then fromMinorUnits gives back the canonical decimal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const decimal = `${whole}.${String(cents).padStart(2, '0')}`;
        return fromMinorUnits(toMinorUnits(decimal, 'EGP'), 'EGP') === decimal;
      }),
    );
  });
});
