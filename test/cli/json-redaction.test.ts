/**
 * What `--json` prints is for scripts and operators, and ends up in terminals, CI logs and tickets:
 * never the merchant's credentials. The real CLI is spawned against the sandbox on a loopback port
 * and its stdout read: `access_code` and every `signature` are "[redacted]" (the key kept, so the
 * JSON keeps its shape), a card number is masked, and everything an operator reads is still there.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBatchFile } from '../../src/core/batch-file.ts';
import type { VerifiedResult } from '../../src/core/verified-result.ts';
import { REDACTED, redactForOperator } from '../../src/cli/json-output.ts';
import type { GatewayClient } from '../../src/gateway/index.ts';
import { BATCH_PROCESSING_MS, BATCH_VALIDATION_MS } from '../../src/sandbox/batch.ts';
import { openStore } from '../../src/store/open.ts';
import { authorize, card, clientFor, M, nextReference, startSandbox, type Sandbox } from '../gateway/support.ts';

const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

let sandbox: Sandbox;
let client: GatewayClient;
let workdir: string;

before(async () => {
  sandbox = await startSandbox();
  client = clientFor(sandbox.origin);
  workdir = mkdtempSync(join(tmpdir(), 'pg-checkout-json-'));
});
after(async () => {
  await sandbox.close();
  rmSync(workdir, { recursive: true, force: true });
});

function env(): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    PG_MERCHANT_IDENTIFIER: M.merchantIdentifier,
    PG_ACCESS_CODE: M.accessCode,
    PG_SHA_TYPE: M.shaType === 'sha256' ? 'SHA-256' : 'SHA-512',
    PG_SHA_REQUEST_PHRASE: M.requestPhrase,
    PG_SHA_RESPONSE_PHRASE: M.responsePhrase,
    PG_GATEWAY_BASE_URL: sandbox.origin,
    PG_API_ROOT: 'FortAPI',
    PG_BATCH_SANDBOX_URL: sandbox.origin,
    PG_CURRENCY: 'EGP',
    PG_DATA_DIR: join(workdir, 'data'),
  };
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The real CLI, stdin a pipe (never a terminal). */
function cli(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end('');
  });
}

/** Every place in `value` where a credential or a clear card number shows, as a path. */
function leaks(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaks(item, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const at = `${path}.${key}`;
    if (/signature|access_?code|phrase|secret/i.test(key) && item !== REDACTED) return [at];
    // A masked number shows 10 digits at most (the first 6, the last 4).
    if (/card_number/i.test(key) && typeof item === 'string' && item.replace(/\D/g, '').length > 10) return [at];
    return leaks(item, at);
  });
}

/** The JSON a command printed, checked to hold no credential, its text none of the merchant's secrets. */
function printed(run: Run): Record<string, unknown> {
  assert.ok(run.stdout.trim().startsWith('{') || run.stdout.trim().startsWith('['), `JSON on stdout: ${run.stdout}${run.stderr}`);
  for (const secret of [M.accessCode, M.requestPhrase, M.responsePhrase]) {
    assert.ok(!run.stdout.includes(secret), `stdout holds a credential:\n${run.stdout}`);
  }
  const json = JSON.parse(run.stdout) as Record<string, unknown>;
  assert.deepEqual(leaks(json), [], run.stdout);
  return json;
}

type Answered = { outcome: string; answer: Record<string, unknown> };

