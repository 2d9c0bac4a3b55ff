/**
 * The batch file and its results (spec, Batch: the layout of the file is an open point, decided in
 * docs/decisions.md). The sandbox reads files with it, and a back-office client builds them with it.
 *
 * The file: CSV per RFC 4180 (csv.ts) in UTF-8, a byte order mark tolerated; comma-delimited;
 * values double-quoted where they hold a comma, a quote or a line break; LF or CRLF line ends; a
 * header row naming the columns, so that the merchant chooses their order (docs mirror: "You will
 * specify the order of the fields"); then one transaction per line, at most MAX_BATCH_LINES lines
 * and MAX_BATCH_FILE_BYTES bytes. A column name is the wire name of the single request's field;
 * an empty value is a field not sent. A line is a recurring PURCHASE with a token, or a CAPTURE,
 * REFUND or VOID_AUTHORIZATION of an order: the single request without the fields the upload
 * carries for every line (access_code, merchant_identifier, language, signature), validated by
 * that request's own schema, so that each field rule lives once. Lines are numbered as the file's
 * lines, the header being line 1 (the docs mirror's results start at 2); line 0 is the whole file.
 *
 * The results: the spec's columns in its order, every value double-quoted, CRLF line ends.
 *
 * The column of the gateway's reference of an order is named as the wire names that field
 * (`svc_id`, or `fort_id` for the live gateway: wire-names.ts): a file is read under the name its
 * gateway uses, and its errors name the column so; inside, the line's field is `svc_id`.
 */
import { parseCsv, writeCsv, type CsvProblem } from './csv.ts';
import { fieldError, validate, type FieldError, type ValidationResult } from './field-errors.ts';
import { formatCount, type Language } from './language.ts';
import { DEFAULT_GATEWAY_REFERENCE_FIELD, fromWireName, toWireFieldError, type GatewayReferenceField } from './wire-names.ts';
import {
  BATCH_RESULT_COLUMNS,
  captureRequest,
  recurringPurchaseRequest,
  refundRequest,
  voidAuthorizationRequest,
  type BatchResultEntry,
  type CaptureRequest,
  type RecurringPurchaseRequest,
  type RefundRequest,
  type VoidAuthorizationRequest,
} from './schemas/index.ts';

/** Lines after the header row (the spec leaves the maximum open). */
export const MAX_BATCH_LINES = 10_000;
/** Bytes of a file: 5 MiB, some 500 bytes for each of the 10,000 lines. */
export const MAX_BATCH_FILE_BYTES = 5 * 1024 * 1024;

export const BATCH_COMMANDS = ['PURCHASE', 'CAPTURE', 'REFUND', 'VOID_AUTHORIZATION'] as const;
export type BatchCommand = (typeof BATCH_COMMANDS)[number];

/** What the upload carries for every line; a file never names these columns. */
export const UPLOAD_SUPPLIED_FIELDS = ['access_code', 'merchant_identifier', 'language', 'signature'] as const;
type UploadSupplied = (typeof UPLOAD_SUPPLIED_FIELDS)[number];

/** A recurring PURCHASE line; eci is RECURRING when the line leaves it empty. */
export type BatchPurchaseLine = Omit<RecurringPurchaseRequest, UploadSupplied | 'eci'> & { readonly eci?: 'RECURRING' | undefined };
export type BatchCaptureLine = Omit<CaptureRequest, UploadSupplied>;
export type BatchRefundLine = Omit<RefundRequest, UploadSupplied>;
export type BatchVoidLine = Omit<VoidAuthorizationRequest, UploadSupplied>;
export type BatchLine = BatchPurchaseLine | BatchCaptureLine | BatchRefundLine | BatchVoidLine;

/** What the upload gives every line: its identity and language. */
export interface BatchLineContext {
  readonly access_code: string;
  readonly merchant_identifier: string;
  readonly language: Language;
  /** The name of the gateway's reference column in the file, as its gateway names the field (default `svc_id`). */
  readonly gatewayReferenceField?: GatewayReferenceField;
}

// ---- Errors ----

export type BatchFileProblem =
  | CsvProblem
  | 'too_large'
  | 'encoding'
  | 'empty'
  | 'no_lines'
  | 'too_many_lines'
  | 'unknown_column'
  | 'duplicate_column'
  | 'missing_column'
  | 'value_count'
  | 'duplicate_reference';

interface ProblemDetail {
  readonly limit?: number;
  readonly line?: number;
  readonly expected?: number;
  readonly actual?: number;
}

