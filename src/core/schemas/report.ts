/** Reporting: GENERATE_REPORT, and DOWNLOAD_REPORT (ours: the spec leaves the download open). */
import * as z from 'zod/mini';
import { digitsFromRule, field, FIELD_RULES, pure } from './fields.ts';
import { identity, outcome } from './shared.ts';

/** The spec's column names (Report, "Column names seen"), in its order: the default columns. */
export const REPORT_SPEC_COLUMNS = [
  'order_description',
  'customer_ip',
  'eci',
  'geolocation_ip',
  'merchant_reference',
  'card_holder_name',
  'currency',
  'amount',
  'payment_option',
  'svc_id',
  'customer_email',
  'customer_name',
  'operation',
] as const;

/**
 * Every column a report may name: the spec's, then columns of the docs mirror's list that an
 * order's operations carry (their date, outcome, card and authorization). Also the filter keys.
 */
export const REPORT_COLUMNS = [
  ...REPORT_SPEC_COLUMNS,
  'transaction_date',
  'order_date',
  'response_code',
  'response_message',
  'status',
  'authorization_code',
  'card_number',
  'expiry_date',
  'token_name',
] as const;
export type ReportColumn = (typeof REPORT_COLUMNS)[number];

const reportShape = pure(() => ({
  query_command: z.literal('GENERATE_REPORT'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  from_date: field('from_date'),
  to_date: field('to_date'),
  // Optional, JSON when absent (docs mirror: "The default response format is JSON").
  response_format: z.optional(field('response_format')),
  language: field('language'),
  signature: field('signature'),
}));

/** A report filter, e.g. `{ key: 'currency', value: 'EGP' }`: the key is a column name. */
export const reportFilterEntry = pure(() => z.strictObject({
  key: z.enum(REPORT_COLUMNS),
  value: z.string().check(z.minLength(1)),
}));

/** to_date must not be before from_date. Both have the spec's shape, which `Date.parse` reads exactly. */
const windowInOrder = pure(() => z.check<{ from_date: string; to_date: string }>((payload) => {
  const from = Date.parse(payload.value.from_date);
  const to = Date.parse(payload.value.to_date);
  if (Number.isFinite(from) && Number.isFinite(to) && to < from) {
    payload.issues.push({ code: 'custom', path: ['to_date'], input: payload.value.to_date });
  }
}));

/**
 * GENERATE_REPORT. Columns and filters are optional (without columns, the spec's are used); a
 * list that is sent is not empty.
 */
export const generateReportRequest = pure(() => z.strictObject({
  ...reportShape,
  columns: z.optional(z.array(z.enum(REPORT_COLUMNS)).check(z.minLength(1))),
  filters: z.optional(z.array(reportFilterEntry).check(z.minLength(1))),
}).check(windowInOrder));

/** GENERATE_REPORT answer (56000, status 56); `transactions_count` (ours) is the report's number of rows. */
export const generateReportResponse = pure(() => z.looseObject({
  ...reportShape,
  ...outcome,
  transactions_count: z.optional(digitsFromRule(FIELD_RULES.transactions_count)),
}));

const downloadShape = pure(() => ({
  query_command: z.literal('DOWNLOAD_REPORT'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  file_format: field('file_format'),
  language: field('language'),
  signature: field('signature'),
}));

/**
 * DOWNLOAD_REPORT (ours) on reportingApi: the report generated under this merchant_reference, as
 * a CSV, JSON or XML file. The answer is the file itself; report-file.ts says how it is verified.
 */
export const downloadReportRequest = pure(() => z.strictObject(downloadShape));

/** A refused download: the usual signed JSON answer, the request echoed plus the outcome. */
export const downloadReportResponse = pure(() => z.looseObject({ ...downloadShape, ...outcome }));

// ---- Types ----

export type ReportFilterEntry = z.infer<typeof reportFilterEntry>;
export type GenerateReportRequest = z.infer<typeof generateReportRequest>;
export type GenerateReportResponse = z.infer<typeof generateReportResponse>;
export type DownloadReportRequest = z.infer<typeof downloadReportRequest>;
export type DownloadReportResponse = z.infer<typeof downloadReportResponse>;
export type ReportFileFormat = DownloadReportRequest['file_format'];
