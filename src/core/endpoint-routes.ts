/**
 * The endpoint's routes as the browser calls them, without a schema: the route paths, one
 * {@link EndpointCall} per route (its name and the name of its result schema), the framed pages'
 * message types and the endpoint's error codes. A page loads this at once; the schemas its answers
 * are checked against (endpoint-results.ts, core shapes) load when the first request starts, in
 * parallel with it, so that the code a customer downloads before paying holds no validator.
 */
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
import type {
  BillResult,
  FinancingOtpResult,
  FinancingVerifyCustomerResult,
  FinancingVerifyOtpResult,
  FormPostResult,
  InstallmentPlansResult,
  OrderResult,
  PaymentResult,
  ResultOf,
  ResultSchemaName,
  StatusResult,
} from './endpoint-results.ts';

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

/**
 * The embedded page's second step, beside `ROUTES.gatewayReturn`: when the element's Pay button
 * asks, the ready page in its frame posts the endpoint's sealed card here, and only then is the
 * order charged. Not a JSON route, and never called by the elements' own code.
 */
export const EMBEDDED_CONFIRM_ROUTE = '/embedded/confirm';

export type RouteName = keyof typeof ROUTES;

/**
 * The request header carrying the element's `order-token`: an opaque value the shop rendered into
 * its page for this order and customer, which a standalone endpoint passes on to the shop's order
 * lookup so the shop can tell its customer's requests from anyone else's (docs/standalone.md).
 */
export const ORDER_TOKEN_HEADER = 'pg-order-token';

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
  /** The schema of the answer, by its name in endpoint-results.ts (which loads when a request starts). */
  readonly result: ResultSchemaName;
  /** Never set; carries the result's type. */
  readonly resultType?: Result;
  /** Never set; carries the body's type. */
  readonly body?: Body;
}

/** The name of the result schema whose output is exactly `Result` (a wrong name fails type-checking). */
type SchemaOf<Result> = {
  [Name in ResultSchemaName]: [ResultOf<Name>] extends [Result] ? ([Result] extends [ResultOf<Name>] ? Name : never) : never;
}[ResultSchemaName];

/** The result schema's name, left out when it is the route's name and `Result` (a wrong name fails type-checking). */
type ResultName<Name extends ClientRouteName, Result> = `${Name}Result` extends SchemaOf<Result> ? [] : [result: SchemaOf<Result>];

/* @__NO_SIDE_EFFECTS__ */
function endpointCall<Name extends ClientRouteName, Body, Result>(
  name: Name,
  ...result: ResultName<Name, Result>
): EndpointCall<Name, Body, Result> {
  return { name, result: result[0] ?? (`${name}Result` as ResultSchemaName) };
}

// One constant per route, so that a bundle holds the result schemas of the routes its elements call.
export const orderCall = endpointCall<'order', OrderRequestBody, OrderResult>('order');
export const hostedPageCall = endpointCall<'hostedPage', HostedPageRequestBody, FormPostResult>('hostedPage', 'formPostResult');
export const merchantPageCall = endpointCall<'merchantPage', MerchantPageRequestBody, FormPostResult>('merchantPage', 'formPostResult');
export const saveCardCall = endpointCall<'saveCard', SaveCardRequestBody, FormPostResult>('saveCard', 'formPostResult');
export const installmentPlansCall = endpointCall<'installmentPlans', InstallmentPlansRequestBody, InstallmentPlansResult>(
  'installmentPlans',
);
export const billCall = endpointCall<'bill', BillRequestBody, BillResult>('bill');
export const financingVerifyCustomerCall = endpointCall<
  'financingVerifyCustomer',
  FinancingVerifyCustomerRequestBody,
  FinancingVerifyCustomerResult
>('financingVerifyCustomer');
export const financingOtpCall = endpointCall<'financingOtp', FinancingOtpRequestBody, FinancingOtpResult>('financingOtp');
export const financingVerifyOtpCall = endpointCall<'financingVerifyOtp', FinancingVerifyOtpRequestBody, FinancingVerifyOtpResult>(
  'financingVerifyOtp',
);
export const financingPurchaseCall = endpointCall<'financingPurchase', FinancingPurchaseRequestBody, PaymentResult>(
  'financingPurchase',
  'paymentResult',
);
export const statusCall = endpointCall<'status', StatusRequestBody, StatusResult>('status');

/** `type` of every message a framed page posts to the element. */
export const FRAMED_MESSAGE_TYPES = {
  result: 'pg-checkout:result',
  threeDs: 'pg-checkout:3ds',
  height: 'pg-checkout:height',
  /** The embedded page took the card and nothing is charged yet: the element shows its Pay button. */
  ready: 'pg-checkout:ready',
  /** The element to the ready page in its frame (the other way): the customer pressed Pay. */
  confirm: 'pg-checkout:confirm',
} as const;

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
  | 'otp_attempts_limited'
  | 'card_attempts_limited'
  | 'gateway_unreachable'
  | 'gateway_signature_invalid'
  | 'gateway_answer_invalid'
  | 'gateway_refused'
  | 'order_lookup_failed'
  | 'hook_signature_invalid'
  | 'unknown_result'
  | 'card_not_saved'
  | 'card_not_ready'
  | 'store_unavailable'
  | 'internal_error';

