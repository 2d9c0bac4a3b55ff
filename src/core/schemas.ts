/**
 * The gateway's wire shapes (spec, "Resources and their fields" and "Endpoints"), as zod schemas
 * shared by the browser, the merchant endpoint and the sandbox. Every field constraint of the spec
 * lives once, in `FIELD_RULES`; the request and response schemas below are built from it.
 *
 * Unknown keys: requests are strict (an unknown key is refused as `unknown_field`), because a
 * misspelt optional field would otherwise be signed, sent and silently ignored. Responses are
 * loose (unknown keys kept as they came): the gateway echoes every parameter it was sent
 * (General rules 2) and its signature covers all of them, so dropping one would break
 * verification.
 *
 * Amounts: on the wire an amount is a string or a number of digits; both are accepted and kept as
 * they came, and a number is checked as the decimal string it is written as.
 */
import * as z from 'zod/mini';
import { MAX_AMOUNT_DIGITS } from './amounts.ts';

// ---- Field rules ----

/**
 * Character classes of the spec's "Type" column. `alpha`, `alphanumeric` and `numeric` are ASCII
 * (codes, references and digits travel as ASCII). `letters` is letters of any script plus
 * combining marks: the spec's "alpha" for a person's name, so that a merchant in Egypt can send
 * "محمد عبد الله" and a Latin name may carry accents. `upper` is for ISO codes. `text` is any text.
 */
export type Charset = 'alpha' | 'upper' | 'letters' | 'numeric' | 'alphanumeric' | 'text';

/** Whole-value shapes beyond a character class. */
export type FieldFormat = 'datetime_offset' | 'yymm' | 'email' | 'month_list';

export interface FieldRule {
  /** Characters the value is made of. */
  readonly charset: Charset;
  /** Characters allowed on top of the class (the spec's "Special characters"). */
  readonly special?: string;
  readonly maxLength?: number;
  /** Exact length, for fixed-width codes. */
  readonly length?: number;
  /** The only values accepted. */
  readonly values?: readonly [string, ...string[]];
  readonly format?: FieldFormat;
}

/**
 * The spec's field constraints (Common fields, Bill, Installment objects, Status query result and
 * Limits tables), keyed by wire name. Entries marked "ours" are decisions where the spec is silent.
 * Every field is non-empty when sent: leave an optional field out rather than send "".
 */
