/**
 * Reporting (spec, Reporting): GENERATE_REPORT and DOWNLOAD_REPORT as JSON to `{apiRoot}/reportingApi`.
 *
 * A report is built from the gateway's real orders: one row per operation (authorization,
 * purchase, capture, refund, void, bill presentment, payment and expiry) of the merchant's orders
 * whose time on the gateway's clock falls in [from_date, to_date] (to the end of to_date's second),
 * kept when its values match the filters (the same key more than once: any of its values; different
 * keys: all of them), oldest first. GENERATE_REPORT takes a snapshot under its merchant_reference
 * and answers 56000; DOWNLOAD_REPORT streams that snapshot as a file (core/report-file.ts), the
 * column of the gateway's reference named as this gateway's wire names it.
 */
import { formatDateTimeWithOffset } from '../core/dates.ts';
import { formatCount, type Language } from '../core/language.ts';
import { SANDBOX_FINANCING_PARTNER_CODE as FINANCING_PARTNER_CODE, SANDBOX_VOUCHER_PARTNER_CODE as VOUCHER_PARTNER_CODE } from './partners.ts';
import {
  MAX_REPORT_TRANSACTIONS,
  REPORT_CONTENT_TYPES,
  REPORT_FILE_HEADERS,
  reportFileChunks,
  reportFileEnvelope,
  reportFileName,
  reportFileText,
  type ReportFile,
} from '../core/report-file.ts';
import { classifyResponse, responseMessage } from '../core/response.ts';
import {
  downloadReportRequest,
  generateReportRequest,
  REPORT_SPEC_COLUMNS,
  type ReportColumn,
  type ReportFileFormat,
  type ReportFilterEntry,
} from '../core/schemas/index.ts';
import { fileDigest, signParams, type SignableValue } from '../core/signature.ts';
import { unknownOperation, unreadableBody } from './answer-format.ts';
import { checkRequest, type GatewayContext } from './context.ts';
import type { GatewayAccount } from './merchants.ts';
import type { OrderOperation, SandboxOrder } from './orders.ts';
import { apiAnswer, BodyError, jsonAnswer, readDateField, readJson, statusOf } from './wire.ts';

interface StoredReport {
  readonly merchantIdentifier: string;
  readonly file: ReportFile;
  /** Digests already computed, by format and SHA type: the snapshot never changes. */
  readonly digests: Map<string, string>;
}

/** The reports of one gateway, by merchant and merchant_reference. */
export class ReportStore {
  private readonly reports = new Map<string, StoredReport>();

  private static key(merchantIdentifier: string, merchantReference: string): string {
    return `${merchantIdentifier}\u0000${merchantReference}`;
  }

  get(merchantIdentifier: string, merchantReference: string): StoredReport | undefined {
    return this.reports.get(ReportStore.key(merchantIdentifier, merchantReference));
  }

  save(merchantIdentifier: string, file: ReportFile): void {
    this.reports.set(ReportStore.key(merchantIdentifier, file.merchant_reference), { merchantIdentifier, file, digests: new Map() });
  }

  clear(): void {
    this.reports.clear();
  }

  /** Every report's snapshot and its merchant (the digests are recomputed on demand). */
  records(): ReportRecord[] {
    return [...this.reports.values()].map(({ merchantIdentifier, file }) => ({ merchantIdentifier, file }));
  }

  /** Replaces every report with `records` (a saved snapshot coming back). */
  restore(records: readonly ReportRecord[]): void {
    this.clear();
    for (const { merchantIdentifier, file } of records) this.save(merchantIdentifier, file);
  }
}

/** One generated report, as a snapshot saves it. */
export interface ReportRecord {
  readonly merchantIdentifier: string;
  readonly file: ReportFile;
}

// ---- Rows ----

export interface ReportQuery {
  readonly merchantIdentifier: string;
  /** Epoch milliseconds, both included. */
  readonly from: number;
  readonly to: number;
  readonly columns: readonly ReportColumn[];
  readonly filters: readonly ReportFilterEntry[];
  readonly language: Language;
  /** The zone dates are written in: from_date's. */
  readonly offsetMinutes: number;
}

