/**
 * `pg-checkout capture`, `refund` and `void` beside the service's store: each move the gateway
 * confirmed reaches the shop as its own result, in order, though several are made within one
 * reconcile interval. The store under PG_DATA_DIR (SQLite), the sandbox gateway over loopback HTTP
 * behind a proxy that can fail the reading after a move, the service's webhook sender over the same
 * store, and a shop that stores each result once per key.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT } from '../../src/cli/command.ts';
import type { VerifiedResult } from '../../src/core/verified-result.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { createResultWebhook } from '../../src/server/result-webhook.ts';
import { ShopAvailability } from '../../src/server/shop-client.ts';
import { DEFAULT_WATCH_SETTINGS, moneyCallWatch } from '../../src/server/watches.ts';
import { openStore } from '../../src/store/open.ts';
import { authorize, clientFor, nextReference, startFaultProxy, startSandbox, type FaultProxy, type Sandbox } from '../gateway/support.ts';
import { HOOK_SECRET, startFakeShop, type FakeShop } from '../server/fake-shop.ts';
import { runCaptured, sandboxAccountEnv } from './support/run.ts';

const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

let sandbox: Sandbox;
let proxy: FaultProxy;
let shop: FakeShop;
let dataDir: string;

before(async () => {
  sandbox = await startSandbox();
  proxy = await startFaultProxy(sandbox.origin);
  shop = await startFakeShop([]);
  dataDir = mkdtempSync(join(tmpdir(), 'pg-moves-cli-'));
});
after(async () => {
  await shop?.stop();
  await proxy?.close();
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}) {
  return runCaptured(args, { ...sandboxAccountEnv(proxy.origin), PG_DATA_DIR: dataDir, ...env });
}

/** A money command, confirmed with --yes; it must succeed. */
async function move(command: 'capture' | 'refund' | 'void', reference: string, amount?: string) {
  const run = await cli([command, '--reference', reference, ...(amount ? ['--amount', amount] : []), '--currency', 'EGP', '--yes']);
  assert.equal(run.code, EXIT.success, run.stderr);
  return run;
}

/** The service's webhook sender over the shared store, one pass: what is due reaches the shop. */
async function deliverDue(): Promise<void> {
  const store = await openStore({ dataDir });
  try {
    const webhook = createResultWebhook({
      url: shop.webhookUrl,
      secret: HOOK_SECRET,
      timeoutMs: 5_000,
      fetch: globalThis.fetch.bind(globalThis),
      now: () => new Date(),
      results: store.results,
      log: silentLogger,
      availability: new ShopAvailability(silentLogger),
    });
    await webhook.deliverDue();
  } finally {
    await store.close();
  }
}

/** The results the shop received for `reference`, in the order they arrived. */
function delivered(reference: string): VerifiedResult[] {
  return shop.deliveries
    .filter((delivery) => delivery.accepted)
    .map((delivery) => (JSON.parse(delivery.body) as { result: VerifiedResult }).result)
    .filter((result) => result.merchant_reference === reference);
}

/** `pg-checkout reconcile --json` delivering to the shop, the watch of `reference` (if any) due now. */
async function reconcileNow(reference: string) {
  const store = await openStore({ dataDir });
  try {
    await store.watches.update(reference, { next_check_at: new Date(Date.now() - 1_000).toISOString(), checked: 0 });
  } finally {
    await store.close();
  }
  const run = await cli(['reconcile', '--json'], { PG_RESULT_WEBHOOK_URL: shop.webhookUrl, PG_HOOK_SECRET: HOOK_SECRET });
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as { asked: number; reported: number; ended: number; results: string[] };
}