export const FIELD_RULES = {
  command: { charset: 'alpha', special: '_' },
  // "alpha" in the spec, but its own values include 3DS_ENROLLMENT and 3DS_AUTHENTICATION.
  service_command: { charset: 'alphanumeric', special: '_', maxLength: 20 },
  query_command: { charset: 'alpha', special: '_', maxLength: 50 },
  access_code: { charset: 'alphanumeric', maxLength: 20 },
  merchant_identifier: { charset: 'alphanumeric', maxLength: 20 },
  merchant_reference: { charset: 'alphanumeric', special: '-_.', maxLength: 40 },
  amount: { charset: 'numeric', maxLength: MAX_AMOUNT_DIGITS },
  // ISO 4217 alphabetic codes are upper case, as amounts.ts expects them.
  currency: { charset: 'upper', length: 3 },
  language: { charset: 'alpha', values: ['en', 'ar'] },
  signature: { charset: 'alphanumeric', maxLength: 200 },
  svc_id: { charset: 'numeric', maxLength: 20 },
  order_description: { charset: 'text' },
  // The email shape (one @, a dotted domain) is ours; the spec gives only the characters.
  customer_email: { charset: 'alphanumeric', special: '_-.@+', maxLength: 254, format: 'email' },
  customer_name: { charset: 'letters', special: "_\\/-.' ", maxLength: 50 },
  customer_ip: { charset: 'text' },
  phone_number: { charset: 'text' },
  eci: { charset: 'alpha', values: ['ECOMMERCE', 'RECURRING', 'MOTO'] },
  token_name: { charset: 'alphanumeric', special: '.@-_', maxLength: 100 },
  payment_option: { charset: 'text' },
  // Ours: a card number as typed (PANs have at most 19 digits) and a 3- or 4-digit CVV.
  card_number: { charset: 'numeric', maxLength: 19 },
  card_security_code: { charset: 'numeric', maxLength: 4 },
  expiry_date: { charset: 'numeric', length: 4, format: 'yymm' },
  card_holder_name: { charset: 'text' },
  remember_me: { charset: 'alpha', values: ['YES', 'NO'] },
  authorization_code: { charset: 'alphanumeric', maxLength: 100 },
  // "alphanumeric" in the spec, but it is a sentence in the request language (Arabic included).
  response_message: { charset: 'text', maxLength: 150 },
  response_code: { charset: 'numeric', length: 5 },
  status: { charset: 'numeric', length: 2 },
  merchant_extra: { charset: 'text' },
  merchant_extra1: { charset: 'text' },
  merchant_extra2: { charset: 'text' },
  merchant_extra3: { charset: 'text' },
  merchant_extra4: { charset: 'text' },
  merchant_extra5: { charset: 'text' },
  settlement_reference: { charset: 'text' },
  return_url: { charset: 'text' },
  '3ds_url': { charset: 'text' },
  bill_number: { charset: 'numeric', maxLength: 14 },
  // The ISO 8601 shape with offset implies the spec's characters (alphanumeric and - + :).
  request_expiry_date: { charset: 'alphanumeric', special: '-+:', maxLength: 25, format: 'datetime_offset' },
  payment_partner: { charset: 'alphanumeric', special: '-+:.', maxLength: 5 },
  installments: { charset: 'alpha', maxLength: 10, values: ['STANDALONE', 'YES'] },
  number_of_installments: { charset: 'numeric', maxLength: 2 },
  plan_code: { charset: 'alphanumeric', maxLength: 8 },
  issuer_code: { charset: 'alphanumeric', maxLength: 8 },
  customer_country_code: { charset: 'upper', length: 3 },
  return_third_party_response_codes: { charset: 'alpha', maxLength: 3, values: ['YES', 'NO'] },
  transaction_status: { charset: 'numeric', length: 2 },
  transaction_code: { charset: 'numeric', length: 5 },
  transaction_message: { charset: 'text', maxLength: 150 },
  processor_response_code: { charset: 'text', maxLength: 100 },
  acquirer_response_code: { charset: 'text', maxLength: 10 },
  merchant_order_id: { charset: 'text' },
  transaction_id: { charset: 'text' },
  otp: { charset: 'text' },
  customer_code: { charset: 'text' },
  purchase_description: { charset: 'text' },
  from_date: { charset: 'alphanumeric', special: '-+:', format: 'datetime_offset' },
  to_date: { charset: 'alphanumeric', special: '-+:', format: 'datetime_offset' },
  response_format: { charset: 'alpha', values: ['JSON', 'XML'] },
  batch_reference: { charset: 'text' },
  batch_id: { charset: 'text' },
  merchant_3ds_url: { charset: 'text' },
  third_party_body: { charset: 'text' },
  threeds_id: { charset: 'text' },
} as const satisfies Record<string, FieldRule>;

export type FieldName = keyof typeof FIELD_RULES;

/** The value type a field's rule admits: its listed values, or a string. */
export type FieldValue<N extends FieldName> = (typeof FIELD_RULES)[N] extends { readonly values: readonly (infer V)[] }
  ? V
  : string;

const FORMAT_PATTERNS: Record<FieldFormat, RegExp> = {
  // YYYY-MM-DDThh:mm:ss+hh:mm exactly (General rules 5); 25 characters, the bill's limit.
  datetime_offset:
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d[+-]([01]\d|2[0-3]):[0-5]\d$/,
  yymm: /^\d{2}(0[1-9]|1[0-2])$/,
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  month_list: /^\d+(-\d+)*$/,
};

const CHARSET_CLASSES: Record<Exclude<Charset, 'text'>, string> = {
  alpha: 'A-Za-z',
  upper: 'A-Z',
  letters: '\\p{L}\\p{M}',
  numeric: '0-9',
  alphanumeric: 'A-Za-z0-9',
};

/**
 * The issue a character-class check raises: zod's `invalid_format` with `format: 'charset'`, plus
 * the class and extra characters, so a message can say which characters are allowed.
 */
export type CharsetIssue = {
  readonly code: 'invalid_format';
  readonly format: 'charset';
  readonly charset: Exclude<Charset, 'text'>;
  readonly special: string;
};

/** Type guard for the issue of a charset check, as it appears in a `ZodError`. */
export function isCharsetIssue(issue: object): issue is CharsetIssue {
  return 'format' in issue && issue.format === 'charset' && 'charset' in issue;
}

/** The regular expression of a character class plus extra characters (whole value, maybe empty). */
/* @__NO_SIDE_EFFECTS__ */
export function charsetPattern(charset: Exclude<Charset, 'text'>, special = ''): RegExp {
  const escaped = special.replace(/[\\\][^-]/g, (c) => `\\${c}`);
  return new RegExp(`^[${CHARSET_CLASSES[charset]}${escaped}]*$`, 'u');
}

