/**
 * The batch service (spec, "Batch service"): build a file from typed lines (core
 * `buildBatchFile`), UPLOAD_BATCH_FILE it as a multipart form (its digest signed beside the text
 * fields, so the file is bound to the signature), follow GET_BATCH_RESULTS through validation,
 * PROCESS_BATCH it, and read the per-line results. PROCESS_BATCH goes to the batch sandbox host in
 * the sandbox environment (`batchSandboxUrl`), to batchApi live.
 *
 * PROCESS_BATCH moves money (its lines are charges and maintenance): it is sent once, and a lost
 * answer is settled by GET_BATCH_RESULTS, whose batch_status says whether processing started.
 */
import { readBatchResults } from '../core/batch-file.ts';
import type { Language } from '../core/language.ts';
import { isReadableAnswer } from '../core/response.ts';
import {
  batchResultsRequest,
  batchResultsResponse,
  batchUploadFields,
  batchUploadResponse,
  processBatchRequest,
  processBatchResponse,
  type BatchResultEntry,
  type BatchResultsResponse,
  type BatchStatus,
  type BatchUploadResponse,
  type ProcessBatchResponse,
} from '../core/schemas/index.ts';
import { fileDigest } from '../core/signature.ts';
import { csvHeaderToWire } from '../core/wire-names.ts';
import { call, callWaits, languageOf, type CallContext, type OperationSpec } from './call.ts';
import { clientMessage } from './messages.ts';
import { resultOfAnswer, type GatewayResult } from './results.ts';
import { lossOf, type Loss } from './reconcile.ts';
import type { GatewaySettings } from './settings.ts';
import { GatewayUnavailableError, mayHaveArrived } from './transport.ts';

export const UPLOAD_BATCH_FILE: OperationSpec<BatchUploadResponse> = {
  name: 'UPLOAD_BATCH_FILE',
  requestSchema: batchUploadFields,
  answerSchema: batchUploadResponse,
  endpoint: 'batchUpload',
};
export const GET_BATCH_RESULTS: OperationSpec<BatchResultsResponse> = {
  name: 'GET_BATCH_RESULTS',
  requestSchema: batchResultsRequest,
  answerSchema: batchResultsResponse,
  endpoint: 'batchApi',
};
export const PROCESS_BATCH: OperationSpec<ProcessBatchResponse> = {
  name: 'PROCESS_BATCH',
  requestSchema: processBatchRequest,
  answerSchema: processBatchResponse,
  endpoint: 'processBatch',
};

/** A batch as the gateway knows it: the merchant's reference and the gateway's id travel together. */
export interface BatchHandle {
  readonly batch_reference: string;
  readonly batch_id: string;
  readonly language?: Language;
}

export interface UploadBatchInput {
  readonly batch_reference: string;
  /**
   * The file's text or bytes (build it with `buildBatchFile`). Its column of the gateway's
   * reference may be named `svc_id` or the wire's name: it is sent under the wire's.
   */
  readonly file: string | Uint8Array<ArrayBuffer>;
  /** The file part's name (default `batch.csv`). */
  readonly file_name?: string;
  readonly language?: Language;
}

/** A batch's results: the answer, and the per-line rows once processed. */
export interface BatchResults extends GatewayResult<BatchResultsResponse> {
  readonly batch_status?: BatchStatus;
  readonly rows?: readonly BatchResultEntry[];
}

export interface WaitForBatchInput extends BatchHandle {
  /** `validated`: until validation ends (with or without errors); `processed`: until the rows are there. */
  readonly until: 'validated' | 'processed';
  /** Wait between two readings (default 2 s). */
  readonly intervalMs?: number;
  /** How long to wait in all, on the client's clock (`now`), before returning the last reading (default 10 minutes). */
  readonly maxWaitMs?: number;
  readonly onProgress?: (status: BatchStatus | undefined, reading: number) => void;
}

const VALIDATION_DONE: readonly BatchStatus[] = ['VALIDATED', 'VALIDATED_WITH_ERRORS', 'PROCESSING', 'PROCESSED'];
/** A batch validated with errors is never processed: waiting for its rows would never end. */
const PROCESSING_DONE: readonly BatchStatus[] = ['PROCESSED', 'VALIDATED_WITH_ERRORS'];

/**
 * A batch file as the gateway reads it: its header row naming the gateway's reference as the wire
 * does (`gatewayReferenceField`). Bytes are decoded only when the header has to change.
 */
export function batchFileForWire(file: string | Uint8Array<ArrayBuffer>, settings: Pick<GatewaySettings, 'gatewayReferenceField'>): string | Uint8Array<ArrayBuffer> {
  const field = settings.gatewayReferenceField;
  if (typeof file === 'string') return csvHeaderToWire(file, field);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(file);
  } catch {
    // Not UTF-8: the gateway's validation says so; nothing here to rename.
    return file;
  }
  const wire = csvHeaderToWire(text, field);
  return wire === text ? file : new TextEncoder().encode(wire);
}

/** The per-line rows of a processed batch: the answer's list, else its CSV text read with the core's reader. */
export function batchRowsOf(answer: BatchResultsResponse): readonly BatchResultEntry[] | undefined {
  if (answer.rows) return answer.rows;
  return answer.batch_results === undefined ? undefined : readBatchResults(answer.batch_results);
}