describe('two captures of one hold and two refunds, made back to back with no reconcile in between', () => {
  let reference: string;
  let svcId: string;
  const stderrs: string[] = [];

  before(async () => {
    reference = nextReference('cli-moves');
    svcId = await authorize(clientFor(sandbox.origin), reference, 10_000);
    for (const [command, amount] of [
      ['capture', '40.00'],
      ['capture', '30.00'],
      ['refund', '20.00'],
      ['refund', '10.00'],
    ] as const) {
      stderrs.push((await move(command, reference, amount)).stderr);
    }
    await deliverDue();
  });

  it('says after each move that it was recorded for the shop', () => {
    assert.equal(stderrs.length, 4);
    for (const stderr of stderrs) assert.match(stderr, /recorded for the shop: .+ \(the service's webhook delivers it\)/);
  });

  it('reaches the shop as four results, in order, each under its own key once', () => {
    const results = delivered(reference);
    assert.deepEqual(
      results.map((result) => [result.idempotency_key, result.order_state, result.outcome, result.order_status?.captured_amount, result.order_status?.refunded_amount, result.source]),
      [
        [`${reference}:${svcId}:captured`, 'captured', 'success', 4_000, 0, 'back-office'],
        [`${reference}:${svcId}:captured:7000`, 'captured', 'success', 7_000, 0, 'back-office'],
        [`${reference}:${svcId}:partially_refunded`, 'partially_refunded', 'success', 7_000, 2_000, 'back-office'],
        [`${reference}:${svcId}:partially_refunded:3000`, 'partially_refunded', 'success', 7_000, 3_000, 'back-office'],
      ],
    );
    assert.ok(results.every((result) => result.currency === 'EGP'));
  });

  it('leaves nothing for a reconcile round to deliver again, even one reading the same totals under a money call’s watch', async () => {
    const before = shop.deliveries.length;
    const store = await openStore({ dataDir });
    try {
      // As the watch of a refund whose answer was lost would stand: the reconciler reads the totals the shop has.
      const now = Date.now();
      await store.watches.watch(
        moneyCallWatch({ merchant_reference: reference, svc_id: svcId, currency: 'EGP', language: 'en' }, 'partially_refunded', now, DEFAULT_WATCH_SETTINGS),
        new Date(now),
      );
    } finally {
      await store.close();
    }
    const round = await reconcileNow(reference);
    assert.equal(round.asked, 1);
    assert.deepEqual(round.results, []);
    assert.equal(shop.deliveries.length, before);
  });
});

describe('a refund with no currency given', () => {
  it('takes the currency the service recorded for the order', async () => {
    const reference = nextReference('cli-recorded-currency');
    await authorize(clientFor(sandbox.origin), reference, 10_000);
    await move('capture', reference);
    const run = await cli(['refund', '--reference', reference, '--amount', '5.00', '--yes']);
    assert.equal(run.code, EXIT.success, run.stderr);
    assert.match(run.stdout, /^Refunded EGP 5\.00: /);
    assert.match(run.stderr, /recorded for the shop: .+:partially_refunded/);
  });
});

describe('a void the gateway confirmed', () => {
  it('reaches the shop as the order voided', async () => {
    const reference = nextReference('cli-void');
    const svcId = await authorize(clientFor(sandbox.origin), reference, 5_000);
    await move('void', reference);
    await deliverDue();
    assert.deepEqual(
      delivered(reference).map((result) => [result.idempotency_key, result.order_state]),
      [[`${reference}:${svcId}:voided`, 'voided']],
    );
  });
});

describe('a capture whose answer was lost and CHECK_STATUS settled', () => {
  it('is recorded for the shop at once, as an answered one', async () => {
    const reference = nextReference('cli-settled');
    const svcId = await authorize(clientFor(sandbox.origin), reference, 10_000);
    await move('capture', reference, '40.00');
    proxy.inject('CAPTURE', 'bad_gateway_after_forward');
    const run = await move('capture', reference, '30.00');
    assert.match(run.stdout, /the answer was lost: http_error; CHECK_STATUS shows it applied/);
    assert.match(run.stderr, new RegExp(`recorded for the shop: ${reference}:${svcId}:captured:7000`));
    await deliverDue();
    assert.deepEqual(
      delivered(reference).map((result) => result.idempotency_key),
      [`${reference}:${svcId}:captured`, `${reference}:${svcId}:captured:7000`],
    );
  });
});

describe('when the CHECK_STATUS after a move fails', () => {
  it('watches the payment, and the reconciler reports the move later', async () => {
    const reference = nextReference('cli-unread');
    const svcId = await authorize(clientFor(sandbox.origin), reference, 10_000);
    proxy.beforeForward = (operation) => {
      // The capture is answered; every reading after it is not.
      if (operation === 'CAPTURE') proxy.inject('CHECK_STATUS', 'unavailable', 10);
    };
    const run = await move('capture', reference, '40.00');
    proxy.beforeForward = undefined;
    proxy.inject('CHECK_STATUS', 'pass', 0);
    assert.match(run.stderr, /not recorded: the order could not be read after the capture/);
    assert.match(run.stderr, /watched: the reconciler reports the order’s new state to the shop/);
    await deliverDue();
    assert.deepEqual(delivered(reference), []);

    const round = await reconcileNow(reference);
    assert.deepEqual(round.results, [`${reference}:${svcId}:captured`]);
    assert.deepEqual(
      delivered(reference).map((result) => [result.idempotency_key, result.order_status?.captured_amount, result.source]),
      [[`${reference}:${svcId}:captured`, 4_000, 'reconcile']],
      'found by the reconciler, not the command',
    );
  });
});

describe('without the service’s store', () => {
  it('moves the money and says the shop is not told of it', async () => {
    const reference = nextReference('cli-no-store');
    await authorize(clientFor(sandbox.origin), reference, 10_000);
    const missing = join(dataDir, 'not-here');
    const run = await cli(['capture', '--reference', reference, '--amount', '40.00', '--currency', 'EGP', '--yes'], { PG_DATA_DIR: missing });
    assert.equal(run.code, EXIT.success, run.stderr);
    assert.match(run.stderr, /not recorded: no store at .*not-here \(PG_DATA_DIR\)/);
    assert.equal(existsSync(missing), false);
  });
});

/** The CLI in a process of its own, as an operator's shell runs it; `started` sees the child at once. */
function spawnCli(args: readonly string[], started: (child: ChildProcessWithoutNullStreams) => void = () => {}): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env['PATH'] ?? '', ...sandboxAccountEnv(proxy.origin), PG_DATA_DIR: dataDir };
    const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal, stderr }));
    child.stdin.end();
    started(child);
  });
}