/* @__NO_SIDE_EFFECTS__ */
function charsetCheck(charset: Exclude<Charset, 'text'>, special = ''): z.core.$ZodCheck<string> {
  const pattern = charsetPattern(charset, special);
  return z.check<string>((payload) => {
    if (pattern.test(payload.value)) return;
    const issue: CharsetIssue & { input: string; pattern: string } = {
      code: 'invalid_format',
      format: 'charset',
      charset,
      special,
      pattern: pattern.source,
      input: payload.value,
    };
    payload.issues.push(issue);
  });
}

/** A whole-value shape check raising `invalid_format` with the format's name. */
/* @__NO_SIDE_EFFECTS__ */
function formatCheck(format: FieldFormat): z.core.$ZodCheck<string> {
  const pattern = FORMAT_PATTERNS[format];
  return z.check<string>((payload) => {
    if (pattern.test(payload.value)) return;
    // `continue: false` stops the later checks of this value.
    payload.issues.push({ code: 'invalid_format', format, pattern: pattern.source, input: payload.value, continue: false });
  });
}

/** A string schema enforcing a rule: non-empty, length, format, character class, values. */
/* @__NO_SIDE_EFFECTS__ */
export function fieldFromRule(rule: FieldRule): z.ZodMiniType<string, string> {
  if (rule.values) return z.enum(rule.values);
  const checks: z.core.$ZodCheck<string>[] = [z.minLength(1, { abort: true })];
  if (rule.maxLength !== undefined) checks.push(z.maxLength(rule.maxLength));
  if (rule.length !== undefined) checks.push(z.length(rule.length));
  // The format first: a value of the wrong shape gets the message that shows the shape, not a
  // second one about its characters.
  if (rule.format) checks.push(formatCheck(rule.format));
  if (rule.charset !== 'text') checks.push(charsetCheck(rule.charset, rule.special));
  return z.string().check(...checks);
}

/** The schema of a field from `FIELD_RULES`, typed with its listed values where it has them. */
/* @__NO_SIDE_EFFECTS__ */
export function field<N extends FieldName>(name: N): z.ZodMiniType<FieldValue<N>, FieldValue<N>> {
  return fieldFromRule(FIELD_RULES[name]) as z.ZodMiniType<FieldValue<N>, FieldValue<N>>;
}

/**
 * A numeric field as it travels: a string of digits or a number, kept as it came. A number is
 * checked as the decimal string it is written as, so -5, 1.5 and 1e21 fail the character class
 * and 12345678901 fails the length, exactly as their strings would.
 */
/* @__NO_SIDE_EFFECTS__ */
export function digitsFromRule(rule: FieldRule): z.ZodMiniType<string | number, string | number> {
  const digits = fieldFromRule(rule);
  const asWritten = z.number().check(
    z.check<number>((payload) => {
      const result = digits.safeParse(String(payload.value));
      if (result.success) return;
      for (const issue of result.error.issues) payload.issues.push({ ...issue, input: payload.value } as z.core.$ZodRawIssue);
    }),
  );
  return z.union([digits, asWritten]);
}

// ---- Shared pieces ----

/**
 * Runs `build` at once. Bundlers take the call as pure, so a bundle drops every schema it does not
 * use: a bare object spread or `.check()` at module level would be kept as a possible side effect.
 */
/* @__NO_SIDE_EFFECTS__ */
function pure<T>(build: () => T): T {
  return build();
}

const wireAmount = digitsFromRule(FIELD_RULES.amount);

const identity = {
  access_code: field('access_code'),
  merchant_identifier: field('merchant_identifier'),
};

const merchantExtras = {
  merchant_extra: z.optional(field('merchant_extra')),
  merchant_extra1: z.optional(field('merchant_extra1')),
  merchant_extra2: z.optional(field('merchant_extra2')),
  merchant_extra3: z.optional(field('merchant_extra3')),
  merchant_extra4: z.optional(field('merchant_extra4')),
  merchant_extra5: z.optional(field('merchant_extra5')),
};

/** Identity, order, money and language: what every operation request carries. */
const order = pure(() => ({
  ...identity,
  merchant_reference: field('merchant_reference'),
  amount: wireAmount,
  currency: field('currency'),
  language: field('language'),
  signature: field('signature'),
}));

const customer = {
  customer_email: z.optional(field('customer_email')),
  customer_name: z.optional(field('customer_name')),
  customer_ip: z.optional(field('customer_ip')),
  phone_number: z.optional(field('phone_number')),
};

/** Every response carries these (spec, Errors 1). */
const outcome = {
  response_code: field('response_code'),
  response_message: field('response_message'),
  status: field('status'),
};

/** The masked card number of a response, e.g. 400555******0001. */
const maskedCardNumber = pure(() => z.string().check(z.minLength(1), charsetCheck('numeric', '*')));

