/**
 * The back-office commands as operations staff run them: the real CLI spawned with the PG_*
 * variables of `serve`, against the sandbox on a loopback port. Money-moving commands ask first
 * (and refuse to assume a yes when stdin is not a terminal); --json prints the typed result; the
 * exit codes tell the outcomes apart; every command answers --help and -h.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBatchFile } from '../../src/core/batch-file.ts';
import { DEFAULT_REPORT_COLUMNS, readReportFile } from '../../src/core/report-file.ts';
import { COMMANDS } from '../../src/cli/main.ts';
import { EXIT } from '../../src/cli/command.ts';
import { openStore } from '../../src/store/open.ts';
import type { GatewayClient } from '../../src/gateway/index.ts';
import { BATCH_PROCESSING_MS, BATCH_VALIDATION_MS } from '../../src/sandbox/batch.ts';
import { SANDBOX_MERCHANT_BASIC, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { authorize, card, clientFor, M, nextReference, startFaultProxy, startSandbox, type Sandbox } from '../gateway/support.ts';

const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

let sandbox: Sandbox;
let client: GatewayClient;
let workdir: string;

before(async () => {
  sandbox = await startSandbox();
  client = clientFor(sandbox.origin);
  workdir = mkdtempSync(join(tmpdir(), 'pg-checkout-cli-'));
});
after(async () => {
  await sandbox.close();
  rmSync(workdir, { recursive: true, force: true });
});

function envFor(merchant: SandboxMerchant = M, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env['PATH'],
    PG_MERCHANT_IDENTIFIER: merchant.merchantIdentifier,
    PG_ACCESS_CODE: merchant.accessCode,
    PG_SHA_TYPE: merchant.shaType === 'sha256' ? 'SHA-256' : 'SHA-512',
    PG_SHA_REQUEST_PHRASE: merchant.requestPhrase,
    PG_SHA_RESPONSE_PHRASE: merchant.responsePhrase,
    PG_GATEWAY_BASE_URL: sandbox.origin,
    PG_CHECKOUT_URL: sandbox.origin,
    PG_API_ROOT: 'FortAPI',
    PG_BATCH_SANDBOX_URL: sandbox.origin,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawns the CLI (not spawnSync: the sandbox answers from this process) with stdin a pipe, never a terminal. */
