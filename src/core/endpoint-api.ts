/**
 * The contract between the elements and the merchant endpoint: one schema per route, shared by
 * the browser client (which zod-checks every answer) and the server (which parses every request).
 * No route accepts card data, a phrase or a signature from the browser; the amount and currency
 * always come from the merchant's order, and a request that names different ones is refused.
 *
 * What reaches the browser is only what it uses: the result schemas, plain shapes with the bounds
 * an element relies on, and one {@link EndpointCall} per route (its name and result schema), so an
 * element's bundle holds the answers of its own routes and nothing of the gateway's field rules
 * (the request schemas below use them; the server parses requests, the browser does not re-check
 * the bodies it builds itself).
 */
import * as z from 'zod/mini';
import { field, financingProductEntry, installmentBin, installmentIssuerDetail, installmentPlanDetail } from './schemas/index.ts';

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

// Field rules come from the core's one table (schemas/fields.ts FIELD_RULES); only the shapes are new here.
const language = field('language');
const merchantReference = field('merchant_reference');
/** Integer minor units, as the merchant's order holds them. */
const minorUnits = z.number().check(z.int(), z.nonnegative());
const currency = field('currency');
const email = field('customer_email');
const customerName = field('customer_name');
const planCode = field('plan_code');
const issuerCode = field('issuer_code');

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
  customer_email: z.optional(email),
});

/**
 * The return answers the element inside its frame (a small page that posts the outcome to the
 * element) rather than sending the customer's whole page anywhere: the embedded page and the
 * merchant page posted into a hidden frame.
 */
const framed = z.optional(z.boolean());

export const merchantPageRequest = z.object({
  ...base,
  /** How the token is completed server-side after tokenization. */
  command: z.optional(z.enum(['AUTHORIZATION', 'PURCHASE'])),
  /** A plan chosen in <pg-installments>, completed as a direct installments (YES) operation. */
  plan_code: z.optional(planCode),
  issuer_code: z.optional(issuerCode),
  /**
   * Installments through the merchant page (spec): the gateway's own page offers the plans
   * (installments STANDALONE with the order's amount and currency), and the plan it returns is
   * completed as a direct installments (YES) operation. Not with `plan_code`.
   */
  installments: z.optional(z.literal('STANDALONE')),
  framed,
});

/** Save a card for later: the gateway verifies it and issues a token; nothing is charged. */
export const saveCardRequest = z.object({
  ...base,
  framed,
});

export const installmentPlansRequest = z.object({ ...base });

export const billRequest = z.object({
  ...base,
  customer_name: z.optional(customerName),
  customer_email: z.optional(email),
});

const phoneNumber = z.string().check(z.minLength(6), z.maxLength(20), z.regex(/^\+?\d+$/));

export const financingVerifyCustomerRequest = z.object({
  ...base,
  phone_number: phoneNumber,
});

export const financingProduct = financingProductEntry;

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
  customer_email: z.optional(email),
});

export const statusRequest = z.object({ ...base });

// ---- Results (endpoint → browser) ----
// Plain shapes: the endpoint built and checked these answers, and the gateway's field rules would
// bring their whole machinery into the page.

const text = z.string();
/** An ISO 4217 code as the elements format money with it. */
const currencyCode = z.string().check(z.regex(/^[A-Z]{3}$/));

/** What the browser may know of the order: its identity and what it costs. */
export const orderResult = z.object({
  merchant_reference: text,
  amount: minorUnits,
  currency: currencyCode,
  description: z.optional(text),
});

/** A form post to the gateway: the action URL and every field to send, signed. */
export const formPostResult = z.object({
  action: z.string().check(z.minLength(1)),
  method: z.literal('POST'),
  fields: z.record(text, text),
});

/** The gateway's issuer entries are passed through as the core's plans-response schema reads them. */
export const installmentPlan = installmentPlanDetail;
export const issuerBin = installmentBin;
export const installmentIssuer = installmentIssuerDetail;

export const installmentPlansResult = z.object({
  merchant_reference: text,
  amount: minorUnits,
  currency: currencyCode,
  issuers: z.array(installmentIssuer),
});

export const billResult = z.object({
  merchant_reference: text,
  bill_number: text,
  amount: minorUnits,
  currency: z.literal('EGP'),
  payment_partner: text,
  request_expiry_date: text,
});

export const financingVerifyCustomerResult = z.object({ flow: text });

export const financingOtpResult = z.object({
  flow: text,
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
  interest_rate: text,
});

