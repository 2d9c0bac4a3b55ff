/**
 * A return posted again after the customer took a cash bill for the same order. The bill's own
 * result (`pending`, source `bill`, keyed by the bill's number) is the shop's news of it; the
 * return, confirmed with CHECK_STATUS, reads the same bill waiting under the gateway's payment id,
 * a key of its own. It must record and deliver nothing: nothing changed. The bill paid at the
 * counter later is new, and is recorded and delivered once, as `captured`, whoever finds it first.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { VerifiedResult } from '../../src/server/config.ts';
import { signedAnswer } from './support/returns.ts';
import { events, MINUTE, reconcilerWorld, returnQuery } from './support/worlds.ts';

const REFERENCE = 'order-1001';
/** The declined card payment's id, and the one the gateway gives the bill. */
const DECLINED_SVC_ID = '1700000001';
const BILL_SVC_ID = '1700000042';

/** The gateway's signed return of the customer's declined card payment, as the browser posts it. */
function declinedReturn(): Promise<Record<string, string>> {
  return signedAnswer('13001', { merchant_reference: REFERENCE, command: 'PURCHASE', amount: '250000', currency: 'EGP', svc_id: DECLINED_SVC_ID });
}

/** The endpoint on one clock with a store and a reconciler (the standalone service's parts), or with no store at all. */
function world(options: { readonly store: boolean } = { store: true }) {
  const delivered: VerifiedResult[] = [];
  const deliver = (result: VerifiedResult) => void delivered.push(result);
  const w = reconcilerWorld({ endpointStore: options.store, endpoint: { onResult: deliver }, onReport: deliver });
  return {
    ...w,
    delivered,
    /** Keys of what the shop was handed, in order. */
    deliveredKeys: () => delivered.map((result) => result.idempotency_key),
    /** Keys of what the store recorded, in order. */
    async recordedKeys() {
      return (await w.store.results.list({ state: 'all', limit: 100 })).map((row) => row.result.idempotency_key);
    },
  };
}

type World = ReturnType<typeof world>;

/** The customer's card is declined on the gateway's page, then they take a cash bill for the order instead. */
async function declinedThenBill(w: World) {
  w.harness.gateway.holds(REFERENCE, 'declined', { svcId: DECLINED_SVC_ID });
  const declined = await declinedReturn();
  assert.equal((await w.harness.postReturn(declined)).status, 303);
  const bill = await w.harness.post('/bill', { merchant_reference: REFERENCE, language: 'en' });
  assert.equal(bill.status, 200);
  // The gateway now holds the bill under the order's reference, with a payment id of its own.
  w.harness.gateway.holds(REFERENCE, 'bill_issued', { svcId: BILL_SVC_ID });
  const billKey = `${REFERENCE}:${bill.body.bill_number}:pending`;
  assert.deepEqual(w.deliveredKeys(), [`${REFERENCE}:${DECLINED_SVC_ID}:failed`, billKey]);
  return { declined, billKey };
}

describe('a return posted again after the customer took a cash bill', () => {
  it('records and delivers nothing new: the bill waiting was reported once, by the bill', async () => {
    const w = world();
    const { declined, billKey } = await declinedThenBill(w);
    const recordedBefore = await w.recordedKeys();
    const replayedBefore = events(w.harness.logs, 'payment_result_replayed').length;

    // The browser's back button, twice.
    w.advance(10 * MINUTE);
    const first = await returnQuery(w.harness, declined);
    const second = await returnQuery(w.harness, declined);

    assert.deepEqual(w.deliveredKeys(), [`${REFERENCE}:${DECLINED_SVC_ID}:failed`, billKey], 'nothing new delivered to the shop');
    assert.deepEqual(await w.recordedKeys(), recordedBefore, 'nothing new recorded');
    assert.equal(events(w.harness.logs, 'payment_result_replayed').length, replayedBefore + 2);
    // The customer is told where the order stands: a bill waiting, as before.
    for (const shown of [first, second]) assert.deepEqual([shown.get('outcome'), shown.get('response_code')], ['pending', '30000']);
    assert.equal((await w.store.results.latestFor(REFERENCE))?.idempotency_key, billKey, 'the order is still the bill waiting');
  });

  it('records and delivers nothing new without a store either (the ledger in memory)', async () => {
    const w = world({ store: false });
    const { declined, billKey } = await declinedThenBill(w);
    const ledgerSize = w.harness.ledger.size;
    for (let post = 0; post < 3; post++) await w.harness.postReturn(declined);
    assert.deepEqual(w.deliveredKeys(), [`${REFERENCE}:${DECLINED_SVC_ID}:failed`, billKey]);
    assert.equal(w.harness.ledger.size, ledgerSize);
  });

  it('still records and delivers the bill paid at the counter once, as captured, when a replay finds it first', async () => {
    const w = world();
    const { declined, billKey } = await declinedThenBill(w);
    await w.harness.postReturn(declined);

    // Paid at the partner's counter; the old return is posted again before the reconciler asks.
    w.harness.gateway.holds(REFERENCE, 'captured', { svcId: BILL_SVC_ID });
    const paid = await returnQuery(w.harness, declined);
    assert.equal(paid.get('outcome'), 'success');
    await w.harness.postReturn(declined);
    for (let step = 0; step < 12; step++) {
      w.advance(10 * MINUTE);
      await w.reconciler.runDue();
    }

    const capturedKey = `${REFERENCE}:${BILL_SVC_ID}:captured`;
    assert.deepEqual(w.deliveredKeys(), [`${REFERENCE}:${DECLINED_SVC_ID}:failed`, billKey, capturedKey]);
    assert.deepEqual(await w.recordedKeys(), [`${REFERENCE}:${DECLINED_SVC_ID}:failed`, billKey, capturedKey]);
    assert.equal((await w.store.results.latestFor(REFERENCE))?.order_state, 'captured');
    assert.equal((await w.store.watches.get(REFERENCE))?.end_reason, 'reported', 'the return that reported the payment ended the bill\'s watch');
  });

  it('still records and delivers the bill paid at the counter once, as captured, when the reconciler finds it first', async () => {
    const w = world();
    const { declined, billKey } = await declinedThenBill(w);
    await w.harness.postReturn(declined);

    w.harness.gateway.holds(REFERENCE, 'captured', { svcId: BILL_SVC_ID });
    for (let step = 0; step < 12; step++) {
      w.advance(10 * MINUTE);
      await w.reconciler.runDue();
    }
    const paid = await returnQuery(w.harness, declined);
    assert.equal(paid.get('outcome'), 'success');

    const capturedKey = `${REFERENCE}:${BILL_SVC_ID}:captured`;
    assert.deepEqual(w.deliveredKeys(), [`${REFERENCE}:${DECLINED_SVC_ID}:failed`, billKey, capturedKey]);
    assert.deepEqual(await w.recordedKeys(), [`${REFERENCE}:${DECLINED_SVC_ID}:failed`, billKey, capturedKey]);
  });
});
