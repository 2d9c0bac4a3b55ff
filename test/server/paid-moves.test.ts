/**
 * What the merchant does with money already held, and what the reconciler and the return make of
 * it; and the reconciler's limits around it.
 *
 * - A payment is checked against the order's amount when it first shows money. A later move of the
 *   same payment (a hold captured, partly or wholly; a capture refunded) is checked against the
 *   amount accepted then: the authorization watch's amount in the reconciler, the payment's earlier
 *   paid result in the ledger on the return path. Never against the order as it is now: a shop that
 *   reduced the order and captured less did nothing wrong, and a failure would take the capture's
 *   key for good.
 * - The reconciler's order lookup cannot hold a pass past its claim: a time limit, no second try
 *   in the same pass after it ran out, the HTTP source asked once and not at all while the shop is
 *   down, and a pass that stops taking watches before its claim runs out.
 * - A cash bill waiting is recorded by a request when the bill's own result is not in the ledger
 *   (its recording failed): the shop hears of the bill before it is paid or cancelled.
 * - CHECK_STATUS refused for the merchant's settings (00008, 00006) in the reconciler is logged
 *   once a pass, with the settings to check, and makes a watch wait as an outage does.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createGatewayClient } from '../../src/gateway/client.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { signHookBody } from '../../src/server/hook-signature.ts';
import { createHttpOrderSource } from '../../src/server/order-source.ts';
import type { MerchantOrder } from '../../src/server/orders.ts';
import { createReconciler, orderLookupOf, type ReconcilerOrderLookup } from '../../src/server/reconciler.ts';
import { recordAndReport } from '../../src/server/results.ts';
import { ShopAvailability } from '../../src/server/shop-client.ts';
import { DEFAULT_WATCH_SETTINGS, formWatch, moneyCallWatch, resultWatch, UNANSWERED_GRACE_MS } from '../../src/server/watches.ts';
import { endpointCredentials } from '../../src/sandbox/merchants.ts';
import { expectedStatus, responseMessage } from '../../src/core/response.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { StoreUnavailableError } from '../../src/store/store.ts';
import { GATEWAY_ACCOUNT } from './fake-gateway.ts';
import { START } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { events, MINUTE, reconcilerWorld, returnQuery, SANDBOX, SANDBOX_START, sandboxFetch, sandboxWorld, summary } from './support/worlds.ts';

const DAY = 24 * 60 * MINUTE;
const HINT = "check PG_SHA_REQUEST_PHRASE, PG_SHA_TYPE, PG_ACCESS_CODE and PG_MERCHANT_IDENTIFIER against the gateway's back office";

// ---- 1. A capture or refund after a hold, the order changed meanwhile ----

describe('a hold captured in part after the shop reduced the order (sandbox)', () => {
  const cart = (amount: number): MerchantOrder => ({ merchant_reference: 'cart-7', amount, currency: 'EGP', description: 'cart' });

  /** Holds EGP 100.00 through the hosted page; the customer comes back; the shop reduces the order to 80.00 and captures 80.00. */
  async function holdThenPartialCapture() {
    const w = sandboxWorld([cart(10_000)], { orderLookup: true });
    const client = createGatewayClient({ ...endpointCredentials(), gatewayBaseUrl: SANDBOX, apiRoot: 'FortAPI', fetch: sandboxFetch(w.gateway), retry: false, now: w.clock.now });
    const form = await w.post('/hosted-page', { merchant_reference: 'cart-7', language: 'en', command: 'AUTHORIZATION' });
    const ret = await w.payForm(form.body);
    assert.equal(ret.fields['response_code'], '02000');
    const back = await w.toEndpoint(ret.action, ret.fields);
    assert.equal(back.get('outcome'), 'success');
    assert.deepEqual(summary(w.results[0]), { outcome: 'success', order_state: 'authorized', error: undefined, amount: 10_000, currency: 'EGP' });
    // An item is out of stock: the shop reduces the order and captures what it ships.
    w.shop.add(cart(8_000));
    const captured = await client.capture({ merchant_reference: 'cart-7', amount: 8_000, currency: 'EGP' });
    assert.equal(captured.outcome, 'success');
    return { w, ret };
  }

  it('is reported by the reconciler as captured and paid, checked against the amount accepted for the hold, the shop not asked', async () => {
    const { w } = await holdThenPartialCapture();
    w.clock.set(new Date(Date.parse(SANDBOX_START) + 3 * DAY));
    const round = await w.reconciler.runDue();
    assert.equal(round.reported, 1);
    const capture = w.results[1];
    assert.deepEqual(summary(capture), { outcome: 'success', order_state: 'captured', error: undefined, amount: 8_000, currency: 'EGP' });
    assert.equal(capture?.order_status?.captured_amount, 8_000);
    assert.deepEqual(w.lookedUp, [], 'the order as it is now is not what the capture is checked against');
    assert.equal(events(w.logs, 'verified_answer_disagrees_with_order').length, 0);
    assert.equal((await w.store.results.latestFor('cart-7'))?.order_state, 'captured');
    assert.equal(w.shop.resultOf('cart-7')?.order_state, 'captured');
  });

  it('is paid when the customer\'s old return is posted again after the capture, and the reconciler replays it', async () => {
    const { w, ret } = await holdThenPartialCapture();
    const again = await w.toEndpoint(ret.action, ret.fields);
    assert.equal(again.get('outcome'), 'success');
    assert.equal(again.get('error'), null);
    assert.deepEqual(summary(w.results[1]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 8_000, currency: 'EGP' });
    w.clock.set(new Date(Date.parse(SANDBOX_START) + 3 * DAY));
    await w.reconciler.runDue();
    assert.equal(w.results.length, 2, 'the capture reported once');
    assert.equal((await w.store.results.latestFor('cart-7'))?.order_state, 'captured');
  });
});

