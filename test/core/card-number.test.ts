import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  cardDigits,
  cardSchemeOf,
  isExpiredYymm,
  isLuhnValid,
  maskCardNumber,
  typedExpiryToYymm,
  yymmAsTyped,
} from '../../src/core/card-number.ts';

describe('card numbers', () => {
  it('passes the Luhn check for valid numbers and fails any single-digit change', () => {
    assert.ok(isLuhnValid('4111111111111111'));
    assert.ok(isLuhnValid('5123456789012346'));
    assert.ok(!isLuhnValid('4111111111111112'));
    assert.ok(!isLuhnValid('41111111111'), 'too short');
    assert.ok(!isLuhnValid('4111-1111-1111-1111'), 'digits only');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const digits = [...'4111111111111111'].map(Number);
        digits[position] = ((digits[position] ?? 0) + delta) % 10;
        return !isLuhnValid(digits.join(''));
      }),
    );
  });

  it('reads typed numbers: spaces, hyphens and Arabic-Indic digits', () => {
    assert.equal(cardDigits('4111 1111-1111 1111'), '4111111111111111');
    assert.equal(cardDigits('٤١١١١١١١١١١١١١١١'), '4111111111111111');
  });

  it('names Visa and MasterCard from the leading digits', () => {
    assert.equal(cardSchemeOf('4111111111111111'), 'VISA');
    assert.equal(cardSchemeOf('5500000000000004'), 'MASTERCARD');
    assert.equal(cardSchemeOf('2221000000000009'), 'MASTERCARD');
    assert.equal(cardSchemeOf('378282246310005'), undefined);
  });

  it('masks all but the first 6 and last 4 digits', () => {
    assert.equal(maskCardNumber('4111111111111111'), '411111******1111');
    assert.equal(maskCardNumber('5123456789012346789'), '512345*********6789');
    assert.equal(maskCardNumber('1234567890'), '**********');
  });
});

describe('expiry dates', () => {
  it('turns MM/YY as typed into the wire’s YYMM', () => {
    assert.equal(typedExpiryToYymm('08/29'), '2908');
    assert.equal(typedExpiryToYymm(' 8 / 29 '), '2908');
    assert.equal(typedExpiryToYymm('0829'), '2908');
    assert.equal(typedExpiryToYymm('08/2029'), '2908');
    assert.equal(typedExpiryToYymm('٠٨/٢٩'), '2908');
    assert.equal(typedExpiryToYymm('13/29'), undefined);
    assert.equal(typedExpiryToYymm('00/29'), undefined);
    assert.equal(typedExpiryToYymm('829'), undefined);
  });

  it('shows the wire\'s YYMM as the card prints it, and nothing for what is not one', () => {
    assert.equal(yymmAsTyped('2908'), '08/29');
    assert.equal(yymmAsTyped('2913'), undefined);
    assert.equal(yymmAsTyped('08/29'), undefined);
    for (const yymm of ['2908', '3012', '2601']) assert.equal(typedExpiryToYymm(yymmAsTyped(yymm) ?? ''), yymm, 'and back');
  });

  it('counts a card valid through its expiry month', () => {
    const now = new Date('2026-03-31T23:59:59Z');
    assert.ok(!isExpiredYymm('2603', now));
    assert.ok(isExpiredYymm('2602', now));
    assert.ok(isExpiredYymm('2512', now));
    assert.ok(!isExpiredYymm('2701', now));
    assert.ok(isExpiredYymm('2613', now), 'not a month');
  });
});