/** Fields the gateway adds to an answered operation, where it has them. */
const operationResult = {
  svc_id: z.optional(field('svc_id')),
  eci: z.optional(field('eci')),
  authorization_code: z.optional(field('authorization_code')),
  payment_option: z.optional(field('payment_option')),
  card_number: z.optional(maskedCardNumber),
  expiry_date: z.optional(field('expiry_date')),
  card_holder_name: z.optional(field('card_holder_name')),
  token_name: z.optional(field('token_name')),
  settlement_reference: z.optional(field('settlement_reference')),
  '3ds_url': z.optional(field('3ds_url')),
};

/** Installment fields of an answer to an installments request. */
const installmentsResult = {
  number_of_installments: z.optional(digitsFromRule(FIELD_RULES.number_of_installments)),
  plan_code: z.optional(field('plan_code')),
  issuer_code: z.optional(field('issuer_code')),
};

interface RequiredWithoutParams {
  readonly rule: 'required_without';
  readonly other: string;
}

/**
 * Each of `fields` is required unless `other` is sent. Runs even when other fields already
 * failed, so every error shows at once.
 */
/* @__NO_SIDE_EFFECTS__ */
function requiredWithout(fields: readonly string[], other: string): z.core.$ZodCheck<object> {
  return z.check<object>(
    (payload) => {
      const value = payload.value as Record<string, unknown>;
      if (value[other] !== undefined) return;
      for (const name of fields) {
        if (value[name] !== undefined) continue;
        const params: RequiredWithoutParams = { rule: 'required_without', other };
        payload.issues.push({ code: 'custom', path: [name], params, input: undefined });
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );
}

// ---- Hosted payment page (form post to paymentPage) ----

/** AUTHORIZATION or PURCHASE through redirection; `installments: STANDALONE` offers installments. */
export const hostedPaymentRequest = pure(() => z.strictObject({
  command: z.enum(['AUTHORIZATION', 'PURCHASE']),
  ...order,
  ...customer,
  order_description: z.optional(field('order_description')),
  installments: z.optional(z.literal('STANDALONE')),
  token_name: z.optional(field('token_name')),
  remember_me: z.optional(field('remember_me')),
  payment_option: z.optional(field('payment_option')),
  return_url: z.optional(field('return_url')),
  ...merchantExtras,
}));

const tokenizationMerchantShape = pure(() => ({
  service_command: z.literal('TOKENIZATION'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  language: field('language'),
  signature: field('signature'),
  token_name: z.optional(field('token_name')),
  return_url: z.optional(field('return_url')),
  ...merchantExtras,
}));

/** The card fields the customer types into the merchant page; never signed (Authentication, special case 1). */
const cardEntry = {
  card_number: field('card_number'),
  expiry_date: field('expiry_date'),
  card_security_code: field('card_security_code'),
  card_holder_name: z.optional(field('card_holder_name')),
  remember_me: z.optional(field('remember_me')),
};

/** Tokenization (create new token, merchant page 2.0) as the merchant's server prepares and signs it, before card entry. */
export const tokenizationMerchantFields = z.strictObject(tokenizationMerchantShape);

/** Tokenization form as the gateway receives it: the merchant's fields plus the customer's card. */
export const tokenizationRequest = pure(() => z.strictObject({ ...tokenizationMerchantShape, ...cardEntry }));

const installmentsMerchantPageShape = pure(() => ({
  ...tokenizationMerchantShape,
  installments: z.literal('STANDALONE'),
  amount: wireAmount,
  currency: field('currency'),
  customer_country_code: z.optional(field('customer_country_code')),
}));

/** Installments through the merchant page, as the merchant's server signs it, before card entry. */
export const installmentsMerchantPageMerchantFields = z.strictObject(installmentsMerchantPageShape);

/** Installments through the merchant page, as the gateway receives it. */
export const installmentsMerchantPageRequest = pure(() => z.strictObject({ ...installmentsMerchantPageShape, ...cardEntry }));

/**
 * What the gateway posts back to `return_url` after the hosted or merchant page: the echoed
 * request, the outcome, the token and, for installments, the customer's choice. Either `command`
 * (payments) or `service_command` (tokenization) is present.
 */
export const hostedPageResponse = pure(() =>
  z
    .looseObject({
      command: z.optional(z.enum(['AUTHORIZATION', 'PURCHASE'])),
      service_command: z.optional(z.literal('TOKENIZATION')),
      ...identity,
      merchant_reference: field('merchant_reference'),
      amount: z.optional(wireAmount),
      currency: z.optional(field('currency')),
      language: field('language'),
      signature: field('signature'),
      ...outcome,
      ...customer,
      ...operationResult,
      order_description: z.optional(field('order_description')),
      remember_me: z.optional(field('remember_me')),
      return_url: z.optional(field('return_url')),
      installments: z.optional(field('installments')),
      customer_country_code: z.optional(field('customer_country_code')),
      ...installmentsResult,
      ...merchantExtras,
    })
    .check(requiredWithout(['command'], 'service_command')),
);

// ---- Maintenance: capture, refund, void authorization (paymentApi) ----

const maintenanceShape = pure(() => ({
  ...order,
  svc_id: field('svc_id'),
  order_description: z.optional(field('order_description')),
  ...merchantExtras,
}));

/** CAPTURE of an authorized order, partial or full. */
export const captureRequest = pure(() => z.strictObject({ command: z.literal('CAPTURE'), ...maintenanceShape }));
/** REFUND of a captured order, partial or full. */
export const refundRequest = pure(() => z.strictObject({ command: z.literal('REFUND'), ...maintenanceShape }));

/** Capture answer: the request echoed plus the outcome (accepted: 20064, status 04). */
export const captureResponse = pure(() => z.looseObject({ command: z.literal('CAPTURE'), ...maintenanceShape, ...outcome }));
/** Refund answer: the request echoed plus the outcome (accepted: 20064, status 04). */
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
}));

