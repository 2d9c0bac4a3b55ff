/**
 * What `Intl.NumberFormat` itself writes for an amount and a number: the oracle that
 * `formatMoney` and `formatCount`, which build the same text without `Intl`, are held to in Node
 * (test/core) and in the browser (test/components/shared/money-text.test.ts).
 */
import { currencyExponent, totalFromMinorUnits } from '../../src/core/amounts.ts';
import type { Language } from '../../src/core/language.ts';

const locale = (language: Language) => (language === 'ar' ? 'ar-EG' : 'en');

export function intlMoney(minor: number, currency: string, language: Language): string {
  const digits = currencyExponent(currency);
  const format = new Intl.NumberFormat(locale(language), {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  // Intl formats a decimal string exactly; the cast is for older lib typings that only list number.
  return format.format(totalFromMinorUnits(minor, currency) as unknown as number);
}

export function intlCount(decimal: string): string {
  const digits = decimal.split('.')[1]?.length ?? 0;
  return new Intl.NumberFormat('ar-EG', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    decimal as unknown as number,
  );
}

/** Amounts from the smallest to the largest safe integer, through every grouping length. */
export const MINOR_AMOUNTS = [0, 1, 99, 1234, 123_456, 1_234_567, 123_456_789, 9_999_999_999, Number.MAX_SAFE_INTEGER];

/** The currencies of the gateway's region, and those its merchants most often price in besides. */
export const REGION_CURRENCIES = ['EGP', 'SAR', 'AED', 'KWD', 'QAR', 'BHD', 'OMR', 'JOD', 'IQD', 'LBP', 'MAD', 'TND', 'USD', 'EUR', 'GBP', 'JPY'];
