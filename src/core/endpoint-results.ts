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
import { FRAMED_MESSAGE_TYPES, type ClientRouteName, type EndpointCall } from './endpoint-routes.ts';
import { isCurrencyCode, isMinorUnits } from './order-answer.ts';

export * from './endpoint-routes.ts';

/**
 * Integer minor units, as the merchant's order holds them. One refinement rather than zod's
 * `z.int()` and `z.nonnegative()` checks, which accept and refuse the same numbers (z.number()
 * already refuses NaN and infinities) but bring two more check classes into the page
 * (bench/schema-cost.ts). The endpoint parses requests with its own (endpoint-api.ts).
 */
export const minorUnits = pure(() => z.number().check(z.refine(isMinorUnits)));

// ---- Results (endpoint → browser) ----

const text = z.string();
/**
 * An ISO 4217 code as the elements format money with it. The checks of this module are
 * refinements: one check class for all of them, where `z.regex`, `z.minLength` and the number
 * checks would each bring their own (bench/schema-cost.ts).
 */
const currencyCode = pure(() => z.string().check(z.refine(isCurrencyCode)));

/**
 * What the browser may know of the order: its identity and what it costs, and `cvv_optional`
 * (only ever `true`) when the merchant's account has CVV suppression, so that the card form may
 * leave the security code empty. It comes from the endpoint's configuration, never from the page.
 * The browser reads it without zod (order-answer.ts `readOrderAnswer`, held to the same verdicts
 * as this schema by a property test), so that the first screen waits for no schema.
 */
export const orderResult = pure(() => z.object({
  merchant_reference: text,
  amount: minorUnits,
  currency: currencyCode,
  description: z.optional(text),
  cvv_optional: z.optional(z.literal(true)),
}));

/** A form post to the gateway: the action URL and every field to send, signed. */
export const formPostResult = pure(() => z.object({
  action: z.string().check(z.refine((s) => s.length > 0)),
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
  outcome: z.literal(['success', 'pending', 'failure']),
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

// ---- Messages of the endpoint's framed pages (endpoint page in a frame → element) ----

/**
 * A verified, confirmed outcome, as the endpoint's framed return page tells the element. Never a
 * card number, token, signature or any field of the gateway's answer beyond these.
 */
export const framedResultMessage = pure(() => z.object({
  type: z.literal(FRAMED_MESSAGE_TYPES.result),
  /** `pay`, or `save-card` for a card saved without a payment. */
  intent: z.literal(['pay', 'save-card']),
  /** Absent when the return could not even name its order (an unverifiable answer). */
  merchant_reference: z.optional(text),
  outcome: z.literal(['success', 'pending', 'failure']),
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
  card: z.optional(z.object({ brand: z.optional(z.string()), last_four: z.optional(z.string().check(z.refine((s) => /^\d{4}$/.test(s)))) })),
  /** The merchant's result page for this order (`resultUrl` with its query). */
  result_url: z.optional(z.string()),
}));

/** The completion needs 3-D Secure: the element opens `url` in its dialog. */
export const framedThreeDsMessage = pure(() => z.object({
  type: z.literal(FRAMED_MESSAGE_TYPES.threeDs),
  merchant_reference: text,
  url: z.string().check(z.refine((s) => /^https?:\/\//.test(s))),
}));

/** A framed page's content height in CSS pixels (the sandbox's pages send it; the live gateway's may not). */
export const framedHeightMessage = pure(() => z.object({
  type: z.literal(FRAMED_MESSAGE_TYPES.height),
  height: z.number().check(z.refine((n) => n >= 0)),
}));

/**
 * The embedded page took the card (a token, nothing charged): the element shows its own Pay button,
 * which asks the frame's page (`FRAMED_MESSAGE_TYPES.confirm`) to post the card, sealed, to the
 * endpoint's confirm route. The element never holds the card, sealed or not.
 */
export const framedReadyMessage = pure(() => z.object({
  type: z.literal(FRAMED_MESSAGE_TYPES.ready),
  merchant_reference: text,
}));

export const framedMessage = pure(() => z.union([framedResultMessage, framedThreeDsMessage, framedHeightMessage, framedReadyMessage]));

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
export type ResultOf<Name extends ResultSchemaName> = z.infer<(typeof resultSchemas)[Name]>;

/** The answer of `call` if it passes the route's result schema, else undefined. */
export function checkedResult<Result>(call: EndpointCall<ClientRouteName, unknown, Result>, payload: unknown): Result | undefined {
  const checked = z.safeParse(resultSchemas[call.result], payload);
  return checked.success ? (checked.data as Result) : undefined;
}

/** The refusal in a 4xx answer, if it has the endpoint's error shape. */
export function checkedRefusal(payload: unknown): EndpointError['error'] | undefined {
  const checked = z.safeParse(endpointError, payload);
  return checked.success ? checked.data.error : undefined;
}

/** A framed page's message, if it is one the element knows. */
export function checkedFramedMessage(data: unknown): FramedMessage | undefined {
  const checked = z.safeParse(framedMessage, data);
  return checked.success ? checked.data : undefined;
}

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
export type FramedReadyMessage = z.infer<typeof framedReadyMessage>;
export type FramedMessage = z.infer<typeof framedMessage>;