/** Void of an authorization (command name is this project's decision), by merchant_reference and/or svc_id. */
export const voidAuthorizationRequest = pure(() => z.strictObject(voidShape).check(requiredWithout(['merchant_reference'], 'svc_id')));
/** Void answer: the request echoed plus the outcome. */
export const voidAuthorizationResponse = pure(() => z.looseObject({ ...voidShape, ...outcome }));

// ---- Installments ----

/** GET_INSTALLMENTS_PLANS. Amount, currency, language and issuer_code narrow the answer (ours: the spec lists only identification). */
export const installmentsPlansRequest = pure(() => z.strictObject({
  query_command: z.literal('GET_INSTALLMENTS_PLANS'),
  ...identity,
  signature: field('signature'),
  language: z.optional(field('language')),
  amount: z.optional(wireAmount),
  currency: z.optional(field('currency')),
  issuer_code: z.optional(field('issuer_code')),
}));

const nullableText = z.nullable(z.string());
const numberOrText = z.union([z.number(), z.string()]);

/** One plan of an issuer. Values the spec shows: fees_type Percentage (Fixed implied), rate_type Flat (Reducing implied). */
export const installmentPlanDetail = z.looseObject({
  plan_code: z.string(),
  currency_code: z.string(),
  number_of_installment: z.int(),
  fees_type: z.string(),
  fees_amount: z.int(),
  processing_fees_type: nullableText,
  processing_fees_amount: z.nullable(numberOrText),
  rate_type: z.string(),
  plan_merchant_type: z.string(),
  plan_type: z.string(),
  fee_display_value: numberOrText,
  minimum_amount: numberOrText,
  maximum_amount: numberOrText,
  /** A decimal string, e.g. "350.50"; absent or null when the gateway does not compute it. */
  amountPerMonth: z.nullish(z.string()),
});

/** A BIN range of an issuer's cards. */
export const installmentBin = z.looseObject({
  bin: z.string(),
  country_code: z.string(),
  currency_code: z.string(),
  card_brand_code: z.string(),
});

/** One issuer of the plans answer, with its plans and BINs. The message fields may be null. */
export const installmentIssuerDetail = z.looseObject({
  issuer_code: z.string(),
  issuer_name_ar: z.string(),
  issuer_name_en: z.string(),
  terms_and_condition_ar: nullableText,
  terms_and_condition_en: nullableText,
  country_code: z.string(),
  issuer_logo_ar: nullableText,
  issuer_logo_en: nullableText,
  /** Value seen: "Non Islamic"; the Islamic variant's spelling is not shown. */
  banking_system: z.string(),
  formula: nullableText,
  plan_details: z.array(installmentPlanDetail),
  bins: z.array(installmentBin),
  confirmation_message_ar: nullableText,
  confirmation_message_en: nullableText,
  disclaimer_message_ar: nullableText,
  disclaimer_message_en: nullableText,
  processing_fees_message_ar: nullableText,
  processing_fees_message_en: nullableText,
});

/** GET_INSTALLMENTS_PLANS answer; `installment_detail` is absent when the query fails. */
export const installmentsPlansResponse = pure(() => z.looseObject({
  query_command: z.literal('GET_INSTALLMENTS_PLANS'),
  ...identity,
  signature: field('signature'),
  ...outcome,
  issuer_code: z.optional(field('issuer_code')),
  installment_detail: z.optional(z.looseObject({ issuer_detail: z.array(installmentIssuerDetail) })),
}));

// ---- Direct operations (paymentApi): trusted channel, installments YES, recurring ----

