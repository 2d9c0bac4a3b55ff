/**
 * A hold captured in parts, a capture refunded in parts, from the back office: what the shop's
 * result webhook receives (sandbox gateway, memory store, the service's own webhook sender).
 *
 * - Each capture or refund that moves money reaches the shop once, as its own result: a second
 *   partial capture leaves the state `captured` and a second partial refund `partially_refunded`,
 *   so its key names the running total (`…:captured:7000`); the state's first result keeps the
 *   plain key (`…:captured`).
 * - Its `amount` is what the customer has been charged now (the captured total), its
 *   `order_status` the totals; it is checked against the hold accepted, so it stays paid.
 * - A capture or refund whose answer was lost is watched as the CLI watches it; the reconciler
 *   reports it when the totals move, though the state does not.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createGatewayClient, type GatewayClient } from '../../src/gateway/client.ts';
import type { GatewayResult } from '../../src/gateway/results.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import type { MerchantOrder } from '../../src/server/orders.ts';
import { DEFAULT_WATCH_SETTINGS, moneyCallWatch } from '../../src/server/watches.ts';
import { endpointCredentials } from '../../src/sandbox/merchants.ts';
import { deliveredFrom, MINUTE, SANDBOX, SANDBOX_START, sandboxFetch, sandboxWorld } from './support/worlds.ts';

const DAY = 24 * 60 * MINUTE;
const CART: MerchantOrder = { merchant_reference: 'cart-50', amount: 10_000, currency: 'EGP', description: 'cart' };

/** What a test compares of a delivered result: its state, outcome, amount, totals and error. */
const told = (result: VerifiedResult | undefined) =>
  result && {
    order_state: result.order_state,
    outcome: result.outcome,
    amount: result.amount,
    captured: result.order_status?.captured_amount,
    refunded: result.order_status?.refunded_amount,
    error: result.error,
  };

type World = ReturnType<typeof sandboxWorld>;

/**
 * The merchant's back-office client over the sandbox. `loseNextAnswer()`: the next CAPTURE or REFUND
 * is carried out by the gateway, but its answer is lost (a proxy's 502), and the one CHECK_STATUS
 * reading that settles it is lost too, so its outcome is `unknown`, as the CLI then watches it.
 * `loseNextAnswer(false)`: the same, but the proxy never passed it on (nothing moved).
 */
function backOffice(w: World) {
  const gateway = sandboxFetch(w.gateway);
  let lose: { readonly forwarded: boolean } | undefined;
  let readsLost = 0;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const fields = JSON.parse(String(init?.body ?? '{}')) as Record<string, string>;
    if (fields['query_command'] === 'CHECK_STATUS' && readsLost > 0) {
      readsLost -= 1;
      return new Response('Service Unavailable', { status: 503 });
    }
    const moves = fields['command'] === 'CAPTURE' || fields['command'] === 'REFUND';
    if (lose && moves) {
      if (lose.forwarded) await gateway(input, init);
      lose = undefined;
      readsLost = 1;
      return new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
    }
    return gateway(input, init);
  }) as typeof globalThis.fetch;
  const client: GatewayClient = createGatewayClient({
    ...endpointCredentials(),
    gatewayBaseUrl: SANDBOX,
    apiRoot: 'FortAPI',
    fetch,
    retry: false,
    reconcile: { attempts: 1, delayMs: 1, maxDelayMs: 1 },
    now: w.clock.now,
  });
  return {
    client,
    loseNextAnswer(forwarded = true) {
      lose = { forwarded };
    },
  };
}

/** The watch `pg-checkout capture` / `refund` writes after an `unknown` outcome (cli/store-env.ts `watchMoneyCall`). */
async function watchAsTheCliDoes(w: World, result: GatewayResult<unknown>) {
  assert.equal(result.outcome, 'unknown');
  const at = w.clock.now();
  const basis = { merchant_reference: CART.merchant_reference, language: 'en' as const, currency: 'EGP', ...(result.order?.svc_id ? { svc_id: result.order.svc_id } : {}) };
  await w.store.watches.watch(moneyCallWatch(basis, result.order?.state ?? 'unknown', at.getTime(), DEFAULT_WATCH_SETTINGS), at);
}

