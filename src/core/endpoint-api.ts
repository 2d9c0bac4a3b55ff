/**
 * The contract between the elements and the merchant endpoint: one schema per route, shared by
 * the browser client (which reads every answer with the contract's shapes) and the server (which parses every request).
 * No route accepts card data, a phrase or a signature from the browser; the amount and currency
 * always come from the merchant's order, and a request that names different ones is refused.
 *
 * The request schemas are here, built from the gateway's field rules; the routes, the answers and
 * the framed messages, which the browser uses, are in endpoint-results.ts (re-exported here), so
 * that a page never loads the rules.
 */
import * as z from 'zod/mini';
import type { RouteName } from './endpoint-routes.ts';
import { PAYMENT_COMMANDS } from './payment-commands.ts';
import { field, financingProductEntry } from './schemas/index.ts';

export * from './endpoint-results.ts';

// Field rules come from the core's one table (schemas/fields.ts FIELD_RULES); only the shapes are new here.
const language = field('language');
const merchantReference = field('merchant_reference');
const currency = field('currency');
const email = field('customer_email');
const customerName = field('customer_name');
const planCode = field('plan_code');
const issuerCode = field('issuer_code');

/**
 * Integer minor units in a request, with zod's int and nonnegative checks: their issues name what
 * is wrong in the refusal (field-errors.ts). The answers' `minorUnits` (endpoint-results.ts)
 * accepts and refuses the same numbers with one cheaper refinement.
 */
const minorUnits = z.number().check(z.int(), z.nonnegative());

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
  command: z.enum(PAYMENT_COMMANDS),
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
  command: z.optional(z.enum(PAYMENT_COMMANDS)),
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
  /**
   * The gateway's own page in the element's frame (card-mode embedded): its button only takes the
   * card; the return charges nothing and tells the element the card is ready, and the element's
   * own Pay button, naming the amount, confirms (the `embeddedConfirm` route). Only with `framed`.
   */
  embedded: z.optional(z.literal(true)),
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

/**
 * The first screen of `<pg-checkout>`, written by the shop's server into its page (server
 * first-screen.ts): asked for by the shop's server, never by the elements. It names what the
 * element will be given; the card method must come first, the only one written without a script.
 */
export const FIRST_SCREEN_ROUTE = '/first-screen';

/** Every route's name as the endpoint logs it and tells the order lookup: the elements' routes and `firstScreen`. */
export type EndpointRouteName = RouteName | 'firstScreen';

/** A URL the first screen writes into the page: a path on the page's own origin, or an http(s) URL (never `javascript:`, nor `//host`). */
const PAGE_URL = /^(?:\/(?![/\\])|https?:\/\/)\S*$/;

export const firstScreenRequest = z.object({
  ...base,
  command: z.optional(z.enum(PAYMENT_COMMANDS)),
  mode: z.optional(z.enum(['merchant-page', 'drop-in'])),
  methods: z.optional(z.array(z.enum(['card', 'installments', 'voucher', 'financing'])).check(z.minLength(1), z.maxLength(4))),
  /** The element's `endpoint` attribute: the URL the browser calls, which may differ from the one the shop's server used. */
  endpoint: z.string().check(z.maxLength(2000), z.regex(PAGE_URL)),
  theme_href: z.optional(z.string().check(z.maxLength(2000), z.regex(PAGE_URL))),
  hide_remember_me: z.optional(z.boolean()),
  /** The page's Content-Security-Policy nonce, for the element's own `<style>`. */
  style_nonce: z.optional(z.string().check(z.regex(/^[A-Za-z0-9+/=_-]{1,200}$/))),
});

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
export type FirstScreenRequest = z.infer<typeof firstScreenRequest>;
export type FinancingProduct = z.infer<typeof financingProduct>;

/** The body of each route as the browser sends it (before the schema's defaults). */
export type OrderRequestBody = z.input<typeof orderRequest>;
export type HostedPageRequestBody = z.input<typeof hostedPageRequest>;
export type MerchantPageRequestBody = z.input<typeof merchantPageRequest>;
export type SaveCardRequestBody = z.input<typeof saveCardRequest>;
export type InstallmentPlansRequestBody = z.input<typeof installmentPlansRequest>;
export type BillRequestBody = z.input<typeof billRequest>;
export type FinancingVerifyCustomerRequestBody = z.input<typeof financingVerifyCustomerRequest>;
export type FinancingOtpRequestBody = z.input<typeof financingOtpRequest>;
export type FinancingVerifyOtpRequestBody = z.input<typeof financingVerifyOtpRequest>;
export type FinancingPurchaseRequestBody = z.input<typeof financingPurchaseRequest>;
export type StatusRequestBody = z.input<typeof statusRequest>;

/** Fields no element request may carry: card data goes from the browser to the gateway only. */
export const CARD_FIELDS: readonly string[] = ['card_number', 'card_security_code', 'expiry_date'];
