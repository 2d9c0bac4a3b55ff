/**
 * The endpoint's answer about the order: the one answer a page gets before the customer acts
 * (`<pg-checkout>` asks for it as it connects, to put the amount on the Pay button), and the
 * shapes of money every other answer shares. Shapes (shape.ts) are small enough for the first
 * screen; the other answers' shapes (endpoint-results.ts) load with the first request the
 * customer makes.
 */
import { FAIL, is, literal, object, optional, read, string, type Infer, type Shape } from './shape.ts';

/** Integer minor units as the merchant's order holds them: a safe integer, zero or more. */
export function isMinorUnits(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** An ISO 4217 code as the elements format money with it: three capital letters. */
export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{3}$/.test(value);
}

/** Integer minor units, as the merchant's order holds them; JSON's -0 is the amount 0 (never "-0" on a button). */
export const minorUnits: Shape<number> = (value) => (isMinorUnits(value) ? value + 0 : FAIL);

/** An ISO 4217 code. */
export const currencyCode = is(isCurrencyCode);

export const text = string;

/**
 * What the browser may know of the order: its identity and what it costs, and `cvv_optional`
 * (only ever `true`) when the merchant's account has CVV suppression, so that the card form may
 * leave the security code empty. It comes from the endpoint's configuration, never from the page.
 */
export const orderResult = object({
  merchant_reference: text,
  amount: minorUnits,
  currency: currencyCode,
  description: optional(text),
  cvv_optional: optional(literal(true)),
});

export type OrderResult = Infer<typeof orderResult>;

/** The order's answer if it has the contract's shape, with only its fields; otherwise undefined, and the page does not use it. */
export function readOrderAnswer(payload: unknown): OrderResult | undefined {
  return read(orderResult, payload);
}
