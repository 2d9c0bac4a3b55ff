/**
 * The endpoint's answer about the order, read without zod: the one answer a page gets before the
 * customer acts (`<pg-checkout>` asks for it as it connects, to put the amount on the Pay button).
 * Checking it here keeps the contract's schemas (endpoint-results.ts, with zod) out of the first
 * screen: they load with the first request the customer makes. The rules are the ones the zod
 * `orderResult` is built from (the predicates below are shared with it), and a property test holds
 * the two to the same verdict on any payload (test/core/order-answer.test.ts).
 */
import type { OrderResult } from './endpoint-results.ts';

/** Integer minor units as the merchant's order holds them: a safe integer, zero or more. */
export function isMinorUnits(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** An ISO 4217 code as the elements format money with it: three capital letters. */
export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{3}$/.test(value);
}

/**
 * The order's answer if it has the contract's shape (`merchant_reference`, `amount` in minor
 * units, `currency`, optional `description`, `cvv_optional` only ever `true`), with only those
 * fields; otherwise undefined, and the page does not use it.
 */
export function readOrderAnswer(payload: unknown): OrderResult | undefined {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const { merchant_reference: reference, amount, currency, description, cvv_optional: cvvOptional } = payload as Record<string, unknown>;
  if (typeof reference !== 'string' || !isMinorUnits(amount) || !isCurrencyCode(currency)) return undefined;
  if (description !== undefined && typeof description !== 'string') return undefined;
  if (cvvOptional !== undefined && cvvOptional !== true) return undefined;
  return {
    merchant_reference: reference,
    // JSON's -0 is the amount 0, as the schema reads it.
    amount: amount === 0 ? 0 : amount,
    currency,
    ...(description !== undefined ? { description } : {}),
    ...(cvvOptional ? { cvv_optional: true as const } : {}),
  };
}
