/**
 * The payment partners the spec names only by role: the single cash-voucher partner (bills are
 * EGP only, country Egypt) and the consumer-financing partner. Their codes (`payment_partner`,
 * `payment_option`) are the gateway account's: the merchant endpoint takes them as configuration,
 * and the sandbox has its own (src/sandbox/partners.ts).
 */
import { toMinorUnits } from './amounts.ts';
import { normalizeDigits, type Language } from './language.ts';

/** The only currency a cash bill can be issued in. */
export const VOUCHER_CURRENCY = 'EGP';

/**
 * The names customers know cash-voucher partners by, for the codes known here (the sandbox
 * gateway's `CASHP`): a customer looks for a name at the outlet, not a five-letter code.
 */
const VOUCHER_PARTNER_NAMES: Readonly<Record<string, Readonly<Record<Language, string>>>> = {
  CASHP: { en: 'Sandbox Cash Outlets', ar: 'منافذ الدفع التجريبية' },
};

/** A cash-voucher partner's name in `language`; undefined for a code not known here (shown as it is). */
export function voucherPartnerName(code: string, language: Language): string | undefined {
  return VOUCHER_PARTNER_NAMES[code]?.[language];
}

/** The market the financing partner serves; phone numbers are checked for it before any request. */
export const FINANCING_MARKET = 'EG';

/**
 * An Egyptian mobile number as the partner registers it (`01` + operator digit + 8 digits), from
 * what a customer types: spaces, dashes, bidi marks, Arabic-Indic digits and a +20 / 0020 prefix
 * are accepted. Undefined when it is not such a number.
 */
export function normalizeFinancingPhone(input: string): string | undefined {
  const digits = normalizeDigits(input).replace(/[\s\-().]/g, '');
  const national = digits.replace(/^(?:\+20|0020|20(?=1\d{9}$))/, '0');
  return /^01[0125]\d{8}$/.test(national) ? national : undefined;
}

/**
 * What a financing product list adds up to, in minor units of `currency`. Each `product_price` is
 * a decimal in major units ("2500.00"), read with `toMinorUnits`, never as a float; a price that is
 * not one throws the core's AmountError naming `products[i].product_price`.
 */
export function financingProductsTotal(
  products: readonly { readonly product_price: string }[],
  currency: string,
): number {
  return products.reduce(
    (total, product, index) => total + toMinorUnits(product.product_price, currency, `products[${index}].product_price`),
    0,
  );
}

/**
 * What a financing tenure costs the customer in all, in minor units: the down payment and each of
 * the tenure's monthly installments (the partner's EMI). Integers in, an integer out: no rounding.
 */
export function financingTotal(downPayment: number, months: number, emi: number): number {
  return downPayment + months * emi;
}
