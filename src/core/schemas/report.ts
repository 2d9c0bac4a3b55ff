/** Reporting: GENERATE_REPORT. */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { identity, outcome } from './shared.ts';

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

// ---- Types ----

export type ReportFilterEntry = z.infer<typeof reportFilterEntry>;
export type GenerateReportRequest = z.infer<typeof generateReportRequest>;
export type GenerateReportResponse = z.infer<typeof generateReportResponse>;
