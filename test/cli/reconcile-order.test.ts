/**
 * `pg-checkout reconcile` with `PG_ORDER_URL`: before reporting a payment that holds money, it asks
 * the shop's order lookup for the order as it is now, and checks what the gateway took against it,
 * not only against the amount the watch kept when the form was signed. With the shop down, the
 * watch's amount is compared, as without `PG_ORDER_URL`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCaptured } from './support/run.ts';
import { openStore } from '../../src/store/open.ts';
import { startHttpGateway, type HttpGateway } from '../server/support/http-gateway.ts';
import { HOOK_SECRET, startFakeShop, type FakeShop } from '../server/fake-shop.ts';

let gateway: HttpGateway;
let shop: FakeShop;
before(async () => {
  gateway = await startHttpGateway();
  shop = await startFakeShop([{ merchant_reference: 'cart-4001', amount: 500_000, currency: 'EGP', token: 'tok-1' }, { merchant_reference: 'cart-4002', amount: 500_000, currency: 'EGP', token: 'tok-2' }]);
});
after(async () => {
  await gateway?.close();
  await shop?.stop();
});

/** A store holding the watch of a form signed for `reference` when the cart cost EGP 100.00. */
async function storeWithSignedForm(reference: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pg-reconcile-order-'));
  const store = await openStore({ dataDir });
  const past = new Date(Date.now() - 60_000);
  await store.watches.watch(
    {
      merchant_reference: reference,
      kind: 'in_progress',
      amount: 10_000,
      currency: 'EGP',
      language: 'en',
      last_state: 'not_found',
      due_at: past.toISOString(),
      expires_at: new Date(Date.now() + 2 * 3600_000).toISOString(),
      next_check_at: past.toISOString(),
    },
    past,
  );
  await store.close();
  return dataDir;
}

function run(dataDir: string, args: string[]) {
  return runCaptured(args, { PG_DATA_DIR: dataDir, ...gateway.env, PG_ORDER_URL: shop.orderUrl, PG_HOOK_SECRET: HOOK_SECRET });
}

async function recorded(dataDir: string) {
  const store = await openStore({ dataDir });
  try {
    return (await store.results.list({ limit: 10 })).map((entry) => entry.result);
  } finally {
    await store.close();
  }
}

describe('pg-checkout reconcile with PG_ORDER_URL', () => {
  it('reports a payment of the order\'s old amount as a failure (amount_mismatch), the cart having changed since the form was signed', async () => {
    const dataDir = await storeWithSignedForm('cart-4001');
    gateway.fake.holds('cart-4001', 'captured', { svcId: '1700000701', amount: 10_000 });
    shop.lookups.length = 0;
    const round = await run(dataDir, ['reconcile']);
    assert.equal(round.code, 0, round.stderr);
    assert.match(round.stdout, /cart-4001:1700000701:captured {2}failure \(captured\)/);
    const [result] = await recorded(dataDir);
    assert.deepEqual([result?.outcome, result?.error, result?.amount, result?.currency], ['failure', 'amount_mismatch', 10_000, 'EGP']);
    assert.deepEqual(
      shop.lookups.map((lookup) => [lookup.merchant_reference, lookup.reference_source]),
      [['cart-4001', 'gateway']],
    );
  });

  it('compares the watch\'s amount when the shop does not answer, and says so in its log', async () => {
    const dataDir = await storeWithSignedForm('cart-4002');
    gateway.fake.holds('cart-4002', 'captured', { svcId: '1700000702', amount: 10_000 });
    await shop.stop();
    try {
      const round = await run(dataDir, ['reconcile', '--verbose']);
      assert.equal(round.code, 0, round.stderr);
      assert.match(round.stdout, /cart-4002:1700000702:captured {2}success \(captured\)/);
      assert.match(round.stderr, /"event":"reconcile_order_lookup_failed"/);
    } finally {
      await shop.start();
    }
  });
});
