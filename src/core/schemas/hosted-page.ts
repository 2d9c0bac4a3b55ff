/** The form posts to `{checkout_url}/{api_root}/paymentPage` (hosted page, merchant page 2.0, tokenization, installments) and the answer posted back to return_url. */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import {
  customer,
  identity,
  installmentsResult,
  merchantExtras,
  operationResult,
  order,
  outcome,
  requiredWithout,
  sdkOrderFields,
  wireAmount,
} from './shared.ts';

/** AUTHORIZATION or PURCHASE through redirection; `installments: STANDALONE` offers installments. */
export const hostedPaymentRequest = pure(() => z.strictObject({
  command: z.enum(['AUTHORIZATION', 'PURCHASE']),
  ...order,
  ...customer,
  order_description: z.optional(field('order_description')),
  installments: z.optional(z.literal('STANDALONE')),
  token_name: z.optional(field('token_name')),
  remember_me: z.optional(field('remember_me')),
  payment_option: z.optional(field('payment_option')),
  return_url: z.optional(field('return_url')),
  settlement_reference: z.optional(field('settlement_reference')),
  // The PHP SDK's redirection list adds these three.
  eci: z.optional(field('eci')),
  sadad_olp: z.optional(field('sadad_olp')),
  check_3ds: z.optional(field('check_3ds')),
  ...merchantExtras,
  ...sdkOrderFields,
}));

const tokenizationMerchantShape = pure(() => ({
  service_command: z.literal('TOKENIZATION'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  language: field('language'),
  signature: field('signature'),
  token_name: z.optional(field('token_name')),
  return_url: z.optional(field('return_url')),
  // The customer's consent to keep the card ("create new token" lists it; unsigned, as merchant page 2.0 leaves it out).
  remember_me: z.optional(field('remember_me')),
  ...merchantExtras,
}));

/**
 * The card fields the customer types into the merchant page; never signed (Authentication, special
 * case 1). The security code may be left out where the account has CVV suppression, which the
 * gateway checks (the field rule cannot know the account).
 */
const cardEntry = {
  card_number: field('card_number'),
  expiry_date: field('expiry_date'),
  card_security_code: z.optional(field('card_security_code')),
  card_holder_name: z.optional(field('card_holder_name')),
  remember_me: z.optional(field('remember_me')),
};

/** Tokenization (create new token, merchant page 2.0) as the merchant's server prepares and signs it, before card entry. */
export const tokenizationMerchantFields = z.strictObject(tokenizationMerchantShape);

/** Tokenization form as the gateway receives it: the merchant's fields plus the customer's card. */
export const tokenizationRequest = pure(() => z.strictObject({ ...tokenizationMerchantShape, ...cardEntry }));

const installmentsMerchantPageShape = pure(() => ({
  ...tokenizationMerchantShape,
  installments: z.literal('STANDALONE'),
  amount: wireAmount,
  currency: field('currency'),
  customer_country_code: z.optional(field('customer_country_code')),
}));

/** Installments through the merchant page, as the merchant's server signs it, before card entry. */
export const installmentsMerchantPageMerchantFields = z.strictObject(installmentsMerchantPageShape);

/** Installments through the merchant page, as the gateway receives it. */
export const installmentsMerchantPageRequest = pure(() => z.strictObject({ ...installmentsMerchantPageShape, ...cardEntry }));

/**
 * What the gateway posts back to `return_url` after the hosted or merchant page: the echoed
 * request, the outcome, the token and, for installments, the customer's choice. Either `command`
 * (payments) or `service_command` (tokenization) is present.
 */
export const hostedPageResponse = pure(() =>
  z
    .looseObject({
      command: z.optional(z.enum(['AUTHORIZATION', 'PURCHASE'])),
      service_command: z.optional(z.literal('TOKENIZATION')),
      ...identity,
      merchant_reference: field('merchant_reference'),
      amount: z.optional(wireAmount),
      currency: z.optional(field('currency')),
      language: field('language'),
      signature: field('signature'),
      ...outcome,
      ...customer,
      ...operationResult,
      order_description: z.optional(field('order_description')),
      remember_me: z.optional(field('remember_me')),
      return_url: z.optional(field('return_url')),
      installments: z.optional(field('installments')),
      customer_country_code: z.optional(field('customer_country_code')),
      ...installmentsResult,
      ...merchantExtras,
    })
    .check(requiredWithout(['command'], 'service_command')),
);

// ---- Types ----

export type HostedPaymentRequest = z.infer<typeof hostedPaymentRequest>;
export type TokenizationMerchantFields = z.infer<typeof tokenizationMerchantFields>;
export type TokenizationRequest = z.infer<typeof tokenizationRequest>;
export type InstallmentsMerchantPageMerchantFields = z.infer<typeof installmentsMerchantPageMerchantFields>;
export type InstallmentsMerchantPageRequest = z.infer<typeof installmentsMerchantPageRequest>;
export type HostedPageResponse = z.infer<typeof hostedPageResponse>;
