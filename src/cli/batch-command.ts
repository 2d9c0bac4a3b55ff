/**
 * `pg-checkout batch upload FILE`, `batch status ID`, `batch process ID`. A batch is named by the
 * merchant's batch_reference and the gateway's batch_id together, written `REFERENCE:ID` (a
 * reference never holds ":" and an id is digits): `upload` prints it, the others take it.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { validateBatchFile, type BatchFileValidation, type ValidBatchLine } from '../core/batch-file.ts';
import { isSuccess } from '../core/response.ts';
import type { BatchStatus } from '../core/schemas/index.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { batchFileForWire, type BatchHandle, type BatchResults } from '../gateway/batch.ts';
import { backOfficeConfigFromEnv } from '../server/config.ts';
import { clientFromEnv, COMMON_OPTIONS, COMMON_USAGE, confirm, failed, languageOption, money, printJson } from './client-env.ts';
import { EXIT, EXIT_CODES_HELP, exitCodeOf, type CliCommand, type Io } from './command.ts';
import { timeReference } from './dates.ts';
import { CliError } from './input.ts';
import { progressBar } from './progress.ts';

/** The three subcommands, as `batch` alone lists them. */
const SUBCOMMANDS = `Usage:
  pg-checkout batch upload FILE [--reference R] [--wait] [--poll-seconds N] [--json]
  pg-checkout batch status REFERENCE:ID [--wait] [--poll-seconds N] [--json]
  pg-checkout batch process REFERENCE:ID [--file FILE] [--yes] [--no-wait] [--poll-seconds N] [--json]`;

const USAGE = `${SUBCOMMANDS}

The batch service: a CSV file of recurring PURCHASE lines and CAPTURE / REFUND / VOID_AUTHORIZATION
of existing orders (a header row of the gateway's field names; see docs/back-office.md).
The file's amounts are in minor units, as the gateway reads them: 1250 is EGP 12.50 (every other
command takes major units, --amount 12.50). The file is the gateway's own format, sent as it is.
  upload    checks the file here first (every line's fields), uploads it and prints the batch as
            REFERENCE:ID, the handle the other two take; --wait waits for the gateway's validation
  status    the batch's state, its validation errors, and once processed one result per line
  process   asks to process a validated batch (it says what it will do and asks, unless --yes),
            then waits for the per-line results, showing the state and the time elapsed
            (--no-wait: return at once); --file FILE, the file uploaded, is checked first as upload
            checks it (a problem is named by line and field, and nothing is sent) and adds to the
            question the money of its lines per currency and command (the gateway gives no lines
            before processing: without --file the question says the total is unknown); once
            processed, the results show the succeeded lines' amounts per currency
  --reference R       the batch_reference (default b-<time to the millisecond><random>)
  --poll-seconds N    wait between two readings of the results (default 2)
  --yes               do not ask (required when stdin is not a terminal)
${COMMON_USAGE}

${EXIT_CODES_HELP}`;

/** "amount: must be …", the field named once whether or not the message already names it. */
function withField(field: string | undefined, message: string): string {
  return !field || message.startsWith(`${field}: `) ? message : `${field}: ${message}`;
}

/** A batch file read and checked as it will be sent: its reference column under the wire's name (PG_GATEWAY_REFERENCE_FIELD). */
async function checkedFile(io: Io, path: string, language: string | undefined): Promise<{ file: Uint8Array<ArrayBuffer>; checked: BatchFileValidation }> {
  let file: Uint8Array<ArrayBuffer>;
  try {
    file = new Uint8Array(await readFile(path));
  } catch {
    throw new CliError(`${path} cannot be read`);
  }
  const config = backOfficeConfigFromEnv(io.env);
  const field = config.gatewayReferenceField;
  const checked = validateBatchFile(batchFileForWire(file, { gatewayReferenceField: field }), {
    access_code: config.accessCode,
    merchant_identifier: config.merchantIdentifier,
    language: languageOption(language),
    gatewayReferenceField: field,
  });
  return { file, checked };
}

