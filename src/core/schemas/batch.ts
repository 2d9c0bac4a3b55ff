/** Batch service: UPLOAD_BATCH_FILE, GET_BATCH_RESULTS and PROCESS_BATCH. */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { identity, outcome } from './shared.ts';

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

export type BatchUploadFields = z.infer<typeof batchUploadFields>;
export type BatchUploadResponse = z.infer<typeof batchUploadResponse>;
export type BatchResultsRequest = z.infer<typeof batchResultsRequest>;
export type BatchResultsResponse = z.infer<typeof batchResultsResponse>;
export type ProcessBatchRequest = z.infer<typeof processBatchRequest>;
export type ProcessBatchResponse = z.infer<typeof processBatchResponse>;
