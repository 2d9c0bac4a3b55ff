/**
 * An amount error in the request's language. Apart from `amounts.ts` so that a page formatting
 * amounts does not download the Arabic text of errors only the endpoint and the CLI report.
 */
import { AMOUNT_RULE_TEXT, type AmountRule } from './amounts.ts';
import { formatCount, type Language } from './language.ts';

const ARABIC_RULE_TEXT: Record<AmountRule, (limit?: number) => string> = {
  format: () => 'يجب أن يكون رقمًا عشريًا مثل 10.50',
  negative: () => 'يجب ألا يكون سالبًا',
  too_many_decimals: (limit) => `يجب ألا يزيد عدد الخانات العشرية عن ${formatCount(limit ?? 0, 'ar')} لهذه العملة`,
  too_long: (limit) => `يجب ألا يزيد عن ${formatCount(limit ?? 0, 'ar')} أرقام بالوحدات الصغرى`,
  unknown_currency: () => 'يجب أن يكون رمز عملة وفق ISO 4217 مثل EGP',
};

/** The message for an amount error in the request's language, prefixed with the field name. */
export function amountErrorMessage(
  error: { field: string; rule: AmountRule; limit?: number | undefined },
  language: Language,
): string {
  const text = language === 'ar' ? ARABIC_RULE_TEXT : AMOUNT_RULE_TEXT;
  return `${error.field}: ${text[error.rule](error.limit)}`;
}
