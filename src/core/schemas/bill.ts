/** The cash bill (voucher): BILL_PRESENTMENT. */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { apiOptions, order, outcome } from './shared.ts';

const billShape = pure(() => ({
  service_command: z.literal('BILL_PRESENTMENT'),
  ...order,
  // Voucher payments are in EGP only (spec, What the service does, 5).
  currency: z.literal('EGP'),
  request_expiry_date: field('request_expiry_date'),
  payment_partner: field('payment_partner'),
  customer_name: z.optional(field('customer_name')),
  customer_email: z.optional(field('customer_email')),
  ...apiOptions,
}));

/** BILL_PRESENTMENT: asks the gateway for a bill number the customer pays at the partner. */
export const billPresentmentRequest = z.strictObject(billShape);
/** BILL_PRESENTMENT answer: the request echoed plus bill_number (absent on failure). */
export const billPresentmentResponse = pure(() => z.looseObject({
  ...billShape,
  ...outcome,
  bill_number: z.optional(field('bill_number')),
}));

// ---- Types ----

export type BillPresentmentRequest = z.infer<typeof billPresentmentRequest>;
export type BillPresentmentResponse = z.infer<typeof billPresentmentResponse>;
