/**
 * The batch service (spec, Batch): UPLOAD_BATCH_FILE as a multipart form to `{apiRoot}/upload/`;
 * GET_BATCH_RESULTS and PROCESS_BATCH as JSON to `{apiRoot}/batchApi/`, and to the batch
 * sandbox host's `integration-batch/batchApi/` (the same handler). A batch lives through the
 * spec's states, each transition taking time on the gateway's clock:
 *
 *   uploaded, under validation (50000) ──BATCH_VALIDATION_MS──▶ validated | validated with errors (70000)
 *   validated ──PROCESS_BATCH (72147)──▶ processing ──BATCH_PROCESSING_MS──▶ processed (70000, per-line rows)
 *
 * Validation is core/batch-file.ts plus what only the gateway knows (a PURCHASE line's
 * merchant_reference already used by an order). Processing runs every line through the order
 * state machine, as the single request would. Transitions happen when they fall due, before the
 * gateway answers anything ({@link settleBatches}), dated when they fell due.
 */
import { parseWireAmount } from '../core/amounts.ts';
import {
  MAX_BATCH_FILE_BYTES,
  validateBatchFile,
  writeBatchResults,
  type BatchError,
  type BatchLine,
  type ValidBatchLine,
} from '../core/batch-file.ts';
import { fieldError } from '../core/field-errors.ts';
import { LANGUAGES, type Language } from '../core/language.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../core/response.ts';
import {
  batchResultsRequest,
  batchUploadFields,
  processBatchRequest,
  type BatchResultEntry,
  type BatchStatus,
} from '../core/schemas/index.ts';
import { fileDigest, type SignableValue } from '../core/signature.ts';
import { unknownOperation, unreadableBody } from './answer-format.ts';
import { orderDetailsOf, withoutAbsent } from './charges.ts';
import { checkRequest, identifiedMerchant, type GatewayContext } from './context.ts';
import { hasService, type GatewayAccount } from './merchants.ts';
import { capture, refund, voidAuthorization, type SandboxOrder } from './orders.ts';
import { chargeStoredToken } from './recurring.ts';
import { apiAnswer, BodyError, MAX_BODY_BYTES, readJson, requestLanguage, type WireParams } from './wire.ts';

/** How long the gateway takes to validate an uploaded file. */
export const BATCH_VALIDATION_MS = 10_000;
/** How long processing takes once requested. */
export const BATCH_PROCESSING_MS = 30_000;

/** What processing a line did. */
interface LineResult {
  readonly line: number;
  readonly request: BatchLine;
  readonly code: KnownResponseCode;
  /** The order the line touched, as it left it. */
  readonly order?: SandboxOrder;
}

export interface SandboxBatch {
  readonly merchant: GatewayAccount;
  readonly batchId: string;
  readonly batchReference: string;
  /** The upload's language: the file's lines are read in it. */
  readonly language: Language;
  readonly file: Uint8Array;
  readonly uploadedAt: number;
  readonly validation?: {
    readonly lines: readonly ValidBatchLine[];
    readonly transactionsCount: number;
    /** The same errors in each language, so that results speak the language they are asked in. */
    readonly errors: Readonly<Record<Language, readonly BatchError[]>>;
  };
  readonly processRequestedAt?: number;
  readonly results?: readonly LineResult[];
}

export function batchStatus(batch: SandboxBatch): BatchStatus {
  if (batch.results) return 'PROCESSED';
  if (batch.processRequestedAt !== undefined) return 'PROCESSING';
  if (!batch.validation) return 'UNDER_VALIDATION';
  return batch.validation.errors.en.length > 0 ? 'VALIDATED_WITH_ERRORS' : 'VALIDATED';
}

/** The batches of one gateway, by merchant and batch_id. */
export class BatchStore {
  private readonly batches = new Map<string, SandboxBatch>();
  private sequence = 0;

  private static key(merchantIdentifier: string, batchId: string): string {
    return `${merchantIdentifier}\u0000${batchId}`;
  }

  save(batch: SandboxBatch): void {
    this.batches.set(BatchStore.key(batch.merchant.merchantIdentifier, batch.batchId), batch);
  }

  get(merchantIdentifier: string, batchId: string): SandboxBatch | undefined {
    return this.batches.get(BatchStore.key(merchantIdentifier, batchId));
  }

  referenceTaken(merchantIdentifier: string, batchReference: string): boolean {
    return [...this.batches.values()].some(
      (batch) => batch.merchant.merchantIdentifier === merchantIdentifier && batch.batchReference === batchReference,
    );
  }

