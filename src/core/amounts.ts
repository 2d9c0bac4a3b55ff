/**
 * Money on the wire: the gateway's `amount` is the decimal amount times the currency's decimal
 * factor (spec, General rules 1), an integer of at most 10 digits. Everything here works on
 * strings and safe integers, never on binary floating point.
 */
import { groupDigits, type Language } from './language.ts';

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
 * ISO 4217 minor units other than 2, by exponent. Written out rather than asked of `Intl`: a tab's
 * first `Intl.NumberFormat` costs a phone about 200 ms (`groupDigits`), and CLDR, which `Intl`
 * follows, gives the digits people write where it differs from ISO 4217 (IQD: 0, not 3; LBP, PKR,
 * IDR…: 0, not 2), while the gateway multiplies by the ISO 4217 exponent. CLF and UYW are ISO
 * codes that `Intl` does not list.
 */
const EXPONENTS: ReadonlyMap<string, number> = new Map(
  ['BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF', '', '', 'BHD IQD JOD KWD LYD OMR TND', 'CLF UYW'].flatMap(
    (codes, exponent) => (codes ? codes.split(' ').map((code) => [code, exponent] as const) : []),
  ),
);

let knownCurrencies: ReadonlySet<string> | undefined;

function isKnownCurrency(code: string): boolean {
  // Listing the codes reads no number-formatting data.
  knownCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return knownCurrencies.has(code) || EXPONENTS.has(code);
}

/** The ISO 4217 minor-unit exponent: 2 for EGP, 3 for KWD, 0 for JPY. */
export function currencyExponent(currency: string, field = 'currency'): number {
  if (!/^[A-Z]{3}$/.test(currency) || !isKnownCurrency(currency)) {
    throw new AmountError(field, 'unknown_currency');
  }
  return EXPONENTS.get(currency) ?? 2;
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
 * The currencies written without `Intl` (`groupDigits`): the gateway's region, each with its
 * Arabic symbol as CLDR writes it for ar-EG (a full stop and a right-to-left mark follow it), and
 * the currencies its merchants most often price in besides. English writes the region's by their
 * ISO codes ("EGP 1,234.50"), as CLDR does. Any other currency is written by `Intl.NumberFormat`.
 */
const REGION_SYMBOLS = 'AED د.إ BHD د.ب DZD د.ج EGP ج.م IQD د.ع JOD د.أ KWD د.ك LBP ل.ل LYD د.ل MAD د.م OMR ر.ع QAR ر.ق SAR ر.س SYP ل.س TND د.ت YER ر.ي';
let symbols: ReadonlyMap<string, readonly [en: string, ar: string]> | undefined;

function symbolsOf(currency: string): readonly [en: string, ar: string] | undefined {
  if (!symbols) {
    const words = REGION_SYMBOLS.split(' ');
    symbols = new Map<string, readonly [en: string, ar: string]>([
      ['USD', ['$', 'US$']],
      ['EUR', ['€', '€']],
      ['GBP', ['£', 'UK£']],
      ['JPY', ['¥', 'JP¥']],
      ...words.flatMap((code, index) => (index % 2 ? [] : [[code, [code, `${words[index + 1]}.\u200f`]] as const])),
    ]);
  }
  return symbols.get(currency);
}

/**
 * An amount for people to read, in the page language ("EGP 1,234.50", "‏١٬٢٣٤٫٥٠ ج.م.‏"): the
 * text `Intl.NumberFormat` writes (currency style, `en` or `ar-EG`), formatted from the exact
 * decimal string, so no float ever carries the value. The region's currencies are written without
 * `Intl`, so their pages never wait for the browser's number-formatting data (`groupDigits`). Any
 * safe integer, not only a wire amount: a plan's total with its fees may pass the 10 digits the
 * order's amount keeps to.
 */
export function formatMoney(minor: number, currency: string, language: Language): string {
  const decimal = totalFromMinorUnits(minor, currency);
  const known = symbolsOf(currency);
  if (known) {
    const number = groupDigits(decimal, language);
    if (language === 'ar') return `\u200f${number}\u00a0${known[1]}`;
    return known[0] === currency ? `${currency}\u00a0${number}` : known[0] + number;
  }
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