/** The messages of the file's own problems (a field's broken rule speaks through field-errors.ts). */
export const BATCH_FILE_MESSAGES: Record<Language, Record<BatchFileProblem, (detail: ProblemDetail) => string>> = {
  en: {
    too_large: ({ limit = 0 }) => `the file is larger than ${limit} bytes`,
    encoding: () => 'the file is not UTF-8 text',
    empty: () => 'the file is empty; it needs a header row and at least one line',
    no_lines: () => 'the file has a header row but no line',
    too_many_lines: ({ limit = 0 }) => `the file has more than ${limit} lines after the header row`,
    unterminated_quote: () => 'a quoted value is never closed',
    stray_quote: () => 'a double quote inside a value that is not quoted; quote the value and double the quote',
    text_after_quote: () => 'text follows the closing quote of a value',
    unknown_column: () => 'is not a column of a batch file',
    duplicate_column: () => 'appears twice in the header row',
    missing_column: () => 'is a column every batch file needs',
    value_count: ({ expected = 0, actual = 0 }) => `the line has ${actual} values; the header row names ${expected} columns`,
    duplicate_reference: ({ line = 0 }) => `is already used by line ${line} of this file`,
  },
  ar: {
    too_large: ({ limit = 0 }) => `حجم الملف يتجاوز الحد الأقصى (${formatCount(limit, 'ar')} بايت)`,
    encoding: () => 'الملف ليس نصًا بترميز UTF-8',
    empty: () => 'الملف فارغ؛ يلزم سطر العناوين وسطر واحد على الأقل',
    no_lines: () => 'يحتوي الملف على سطر العناوين دون أي سطر بعده',
    too_many_lines: ({ limit = 0 }) => `عدد الأسطر بعد سطر العناوين يتجاوز الحد الأقصى (${formatCount(limit, 'ar')})`,
    unterminated_quote: () => 'قيمة بين علامتي تنصيص لم تُغلق',
    stray_quote: () => 'علامة تنصيص داخل قيمة غير محاطة بعلامتي تنصيص؛ أحط القيمة بعلامتي تنصيص وكرر العلامة',
    text_after_quote: () => 'نص بعد علامة التنصيص التي تغلق القيمة',
    unknown_column: () => 'ليس من أعمدة ملف الدفعة',
    duplicate_column: () => 'مكرر في سطر العناوين',
    missing_column: () => 'عمود مطلوب في كل ملف دفعة',
    value_count: ({ expected = 0, actual = 0 }) =>
      `عدد القيم في السطر ${formatCount(actual, 'ar')} وعدد الأعمدة في سطر العناوين ${formatCount(expected, 'ar')}`,
    duplicate_reference: ({ line = 0 }) => `مستخدم من قبل في السطر ${formatCount(line, 'ar')} من هذا الملف`,
  },
};

/** An error of a batch file: its line (0 for the whole file, 1 for the header), the column ('' for none) and the message. */
export interface BatchError {
  readonly line: number;
  readonly field: string;
  readonly message: string;
}

/** One problem of the file, its message in `language`: "svc_id: appears twice in the header row". */
export function batchFileError(
  line: number,
  field: string,
  problem: BatchFileProblem,
  detail: ProblemDetail,
  language: Language,
): BatchError {
  const text = BATCH_FILE_MESSAGES[language][problem](detail);
  return { line, field, message: field ? `${field}: ${text}` : text };
}

function lineErrors(line: number, errors: readonly FieldError[], field: GatewayReferenceField): BatchError[] {
  return errors.map((error) => toWireFieldError(error, field)).map((error) => ({ line, field: error.field, message: error.message }));
}

// ---- Columns ----

/** The columns a built file starts with, in this order; any other follows in order of first use. */
const LEADING_COLUMNS = ['command', 'merchant_reference', 'svc_id', 'token_name', 'eci', 'amount', 'currency'];

let knownColumns: ReadonlySet<string> | undefined;

/** Every column a batch file may name: the fields of the four requests, less those the upload carries. */
export function batchColumns(): ReadonlySet<string> {
  knownColumns ??= new Set(
    [recurringPurchaseRequest, captureRequest, refundRequest, voidAuthorizationRequest]
      .flatMap((schema) => Object.keys(schema.shape))
      .filter((name) => !(UPLOAD_SUPPLIED_FIELDS as readonly string[]).includes(name)),
  );
  return knownColumns;
}

function isBatchCommand(value: string): value is BatchCommand {
  return (BATCH_COMMANDS as readonly string[]).includes(value);
}

// ---- Building ----