/**
 * The money of a batch's lines, per currency and command: "CAPTURE in EGP: 2 lines, EGP 90.00 (9000
 * minor units)". A line without an amount (a void, or the rest of an order) is counted apart.
 */
export function batchTotals(lines: readonly ValidBatchLine[]): string[] {
  const totals = new Map<string, { currency: string; command: string; lines: number; amount: number; rest: number }>();
  for (const { request } of lines) {
    const fields = request as { command: string; amount?: string | number; currency?: string };
    const currency = fields.currency ?? '';
    const key = `${currency} ${fields.command}`;
    const total = totals.get(key) ?? { currency, command: fields.command, lines: 0, amount: 0, rest: 0 };
    total.lines += 1;
    if (fields.amount === undefined || fields.amount === '') total.rest += 1;
    else total.amount += Number(fields.amount);
    totals.set(key, total);
  }
  return [...totals.values()]
    .sort((a, b) => a.currency.localeCompare(b.currency) || a.command.localeCompare(b.command))
    .map(({ currency, command, lines: count, amount, rest }) => {
      const counted = `${count} line${count === 1 ? '' : 's'}`;
      const sum = count > rest && currency ? `, ${money(amount, currency)} (${amount} minor units)` : '';
      const without = rest === 0 ? '' : command === 'VOID_AUTHORIZATION' ? ' (each the authorization it holds)' : ` (${rest} without an amount: the rest of the order)`;
      return `${command}${currency ? ` in ${currency}` : ''}: ${counted}${sum}${without}`;
    });
}

/**
 * Refuses a batch file with problems, each on stderr as `FILE:LINE field: message` (line 1 is the
 * header row, 0 the whole file): the one check `batch upload`, `batch process --file` and the
 * gateway make (core `validateBatchFile`).
 */
function refuseProblems(io: Io, path: string, checked: BatchFileValidation, refused: string): void {
  if (checked.errors.length === 0) return;
  for (const error of checked.errors) io.stderr.write(`${path}:${error.line} ${withField(error.field, error.message)}\n`);
  const count = checked.errors.length;
  throw new CliError(`${count} problem${count === 1 ? '' : 's'} in ${refused}`);
}

const lineCount = (count: number | string): string => `${count} line${String(count) === '1' ? '' : 's'}`;

/**
 * The money a batch moves, for the question of `batch process`. The gateway gives no lines before
 * processing, so it is read from the file uploaded (`--file`, checked before anything was asked),
 * which must hold as many lines as the batch.
 */
function moneyOfBatch(path: string | undefined, file: BatchFileValidation | undefined, count: string | number | undefined): string {
  if (path === undefined || file === undefined) {
    return " Its total is unknown: the gateway lists a batch's lines and their amounts only once it is processed (add --file FILE, the file uploaded, to see them now).";
  }
  if (count === undefined) {
    throw new CliError(`--file ${path} cannot be matched to the batch: the gateway did not say how many lines it has; nothing was sent`);
  }
  if (String(file.transactionsCount) !== String(count)) {
    throw new CliError(`--file ${path} has ${lineCount(file.transactionsCount)}; the batch has ${count}: it is not the file of this batch; nothing was sent`);
  }
  return ` Its lines (the file's amounts are minor units): ${batchTotals(file.lines).join('; ')}.`;
}

/** `REFERENCE:ID` → the handle. */
function handleOf(text: string | undefined): BatchHandle {
  const match = /^([A-Za-z0-9\-_./]{1,20}):(\d{1,20})$/.exec(text ?? '');
  if (!match) throw new CliError('the batch is named REFERENCE:ID, as "pg-checkout batch upload" printed it');
  return { batch_reference: match[1] ?? '', batch_id: match[2] ?? '' };
}

/**
 * What the bar says while the gateway validates or processes: the state and the time elapsed, with
 * no percentage, because GET_BATCH_RESULTS tells no progress within a state ("processing… 42 s").
 */