export const financingVerifyOtpResult = z.object({
  flow: text,
  down_payment: minorUnits,
  tenures: z.array(tenureOption),
});

/** A verified payment outcome, safe to show: no card data beyond the masked number. */
export const paymentResult = z.object({
  merchant_reference: text,
  outcome: z.enum(['success', 'pending', 'failure']),
  response_code: text,
  response_message: text,
  status: text,
  svc_id: z.optional(text),
  amount: z.optional(minorUnits),
  currency: z.optional(currencyCode),
});

export const statusResult = z.object({
  merchant_reference: text,
  transaction_status: z.optional(text),
  transaction_code: z.optional(text),
  transaction_message: z.optional(text),
  authorized_amount: z.optional(minorUnits),
  captured_amount: z.optional(minorUnits),
  refunded_amount: z.optional(minorUnits),
});

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
export const orderCall = endpointCall<'order', z.input<typeof orderRequest>, OrderResult>('order', orderResult);
export const hostedPageCall = endpointCall<'hostedPage', z.input<typeof hostedPageRequest>, FormPostResult>('hostedPage', formPostResult);
export const merchantPageCall = endpointCall<'merchantPage', z.input<typeof merchantPageRequest>, FormPostResult>('merchantPage', formPostResult);
export const saveCardCall = endpointCall<'saveCard', z.input<typeof saveCardRequest>, FormPostResult>('saveCard', formPostResult);
export const installmentPlansCall = endpointCall<'installmentPlans', z.input<typeof installmentPlansRequest>, InstallmentPlansResult>(
  'installmentPlans',
  installmentPlansResult,
);
export const billCall = endpointCall<'bill', z.input<typeof billRequest>, BillResult>('bill', billResult);
export const financingVerifyCustomerCall = endpointCall<
  'financingVerifyCustomer',
  z.input<typeof financingVerifyCustomerRequest>,
  FinancingVerifyCustomerResult
>('financingVerifyCustomer', financingVerifyCustomerResult);
export const financingOtpCall = endpointCall<'financingOtp', z.input<typeof financingOtpRequest>, FinancingOtpResult>(
  'financingOtp',
  financingOtpResult,
);
export const financingVerifyOtpCall = endpointCall<'financingVerifyOtp', z.input<typeof financingVerifyOtpRequest>, FinancingVerifyOtpResult>(
  'financingVerifyOtp',
  financingVerifyOtpResult,
);
export const financingPurchaseCall = endpointCall<'financingPurchase', z.input<typeof financingPurchaseRequest>, PaymentResult>(
  'financingPurchase',
  paymentResult,
);
export const statusCall = endpointCall<'status', z.input<typeof statusRequest>, StatusResult>('status', statusResult);

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
export const framedResultMessage = z.object({
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
});

/** The completion needs 3-D Secure: the element opens `url` in its dialog. */
export const framedThreeDsMessage = z.object({
  type: z.literal(FRAMED_MESSAGE_TYPES.threeDs),
  merchant_reference: text,
  url: z.string().check(z.regex(/^https?:\/\//)),
});

/** A framed page's content height in CSS pixels (the sandbox's pages send it; the live gateway's may not). */
export const framedHeightMessage = z.object({
  type: z.literal(FRAMED_MESSAGE_TYPES.height),
  height: z.number().check(z.nonnegative()),
});

export const framedMessage = z.union([framedResultMessage, framedThreeDsMessage, framedHeightMessage]);

/** Every refusal: a 4xx with a stable code, the field when one is at fault, and a localized message. */
export const endpointError = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
    /** The gateway's five-digit response_code when the gateway refused (`gateway_refused`). */
    response_code: z.optional(z.string()),
  }),
});

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

export type OrderRequest = z.infer<typeof orderRequest>;
export type HostedPageRequest = z.infer<typeof hostedPageRequest>;
export type MerchantPageRequest = z.infer<typeof merchantPageRequest>;
export type SaveCardRequest = z.infer<typeof saveCardRequest>;
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
export type FramedResultMessage = z.infer<typeof framedResultMessage>;
export type FramedThreeDsMessage = z.infer<typeof framedThreeDsMessage>;
export type FramedHeightMessage = z.infer<typeof framedHeightMessage>;
export type FramedMessage = z.infer<typeof framedMessage>;

/** Fields no element request may carry: card data goes from the browser to the gateway only. */
export const CARD_FIELDS: readonly string[] = ['card_number', 'card_security_code', 'expiry_date'];