  all(): SandboxBatch[] {
    return [...this.batches.values()];
  }

  /** batch_id: numeric, at most 20 digits (the docs mirror's shape): epoch ms and a sequence. */
  nextBatchId(now: number): string {
    this.sequence += 1;
    return `${now}${String(this.sequence).padStart(5, '0')}`;
  }

  clear(): void {
    this.batches.clear();
  }

  /** Every batch and the last batch_id number given: what a snapshot saves. */
  records(): BatchRecords {
    return { batches: this.all(), sequence: this.sequence };
  }

  /** Replaces every batch with `records` (a saved snapshot coming back). */
  restore(records: BatchRecords): void {
    this.clear();
    for (const batch of records.batches) this.save(batch);
    this.sequence = records.sequence;
  }
}

/** What a BatchStore holds, as plain records. */
export interface BatchRecords {
  readonly batches: readonly SandboxBatch[];
  readonly sequence: number;
}

// ---- Transitions in time ----

/** Validates and processes every batch whose time has come, oldest due first; true when any was. */
export function settleBatches(ctx: GatewayContext, store: BatchStore): boolean {
  const now = ctx.now();
  const due: { readonly at: number; readonly batchId: string; readonly merchantIdentifier: string }[] = [];
  for (const batch of store.all()) {
    const ref = { batchId: batch.batchId, merchantIdentifier: batch.merchant.merchantIdentifier };
    if (!batch.validation && batch.uploadedAt + BATCH_VALIDATION_MS <= now) due.push({ at: batch.uploadedAt + BATCH_VALIDATION_MS, ...ref });
    if (batch.processRequestedAt !== undefined && !batch.results && batch.processRequestedAt + BATCH_PROCESSING_MS <= now) {
      due.push({ at: batch.processRequestedAt + BATCH_PROCESSING_MS, ...ref });
    }
  }
  due.sort((a, b) => a.at - b.at);
  for (const { at, batchId, merchantIdentifier } of due) {
    const batch = store.get(merchantIdentifier, batchId);
    if (!batch) continue;
    // Dated when it fell due: the orders a batch changes show that time.
    const then: GatewayContext = { ...ctx, now: () => at };
    store.save(batch.validation ? processed(then, batch) : validated(then, batch));
  }
  return due.length > 0;
}

function validated(ctx: GatewayContext, batch: SandboxBatch): SandboxBatch {
  const { merchant } = batch;
  const identity = {
    access_code: merchant.accessCode,
    merchant_identifier: merchant.merchantIdentifier,
    // The file names the gateway's reference as this gateway does.
    gatewayReferenceField: merchant.gatewayReferenceField,
  };
  const byLanguage = LANGUAGES.map((language) => [language, validateBatchFile(batch.file, { ...identity, language })] as const);
  const first = byLanguage[0]?.[1];
  if (!first) throw new Error('no language to validate in');
  // What only the gateway knows: a PURCHASE line's reference must be new, as for a single PURCHASE.
  const taken = new Set(
    first.lines
      .filter(({ request }) => request.command === 'PURCHASE' && ctx.state.referenceTaken(merchant.merchantIdentifier, request.merchant_reference))
      .map(({ line }) => line),
  );
  const errors = {} as Record<Language, BatchError[]>;
  for (const [language, validation] of byLanguage) {
    const refused = [...taken].map((line) => ({
      line,
      field: 'merchant_reference',
      message: `merchant_reference: ${responseMessage('00005', language)}`,
    }));
    errors[language] = [...validation.errors, ...refused].sort((a, b) => a.line - b.line);
  }
  return {
    ...batch,
    validation: {
      lines: first.lines.filter(({ line }) => !taken.has(line)),
      transactionsCount: first.transactionsCount,
      errors,
    },
  };
}

function processed(ctx: GatewayContext, batch: SandboxBatch): SandboxBatch {
  const lines = batch.validation?.lines ?? [];
  return { ...batch, results: lines.map(({ line, request }) => ({ line, request, ...runLine(ctx, batch.merchant, request) })) };
}