const directOperationShape = pure(() => ({
  command: z.enum(['AUTHORIZATION', 'PURCHASE']),
  ...order,
  ...customer,
  eci: z.optional(field('eci')),
  token_name: z.optional(field('token_name')),
  card_number: z.optional(field('card_number')),
  expiry_date: z.optional(field('expiry_date')),
  card_security_code: z.optional(field('card_security_code')),
  card_holder_name: z.optional(field('card_holder_name')),
  remember_me: z.optional(field('remember_me')),
  payment_option: z.optional(field('payment_option')),
  order_description: z.optional(field('order_description')),
  return_url: z.optional(field('return_url')),
  ...merchantExtras,
}));

const cardOrToken = requiredWithout(['card_number', 'expiry_date'], 'token_name');

/** Trusted channel: AUTHORIZATION or PURCHASE with clear card data or a token, eci ECOMMERCE, RECURRING or MOTO. */
export const trustedChannelRequest = pure(() => z.strictObject({ ...directOperationShape, eci: field('eci') }).check(cardOrToken));

/** Trusted-channel answer: the request echoed (card number masked) plus the operation's result. */
export const trustedChannelResponse = pure(() => z.looseObject({ ...directOperationShape, ...outcome, ...operationResult }));

const installmentsDirectShape = pure(() => ({
  ...directOperationShape,
  installments: z.literal('YES'),
  plan_code: field('plan_code'),
  issuer_code: field('issuer_code'),
}));

/** Installments by direct operation: an operation plus installments YES, plan_code and issuer_code. */
export const installmentsDirectRequest = pure(() => z.strictObject(installmentsDirectShape).check(cardOrToken));

/** Installments by direct operation answer: adds number_of_installments. */
export const installmentsDirectResponse = pure(() => z.looseObject({
  ...installmentsDirectShape,
  ...outcome,
  ...operationResult,
  ...installmentsResult,
  plan_code: field('plan_code'),
  issuer_code: field('issuer_code'),
}));

const recurringShape = pure(() => ({
  command: z.literal('PURCHASE'),
  ...order,
  eci: z.literal('RECURRING'),
  token_name: field('token_name'),
  ...customer,
  order_description: z.optional(field('order_description')),
  payment_option: z.optional(field('payment_option')),
  ...merchantExtras,
}));

/** Recurring PURCHASE: a stored token under a recurring contract. */
export const recurringPurchaseRequest = z.strictObject(recurringShape);

/** Recurring answer: the request echoed plus svc_id, authorization_code, masked card and settlement reference. */
export const recurringPurchaseResponse = pure(() => z.looseObject({ ...operationResult, ...recurringShape, ...outcome }));

// ---- Cash bill (voucher) ----

const billShape = pure(() => ({
  service_command: z.literal('BILL_PRESENTMENT'),
  ...order,
  // Voucher payments are in EGP only (spec, What the service does, 5).
  currency: z.literal('EGP'),
  request_expiry_date: field('request_expiry_date'),
  payment_partner: field('payment_partner'),
  customer_name: z.optional(field('customer_name')),
  customer_email: z.optional(field('customer_email')),
}));

/** BILL_PRESENTMENT: asks the gateway for a bill number the customer pays at the partner. */
export const billPresentmentRequest = z.strictObject(billShape);
/** BILL_PRESENTMENT answer: the request echoed plus bill_number (absent on failure). */
export const billPresentmentResponse = pure(() => z.looseObject({
  ...billShape,
  ...outcome,
  bill_number: z.optional(field('bill_number')),
}));

// ---- Consumer financing ----

const financingShape = pure(() => ({
  ...identity,
  merchant_reference: field('merchant_reference'),
  language: field('language'),
  signature: field('signature'),
  payment_option: field('payment_option'),
  phone_number: field('phone_number'),
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
}));

/** Financing PURCHASE, after OTP verification. */
export const financingPurchaseRequest = z.strictObject(financingPurchaseShape);
/** Financing PURCHASE answer: adds customer_ip, eci and svc_id. */
export const financingPurchaseResponse = pure(() => z.looseObject({
  ...financingPurchaseShape,
  ...outcome,
  customer_ip: z.optional(field('customer_ip')),
  eci: z.optional(field('eci')),
  svc_id: z.optional(field('svc_id')),
}));

// ---- Check status ----

const checkStatusShape = pure(() => ({
  query_command: z.literal('CHECK_STATUS'),
  ...identity,
  merchant_reference: z.optional(field('merchant_reference')),
  svc_id: z.optional(field('svc_id')),
  language: field('language'),
  signature: field('signature'),
  return_third_party_response_codes: z.optional(field('return_third_party_response_codes')),
}));

