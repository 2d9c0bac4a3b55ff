/**
 * The half of the endpoint contract (endpoint-api.ts) that the browser uses: the routes, the
 * schemas of the endpoint's answers and of its framed pages' messages, and one
 * {@link EndpointCall} per route (its name and result schema). Plain shapes with the bounds an
 * element relies on: the endpoint built and checked these answers, and the gateway's field rules
 * would bring their whole machinery into the page. The request schemas stay in endpoint-api.ts,
 * which the server parses every request with; the browser does not check again the bodies it
 * builds itself, and imports their types only.
 */
import * as z from 'zod/mini';
import { installmentBin, installmentIssuerDetail, installmentPlanDetail } from './schemas/installment-shapes.ts';
import { pure } from './schemas/pure.ts';
import type {
  BillRequestBody,
  FinancingOtpRequestBody,
  FinancingPurchaseRequestBody,
  FinancingVerifyCustomerRequestBody,
  FinancingVerifyOtpRequestBody,
  HostedPageRequestBody,
  InstallmentPlansRequestBody,
  MerchantPageRequestBody,
  OrderRequestBody,
  SaveCardRequestBody,
  StatusRequestBody,
} from './endpoint-api.ts';

/** Route paths, relative to the endpoint URL the element is given. */
export const ROUTES = {
  order: '/order',
  hostedPage: '/hosted-page',
  merchantPage: '/merchant-page',
  /** Save a card without paying: a signed TOKENIZATION with the customer's consent (remember_me YES). */
  saveCard: '/save-card',
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

/**
 * The request header carrying the element's `order-token`: an opaque value the shop rendered into
 * its page for this order and customer, which a standalone endpoint passes on to the shop's order
 * lookup so the shop can tell its customer's requests from anyone else's (docs/standalone.md).
 */
export const ORDER_TOKEN_HEADER = 'pg-order-token';

/** Integer minor units, as the merchant's order holds them. */
export const minorUnits = pure(() => z.number().check(z.int(), z.nonnegative()));

// ---- Results (endpoint → browser) ----

const text = z.string();
/** An ISO 4217 code as the elements format money with it. */
const currencyCode = pure(() => z.string().check(z.regex(/^[A-Z]{3}$/)));

/** What the browser may know of the order: its identity and what it costs. */
export const orderResult = pure(() => z.object({
  merchant_reference: text,
  amount: minorUnits,
  currency: currencyCode,
  description: z.optional(text),
}));

/** A form post to the gateway: the action URL and every field to send, signed. */
export const formPostResult = pure(() => z.object({
  action: z.string().check(z.minLength(1)),
  method: z.literal('POST'),
  fields: z.record(text, text),
}));

/** The gateway's issuer entries are passed through as the core's plans-response schema reads them. */
export const installmentPlan = installmentPlanDetail;
export const issuerBin = installmentBin;
export const installmentIssuer = installmentIssuerDetail;

export const installmentPlansResult = pure(() => z.object({
  merchant_reference: text,
  amount: minorUnits,
  currency: currencyCode,
  issuers: z.array(installmentIssuer),
}));

export const billResult = pure(() => z.object({
  merchant_reference: text,
  bill_number: text,
  amount: minorUnits,
  currency: z.literal('EGP'),
  payment_partner: text,
  request_expiry_date: text,
}));

export const financingVerifyCustomerResult = pure(() => z.object({ flow: text }));

export const financingOtpResult = pure(() => z.object({
  flow: text,
  /** Down payment in minor units of the order currency. */
  down_payment: minorUnits,
  /** Tenure options in months, from the hyphen-joined `tenure` string. */
  tenure_months: z.array(z.number()),
}));

export const tenureOption = pure(() => z.object({
  months: z.number(),
  /** Monthly instalment (EMI) in minor units. */
  emi: minorUnits,
  /** Interest rate as the partner states it, e.g. "2.5". */
  interest_rate: text,
}));

export const financingVerifyOtpResult = pure(() => z.object({
  flow: text,
  down_payment: minorUnits,
  tenures: z.array(tenureOption),
}));

/** A verified payment outcome, safe to show: no card data beyond the masked number. */
export const paymentResult = pure(() => z.object({
  merchant_reference: text,
  outcome: z.enum(['success', 'pending', 'failure']),
  response_code: text,
  response_message: text,
  status: text,
  svc_id: z.optional(text),
  amount: z.optional(minorUnits),
  currency: z.optional(currencyCode),
}));

export const statusResult = pure(() => z.object({
  merchant_reference: text,
  transaction_status: z.optional(text),
  transaction_code: z.optional(text),
  transaction_message: z.optional(text),
  authorized_amount: z.optional(minorUnits),
  captured_amount: z.optional(minorUnits),
  refunded_amount: z.optional(minorUnits),
}));

// ---- The routes as the browser calls them ----

/** A route the elements call: every route but the gateway's return address. */
export type ClientRouteName = Exclude<RouteName, 'gatewayReturn'>;

/**
 * One route as an element calls it: its name (what the request events carry) and the schema its
 * answer must pass. `Body` is the type of the body the element sends, type only: the endpoint
 * parses every request with the request schema above, and the browser does not check again the
 * bodies it builds itself.
 */
export interface EndpointCall<Name extends ClientRouteName = ClientRouteName, Body = unknown, Result = unknown> {
  readonly name: Name;
  readonly result: z.ZodMiniType<Result>;
  /** Never set; carries the body's type. */
  readonly body?: Body;
}

/* @__NO_SIDE_EFFECTS__ */
function endpointCall<Name extends ClientRouteName, Body, Result>(name: Name, result: z.ZodMiniType<Result>): EndpointCall<Name, Body, Result> {
  return { name, result };
}

// One constant per route, so that a bundle holds the result schemas of the routes its elements call.
export const orderCall = endpointCall<'order', OrderRequestBody, OrderResult>('order', orderResult);
export const hostedPageCall = endpointCall<'hostedPage', HostedPageRequestBody, FormPostResult>('hostedPage', formPostResult);
export const merchantPageCall = endpointCall<'merchantPage', MerchantPageRequestBody, FormPostResult>('merchantPage', formPostResult);
export const saveCardCall = endpointCall<'saveCard', SaveCardRequestBody, FormPostResult>('saveCard', formPostResult);
export const installmentPlansCall = endpointCall<'installmentPlans', InstallmentPlansRequestBody, InstallmentPlansResult>(
  'installmentPlans',
  installmentPlansResult,
);
export const billCall = endpointCall<'bill', BillRequestBody, BillResult>('bill', billResult);
export const financingVerifyCustomerCall = endpointCall<
  'financingVerifyCustomer',
  FinancingVerifyCustomerRequestBody,
  FinancingVerifyCustomerResult
>('financingVerifyCustomer', financingVerifyCustomerResult);
export const financingOtpCall = endpointCall<'financingOtp', FinancingOtpRequestBody, FinancingOtpResult>(
  'financingOtp',
  financingOtpResult,
);
export const financingVerifyOtpCall = endpointCall<'financingVerifyOtp', FinancingVerifyOtpRequestBody, FinancingVerifyOtpResult>(
  'financingVerifyOtp',
  financingVerifyOtpResult,
);
export const financingPurchaseCall = endpointCall<'financingPurchase', FinancingPurchaseRequestBody, PaymentResult>(
  'financingPurchase',
  paymentResult,
);
export const statusCall = endpointCall<'status', StatusRequestBody, StatusResult>('status', statusResult);

// ---- Messages of the endpoint's framed pages (endpoint page in a frame → element) ----

/** `type` of every message a framed page posts to the element. */
export const FRAMED_MESSAGE_TYPES = {
  result: 'pg-checkout:result',
  threeDs: 'pg-checkout:3ds',
  height: 'pg-checkout:height',
} as const;

/**
 * A verified, confirmed outcome, as the endpoint's framed return page tells the element. Never a
 * card number, token, signature or any field of the gateway's answer beyond these.
 */
export const framedResultMessage = pure(() => z.object({
  type: z.literal(FRAMED_MESSAGE_TYPES.result),
  /** `pay`, or `save-card` for a card saved without a payment. */
  intent: z.enum(['pay', 'save-card']),
  /** Absent when the return could not even name its order (an unverifiable answer). */
  merchant_reference: z.optional(text),
  outcome: z.enum(['success', 'pending', 'failure']),
  /** The order's state at the gateway (core `OrderState`). */
  order_state: z.optional(z.string()),
  /** The gateway's message or the endpoint's reason, in the request's language. */
  message: z.string(),
  response_code: z.optional(z.string()),
  /** The endpoint's reason when it overruled the gateway or could not confirm (an `EndpointErrorCode`). */
  error: z.optional(z.string()),
  /** The plan of an installments payment. */
  installments: z.optional(
    z.object({ number_of_installments: z.number(), plan_code: z.optional(text), issuer_code: z.optional(text) }),
  ),
  /** The saved card as a customer recognizes it: brand and last four digits. */
  card: z.optional(z.object({ brand: z.optional(z.string()), last_four: z.optional(z.string().check(z.regex(/^\d{4}$/))) })),
  /** The merchant's result page for this order (`resultUrl` with its query). */
  result_url: z.optional(z.string()),
}));

/** The completion needs 3-D Secure: the element opens `url` in its dialog. */
export const framedThreeDsMessage = pure(() => z.object({
  type: z.literal(FRAMED_MESSAGE_TYPES.threeDs),
  merchant_reference: text,
  url: z.string().check(z.regex(/^https?:\/\//)),
}));

/** A framed page's content height in CSS pixels (the sandbox's pages send it; the live gateway's may not). */
export const framedHeightMessage = pure(() => z.object({
  type: z.literal(FRAMED_MESSAGE_TYPES.height),
  height: z.number().check(z.nonnegative()),
}));

export const framedMessage = pure(() => z.union([framedResultMessage, framedThreeDsMessage, framedHeightMessage]));

/** Every refusal: a 4xx with a stable code, the field when one is at fault, and a localized message. */
export const endpointError = pure(() => z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
    /** The gateway's five-digit response_code when the gateway refused (`gateway_refused`). */
    response_code: z.optional(z.string()),
  }),
}));

/** Stable error codes of the endpoint, documented in docs/endpoint.md. */
export type EndpointErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'json_too_deep'
  | 'unsupported_media_type'
  | 'body_too_large'
  | 'unknown_order'
  | 'amount_mismatch'
  | 'currency_mismatch'
  | 'order_already_paid'
  | 'order_in_progress'
  | 'card_data_refused'
  | 'command_refused'
  | 'origin_refused'
  | 'not_found'
  | 'method_not_allowed'
  | 'currency_not_supported'
  | 'service_not_configured'
  | 'flow_invalid'
  | 'step_out_of_order'
  | 'otp_resend_limited'
  | 'gateway_unreachable'
  | 'gateway_signature_invalid'
  | 'gateway_answer_invalid'
  | 'gateway_refused'
  | 'order_lookup_failed'
  | 'hook_signature_invalid'
  | 'unknown_result'
  | 'card_not_saved'
  | 'internal_error';

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
export type FramedResultMessage = z.infer<typeof framedResultMessage>;
export type FramedThreeDsMessage = z.infer<typeof framedThreeDsMessage>;
export type FramedHeightMessage = z.infer<typeof framedHeightMessage>;
export type FramedMessage = z.infer<typeof framedMessage>;
