/**
 * The contract between the elements and the merchant endpoint: one schema per route, shared by
 * the browser client (which zod-checks every answer) and the server (which parses every request).
 * No route accepts card data, a phrase or a signature from the browser; the amount and currency
 * always come from the merchant's order, and a request that names different ones is refused.
 */
import * as z from 'zod/mini';

/** Route paths, relative to the endpoint URL the element is given. */
export const ROUTES = {
  order: '/order',
  hostedPage: '/hosted-page',
  merchantPage: '/merchant-page',
  installmentPlans: '/installment-plans',
  bill: '/bill',
  financingVerifyCustomer: '/financing/verify-customer',
  financingOtp: '/financing/otp',
  financingVerifyOtp: '/financing/verify-otp',
  financingPurchase: '/financing/purchase',
  status: '/status',
  /** The gateway's return URL (form post or query string); not called by the elements. */
  gatewayReturn: '/return',
} as const;

export type RouteName = keyof typeof ROUTES;

const language = z.enum(['en', 'ar']);
const merchantReference = z.string().check(z.minLength(1), z.maxLength(40), z.regex(/^[A-Za-z0-9\-_.]+$/));
/** Integer minor units, as the merchant's order holds them. */
const minorUnits = z.number().check(z.int(), z.nonnegative());
const currency = z.string().check(z.regex(/^[A-Z]{3}$/));

/** Fields every element request carries. `amount`/`currency`, when sent, must match the order. */
const base = {
  merchant_reference: merchantReference,
  language,
  amount: z.optional(minorUnits),
  currency: z.optional(currency),
};

// ---- Requests (browser → endpoint) ----

export const orderRequest = z.object({ ...base });

export const hostedPageRequest = z.object({
  ...base,
  command: z.enum(['AUTHORIZATION', 'PURCHASE']),
  /** Let the hosted page offer installments (installments STANDALONE). */
  installments: z.optional(z.literal('STANDALONE')),
  customer_email: z.optional(z.string().check(z.maxLength(254))),
});

export const merchantPageRequest = z.object({
  ...base,
  /** How the token is completed server-side after tokenization. */
  command: z.optional(z.enum(['AUTHORIZATION', 'PURCHASE'])),
  /** A plan chosen in <pg-installments>, completed as a direct installments (YES) operation. */
  plan_code: z.optional(z.string().check(z.regex(/^[A-Za-z0-9]{1,8}$/))),
  issuer_code: z.optional(z.string().check(z.regex(/^[A-Za-z0-9]{1,8}$/))),
});

export const installmentPlansRequest = z.object({ ...base });

export const billRequest = z.object({
  ...base,
  customer_name: z.optional(z.string().check(z.maxLength(50))),
  customer_email: z.optional(z.string().check(z.maxLength(254))),
});

const phoneNumber = z.string().check(z.minLength(6), z.maxLength(20), z.regex(/^\+?\d+$/));

export const financingVerifyCustomerRequest = z.object({
  ...base,
  phone_number: phoneNumber,
});

export const financingProduct = z.object({
  product_name: z.string().check(z.minLength(1), z.maxLength(100)),
  product_price: z.string().check(z.regex(/^\d+(\.\d+)?$/)),
  product_category: z.string().check(z.minLength(1), z.maxLength(50)),
});

export const financingOtpRequest = z.object({
  ...base,
  /** The flow token from verify-customer: ties every step to the order and phone. */
  flow: z.string().check(z.minLength(1)),
  /** Used only when the merchant's order does not list its own products. */
  products: z.optional(z.array(financingProduct)),
});

export const financingVerifyOtpRequest = z.object({
  ...base,
  flow: z.string().check(z.minLength(1)),
  otp: z.string().check(z.regex(/^\d{4,8}$/)),
});

export const financingPurchaseRequest = z.object({
  ...base,
  flow: z.string().check(z.minLength(1)),
  tenure: z.number().check(z.int(), z.positive()),
  customer_email: z.optional(z.string().check(z.maxLength(254))),
});

export const statusRequest = z.object({ ...base });

// ---- Results (endpoint → browser) ----

/** What the browser may know of the order: its identity and what it costs. */
export const orderResult = z.object({
  merchant_reference: merchantReference,
  amount: minorUnits,
  currency,
  description: z.optional(z.string()),
});

/** A form post to the gateway: the action URL and every field to send, signed. */
export const formPostResult = z.object({
  action: z.string().check(z.minLength(1)),
  method: z.literal('POST'),
  fields: z.record(z.string(), z.string()),
});

const nullableText = z.nullish(z.string());

export const issuerBin = z.object({
  bin: z.string(),
  country_code: z.optional(z.string()),
  currency_code: z.optional(z.string()),
  card_brand_code: z.optional(z.string()),
});

export const installmentPlan = z.object({
  plan_code: z.string(),
  currency_code: z.string(),
  number_of_installment: z.number(),
  fees_type: z.string(),
  fees_amount: z.number(),
  processing_fees_type: nullableText,
  processing_fees_amount: z.nullish(z.number()),
  rate_type: z.string(),
  plan_merchant_type: z.optional(z.string()),
  plan_type: z.optional(z.string()),
  fee_display_value: z.optional(z.union([z.string(), z.number()])),
  minimum_amount: z.number(),
  maximum_amount: z.number(),
  amountPerMonth: nullableText,
});

