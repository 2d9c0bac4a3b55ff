/**
 * `pg-checkout report`: GENERATE_REPORT for a date window, then DOWNLOAD_REPORT of it as CSV, JSON
 * or XML. With `--out` the file is written as it arrives (a progress bar on a terminal), kept only
 * once it verified against the gateway's signed headers; without, it goes to stdout.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_REPORT_COLUMNS } from '../core/report-file.ts';
import { REPORT_COLUMNS, type ReportColumn } from '../core/schemas/index.ts';
import { GatewayRequestError, GatewayUnavailableError } from '../gateway/transport.ts';
import { clientFromEnv, COMMON_OPTIONS, COMMON_USAGE, failed, printJson } from './client-env.ts';
import { EXIT, EXIT_CODES_HELP, exitCodeOf, type CliCommand } from './command.ts';
import { dateOption, timeReference } from './dates.ts';
import { CliError } from './input.ts';
import { progressBar } from './progress.ts';

const FORMATS = { csv: 'CSV', json: 'JSON', xml: 'XML' } as const;

/** A file written chunk by chunk, waiting when the disk is behind. */
function fileSink(path: string) {
  const stream = createWriteStream(path, { flags: 'wx' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  return {
    opened,
    write: (chunk: Uint8Array) =>
      new Promise<void>((resolve, reject) => {
        stream.write(chunk, (error) => (error ? reject(error) : resolve()));
      }),
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
  };
}

/**
 * The client's refusal of a report request, in the options the operator typed: the dates' wire
 * fields as `--from` and `--to`, and a window the core refuses for ending before it starts
 * (`to_date` invalid) said so.
 */
function inOptionWords(error: GatewayRequestError, window: { readonly from: string; readonly to: string }): string {
  return error.errors
    .map(({ field, rule, message }) => {
      if (field === 'to_date' && rule === 'invalid') return `--to ${window.to} is before --from ${window.from}`;
      return field === 'from_date' || field === 'to_date' ? message.replace(field, field === 'from_date' ? '--from' : '--to') : message;
    })
    .join('; ');
}

export const reportCommand: CliCommand = {
  summary: 'generate a report of a date window and download it (CSV, JSON or XML), verified',
  usage: `Usage: pg-checkout report --from D --to D [--format csv|json|xml] [--out FILE] [--reference R] [--columns a,b] [--json]

Generates a report of the operations from --from to --to (GENERATE_REPORT) and downloads it
(DOWNLOAD_REPORT), checking the file against the gateway's signed digest before keeping it.
  --from D, --to D  a date (2026-03-10, the whole day in UTC) or ISO 8601 with an offset
  --format F        csv (default), json or xml
  --out FILE        write the file there (refused, before anything is asked, if it exists); without it, stdout
  --reference R     the report's merchant_reference (default rep-<time to the millisecond><random>)
  --columns a,b     the columns, in order; default ${DEFAULT_REPORT_COLUMNS.join(',')}
                    (svc_id is written as the gateway's wire name); any of ${REPORT_COLUMNS.join(', ')}
${COMMON_USAGE}

${EXIT_CODES_HELP}`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: {
        ...COMMON_OPTIONS,
        from: { type: 'string' },
        to: { type: 'string' },
        format: { type: 'string', default: 'csv' },
        out: { type: 'string' },
        reference: { type: 'string' },
        columns: { type: 'string' },
      },
      strict: true,
    });
    if (!values.from || !values.to) throw new CliError('--from and --to are required');
    const format = FORMATS[values.format.toLowerCase() as keyof typeof FORMATS];
    if (!format) throw new CliError('--format must be csv, json or xml');
    const columns = values.columns?.split(',').map((name) => name.trim());
    const unknown = columns?.find((name) => !(REPORT_COLUMNS as readonly string[]).includes(name));
    if (unknown !== undefined) throw new CliError(`--columns: "${unknown}" is not a report column (${REPORT_COLUMNS.join(', ')})`);
    // Checked before anything is asked of the gateway: a refused --out must not cost a report reference.
    if (values.out !== undefined && existsSync(values.out)) {
      throw new CliError(`--out: ${values.out} exists already; the report is never written over a file (remove it or name another)`);
    }
    const reference = values.reference ?? timeReference('rep', 'merchant_reference');
    const client = clientFromEnv(io, values);

    const window = { from: values.from, to: values.to };
    const generated = await client
      .generateReport({
        merchant_reference: reference,
        from_date: dateOption(window.from, 'start', '--from'),
        to_date: dateOption(window.to, 'end', '--to'),
        columns: columns ? (columns as ReportColumn[]) : [...DEFAULT_REPORT_COLUMNS],
      })
      .catch((error: unknown) => Promise.reject(error instanceof GatewayRequestError ? new CliError(inOptionWords(error, window)) : error));
    if (generated.outcome !== 'success') {
      if (values.json) printJson(io, { generate: generated });
      return values.json ? exitCodeOf(generated.outcome) : failed(io, 'report', generated);
    }

    const part = values.out === undefined ? undefined : `${values.out}.part`;
    const sink = part === undefined ? undefined : fileSink(part);
    if (sink) await sink.opened.catch(() => Promise.reject(new CliError(`--out: ${part} cannot be written (does it exist already?)`)));
    const bar = progressBar(io, 'report');
    try {
      const downloaded = await client.downloadReport({
        merchant_reference: reference,
        file_format: format,
        ...(sink ? { sink } : {}),
        onProgress: ({ bytes, rows, totalRows }) =>
          bar.update(totalRows > 0 ? rows / totalRows : undefined, `${rows}/${totalRows} rows, ${Math.ceil(bytes / 1024)} KiB`),
      });
      bar.done();
      await sink?.close();
      if (downloaded.outcome !== 'success' || !downloaded.file) {
        if (part) await rm(part, { force: true });
        if (values.json) printJson(io, { generate: generated, download: downloaded });
        return values.json ? exitCodeOf(downloaded.outcome) : failed(io, 'report', downloaded);
      }
      if (part && values.out) await rename(part, values.out);
      const { text, content: _rows, ...file } = downloaded.file;
      if (values.json) {
        printJson(io, { generate: generated, download: { ...downloaded, file: values.out ? { ...file, path: values.out } : downloaded.file } });
      } else if (values.out) {
        io.stdout.write(`Report ${reference}: ${file.transactions_count} rows, ${format}, verified, written to ${values.out}\n`);
      } else {
        io.stdout.write(text ?? '');
      }
      return EXIT.success;
    } catch (error) {
      bar.done();
      await sink?.close();
      if (part) await rm(part, { force: true });
      if (error instanceof GatewayUnavailableError && error.kind === 'signature_invalid') {
        io.stderr.write(`pg-checkout report: the downloaded file does not verify against the gateway's signature; it was discarded\n`);
        return EXIT.verificationFailed;
      }
      throw error;
    }
  },
};
