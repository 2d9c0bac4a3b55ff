/**
 * The half of the endpoint contract (endpoint-api.ts) that the browser uses: the routes, the
 * schemas of the endpoint's answers and of its framed pages' messages, and one
 * {@link EndpointCall} per route (its name and result schema). Plain shapes with the bounds an
 * element relies on: the endpoint built and checked these answers, and the gateway's field rules
 * would bring their whole machinery into the page. The request schemas stay in endpoint-api.ts,
 * which the server parses every request with; the browser does not check again the bodies it
 * builds itself, and imports their types only.
 */
import { is, literal, object, optional, read, string, type Infer, type Shape } from './shape.ts';
import { array, number, record, union } from './shape-lists.ts';
import { installmentBin, installmentIssuerDetail, installmentPlanDetail } from './schemas/installment-shapes.ts';
import { FRAMED_MESSAGE_TYPES, type ClientRouteName, type EndpointCall } from './endpoint-routes.ts';
import { currencyCode, minorUnits, orderResult, text } from './order-answer.ts';

export * from './endpoint-routes.ts';
export { minorUnits, orderResult };

// ---- Results (endpoint → browser) ----

/** A form post to the gateway: the action URL and every field to send, signed. */
export const formPostResult = object({
  action: is(string, (s) => s.length > 0),
  method: literal('POST'),
  fields: record(text),
});

/** The gateway's issuer entries are passed through as the core's plans-response schema reads them. */
export const installmentPlan = installmentPlanDetail;
export const issuerBin = installmentBin;
export const installmentIssuer = installmentIssuerDetail;

export const installmentPlansResult = object({
  merchant_reference: text,
  amount: minorUnits,
  currency: currencyCode,
  issuers: array(installmentIssuer),
});

export const billResult = object({
  merchant_reference: text,
  bill_number: text,
  amount: minorUnits,
  currency: literal('EGP'),
  payment_partner: text,
  request_expiry_date: text,
});

export const financingVerifyCustomerResult = object({ flow: text });

export const financingOtpResult = object({
  flow: text,
  /** Down payment in minor units of the order currency. */
  down_payment: minorUnits,
  /** Tenure options in months, from the hyphen-joined `tenure` string. */
  tenure_months: array(number),
});

export const tenureOption = object({
  months: number,
  /** Monthly instalment (EMI) in minor units. */
  emi: minorUnits,
  /** Interest rate as the partner states it, e.g. "2.5". */
  interest_rate: text,
});

export const financingVerifyOtpResult = object({
  flow: text,
  down_payment: minorUnits,
  tenures: array(tenureOption),
});

/** A verified payment outcome, safe to show: no card data beyond the masked number. */
export const paymentResult = object({
  merchant_reference: text,
  outcome: literal('success', 'pending', 'failure'),
  response_code: text,
  response_message: text,
  status: text,
  svc_id: optional(text),
  amount: optional(minorUnits),
  currency: optional(currencyCode),
});

export const statusResult = object({
  merchant_reference: text,
  /** The attempt the answer is of, when not the order's own reference (`order-1001.pg2`). */
  payment_reference: optional(text),
  transaction_status: optional(text),
  transaction_code: optional(text),
  transaction_message: optional(text),
  authorized_amount: optional(minorUnits),
  captured_amount: optional(minorUnits),
  refunded_amount: optional(minorUnits),
});

// ---- Messages of the endpoint's framed pages (endpoint page in a frame → element) ----

/**
 * A verified, confirmed outcome, as the endpoint's framed return page tells the element. Never a
 * card number, token, signature or any field of the gateway's answer beyond these.
 */
export const framedResultMessage = object({
  type: literal(FRAMED_MESSAGE_TYPES.result),
  /** `pay`, or `save-card` for a card saved without a payment. */
  intent: literal('pay', 'save-card'),
  /** Absent when the return could not even name its order (an unverifiable answer). */
  merchant_reference: optional(text),
  outcome: literal('success', 'pending', 'failure'),
  /** The order's state at the gateway (core `OrderState`). */
  order_state: optional(string),
  /** The gateway's message or the endpoint's reason, in the request's language. */
  message: string,
  response_code: optional(string),
  /** The endpoint's reason when it overruled the gateway or could not confirm (an `EndpointErrorCode`). */
  error: optional(string),
  /** The plan of an installments payment. */
  installments: optional(
    object({ number_of_installments: number, plan_code: optional(text), issuer_code: optional(text) }),
  ),
  /** The saved card as a customer recognizes it: brand and last four digits. */
  card: optional(object({ brand: optional(string), last_four: optional(is(string, (s) => /^\d{4}$/.test(s))) })),
  /** The merchant's result page for this order (`resultUrl` with its query). */
  result_url: optional(string),
});