/** Moves the world's clock `ms` on and runs a reconciler pass. */
async function later(w: World, ms: number) {
  w.clock.set(new Date(w.clock.now().getTime() + ms));
  return w.reconciler.runDue();
}

/** A customer pays with `command` on the hosted page and comes back; the return posted (its fields kept to post again). */
async function paid(w: World, command: 'AUTHORIZATION' | 'PURCHASE') {
  const form = await w.post('/hosted-page', { merchant_reference: CART.merchant_reference, language: 'en', command });
  const ret = await w.payForm(form.body);
  assert.equal((await w.toEndpoint(ret.action, ret.fields)).get('outcome'), 'success');
  return ret;
}

describe('a hold of EGP 100.00 captured in two parts from the back office (sandbox)', () => {
  /** EGP 100.00 held; 40.00 captured and reported by the reconciler at the hold's watch. */
  async function firstPartReported() {
    const w = sandboxWorld([CART]);
    const office = backOffice(w);
    const ret = await paid(w, 'AUTHORIZATION');
    assert.equal((await office.client.capture({ merchant_reference: CART.merchant_reference, amount: 4_000, currency: 'EGP' })).outcome, 'success');
    w.clock.set(new Date(Date.parse(SANDBOX_START) + 3 * DAY));
    assert.equal((await w.reconciler.runDue()).reported, 1);
    return { w, office, ret };
  }

  it('reports the second capture, whose answer was lost, once the reconciler sees the captured total move', async () => {
    const { w, office } = await firstPartReported();
    office.loseNextAnswer();
    const second = await office.client.capture({ merchant_reference: CART.merchant_reference, amount: 3_000, currency: 'EGP' });
    assert.equal(second.order?.captured_amount, 4_000, 'the CLI last read the first part only');
    await watchAsTheCliDoes(w, second);
    const round = await later(w, 2 * MINUTE);
    assert.deepEqual(round, { asked: 1, reported: 1, ended: 1, failed: 0 });

    const delivered = await deliveredFrom(w.store, w.clock.now);
    assert.deepEqual(delivered.map(told), [
      { order_state: 'authorized', outcome: 'success', amount: 10_000, captured: 0, refunded: 0, error: undefined },
      { order_state: 'captured', outcome: 'success', amount: 4_000, captured: 4_000, refunded: 0, error: undefined },
      { order_state: 'captured', outcome: 'success', amount: 7_000, captured: 7_000, refunded: 0, error: undefined },
    ]);
    const [, first, next] = delivered;
    assert.equal(first?.idempotency_key, `cart-50:${first?.svc_id}:captured`);
    assert.equal(next?.idempotency_key, `cart-50:${next?.svc_id}:captured:7000`);
    assert.equal(w.shop.resultOf('cart-50')?.amount, 7_000, 'the shop\'s order shows the EGP 70.00 captured');
    assert.equal((await w.store.results.latestFor('cart-50'))?.amount, 7_000);
    assert.equal((await w.store.watches.get('cart-50'))?.end_reason, 'captured', 'the lost capture\'s watch is settled');
  });

  it('reports nothing twice: the customer\'s old return and another pass afterwards are answered from the ledger', async () => {
    const { w, office, ret } = await firstPartReported();
    office.loseNextAnswer();
    await watchAsTheCliDoes(w, await office.client.capture({ merchant_reference: CART.merchant_reference, amount: 3_000, currency: 'EGP' }));
    await later(w, 2 * MINUTE);
    const again = await w.toEndpoint(ret.action, ret.fields);
    assert.equal(again.get('outcome'), 'success');
    assert.equal((await later(w, 2 * DAY)).reported, 0);
    assert.equal(w.results.length, 3, 'authorized, the first part, the second part: each once');
  });

  it('reports the second capture through the customer\'s old return when nothing watches it', async () => {
    const { w, office, ret } = await firstPartReported();
    assert.equal((await office.client.capture({ merchant_reference: CART.merchant_reference, amount: 3_000, currency: 'EGP' })).outcome, 'success');
    const back = await w.toEndpoint(ret.action, ret.fields);
    assert.equal(back.get('outcome'), 'success');
    assert.equal(back.get('error'), null, 'checked against the hold accepted: still paid');
    assert.deepEqual(told(w.results[2]), { order_state: 'captured', outcome: 'success', amount: 7_000, captured: 7_000, refunded: 0, error: undefined });
    assert.equal(w.results[2]?.idempotency_key, `cart-50:${w.results[2]?.svc_id}:captured:7000`);
    await w.toEndpoint(ret.action, ret.fields);
    assert.equal(w.results.length, 3, 'posted again: answered from the ledger');
  });

  it('reports a capture that completes the hold too, under the plain state\'s key taken by the first part', async () => {
    const { w, office } = await firstPartReported();
    office.loseNextAnswer();
    await watchAsTheCliDoes(w, await office.client.capture({ merchant_reference: CART.merchant_reference, currency: 'EGP' }));
    await later(w, 2 * MINUTE);
    assert.deepEqual(told(w.results[2]), { order_state: 'captured', outcome: 'success', amount: 10_000, captured: 10_000, refunded: 0, error: undefined });
    assert.equal(w.results[2]?.idempotency_key, `cart-50:${w.results[2]?.svc_id}:captured:10000`);
  });

  it('keeps asking, and reports nothing, while the reading shows only the totals the shop was told (the capture never reached the gateway)', async () => {
    const { w, office } = await firstPartReported();
    office.loseNextAnswer(false);
    await watchAsTheCliDoes(w, await office.client.capture({ merchant_reference: CART.merchant_reference, amount: 3_000, currency: 'EGP' }));
    assert.deepEqual(await later(w, 2 * MINUTE), { asked: 1, reported: 0, ended: 0, failed: 0 });
    assert.equal((await w.store.watches.get('cart-50'))?.ended_at, undefined, 'still watched');
    await later(w, 2 * DAY);
    assert.equal((await w.store.watches.get('cart-50'))?.end_reason, 'expired');
    assert.equal(w.results.length, 2, 'the hold and its first part only');
  });
});