/** One line, as the single request would run: the same transitions, the same codes. */
function runLine(ctx: GatewayContext, merchant: GatewayAccount, request: BatchLine): Omit<LineResult, 'line' | 'request'> {
  if (request.command === 'PURCHASE') {
    const details = orderDetailsOf(request);
    return chargeStoredToken(ctx, {
      merchant,
      merchantReference: request.merchant_reference,
      amount: parseWireAmount(request.amount),
      currency: request.currency,
      tokenName: request.token_name,
      ...(details ? { details } : {}),
    });
  }
  const order = ctx.state.findOrder(merchant.merchantIdentifier, { svcId: request.svc_id, merchantReference: request.merchant_reference });
  if (!order) return { code: '00007' };
  const transition =
    request.command === 'VOID_AUTHORIZATION'
      ? voidAuthorization(order, ctx.now())
      : (request.command === 'CAPTURE' ? capture : refund)(order, parseWireAmount(request.amount), request.currency, ctx.now(), ctx.successCodes);
  if (!transition.ok) return { code: transition.code, order };
  ctx.state.saveOrder(transition.order);
  return { code: transition.code, order: transition.order };
}

/** The spec's result row of a line, its message in `language`; what the line has not is left out. */
function resultRow(result: LineResult, language: Language): BatchResultEntry {
  const { request, order, code } = result;
  const amount = 'amount' in request ? request.amount : undefined;
  return withoutAbsent({
    Line_Number: String(result.line),
    response_code: code,
    response_message: responseMessage(code, language),
    status: expectedStatus(code),
    eci: request.command === 'PURCHASE' ? 'RECURRING' : order?.eci,
    svc_id: order?.svcId ?? ('svc_id' in request ? request.svc_id : undefined),
    merchant_reference: request.merchant_reference ?? order?.merchantReference,
    amount: amount === undefined ? undefined : String(amount),
    card_number: order?.card?.maskedNumber,
    expiry_date: order?.card?.expiryDate,
    currency: 'currency' in request ? request.currency : order?.currency,
  }) as BatchResultEntry;
}

// ---- UPLOAD_BATCH_FILE ----

interface Upload {
  readonly params: Record<string, string>;
  /** The file part's bytes; a string when `file` came as a text field. */
  readonly file: Uint8Array<ArrayBuffer> | string | undefined;
}

/** The body, refused past `limit` bytes whether or not it declares its length. */
async function readBounded(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get('content-length') ?? '0') > limit) throw new BodyError('body too large', 413);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    total += next.value.length;
    if (total > limit) {
      await reader.cancel();
      throw new BodyError('body too large', 413);
    }
    chunks.push(next.value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/** The multipart form: its text fields (the first of each name) and the part named `file`. */
async function readUpload(request: Request): Promise<Upload> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) throw new BodyError('expected a multipart form', 415);
  // The file may use its whole allowance; the text fields get the usual body limit beside it.
  const body = await readBounded(request, MAX_BATCH_FILE_BYTES + MAX_BODY_BYTES);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new BodyError('unreadable multipart form', 400);
  }
  const params: Record<string, string> = {};
  let file: Upload['file'];
  for (const [name, value] of form) {
    if (name === 'file') {
      file ??= typeof value === 'string' ? value : new Uint8Array(await value.arrayBuffer());
    } else if (typeof value === 'string' && !(name in params)) {
      params[name] = value;
    }
  }
  return { params, file };
}

/** `POST {apiRoot}/upload/`: the file is stored and its validation starts (50000, batch_id). */
export async function postBatchUpload(ctx: GatewayContext, store: BatchStore, request: Request): Promise<Response> {
  let upload: Upload;
  try {
    upload = await readUpload(request);
  } catch (error) {
    if (error instanceof BodyError) return unreadableBody(error);
    throw error;
  }
  const { params, file } = upload;
  const checked = await checkRequest(ctx, params, batchUploadFields);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  if (!hasService(merchant, 'batch')) return apiAnswer(params, merchant, '00014');
  const language = requestLanguage(params);
  if (file === undefined) return apiAnswer(params, merchant, '00001', {}, fieldError('file', 'required', {}, language).message);
  if (typeof file === 'string') return apiAnswer(params, merchant, '00002', {}, fieldError('file', 'type', {}, language).message);
  if (file.length > MAX_BATCH_FILE_BYTES) return apiAnswer(params, merchant, '51001');
  if (data.file_digest !== undefined && (await fileDigest(file, merchant.shaType)) !== data.file_digest.toLowerCase()) {
    return apiAnswer(params, merchant, '51003');
  }
  if (store.referenceTaken(merchant.merchantIdentifier, data.batch_reference)) return apiAnswer(params, merchant, '51002');
  const batchId = store.nextBatchId(ctx.now());
  store.save({ merchant, batchId, batchReference: data.batch_reference, language: data.language, file, uploadedAt: ctx.now() });
  return apiAnswer(params, merchant, '50000', { batch_id: batchId });
}

// ---- GET_BATCH_RESULTS and PROCESS_BATCH ----

type Params = Record<string, SignableValue>;

