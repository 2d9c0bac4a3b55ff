/**
 * `pg-checkout reconcile` as cron runs it beside an endpoint a shop mounts itself: the store it
 * shares (SQLite under PG_DATA_DIR), the gateway over loopback HTTP. One round asks about the due
 * watches and records each change once; `--list` reads the store only.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCaptured } from './support/run.ts';
import { openStore } from '../../src/store/open.ts';
import { startHttpGateway, type HttpGateway } from '../server/support/http-gateway.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'pg-reconcile-cli-'));
let gateway: HttpGateway;
before(async () => {
  gateway = await startHttpGateway();
  const store = await openStore({ dataDir });
  const past = new Date(Date.now() - 60_000);
  await store.watches.watch(
    {
      merchant_reference: 'order-1001',
      kind: 'bill',
      amount: 250_000,
      currency: 'EGP',
      language: 'en',
      last_state: 'pending',
      due_at: new Date(Date.now() + 3600_000).toISOString(),
      expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      next_check_at: past.toISOString(),
    },
    past,
  );
  await store.close();
});
after(() => gateway?.close());

function run(args: string[], env: Record<string, string> = gateway.env) {
  return runCaptured(args, { PG_DATA_DIR: dataDir, ...env });
}

describe('pg-checkout reconcile', () => {
  it('lists the watched payments from the store alone, without gateway settings', async () => {
    const { code, stdout } = await run(['reconcile', '--list'], {});
    assert.equal(code, 0);
    assert.match(stdout, /^order-1001 {2}bill {2}pending {2}next /);
  });

  it('asks about the due ones and records the change once: a bill paid at the counter', async () => {
    gateway.fake.holds('order-1001', 'captured', { svcId: '1700000555' });
    const first = await run(['reconcile']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^asked 1, reported 1, watches ended 1, unanswered 0; 1 result\(s\) waiting for the shop/);
    assert.match(first.stdout, /order-1001:1700000555:captured {2}success \(captured\)/);
    const again = await run(['reconcile', '--json']);
    assert.deepEqual(JSON.parse(again.stdout), { asked: 0, reported: 0, ended: 0, failed: 0, results: [], waiting_for_shop: 1 });
    const listed = await run(['results', '--json']);
    const [entry] = JSON.parse(listed.stdout) as { result: { idempotency_key: string; source: string } }[];
    assert.deepEqual([entry?.result.idempotency_key, entry?.result.source], ['order-1001:1700000555:captured', 'reconcile']);
  });

  it('says where the store should be when there is none', async () => {
    const { code, stderr } = await run(['reconcile'], { ...gateway.env, PG_DATA_DIR: join(dataDir, 'nowhere') });
    assert.equal(code, 3);
    assert.match(stderr, /PG_DATA_DIR: .*nowhere does not exist/);
  });
});
