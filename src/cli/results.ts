/**
 * `pg-checkout results`: the results the service recorded, read from its durable store (the same
 * PG_DATA_DIR or PG_DATABASE_URL as `pg-checkout serve`, so it works while the service is down):
 * pending (not acknowledged by the shop), failing (with the last error), delivered, or all;
 * `--ack KEY` marks one acknowledged, `--redeliver KEY` makes one due for delivery again.
 *
 * With `--url` it asks a running service on another machine instead, through its results routes
 * signed with `PG_HOOK_SECRET` (read from the environment, never from an argument, which other
 * users of the machine could see), and checks the answers' signatures too.
 */
import { parseArgs } from 'node:util';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from '../server/hook-signature.ts';
import type { StoredResult as OutboxEntry } from '../store/store.ts';
import { SERVICE_ROUTES } from '../server/shop-protocol.ts';
import type { CliCommand } from './command.ts';
import { CliConfigError } from './client-env.ts';
import { CliError } from './input.ts';
import type { Io as CommandIo } from './command.ts';
import { printJson } from './json-output.ts';
import { storeFromEnv } from './store-env.ts';

const RESULTS_USAGE = `Usage:
  pg-checkout results [--pending|--failing|--delivered|--all] [--since DATE] [--limit N] [--json]
                                         list results from the store (default: pending, oldest first)
  pg-checkout results --ack KEY          mark the result with this idempotency key acknowledged
  pg-checkout results --redeliver KEY    deliver it to the shop's webhook again (acknowledged or not)
  pg-checkout results --url URL [--ack KEY] [--json] [--limit N]
                                         ask a running service elsewhere (its signed results routes)

pending: not acknowledged by the shop yet; failing: pending, and at least one delivery failed (the
last error is shown); delivered: acknowledged. --since takes a date or time (2026-11-26, or ISO 8601).
The store is the one pg-checkout serve uses: PG_DATABASE_URL, else the SQLite file under PG_DATA_DIR
(default ./pg-checkout-data). With --url, requests are signed with PG_HOOK_SECRET (set it in the
environment) and the service is --url (its endpoint URL, base path included).
Exit 0 on success, 1 when the key is unknown (or not awaiting acknowledgement), 2 on a usage error,
3 when the store cannot be opened or PG_HOOK_SECRET is missing or not the service's (--url).`;

interface Io {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

async function call(url: string, secret: string, body: unknown): Promise<{ status: number; value: unknown }> {
  const text = JSON.stringify(body);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [HOOK_SIGNATURE_HEADER]: await signHookBody(text, secret) },
      body: text,
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new CliError(`the service at ${new URL(url).origin} could not be reached (is pg-checkout serve running?)`);
  }
  const answer = await response.text();
  if (response.status === 401) throw new CliConfigError('the service refused the signature: PG_HOOK_SECRET differs from the service’s, or the clocks are more than 5 minutes apart');
  if (response.status === 404 && !answer.includes('unknown_result')) {
    throw new CliError('the service has no results routes: start it with PG_HOOK_SECRET set');
  }
  if (response.ok) {
    const verified = await verifyHookSignature(answer, response.headers.get(HOOK_SIGNATURE_HEADER), secret);
    if (!verified.valid) throw new CliConfigError(`the answer's signature is ${verified.reason}: not the service sharing PG_HOOK_SECRET`);
  }
  let value: unknown;
  try {
    value = JSON.parse(answer);
  } catch {
    throw new CliError(`the service answered HTTP ${response.status} with something other than JSON`);
  }
  return { status: response.status, value };
}

function describe(entry: OutboxEntry): string {
  const { result } = entry;
  const delivery = entry.acknowledged_at
    ? `acknowledged ${entry.acknowledged_at}`
    : `${entry.attempts} deliveries tried${entry.last_error ? `, last failure: ${entry.last_error}` : ''}, next ${entry.next_attempt_at}`;
  return `${result.idempotency_key}  ${result.outcome} (${result.order_state}, ${result.source})  ${result.merchant_reference}  recorded ${entry.recorded_at}; ${delivery}`;
}

function sinceOf(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(date.getTime())) throw new CliError('--since must be a date (2026-11-26) or an ISO 8601 time');
  return date;
}

