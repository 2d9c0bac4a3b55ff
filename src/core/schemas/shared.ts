/**
 * Pieces most wire shapes share: identity, the order's money and language, the customer, the
 * outcome every answer carries, the fields an answered operation adds, and the "required unless"
 * rule. Built from the field rules of fields.ts.
 */
import * as z from 'zod/mini';
import { charsetCheck, digitsFromRule, field, FIELD_RULES, pure, sdkOptionalFields } from './fields.ts';

export const wireAmount = digitsFromRule(FIELD_RULES.amount);

export const identity = {
  access_code: field('access_code'),
  merchant_identifier: field('merchant_identifier'),
};

export const merchantExtras = {
  merchant_extra: z.optional(field('merchant_extra')),
  merchant_extra1: z.optional(field('merchant_extra1')),
  merchant_extra2: z.optional(field('merchant_extra2')),
  merchant_extra3: z.optional(field('merchant_extra3')),
  merchant_extra4: z.optional(field('merchant_extra4')),
  merchant_extra5: z.optional(field('merchant_extra5')),
};

/** Identity, order, money and language: what every operation request carries. */
export const order = pure(() => ({
  ...identity,
  merchant_reference: field('merchant_reference'),
  amount: wireAmount,
  currency: field('currency'),
  language: field('language'),
  signature: field('signature'),
}));

export const customer = {
  customer_email: z.optional(field('customer_email')),
  customer_name: z.optional(field('customer_name')),
  customer_ip: z.optional(field('customer_ip')),
  phone_number: z.optional(field('phone_number')),
};

/** Every response carries these (spec, Errors 1). */
export const outcome = {
  response_code: field('response_code'),
  response_message: field('response_message'),
  status: field('status'),
};

/** The masked card number of a response, e.g. 400555******0001. */
export const maskedCardNumber = pure(() => z.string().check(z.minLength(1), charsetCheck('numeric', '*')));

/** Fields the gateway adds to an answered operation, where it has them. */
export const operationResult = {
  svc_id: z.optional(field('svc_id')),
  eci: z.optional(field('eci')),
  authorization_code: z.optional(field('authorization_code')),
  payment_option: z.optional(field('payment_option')),
  card_number: z.optional(maskedCardNumber),
  expiry_date: z.optional(field('expiry_date')),
  card_holder_name: z.optional(field('card_holder_name')),
  token_name: z.optional(field('token_name')),
  settlement_reference: z.optional(field('settlement_reference')),
  '3ds_url': z.optional(field('3ds_url')),
};

/** Installment fields of an answer to an installments request. */
export const installmentsResult = {
  number_of_installments: z.optional(digitsFromRule(FIELD_RULES.number_of_installments)),
  plan_code: z.optional(field('plan_code')),
  issuer_code: z.optional(field('issuer_code')),
};

export interface RequiredWithoutParams {
  readonly rule: 'required_without';
  readonly other: string;
}

/**
 * Each of `fields` is required unless `other` is sent. Runs even when other fields already
 * failed, so every error shows at once.
 */
/* @__NO_SIDE_EFFECTS__ */
export function requiredWithout(fields: readonly string[], other: string): z.core.$ZodCheck<object> {
  return z.check<object>(
    (payload) => {
      const value = payload.value as Record<string, unknown>;
      if (value[other] !== undefined) return;
      for (const name of fields) {
        if (value[name] !== undefined) continue;
        const params: RequiredWithoutParams = { rule: 'required_without', other };
        payload.issues.push({ code: 'custom', path: [name], params, input: undefined });
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );
}

/** What any paymentApi request may add: the answer as XML (spec, What the service does 14). */
export const apiOptions = {
  response_format: z.optional(field('response_format')),
};

/** The optional fields the official SDKs send with every AUTHORIZATION / PURCHASE (fields.ts SDK_OPTIONAL_FIELDS). */
export const sdkOrderFields = pure(() => ({ ...sdkOptionalFields('order'), ...sdkOptionalFields('app') }));

/** Clear card data: the trusted channel. */
export const clearCard = {
  card_number: z.optional(field('card_number')),
  expiry_date: z.optional(field('expiry_date')),
  card_security_code: z.optional(field('card_security_code')),
  card_holder_name: z.optional(field('card_holder_name')),
};

/** The result of a 3-D Secure check done elsewhere (External MPI), sent with the card it was done for. */
export const externalMpi = {
  '3ds_enrolled': z.optional(field('3ds_enrolled')),
  '3ds_status': z.optional(field('3ds_status')),
  '3ds_eci': z.optional(field('3ds_eci')),
  '3ds_xid': z.optional(field('3ds_xid')),
  ver_token: z.optional(field('ver_token')),
};

/** AUTHORIZATION or PURCHASE through paymentApi, card data aside: what trusted-channel, recurring and installments operations share. */
export const directOperationBase = pure(() => ({
  command: z.enum(['AUTHORIZATION', 'PURCHASE']),
  ...order,
  ...customer,
  eci: z.optional(field('eci')),
  token_name: z.optional(field('token_name')),
  remember_me: z.optional(field('remember_me')),
  payment_option: z.optional(field('payment_option')),
  order_description: z.optional(field('order_description')),
  return_url: z.optional(field('return_url')),
  settlement_reference: z.optional(field('settlement_reference')),
  customer_country_code: z.optional(field('customer_country_code')),
  check_3ds: z.optional(field('check_3ds')),
  ...merchantExtras,
  ...sdkOrderFields,
  ...sdkOptionalFields('fraud_screening'),
  ...apiOptions,
}));

/** AUTHORIZATION or PURCHASE through paymentApi with a token or clear card data (and an External MPI result). */
export const directOperationShape = pure(() => ({ ...directOperationBase, ...clearCard, ...externalMpi }));

export const cardOrToken = requiredWithout(['card_number', 'expiry_date'], 'token_name');

export type WireAmount = z.infer<typeof wireAmount>;
