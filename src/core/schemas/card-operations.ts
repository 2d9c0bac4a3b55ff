/** AUTHORIZATION / PURCHASE through paymentApi with a token or clear card data: trusted channel and recurring. */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { cardOrToken, directOperationBase, directOperationShape, operationResult, outcome } from './shared.ts';

/**
 * Trusted channel: AUTHORIZATION or PURCHASE with clear card data or a token, eci ECOMMERCE,
 * RECURRING or MOTO (a RECURRING charge of clear card data included).
 */
export const trustedChannelRequest = pure(() => z.strictObject({ ...directOperationShape, eci: field('eci') }).check(cardOrToken));

/** Trusted-channel answer: the request echoed (card number masked) plus the operation's result. */
export const trustedChannelResponse = pure(() => z.looseObject({ ...directOperationShape, ...outcome, ...operationResult }));

const recurringShape = pure(() => ({
  ...directOperationBase,
  command: z.literal('PURCHASE'),
  eci: z.literal('RECURRING'),
  token_name: field('token_name'),
}));

/** Recurring PURCHASE: a stored token under a recurring contract (clear card data goes through the trusted channel). */
export const recurringPurchaseRequest = z.strictObject(recurringShape);

/** Recurring answer: the request echoed plus svc_id, authorization_code, masked card and settlement reference. */
export const recurringPurchaseResponse = pure(() => z.looseObject({ ...operationResult, ...recurringShape, ...outcome }));

// ---- Types ----

export type TrustedChannelRequest = z.infer<typeof trustedChannelRequest>;
export type TrustedChannelResponse = z.infer<typeof trustedChannelResponse>;
export type RecurringPurchaseRequest = z.infer<typeof recurringPurchaseRequest>;
export type RecurringPurchaseResponse = z.infer<typeof recurringPurchaseResponse>;