/** The store's results, as `serve` recorded them. */
async function runOnStore(values: ResultsValues, io: Io, limit: number | undefined): Promise<number> {
  const states = (['pending', 'failing', 'delivered', 'all'] as const).filter((state) => values[state]);
  if (states.length > 1) throw new CliError('give one of --pending, --failing, --delivered and --all');
  const store = await storeFromEnv(io as CommandIo, { create: false });
  try {
    const now = new Date();
    if (values.ack !== undefined) {
      if (!(await store.results.acknowledge(values.ack, now))) {
        io.stderr.write(`pg-checkout results: no result awaiting acknowledgement has the key ${values.ack}\n`);
        return 1;
      }
      io.stdout.write(`acknowledged ${values.ack}\n`);
      return 0;
    }
    if (values.redeliver !== undefined) {
      if (!(await store.results.redeliver(values.redeliver, now))) {
        io.stderr.write(`pg-checkout results: no result has the key ${values.redeliver}\n`);
        return 1;
      }
      io.stdout.write(`${values.redeliver} is due for delivery again: pg-checkout serve sends it to the shop's webhook within seconds\n`);
      return 0;
    }
    const state = states[0] ?? 'pending';
    const since = sinceOf(values.since);
    const entries = await store.results.list({ state, limit: limit ?? 100, ...(since ? { since } : {}) });
    if (values.json) printJson(io, entries);
    else if (entries.length === 0) io.stdout.write(state === 'pending' ? 'no result is waiting for the shop\n' : `no ${state === 'all' ? '' : `${state} `}result\n`);
    else io.stdout.write(`${entries.map(describe).join('\n')}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

interface ResultsValues {
  readonly ack?: string | undefined;
  readonly redeliver?: string | undefined;
  readonly url?: string | undefined;
  readonly json?: boolean | undefined;
  readonly limit?: string | undefined;
  readonly since?: string | undefined;
  readonly pending?: boolean | undefined;
  readonly failing?: boolean | undefined;
  readonly delivered?: boolean | undefined;
  readonly all?: boolean | undefined;
}

async function runResults(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ack: { type: 'string' },
      redeliver: { type: 'string' },
      url: { type: 'string' },
      json: { type: 'boolean', default: false },
      limit: { type: 'string' },
      since: { type: 'string' },
      pending: { type: 'boolean' },
      failing: { type: 'boolean' },
      delivered: { type: 'boolean' },
      all: { type: 'boolean' },
    },
    strict: true,
  });
  const limitValue = values.limit === undefined ? undefined : Number(values.limit);
  if (limitValue !== undefined && !(Number.isInteger(limitValue) && limitValue >= 1 && limitValue <= 500)) {
    throw new CliError('--limit must be a whole number from 1 to 500');
  }
  if (values.url === undefined) return runOnStore(values, io, limitValue);
  if (values.redeliver !== undefined || values.since !== undefined || values.failing || values.delivered || values.all) {
    throw new CliError('--url lists pending results and acknowledges them; --redeliver, --since and the other states read the store');
  }
  const secret = io.env['PG_HOOK_SECRET']?.trim();
  if (!secret) throw new CliConfigError('PG_HOOK_SECRET is not set (the shared secret the service signs with)');
  const base = values.url.replace(/\/+$/, '');

  if (values.ack !== undefined) {
    const { status, value } = await call(`${base}${SERVICE_ROUTES.resultsAcknowledge}`, secret, { idempotency_key: values.ack });
    if (status === 404) {
      io.stderr.write(`pg-checkout results: no result awaiting acknowledgement has the key ${values.ack}\n`);
      return 1;
    }
    if (status !== 200) throw new CliError(refusalOf(value, status));
    io.stdout.write(`acknowledged ${values.ack}\n`);
    return 0;
  }

  const limit = limitValue;
  const { status, value } = await call(`${base}${SERVICE_ROUTES.resultsPending}`, secret, limit === undefined ? {} : { limit });
  if (status !== 200) throw new CliError(refusalOf(value, status));
  const entries = (value as { results: OutboxEntry[] }).results;
  if (values.json) printJson(io, entries);
  else if (entries.length === 0) io.stdout.write('no result is waiting for the shop\n');
  else io.stdout.write(`${entries.map(describe).join('\n')}\n`);
  return 0;
}

function refusalOf(value: unknown, status: number): string {
  const error = (value as { error?: { code?: string; message?: string; field?: string } }).error;
  return error ? `${error.code}${error.field ? ` (${error.field})` : ''}: ${error.message}` : `the service answered HTTP ${status}`;
}

export const resultsCommand: CliCommand = {
  summary: 'the results the service recorded (pending, failing, delivered), acknowledge or redeliver one',
  usage: RESULTS_USAGE,
  run: runResults,
};
