/**
 * The payments an element may ask the endpoint to sign: PURCHASE takes the money now; AUTHORIZATION
 * only holds it until the merchant captures it. Which one is the merchant's to allow, like the amount.
 */
export const PAYMENT_COMMANDS = ['AUTHORIZATION', 'PURCHASE'] as const;

export type PaymentCommand = (typeof PAYMENT_COMMANDS)[number];

/** True for `PURCHASE` and `AUTHORIZATION`, exactly as written. */
export function isPaymentCommand(value: unknown): value is PaymentCommand {
  return (PAYMENT_COMMANDS as readonly unknown[]).includes(value);
}
