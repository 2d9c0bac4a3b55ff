/** CHECK_STATUS. */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { apiOptions, identity, outcome, requiredWithout, wireAmount } from './shared.ts';

const checkStatusShape = pure(() => ({
  query_command: z.literal('CHECK_STATUS'),
  ...identity,
  merchant_reference: z.optional(field('merchant_reference')),
  svc_id: z.optional(field('svc_id')),
  language: field('language'),
  signature: field('signature'),
  return_third_party_response_codes: z.optional(field('return_third_party_response_codes')),
  ...apiOptions,
}));

/**
 * CHECK_STATUS. The spec lists merchant_reference as mandatory yet says "merchant_reference and/or
 * svc_id may be sent"; so either one is enough.
 */
export const checkStatusRequest = pure(() => z.strictObject(checkStatusShape).check(requiredWithout(['merchant_reference'], 'svc_id')));

/** CHECK_STATUS answer. The transaction_* fields describe the last operation; absent when the query fails. */
export const checkStatusResponse = pure(() => z.looseObject({
  ...checkStatusShape,
  ...outcome,
  transaction_status: z.optional(field('transaction_status')),
  transaction_code: z.optional(field('transaction_code')),
  transaction_message: z.optional(field('transaction_message')),
  refunded_amount: z.optional(wireAmount),
  captured_amount: z.optional(wireAmount),
  authorized_amount: z.optional(wireAmount),
  authorization_code: z.optional(field('authorization_code')),
  processor_response_code: z.optional(field('processor_response_code')),
  acquirer_response_code: z.optional(field('acquirer_response_code')),
}));

// ---- Types ----

export type CheckStatusRequest = z.infer<typeof checkStatusRequest>;
export type CheckStatusResponse = z.infer<typeof checkStatusResponse>;