/**
 * CHECK_STATUS. The spec lists merchant_reference as mandatory yet says "merchant_reference and/or
 * svc_id may be sent"; so either one is enough.
 */
export const checkStatusRequest = pure(() => z.strictObject(checkStatusShape).check(requiredWithout(['merchant_reference'], 'svc_id')));

/** CHECK_STATUS answer. The transaction_* fields describe the last operation; absent when the query fails. */
export const checkStatusResponse = pure(() => z.looseObject({
  ...checkStatusShape,
  ...outcome,
  transaction_status: z.optional(field('transaction_status')),
  transaction_code: z.optional(field('transaction_code')),
  transaction_message: z.optional(field('transaction_message')),
  refunded_amount: z.optional(wireAmount),
  captured_amount: z.optional(wireAmount),
  authorized_amount: z.optional(wireAmount),
  authorization_code: z.optional(field('authorization_code')),
  processor_response_code: z.optional(field('processor_response_code')),
  acquirer_response_code: z.optional(field('acquirer_response_code')),
}));

// ---- Reporting ----

const reportShape = pure(() => ({
  query_command: z.literal('GENERATE_REPORT'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  from_date: field('from_date'),
  to_date: field('to_date'),
  response_format: field('response_format'),
  language: field('language'),
  signature: field('signature'),
}));

/** A report filter, e.g. `{ key: 'currency', value: 'EGP' }`. */
export const reportFilterEntry = pure(() => z.strictObject({
  key: z.string().check(z.minLength(1)),
  value: z.string().check(z.minLength(1)),
}));

/** GENERATE_REPORT. Columns and filters are optional: the spec does not say a report needs them. */
export const generateReportRequest = pure(() => z.strictObject({
  ...reportShape,
  columns: z.optional(z.array(z.string().check(z.minLength(1)))),
  filters: z.optional(z.array(reportFilterEntry)),
}));

/** GENERATE_REPORT answer (56000, status 56). */
export const generateReportResponse = pure(() => z.looseObject({ ...reportShape, ...outcome }));

// ---- 3-D Secure ----

const enrollmentShape = pure(() => ({
  service_command: z.literal('3DS_ENROLLMENT'),
  ...order,
  card_number: field('card_number'),
  expiry_date: field('expiry_date'),
  merchant_3ds_url: field('merchant_3ds_url'),
}));

/** 3DS_ENROLLMENT: is the card enrolled, and where does the customer authenticate. */
export const threeDsEnrollmentRequest = z.strictObject(enrollmentShape);
/** 3DS_ENROLLMENT answer: masked card number, threeds_id, 3ds_url, 3ds_enrolled, and MD/PaRes for some processors. */
export const threeDsEnrollmentResponse = pure(() => z.looseObject({
  ...enrollmentShape,
  ...outcome,
  card_number: maskedCardNumber,
  threeds_id: z.optional(field('threeds_id')),
  '3ds_url': z.optional(field('3ds_url')),
  '3ds_enrolled': z.optional(z.string()),
  MD: z.optional(z.string()),
  PaRes: z.optional(z.string()),
}));

const authenticationShape = pure(() => ({
  service_command: z.literal('3DS_AUTHENTICATION'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  language: field('language'),
  signature: field('signature'),
}));

/** 3DS_AUTHENTICATION: passes the processor's parameters back in third_party_body. */
export const threeDsAuthenticationRequest = pure(() => z.strictObject({
  ...authenticationShape,
  third_party_body: field('third_party_body'),
}));
/** 3DS_AUTHENTICATION answer: 3ds_eci, 3ds_status, 3ds_xid, ver_token. */
export const threeDsAuthenticationResponse = pure(() => z.looseObject({
  ...authenticationShape,
  ...outcome,
  threeds_id: z.optional(field('threeds_id')),
  ver_token: z.optional(z.string()),
  '3ds_eci': z.optional(z.string()),
  '3ds_status': z.optional(z.string()),
  '3ds_xid': z.optional(z.string()),
  '3ds_enrolled': z.optional(z.string()),
}));

// ---- Batch ----

const batchShape = pure(() => ({
  ...identity,
  batch_reference: field('batch_reference'),
  language: field('language'),
  signature: field('signature'),
}));

/** UPLOAD_BATCH_FILE: the multipart form's text fields (the file part travels beside them). */
export const batchUploadFields = pure(() => z.strictObject({ service_command: z.literal('UPLOAD_BATCH_FILE'), ...batchShape }));
/** UPLOAD_BATCH_FILE answer (50000, status 50) with the gateway's batch_id. */
export const batchUploadResponse = pure(() => z.looseObject({
  service_command: z.literal('UPLOAD_BATCH_FILE'),
  ...batchShape,
  ...outcome,
  batch_id: z.optional(field('batch_id')),
}));

/** GET_BATCH_RESULTS: validation state, then per-line results. */
export const batchResultsRequest = pure(() => z.strictObject({
  service_command: z.literal('GET_BATCH_RESULTS'),
  ...batchShape,
  batch_id: field('batch_id'),
}));
/** GET_BATCH_RESULTS answer (70000, status 70); the per-line rows' wrapping is not shown, so it is kept as sent. */
export const batchResultsResponse = pure(() => z.looseObject({
  service_command: z.literal('GET_BATCH_RESULTS'),
  ...batchShape,
  ...outcome,
  batch_id: field('batch_id'),
  transactions_count: z.optional(z.union([z.string(), z.number()])),
}));

/** PROCESS_BATCH: processes a validated batch. */
export const processBatchRequest = pure(() => z.strictObject({
  service_command: z.literal('PROCESS_BATCH'),
  ...batchShape,
  batch_id: field('batch_id'),
}));
/** PROCESS_BATCH answer (72147, status 72). */
export const processBatchResponse = pure(() => z.looseObject({
  service_command: z.literal('PROCESS_BATCH'),
  ...batchShape,
  ...outcome,
  batch_id: z.optional(field('batch_id')),
}));

// ---- Types ----

export type WireAmount = z.infer<typeof wireAmount>;
export type HostedPaymentRequest = z.infer<typeof hostedPaymentRequest>;
export type TokenizationMerchantFields = z.infer<typeof tokenizationMerchantFields>;
export type TokenizationRequest = z.infer<typeof tokenizationRequest>;
export type InstallmentsMerchantPageMerchantFields = z.infer<typeof installmentsMerchantPageMerchantFields>;
export type InstallmentsMerchantPageRequest = z.infer<typeof installmentsMerchantPageRequest>;
export type HostedPageResponse = z.infer<typeof hostedPageResponse>;
export type CaptureRequest = z.infer<typeof captureRequest>;
export type CaptureResponse = z.infer<typeof captureResponse>;
export type RefundRequest = z.infer<typeof refundRequest>;
export type RefundResponse = z.infer<typeof refundResponse>;
export type VoidAuthorizationRequest = z.infer<typeof voidAuthorizationRequest>;
export type VoidAuthorizationResponse = z.infer<typeof voidAuthorizationResponse>;
export type InstallmentsPlansRequest = z.infer<typeof installmentsPlansRequest>;
export type InstallmentsPlansResponse = z.infer<typeof installmentsPlansResponse>;
export type InstallmentPlanDetail = z.infer<typeof installmentPlanDetail>;
export type InstallmentBin = z.infer<typeof installmentBin>;
export type InstallmentIssuerDetail = z.infer<typeof installmentIssuerDetail>;
export type TrustedChannelRequest = z.infer<typeof trustedChannelRequest>;
export type TrustedChannelResponse = z.infer<typeof trustedChannelResponse>;
export type InstallmentsDirectRequest = z.infer<typeof installmentsDirectRequest>;
export type InstallmentsDirectResponse = z.infer<typeof installmentsDirectResponse>;
export type RecurringPurchaseRequest = z.infer<typeof recurringPurchaseRequest>;
export type RecurringPurchaseResponse = z.infer<typeof recurringPurchaseResponse>;
export type BillPresentmentRequest = z.infer<typeof billPresentmentRequest>;
export type BillPresentmentResponse = z.infer<typeof billPresentmentResponse>;
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
export type CheckStatusRequest = z.infer<typeof checkStatusRequest>;
export type CheckStatusResponse = z.infer<typeof checkStatusResponse>;
export type ReportFilterEntry = z.infer<typeof reportFilterEntry>;
export type GenerateReportRequest = z.infer<typeof generateReportRequest>;
export type GenerateReportResponse = z.infer<typeof generateReportResponse>;
export type ThreeDsEnrollmentRequest = z.infer<typeof threeDsEnrollmentRequest>;
export type ThreeDsEnrollmentResponse = z.infer<typeof threeDsEnrollmentResponse>;
export type ThreeDsAuthenticationRequest = z.infer<typeof threeDsAuthenticationRequest>;
export type ThreeDsAuthenticationResponse = z.infer<typeof threeDsAuthenticationResponse>;
export type BatchUploadFields = z.infer<typeof batchUploadFields>;
export type BatchUploadResponse = z.infer<typeof batchUploadResponse>;
export type BatchResultsRequest = z.infer<typeof batchResultsRequest>;
export type BatchResultsResponse = z.infer<typeof batchResultsResponse>;
export type ProcessBatchRequest = z.infer<typeof processBatchRequest>;
export type ProcessBatchResponse = z.infer<typeof processBatchResponse>;
