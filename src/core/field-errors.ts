/**
 * Validation with field errors people can read: every zod issue becomes `{ field, rule, message }`
 * with the message in the request's language (en or ar). The field name stays in Latin letters in
 * both, since it is the wire name the merchant looks for.
 */
import type * as z from 'zod/mini';
import { formatCount, type Language } from './language.ts';
import { isCharsetIssue, type Charset, type CharsetIssue, type FieldFormat } from './schemas/index.ts';

export type { Language } from './language.ts';

/** The kind of rule a value broke. */
export type Rule =
  | 'required'
  | 'required_without'
  | 'empty'
  | 'max_length'
  | 'length'
  | 'charset'
  | 'enum'
  | 'format'
  | 'type'
  | 'unknown_field'
  | 'invalid';

export interface FieldError {
  /** Wire name of the field, with its place in lists: `products[0].product_name`. Empty for the whole input. */
  readonly field: string;
  readonly rule: Rule;
  /** "field: what is wrong", in the requested language. */
  readonly message: string;
  /** The length limit, for `max_length` and `length`. */
  readonly limit?: number;
}

export type ValidationResult<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly errors: FieldError[] };

/** What a message may say beyond the rule. */
export interface RuleDetail {
  readonly limit?: number;
  readonly values?: readonly string[];
  readonly allowed?: Pick<CharsetIssue, 'charset' | 'special'>;
  readonly format?: string;
  readonly expected?: readonly string[];
  readonly other?: string;
}

/** A message per rule per language; a missing key in either language fails type-checking. */
export type MessageCatalog = Record<Language, Record<Rule, (detail: RuleDetail) => string>>;

type RestrictedCharset = Exclude<Charset, 'text'>;

/** How each character class reads inside "may contain only …" / "يجب أن يقتصر على …". */
export const CHARSET_NAMES: Record<Language, Record<RestrictedCharset, string>> = {
  en: {
    alpha: 'Latin letters',
    upper: 'capital Latin letters',
    letters: 'letters',
    numeric: 'digits 0-9',
    alphanumeric: 'Latin letters and digits',
  },
  ar: {
    alpha: 'الحروف اللاتينية',
    upper: 'الحروف اللاتينية الكبيرة',
    letters: 'الحروف',
    numeric: 'الأرقام 0-9',
    alphanumeric: 'الحروف اللاتينية والأرقام',
  },
};

/** What each whole-value format looks like, completing "must be …" / "يجب أن يكون …". */
export const FORMAT_DESCRIPTIONS: Record<Language, Record<FieldFormat, string>> = {
  en: {
    datetime_offset: 'a date and time with a time zone offset, such as 2025-01-31T23:59:59+03:00',
    yymm: 'four digits, year then month (YYMM), such as 2712',
    email: 'an email address such as name@example.com',
    month_list: 'month counts joined by hyphens, such as 3-6-12',
  },
  ar: {
    datetime_offset: 'تاريخًا ووقتًا مع فرق التوقيت، مثل 2025-01-31T23:59:59+03:00',
    yymm: 'أربعة أرقام: السنة ثم الشهر (YYMM)، مثل 2712',
    email: 'عنوان بريد إلكتروني صالحًا مثل name@example.com',
    month_list: 'أعداد أشهر مفصولة بشرطات، مثل 3-6-12',
  },
};

/** zod's expected types, completing "must be …" / "يجب أن يكون …". */
const TYPE_NAMES: Record<Language, Readonly<Record<string, string>>> = {
  en: { string: 'text', number: 'a number', int: 'a whole number', array: 'a list', object: 'an object', boolean: 'true or false' },
  ar: { string: 'نصًا', number: 'رقمًا', int: 'عددًا صحيحًا', array: 'قائمةً', object: 'كائنًا', boolean: 'قيمةً منطقية' },
};

let arabicPlurals: Intl.PluralRules | undefined;

/** "٤٠ حرفًا", "٥ أحرف", "حرفين": the counted noun takes the form Arabic grammar gives the number. */
function arabicCharacters(count: number): string {
  arabicPlurals ??= new Intl.PluralRules('ar');
  switch (arabicPlurals.select(count)) {
    case 'one':
      return 'حرف واحد';
    case 'two':
      return 'حرفين';
    case 'few':
      return `${formatCount(count, 'ar')} أحرف`;
    case 'many':
      return `${formatCount(count, 'ar')} حرفًا`;
    default:
      return `${formatCount(count, 'ar')} حرف`;
  }
}

