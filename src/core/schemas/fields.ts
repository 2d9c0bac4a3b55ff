/**
 * The field rules of the gateway's wire shapes (spec, "Resources and their fields" and "Limits"):
 * every field constraint lives once, in `FIELD_RULES`, and the request and response schemas of
 * each resource (the other files of this folder) are built from it.
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
import { MAX_AMOUNT_DIGITS } from '../amounts.ts';
import { YYMM } from '../card-number.ts';
import { pure } from './pure.ts';

export { pure } from './pure.ts';

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
  // Letters of any script: the SDKs pass the name unchecked and the plugins send shops' billing
  // names as typed (docs/decisions.md). A merchant's name is cleaned for it by customer-name.ts.
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
  // HOSTED is what the official SDKs send for merchant page 2.0 installments (an open point of the spec).
  installments: { charset: 'alpha', maxLength: 10, values: ['STANDALONE', 'YES', 'HOSTED'] },
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
  // Batch and reporting: the spec gives no types; the docs mirror gives batch_reference
  // alphanumeric with - _ . / (at most 20) and batch_id numeric (at most 20). Ours: file_digest,
  // the hex digest of an uploaded batch file (SHA-256 or SHA-512), and file_format of a report download.
  batch_reference: { charset: 'alphanumeric', special: '-_./', maxLength: 20 },
  batch_id: { charset: 'numeric', maxLength: 20 },
  file_digest: { charset: 'alphanumeric', maxLength: 128 },
  file_format: { charset: 'alpha', values: ['CSV', 'JSON', 'XML'] },
  transactions_count: { charset: 'numeric', maxLength: 10 },
  merchant_3ds_url: { charset: 'text' },
  third_party_body: { charset: 'text' },
  threeds_id: { charset: 'text' },
  // Ours, from the open points the official SDKs and their plugins settle (docs/decisions.md).
  maintenance_reference: { charset: 'text', maxLength: 100 },
  check_3ds: { charset: 'alpha', values: ['YES', 'NO'] },
  token_status: { charset: 'alpha', values: ['ACTIVE', 'INACTIVE'] },
  new_token_name: { charset: 'alphanumeric', special: '.@-_', maxLength: 100 },
  card_bin: { charset: 'numeric', maxLength: 8 },
  card_brand: { charset: 'text' },
  creation_date: { charset: 'alphanumeric', special: '-+:', format: 'datetime_offset' },
  data_count: { charset: 'numeric' },
  converted_currency: { charset: 'upper', length: 3 },
  converted_amount: { charset: 'numeric' },
  conversion_rate: { charset: 'numeric', special: '.' },
  // External MPI and 3-D Secure authentication results.
  '3ds_enrolled': { charset: 'alpha', values: ['Y', 'N'] },
  '3ds_status': { charset: 'alpha', values: ['Y', 'N', 'U', 'A'] },
  '3ds_eci': { charset: 'numeric', length: 2 },
  '3ds_xid': { charset: 'text', maxLength: 100 },
  ver_token: { charset: 'text', maxLength: 100 },
  MD: { charset: 'text' },
  PaRes: { charset: 'text' },
  // The PHP SDK's redirection list sends it (SADAD online payment id).
  sadad_olp: { charset: 'text', maxLength: 12 },
} as const satisfies Record<string, FieldRule>;

// ---- Optional fields the official SDKs send ----

/** Where the official SDKs send an optional field: its group is spread into those operations' request schemas. */
export type SdkFieldGroup =
  /** The PHP SDK's common optional list: every AUTHORIZATION / PURCHASE, hosted page and paymentApi. */
  | 'order'
  /** The integration's name and version: always sent by the .NET SDK, and by the plugins, on AUTHORIZATION / PURCHASE. */
  | 'app'
  /** The .NET SDK's fraud-screening families, on paymentApi AUTHORIZATION / PURCHASE. */
  | 'fraud_screening';

export interface SdkFieldRule extends FieldRule {
  readonly sentWith: SdkFieldGroup;
}

type FraudExtraNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21 | 22 | 23 | 24 | 25;
type FraudExtraName = `fraud_extra${FraudExtraNumber}`;

const address = { charset: 'text', maxLength: 100 } as const;
const countryCode = { charset: 'upper', maxLength: 3 } as const;
const email = { charset: 'alphanumeric', special: '_-.@+', maxLength: 254, format: 'email' } as const;
const fraud = <R extends FieldRule>(rule: R) => ({ ...rule, sentWith: 'fraud_screening' }) as const;
const order = <R extends FieldRule>(rule: R) => ({ ...rule, sentWith: 'order' }) as const;
const app = { charset: 'text', maxLength: 50, sentWith: 'app' } as const;

const FRAUD_EXTRAS = pure(() => Object.fromEntries(
  Array.from({ length: 25 }, (_, i) => [`fraud_extra${i + 1}`, fraud({ charset: 'text', maxLength: 255 })]),
)) as Record<FraudExtraName, { readonly charset: 'text'; readonly maxLength: 255; readonly sentWith: 'fraud_screening' }>;

/**
 * The optional fields the official SDKs send beyond the spec's tables, each with its rule and where
 * it is sent (docs/decisions.md: the PHP SDK's PaymentTypeAdapter common optional list, the app_*
 * fields the .NET SDK and the plugins send, the .NET SDK's fraud-screening families). Accepted and
 * echoed like any field; a name in neither table is still refused as unknown.
 */
export const SDK_OPTIONAL_FIELDS = pure(() => ({
  billing_stateProvince: order(address),
  billing_provinceCode: order(address),
  billing_street: order(address),
  billing_street2: order(address),
  billing_postcode: order({ charset: 'text', maxLength: 20 }),
  billing_country: order(countryCode),
  billing_company: order(address),
  billing_city: order(address),
  shipping_stateProvince: order(address),
  shipping_provinceCode: order(address),
  shipping_street: order(address),
  shipping_street2: order(address),
  shipping_source: order(address),
  shipping_sameAsBilling: order({ charset: 'text', maxLength: 10 }),
  shipping_postcode: order({ charset: 'text', maxLength: 20 }),
  shipping_country: order(countryCode),
  shipping_company: order(address),
  shipping_city: order(address),
  agreement_id: order({ charset: 'text', maxLength: 100 }),
  recurring_mode: order({ charset: 'alpha', special: '_', maxLength: 20 }),
  recurring_transactions_count: order({ charset: 'numeric', maxLength: 10 }),
  app_programming: app,
  app_framework: app,
  app_ver: app,
  app_plugin: app,
  app_plugin_version: app,
  customer_type: fraud(address),
  customer_id: fraud(address),
  customer_first_name: fraud(address),
  customer_middle_initial: fraud(address),
  customer_last_name: fraud(address),
  customer_address1: fraud(address),
  customer_address2: fraud(address),
  customer_apartment_no: fraud(address),
  customer_city: fraud(address),
  customer_state: fraud(address),
  customer_zip_code: fraud({ charset: 'text', maxLength: 20 }),
  customer_phone: fraud({ charset: 'text', maxLength: 30 }),
  customer_alt_phone: fraud({ charset: 'text', maxLength: 30 }),
  customer_date_birth: fraud({ charset: 'text', maxLength: 20 }),
  ship_type: fraud(address),
  ship_first_name: fraud(address),
  ship_middle_name: fraud(address),
  ship_last_name: fraud(address),
  ship_address1: fraud(address),
  ship_address2: fraud(address),
  ship_apartment_no: fraud(address),
  ship_address_city: fraud(address),
  ship_address_state: fraud(address),
  ship_zip_code: fraud({ charset: 'text', maxLength: 20 }),
  ship_country_code: fraud(countryCode),
  ship_phone: fraud({ charset: 'text', maxLength: 30 }),
  ship_alt_phone: fraud({ charset: 'text', maxLength: 30 }),
  ship_email: fraud(email),
  ship_comments: fraud({ charset: 'text', maxLength: 255 }),
  ship_method: fraud(address),
  item_quantity: fraud({ charset: 'text', maxLength: 255 }),
  item_sku: fraud({ charset: 'text', maxLength: 255 }),
  item_prod_code: fraud({ charset: 'text', maxLength: 255 }),
  item_part_no: fraud({ charset: 'text', maxLength: 255 }),
  item_description: fraud({ charset: 'text', maxLength: 255 }),
  item_price: fraud({ charset: 'text', maxLength: 255 }),
  item_shipping_no: fraud({ charset: 'text', maxLength: 255 }),
  item_shipping_method: fraud({ charset: 'text', maxLength: 255 }),
  item_shipping_comments: fraud({ charset: 'text', maxLength: 255 }),
  item_gift_msg: fraud({ charset: 'text', maxLength: 255 }),
  rcpt_title: fraud(address),
  rcpt_first_name: fraud(address),
  rcpt_middle_initial: fraud(address),
  rcpt_last_name: fraud(address),
  rcpt_apartment_no: fraud(address),
  rcpt_address1: fraud(address),
  rcpt_address2: fraud(address),
  rcpt_city: fraud(address),
  rcpt_state: fraud(address),
  rcpt_zip_code: fraud({ charset: 'text', maxLength: 20 }),
  rcpt_country_code: fraud(countryCode),
  rcpt_phone: fraud({ charset: 'text', maxLength: 30 }),
  rcpt_email: fraud(email),
  ...FRAUD_EXTRAS,
  cart_details: fraud({ charset: 'text', maxLength: 4000 }),
  device_fingerprint: fraud({ charset: 'text', maxLength: 4000 }),
}) as const satisfies Record<string, SdkFieldRule>);

