/** 3-D Secure services: 3DS_ENROLLMENT and 3DS_AUTHENTICATION (spec, "3-D Secure standalone flow"). */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { apiOptions, identity, maskedCardNumber, order, outcome } from './shared.ts';

const enrollmentShape = pure(() => ({
  service_command: z.literal('3DS_ENROLLMENT'),
  ...order,
  card_number: field('card_number'),
  expiry_date: field('expiry_date'),
  merchant_3ds_url: field('merchant_3ds_url'),
  ...apiOptions,
}));

/** 3DS_ENROLLMENT: is the card enrolled, and where does the customer authenticate. */
export const threeDsEnrollmentRequest = pure(() => z.strictObject(enrollmentShape));
/** 3DS_ENROLLMENT answer: masked card number, threeds_id, 3ds_url, 3ds_enrolled, and MD/PaRes for processors of the second type. */
export const threeDsEnrollmentResponse = pure(() => z.looseObject({
  ...enrollmentShape,
  ...outcome,
  card_number: maskedCardNumber,
  threeds_id: z.optional(field('threeds_id')),
  '3ds_url': z.optional(field('3ds_url')),
  '3ds_enrolled': z.optional(field('3ds_enrolled')),
  MD: z.optional(field('MD')),
  PaRes: z.optional(field('PaRes')),
}));

const authenticationShape = pure(() => ({
  service_command: z.literal('3DS_AUTHENTICATION'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  language: field('language'),
  signature: field('signature'),
  ...apiOptions,
}));

/**
 * 3DS_AUTHENTICATION: passes the processor's parameters back in third_party_body, URL-encoded as
 * the issuer's page posted them, or `MD=…&PaRes=…`.
 */
export const threeDsAuthenticationRequest = pure(() => z.strictObject({
  ...authenticationShape,
  third_party_body: field('third_party_body'),
}));
/** 3DS_AUTHENTICATION answer: 3ds_eci, 3ds_status, 3ds_xid, ver_token, threeds_id, 3ds_enrolled. */
export const threeDsAuthenticationResponse = pure(() => z.looseObject({
  ...authenticationShape,
  ...outcome,
  third_party_body: z.optional(field('third_party_body')),
  threeds_id: z.optional(field('threeds_id')),
  ver_token: z.optional(field('ver_token')),
  '3ds_eci': z.optional(field('3ds_eci')),
  '3ds_status': z.optional(field('3ds_status')),
  '3ds_xid': z.optional(field('3ds_xid')),
  '3ds_enrolled': z.optional(field('3ds_enrolled')),
}));

// ---- Types ----

export type ThreeDsEnrollmentRequest = z.infer<typeof threeDsEnrollmentRequest>;
export type ThreeDsEnrollmentResponse = z.infer<typeof threeDsEnrollmentResponse>;
export type ThreeDsAuthenticationRequest = z.infer<typeof threeDsAuthenticationRequest>;
export type ThreeDsAuthenticationResponse = z.infer<typeof threeDsAuthenticationResponse>;