function cli(args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { env: options.env ?? envFor(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

const capturedAt = (reference: string) => sandbox.gateway.order({ merchantReference: reference })?.capturedAmount;

describe('pg-checkout <command> --help', () => {
  it('prints each command’s usage and exits 0, with --help and with -h, for every command', async () => {
    for (const name of Object.keys(COMMANDS)) {
      for (const flag of ['--help', '-h']) {
        const run = await cli([name, flag], { env: { PATH: process.env['PATH'] ?? '' } });
        assert.equal(run.code, 0, `${name} ${flag}: ${run.stderr}`);
        assert.match(run.stdout, new RegExp(`pg-checkout ${name}\\b`), `${name} ${flag} prints its usage`);
      }
    }
    assert.ok(['sign', 'verify', 'serve', 'capture', 'refund', 'void', 'status', 'tokens', 'report', 'batch', 'exchange'].every((name) => name in COMMANDS));
  });

  it('lists every command and the exit codes with pg-checkout --help', async () => {
    const run = await cli(['--help'], { env: { PATH: process.env['PATH'] ?? '' } });
    assert.equal(run.code, 0);
    for (const name of Object.keys(COMMANDS)) assert.match(run.stdout, new RegExp(`^  ${name} `, 'm'));
    assert.match(run.stdout, /7 {2}outcome unknown/);
  });
});

describe('pg-checkout status', () => {
  it('shows the state and the amounts in major units with --currency, in minor units (saying so) without', async () => {
    const reference = nextReference('cli-status');
    await authorize(client, reference, 123_450);
    const shown = await cli(['status', '--reference', reference, '--currency', 'EGP']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`Order ${reference} \\(svc_id \\d+\\): authorized`));
    assert.match(shown.stdout, /authorized {2}EGP 1,234\.50/);
    const minor = await cli(['status', '--reference', reference], { env: envFor(M, { PG_CURRENCY: undefined }) });
    assert.match(minor.stdout, /authorized {2}123450 \(minor units\)/);
    assert.match(minor.stdout, /pass --currency/);
  });

  it('says an order captured in part is partly captured, with what is left to capture', async () => {
    const reference = nextReference('cli-partly');
    await authorize(client, reference, 10_000);
    assert.equal((await client.capture({ merchant_reference: reference, currency: 'EGP', amount: 4_000 })).outcome, 'success');
    const run = await cli(['status', '--reference', reference, '--currency', 'EGP']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`Order ${reference} \\(svc_id \\d+\\): partly captured \\(EGP 60\\.00 left to capture\\)\n`));
  });

  it('says why the uncaptured rest of a refunded order can no longer be captured or voided', async () => {
    const reference = nextReference('cli-stuck');
    await authorize(client, reference, 10_000);
    assert.equal((await client.capture({ merchant_reference: reference, currency: 'EGP', amount: 4_000 })).outcome, 'success');
    assert.equal((await client.refund({ merchant_reference: reference, currency: 'EGP', amount: 1_000 })).outcome, 'success');
    const run = await cli(['status', '--reference', reference, '--currency', 'EGP']);
    assert.match(run.stdout, /: partially refunded\n/);
    assert.match(run.stdout, /\n {2}EGP 60\.00 authorized and not captured: a refunded order cannot be captured or voided\n/);
  });

  it('exits 5 for an order the gateway does not hold', async () => {
    const run = await cli(['status', '--reference', nextReference('cli-none')]);
    assert.equal(run.code, EXIT.refused);
    assert.match(run.stderr, /12001/);
  });
});

describe('pg-checkout capture, refund and void', () => {
  it('captures with --yes: says what it did and shows the order after (exit 0)', async () => {
    const reference = nextReference('cli-cap');
    await authorize(client, reference, 100_000);
    const run = await cli(['capture', '--reference', reference, '--amount', '400.00', '--currency', 'EGP', '--yes']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Captured EGP 400\.00: 20064 /);
    assert.match(run.stdout, /captured {4}EGP 400\.00/);
    assert.equal(capturedAt(reference), 40_000);
  });

  it('refunds the amount it said, even when the order changed between its reading and the refund', async () => {
    const reference = nextReference('cli-race');
    await authorize(client, reference, 10_000);
    await client.capture({ merchant_reference: reference, currency: 'EGP', amount: 5_000 });
    // The shop captures the other half while the command runs (after its reading, before the refund's own).
    const proxy = await startFaultProxy(sandbox.origin);
    proxy.beforeForward = async (operation, seen) => {
      if (operation === 'CHECK_STATUS' && seen === 1) await client.capture({ merchant_reference: reference, currency: 'EGP', amount: 5_000 });
    };
    try {
      const run = await cli(['refund', '--reference', reference, '--currency', 'EGP', '--yes'], { env: envFor(M, { PG_GATEWAY_BASE_URL: proxy.origin }) });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Refunded EGP 50\.00/);
      assert.equal(sandbox.gateway.order({ merchantReference: reference })?.refundedAmount, 5_000, 'the rest it named, not the rest when sent');
    } finally {
      await proxy.close();
    }
  });

  it('refuses without --yes when stdin is not a terminal, never assuming yes: nothing is sent (exit 2)', async () => {
    const reference = nextReference('cli-ask');
    await authorize(client, reference, 100_000);
    const run = await cli(['capture', '--reference', reference, '--currency', 'EGP'], { input: 'y\n' });
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /Capture EGP 1,000\.00 of order .* \(the rest\).*needs confirmation, and stdin is not a terminal; run it again with --yes/);
    assert.equal(capturedAt(reference), 0);
  });

  it('prints the typed result with --json, and exits 5 for an amount beyond what the order allows', async () => {
    const reference = nextReference('cli-json');
    await authorize(client, reference, 10_000);
    const run = await cli(['capture', '--reference', reference, '--amount', '100.01', '--currency', 'EGP', '--json']);
    assert.equal(run.code, EXIT.refused);
    const result = JSON.parse(run.stdout) as { outcome: string; source: string; reason: string; order: { authorized_amount: number } };
    assert.deepEqual([result.outcome, result.source, result.reason, result.order.authorized_amount], ['refused', 'client', 'amount_exceeds_capturable', 10_000]);
  });

  it('refunds part with --json (exit 0), then voids an authorization, and refuses to void a captured order without sending it', async () => {
    const paid = nextReference('cli-refund');
    await authorize(client, paid, 50_000, 'PURCHASE');
    const refund = await cli(['refund', '--reference', paid, '--amount', '125.00', '--currency', 'EGP', '--yes', '--json']);
    assert.equal(refund.code, 0, refund.stderr);
    assert.deepEqual((JSON.parse(refund.stdout) as { outcome: string; answer: { amount: string } }).answer.amount, '12500');

    const held = nextReference('cli-void');
    await authorize(client, held, 20_000);
    const voided = await cli(['void', '--reference', held, '--yes']);
    assert.equal(voided.code, 0, voided.stderr);
    assert.match(voided.stdout, /^Voided: 08000/);
    const refused = await cli(['void', '--reference', paid, '--yes']);
    assert.equal(refused.code, EXIT.refused);
    assert.match(refused.stderr, /Nothing to void on this order: it is captured and refunded in part \(a captured order is refunded, not voided\)\. Nothing was sent\./);
  });

  it('says clearly that a currency is needed for a capture (exit 2), and reads PG_CURRENCY', async () => {
    const reference = nextReference('cli-cur');
    await authorize(client, reference, 5_000);
    const missing = await cli(['capture', '--reference', reference, '--yes'], { env: envFor(M, { PG_CURRENCY: undefined }) });
    assert.equal(missing.code, EXIT.usage);
    assert.match(missing.stderr, /--currency is required: CAPTURE needs the order's currency and CHECK_STATUS does not answer one \(or set PG_CURRENCY\)/);
    const fromEnv = await cli(['capture', '--reference', reference, '--yes'], { env: envFor(M, { PG_CURRENCY: 'EGP' }) });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.match(fromEnv.stdout, /^Captured EGP 50\.00/);
  });
});