export type ReportSelection =
  | { readonly ok: true; readonly rows: readonly (readonly string[])[] }
  | { readonly ok: false; readonly reason: 'too_many' };

function eciOf(order: SandboxOrder): string {
  if (order.eci) return order.eci;
  return order.channel === 'financing' ? 'ECOMMERCE' : '';
}

function paymentOptionOf(order: SandboxOrder): string {
  if (order.card) return order.card.scheme;
  if (order.channel === 'financing') return FINANCING_PARTNER_CODE;
  return order.channel === 'bill' ? VOUCHER_PARTNER_CODE : '';
}

/** A column's value for one operation of an order. */
function columnValue(column: ReportColumn, order: SandboxOrder, operation: OrderOperation, query: ReportQuery): string {
  switch (column) {
    case 'order_description':
    case 'customer_ip':
    case 'customer_email':
    case 'customer_name':
      return order.details?.[column] ?? '';
    case 'geolocation_ip':
      // The sandbox locates no one.
      return '';
    case 'eci':
      return eciOf(order);
    case 'merchant_reference':
      return order.merchantReference;
    case 'card_holder_name':
      return order.card?.holderName ?? '';
    case 'currency':
      return order.currency;
    case 'amount':
      return String(operation.amount ?? order.amount);
    case 'payment_option':
      return paymentOptionOf(order);
    case 'svc_id':
      return order.svcId;
    case 'operation':
      return operation.operation;
    case 'transaction_date':
      return formatDateTimeWithOffset(operation.at, query.offsetMinutes);
    case 'order_date':
      return formatDateTimeWithOffset(order.createdAt, query.offsetMinutes);
    case 'response_code':
      return operation.code;
    case 'response_message':
      return responseMessage(operation.code, query.language);
    case 'status':
      return statusOf(operation);
    case 'authorization_code': {
      const charged = operation.operation === 'AUTHORIZATION' || operation.operation === 'PURCHASE';
      const outcome = classifyResponse({ response_code: operation.code, status: statusOf(operation) });
      return charged && outcome === 'success' ? (order.authorizationCode ?? '') : '';
    }
    case 'card_number':
      return order.card?.maskedNumber ?? '';
    case 'expiry_date':
      return order.card?.expiryDate ?? '';
    case 'token_name':
      return order.card?.tokenName ?? '';
  }
}

/**
 * The report's rows, oldest operation first; refused once more than `limit` operations match
 * (the spec's 200,000 transactions), without building the rest.
 */
export function selectReportRows(orders: readonly SandboxOrder[], query: ReportQuery, limit = MAX_REPORT_TRANSACTIONS): ReportSelection {
  const wanted = new Map<ReportColumn, Set<string>>();
  for (const { key, value } of query.filters) wanted.set(key, (wanted.get(key) ?? new Set()).add(value));
  const matched: { readonly at: number; readonly row: readonly string[] }[] = [];
  for (const order of orders) {
    if (order.merchantIdentifier !== query.merchantIdentifier) continue;
    for (const operation of order.operations) {
      if (operation.at < query.from || operation.at > query.to) continue;
      let keep = true;
      for (const [column, values] of wanted) {
        if (!values.has(columnValue(column, order, operation, query))) {
          keep = false;
          break;
        }
      }
      if (!keep) continue;
      if (matched.length === limit) return { ok: false, reason: 'too_many' };
      matched.push({ at: operation.at, row: query.columns.map((column) => columnValue(column, order, operation, query)) });
    }
  }
  // Stable: operations at the same instant keep the order of their orders.
  matched.sort((a, b) => a.at - b.at);
  return { ok: true, rows: matched.map(({ row }) => row) };
}

// ---- reportingApi ----

type Params = Record<string, SignableValue>;

