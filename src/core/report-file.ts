/**
 * The report download (spec, Reporting: "Download report … see gap list", decided in
 * docs/decisions.md): DOWNLOAD_REPORT with the generate request's merchant_reference answers the
 * report as a file, CSV, JSON or XML, written here piece by piece so that the gateway can stream
 * it. The file is not a signed JSON answer, so the signature travels in headers: the file's
 * digest and its number of rows are added to the request's fields (the envelope), and that is
 * signed with the response phrase like any answer. The merchant hashes the body as it arrives,
 * then checks the envelope's signature.
 *
 * Every format holds the same table: the request's columns, in its order, one row per operation.
 * The column of the gateway's reference of an order is written as the wire names that field
 * (`svc_id`, or `fort_id` for the live gateway: wire-names.ts).
 *   CSV   a header row of the column names, then the rows; every value quoted; CRLF.
 *   JSON  {"merchant_reference", "from_date", "to_date", "transactions_count", "columns": [...], "rows": [{column: value}, ...]}
 *   XML   the same fields under the root `response`, `columns` and `rows` holding `item` nodes (xml.ts).
 */
import { csvRecord, parseCsv } from './csv.ts';
import type { DownloadReportRequest, ReportColumn, ReportFileFormat } from './schemas/index.ts';
import { fileDigest, verifySignature, type ShaType, type SignableParams } from './signature.ts';
import { DEFAULT_GATEWAY_REFERENCE_FIELD, toWireName, type GatewayReferenceField } from './wire-names.ts';
import { parseXml, toXmlNode, XML_DECLARATION, XML_LIST_ITEMS } from './xml.ts';

/**
 * The columns this project asks for when the merchant names none: what an accountant needs to
 * reconcile each operation with the bank: when, which order (the shop's reference and the
 * gateway's), which command, how much, and how it ended (a declined PURCHASE shows its code and
 * status, never reading as paid). The back office's report download, the CLI's `report` and the
 * demo all ask for these; without `columns` the gateway answers only the spec's list, which has no
 * date or outcome.
 */
export const DEFAULT_REPORT_COLUMNS = [
  'transaction_date',
  'merchant_reference',
  'svc_id',
  'operation',
  'amount',
  'currency',
  'response_code',
  'status',
  'response_message',
  'payment_option',
  'authorization_code',
] as const satisfies readonly ReportColumn[];

/** The spec's limit of a report (Limits: "report size 200,000 transactions"). */
export const MAX_REPORT_TRANSACTIONS = 200_000;

export const REPORT_FILE_FORMATS = ['CSV', 'JSON', 'XML'] as const satisfies readonly ReportFileFormat[];

export const REPORT_CONTENT_TYPES: Readonly<Record<ReportFileFormat, string>> = {
  CSV: 'text/csv; charset=utf-8',
  JSON: 'application/json; charset=utf-8',
  XML: 'application/xml; charset=utf-8',
};

/** The headers of a downloaded file that let the merchant verify it came from the gateway. */
export const REPORT_FILE_HEADERS = {
  /** Hex digest of the body, with the merchant's SHA type. */
  digest: 'x-file-digest',
  /** The report's number of rows. */
  transactionsCount: 'x-transactions-count',
  /** The response signature over the envelope ({@link reportFileEnvelope}). */
  signature: 'x-signature',
} as const;

/** A generated report: its request's window and columns, and its rows (one value per column). */
export interface ReportFile {
  readonly merchant_reference: string;
  readonly from_date: string;
  readonly to_date: string;
  readonly columns: readonly ReportColumn[];
  readonly rows: readonly (readonly string[])[];
}

/** The file name the download suggests, e.g. `report-REP-1.csv`. */
export function reportFileName(merchantReference: string, format: ReportFileFormat): string {
  return `report-${merchantReference}.${format.toLowerCase()}`;
}

function rowObject(columns: readonly string[], row: readonly string[]): Record<string, string> {
  const object: Record<string, string> = {};
  columns.forEach((column, index) => {
    object[column] = row[index] ?? '';
  });
  return object;
}

function* slices<T>(items: readonly T[], size: number): Generator<readonly T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/**
 * The file, in pieces of at most `rowsPerChunk` rows: concatenated, they are the whole file. `field`
 * is the name the gateway gives its reference of an order on the wire.
 */
