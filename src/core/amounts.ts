/**
 * Money on the wire: the gateway's `amount` is the decimal amount times the currency's decimal
 * factor (spec, General rules 1), an integer of at most 10 digits. Everything here works on
 * strings and safe integers, never on binary floating point.
 */
import type { Language } from './language.ts';

/** The wire limit on `amount`: at most 10 characters, so always a safe integer. */
export const MAX_AMOUNT_DIGITS = 10;

export type AmountRule =
  | 'format'
  | 'negative'
  | 'too_many_decimals'
  | 'too_long'
  | 'unknown_currency';

/** A refused amount or currency; `field` names the request field, `rule` the broken rule. */
export class AmountError extends Error {
  readonly field: string;
  readonly rule: AmountRule;
  readonly limit: number | undefined;

  constructor(field: string, rule: AmountRule, limit?: number) {
    super(`${field}: ${AMOUNT_RULE_TEXT[rule](limit)}`);
    this.name = 'AmountError';
    this.field = field;
    this.rule = rule;
    this.limit = limit;
  }
}

/** What each rule asks of the value, in English (other languages: `amountErrorMessage`). */
export const AMOUNT_RULE_TEXT: Record<AmountRule, (limit?: number) => string> = {
  format: () => 'must be a decimal number such as 10.50',
  negative: () => 'must not be negative',
  too_many_decimals: (limit) => `must have at most ${limit} decimal places for this currency`,
  too_long: (limit) => `must be at most ${limit} digits in minor units`,
  unknown_currency: () => 'must be an ISO 4217 currency code such as EGP',
};

/**
 * Where CLDR (and so `Intl`) disagrees with ISO 4217 on the minor unit. CLDR gives the digits
 * people write; the gateway multiplies by the ISO 4217 exponent.
 */
const ISO_4217_OVERRIDES: Readonly<Record<string, number>> = {
  IQD: 3,
  LBP: 2,
  IRR: 2,
  RSD: 2,
  SYP: 2,
  YER: 2,
  KPW: 2,
  MGA: 2,
  ALL: 2,
  AFN: 2,
  AMD: 2,
  COP: 2,
  HUF: 2,
  IDR: 2,
  LAK: 2,
  MMK: 2,
  PKR: 2,
  SLL: 2,
  SOS: 2,
  TWD: 2,
  TZS: 2,
  UZS: 2,
  MRU: 2,
  CLF: 4,
  UYW: 4,
};

let knownCurrencies: ReadonlySet<string> | undefined;
const exponentCache = new Map<string, number>();

function isKnownCurrency(code: string): boolean {
  knownCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return knownCurrencies.has(code) || code in ISO_4217_OVERRIDES;
}

/** The ISO 4217 minor-unit exponent: 2 for EGP, 3 for KWD, 0 for JPY. */
export function currencyExponent(currency: string, field = 'currency'): number {
  const cached = exponentCache.get(currency);
  if (cached !== undefined) return cached;
  if (!/^[A-Z]{3}$/.test(currency) || !isKnownCurrency(currency)) {
    throw new AmountError(field, 'unknown_currency');
  }
  const exponent =
    ISO_4217_OVERRIDES[currency] ??
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ??
    2;
  exponentCache.set(currency, exponent);
  return exponent;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * "123.45" EGP → 12345; "1.5" KWD → 1500; "500" JPY → 500. Refuses negatives, more decimals
 * than the currency has, non-numeric text and results over 10 digits.
 */
export function toMinorUnits(decimal: string, currency: string, field = 'amount'): number {
  const exponent = currencyExponent(currency);
  const text = decimal.trim();
  if (text.startsWith('-')) throw new AmountError(field, 'negative');
  const match = DECIMAL.exec(text);
  if (!match) throw new AmountError(field, 'format');
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) throw new AmountError(field, 'too_many_decimals', exponent);
  const digits = (whole + fraction.padEnd(exponent, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_AMOUNT_DIGITS) throw new AmountError(field, 'too_long', MAX_AMOUNT_DIGITS);
  return Number(digits);
}

/** 12345 EGP → "123.45"; 1500 KWD → "1.500"; 500 JPY → "500". */
export function fromMinorUnits(minor: number, currency: string, field = 'amount'): string {
  return withExponent(wireAmountDigits(minor, field), currencyExponent(currency));
}

/**
 * Minor units as a decimal in the currency's exponent, like `fromMinorUnits` but of any safe
 * integer: a total for people to read (a batch's lines added up), which no single amount on the
 * wire may reach.
 */
export function totalFromMinorUnits(minor: number, currency: string, field = 'amount'): string {
  return withExponent(minorUnitsDigits(minor, field), currencyExponent(currency));
}

function withExponent(digits: string, exponent: number): string {
  if (exponent === 0) return digits;
  const padded = digits.padStart(exponent + 1, '0');
  return `${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
}

/** Reads an `amount` as it arrives on the wire (string or number of digits) into minor units. */
export function parseWireAmount(value: unknown, field = 'amount'): number {
  if (typeof value === 'number') return Number(wireAmountDigits(value, field));
  if (typeof value !== 'string') throw new AmountError(field, 'format');
  if (value.startsWith('-')) throw new AmountError(field, 'negative');
  if (!/^\d+$/.test(value)) throw new AmountError(field, 'format');
  if (value.length > MAX_AMOUNT_DIGITS) throw new AmountError(field, 'too_long', MAX_AMOUNT_DIGITS);
  return Number(value);
}

/** A count of minor units written out: a safe integer, zero or more. */
function minorUnitsDigits(minor: number, field: string): string {
  if (!Number.isSafeInteger(minor)) throw new AmountError(field, 'format');
  if (minor < 0) throw new AmountError(field, 'negative');
  return String(minor);
}

function wireAmountDigits(minor: number, field: string): string {
  const digits = minorUnitsDigits(minor, field);
  if (digits.length > MAX_AMOUNT_DIGITS) throw new AmountError(field, 'too_long', MAX_AMOUNT_DIGITS);
  return digits;
}

/**
 * An amount for people to read, in the page language ("EGP 1,234.50", "‏1٬234٫50 ج.م.‏").
 * Formats the exact decimal string, so no float ever carries the value. Any safe integer, not only
 * a wire amount: a plan's total with its fees may pass the 10 digits the order's amount keeps to.
 */
export function formatMoney(minor: number, currency: string, language: Language): string {
  const decimal = totalFromMinorUnits(minor, currency);
  const exponent = currencyExponent(currency);
  const format = new Intl.NumberFormat(language === 'ar' ? 'ar-EG' : 'en', {
    style: 'currency',
    currency,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  // Intl formats a decimal string exactly; the cast is for older lib typings that only list number.
  return format.format(decimal as unknown as number);
}