export const installmentIssuer = z.object({
  issuer_code: z.string(),
  issuer_name_ar: z.string(),
  issuer_name_en: z.string(),
  terms_and_condition_ar: nullableText,
  terms_and_condition_en: nullableText,
  country_code: z.optional(z.string()),
  issuer_logo_ar: nullableText,
  issuer_logo_en: nullableText,
  banking_system: z.string(),
  formula: nullableText,
  plan_details: z.array(installmentPlan),
  bins: z.array(issuerBin),
  confirmation_message_ar: nullableText,
  confirmation_message_en: nullableText,
  disclaimer_message_ar: nullableText,
  disclaimer_message_en: nullableText,
  processing_fees_message_ar: nullableText,
  processing_fees_message_en: nullableText,
});

export const installmentPlansResult = z.object({
  merchant_reference: merchantReference,
  amount: minorUnits,
  currency,
  issuers: z.array(installmentIssuer),
});

export const billResult = z.object({
  merchant_reference: merchantReference,
  bill_number: z.string().check(z.regex(/^\d{1,14}$/)),
  amount: minorUnits,
  currency: z.literal('EGP'),
  payment_partner: z.string(),
  request_expiry_date: z.string(),
});

export const financingVerifyCustomerResult = z.object({ flow: z.string() });

export const financingOtpResult = z.object({
  flow: z.string(),
  /** Down payment in minor units of the order currency. */
  down_payment: minorUnits,
  /** Tenure options in months, from the hyphen-joined `tenure` string. */
  tenure_months: z.array(z.number()),
});

export const tenureOption = z.object({
  months: z.number(),
  /** Monthly instalment (EMI) in minor units. */
  emi: minorUnits,
  /** Interest rate as the partner states it, e.g. "2.5". */
  interest_rate: z.string(),
});

export const financingVerifyOtpResult = z.object({
  flow: z.string(),
  down_payment: minorUnits,
  tenures: z.array(tenureOption),
});

/** A verified payment outcome, safe to show: no card data beyond the masked number. */
export const paymentResult = z.object({
  merchant_reference: merchantReference,
  outcome: z.enum(['success', 'pending', 'failure']),
  response_code: z.string(),
  response_message: z.string(),
  status: z.string(),
  svc_id: z.optional(z.string()),
  amount: z.optional(minorUnits),
  currency: z.optional(currency),
});

export const statusResult = z.object({
  merchant_reference: merchantReference,
  transaction_status: z.optional(z.string()),
  transaction_code: z.optional(z.string()),
  transaction_message: z.optional(z.string()),
  authorized_amount: z.optional(minorUnits),
  captured_amount: z.optional(minorUnits),
  refunded_amount: z.optional(minorUnits),
});

/** Every refusal: a 4xx with a stable code, the field when one is at fault, and a localized message. */
export const endpointError = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
  }),
});

/** Stable error codes of the endpoint, documented in docs/endpoint.md. */
export type EndpointErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'body_too_large'
  | 'unknown_order'
  | 'amount_mismatch'
  | 'currency_mismatch'
  | 'card_data_refused'
  | 'command_refused'
  | 'origin_refused'
  | 'not_found'
  | 'method_not_allowed'
  | 'currency_not_supported'
  | 'flow_invalid'
  | 'step_out_of_order'
  | 'gateway_unreachable'
  | 'gateway_signature_invalid'
  | 'gateway_refused';

export type OrderRequest = z.infer<typeof orderRequest>;
export type HostedPageRequest = z.infer<typeof hostedPageRequest>;
export type MerchantPageRequest = z.infer<typeof merchantPageRequest>;
export type InstallmentPlansRequest = z.infer<typeof installmentPlansRequest>;
export type BillRequest = z.infer<typeof billRequest>;
export type FinancingVerifyCustomerRequest = z.infer<typeof financingVerifyCustomerRequest>;
export type FinancingOtpRequest = z.infer<typeof financingOtpRequest>;
export type FinancingVerifyOtpRequest = z.infer<typeof financingVerifyOtpRequest>;
export type FinancingPurchaseRequest = z.infer<typeof financingPurchaseRequest>;
export type StatusRequest = z.infer<typeof statusRequest>;
export type OrderResult = z.infer<typeof orderResult>;
export type FormPostResult = z.infer<typeof formPostResult>;
export type InstallmentPlansResult = z.infer<typeof installmentPlansResult>;
export type BillResult = z.infer<typeof billResult>;
export type FinancingVerifyCustomerResult = z.infer<typeof financingVerifyCustomerResult>;
export type FinancingOtpResult = z.infer<typeof financingOtpResult>;
export type FinancingVerifyOtpResult = z.infer<typeof financingVerifyOtpResult>;
export type TenureOption = z.infer<typeof tenureOption>;
export type PaymentResult = z.infer<typeof paymentResult>;
export type StatusResult = z.infer<typeof statusResult>;
export type EndpointError = z.infer<typeof endpointError>;
export type FinancingProduct = z.infer<typeof financingProduct>;

/** Fields no element request may carry: card data goes from the browser to the gateway only. */
export const CARD_FIELDS: readonly string[] = ['card_number', 'card_security_code', 'expiry_date'];