/** The text of a batch file: a header row naming the columns the lines use, then one line each. */
export function buildBatchFile(lines: readonly BatchLine[]): string {
  const used = new Set<string>();
  for (const line of lines) {
    for (const [name, value] of Object.entries(line)) if (value !== undefined) used.add(name);
  }
  const columns = [...LEADING_COLUMNS.filter((name) => used.has(name)), ...[...used].filter((name) => !LEADING_COLUMNS.includes(name))];
  if (!columns.includes('command')) columns.unshift('command');
  const values = (line: BatchLine): string[] =>
    columns.map((name) => {
      const value = (line as Readonly<Record<string, unknown>>)[name];
      return value === undefined ? '' : String(value);
    });
  return writeCsv([columns, ...lines.map(values)]);
}

// ---- Reading ----

/** A line as read: its number and its non-empty values by column. */
export interface BatchFileLine {
  readonly line: number;
  readonly fields: Readonly<Record<string, string>>;
}

export interface BatchFileReading {
  /** The header row, when it could be read, as the file names its columns. */
  readonly columns: readonly string[];
  /** The lines with as many values as there are columns, their fields under the inside names (`svc_id`). */
  readonly lines: readonly BatchFileLine[];
  /** Lines after the header, readable or not. */
  readonly transactionsCount: number;
  readonly errors: readonly BatchError[];
}

const fileProblem = (problem: BatchFileProblem, detail: ProblemDetail, language: Language, line = 0): BatchFileReading => ({
  columns: [],
  lines: [],
  transactionsCount: 0,
  errors: [batchFileError(line, '', problem, detail, language)],
});

/**
 * Reads a file into lines; every problem of its encoding, CSV, header or line count is an error.
 * `field` is the name the file's gateway gives its reference of an order.
 */
export function parseBatchFile(
  input: Uint8Array | string,
  language: Language,
  field: GatewayReferenceField = DEFAULT_GATEWAY_REFERENCE_FIELD,
): BatchFileReading {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  if (bytes.length > MAX_BATCH_FILE_BYTES) return fileProblem('too_large', { limit: MAX_BATCH_FILE_BYTES }, language);
  let text: string;
  try {
    // fatal: a byte sequence that is not UTF-8 is refused, not replaced; the BOM is dropped.
    text = typeof input === 'string' ? input.replace(/^\ufeff/, '') : new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return fileProblem('encoding', {}, language);
  }
  const reading = parseCsv(text);
  if (!reading.ok) return fileProblem(reading.problem, {}, language, reading.line);
  const [header, ...records] = reading.records;
  if (!header) return fileProblem('empty', {}, language);

  const columns = header.values;
  // Each column under its inside name; the reference under the name this gateway does not use is unknown.
  const inside = columns.map((name) => fromWireName(name, field));
  const errors: BatchError[] = [];
  const known = batchColumns();
  const seen = new Set<string>();
  columns.forEach((name, index) => {
    const column = inside[index];
    if (column === undefined || !known.has(column)) errors.push(batchFileError(header.line, name, 'unknown_column', {}, language));
    else if (seen.has(column)) errors.push(batchFileError(header.line, name, 'duplicate_column', {}, language));
    if (column !== undefined) seen.add(column);
  });
  if (!seen.has('command')) errors.push(batchFileError(header.line, 'command', 'missing_column', {}, language));
  if (errors.length > 0) return { columns, lines: [], transactionsCount: records.length, errors };
  if (records.length === 0) return fileProblem('no_lines', {}, language, header.line);
  const beyond = records[MAX_BATCH_LINES];
  if (beyond) {
    return { ...fileProblem('too_many_lines', { limit: MAX_BATCH_LINES }, language, beyond.line), transactionsCount: records.length };
  }

  const lines: BatchFileLine[] = [];
  for (const record of records) {
    if (record.values.length !== columns.length) {
      const detail = { expected: columns.length, actual: record.values.length };
      errors.push(batchFileError(record.line, '', 'value_count', detail, language));
      continue;
    }
    const fields: Record<string, string> = {};
    record.values.forEach((value, index) => {
      if (value !== '') fields[inside[index] as string] = value;
    });
    lines.push({ line: record.line, fields });
  }
  return { columns, lines, transactionsCount: records.length, errors };
}

// A line has no signature of its own: the upload's signature covers the file (and its digest), so
// the schema's rule for `signature` is met by this stand-in.
const LINE_SIGNATURE = '0';

function withoutUploadFields(request: Readonly<Record<string, unknown>>): BatchLine {
  const line: Record<string, unknown> = { ...request };
  for (const name of UPLOAD_SUPPLIED_FIELDS) delete line[name];
  return line as BatchLine;
}

