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

/**
 * Runs `build` at once. Bundlers take the call as pure, so a bundle drops every schema it does not
 * use: a bare object spread or `.check()` at module level would be kept as a possible side effect.
 */
/* @__NO_SIDE_EFFECTS__ */
export function pure<T>(build: () => T): T {
  return build();
}

