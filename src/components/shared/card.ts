/**
 * What the card form adds to the core card rules (src/core/card-number.ts holds Luhn, the scheme,
 * and MM/YY → YYMM): the spec's brand class names, lengths, display grouping, the expiry field's
 * typing aid and the per-field problem codes. Pure functions, no DOM.
 */
import { cardDigits as coreCardDigits, cardSchemeOf, isExpiredYymm, isLuhnValid, typedExpiryToYymm } from '../../core/card-number.ts';
import { normalizeDigits } from '../../core/language.ts';

/** Card brands as the spec's style classes spell them. */
export type CardBrand = 'Visa' | 'MasterCard';

const BRAND_OF_SCHEME = { VISA: 'Visa', MASTERCARD: 'MasterCard' } as const;

const LENGTHS: Readonly<Record<CardBrand | 'unknown', readonly number[]>> = {
  Visa: [13, 16, 19],
  MasterCard: [16],
  unknown: [12, 13, 14, 15, 16, 17, 18, 19],
};

/** Typed text to card digits only: separators, bidi marks and stray characters dropped. */
export function cardDigits(typed: string): string {
  return coreCardDigits(typed).replace(/\D/g, '');
}

/** The brand of a card number (or of its first digits), when it is one the spec styles. */
export function detectBrand(digits: string): CardBrand | undefined {
  const scheme = cardSchemeOf(digits);
  return scheme ? BRAND_OF_SCHEME[scheme] : undefined;
}

/** The valid lengths of a card number of `brand`. */
export function cardNumberLengths(brand: CardBrand | undefined): readonly number[] {
  return LENGTHS[brand ?? 'unknown'];
}

/** The most digits a card number of `brand` may have. */
export function maxCardNumberLength(brand: CardBrand | undefined): number {
  return Math.max(...cardNumberLengths(brand));
}

/** Allowed lengths of the security code: 3 for Visa and MasterCard, 3 or 4 otherwise. */
export function cvvLengths(brand: CardBrand | undefined): readonly number[] {
  return brand ? [3] : [3, 4];
}

/** "4111111111111111" → "4111 1111 1111 1111": groups of four. */
export function formatCardNumber(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

export type CardNumberProblem = 'required' | 'incomplete' | 'invalid';

/** What is wrong with a card number, or undefined for a Luhn-valid number of a valid length. */
export function cardNumberProblem(digits: string): CardNumberProblem | undefined {
  if (digits.length === 0) return 'required';
  const lengths = cardNumberLengths(detectBrand(digits));
  if (digits.length < Math.min(...lengths)) return 'incomplete';
  if (!lengths.includes(digits.length) || !isLuhnValid(digits)) return 'invalid';
  return undefined;
}

/**
 * The expiry field as the customer types, shown back as MM/YY: "1", "12", "12/", "12/2",
 * "12/27". A month that can only be one month is completed ("4" → "04/", "13" → "01/3").
 */
export function formatExpiryInput(typed: string, deleting = false): string {
  let digits = normalizeDigits(typed).replace(/\D/g, '');
  if (/^[2-9]/.test(digits) || /^1[3-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits}/`;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** The gateway's `expiry_date` (YYMM) for a typed MM/YY, when it is one. */
export function gatewayExpiry(typed: string): string | undefined {
  return /^\s*\d{2}\s*\/\s*\d{2}\s*$/.test(normalizeDigits(typed)) ? typedExpiryToYymm(typed) : undefined;
}

export type ExpiryProblem = 'required' | 'invalid' | 'past';

/** What is wrong with a typed expiry at `now`; a card is valid through the end of its month. */
export function expiryProblem(typed: string, now: Date = new Date()): ExpiryProblem | undefined {
  if (normalizeDigits(typed).trim() === '') return 'required';
  const yymm = gatewayExpiry(typed);
  if (!yymm) return 'invalid';
  if (isExpiredYymm(yymm, now)) return 'past';
  // More than 20 years ahead is a typing mistake, not a card.
  if (Number(yymm.slice(0, 2)) > (now.getUTCFullYear() % 100) + 20) return 'invalid';
  return undefined;
}

export type CvvProblem = 'required' | 'invalid';

/** `optional`: the merchant's account has CVV suppression, so an empty code is no problem. */
export function cvvProblem(digits: string, brand: CardBrand | undefined, optional?: boolean): CvvProblem | undefined {
  if (digits.length === 0) return optional ? undefined : 'required';
  return /^\d+$/.test(digits) && cvvLengths(brand).includes(digits.length) ? undefined : 'invalid';
}

export type HolderProblem = 'required' | 'invalid';

const HOLDER_NAME = /^[\p{L}\p{M}][\p{L}\p{M} .'\u2019-]*$/u;

/** A holder name: letters (any script), spaces, dots, hyphens and apostrophes, at most 50. */
export function holderProblem(name: string): HolderProblem | undefined {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'required';
  return trimmed.length <= 50 && HOLDER_NAME.test(trimmed) ? undefined : 'invalid';
}