export function batchProgressText(status: BatchStatus | undefined, elapsedMs: number): string {
  const state = (status ?? 'unknown').toLowerCase().replace(/_/g, ' ');
  const working = status === 'UNDER_VALIDATION' || status === 'PROCESSING';
  return `${state}${working ? '…' : ''} ${Math.floor(elapsedMs / 1000)} s`;
}

/**
 * The money of a processed batch's succeeded lines, per currency: "EGP 90.00 in 1 line". A result
 * row names no command, so charges and refunds of one currency are added together (said so).
 */
export function processedTotals(rows: NonNullable<BatchResults['rows']>): string[] {
  const totals = new Map<string, { amount: number; lines: number }>();
  for (const row of rows) {
    const amount = String(row.amount ?? '');
    if (!isSuccess(row) || !row.currency || !/^\d+$/.test(amount)) continue;
    const total = totals.get(row.currency) ?? { amount: 0, lines: 0 };
    total.amount += Number(amount);
    total.lines += 1;
    totals.set(row.currency, total);
  }
  return [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, { amount, lines }]) => `${money(amount, currency)} in ${lines} line${lines === 1 ? '' : 's'}`);
}

function printResults(io: Io, handle: BatchHandle, results: BatchResults): void {
  io.stdout.write(`Batch ${handle.batch_reference}:${handle.batch_id}: ${(results.batch_status ?? 'unknown').toLowerCase().replace(/_/g, ' ')}`);
  const count = results.answer?.transactions_count;
  io.stdout.write(count === undefined ? '\n' : `, ${count} line${String(count) === '1' ? '' : 's'}\n`);
  for (const error of results.answer?.errors ?? []) io.stdout.write(`  line ${error.line_number} ${withField(error.field, error.message)}\n`);
  const rows = results.rows ?? [];
  for (const row of rows) {
    io.stdout.write(`  line ${row.Line_Number}  ${row.merchant_reference ?? ''}  ${row.response_code} ${row.response_message}\n`);
  }
  if (rows.length > 0) {
    const failures = rows.filter((row) => !isSuccess(row)).length;
    io.stdout.write(`  ${rows.length - failures} succeeded, ${failures} failed\n`);
    const moved = processedTotals(rows);
    if (moved.length > 0) io.stdout.write(`  succeeded lines' amounts (charges and refunds together; a result names no command): ${moved.join('; ')}\n`);
  }
}

async function waitFor(io: Io, client: GatewayClient, handle: BatchHandle, until: 'validated' | 'processed', pollSeconds: number): Promise<BatchResults> {
  const bar = progressBar(io, 'batch');
  const started = Date.now();
  try {
    return await client.waitForBatch({ ...handle, until, intervalMs: pollSeconds * 1000, onProgress: (status) => bar.update(undefined, batchProgressText(status, Date.now() - started)) });
  } finally {
    bar.done();
  }
}