describe('pg-checkout --json prints no credential', () => {
  it('status, capture, refund and void: the answer keeps its fields, access_code and signature redacted', async () => {
    const reference = nextReference('json-money');
    const svcId = await authorize(client, reference, 10_000);

    const status = printed(await cli(['status', '--reference', reference, '--json'])) as unknown as Answered;
    assert.equal(status.outcome, 'success');
    assert.equal(status.answer['access_code'], REDACTED);
    assert.equal(status.answer['signature'], REDACTED);
    // What an operator reads is all still there, the merchant's identifier included (an identifier, not a credential).
    assert.equal(status.answer['merchant_reference'], reference);
    assert.equal(status.answer['svc_id'], svcId);
    assert.equal(status.answer['authorized_amount'], '10000');
    assert.equal(status.answer['merchant_identifier'], M.merchantIdentifier);

    const capture = printed(await cli(['capture', '--reference', reference, '--amount', '60.00', '--yes', '--json'])) as unknown as Answered;
    assert.equal(capture.outcome, 'success');
    assert.deepEqual([capture.answer['access_code'], capture.answer['signature'], capture.answer['amount']], [REDACTED, REDACTED, '6000']);

    const refund = printed(await cli(['refund', '--reference', reference, '--amount', '10.00', '--yes', '--json'])) as unknown as Answered;
    assert.equal(refund.outcome, 'success');
    assert.deepEqual([refund.answer['access_code'], refund.answer['signature']], [REDACTED, REDACTED]);

    const held = nextReference('json-void');
    await authorize(client, held, 5_000);
    const voided = printed(await cli(['void', '--reference', held, '--yes', '--json'])) as unknown as Answered;
    assert.equal(voided.outcome, 'success');
    assert.deepEqual([voided.answer['access_code'], voided.answer['signature']], [REDACTED, REDACTED]);
  });

  it('tokens and exchange: the token list keeps its names and masked cards', async () => {
    const created = await client.createToken({ merchant_reference: nextReference('json-token'), ...card() });
    assert.equal(created.outcome, 'success', JSON.stringify(created));
    const tokens = printed(await cli(['tokens', '--json'])) as unknown as Answered;
    assert.equal(tokens.answer['access_code'], REDACTED);
    assert.equal(tokens.answer['signature'], REDACTED);
    const listed = (tokens.answer['data_list'] as Record<string, string>[]).find((token) => token['token_name'] === created.answer?.token_name);
    assert.ok(listed, 'the token an operator looks for is listed by name');
    assert.match(listed['card_number'] ?? '', /^\d{6}\*+\d{4}$/);

    const exchange = printed(await cli(['exchange', '--amount', '10.00', '--from', 'EGP', '--to', 'USD', '--json'])) as unknown as Answered;
    assert.equal(exchange.outcome, 'success');
    assert.deepEqual([exchange.answer['access_code'], exchange.answer['signature']], [REDACTED, REDACTED]);
    assert.ok(exchange.answer['converted_amount'] !== undefined);
  });

  it('report: the generate answer and the download are printed without credentials, the file’s digest kept', async () => {
    await authorize(client, nextReference('json-report'), 1_000);
    const run = await cli(['report', '--from', '2026-03-10', '--to', '2026-03-10', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const json = printed(run) as { generate: Answered; download: Answered & { file: { file_digest: string } } };
    assert.equal(json.generate.answer['access_code'], REDACTED);
    assert.equal(json.generate.answer['signature'], REDACTED);
    assert.match(json.download.file.file_digest, /^[0-9a-f]{64}$/, 'the file’s digest is no credential: kept');
  });

  it('batch upload, status and process: every answer without credentials, the handle and the rows kept', async () => {
    const held = nextReference('json-b');
    await authorize(client, held, 9_000);
    const file = join(workdir, 'batch.csv');
    writeFileSync(file, buildBatchFile([{ command: 'CAPTURE', merchant_reference: held, amount: '9000', currency: 'EGP' }]));
    const uploaded = printed(await cli(['batch', 'upload', file, '--json'])) as { handle: string; upload: Answered };
    assert.match(uploaded.handle, /^[^:]+:\d+$/);
    assert.deepEqual([uploaded.upload.answer['access_code'], uploaded.upload.answer['signature']], [REDACTED, REDACTED]);

    sandbox.clock.advance(BATCH_VALIDATION_MS);
    const status = printed(await cli(['batch', 'status', uploaded.handle, '--json'])) as unknown as Answered;
    assert.deepEqual([status.answer['access_code'], status.answer['signature']], [REDACTED, REDACTED]);

    const processing = printed(await cli(['batch', 'process', uploaded.handle, '--yes', '--no-wait', '--json'])) as unknown as Answered;
    assert.equal(processing.outcome, 'success');
    assert.deepEqual([processing.answer['access_code'], processing.answer['signature']], [REDACTED, REDACTED]);

    sandbox.clock.advance(BATCH_PROCESSING_MS);
    const done = printed(await cli(['batch', 'status', uploaded.handle, '--json'])) as Answered & { rows: Record<string, string>[] };
    assert.equal(done.rows[0]?.['merchant_reference'], held);
    assert.match(done.rows[0]?.['card_number'] ?? '', /^\d{6}\*+\d{4}$/);
  });

  it('results: a stored result’s gateway fields without the access code, any signature, and with a clear card number masked', async () => {
    const store = await openStore({ dataDir: join(workdir, 'data') });
    try {
      const result = {
        merchant_reference: 'json-1001',
        outcome: 'success',
        response_code: '14000',
        response_message: 'Success',
        status: '14',
        svc_id: '177313320000000001',
        amount: 250_000,
        currency: 'EGP',
        source: 'return',
        kind: 'payment',
        idempotency_key: 'json-1001:177313320000000001:captured',
        order_state: 'captured',
        // As an older service, or another writer of the store, might have kept it.
        gateway: { access_code: M.accessCode, signature: 'a'.repeat(64), merchant_identifier: M.merchantIdentifier, card_number: '4111111111111111', svc_id: '177313320000000001' },
      } as unknown as VerifiedResult;
      await store.results.record(result);
    } finally {
      await store.close();
    }
    const run = await cli(['results', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const [entry] = printed(run) as unknown as { result: VerifiedResult }[];
    assert.deepEqual(entry?.result.gateway, {
      access_code: REDACTED,
      signature: REDACTED,
      merchant_identifier: M.merchantIdentifier,
      card_number: '411111******1111',
      svc_id: '177313320000000001',
    });
    assert.equal(entry?.result.svc_id, '177313320000000001', 'a long reference is no card number: kept');
  });
});

describe('redactForOperator', () => {
  it('replaces credentials at any depth, keeping every key, and leaves the value it was given unchanged', () => {
    const given = {
      answer: { access_code: 'zx0IPmPy5jp1vAz', signature: 'f'.repeat(64), merchant_identifier: 'abcdEFGH', status: '14' },
      nested: [{ accessCode: 'x', requestPhrase: 'p', hook_secret: 's', otp: '123456', card_security_code: '123', ver_token: 'v' }],
      batch_id: '17731332000000001',
      amount: 1000,
      empty: null,
    };
    const copy = structuredClone(given);
    assert.deepEqual(redactForOperator(given), {
      answer: { access_code: REDACTED, signature: REDACTED, merchant_identifier: 'abcdEFGH', status: '14' },
      nested: [{ accessCode: REDACTED, requestPhrase: REDACTED, hook_secret: REDACTED, otp: REDACTED, card_security_code: REDACTED, ver_token: REDACTED }],
      batch_id: '17731332000000001',
      amount: 1000,
      empty: null,
    });
    assert.deepEqual(given, copy);
  });

  it('masks a card number whatever its form, keeps one already masked, and keeps what an operator needs of a card', () => {
    assert.deepEqual(
      redactForOperator({
        data_list: [
          { card_number: '4111 1111 1111 1111', token_name: 'tok-1', expiry_date: '2908', card_bin: '411111' },
          { card_number: '512345******2346' },
          { card_number: '12345' },
        ],
      }),
      {
        data_list: [
          { card_number: '411111******1111', token_name: 'tok-1', expiry_date: '2908', card_bin: '411111' },
          { card_number: '512345******2346' },
          { card_number: '*****' },
        ],
      },
    );
  });

  it('masks a card number given as a number, or typed into free text; shows a phone number by its last three digits; keeps identifiers whole', () => {
    assert.deepEqual(
      redactForOperator({
        card_number: 4111111111111111,
        response_message: 'card 4111 1111 1111 1111 declined',
        merchant_extra: '4111111111111111',
        phone_number: '+201001234567',
        svc_id: '179575690664400001',
        bill_number: '65634739499614',
        token_name: 'tok_1234567890123456',
      }),
      {
        card_number: '411111******1111',
        response_message: 'card [digits] declined',
        merchant_extra: '[digits]',
        phone_number: '+*********567',
        svc_id: '179575690664400001',
        bill_number: '65634739499614',
        token_name: 'tok_1234567890123456',
      },
    );
  });
});
