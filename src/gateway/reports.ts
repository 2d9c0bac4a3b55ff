/**
 * Reporting (spec, "Reporting API"): GENERATE_REPORT makes a report of the operations in a date
 * window under a merchant_reference; DOWNLOAD_REPORT with the same reference answers it as a CSV,
 * JSON or XML file. The file is not a signed JSON answer: its digest and row count travel in
 * headers with a signature over them, checked with the core's `verifyReportDigest` once the last
 * byte has been hashed. A large file is written to a sink as it arrives (never held in memory) and
 * only counts once it verified; a small one is returned with its rows.
 */
import type { Language } from '../core/language.ts';
import {
  readReportFile,
  REPORT_FILE_HEADERS,
  verifyReportDigest,
  type ReportDownloadFields,
  type ReportFileContent,
} from '../core/report-file.ts';
import {
  downloadReportRequest,
  downloadReportResponse,
  generateReportRequest,
  generateReportResponse,
  type DownloadReportResponse,
  type GenerateReportRequest,
  type GenerateReportResponse,
  type ReportFileFormat,
} from '../core/schemas/index.ts';
import { signParams, signatureOptionsFor, verifySignature, type SignableParams } from '../core/signature.ts';
import { fromWireNames, toWireNames, type GatewayReferenceField } from '../core/wire-names.ts';
import { call, callWaits, checkedRequest, languageOf, type CallContext, type OperationSpec } from './call.ts';
import { streamingDigest } from './digest.ts';
import type { ClientInput } from './inputs.ts';
import { resultOfAnswer, type GatewayResult } from './results.ts';
import { answerFields, failureOf, GatewayUnavailableError, hostOf, isRetryable, readText, transportRefusal } from './transport.ts';

export const GENERATE_REPORT: OperationSpec<GenerateReportResponse> = {
  name: 'GENERATE_REPORT',
  requestSchema: generateReportRequest,
  answerSchema: generateReportResponse,
  endpoint: 'reportingApi',
};
export const DOWNLOAD_REPORT: OperationSpec<DownloadReportResponse> = {
  name: 'DOWNLOAD_REPORT',
  requestSchema: downloadReportRequest,
  answerSchema: downloadReportResponse,
  endpoint: 'reportingApi',
};

export type GenerateReportInput = ClientInput<GenerateReportRequest, 'query_command'>;

/** Where a downloaded file goes as it arrives (a file on disk: see the CLI). */
export interface ReportSink {
  write(chunk: Uint8Array): unknown;
}

/** How far a download has come: bytes, and rows counted as they pass (the total is the signed header's). */
export interface DownloadProgress {
  readonly bytes: number;
  readonly rows: number;
  readonly totalRows: number;
}

export interface DownloadReportInput {
  /** The GENERATE_REPORT request's merchant_reference. */
  readonly merchant_reference: string;
  readonly file_format: ReportFileFormat;
  readonly language?: Language;
  /** Written chunk by chunk instead of held in memory; the result then has no `text` or `content`. */
  readonly sink?: ReportSink;
  readonly onProgress?: (progress: DownloadProgress) => void;
}

/** A verified report file. */
export interface ReportFile {
  readonly file_format: ReportFileFormat;
  /** The report's number of rows, from the signed header. */
  readonly transactions_count: number;
  readonly bytes: number;
  /** The hex digest of the file, as verified. */
  readonly file_digest: string;
  /** The file's name the gateway suggests, e.g. `report-REP-1.csv`. */
  readonly file_name: string | undefined;
  /** The whole file as the gateway wrote it (its digest verified), when no sink was given. */
  readonly text?: string;
  /**
   * Its columns and rows (core `readReportFile`), when no sink was given; the gateway's reference
   * is the column `svc_id` whatever the file calls it.
   */
  readonly content?: ReportFileContent;
}

/** Counts a report's rows as its text streams past, for a progress bar: each format's row ending after its header. */
class RowCounter {
  private rows = 0;
  private tail = '';
  private inRows: boolean;
  private readonly ending: string;
  private readonly decoder = new TextDecoder();

  constructor(format: ReportFileFormat) {
    this.ending = format === 'CSV' ? '\r\n' : format === 'JSON' ? '}' : '</item>';
    // CSV rows start after the header line (counted, then taken off); JSON and XML after "rows".
    this.inRows = format === 'CSV';
    this.rows = format === 'CSV' ? -1 : 0;
  }