describe('pg-checkout against a live account’s success codes', () => {
  let live: Sandbox;
  before(async () => {
    live = await startSandbox({ successCodes: 'live' });
  });
  after(() => live.close());
  const liveEnv = () => envFor(M, { PG_GATEWAY_BASE_URL: live.origin, PG_CHECKOUT_URL: live.origin, PG_BATCH_SANDBOX_URL: live.origin });

  it('captures (04000) and refunds (06000) with exit 0, never an unknown outcome, and shows the status', async () => {
    const reference = nextReference('cli-live');
    await authorize(clientFor(live.origin), reference, 100_000);
    const captured = await cli(['capture', '--reference', reference, '--amount', '400.00', '--currency', 'EGP', '--yes'], { env: liveEnv() });
    assert.equal(captured.code, EXIT.success, captured.stderr);
    assert.match(captured.stdout, /^Captured EGP 400\.00: 04000 /);
    const refunded = await cli(['refund', '--reference', reference, '--amount', '150.00', '--currency', 'EGP', '--yes', '--json'], { env: liveEnv() });
    assert.equal(refunded.code, EXIT.success, refunded.stderr);
    const result = JSON.parse(refunded.stdout) as { outcome: string; source: string; response_code: string; status: string };
    assert.deepEqual([result.outcome, result.source, result.response_code, result.status], ['success', 'answer', '06000', '06']);
    const status = await cli(['status', '--reference', reference, '--currency', 'EGP'], { env: liveEnv() });
    assert.equal(status.code, EXIT.success, status.stderr);
    assert.match(status.stdout, /partially refunded|partially_refunded/);
    assert.deepEqual(
      [live.gateway.order({ merchantReference: reference })?.capturedAmount, live.gateway.order({ merchantReference: reference })?.refundedAmount],
      [40_000, 15_000],
    );
  });
});