function englishCharacters(count: number): string {
  return count === 1 ? '1 character' : `${count} characters`;
}

/** The extra characters, space-separated; the space itself is spelt out by the caller. */
function symbolsOf(special: string): string {
  return [...special].filter((c) => c !== ' ').join(' ');
}

function englishAllowed({ charset, special }: Pick<CharsetIssue, 'charset' | 'special'>): string {
  const extras = [symbolsOf(special), special.includes(' ') ? 'space' : ''].filter(Boolean).join(' and ');
  return extras ? `${CHARSET_NAMES.en[charset]}, plus ${extras}` : CHARSET_NAMES.en[charset];
}

function arabicAllowed({ charset, special }: Pick<CharsetIssue, 'charset' | 'special'>): string {
  const symbols = symbolsOf(special);
  const withSymbols = symbols ? `${CHARSET_NAMES.ar[charset]} والرموز ${symbols}` : CHARSET_NAMES.ar[charset];
  return special.includes(' ') ? `${withSymbols} والمسافة` : withSymbols;
}

function typeName(language: Language, expected: readonly string[] | undefined): string | undefined {
  const names = (expected ?? []).map((type) => TYPE_NAMES[language][type]);
  if (names.length === 0 || names.some((name) => name === undefined)) return undefined;
  return names.join(language === 'ar' ? ' أو ' : ' or ');
}

/** The messages, without the "field: " prefix. */
export const FIELD_MESSAGES: MessageCatalog = {
  en: {
    required: () => 'is required',
    required_without: ({ other }) => `is required when ${other} is not sent`,
    empty: () => 'must not be empty',
    max_length: ({ limit = 0 }) => `must be at most ${englishCharacters(limit)}`,
    length: ({ limit = 0 }) => `must be exactly ${englishCharacters(limit)}`,
    charset: ({ allowed }) => (allowed ? `may contain only ${englishAllowed(allowed)}` : 'contains characters that are not allowed'),
    enum: ({ values = [] }) => (values.length === 1 ? `must be ${values[0]}` : `must be one of: ${values.join(', ')}`),
    format: ({ format }) => {
      const description = FORMAT_DESCRIPTIONS.en[format as FieldFormat] as string | undefined;
      return description ? `must be ${description}` : 'is not in the expected format';
    },
    type: ({ expected }) => {
      const name = typeName('en', expected);
      return name ? `must be ${name}` : 'has the wrong type';
    },
    unknown_field: () => 'is not a field of this request',
    invalid: () => 'is not valid',
  },
  ar: {
    required: () => 'هذا الحقل مطلوب',
    required_without: ({ other }) => `مطلوب عند عدم إرسال ${other}`,
    empty: () => 'يجب ألا يكون فارغًا',
    max_length: ({ limit = 0 }) => `يجب ألا يزيد عن ${arabicCharacters(limit)}`,
    length: ({ limit = 0 }) => `يجب أن يتكون من ${arabicCharacters(limit)} بالضبط`,
    charset: ({ allowed }) => (allowed ? `يجب أن يقتصر على ${arabicAllowed(allowed)}` : 'يحتوي على أحرف غير مسموح بها'),
    enum: ({ values = [] }) =>
      values.length === 1 ? `يجب أن تكون القيمة ${values[0]}` : `يجب أن تكون القيمة إحدى: ${values.join('، ')}`,
    format: ({ format }) => {
      const description = FORMAT_DESCRIPTIONS.ar[format as FieldFormat] as string | undefined;
      return description ? `يجب أن يكون ${description}` : 'ليس بالصيغة المطلوبة';
    },
    type: ({ expected }) => {
      const name = typeName('ar', expected);
      return name ? `يجب أن يكون ${name}` : 'نوع القيمة غير صحيح';
    },
    unknown_field: () => 'ليس من حقول هذا الطلب',
    invalid: () => 'قيمة غير صالحة',
  },
};

