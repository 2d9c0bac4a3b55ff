/** Capture, refund and void authorization on an order (paymentApi). */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { apiOptions, identity, merchantExtras, order, outcome, requiredWithout } from './shared.ts';

// merchant_reference names the order; svc_id is optional (the official SDKs send only the
// reference), and when both are sent they must name the same order.
const maintenanceShape = pure(() => ({
  ...order,
  svc_id: z.optional(field('svc_id')),
  order_description: z.optional(field('order_description')),
  maintenance_reference: z.optional(field('maintenance_reference')),
  ...merchantExtras,
  ...apiOptions,
}));

/** CAPTURE of an authorized order, partial or full. */
export const captureRequest = pure(() => z.strictObject({ command: z.literal('CAPTURE'), ...maintenanceShape }));
/** REFUND of a captured order, partial or full. */
export const refundRequest = pure(() => z.strictObject({ command: z.literal('REFUND'), ...maintenanceShape }));

/** Capture answer: the request echoed plus the outcome (accepted: 20064, status 04; live accounts 04000, status 04). */
export const captureResponse = pure(() => z.looseObject({ command: z.literal('CAPTURE'), ...maintenanceShape, ...outcome }));
/** Refund answer: the request echoed plus the outcome (accepted: 20064, status 04; live accounts 06000, status 06). */
export const refundResponse = pure(() => z.looseObject({ command: z.literal('REFUND'), ...maintenanceShape, ...outcome }));

// The spec names void authorization but not its command or parameters ("Open points"); this
// project uses command VOID_AUTHORIZATION with the identification of CHECK_STATUS: the whole
// authorization is voided, so there is no amount.
const voidShape = pure(() => ({
  command: z.literal('VOID_AUTHORIZATION'),
  ...identity,
  merchant_reference: z.optional(field('merchant_reference')),
  svc_id: z.optional(field('svc_id')),
  language: field('language'),
  signature: field('signature'),
  order_description: z.optional(field('order_description')),
  ...merchantExtras,
  ...apiOptions,
}));

/** Void of an authorization (command name is this project's decision), by merchant_reference and/or svc_id. */
export const voidAuthorizationRequest = pure(() => z.strictObject(voidShape).check(requiredWithout(['merchant_reference'], 'svc_id')));
/** Void answer: the request echoed plus the outcome. */
export const voidAuthorizationResponse = pure(() => z.looseObject({ ...voidShape, ...outcome }));

// ---- Types ----

export type CaptureRequest = z.infer<typeof captureRequest>;
export type CaptureResponse = z.infer<typeof captureResponse>;
export type RefundRequest = z.infer<typeof refundRequest>;
export type RefundResponse = z.infer<typeof refundResponse>;
export type VoidAuthorizationRequest = z.infer<typeof voidAuthorizationRequest>;
export type VoidAuthorizationResponse = z.infer<typeof voidAuthorizationResponse>;