export interface ReportingOptions {
  /** Most operations a report may hold (the spec's 200,000; lower in tests). */
  readonly maxTransactions: number;
}

/** `POST {apiRoot}/reportingApi`: routed by query_command. */
export async function postReportingApi(ctx: GatewayContext, store: ReportStore, options: ReportingOptions, request: Request): Promise<Response> {
  let params: Params;
  try {
    params = await readJson(request);
  } catch (error) {
    if (error instanceof BodyError) return unreadableBody(error);
    throw error;
  }
  const query = params['query_command'];
  if (query === 'GENERATE_REPORT') return generateReport(ctx, store, options, params);
  if (query === 'DOWNLOAD_REPORT') return downloadReport(ctx, store, params);
  return unknownOperation(ctx, params, 'query_command', ['GENERATE_REPORT', 'DOWNLOAD_REPORT']);
}

async function generateReport(ctx: GatewayContext, store: ReportStore, options: ReportingOptions, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, generateReportRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const language = data.language;
  const from = readDateField('from_date', data.from_date, language);
  if ('refused' in from) return apiAnswer(params, merchant, '00002', {}, from.refused);
  const to = readDateField('to_date', data.to_date, language);
  if ('refused' in to) return apiAnswer(params, merchant, '00002', {}, to.refused);
  // A merchant_reference names one report: the download finds it by that reference.
  if (store.get(merchant.merchantIdentifier, data.merchant_reference)) return apiAnswer(params, merchant, '00005');
  const columns = data.columns ?? REPORT_SPEC_COLUMNS;
  const selection = selectReportRows(
    ctx.state.orders(),
    {
      merchantIdentifier: merchant.merchantIdentifier,
      from: from.instant,
      to: to.instant + 999,
      columns,
      filters: data.filters ?? [],
      language,
      offsetMinutes: from.offsetMinutes,
    },
    options.maxTransactions,
  );
  if (!selection.ok) return apiAnswer(params, merchant, '57001', {}, formatCount(options.maxTransactions, language));
  store.save(merchant.merchantIdentifier, {
    merchant_reference: data.merchant_reference,
    from_date: data.from_date,
    to_date: data.to_date,
    columns,
    rows: selection.rows,
  });
  return apiAnswer(params, merchant, '56000', { transactions_count: String(selection.rows.length) });
}

/** The file as a stream: each piece is written when the reader asks for it. */
function streamOf(pieces: Iterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const next = pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}

async function digestOf(report: StoredReport, format: ReportFileFormat, merchant: GatewayAccount): Promise<string> {
  const key = `${format}:${merchant.shaType}`;
  let digest = report.digests.get(key);
  if (digest === undefined) {
    digest = await fileDigest(reportFileText(format, report.file, merchant.gatewayReferenceField), merchant.shaType);
    report.digests.set(key, digest);
  }
  return digest;
}

async function downloadReport(ctx: GatewayContext, store: ReportStore, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, downloadReportRequest);
  // A refusal is the usual signed JSON answer; only a file carries the file headers.
  if (!checked.ok) return jsonAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const report = store.get(merchant.merchantIdentifier, data.merchant_reference);
  if (!report) return jsonAnswer(params, merchant, '57002');
  const format = data.file_format;
  const digest = await digestOf(report, format, merchant);
  const count = report.file.rows.length;
  const signed = await signParams(reportFileEnvelope(data, digest, count), merchant.responsePhrase, merchant.shaType);
  return new Response(streamOf(reportFileChunks(format, report.file, undefined, merchant.gatewayReferenceField)), {
    headers: {
      'content-type': REPORT_CONTENT_TYPES[format],
      'content-disposition': `attachment; filename="${reportFileName(data.merchant_reference, format)}"`,
      'cache-control': 'no-store',
      [REPORT_FILE_HEADERS.digest]: digest,
      [REPORT_FILE_HEADERS.transactionsCount]: String(count),
      [REPORT_FILE_HEADERS.signature]: String(signed['signature']),
    },
  });
}
