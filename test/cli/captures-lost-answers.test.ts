/**
 * `pg-checkout capture` whose answer is lost, twice on one hold, then `pg-checkout reconcile` as
 * cron runs it: the store under PG_DATA_DIR (SQLite), the sandbox gateway over loopback HTTP behind
 * a proxy that loses the capture's answer and the readings that would settle it. The CLI says the
 * reconciler will report the capture; the results waiting for the shop show that it did, once per
 * capture: the second partial capture too, though it leaves the order `captured` as the first did.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT } from '../../src/cli/command.ts';
import type { VerifiedResult } from '../../src/core/verified-result.ts';
import { openStore } from '../../src/store/open.ts';
import { authorize, clientFor, nextReference, startFaultProxy, startSandbox, type FaultProxy, type Sandbox } from '../gateway/support.ts';
import { runCaptured, sandboxAccountEnv } from './support/run.ts';

let sandbox: Sandbox;
let proxy: FaultProxy;
let dataDir: string;

before(async () => {
  sandbox = await startSandbox();
  proxy = await startFaultProxy(sandbox.origin);
  dataDir = mkdtempSync(join(tmpdir(), 'pg-captures-cli-'));
});
after(async () => {
  await proxy?.close();
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function cli(args: string[]) {
  return runCaptured(args, { ...sandboxAccountEnv(proxy.origin), PG_DATA_DIR: dataDir });
}

/** `pg-checkout capture` whose CAPTURE reaches the gateway and whose answer, and every reading after it, is lost. */
async function captureLost(reference: string, amount: string) {
  proxy.inject('CAPTURE', 'bad_gateway_after_forward');
  proxy.beforeForward = (operation) => {
    if (operation === 'CAPTURE') proxy.inject('CHECK_STATUS', 'unavailable', 4);
  };
  const run = await cli(['capture', '--reference', reference, '--amount', amount, '--currency', 'EGP', '--yes']);
  proxy.beforeForward = undefined;
  assert.equal(run.code, EXIT.unknown, run.stderr);
  assert.match(run.stderr, /watched: the reconciler reports the order’s new state to the shop/);
}

/** `pg-checkout reconcile --json`, the watch of `reference` due now (the CLI wrote it due one interval on). */
async function reconcileNow(reference: string) {
  const store = await openStore({ dataDir });
  try {
    await store.watches.update(reference, { next_check_at: new Date(Date.now() - 1_000).toISOString(), checked: 0 });
  } finally {
    await store.close();
  }
  const run = await cli(['reconcile', '--json']);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as { asked: number; reported: number; ended: number; results: string[] };
}

describe('a hold captured in two parts, each capture\'s answer lost', () => {
  it('is reported to the shop once per capture, the second when the captured total moves', async () => {
    const reference = nextReference('cli-two-parts');
    const svcId = await authorize(clientFor(sandbox.origin), reference, 10_000);

    await captureLost(reference, '40.00');
    const first = await reconcileNow(reference);
    assert.deepEqual([first.asked, first.reported, first.ended], [1, 1, 1]);

    await captureLost(reference, '30.00');
    const second = await reconcileNow(reference);
    assert.deepEqual([second.asked, second.reported, second.ended], [1, 1, 1]);
    assert.deepEqual(second.results, [`${reference}:${svcId}:captured:7000`]);

    const listed = await cli(['results', '--json']);
    const waiting = (JSON.parse(listed.stdout) as { result: VerifiedResult }[]).map((entry) => entry.result).filter((result) => result.merchant_reference === reference);
    assert.deepEqual(
      waiting.map((result) => [result.idempotency_key, result.order_state, result.outcome, result.amount, result.order_status?.captured_amount]),
      [
        [`${reference}:${svcId}:captured`, 'captured', 'success', 4_000, 4_000],
        [`${reference}:${svcId}:captured:7000`, 'captured', 'success', 7_000, 7_000],
      ],
    );
  });
});
