/**
 * Card data rules shared by whoever reads a card: the Luhn check, the scheme from the leading
 * digits, the masked form the gateway returns ("Returned masked with asterisks in the middle",
 * spec Common fields: first 6 and last 4 digits kept), and the expiry date, which travels as
 * YYMM (spec: "Year then month, two digits each") but is typed MM/YY.
 */
import { normalizeDigits } from './language.ts';

/** Digits of a card number as typed: spaces, hyphens and bidi marks dropped, Arabic-Indic digits read. */
export function cardDigits(typed: string): string {
  return normalizeDigits(typed).replace(/[\s-]+/g, '');
}

/** True for 12 to 19 digits that pass the Luhn (mod 10) check. */
export function isLuhnValid(cardNumber: string): boolean {
  if (!/^\d{12,19}$/.test(cardNumber)) return false;
  let sum = 0;
  let double = false;
  for (let i = cardNumber.length - 1; i >= 0; i--) {
    let digit = cardNumber.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

export type CardScheme = 'VISA' | 'MASTERCARD';

/** Visa (4…) or MasterCard (51–55, 2221–2720) from the leading digits; undefined otherwise. */
export function cardSchemeOf(cardNumber: string): CardScheme | undefined {
  if (/^4/.test(cardNumber)) return 'VISA';
  if (/^5[1-5]/.test(cardNumber)) return 'MASTERCARD';
  const four = Number(cardNumber.slice(0, 4));
  if (cardNumber.length >= 4 && four >= 2221 && four <= 2720) return 'MASTERCARD';
  return undefined;
}

/** "4111111111111111" → "411111******1111". Numbers too short to hide anything are fully masked. */
export function maskCardNumber(cardNumber: string): string {
  if (cardNumber.length <= 10) return '*'.repeat(cardNumber.length);
  return `${cardNumber.slice(0, 6)}${'*'.repeat(cardNumber.length - 10)}${cardNumber.slice(-4)}`;
}

/** What a possible card number becomes in a log line or an error. */
export const HIDDEN_DIGITS = '[digits]';

/**
 * 12 or more digits, however separated: every card number (12-19 digits) and any longer run holding
 * one. A digit is written plainly (any script) or percent-encoded (`%30`-`%39`); between two digits
 * may stand at most three of: whitespace, `. _ - / \ +`, bidi marks, or any other percent-encoded
 * byte (`%20`, `%2D`, `%2E`, ...). One literal, so that a bundle which never calls
 * `hideCardNumbers` (the elements) drops it.
 */
const POSSIBLE_CARD_NUMBER =
  /(?:\p{Nd}|%3[0-9])(?:(?:[\s._\-/\\+\u200e\u200f\u2066-\u2069]|%(?!3[0-9])[0-9A-Fa-f]{2}){0,3}(?:\p{Nd}|%3[0-9])){11,}/gu;
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * `text` with every possible card number replaced by `[digits]`, whatever separates the digits
 * (spaces, dots, underscores, hyphens, slashes, plus signs, percent-encodings such as %20): every
 * run of 13 or more digits, and a run of 12 that passes the Luhn check unless it is an IPv4 address
 * (which has at most 12 digits). Shorter runs stay: a response code has 5, a bill number 8 to 12
 * that fail the Luhn check nine times in ten.
 */
export function hideCardNumbers(text: string): string {
  return text.replace(POSSIBLE_CARD_NUMBER, (run) => {
    const digits = normalizeDigits(run.replace(/%3([0-9])/g, '$1')).replace(/\D+/g, '');
    if (digits.length > 12) return HIDDEN_DIGITS;
    return isLuhnValid(digits) && !DOTTED_QUAD.test(run) ? HIDDEN_DIGITS : run;
  });
}

/**
 * An expiry as a customer types it ("12/30", "12 / 30", "1230" read as MMYY, "12/2030") to the wire's YYMM
 * ("3012"). Undefined when the month is not 01–12 or the shape is not one of those.
 */
export function typedExpiryToYymm(typed: string): string | undefined {
  const text = normalizeDigits(typed).replace(/\s+/g, '');
  const match = /^(\d{1,2})\/(\d{2}|\d{4})$/.exec(text) ?? /^(\d{2})(\d{2})$/.exec(text);
  if (!match) return undefined;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return undefined;
  const year = (match[2] ?? '').slice(-2);
  return `${year}${String(month).padStart(2, '0')}`;
}

/** The wire's expiry: year then month, two digits each, the month 01–12 (captures: year, month). */
export const YYMM = /^(\d{2})(0[1-9]|1[0-2])$/;

/** A YYMM expiry ("3012") as the card form shows it ("12/30"); undefined when it is not one. */
export function yymmAsTyped(yymm: string): string | undefined {
  const match = YYMM.exec(yymm);
  return match ? `${match[2]}/${match[1]}` : undefined;
}

/**
 * True when a YYMM expiry is before the month of `now` (UTC): a card is valid through the last day
 * of its expiry month. Years are read as 20YY.
 */
export function isExpiredYymm(yymm: string, now: Date): boolean {
  const match = YYMM.exec(yymm);
  if (!match) return true;
  const year = 2000 + Number(match[1]);
  const month = Number(match[2]);
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return year < currentYear || (year === currentYear && month < currentMonth);
}
