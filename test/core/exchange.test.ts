import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { convertMinorUnits, crossRate, RATE_DECIMALS } from '../../src/core/exchange.ts';

describe('crossRate', () => {
  it('divides the target’s rate by the source’s, half up to six places', () => {
    assert.equal(crossRate('1', '3.6725'), '3.672500');
    assert.equal(crossRate('48.50', '3.75'), '0.077320');
    assert.equal(crossRate('3', '1'), '0.333333');
    assert.equal(crossRate('3', '2'), '0.666667');
    assert.equal(crossRate('0.3075', '1'), '3.252033');
  });

  it('refuses a rate that is not a positive decimal', () => {
    assert.throws(() => crossRate('0', '1'), RangeError);
    assert.throws(() => crossRate('1,5', '1'), RangeError);
  });
});

describe('convertMinorUnits', () => {
  it('converts between currencies of different exponents, half up to the target’s minor unit', () => {
    assert.equal(convertMinorUnits(10000, 'USD', 'AED', '3.672500'), 36725);
    // 100.00 USD = 30.750 KWD (three decimals).
    assert.equal(convertMinorUnits(10000, 'USD', 'KWD', '0.307500'), 30750);
    // 1.000 KWD = 3.25 USD: 3.252033 rounds to 3.25.
    assert.equal(convertMinorUnits(1000, 'KWD', 'USD', '3.252033'), 325);
    // 0.05 EGP at 0.077320 = 0.003866 SAR → 0.00 SAR; 0.07 EGP → 0.005412… → 0.01 SAR.
    assert.equal(convertMinorUnits(5, 'EGP', 'SAR', '0.077320'), 0);
    assert.equal(convertMinorUnits(7, 'EGP', 'SAR', '0.077320'), 1);
    assert.equal(convertMinorUnits(50, 'USD', 'USD', '0.01'), 1, 'exactly half rounds up');
  });

  it('matches exact rational arithmetic for any amount and rate', () => {
    const rate = fc.integer({ min: 1, max: 10 ** 9 }).map((scaled) => {
      const digits = String(scaled).padStart(RATE_DECIMALS + 1, '0');
      return `${digits.slice(0, -RATE_DECIMALS)}.${digits.slice(-RATE_DECIMALS)}`;
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), rate, (amount, text) => {
        const scaled = BigInt(text.replace('.', ''));
        // EGP (2) to KWD (3): amount × rate × 10 / 10^6, half up.
        const exact = BigInt(amount) * scaled * BigInt(10);
        const denominator = BigInt(10) ** BigInt(RATE_DECIMALS);
        const expected = (exact * BigInt(2) + denominator) / (denominator * BigInt(2));
        return convertMinorUnits(amount, 'EGP', 'KWD', text) === Number(expected);
      }),
    );
  });
});