/**
 * A line's fields as the request they stand for, validated by that request's schema: the field
 * errors (localized, named by column) a single request with these fields would earn.
 */
export function validateBatchLine(fields: Readonly<Record<string, string>>, context: BatchLineContext): ValidationResult<BatchLine> {
  const { language } = context;
  const command = fields['command'];
  if (command === undefined) return { ok: false, errors: [fieldError('command', 'required', {}, language)] };
  if (!isBatchCommand(command)) return { ok: false, errors: [fieldError('command', 'enum', { values: BATCH_COMMANDS }, language)] };
  const input: Record<string, string> = {
    ...fields,
    access_code: context.access_code,
    merchant_identifier: context.merchant_identifier,
    language,
    signature: LINE_SIGNATURE,
  };
  if (command === 'PURCHASE' && input['eci'] === undefined) input['eci'] = 'RECURRING';
  const result =
    command === 'PURCHASE'
      ? validate(recurringPurchaseRequest, input, language)
      : command === 'CAPTURE'
        ? validate(captureRequest, input, language)
        : command === 'REFUND'
          ? validate(refundRequest, input, language)
          : validate(voidAuthorizationRequest, input, language);
  return result.ok ? { ok: true, data: withoutUploadFields(result.data) } : result;
}

export interface ValidBatchLine {
  readonly line: number;
  readonly request: BatchLine;
}

export interface BatchFileValidation {
  /** The lines that passed, in file order (all of them when `errors` is empty). */
  readonly lines: readonly ValidBatchLine[];
  readonly transactionsCount: number;
  /** Every problem, by line. */
  readonly errors: readonly BatchError[];
}

/**
 * The validation the spec gives GET_BATCH_RESULTS: the file's format, every line's fields, and
 * that each transaction has its own merchant_reference (a second line naming one is an error).
 */
export function validateBatchFile(input: Uint8Array | string, context: BatchLineContext): BatchFileValidation {
  const field = context.gatewayReferenceField ?? DEFAULT_GATEWAY_REFERENCE_FIELD;
  const reading = parseBatchFile(input, context.language, field);
  const errors = [...reading.errors];
  const lines: ValidBatchLine[] = [];
  const firstUse = new Map<string, number>();
  for (const { line, fields } of reading.lines) {
    const result = validateBatchLine(fields, context);
    const reference = fields['merchant_reference'];
    const earlier = reference === undefined ? undefined : firstUse.get(reference);
    if (reference !== undefined && earlier === undefined) firstUse.set(reference, line);
    if (!result.ok) errors.push(...lineErrors(line, result.errors, field));
    if (earlier !== undefined) {
      errors.push(batchFileError(line, 'merchant_reference', 'duplicate_reference', { line: earlier }, context.language));
    } else if (result.ok) {
      lines.push({ line, request: result.data });
    }
  }
  errors.sort((a, b) => a.line - b.line);
  return { lines, transactionsCount: reading.transactionsCount, errors };
}

// ---- Results ----

/** The results as the spec delivers them: a header row of its columns, then every row, every value quoted. */
export function writeBatchResults(rows: readonly BatchResultEntry[]): string {
  const values = (row: BatchResultEntry): string[] =>
    BATCH_RESULT_COLUMNS.map((column) => {
      const value = row[column];
      return value === undefined ? '' : String(value);
    });
  return writeCsv([BATCH_RESULT_COLUMNS, ...rows.map(values)], 'always');
}

/** A results text that is not the spec's rows. */
export class BatchResultsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchResultsError';
  }
}

/** Reads results written by {@link writeBatchResults} (or the gateway); empty values are left out. Throws BatchResultsError. */
export function readBatchResults(text: string): BatchResultEntry[] {
  const reading = parseCsv(text);
  if (!reading.ok) throw new BatchResultsError(`line ${reading.line}: ${reading.problem}`);
  const [header, ...records] = reading.records;
  if (!header || header.values.join(',') !== BATCH_RESULT_COLUMNS.join(',')) {
    throw new BatchResultsError(`the header row must be ${BATCH_RESULT_COLUMNS.join(',')}`);
  }
  return records.map((record) => {
    if (record.values.length !== BATCH_RESULT_COLUMNS.length) {
      throw new BatchResultsError(`line ${record.line}: ${record.values.length} values, expected ${BATCH_RESULT_COLUMNS.length}`);
    }
    const row: Record<string, string> = {};
    BATCH_RESULT_COLUMNS.forEach((column, index) => {
      const value = record.values[index];
      if (value) row[column] = value;
    });
    return row as BatchResultEntry;
  });
}