export function batchOperations(ctx: CallContext) {
  const handleParams = (input: BatchHandle, language: Language) => ({
    batch_reference: input.batch_reference,
    batch_id: input.batch_id,
    language,
  });

  async function batchResults(input: BatchHandle, retry = true): Promise<BatchResults> {
    const language = languageOf(ctx, input);
    const { answer } = await call(ctx, GET_BATCH_RESULTS, {
      language,
      retry,
      params: { service_command: 'GET_BATCH_RESULTS', ...handleParams(input, language) },
    });
    const rows = batchRowsOf(answer);
    return {
      ...resultOfAnswer(answer),
      ...(answer.batch_status === undefined ? {} : { batch_status: answer.batch_status }),
      ...(rows === undefined ? {} : { rows }),
    };
  }

  /**
   * After a lost PROCESS_BATCH answer: GET_BATCH_RESULTS until it shows processing started, or the
   * readings are spent, or the next wait (at least what the last `Retry-After` asked) would pass the
   * call's deadline.
   */
  async function settleProcessing(input: BatchHandle, loss: Loss, language: Language): Promise<GatewayResult<ProcessBatchResponse>> {
    const { reason } = loss;
    const policy = ctx.settings.reconcile;
    const waits = callWaits(ctx);
    let retryAfterMs = loss.retryAfterMs;
    for (let reading = 1; reading <= policy.attempts; reading++) {
      if ((await waits.before(policy, reading + 1, retryAfterMs)) === undefined) break;
      let results: BatchResults;
      try {
        results = await batchResults(input, false);
      } catch (error) {
        if (!(error instanceof GatewayUnavailableError)) throw error;
        retryAfterMs = error.retryAfterMs;
        continue;
      }
      retryAfterMs = undefined;
      ctx.log.info('gateway_reconcile', { operation: PROCESS_BATCH.name, reading, reason, batch_status: results.batch_status });
      if (results.batch_status === 'PROCESSING' || results.batch_status === 'PROCESSED') {
        return { outcome: 'success', response_code: results.response_code, status: results.status, response_message: results.response_message, source: 'check_status', reason };
      }
      if (results.outcome === 'refused' || results.batch_status === 'VALIDATED_WITH_ERRORS') {
        return { outcome: 'refused', response_code: results.response_code, status: results.status, response_message: results.response_message, source: 'check_status', reason };
      }
    }
    ctx.log.error('gateway_outcome_unknown', { operation: PROCESS_BATCH.name, reason });
    return {
      outcome: 'unknown',
      response_code: '',
      status: '',
      response_message: clientMessage(reason === 'rate_limited' ? 'unsettled_rate_limited' : 'unsettled', language, { operation: 'batch processing' }),
      source: 'check_status',
      reason,
    };
  }

  return {
    /**
     * UPLOAD_BATCH_FILE: the file as a multipart part, its digest (`file_digest`) signed with the
     * text fields. Sent once; a lost answer leaves no batch_id to ask about, so it is thrown: upload
     * again under a new batch_reference only after GET_BATCH_RESULTS cannot find the first.
     */
    async uploadBatch(input: UploadBatchInput): Promise<GatewayResult<BatchUploadResponse>> {
      const language = languageOf(ctx, input);
      const file = batchFileForWire(input.file, ctx.settings);
      const digest = await fileDigest(file, ctx.settings.shaType);
      const { answer } = await call(ctx, UPLOAD_BATCH_FILE, {
        language,
        file: { name: input.file_name ?? 'batch.csv', type: 'text/csv', data: file },
        params: { service_command: 'UPLOAD_BATCH_FILE', batch_reference: input.batch_reference, language, file_digest: digest },
      });
      return resultOfAnswer(answer);
    },

    /** GET_BATCH_RESULTS: the batch's state (`batch_status`), its validation errors, and once processed its rows. Read-only, retried. */
    batchResults: (input: BatchHandle) => batchResults(input),

    /** GET_BATCH_RESULTS every `intervalMs` until validation (or processing) is over; the last reading. */
    async waitForBatch(input: WaitForBatchInput): Promise<BatchResults> {
      const done = input.until === 'validated' ? VALIDATION_DONE : PROCESSING_DONE;
      const deadline = ctx.settings.now().getTime() + (input.maxWaitMs ?? 600_000);
      for (let reading = 1; ; reading++) {
        const results = await batchResults(input);
        input.onProgress?.(results.batch_status, reading);
        const finished = results.batch_status !== undefined && done.includes(results.batch_status);
        const stop = finished || results.outcome === 'refused' || results.outcome === 'not_activated';
        if (stop || ctx.settings.now().getTime() >= deadline) return results;
        await ctx.settings.sleep(input.intervalMs ?? 2_000);
      }
    },

    /** PROCESS_BATCH of a validated batch (72147). Sent once; a lost answer is settled by GET_BATCH_RESULTS. */
    async processBatch(input: BatchHandle): Promise<GatewayResult<ProcessBatchResponse>> {
      const language = languageOf(ctx, input);
      let answer: ProcessBatchResponse;
      try {
        ({ answer } = await call(ctx, PROCESS_BATCH, { language, params: { service_command: 'PROCESS_BATCH', ...handleParams(input, language) } }));
      } catch (error) {
        if (error instanceof GatewayUnavailableError && mayHaveArrived(error.kind)) return settleProcessing(input, lossOf(error), language);
        throw error;
      }
      if (!isReadableAnswer(answer)) return settleProcessing(input, { reason: 'unknown_code' }, language);
      return resultOfAnswer(answer);
    },
  };
}
