/**
 * `pg-checkout results [--ack KEY]`: the results a running `pg-checkout serve` holds that the shop
 * has not acknowledged (its webhook was down, say), and acknowledging one once the shop has it.
 * It calls the service's results routes signed with `PG_HOOK_SECRET` (read from the environment,
 * never from an argument, which other users of the machine could see) and checks the answers'
 * signatures too.
 */
import { parseArgs } from 'node:util';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from '../server/hook-signature.ts';
import type { StoredResult as OutboxEntry } from '../store/store.ts';
import { SERVICE_ROUTES } from '../server/shop-protocol.ts';
import type { CliCommand } from './command.ts';
import { CliError } from './input.ts';

const RESULTS_USAGE = `Usage:
  pg-checkout results [--url URL] [--json] [--limit N]   list the results the shop has not acknowledged
  pg-checkout results --ack KEY [--url URL]              acknowledge the result with this idempotency key

The service is the one PG_PUBLIC_URL, PG_HOST, PG_PORT and PG_BASE_PATH describe (default
http://127.0.0.1:8787), or --url (its endpoint URL, base path included). Requests are signed with
PG_HOOK_SECRET, which must be set in the environment. Exit 0 on success, 1 when the key is not
awaiting acknowledgement, 2 on any other error.`;

interface Io {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The service's endpoint URL from the same variables `pg-checkout serve` reads. */
function serviceUrl(env: Io['env']): string {
  const base = env['PG_BASE_PATH']?.trim() ?? '';
  const publicUrl = env['PG_PUBLIC_URL']?.trim();
  if (publicUrl) return `${publicUrl.replace(/\/+$/, '')}${base}`;
  const host = env['PG_HOST']?.trim() || '127.0.0.1';
  const listening = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${listening}:${env['PG_PORT']?.trim() || '8787'}${base}`;
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
  if (response.status === 401) throw new CliError('the service refused the signature: PG_HOOK_SECRET differs from the service’s, or the clocks are more than 5 minutes apart');
  if (response.status === 404 && !answer.includes('unknown_result')) {
    throw new CliError('the service has no results routes: start it with PG_HOOK_SECRET set');
  }
  if (response.ok) {
    const verified = await verifyHookSignature(answer, response.headers.get(HOOK_SIGNATURE_HEADER), secret);
    if (!verified.valid) throw new CliError(`the answer's signature is ${verified.reason}: not the service sharing PG_HOOK_SECRET`);
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
  const failure = entry.last_error ? `, last failure: ${entry.last_error}` : '';
  return `${result.idempotency_key}  ${result.outcome} (${result.order_state})  ${result.merchant_reference}  recorded ${entry.recorded_at}, ${entry.attempts} deliveries tried${failure}`;
}

async function runResults(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ack: { type: 'string' },
      url: { type: 'string' },
      json: { type: 'boolean', default: false },
      limit: { type: 'string' },
    },
    strict: true,
  });
  const secret = io.env['PG_HOOK_SECRET']?.trim();
  if (!secret) throw new CliError('PG_HOOK_SECRET is not set (the shared secret the service signs with)');
  const base = (values.url ?? serviceUrl(io.env)).replace(/\/+$/, '');

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

  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 500)) {
    throw new CliError('--limit must be a whole number from 1 to 500');
  }
  const { status, value } = await call(`${base}${SERVICE_ROUTES.resultsPending}`, secret, limit === undefined ? {} : { limit });
  if (status !== 200) throw new CliError(refusalOf(value, status));
  const entries = (value as { results: OutboxEntry[] }).results;
  if (values.json) io.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  else if (entries.length === 0) io.stdout.write('no result is waiting for the shop\n');
  else io.stdout.write(`${entries.map(describe).join('\n')}\n`);
  return 0;
}

function refusalOf(value: unknown, status: number): string {
  const error = (value as { error?: { code?: string; message?: string; field?: string } }).error;
  return error ? `${error.code}${error.field ? ` (${error.field})` : ''}: ${error.message}` : `the service answered HTTP ${status}`;
}

export const resultsCommand: CliCommand = {
  summary: 'list the results the shop has not acknowledged, or acknowledge one (the standalone service)',
  usage: RESULTS_USAGE,
  run: runResults,
};
