import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { directionOf, normalizeDigits } from '../../src/core/language.ts';
import { normalizeFinancingPhone } from '../../src/core/partners.ts';

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