export const batchCommand: CliCommand = {
  summary: 'the batch service: upload FILE, status REFERENCE:ID, process REFERENCE:ID',
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'upload' && sub !== 'status' && sub !== 'process') {
      const said = sub === undefined ? 'no batch command given' : `unknown batch command "${sub}"`;
      io.stderr.write(`pg-checkout batch: ${said}; it is one of upload, status, process\n\n${SUBCOMMANDS}\n`);
      return EXIT.usage;
    }
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        ...COMMON_OPTIONS,
        reference: { type: 'string' },
        wait: { type: 'boolean', default: false },
        'no-wait': { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        'poll-seconds': { type: 'string', default: '2' },
        file: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    const pollSeconds = Number(values['poll-seconds']);
    if (!Number.isFinite(pollSeconds) || pollSeconds <= 0) throw new CliError('--poll-seconds must be a number of seconds');
    if (positionals.length !== 1) throw new CliError(sub === 'upload' ? 'batch upload takes one FILE' : 'give the batch as REFERENCE:ID');

    if (sub === 'upload') {
      const path = positionals[0] ?? '';
      const { file, checked } = await checkedFile(io, path, values.language);
      refuseProblems(io, path, checked, 'the file; nothing was uploaded');
      const client = clientFromEnv(io, values);
      const reference = values.reference ?? timeReference('b', 'batch_reference');
      const uploaded = await client.uploadBatch({ batch_reference: reference, file, file_name: basename(path) });
      if (uploaded.outcome !== 'success' || uploaded.answer?.batch_id === undefined) {
        if (values.json) printJson(io, uploaded);
        return values.json ? exitCodeOf(uploaded.outcome) : failed(io, 'batch upload', uploaded);
      }
      const handle = { batch_reference: reference, batch_id: uploaded.answer.batch_id };
      const validated = values.wait ? await waitFor(io, client, handle, 'validated', pollSeconds) : undefined;
      if (values.json) {
        printJson(io, { handle: `${reference}:${handle.batch_id}`, upload: uploaded, ...(validated ? { results: validated } : {}) });
      } else {
        io.stdout.write(`${reference}:${handle.batch_id}\n`);
        io.stderr.write(`Uploaded ${checked.transactionsCount} line${checked.transactionsCount === 1 ? '' : 's'} (the file's amounts are minor units):\n${batchTotals(checked.lines).map((line) => `  ${line}\n`).join('')}Next: pg-checkout batch status ${reference}:${handle.batch_id}\n`);
        if (validated) printResults(io, handle, validated);
      }
      return validated && validated.outcome !== 'success' ? exitCodeOf(validated.outcome) : EXIT.success;
    }

    const handle = handleOf(positionals[0]);
    // The file uploaded, for the question of `process`: checked whole before the gateway is asked
    // anything, whatever state the batch is in, so a malformed one sends nothing at all.
    const uploadedFile = sub === 'process' && values.file !== undefined ? (await checkedFile(io, values.file, values.language)).checked : undefined;
    if (uploadedFile !== undefined) refuseProblems(io, values.file as string, uploadedFile, `--file ${values.file}; nothing was sent`);
    const client = clientFromEnv(io, values);
    if (sub === 'status') {
      const results = values.wait ? await waitFor(io, client, handle, 'processed', pollSeconds) : await client.batchResults(handle);
      if (values.json) printJson(io, results);
      else if (results.outcome === 'refused' || results.outcome === 'not_activated') return failed(io, 'batch status', results);
      else printResults(io, handle, results);
      return results.batch_status === 'UNDER_VALIDATION' || results.batch_status === 'PROCESSING' ? EXIT.pending : exitCodeOf(results.outcome);
    }

    if (sub === 'process') {
      const before = await client.batchResults(handle);
      // Asked unless the batch is already under way or done, whatever else the reading says: the
      // state (batch_status) is this package's reading of the answer, which a live gateway may not
      // give, and a batch still validating may be ready by the time PROCESS_BATCH arrives.
      if (before.batch_status !== 'PROCESSING' && before.batch_status !== 'PROCESSED') {
        const count = before.answer?.transactions_count;
        const question = `Process batch ${handle.batch_reference}:${handle.batch_id}, ${count ?? '?'} line(s) of charges and maintenance operations?${moneyOfBatch(values.file, uploadedFile, count)}`;
        if (!(await confirm(io, question, values.yes))) {
          io.stderr.write('pg-checkout batch process: cancelled; nothing was sent\n');
          return EXIT.cancelled;
        }
      }
      const processed = await client.processBatch(handle);
      if (processed.outcome !== 'success' || values['no-wait']) {
        if (values.json) printJson(io, processed);
        else if (processed.outcome !== 'success') return failed(io, 'batch process', processed);
        else io.stdout.write(`Batch ${handle.batch_reference}:${handle.batch_id}: processing (${processed.response_code} ${processed.response_message})\n`);
        return exitCodeOf(processed.outcome);
      }
      const results = await waitFor(io, client, handle, 'processed', pollSeconds);
      if (values.json) printJson(io, { process: processed, results });
      else printResults(io, handle, results);
      return results.batch_status === 'PROCESSED' ? EXIT.success : EXIT.pending;
    }
    return EXIT.usage;
  },
};