describe('the reconciler, a payment already holding money moving on', () => {
  const order = (amount: number): MerchantOrder => ({ merchant_reference: 'order-1001', amount, currency: 'EGP' });

  /** The watch of a hold accepted at `amount` (as a return's or the reconciler's authorized result writes it). */
  const holdWatch = (amount: number, svcId = '1700000051') =>
    resultWatch(
      { merchant_reference: 'order-1001', order_state: 'authorized', source: 'return', svc_id: svcId, amount, currency: 'EGP' },
      'en',
      START.getTime(),
      DEFAULT_WATCH_SETTINGS,
    );

  /** A world whose shop now says the order costs `now`, each lookup kept. */
  function world(now: number) {
    const asked: string[] = [];
    const w = reconcilerWorld({
      orderOf: (reference) => {
        asked.push(reference);
        return order(now);
      },
    });
    return { w, asked };
  }

  for (const state of ['captured', 'partially_refunded', 'refunded'] as const) {
    it(`reports the hold ${state} as paid against the hold's accepted amount, though the order was changed since`, async () => {
      const { w, asked } = world(200_000);
      const watch = holdWatch(250_000);
      assert.ok(watch);
      await w.watch(watch);
      w.harness.gateway.holds('order-1001', state, { svcId: '1700000051', amount: 250_000 });
      await w.round();
      assert.deepEqual(summary(w.reported[0]), { outcome: state === 'refunded' ? 'failure' : 'success', order_state: state, error: undefined, amount: 250_000, currency: 'EGP' });
      assert.equal(w.reported[0]?.idempotency_key, `order-1001:1700000051:${state}`);
      assert.deepEqual(asked, []);
    });
  }

  it('still fails a capture of a hold whose amount was not the one accepted, whatever the order says now', async () => {
    const { w, asked } = world(10_000);
    const watch = holdWatch(250_000);
    assert.ok(watch);
    await w.watch(watch);
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000051', amount: 10_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.deepEqual(asked, []);
  });

  it('checks a back-office call\'s refund of a capture (a watch that kept no amount) against nothing, the shop not asked', async () => {
    const { w, asked } = world(200_000);
    await w.watch(moneyCallWatch({ merchant_reference: 'order-1001', language: 'en', svc_id: '1700000052', currency: 'EGP' }, 'captured', START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'partially_refunded', { svcId: '1700000052', amount: 250_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'partially_refunded', error: undefined, amount: 250_000, currency: 'EGP' });
    assert.deepEqual(asked, []);
  });

  it('asks the shop about another payment under the reference (another svc_id): its money shows for the first time', async () => {
    const { w, asked } = world(200_000);
    const watch = holdWatch(250_000, '1700000053');
    assert.ok(watch);
    await w.watch(watch);
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000054', amount: 250_000 });
    await w.round();
    assert.deepEqual(asked, ['order-1001']);
    assert.deepEqual(summary(w.reported[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 250_000, currency: 'EGP' });
  });

  it('still asks the shop when a payment first shows money, and keeps that order\'s amount for its capture', async () => {
    const { w, asked } = world(200_000);
    await w.watch(formWatch({ merchant_reference: 'order-1001', amount: 250_000, currency: 'EGP', language: 'en' }, START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'authorized', { svcId: '1700000055', amount: 200_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'authorized', error: undefined, amount: 200_000, currency: 'EGP' });
    assert.equal((await w.store.watches.get('order-1001'))?.amount, 200_000);
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000055', amount: 200_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[1]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 200_000, currency: 'EGP' });
    assert.deepEqual(asked, ['order-1001'], 'asked once, when the money first showed');
  });
});

describe('a return confirmed after the hold it paid moved on, the order changed since', () => {
  /** The gateway's signed return of an authorization of the order's EGP 2,500.00. */
  const holdReturn = (svcId: string) =>
    signedAnswer('02000', { merchant_reference: 'order-1001', command: 'AUTHORIZATION', amount: '250000', currency: 'EGP', svc_id: svcId });

  for (const store of [false, true]) {
    it(`is paid, checked against the hold's recorded result, not the order as it is now (${store ? 'the store\'s results' : 'the ledger in memory'})`, async () => {
      const w = reconcilerWorld({ endpointStore: store });
      const h = w.harness;
      h.gateway.holds('order-1001', 'authorized', { svcId: '1700000061', amount: 250_000 });
      const answer = await holdReturn('1700000061');
      assert.equal((await returnQuery(h, answer)).get('outcome'), 'success');
      // The shop reduces the order and captures what it ships.
      h.orders.add({ merchant_reference: 'order-1001', amount: 200_000, currency: 'EGP' });
      h.gateway.answer('CHECK_STATUS', () => ({
        code: '12000',
        fields: {
          svc_id: '1700000061',
          transaction_code: '14000',
          transaction_status: expectedStatus('14000'),
          transaction_message: responseMessage('14000', 'en'),
          authorized_amount: '250000',
          captured_amount: '200000',
          refunded_amount: '0',
        },
      }));
      const again = await returnQuery(h, answer);
      assert.equal(again.get('outcome'), 'success');
      const [first, second] = h.results;
      assert.equal(first?.order_state, 'authorized');
      assert.deepEqual(summary(second), { outcome: 'success', order_state: 'captured', error: undefined, amount: 200_000, currency: 'EGP' });
      assert.equal(events(h.logs, 'verified_answer_disagrees_with_order').length, 0);
    });
  }

  it('compares with the order as it is now when the hold itself was not accepted (its result a failure)', async () => {
    const w = reconcilerWorld({ endpointStore: false });
    const h = w.harness;
    h.gateway.holds('order-1001', 'authorized', { svcId: '1700000062', amount: 10_000 });
    const answer = await holdReturn('1700000062');
    assert.equal((await returnQuery(h, answer)).get('error'), 'amount_mismatch');
    h.gateway.holds('order-1001', 'captured', { svcId: '1700000062', amount: 10_000 });
    await returnQuery(h, answer);
    assert.deepEqual(summary(h.results[1]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
  });

  it('compares with the order as it is now for another payment (another svc_id) than the one recorded', async () => {
    const w = reconcilerWorld({ endpointStore: false });
    const h = w.harness;
    h.gateway.holds('order-1001', 'authorized', { svcId: '1700000063', amount: 250_000 });
    await returnQuery(h, await holdReturn('1700000063'));
    h.orders.add({ merchant_reference: 'order-1001', amount: 200_000, currency: 'EGP' });
    h.gateway.holds('order-1001', 'captured', { svcId: '1700000064', amount: 250_000 });
    await returnQuery(h, await holdReturn('1700000064'));
    assert.deepEqual(summary(h.results[1]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 250_000, currency: 'EGP' });
  });
});

// ---- 2. The reconciler's order lookup within its pass ----

const formBasis = (reference: string) => ({ merchant_reference: reference, amount: 250_000, currency: 'EGP', language: 'en' as const });

/** Watches `count` signed forms (order-1001, order-1001-2, …), each paid at the gateway at the watch's amount. */
async function paidForms(w: ReturnType<typeof reconcilerWorld>, count: number): Promise<string[]> {
  const references = Array.from({ length: count }, (_, index) => (index === 0 ? 'order-1001' : `order-1001-${index + 1}`));
  for (const [index, reference] of references.entries()) {
    await w.watch(formWatch(formBasis(reference), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds(reference, 'captured', { svcId: `17000001${String(index).padStart(2, '0')}`, amount: 250_000 });
  }
  return references;
}

/** A reconciler over a reconcilerWorld's store and gateway, with its own order lookup and options. */
function reconcilerOver(w: ReturnType<typeof reconcilerWorld>, orderOf: ReconcilerOrderLookup, orderLookupTimeoutMs?: number) {
  const logs: string[] = [];
  const log = createJsonLogger((line) => logs.push(line));
  const reported: VerifiedResult[] = [];
  const reconciler = createReconciler({
    store: w.store,
    gateway: createGatewayClient({ ...GATEWAY_ACCOUNT, fetch: w.harness.gateway.fetch, retry: false, now: w.now }),
    log,
    now: w.now,
    questionsPerMinute: 60_000,
    settings: { intervalSeconds: 60 },
    orderOf,
    ...(orderLookupTimeoutMs === undefined ? {} : { orderLookupTimeoutMs }),
    report: async (result) => {
      reported.push(result);
      await recordAndReport(result, { ledger: w.store.results, onResult: undefined, log, now: w.now });
    },
  });
  return { reconciler, logs, reported };
}

describe('the reconciler\'s order lookup, the shop not answering', () => {
  it('gives up on a lookup past its limit, compares the watch\'s amount, and asks no more in that pass', { timeout: 5_000 }, async (t) => {
    // The process is kept alive while the lookup hangs, so a pass that waits for it times out.
    const keepAlive = setInterval(() => {}, 1_000);
    t.signal.addEventListener('abort', () => clearInterval(keepAlive));
    t.after(() => clearInterval(keepAlive));
    const w = reconcilerWorld();
    await paidForms(w, 3);
    let asked = 0;
    const hanging: ReconcilerOrderLookup = () => {
      asked += 1;
      return new Promise(() => {});
    };
    const r = reconcilerOver(w, hanging, 50);
    w.advance(31 * MINUTE);
    const round = await r.reconciler.runDue();
    assert.equal(round.reported, 3);
    assert.equal(asked, 1);
    for (const result of r.reported) assert.deepEqual([result.outcome, result.amount], ['success', 250_000]);
    assert.deepEqual(events(r.logs, 'reconcile_order_lookup_failed').map((line) => line['reason']), ['timeout', 'skipped', 'skipped']);
  });

  it('stops taking watches before its claim runs out, and hands the rest back as due', async () => {
    const w = reconcilerWorld();
    const references = await paidForms(w, 6);
    // Each lookup takes 40 s: six of them would hold the pass past its two-minute claim.
    const slow: ReconcilerOrderLookup = (reference) => {
      w.advance(40_000);
      return { merchant_reference: reference, amount: 250_000, currency: 'EGP' };
    };
    const r = reconcilerOver(w, slow);
    w.advance(31 * MINUTE);
    const dueBefore = await Promise.all(references.map(async (reference) => (await w.store.watches.get(reference))?.next_check_at));
    const round = await r.reconciler.runDue();
    assert.equal(round.asked, 3);
    assert.deepEqual(events(r.logs, 'reconcile_paused').map((line) => [line['reason'], line['left']]), [['claim_ending', 3]]);
    for (const [index, reference] of references.entries()) {
      const watch = await w.store.watches.get(reference);
      if (index < 3) assert.equal(watch?.ended_at !== undefined, true, reference);
      else assert.deepEqual([watch?.ended_at, watch?.checks, watch?.next_check_at], [undefined, 0, dueBefore[index]], `${reference} handed back as due`);
    }
    // The next pass takes them.
    const next = await r.reconciler.runDue();
    assert.equal(next.asked, 3);
  });
});

describe('the HTTP order source as the reconciler asks it', () => {
  const URL = 'http://127.0.0.1:9/pg-hooks/order';
  const SECRET = 'hook-secret-for-the-test-0123456789';

  function source(w: ReturnType<typeof reconcilerWorld>, fetchShop: typeof fetch, extra: { backgroundTimeoutMs?: number } = {}) {
    const logs: string[] = [];
    const log = createJsonLogger((line) => logs.push(line));
    const resolve = createHttpOrderSource({
      url: URL,
      secret: SECRET,
      timeoutMs: 5_000,
      fetch: fetchShop,
      now: w.now,
      orderMemory: createMemoryStore().orders,
      log,
      availability: new ShopAvailability(log, w.now),
      ...extra,
    });
    return { resolve, logs };
  }

  it('asks a shop that cannot be reached once, then not again while it is down, but for one probe a minute', { timeout: 5_000 }, async () => {
    const w = reconcilerWorld();
    await paidForms(w, 3);
    let calls = 0;
    const down = (async () => {
      calls += 1;
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const shop = source(w, down);
    const r = reconcilerOver(w, orderLookupOf(shop.resolve));
    w.advance(31 * MINUTE);
    const round = await r.reconciler.runDue();
    assert.equal(round.reported, 3);
    assert.equal(calls, 1, 'one attempt, no retries; the other lookups skipped while the shop is down');
    for (const result of r.reported) assert.deepEqual([result.outcome, result.amount], ['success', 250_000]);
    assert.equal(events(shop.logs, 'shop_unreachable').length, 1);

    // Within the minute: not asked; a minute on, one probe.
    await paidForms(w, 3);
    w.advance(10_000);
    assert.equal((await r.reconciler.runDue()).reported, 3);
    assert.equal(calls, 1);
    await paidForms(w, 3);
    w.advance(MINUTE);
    await r.reconciler.runDue();
    assert.equal(calls, 2);
  });

  it('gives a hanging shop one short attempt, not the shop\'s limit three times over, and asks no more for a minute', { timeout: 4_000 }, async () => {
    const w = reconcilerWorld();
    await paidForms(w, 2);
    let calls = 0;
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) => {
      calls += 1;
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }) as typeof fetch;
    const shop = source(w, hanging, { backgroundTimeoutMs: 50 });
    const r = reconcilerOver(w, orderLookupOf(shop.resolve));
    w.advance(31 * MINUTE);
    const started = Date.now();
    await r.reconciler.runDue();
    assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
    assert.equal(calls, 1, 'the second payment\'s lookup not sent: the shop did not answer the first');
    assert.deepEqual(r.reported.map((result) => result.outcome), ['success', 'success']);
    // Its own shorter limit: checkouts, which wait the shop's full limit, are not told the shop is down.
    assert.equal(events(shop.logs, 'shop_unreachable').length, 0);
  });

  it('still answers the reconciler\'s lookup with the shop\'s order when it answers', async () => {
    const w = reconcilerWorld();
    await paidForms(w, 1);
    const answering = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const lookup = JSON.parse(String(init?.body)) as { merchant_reference: string };
      const text = JSON.stringify({ merchant_reference: lookup.merchant_reference, amount: 500_000, currency: 'EGP' });
      return new Response(text, { status: 200, headers: { 'content-type': 'application/json', 'pg-signature': await signHookBody(text, SECRET, w.now()) } });
    }) as typeof fetch;
    const shop = source(w, answering);
    const r = reconcilerOver(w, orderLookupOf(shop.resolve));
    w.advance(31 * MINUTE);
    await r.reconciler.runDue();
    assert.deepEqual(summary(r.reported[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 250_000, currency: 'EGP' });
  });
});

// ---- 3. A cash bill whose own result was not recorded ----

describe('a cash bill waiting, its own result never recorded', () => {
  const REFERENCE = 'order-1001';
  const BILL_SVC_ID = '1700000042';

  /** The customer's card is declined, then they take a cash bill; recording the bill's result fails. */
  async function billNotRecorded(w: ReturnType<typeof reconcilerWorld>, failRecording: () => void) {
    w.harness.gateway.holds(REFERENCE, 'declined', { svcId: '1700000001' });
    const declined = await signedAnswer('13001', { merchant_reference: REFERENCE, command: 'PURCHASE', amount: '250000', currency: 'EGP', svc_id: '1700000001' });
    assert.equal((await w.harness.postReturn(declined)).status, 303);
    failRecording();
    const bill = await w.harness.post('/bill', { merchant_reference: REFERENCE, language: 'en' });
    assert.equal(bill.status, 200);
    assert.equal(events(w.harness.logs, 'bill_report_failed').length, 1);
    w.harness.gateway.holds(REFERENCE, 'bill_issued', { svcId: BILL_SVC_ID });
    return declined;
  }

  it('is recorded and delivered by the next request that reads it waiting, once (the store was down for the bill)', async () => {
    const delivered: VerifiedResult[] = [];
    const w = reconcilerWorld({ endpoint: { onResult: (result) => void delivered.push(result) } });
    const results = w.store.results;
    const record = results.record.bind(results);
    const declined = await billNotRecorded(w, () => {
      let down = true;
      results.record = async (result, now) => {
        if (down && result.source === 'bill') {
          down = false;
          throw new StoreUnavailableError('connection', 'the database is not answering');
        }
        return record(result, now);
      };
    });
    const keysBefore = delivered.map((result) => result.idempotency_key);
    assert.deepEqual(keysBefore, [`${REFERENCE}:1700000001:failed`]);

    const first = await returnQuery(w.harness, declined);
    await returnQuery(w.harness, declined);
    assert.deepEqual([first.get('outcome'), first.get('response_code')], ['pending', '30000']);
    assert.deepEqual(delivered.map((result) => result.idempotency_key), [...keysBefore, `${REFERENCE}:${BILL_SVC_ID}:pending`]);
    assert.equal((await w.store.results.latestFor(REFERENCE))?.response_code, '30000');
  });

  it('shows the customer the bill waiting while the store cannot be read, and records it once the store is back', async () => {
    const delivered: VerifiedResult[] = [];
    const w = reconcilerWorld({ endpoint: { onResult: (result) => void delivered.push(result) } });
    const { results, watches } = w.store;
    const record = results.record.bind(results);
    const declined = await billNotRecorded(w, () => {
      results.record = async (result, now) => {
        if (result.source === 'bill') throw new StoreUnavailableError('connection', 'the database is not answering');
        return record(result, now);
      };
    });
    const get = watches.get.bind(watches);
    watches.get = async () => {
      throw new StoreUnavailableError('connection', 'the database is not answering');
    };
    const shown = await returnQuery(w.harness, declined);
    assert.deepEqual([shown.get('outcome'), shown.get('response_code')], ['pending', '30000']);
    assert.deepEqual(events(w.harness.logs, 'bill_result_unchecked').map((line) => line['reason']), ['connection']);
    assert.equal(delivered.length, 1);

    watches.get = get;
    await returnQuery(w.harness, declined);
    assert.deepEqual(delivered.map((result) => result.idempotency_key), [`${REFERENCE}:1700000001:failed`, `${REFERENCE}:${BILL_SVC_ID}:pending`]);
  });

  it('is recorded by the next request without a store either, when the shop\'s hook failed for the bill', async () => {
    const delivered: VerifiedResult[] = [];
    let failBill = false;
    const w = reconcilerWorld({
      endpointStore: false,
      endpoint: {
        onResult: (result) => {
          if (failBill && result.source === 'bill') {
            failBill = false;
            throw new Error('the shop is restarting');
          }
          delivered.push(result);
        },
      },
    });
    const declined = await billNotRecorded(w, () => {
      failBill = true;
    });
    await w.harness.postReturn(declined);
    await w.harness.postReturn(declined);
    assert.deepEqual(delivered.map((result) => result.idempotency_key), [`${REFERENCE}:1700000001:failed`, `${REFERENCE}:${BILL_SVC_ID}:pending`]);
  });
});

// ---- 4. CHECK_STATUS refused for the merchant's settings, in the reconciler ----

describe('the reconciler when the gateway refuses CHECK_STATUS for the merchant\'s settings', () => {
  for (const code of ['00008', '00006'] as const) {
    it(`logs it once a pass with the settings to check, and keeps the watches waiting (${code})`, async () => {
      const w = reconcilerWorld();
      const references = await paidForms(w, 3);
      w.harness.gateway.answer('CHECK_STATUS', () => ({ code }));
      const round = await w.round();
      assert.equal(round.reported, 0);
      assert.equal(round.ended, 0);
      const refused = events(w.logs, 'gateway_configuration_refused');
      assert.deepEqual(refused.map((line) => [line['level'], line['operation'], line['response_code'], line['hint']]), [['error', 'CHECK_STATUS', code, HINT]]);
      assert.deepEqual(events(w.logs, 'reconcile_paused').map((line) => line['reason']), ['gateway_configuration_refused']);
      for (const reference of references) assert.equal((await w.store.watches.get(reference))?.ended_at, undefined);
      assert.equal((await w.store.watches.get(references[0] ?? ''))?.last_error, 'configuration_refused');
      await w.round();
      assert.equal(events(w.logs, 'gateway_configuration_refused').length, 2, 'once more, in the next pass');
    });
  }

  it('does not end a watch at its expiry for it; ends it unanswered only after the outage\'s grace', async () => {
    const w = reconcilerWorld();
    await paidForms(w, 1);
    w.harness.gateway.answer('CHECK_STATUS', () => ({ code: '00008' }));
    const expiresAt = Date.parse((await w.store.watches.get('order-1001'))?.expires_at ?? '');
    w.advance(expiresAt + MINUTE - w.now().getTime());
    await w.reconciler.runDue();
    assert.equal((await w.store.watches.get('order-1001'))?.ended_at, undefined, 'not ended at its expiry');
    assert.equal(events(w.logs, 'watch_expired').length, 0);

    w.advance(expiresAt + UNANSWERED_GRACE_MS + MINUTE - w.now().getTime());
    await w.reconciler.runDue();
    const ended = await w.store.watches.get('order-1001');
    assert.equal(ended?.end_reason, 'expired_unanswered');
    assert.deepEqual(events(w.logs, 'watch_expired_unanswered').map((line) => line['reason']), ['configuration_refused']);
    assert.equal(w.reported.length, 0);
  });

  it('reports the payment once the settings are corrected within the grace', async () => {
    const w = reconcilerWorld();
    await paidForms(w, 1);
    w.harness.gateway.answer('CHECK_STATUS', () => ({ code: '00008' }));
    const expiresAt = Date.parse((await w.store.watches.get('order-1001'))?.expires_at ?? '');
    w.advance(expiresAt + MINUTE - w.now().getTime());
    await w.reconciler.runDue();
    w.harness.gateway.reset();
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000100', amount: 250_000 });
    w.advance(2 * 60 * MINUTE);
    await w.reconciler.runDue();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 250_000, currency: 'EGP' });
  });
});
