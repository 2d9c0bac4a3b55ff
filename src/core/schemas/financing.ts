/** Consumer financing: CUSTOMER_VERIFY, OTP_GENERATE, OTP_VERIFY and the financing PURCHASE. */
import * as z from 'zod/mini';
import { digitsFromRule, field, formatCheck, pure } from './fields.ts';
import { apiOptions, identity, outcome, wireAmount } from './shared.ts';

const financingShape = pure(() => ({
  ...identity,
  merchant_reference: field('merchant_reference'),
  language: field('language'),
  signature: field('signature'),
  payment_option: field('payment_option'),
  phone_number: field('phone_number'),
  ...apiOptions,
}));

const customerVerifyShape = pure(() => ({ service_command: z.literal('CUSTOMER_VERIFY'), ...financingShape }));

/** CUSTOMER_VERIFY: checks the phone number against the financing partner's registration. */
export const customerVerifyRequest = z.strictObject(customerVerifyShape);
/** CUSTOMER_VERIFY answer: the request echoed plus the outcome. */
export const customerVerifyResponse = pure(() => z.looseObject({ ...customerVerifyShape, ...outcome }));

/** One product of a financing order. */
export const financingProductEntry = pure(() => z.strictObject({
  product_name: z.string().check(z.minLength(1)),
  product_price: z.string().check(z.minLength(1)),
  product_category: z.string().check(z.minLength(1)),
}));

const otpGenerateShape = pure(() => ({
  service_command: z.literal('OTP_GENERATE'),
  ...financingShape,
  merchant_order_id: field('merchant_order_id'),
  amount: wireAmount,
  currency: field('currency'),
  products: z.array(financingProductEntry).check(z.minLength(1)),
}));

/** A down payment follows the amount's rule. */
const downPayment = wireAmount;
const otpStatus = z.union([z.string(), z.number()]);

/** OTP_GENERATE: sends the customer an OTP by SMS. */
export const otpGenerateRequest = z.strictObject(otpGenerateShape);
/** OTP_GENERATE answer: adds transaction_id, total_down_payment, otp_status and tenure "3-6-12". */
export const otpGenerateResponse = pure(() => z.looseObject({
  ...otpGenerateShape,
  products: z.array(z.looseObject(financingProductEntry.shape)),
  ...outcome,
  transaction_id: z.optional(field('transaction_id')),
  total_down_payment: z.optional(downPayment),
  otp_status: z.optional(otpStatus),
  tenure: z.optional(z.string().check(z.minLength(1), formatCheck('month_list'))),
}));

const otpVerifyShape = pure(() => ({
  service_command: z.literal('OTP_VERIFY'),
  ...financingShape,
  merchant_order_id: field('merchant_order_id'),
  amount: wireAmount,
  currency: field('currency'),
  // Spelt total_downpayment in OTP_VERIFY, total_down_payment elsewhere (spec, Consumer financing objects).
  total_downpayment: downPayment,
  otp: field('otp'),
}));

/** OTP_VERIFY: checks the OTP the customer typed. */
export const otpVerifyRequest = z.strictObject(otpVerifyShape);

/** One tenure option of OTP_VERIFY: monthly instalment, months and rate, all strings. */
export const tenureOptionEntry = z.looseObject({ EMI: z.string(), TENURE: z.string(), InterestRate: z.string() });

/** OTP_VERIFY answer: adds otp_status and the tenure options `{ TENURE_VM: [...] }`. */
export const otpVerifyResponse = pure(() => z.looseObject({
  ...otpVerifyShape,
  ...outcome,
  otp_status: z.optional(otpStatus),
  tenure: z.optional(z.looseObject({ TENURE_VM: z.array(tenureOptionEntry) })),
}));

const financingPurchaseShape = pure(() => ({
  command: z.literal('PURCHASE'),
  ...financingShape,
  amount: wireAmount,
  currency: field('currency'),
  customer_email: z.optional(field('customer_email')),
  customer_code: field('customer_code'),
  merchant_order_id: field('merchant_order_id'),
  transaction_id: field('transaction_id'),
  otp: field('otp'),
  /** The chosen number of months, one of the OTP_VERIFY options. */
  tenure: digitsFromRule({ charset: 'numeric', maxLength: 3 }),
  total_down_payment: downPayment,
  purchase_description: field('purchase_description'),
  // The spec's answer adds customer_ip; the request may carry it (the PHP SDK sends it with every purchase).
  customer_ip: z.optional(field('customer_ip')),
}));

/** Financing PURCHASE, after OTP verification. */
export const financingPurchaseRequest = z.strictObject(financingPurchaseShape);
/** Financing PURCHASE answer: adds customer_ip (the request's), eci and svc_id. */
export const financingPurchaseResponse = pure(() => z.looseObject({
  ...financingPurchaseShape,
  ...outcome,
  eci: z.optional(field('eci')),
  svc_id: z.optional(field('svc_id')),
}));

// ---- Types ----

export type CustomerVerifyRequest = z.infer<typeof customerVerifyRequest>;
export type CustomerVerifyResponse = z.infer<typeof customerVerifyResponse>;
export type FinancingProductEntry = z.infer<typeof financingProductEntry>;
export type OtpGenerateRequest = z.infer<typeof otpGenerateRequest>;
export type OtpGenerateResponse = z.infer<typeof otpGenerateResponse>;
export type OtpVerifyRequest = z.infer<typeof otpVerifyRequest>;
export type OtpVerifyResponse = z.infer<typeof otpVerifyResponse>;
export type TenureOptionEntry = z.infer<typeof tenureOptionEntry>;
export type FinancingPurchaseRequest = z.infer<typeof financingPurchaseRequest>;
export type FinancingPurchaseResponse = z.infer<typeof financingPurchaseResponse>;