  count(chunk: Uint8Array): number {
    let text = this.tail + this.decoder.decode(chunk, { stream: true });
    if (!this.inRows) {
      const start = text.search(/"rows":\[|<rows>/);
      if (start < 0) {
        this.tail = text.slice(-8);
        return Math.max(0, this.rows);
      }
      this.inRows = true;
      text = text.slice(start);
    }
    let from = 0;
    for (let at = text.indexOf(this.ending, from); at >= 0; at = text.indexOf(this.ending, from)) {
      this.rows += 1;
      from = at + this.ending.length;
    }
    this.tail = text.slice(Math.max(from, text.length - (this.ending.length - 1)));
    return Math.max(0, this.rows);
  }
}

export function reportOperations(ctx: CallContext) {

  /** One download attempt. Throws GatewayUnavailableError; `delivered` says whether the sink got bytes. */
  async function downloadOnce(
    input: DownloadReportInput,
    fields: ReportDownloadFields,
    unsigned: SignableParams,
    state: { delivered: boolean },
  ): Promise<GatewayResult<DownloadReportResponse> & { readonly file?: ReportFile }> {
    const { settings, log } = ctx;
    const signed = await signParams(toWireNames(unsigned, settings.gatewayReferenceField), settings.requestPhrase, settings.shaType);
    // A long file may take longer than one time limit: the limit is on silence, renewed by every chunk.
    const controller = new AbortController();
    let idle = setTimeout(() => controller.abort(new DOMException('no data', 'TimeoutError')), settings.timeoutMs);
    const renew = () => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(new DOMException('no data', 'TimeoutError')), settings.timeoutMs);
    };
    try {
      let response: Response;
      try {
        response = await settings.fetch(settings.urls.reportingApi, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8', accept: '*/*' },
          body: JSON.stringify(signed),
          signal: controller.signal,
        });
      } catch (error) {
        const timedOut = controller.signal.aborted;
        throw new GatewayUnavailableError(DOWNLOAD_REPORT.name, timedOut ? 'timeout' : failureOf(error), { host: hostOf(settings.urls.reportingApi) });
      }
      const outage = await transportRefusal(response, DOWNLOAD_REPORT.name, settings.now().getTime());
      if (outage) throw outage;
      const signature = response.headers.get(REPORT_FILE_HEADERS.signature);
      if (!signature) return await refusal(response);

      const digest = streamingDigest(settings.shaType);
      const counter = new RowCounter(input.file_format);
      const totalRows = Number(response.headers.get(REPORT_FILE_HEADERS.transactionsCount) ?? 0);
      const kept: Uint8Array[] = [];
      let bytes = 0;
      if (response.body) {
        const reader = response.body.getReader();
        for (;;) {
          let read: ReadableStreamReadResult<Uint8Array>;
          try {
            read = await reader.read();
          } catch (error) {
            throw new GatewayUnavailableError(DOWNLOAD_REPORT.name, controller.signal.aborted ? 'timeout' : failureOf(error));
          }
          if (read.done) break;
          renew();
          const chunk = read.value;
          bytes += chunk.byteLength;
          if (!input.sink && bytes > settings.maxAnswerBytes) {
            await reader.cancel().catch(() => {});
            throw new GatewayUnavailableError(DOWNLOAD_REPORT.name, 'too_large');
          }
          digest.update(chunk);
          if (input.sink) {
            state.delivered = true;
            await input.sink.write(chunk);
          } else {
            kept.push(chunk);
          }
          input.onProgress?.({ bytes, rows: Math.min(counter.count(chunk), totalRows), totalRows });
        }
      }
      const hex = await digest.hex();
      if (!(await verifyReportDigest(hex, response.headers, fields, settings.responsePhrase, settings.shaType))) {
        log.error('gateway_signature_invalid', { operation: DOWNLOAD_REPORT.name, reason: 'report_file' });
        throw new GatewayUnavailableError(DOWNLOAD_REPORT.name, 'signature_invalid');
      }
      log.info('gateway_answer', { operation: DOWNLOAD_REPORT.name, outcome: 'success', bytes, rows: totalRows });
      const text = input.sink ? undefined : new TextDecoder().decode(concat(kept, bytes));
      const file: ReportFile = {
        file_format: input.file_format,
        transactions_count: totalRows,
        bytes,
        file_digest: hex,
        file_name: /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1],
        ...(text === undefined ? {} : { text, content: contentFromWire(readReportFile(input.file_format, text), settings.gatewayReferenceField) }),
      };
      return { outcome: 'success', response_code: '', status: '', response_message: '', source: 'answer', file };
    } finally {
      clearTimeout(idle);
    }
  }

  /** A refused download: the usual signed JSON answer (57002 no such report, …). */
  async function refusal(response: Response): Promise<GatewayResult<DownloadReportResponse>> {
    const text = await readText(response, 1024 * 1024, DOWNLOAD_REPORT.name);
    const wire = answerFields(text, response.headers.get('content-type') ?? '', DOWNLOAD_REPORT.name);
    const { settings, log } = ctx;
    if (!(await verifySignature(wire as SignableParams, settings.responsePhrase, settings.shaType, signatureOptionsFor(wire))).valid) {
      log.error('gateway_signature_invalid', { operation: DOWNLOAD_REPORT.name, reason: 'mismatch' });
      throw new GatewayUnavailableError(DOWNLOAD_REPORT.name, 'signature_invalid');
    }
    const parsed = downloadReportResponse.safeParse(fromWireNames(wire, settings.gatewayReferenceField));
    if (!parsed.success) throw new GatewayUnavailableError(DOWNLOAD_REPORT.name, 'answer_invalid');
    log.info('gateway_answer', { operation: DOWNLOAD_REPORT.name, response_code: parsed.data.response_code });
    return resultOfAnswer(parsed.data);
  }

  return {
    /**
     * GENERATE_REPORT of the operations from `from_date` to `to_date` (ISO 8601 with offset),
     * optionally narrowed by `columns` and `filters`. Read-only and retried: a retry that finds the
     * report made by the lost first attempt (00005) is a success, reason `already_generated`.
     */
    async generateReport(input: GenerateReportInput): Promise<GatewayResult<GenerateReportResponse>> {
      const language = languageOf(ctx, input);
      const { answer, attempt } = await call(ctx, GENERATE_REPORT, {
        language,
        retry: true,
        params: { ...input, query_command: 'GENERATE_REPORT', language } as SignableParams,
      });
      if (attempt > 1 && answer.response_code === '00005') {
        return { ...resultOfAnswer(answer), outcome: 'success', reason: 'already_generated' };
      }
      return resultOfAnswer(answer);
    },

    /**
     * DOWNLOAD_REPORT of a generated report as CSV, JSON or XML, verified. Retried on transport
     * failures while nothing has reached the sink. Throws GatewayUnavailableError (`signature_invalid`
     * when the file does not verify: discard what the sink received).
     */
    async downloadReport(input: DownloadReportInput): Promise<GatewayResult<DownloadReportResponse> & { readonly file?: ReportFile }> {
      const language = languageOf(ctx, input);
      const fields: ReportDownloadFields = {
        query_command: 'DOWNLOAD_REPORT',
        access_code: ctx.settings.accessCode,
        merchant_identifier: ctx.settings.merchantIdentifier,
        merchant_reference: input.merchant_reference,
        file_format: input.file_format,
        language,
      };
      const unsigned = checkedRequest(ctx, DOWNLOAD_REPORT, { language, params: fields as SignableParams });
      const state = { delivered: false };
      const waits = callWaits(ctx);
      for (let number = 1; ; number++) {
        try {
          return await downloadOnce(input, fields, unsigned, state);
        } catch (error) {
          const retry =
            error instanceof GatewayUnavailableError && isRetryable(error.kind) && !state.delivered && number < ctx.settings.retry.attempts;
          if (!retry) throw error;
          const delay = await waits.before(ctx.settings.retry, number + 1, error.retryAfterMs);
          if (delay === undefined) throw error;
          ctx.log.info('gateway_retry', { operation: DOWNLOAD_REPORT.name, attempt: number + 1, reason: error.kind, delay_ms: delay });
        }
      }
    },
  };
}

/** A report's columns and rows with the gateway's reference named `svc_id`, whatever the file calls it. */
function contentFromWire(content: ReportFileContent, field: GatewayReferenceField): ReportFileContent {
  return fromWireNames({ ...content }, field) as unknown as ReportFileContent;
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}
