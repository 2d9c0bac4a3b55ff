/** 3-D Secure services: 3DS_ENROLLMENT and 3DS_AUTHENTICATION. */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { identity, maskedCardNumber, order, outcome } from './shared.ts';

const enrollmentShape = pure(() => ({
  service_command: z.literal('3DS_ENROLLMENT'),
  ...order,
  card_number: field('card_number'),
  expiry_date: field('expiry_date'),
  merchant_3ds_url: field('merchant_3ds_url'),
}));

/** 3DS_ENROLLMENT: is the card enrolled, and where does the customer authenticate. */
export const threeDsEnrollmentRequest = z.strictObject(enrollmentShape);
/** 3DS_ENROLLMENT answer: masked card number, threeds_id, 3ds_url, 3ds_enrolled, and MD/PaRes for some processors. */
export const threeDsEnrollmentResponse = pure(() => z.looseObject({
  ...enrollmentShape,
  ...outcome,
  card_number: maskedCardNumber,
  threeds_id: z.optional(field('threeds_id')),
  '3ds_url': z.optional(field('3ds_url')),
  '3ds_enrolled': z.optional(z.string()),
  MD: z.optional(z.string()),
  PaRes: z.optional(z.string()),
}));

const authenticationShape = pure(() => ({
  service_command: z.literal('3DS_AUTHENTICATION'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  language: field('language'),
  signature: field('signature'),
}));

/** 3DS_AUTHENTICATION: passes the processor's parameters back in third_party_body. */
export const threeDsAuthenticationRequest = pure(() => z.strictObject({
  ...authenticationShape,
  third_party_body: field('third_party_body'),
}));
/** 3DS_AUTHENTICATION answer: 3ds_eci, 3ds_status, 3ds_xid, ver_token. */
export const threeDsAuthenticationResponse = pure(() => z.looseObject({
  ...authenticationShape,
  ...outcome,
  threeds_id: z.optional(field('threeds_id')),
  ver_token: z.optional(z.string()),
  '3ds_eci': z.optional(z.string()),
  '3ds_status': z.optional(z.string()),
  '3ds_xid': z.optional(z.string()),
  '3ds_enrolled': z.optional(z.string()),
}));

// ---- Types ----

export type ThreeDsEnrollmentRequest = z.infer<typeof threeDsEnrollmentRequest>;
export type ThreeDsEnrollmentResponse = z.infer<typeof threeDsEnrollmentResponse>;
export type ThreeDsAuthenticationRequest = z.infer<typeof threeDsAuthenticationRequest>;
export type ThreeDsAuthenticationResponse = z.infer<typeof threeDsAuthenticationResponse>;