/** The JSON body of a batchApi request, or the unsigned refusal of a body that cannot be read. */
async function readBatchRequest(request: Request): Promise<Params | Response> {
  try {
    return await readJson(request);
  } catch (error) {
    if (error instanceof BodyError) return unreadableBody(error);
    throw error;
  }
}

/**
 * `POST {apiRoot}/batchApi/`, routed by service_command: GET_BATCH_RESULTS, and PROCESS_BATCH as
 * the live host takes it (the local sandbox stands in for both environments).
 */
export async function postBatchApi(ctx: GatewayContext, store: BatchStore, request: Request): Promise<Response> {
  const params = await readBatchRequest(request);
  if (params instanceof Response) return params;
  const service = params['service_command'];
  if (service === 'GET_BATCH_RESULTS') return batchResults(ctx, store, params);
  if (service === 'PROCESS_BATCH') return processBatch(ctx, store, params);
  return unknownOperation(ctx, params, 'service_command', ['GET_BATCH_RESULTS', 'PROCESS_BATCH']);
}

/**
 * `POST integration-batch/batchApi/`, the path of the spec's `{batch_sandbox_url}` host, which
 * serves PROCESS_BATCH only: another service_command is refused (00002) naming the path.
 */
export async function postBatchSandboxApi(ctx: GatewayContext, store: BatchStore, request: Request): Promise<Response> {
  const params = await readBatchRequest(request);
  if (params instanceof Response) return params;
  const service = params['service_command'];
  if (service === 'PROCESS_BATCH') return processBatch(ctx, store, params);
  if (service === undefined) return unknownOperation(ctx, params, 'service_command', ['PROCESS_BATCH']);
  const [path, apiPath] = [`${ctx.paths.batchSandboxApi}/`, `${ctx.paths.batchApi}/`];
  const detail: Record<Language, string> = {
    en: `service_command: ${path} takes PROCESS_BATCH only; send ${String(service)} to ${apiPath}`,
    ar: `service_command: المسار ${path} يقبل PROCESS_BATCH فقط؛ أرسل ${String(service)} إلى ${apiPath}`,
  };
  return apiAnswer(params, identifiedMerchant(ctx, params), '00002', {}, detail[requestLanguage(params)]);
}

async function batchResults(ctx: GatewayContext, store: BatchStore, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, batchResultsRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  if (!hasService(merchant, 'batch')) return apiAnswer(params, merchant, '00014');
  const batch = store.get(merchant.merchantIdentifier, data.batch_id);
  if (!batch || batch.batchReference !== data.batch_reference) return apiAnswer(params, merchant, '71001');
  const status = batchStatus(batch);
  const fields: WireParams = { batch_status: status };
  if (batch.validation) fields['transactions_count'] = String(batch.validation.transactionsCount);
  switch (status) {
    case 'UNDER_VALIDATION':
      return apiAnswer(params, merchant, '70001', fields);
    case 'VALIDATED':
      return apiAnswer(params, merchant, '70000', fields);
    case 'VALIDATED_WITH_ERRORS': {
      const errors = batch.validation?.errors[data.language] ?? [];
      fields['errors'] = errors.map(({ line, field, message }) => ({ line_number: String(line), field, message }));
      return apiAnswer(params, merchant, '70000', fields);
    }
    case 'PROCESSING':
      return apiAnswer(params, merchant, '72147', fields);
    case 'PROCESSED': {
      const rows = (batch.results ?? []).map((result) => resultRow(result, data.language));
      fields['batch_results'] = writeBatchResults(rows);
      fields['rows'] = rows;
      return apiAnswer(params, merchant, '70000', fields);
    }
  }
}

async function processBatch(ctx: GatewayContext, store: BatchStore, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, processBatchRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  if (!hasService(merchant, 'batch')) return apiAnswer(params, merchant, '00014');
  const batch = store.get(merchant.merchantIdentifier, data.batch_id);
  if (!batch || batch.batchReference !== data.batch_reference) return apiAnswer(params, merchant, '73004');
  const refusals: Record<Exclude<BatchStatus, 'VALIDATED'>, KnownResponseCode> = {
    UNDER_VALIDATION: '73001',
    VALIDATED_WITH_ERRORS: '73002',
    PROCESSING: '73003',
    PROCESSED: '73003',
  };
  const status = batchStatus(batch);
  if (status !== 'VALIDATED') return apiAnswer(params, merchant, refusals[status], { batch_status: status });
  store.save({ ...batch, processRequestedAt: ctx.now() });
  return apiAnswer(params, merchant, '72147', { batch_status: 'PROCESSING' });
}