export function* reportFileChunks(
  format: ReportFileFormat,
  report: ReportFile,
  rowsPerChunk = 1000,
  field: GatewayReferenceField = DEFAULT_GATEWAY_REFERENCE_FIELD,
): Generator<string> {
  const { rows } = report;
  const columns = report.columns.map((column) => toWireName(column, field));
  const head = {
    merchant_reference: report.merchant_reference,
    from_date: report.from_date,
    to_date: report.to_date,
    transactions_count: String(rows.length),
  };
  if (format === 'CSV') {
    yield `${csvRecord(columns, 'always')}\r\n`;
    for (const slice of slices(rows, rowsPerChunk)) yield slice.map((row) => `${csvRecord(row, 'always')}\r\n`).join('');
    return;
  }
  if (format === 'JSON') {
    yield `${JSON.stringify({ ...head, columns }).slice(0, -1)},"rows":[`;
    let first = true;
    for (const slice of slices(rows, rowsPerChunk)) {
      yield `${first ? '' : ','}${slice.map((row) => JSON.stringify(rowObject(columns, row))).join(',')}`;
      first = false;
    }
    yield ']}';
    return;
  }
  const item = XML_LIST_ITEMS['rows'] ?? 'item';
  yield `${XML_DECLARATION}<response>${Object.entries(head).map(([name, value]) => toXmlNode(name, value)).join('')}${toXmlNode('columns', columns)}<rows>`;
  for (const slice of slices(rows, rowsPerChunk)) yield slice.map((row) => toXmlNode(item, rowObject(columns, row))).join('');
  yield '</rows></response>';
}

/** The whole file as one text (the chunks joined). */
export function reportFileText(format: ReportFileFormat, report: ReportFile, field: GatewayReferenceField = DEFAULT_GATEWAY_REFERENCE_FIELD): string {
  return [...reportFileChunks(format, report, undefined, field)].join('');
}

/** A downloaded report read back: its columns and its rows as objects. */
export interface ReportFileContent {
  readonly columns: readonly string[];
  readonly rows: readonly Readonly<Record<string, string>>[];
}

/** A text that is not a report file of the format. */
export class ReportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportFileError';
  }
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isRowArray = (value: unknown): value is Record<string, string>[] =>
  Array.isArray(value) &&
  value.every((row) => typeof row === 'object' && row !== null && Object.values(row).every((cell) => typeof cell === 'string'));

/** Reads a downloaded file of `format` (written by {@link reportFileChunks}, or the gateway). Throws ReportFileError. */
export function readReportFile(format: ReportFileFormat, text: string): ReportFileContent {
  if (format === 'CSV') {
    const reading = parseCsv(text);
    if (!reading.ok) throw new ReportFileError(`line ${reading.line}: ${reading.problem}`);
    const [header, ...records] = reading.records;
    if (!header) throw new ReportFileError('the file has no header row');
    return { columns: header.values, rows: records.map((record) => rowObject(header.values, record.values)) };
  }
  let content: unknown;
  try {
    content = format === 'JSON' ? JSON.parse(text) : parseXml(text);
  } catch (error) {
    throw new ReportFileError(`not a ${format} document: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { columns, rows } = (content ?? {}) as { columns?: unknown; rows?: unknown };
  if (!isStringArray(columns) || !isRowArray(rows)) throw new ReportFileError('the document needs a list of columns and a list of rows');
  return { columns, rows };
}

/** The download request as the envelope repeats it: everything but its signature. */
export type ReportDownloadFields = Omit<DownloadReportRequest, 'signature'>;

/** What the download's signature covers: the request's fields, the file's digest and its number of rows. */
export function reportFileEnvelope(request: ReportDownloadFields, digest: string, transactionsCount: number | string): SignableParams {
  const { query_command, access_code, merchant_identifier, merchant_reference, file_format, language } = request;
  return {
    query_command,
    access_code,
    merchant_identifier,
    merchant_reference,
    file_format,
    language,
    file_digest: digest,
    transactions_count: String(transactionsCount),
  };
}

/** Reads one header, from a `Headers` or anything with `get`. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * True when a downloaded file is the gateway's: its digest matches the body and the signature
 * over the envelope verifies with the response phrase.
 */
export async function verifyReportFile(
  body: Uint8Array<ArrayBuffer> | string,
  headers: HeaderSource,
  request: ReportDownloadFields,
  responsePhrase: string,
  sha: ShaType,
): Promise<boolean> {
  return verifyReportDigest(await fileDigest(body, sha), headers, request, responsePhrase, sha);
}

/**
 * {@link verifyReportFile} for a body that was hashed as it streamed past (written to a file
 * rather than held in memory): `digest` is the hex digest of the bytes received.
 */
export async function verifyReportDigest(
  digest: string,
  headers: HeaderSource,
  request: ReportDownloadFields,
  responsePhrase: string,
  sha: ShaType,
): Promise<boolean> {
  const sent = headers.get(REPORT_FILE_HEADERS.digest);
  const count = headers.get(REPORT_FILE_HEADERS.transactionsCount);
  const signature = headers.get(REPORT_FILE_HEADERS.signature);
  if (!sent || !count || !signature) return false;
  if (digest.toLowerCase() !== sent.toLowerCase()) return false;
  const envelope = { ...reportFileEnvelope(request, sent, count), signature };
  return (await verifySignature(envelope, responsePhrase, sha)).valid;
}