describe('a move the gateway made while the command could not tell the shop', () => {
  it('is watched before it is sent: a refund killed (kill -9) after the gateway made it reaches the shop through the reconciler', { timeout: 60_000 }, async () => {
    const reference = nextReference('cli-killed');
    const svcId = await authorize(clientFor(sandbox.origin), reference, 10_000);
    await move('capture', reference);
    await deliverDue();
    // The refund reaches the gateway, its answer does not come back, and no reading after it is answered.
    proxy.inject('REFUND', 'late');
    proxy.beforeForward = (operation) => {
      if (operation === 'REFUND') proxy.inject('CHECK_STATUS', 'hang', Infinity);
    };
    const made = proxy.delivered('REFUND');
    const run = await spawnCli(['refund', '--reference', reference, '--amount', '25.00', '--currency', 'EGP', '--yes'], (child) => {
      void made.then(() => child.kill('SIGKILL'));
    });
    proxy.beforeForward = undefined;
    proxy.inject('CHECK_STATUS', 'pass', 0);
    assert.equal(run.signal, 'SIGKILL');
    assert.equal(sandbox.gateway.order({ merchantReference: reference })?.refundedAmount, 2_500, 'the gateway made the refund');

    const round = await reconcileNow(reference);
    assert.deepEqual(round.results, [`${reference}:${svcId}:partially_refunded`]);
    assert.deepEqual(
      delivered(reference).map((result) => [result.idempotency_key, result.order_status?.refunded_amount]),
      [[`${reference}:${svcId}:captured`, 0], [`${reference}:${svcId}:partially_refunded`, 2_500]],
    );
  });

  it('is recorded though the reader of its output has gone (`| head -1`), and the command exits 0', { timeout: 60_000 }, async () => {
    const reference = nextReference('cli-epipe');
    const svcId = await authorize(clientFor(sandbox.origin), reference, 10_000);
    const run = await spawnCli(['capture', '--reference', reference, '--amount', '40.00', '--currency', 'EGP', '--yes'], (child) => child.stdout.destroy());
    assert.equal(run.code, EXIT.success, run.stderr);
    assert.match(run.stderr, new RegExp(`recorded for the shop: ${reference}:${svcId}:captured`));
    const store = await openStore({ dataDir });
    try {
      assert.equal((await store.watches.get(reference))?.ended_at !== undefined, true, 'the watch written before the capture is ended once it is recorded');
    } finally {
      await store.close();
    }
  });

  it('leaves nothing watched when the move is refused: nothing moved', async () => {
    const reference = nextReference('cli-refused');
    await authorize(clientFor(sandbox.origin), reference, 10_000);
    const run = await cli(['capture', '--reference', reference, '--amount', '200.00', '--currency', 'EGP', '--yes']);
    assert.equal(run.code, EXIT.refused, run.stderr);
    const store = await openStore({ dataDir });
    try {
      const watch = await store.watches.get(reference);
      assert.ok(watch === undefined || watch.ended_at !== undefined, 'no watch left asking about it');
    } finally {
      await store.close();
    }
  });
});