export type SdkFieldName = keyof typeof SDK_OPTIONAL_FIELDS;

/** The names of one group of {@link SDK_OPTIONAL_FIELDS}. */
export type SdkFieldNameOf<G extends SdkFieldGroup> = {
  [N in SdkFieldName]: (typeof SDK_OPTIONAL_FIELDS)[N]['sentWith'] extends G ? N : never;
}[SdkFieldName];

/** A schema shape of every field of one SDK group, each optional, to spread into a request schema. */
/* @__NO_SIDE_EFFECTS__ */
export function sdkOptionalFields<G extends SdkFieldGroup>(
  group: G,
): { [N in SdkFieldNameOf<G>]: z.ZodMiniOptional<z.ZodMiniType<string, string>> } {
  const shape: Record<string, z.ZodMiniOptional<z.ZodMiniType<string, string>>> = {};
  for (const [name, rule] of Object.entries(SDK_OPTIONAL_FIELDS) as [SdkFieldName, SdkFieldRule][]) {
    if (rule.sentWith === group) shape[name] = z.optional(fieldFromRule(rule));
  }
  return shape as { [N in SdkFieldNameOf<G>]: z.ZodMiniOptional<z.ZodMiniType<string, string>> };
}

export type FieldName = keyof typeof FIELD_RULES;

/** The value type a field's rule admits: its listed values, or a string. */
export type FieldValue<N extends FieldName> = (typeof FIELD_RULES)[N] extends { readonly values: readonly (infer V)[] }
  ? V
  : string;

const FORMAT_PATTERNS: Record<FieldFormat, RegExp> = {
  // YYYY-MM-DDThh:mm:ss+hh:mm exactly (General rules 5); 25 characters, the bill's limit.
  datetime_offset:
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d[+-]([01]\d|2[0-3]):[0-5]\d$/,
  yymm: YYMM,
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
export function charsetCheck(charset: Exclude<Charset, 'text'>, special = ''): z.core.$ZodCheck<string> {
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

/** The pattern of a field format, for a check outside zod (an HTML form's `pattern` attribute). */
export function formatPattern(format: FieldFormat): RegExp {
  return FORMAT_PATTERNS[format];
}

/** A whole-value shape check raising `invalid_format` with the format's name. */
/* @__NO_SIDE_EFFECTS__ */
export function formatCheck(format: FieldFormat): z.core.$ZodCheck<string> {
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