describe('pg-checkout against a gateway that names its order reference fort_id', () => {
  let live: Sandbox;
  before(async () => {
    live = await startSandbox({ gatewayReferenceField: 'fort_id' });
  });
  after(() => live.close());

  it('shows the order under the name the gateway uses, fort_id, never svc_id', async () => {
    const reference = nextReference('cli-fort-id');
    await authorize(clientFor(live.origin, { gatewayReferenceField: 'fort_id' }), reference, 100_000);
    const env = envFor(M, { PG_GATEWAY_BASE_URL: live.origin, PG_GATEWAY_REFERENCE_FIELD: 'fort_id' });
    const status = await cli(['status', '--reference', reference, '--currency', 'EGP'], { env });
    assert.equal(status.code, EXIT.success, status.stderr);
    assert.match(status.stdout, new RegExp(`^Order ${reference} \\(fort_id \\d+\\): authorized`));
    assert.doesNotMatch(status.stdout, /svc_id/);
  });
});

describe('exit codes of the configuration and the gateway', () => {
  it('exits 3 naming the missing variable, never a phrase', async () => {
    const run = await cli(['status', '--reference', 'x'], { env: envFor(M, { PG_ACCESS_CODE: undefined }) });
    assert.equal(run.code, EXIT.configuration);
    assert.match(run.stderr, /PG_ACCESS_CODE is not set/);
    assert.doesNotMatch(run.stderr, new RegExp(M.requestPhrase));
  });

  it('exits 8 when the gateway cannot be reached, saying nothing was changed', async () => {
    const closed = await startSandbox();
    await closed.close();
    const run = await cli(['capture', '--reference', 'x', '--currency', 'EGP', '--yes'], { env: envFor(M, { PG_GATEWAY_BASE_URL: closed.origin }) });
    assert.equal(run.code, EXIT.unreachable);
    assert.match(run.stderr, new RegExp(`could not connect to the gateway at ${new URL(closed.origin).host.replace(/\./g, '\\.')} \\(connection refused or unknown host\\); nothing was sent`));
    assert.doesNotMatch(run.stderr, /connection broke/);
    assert.match(run.stderr, /nothing was changed at the gateway/);
  });

  it('exits 8 when the gateway limits requests for longer than a call waits, saying how long it asked', async () => {
    sandbox.gateway.injectFaults({ status: 429, count: 1, retryAfterSeconds: 3_600 });
    const run = await cli(['status', '--reference', nextReference('cli-limited')]);
    assert.equal(run.code, EXIT.unreachable, run.stderr);
    assert.match(run.stderr, /limiting requests \(HTTP 429\); it asks to wait 3600 s/);
    assert.match(run.stderr, /nothing was changed at the gateway/);
  });

  it('exits 6 for a service the account does not have', async () => {
    const run = await cli(['exchange', '--amount', '1.00', '--from', 'USD', '--to', 'EUR'], { env: envFor(SANDBOX_MERCHANT_BASIC) });
    assert.equal(run.code, EXIT.notActivated);
  });
});

