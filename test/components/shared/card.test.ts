import { expect } from '@open-wc/testing';
import {
  cardDigits,
  cardNumberProblem,
  cvvProblem,
  detectBrand,
  expiryProblem,
  formatCardNumber,
  formatExpiryInput,
  gatewayExpiry,
  holderProblem,
} from '../../../src/components/shared/card.ts';

describe('card rules of the card form', () => {
  const now = new Date(Date.UTC(2026, 10, 22));

  it('reads digits from what was typed: separators, bidi marks and Arabic-Indic digits', () => {
    expect(cardDigits('\u200f٤١١١ ١١١١-۱۱۱۱ 1111\u200e')).to.equal('4111111111111111');
  });

  it('detects Visa and MasterCard (both ranges) from the first digits', () => {
    expect(detectBrand('4')).to.equal('Visa');
    expect(detectBrand('51')).to.equal('MasterCard');
    expect(detectBrand('2221')).to.equal('MasterCard');
    expect(detectBrand('2720')).to.equal('MasterCard');
    expect(detectBrand('2721')).to.equal(undefined);
    expect(detectBrand('6011')).to.equal(undefined);
  });

  it('groups the number by fours', () => {
    expect(formatCardNumber('4111111111111111')).to.equal('4111 1111 1111 1111');
    expect(formatCardNumber('41111')).to.equal('4111 1');
  });

  it('checks length and Luhn', () => {
    expect(cardNumberProblem('')).to.equal('required');
    expect(cardNumberProblem('411111')).to.equal('incomplete');
    expect(cardNumberProblem('4111111111111112')).to.equal('invalid');
    expect(cardNumberProblem('4111111111111111')).to.equal(undefined);
    expect(cardNumberProblem('51234567890123460')).to.equal('invalid');
  });

  it('types the expiry as MM/YY and sends it as YYMM', () => {
    expect(formatExpiryInput('1')).to.equal('1');
    expect(formatExpiryInput('12')).to.equal('12/');
    expect(formatExpiryInput('12', true)).to.equal('12');
    expect(formatExpiryInput('4')).to.equal('04/');
    expect(formatExpiryInput('13')).to.equal('01/3');
    expect(formatExpiryInput('١٢٢٩')).to.equal('12/29');
    expect(gatewayExpiry('12/29')).to.equal('2912');
    expect(gatewayExpiry('1229')).to.equal(undefined);
  });

  it('refuses a past, malformed or far-future expiry', () => {
    expect(expiryProblem('', now)).to.equal('required');
    expect(expiryProblem('13/29', now)).to.equal('invalid');
    expect(expiryProblem('10/26', now)).to.equal('past');
    expect(expiryProblem('11/26', now)).to.equal(undefined);
    expect(expiryProblem('11/99', now)).to.equal('invalid');
  });

  it('wants 3 digits of CVV for Visa and MasterCard, 3 or 4 otherwise', () => {
    expect(cvvProblem('', 'Visa')).to.equal('required');
    expect(cvvProblem('1234', 'Visa')).to.equal('invalid');
    expect(cvvProblem('123', 'MasterCard')).to.equal(undefined);
    expect(cvvProblem('1234', undefined)).to.equal(undefined);
  });

  it('lets an optional security code be empty, and still checks one that is typed (CVV suppression)', () => {
    expect(cvvProblem('', 'Visa', true)).to.equal(undefined);
    expect(cvvProblem('12', 'Visa', true)).to.equal('invalid');
    expect(cvvProblem('123', 'Visa', true)).to.equal(undefined);
  });

  it('accepts holder names in any script', () => {
    expect(holderProblem('  ')).to.equal('required');
    expect(holderProblem("Amira O'Neil-Hassan")).to.equal(undefined);
    expect(holderProblem('أميرة حسن')).to.equal(undefined);
    expect(holderProblem('Amira 2')).to.equal('invalid');
  });
});
