/**
 * Batch service: UPLOAD_BATCH_FILE, GET_BATCH_RESULTS and PROCESS_BATCH, and the two lists a
 * results answer carries: per-line validation errors and per-line results (the spec's result
 * row). The file's own format is batch-file.ts.
 */
import * as z from 'zod/mini';
import { charsetCheck, digitsFromRule, field, FIELD_RULES, pure } from './fields.ts';
import { identity, maskedCardNumber, outcome, wireAmount } from './shared.ts';

const batchShape = pure(() => ({
  ...identity,
  batch_reference: field('batch_reference'),
  language: field('language'),
  signature: field('signature'),
  // Ours (the XML response builder): any batch answer as XML when asked.
  response_format: z.optional(field('response_format')),
}));

/** A batch's state, as GET_BATCH_RESULTS and PROCESS_BATCH report it (`batch_status`, ours). */
export const BATCH_STATUSES = ['UNDER_VALIDATION', 'VALIDATED', 'VALIDATED_WITH_ERRORS', 'PROCESSING', 'PROCESSED'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The columns of a result row, in the spec's order (Batch: "A result row after processing"). */
export const BATCH_RESULT_COLUMNS = [
  'Line_Number',
  'response_code',
  'response_message',
  'status',
  'eci',
  'svc_id',
  'merchant_reference',
  'amount',
  'card_number',
  'expiry_date',
  'currency',
] as const;
export type BatchResultColumn = (typeof BATCH_RESULT_COLUMNS)[number];

const lineNumber = pure(() => z.string().check(z.minLength(1), charsetCheck('numeric')));

/**
 * One processed line: the spec's result row. A value the line has not (the card of an order that
 * was never found, the amount of a void) is left out, and written empty in the CSV text.
 */
export const batchResultEntry = pure(() => z.strictObject({
  Line_Number: lineNumber,
  response_code: field('response_code'),
  response_message: field('response_message'),
  status: field('status'),
  eci: z.optional(field('eci')),
  svc_id: z.optional(field('svc_id')),
  merchant_reference: z.optional(field('merchant_reference')),
  amount: z.optional(wireAmount),
  card_number: z.optional(maskedCardNumber),
  expiry_date: z.optional(field('expiry_date')),
  currency: z.optional(field('currency')),
}));

/** One validation error: the file line (0 for the file as a whole, 1 for the header), the column ('' for the whole line) and the message. */
export const batchErrorEntry = pure(() => z.strictObject({
  line_number: lineNumber,
  field: z.string(),
  message: z.string().check(z.minLength(1)),
}));

/**
 * UPLOAD_BATCH_FILE: the multipart form's text fields (the file part travels beside them and is
 * not in the signature string). `file_digest` (ours, optional) is the hex digest of the file's
 * bytes with the merchant's SHA type: signed like any field, it binds the file to the signature.
 */
export const batchUploadFields = pure(() => z.strictObject({
  service_command: z.literal('UPLOAD_BATCH_FILE'),
  ...batchShape,
  file_digest: z.optional(field('file_digest')),
}));
/** UPLOAD_BATCH_FILE answer (50000, status 50) with the gateway's batch_id. */
export const batchUploadResponse = pure(() => z.looseObject({
  service_command: z.literal('UPLOAD_BATCH_FILE'),
  ...batchShape,
  ...outcome,
  file_digest: z.optional(field('file_digest')),
  batch_id: z.optional(field('batch_id')),
}));

/** GET_BATCH_RESULTS: validation state, then per-line results. */
export const batchResultsRequest = pure(() => z.strictObject({
  service_command: z.literal('GET_BATCH_RESULTS'),
  ...batchShape,
  batch_id: field('batch_id'),
}));
/**
 * GET_BATCH_RESULTS answer: 70001 while under validation; 70000 once validated (with `errors`
 * when validated with errors); 72147 while processing; 70000 with `batch_results` (the CSV text
 * of the result rows) and `rows` (the same rows as a list) once processed.
 */
export const batchResultsResponse = pure(() => z.looseObject({
  service_command: z.literal('GET_BATCH_RESULTS'),
  ...batchShape,
  ...outcome,
  batch_id: field('batch_id'),
  batch_status: z.optional(z.enum(BATCH_STATUSES)),
  transactions_count: z.optional(digitsFromRule(FIELD_RULES.transactions_count)),
  errors: z.optional(z.array(batchErrorEntry)),
  batch_results: z.optional(z.string()),
  rows: z.optional(z.array(batchResultEntry)),
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
  batch_status: z.optional(z.enum(BATCH_STATUSES)),
}));

// ---- Types ----

export type BatchResultEntry = z.infer<typeof batchResultEntry>;
export type BatchErrorEntry = z.infer<typeof batchErrorEntry>;
export type BatchUploadFields = z.infer<typeof batchUploadFields>;
export type BatchUploadResponse = z.infer<typeof batchUploadResponse>;
export type BatchResultsRequest = z.infer<typeof batchResultsRequest>;
export type BatchResultsResponse = z.infer<typeof batchResultsResponse>;
export type ProcessBatchRequest = z.infer<typeof processBatchRequest>;
export type ProcessBatchResponse = z.infer<typeof processBatchResponse>;