describe('pg-checkout tokens, exchange, report', () => {
  it('converts an amount and shows both sides in major units', async () => {
    const run = await cli(['exchange', '--amount', '100', '--from', 'USD', '--to', 'AED']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), 'USD 100.00 = AED 367.25 (rate 3.672500)');
  });

  it('refuses a report window that ends before it starts, in the options typed', async () => {
    const run = await cli(['report', '--from', '2026-11-30', '--to', '2026-11-01']);
    assert.equal(run.code, EXIT.usage);
    assert.equal(run.stderr, 'pg-checkout report: --to 2026-11-01 is before --from 2026-11-30\n');
  });

  it('names the option that holds a currency it does not know', async () => {
    const run = await cli(['exchange', '--amount', '100', '--from', 'USD', '--to', 'ZZZ']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--to ZZZ is not an ISO 4217 currency code/);
  });

  it('lists the stored tokens', async () => {
    await client.createToken({ merchant_reference: nextReference('cli-tok'), card_number: '4111111111111111', expiry_date: '2908', remember_me: 'YES', token_name: 'cli-token-1' });
    const run = await cli(['tokens', '--status', 'ACTIVE']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /cli-token-1 +411111\*{6}1111 +2908 +VISA +ACTIVE/);
  });

  it('downloads a report to a file, verified, and leaves nothing behind when there is no such window', async () => {
    const reference = nextReference('cli-rep');
    await authorize(client, reference, 7_000, 'PURCHASE');
    const out = join(workdir, 'report.csv');
    const run = await cli(['report', '--from', '2026-03-10', '--to', '2026-03-10', '--out', out, '--columns', 'merchant_reference,operation,amount']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /rows, CSV, verified, written to/);
    const rows = readReportFile('CSV', readFileSync(out, 'utf8')).rows;
    assert.ok(rows.some((row) => row['merchant_reference'] === reference && row['operation'] === 'PURCHASE'));
    assert.ok(!existsSync(`${out}.part`));
  });
});