/** The completion needs 3-D Secure: the element opens `url` in its dialog. */
export const framedThreeDsMessage = object({
  type: literal(FRAMED_MESSAGE_TYPES.threeDs),
  merchant_reference: text,
  url: is(string, (s) => /^https?:\/\//.test(s)),
});

/** A framed page's content height in CSS pixels (the sandbox's pages send it; the live gateway's may not). */
export const framedHeightMessage = object({
  type: literal(FRAMED_MESSAGE_TYPES.height),
  height: is(number, (n) => n >= 0),
});

/**
 * The embedded page took the card (a token, nothing charged): the element shows its own Pay button,
 * which asks the frame's page (`FRAMED_MESSAGE_TYPES.confirm`) to post the card, sealed, to the
 * endpoint's confirm route. The element never holds the card, sealed or not.
 */
export const framedReadyMessage = object({
  type: literal(FRAMED_MESSAGE_TYPES.ready),
  merchant_reference: text,
});

export const framedMessage = union(framedResultMessage, framedThreeDsMessage, framedHeightMessage, framedReadyMessage);

/** Every refusal: a 4xx with a stable code, the field when one is at fault, and a localized message. */
export const endpointError = object({
  error: object({
    code: string,
    message: string,
    field: optional(string),
    /** The gateway's five-digit response_code when the gateway refused (`gateway_refused`). */
    response_code: optional(string),
  }),
});

/** Every result schema an {@link EndpointCall} names. */
const resultSchemas = {
  orderResult,
  formPostResult,
  installmentPlansResult,
  billResult,
  financingVerifyCustomerResult,
  financingOtpResult,
  financingVerifyOtpResult,
  paymentResult,
  statusResult,
};

export type ResultSchemaName = keyof typeof resultSchemas;
/** What the schema `Name` gives. */
export type ResultOf<Name extends ResultSchemaName> = Infer<(typeof resultSchemas)[Name]>;

/** The answer of `call` if it passes the route's result schema, else undefined. */
export function checkedResult<Result>(call: EndpointCall<ClientRouteName, unknown, Result>, payload: unknown): Result | undefined {
  return read(resultSchemas[call.result] as Shape<unknown>, payload) as Result | undefined;
}

/** The refusal in a 4xx answer, if it has the endpoint's error shape. */
export function checkedRefusal(payload: unknown): EndpointError['error'] | undefined {
  return read(endpointError, payload)?.error;
}

/** A framed page's message, if it is one the element knows. */
export function checkedFramedMessage(data: unknown): FramedMessage | undefined {
  return read(framedMessage, data);
}

/** The three checks, as the page loads them on demand (components/shared/contract.ts). */
export const contractChecks = { checkedResult, checkedRefusal, checkedFramedMessage };

export type OrderResult = Infer<typeof orderResult>;
export type FormPostResult = Infer<typeof formPostResult>;
export type InstallmentPlansResult = Infer<typeof installmentPlansResult>;
export type BillResult = Infer<typeof billResult>;
export type FinancingVerifyCustomerResult = Infer<typeof financingVerifyCustomerResult>;
export type FinancingOtpResult = Infer<typeof financingOtpResult>;
export type FinancingVerifyOtpResult = Infer<typeof financingVerifyOtpResult>;
export type TenureOption = Infer<typeof tenureOption>;
export type PaymentResult = Infer<typeof paymentResult>;
export type StatusResult = Infer<typeof statusResult>;
export type EndpointError = Infer<typeof endpointError>;
export type FramedResultMessage = Infer<typeof framedResultMessage>;
export type FramedThreeDsMessage = Infer<typeof framedThreeDsMessage>;
export type FramedHeightMessage = Infer<typeof framedHeightMessage>;
export type FramedReadyMessage = Infer<typeof framedReadyMessage>;
export type FramedMessage = Infer<typeof framedMessage>;