/** `products[0].product_name` from zod's path. */
function fieldName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const segment of path) {
    if (typeof segment === 'number') name += `[${segment}]`;
    else name += name ? `.${String(segment)}` : String(segment);
  }
  return name;
}

/** The value at `path` within `input` (an issue's path), or undefined where nothing is. */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

interface Finding {
  readonly path: readonly PropertyKey[];
  readonly rule: Rule;
  readonly detail: RuleDetail;
}

/** The rules an issue stands for; a union answers with the branch whose type matched. */
function findings(issue: z.core.$ZodIssue, input: unknown, prefix: readonly PropertyKey[]): Finding[] {
  const path = [...prefix, ...issue.path];
  switch (issue.code) {
    case 'invalid_type':
      if (valueAt(input, path) === undefined) return [{ path, rule: 'required', detail: {} }];
      return [{ path, rule: 'type', detail: { expected: [issue.expected] } }];
    case 'too_big':
      if (issue.origin === 'string' || issue.origin === 'array') {
        const limit = Number(issue.maximum);
        return [{ path, rule: issue.exact ? 'length' : 'max_length', detail: { limit } }];
      }
      return [{ path, rule: 'invalid', detail: {} }];
    case 'too_small':
      if (issue.exact) return [{ path, rule: 'length', detail: { limit: Number(issue.minimum) } }];
      if (Number(issue.minimum) === 1 && (issue.origin === 'string' || issue.origin === 'array')) {
        return [{ path, rule: 'empty', detail: {} }];
      }
      return [{ path, rule: 'invalid', detail: {} }];
    case 'invalid_format':
      if (isCharsetIssue(issue)) {
        return [{ path, rule: 'charset', detail: { allowed: { charset: issue.charset, special: issue.special } } }];
      }
      return [{ path, rule: 'format', detail: { format: issue.format } }];
    case 'invalid_value':
      if (valueAt(input, path) === undefined) return [{ path, rule: 'required', detail: {} }];
      return [{ path, rule: 'enum', detail: { values: issue.values.map(String) } }];
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ path: [...path, key], rule: 'unknown_field' as const, detail: {} }));
    case 'invalid_union': {
      const typeMismatch = (branch: readonly z.core.$ZodIssue[]) =>
        branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0);
      const matched = issue.errors.find((branch) => !typeMismatch(branch));
      if (matched) return matched.flatMap((inner) => findings(inner, input, path));
      if (valueAt(input, path) === undefined) return [{ path, rule: 'required', detail: {} }];
      const expected = issue.errors.flatMap((branch) =>
        branch.flatMap((inner) => (inner.code === 'invalid_type' && inner.path.length === 0 ? [inner.expected] : [])),
      );
      return [{ path, rule: 'type', detail: { expected } }];
    }
    case 'custom': {
      const params = issue.params as { rule?: unknown; other?: unknown } | undefined;
      if (params?.rule === 'required_without' && typeof params.other === 'string') {
        return [{ path, rule: 'required_without', detail: { other: params.other } }];
      }
      return [{ path, rule: 'invalid', detail: {} }];
    }
    default:
      return [{ path, rule: 'invalid', detail: {} }];
  }
}

/** One field error, its message in `language`: "merchant_reference: must be at most 40 characters". */
export function fieldError(field: string, rule: Rule, detail: RuleDetail, language: Language): FieldError {
  const text = FIELD_MESSAGES[language][rule](detail);
  const message = field ? `${field}: ${text}` : text;
  return detail.limit === undefined ? { field, rule, message } : { field, rule, message, limit: detail.limit };
}

/** The field errors of a failed parse of `input`. */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[], input: unknown, language: Language): FieldError[] {
  return issues
    .flatMap((issue) => findings(issue, input, []))
    .map(({ path, rule, detail }) => fieldError(fieldName(path), rule, detail, language));
}

/** Parses `input` with `schema`: the typed data, or every broken rule as a localized field error. */
export function validate<S extends z.ZodMiniType>(
  schema: S,
  input: unknown,
  language: Language,
): ValidationResult<z.infer<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data as z.infer<S> };
  return { ok: false, errors: toFieldErrors(result.error.issues, input, language) };
}