describe('pg-checkout report without --columns (issue 24)', () => {
  it('lists what reconciling needs: the date, both references, the command, the money and how each operation ended', async () => {
    const paid = nextReference('cli-rep-paid');
    await authorize(client, paid, 7_000, 'PURCHASE');
    const declined = nextReference('cli-rep-declined');
    const refused = await client.trustedPurchase({
      merchant_reference: declined,
      amount: 7_000,
      currency: 'EGP',
      eci: 'ECOMMERCE',
      customer_email: 'buyer@example.com',
      ...card('decline'),
    });
    assert.equal(refused.outcome, 'declined');
    const run = await cli(['report', '--from', '2026-03-10', '--to', '2026-03-10']);
    assert.equal(run.code, 0, run.stderr);
    const report = readReportFile('CSV', run.stdout);
    assert.deepEqual(report.columns, [...DEFAULT_REPORT_COLUMNS]);
    for (const column of ['transaction_date', 'merchant_reference', 'svc_id', 'operation', 'amount', 'currency', 'response_code', 'status', 'response_message']) {
      assert.ok((report.columns as readonly string[]).includes(column), `the report has ${column}`);
    }
    const rowOf = (reference: string) => report.rows.find((row) => row['merchant_reference'] === reference);
    assert.deepEqual(
      [rowOf(paid)?.['operation'], rowOf(paid)?.['response_code'], rowOf(paid)?.['status'], rowOf(paid)?.['amount'], rowOf(paid)?.['currency']],
      ['PURCHASE', '14000', '14', '7000', 'EGP'],
    );
    assert.equal(rowOf(declined)?.['operation'], 'PURCHASE');
    assert.equal(rowOf(declined)?.['response_code'], refused.response_code);
    assert.notEqual(rowOf(declined)?.['status'], '14', 'a declined PURCHASE does not read as paid');
    assert.match(rowOf(declined)?.['transaction_date'] ?? '', /^2026-03-10T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  });
});

describe('pg-checkout batch', () => {
  it('uploads a file, shows its state, processes it with --yes and lists one result per line', async () => {
    const held = nextReference('cli-b');
    await authorize(client, held, 9_000);
    const file = join(workdir, 'batch.csv');
    writeFileSync(file, buildBatchFile([{ command: 'CAPTURE', merchant_reference: held, amount: '9000', currency: 'EGP' }]));
    const uploaded = await cli(['batch', 'upload', file, '--reference', `cli-${Date.now().toString(36)}`]);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    const handle = uploaded.stdout.trim();
    assert.match(handle, /^cli-[a-z0-9]+:\d+$/);

    assert.equal((await cli(['batch', 'status', handle])).code, EXIT.pending, 'still under validation');
    // A batch not yet read as validated is asked about too: it may be by the time PROCESS_BATCH arrives,
    // and a live gateway's answer may name no state at all.
    const early = await cli(['batch', 'process', handle]);
    assert.equal(early.code, EXIT.usage, early.stderr);
    assert.match(early.stderr, /needs confirmation, and stdin is not a terminal/);
    sandbox.clock.advance(BATCH_VALIDATION_MS);
    const validated = await cli(['batch', 'status', handle]);
    assert.match(validated.stdout, /: validated, 1 line/);
    assert.equal((await cli(['batch', 'process', handle])).code, EXIT.usage, 'no confirmation on a pipe');
    const processing = await cli(['batch', 'process', handle, '--yes', '--no-wait']);
    assert.equal(processing.code, 0, processing.stderr);
    sandbox.clock.advance(BATCH_PROCESSING_MS);
    const done = await cli(['batch', 'status', handle]);
    assert.equal(done.code, 0);
    assert.match(done.stdout, new RegExp(`line 2 {2}${held} {2}20064 `));
    assert.match(done.stdout, /1 succeeded, 0 failed\n {2}succeeded lines' amounts \(charges and refunds together; a result names no command\): EGP 90\.00 in 1 line\n/);
  });

  it('checks the file before uploading it and names each problem (exit 2)', async () => {
    const file = join(workdir, 'bad.csv');
    writeFileSync(file, 'command,merchant_reference,amount\nCAPTURE,order 1,12.5\n');
    const run = await cli(['batch', 'upload', file]);
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /bad\.csv:2 merchant_reference: /);
    assert.match(run.stderr, /nothing was uploaded/);
  });
});

describe('an operator’s day without surprises (issue 24)', () => {
  it('refuses report --out naming a file that exists, before asking the gateway anything (exit 2), and leaves the file as it was', async () => {
    const out = join(workdir, 'kept.csv');
    writeFileSync(out, 'yesterday\n');
    const reference = nextReference('cli-keep');
    const run = await cli(['report', '--from', '2026-03-10', '--to', '2026-03-10', '--out', out, '--reference', reference]);
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, new RegExp(`--out: ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} exists already`));
    assert.equal(readFileSync(out, 'utf8'), 'yesterday\n');
    // The reference is still free: no GENERATE_REPORT was sent with it.
    const again = await cli(['report', '--from', '2026-03-10', '--to', '2026-03-10', '--out', join(workdir, 'fresh.csv'), '--reference', reference]);
    assert.equal(again.code, 0, again.stderr);
  });

  it('runs two reports at once without naming them, both generated (no 00005)', async () => {
    const runs = await Promise.all([0, 1].map(() => cli(['report', '--from', '2026-03-10', '--to', '2026-03-10', '--format', 'json'])));
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
  });

  it('names the refunded state when a capture is refused after a partial refund', async () => {
    const reference = nextReference('cli-after-refund');
    await authorize(client, reference, 10_000, 'PURCHASE');
    assert.equal((await cli(['refund', '--reference', reference, '--amount', '10.00', '--currency', 'EGP', '--yes'])).code, 0);
    const run = await cli(['capture', '--reference', reference, '--currency', 'EGP', '--yes']);
    assert.equal(run.code, EXIT.refused);
    assert.match(run.stderr, /Nothing is left to capture on this order: it was refunded/);
  });

  it('refuses to void a voided order before asking, naming its state (exit 5)', async () => {
    const reference = nextReference('cli-void-twice');
    await authorize(client, reference, 10_000);
    assert.equal((await cli(['void', '--reference', reference, '--yes'])).code, 0);
    const run = await cli(['void', '--reference', reference]);
    assert.equal(run.code, EXIT.refused);
    assert.match(run.stderr, /Nothing to void on this order: it was voided already\. Nothing was sent\./);
    assert.doesNotMatch(run.stderr, /needs confirmation/);
  });

  it('says an unknown order is unknown instead of showing zero amounts (exit 5)', async () => {
    const run = await cli(['status', '--reference', nextReference('cli-nobody'), '--currency', 'EGP']);
    assert.equal(run.code, EXIT.refused);
    assert.match(run.stderr, /no order with this reference at the gateway/);
    assert.doesNotMatch(run.stdout, /EGP 0\.00/);
  });

  it('says the reference and the gateway id name different orders when the gateway answers 00007', async () => {
    const reference = nextReference('cli-one');
    await authorize(client, reference, 10_000);
    const otherId = await authorize(client, nextReference('cli-other'), 10_000);
    const run = await cli(['status', '--reference', reference, '--svc-id', otherId, '--currency', 'EGP']);
    assert.equal(run.code, EXIT.refused);
    assert.match(run.stderr, /the reference and the gateway id do not name the same order at the gateway \(00007\)/);
  });

  it('lists the batch subcommands when none is given (exit 2)', async () => {
    const run = await cli(['batch']);
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /batch upload FILE/);
    assert.match(run.stderr, /batch status REFERENCE:ID/);
    assert.match(run.stderr, /batch process REFERENCE:ID/);
  });

  it('gives its own message for a negative --amount', async () => {
    for (const args of [['--amount', '-5'], ['--amount=-5']]) {
      const run = await cli(['capture', '--reference', 'x', ...args, '--currency', 'EGP', '--yes']);
      assert.equal(run.code, EXIT.usage);
      assert.match(run.stderr, /--amount must be a positive amount in major units, e\.g\. 12\.50/);
    }
  });

  it('names a field once in a batch file’s errors', async () => {
    const file = join(workdir, 'negative.csv');
    writeFileSync(file, 'command,merchant_reference,amount,currency\nCAPTURE,order-1,-5,EGP\n');
    const run = await cli(['batch', 'upload', file]);
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /negative\.csv:2 amount: may contain only digits/);
    assert.doesNotMatch(run.stderr, /amount: amount:/);
  });

  it('refuses without a terminal in a sentence that reads', async () => {
    const reference = nextReference('cli-sentence');
    await authorize(client, reference, 1_000);
    const run = await cli(['capture', '--reference', reference, '--currency', 'EGP']);
    assert.equal(run.code, EXIT.usage);
    assert.doesNotMatch(run.stderr, /\.\.|\.:/);
    assert.match(run.stderr, /refunded EGP 0\.00\. Amounts in EGP, from --currency: CHECK_STATUS does not say the order's currency\. It needs confirmation, and stdin is not a terminal; run it again with --yes\n/);
  });

  it('says which currency the confirmation assumes and where it came from', async () => {
    const reference = nextReference('cli-which-currency');
    await authorize(client, reference, 2_000);
    const given = await cli(['capture', '--reference', reference, '--currency', 'KWD']);
    assert.match(given.stderr, /in KWD, from --currency: CHECK_STATUS does not say the order's currency/);
    const fromEnv = await cli(['capture', '--reference', reference], { env: envFor(M, { PG_CURRENCY: 'EGP' }) });
    assert.match(fromEnv.stderr, /in EGP, from PG_CURRENCY/);
  });

  it('refuses, before anything is sent, a --currency that is not the one the service recorded for the order, naming both exponents', async () => {
    const reference = nextReference('cli-recorded-currency');
    const svcId = await authorize(client, reference, 10_000);
    const dataDir = mkdtempSync(join(workdir, 'data-'));
    const store = await openStore({ dataDir });
    await store.results.record({
      merchant_reference: reference,
      outcome: 'success',
      response_code: '02000',
      response_message: 'Success',
      status: '02',
      svc_id: svcId,
      amount: 10_000,
      currency: 'EGP',
      source: 'return',
      kind: 'payment',
      idempotency_key: `${reference}:${svcId}:authorized`,
      order_state: 'authorized',
      gateway: {},
    });
    await store.close();
    const env = envFor(M, { PG_DATA_DIR: dataDir });
    const wrong = await cli(['capture', '--reference', reference, '--amount', '5.000', '--currency', 'KWD', '--yes'], { env });
    assert.equal(wrong.code, EXIT.usage, wrong.stderr);
    assert.match(wrong.stderr, new RegExp(`--currency KWD \\(3 decimal places\\) is not the currency of order ${reference}: the service recorded it in EGP \\(2 decimal places\\); nothing was sent`));
    assert.equal(sandbox.gateway.order({ merchantReference: reference })?.operations.length, 1, 'only the authorization: no capture was sent');
    const right = await cli(['capture', '--reference', reference, '--amount', '50.00', '--currency', 'EGP', '--yes'], { env });
    assert.equal(right.code, EXIT.success, right.stderr);
    assert.equal(capturedAt(reference), 5_000);
    // status without --currency shows the amounts in the currency the service recorded.
    const status = await cli(['status', '--reference', reference], { env });
    assert.equal(status.code, EXIT.success, status.stderr);
    assert.match(status.stdout, /captured {4}EGP 50\.00/);
    assert.doesNotMatch(status.stdout, /minor units/);
    // ... and so it does when the shop's usual currency in PG_CURRENCY is another one.
    const usual = await cli(['status', '--reference', reference], { env: { ...env, PG_CURRENCY: 'KWD' } });
    assert.equal(usual.code, EXIT.success, usual.stderr);
    assert.match(usual.stdout, /captured {4}EGP 50\.00/);
    // A --currency the service knows to be wrong is refused, as capture refuses it.
    const mistaken = await cli(['status', '--reference', reference, '--currency', 'KWD'], { env });
    assert.equal(mistaken.code, EXIT.usage, mistaken.stderr);
    assert.match(mistaken.stderr, /--currency KWD \(3 decimal places\) is not the currency of order/);
  });

  it('names the settings to check when the gateway refuses the request phrase (00008 signature mismatch)', async () => {
    const run = await cli(['status', '--reference', nextReference('cli-wrong-phrase'), '--currency', 'EGP'], {
      env: envFor(M, { PG_SHA_REQUEST_PHRASE: 'not-the-request-phrase' }),
    });
    assert.notEqual(run.code, EXIT.success);
    assert.match(run.stderr, /refused 00008: .*\(check PG_SHA_REQUEST_PHRASE, PG_SHA_TYPE, PG_ACCESS_CODE and PG_MERCHANT_IDENTIFIER against the gateway's back office\)/);
  });

  it('runs the back-office commands without PG_CHECKOUT_URL, which only serve uses', async () => {
    const reference = nextReference('cli-no-checkout-url');
    await authorize(client, reference, 1_000);
    const run = await cli(['status', '--reference', reference, '--currency', 'EGP'], { env: envFor(M, { PG_CHECKOUT_URL: undefined }) });
    assert.equal(run.code, 0, run.stderr);
  });

  it('says in batch --help that the file takes minor units', async () => {
    const run = await cli(['batch', '--help'], { env: { PATH: process.env['PATH'] ?? '' } });
    assert.match(run.stdout, /amounts are in minor units/);
  });

  it('shows in the confirmation of batch process the money of the file’s lines, per currency and command (minor units, said so)', async () => {
    const held = nextReference('cli-bm');
    await authorize(client, held, 9_000);
    const file = join(workdir, 'money.csv');
    writeFileSync(file, buildBatchFile([{ command: 'CAPTURE', merchant_reference: held, amount: '9000', currency: 'EGP' }]));
    const uploaded = await cli(['batch', 'upload', file]);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    assert.match(uploaded.stderr, /the file's amounts are minor units\):\n {2}CAPTURE in EGP: 1 line, EGP 90\.00 \(9000 minor units\)/);
    sandbox.clock.advance(BATCH_VALIDATION_MS);
    const handle = uploaded.stdout.trim();
    const asked = await cli(['batch', 'process', handle, '--file', file]);
    assert.equal(asked.code, EXIT.usage);
    assert.match(asked.stderr, /Its lines \(the file's amounts are minor units\): CAPTURE in EGP: 1 line, EGP 90\.00 \(9000 minor units\)\. It needs confirmation/);
    const unnamed = await cli(['batch', 'process', handle]);
    assert.match(unnamed.stderr, /Its total is unknown: the gateway lists a batch's lines and their amounts only once it is processed \(add --file FILE, the file uploaded, to see them now\)\./);
  });
});