describe('a purchase of EGP 100.00 refunded in parts from the back office (sandbox)', () => {
  it('reports each refund once: the second partial refund, whose answer was lost, when the refunded total moves', async () => {
    const w = sandboxWorld([CART]);
    const office = backOffice(w);
    const ret = await paid(w, 'PURCHASE');
    const refund = async (amount?: number) => {
      office.loseNextAnswer();
      await watchAsTheCliDoes(w, await office.client.refund({ merchant_reference: CART.merchant_reference, currency: 'EGP', ...(amount === undefined ? {} : { amount }) }));
      return later(w, 2 * MINUTE);
    };
    assert.equal((await refund(2_000)).reported, 1);
    assert.equal((await refund(3_000)).reported, 1);
    // The rest, its answer received: the customer's old return, posted again, tells the shop.
    assert.equal((await office.client.refund({ merchant_reference: CART.merchant_reference, currency: 'EGP' })).outcome, 'success');
    assert.equal((await w.toEndpoint(ret.action, ret.fields)).get('outcome'), 'failure');

    const delivered = await deliveredFrom(w.store, w.clock.now);
    assert.deepEqual(delivered.map(told), [
      { order_state: 'captured', outcome: 'success', amount: 10_000, captured: 10_000, refunded: 0, error: undefined },
      { order_state: 'partially_refunded', outcome: 'success', amount: 10_000, captured: 10_000, refunded: 2_000, error: undefined },
      { order_state: 'partially_refunded', outcome: 'success', amount: 10_000, captured: 10_000, refunded: 5_000, error: undefined },
      { order_state: 'refunded', outcome: 'failure', amount: 10_000, captured: 10_000, refunded: 10_000, error: undefined },
    ]);
    const svcId = delivered[0]?.svc_id;
    assert.deepEqual(
      delivered.map((result) => result.idempotency_key),
      [`cart-50:${svcId}:captured`, `cart-50:${svcId}:partially_refunded`, `cart-50:${svcId}:partially_refunded:5000`, `cart-50:${svcId}:refunded`],
    );
    assert.equal(w.shop.resultOf('cart-50')?.order_state, 'refunded');
  });
});
