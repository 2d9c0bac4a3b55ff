/**
 * A cash bill whose own `pending` result never reached the ledger (the store was down when it was
 * recorded, the service was killed between issuing and recording, its answer was lost): the
 * reconciler, reading the bill still waiting at the counter, records and delivers that pending
 * result once, with what it knows of the bill (CHECK_STATUS's reading, and the number, partner and
 * expiry its watch kept), then watches on and reports the payment when it is made. A bill whose own
 * result was recorded, or whose waiting reading a request already recorded, is not reported again.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { VerifiedResult } from '../../src/server/config.ts';
import type { MerchantOrder } from '../../src/server/orders.ts';
import { SANDBOX_VOUCHER_PARTNER_CODE } from '../../src/sandbox/index.ts';
import { billWatch, DEFAULT_WATCH_SETTINGS } from '../../src/server/watches.ts';
import { StoreUnavailableError, type ResultStore } from '../../src/store/store.ts';
import { START } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { events, MINUTE, reconcilerWorld, returnQuery, sandboxWorld } from './support/worlds.ts';

const REFERENCE = 'order-1001';
const BILL_SVC_ID = '1700000042';
const DAY = 24 * 60 * MINUTE;

/** The results store, refusing to record a bill's own result once (the database down for that moment). */
function failBillRecordOnce(results: ResultStore): void {
  const record = results.record.bind(results);
  let down = true;
  results.record = async (result, now) => {
    if (down && result.source === 'bill') {
      down = false;
      throw new StoreUnavailableError('connection', 'the database is not answering');
    }
    return record(result, now);
  };
}

/** What a test compares of a pending bill result. */
const pendingOf = (result: VerifiedResult | undefined) =>
  result && {
    key: result.idempotency_key,
    source: result.source,
    outcome: result.outcome,
    order_state: result.order_state,
    response_code: result.response_code,
    amount: result.amount,
    currency: result.currency,
    bill_number: result.bill?.bill_number,
  };

describe('a cash bill waiting at the counter whose own result was never recorded', () => {
  it('is reported by the reconciler once, with the bill its watch kept, and its payment after it (the store was down for the bill)', async () => {
    const w = reconcilerWorld();
    failBillRecordOnce(w.store.results);
    const issued = await w.harness.post('/bill', { merchant_reference: REFERENCE, language: 'en' });
    assert.equal(issued.status, 200, 'the customer has the bill');
    assert.equal(events(w.harness.logs, 'bill_report_failed').length, 1);
    assert.equal(await w.store.results.latestFor(REFERENCE), undefined, 'the shop has heard nothing');
    w.harness.gateway.holds(REFERENCE, 'bill_issued', { svcId: BILL_SVC_ID });

    const first = await w.round();
    assert.equal(first.reported, 1);
    assert.deepEqual(w.reported.map(pendingOf), [
      {
        key: `${REFERENCE}:${BILL_SVC_ID}:pending`,
        source: 'reconcile',
        outcome: 'pending',
        order_state: 'pending',
        response_code: '30000',
        amount: 250_000,
        currency: 'EGP',
        bill_number: issued.body.bill_number,
      },
    ]);
    assert.deepEqual(w.reported[0]?.bill, {
      bill_number: issued.body.bill_number,
      payment_partner: issued.body.payment_partner,
      request_expiry_date: issued.body.request_expiry_date,
    });
    assert.equal((await w.store.results.latestFor(REFERENCE))?.response_code, '30000', 'recorded, for the webhook and the results routes');

    for (let step = 0; step < 4; step++) assert.equal((await w.round()).reported, 0, 'once, not every round');
    assert.equal((await w.store.watches.get(REFERENCE))?.ended_at, undefined, 'still watched');

    w.harness.gateway.holds(REFERENCE, 'captured', { svcId: BILL_SVC_ID });
    w.advance(2 * 60 * MINUTE);
    await w.round();
    assert.deepEqual(
      w.reported.map((result) => [result.idempotency_key, result.order_state]),
      [
        [`${REFERENCE}:${BILL_SVC_ID}:pending`, 'pending'],
        [`${REFERENCE}:${BILL_SVC_ID}:captured`, 'captured'],
      ],
    );
    assert.equal((await w.store.watches.get(REFERENCE))?.end_reason, 'captured');
  });

  it('is reported once when the service was killed after the bill was issued and kept, before its result was recorded', async () => {
    const w = reconcilerWorld();
    // What a process killed between keeping the issued bill in its watch and recording its result leaves.
    const bill = { bill_number: '39420452089063', payment_partner: 'CASHP', request_expiry_date: '2026-11-24T09:00:00+00:00' };
    await w.watch(billWatch({ merchant_reference: REFERENCE, amount: 250_000, currency: 'EGP', language: 'en' }, START.getTime() + 2 * DAY, START.getTime(), DEFAULT_WATCH_SETTINGS, bill));
    w.harness.gateway.holds(REFERENCE, 'bill_issued', { svcId: BILL_SVC_ID });

    await w.round();
    await w.round();
    assert.deepEqual(w.reported.map(pendingOf), [
      {
        key: `${REFERENCE}:${BILL_SVC_ID}:pending`,
        source: 'reconcile',
        outcome: 'pending',
        order_state: 'pending',
        response_code: '30000',
        amount: 250_000,
        currency: 'EGP',
        bill_number: '39420452089063',
      },
    ]);
    assert.deepEqual(w.reported[0]?.bill, bill);
  });

  it('is reported once, without a number, when the bill\'s answer was lost and its watch kept none', async () => {
    const w = reconcilerWorld();
    // The gateway issues the bill, but its answer cannot be verified: the endpoint never learns the number.
    w.harness.gateway.answer('BILL_PRESENTMENT', () => ({
      code: '30000',
      fields: { bill_number: '12345678901234' },
      tamper: ({ signature: _dropped, ...unsigned }) => unsigned,
    }));
    assert.equal((await w.harness.post('/bill', { merchant_reference: REFERENCE, language: 'en' })).status, 502);
    w.harness.gateway.holds(REFERENCE, 'bill_issued', { svcId: BILL_SVC_ID });

    await w.round();
    await w.round();
    assert.deepEqual(w.reported.map(pendingOf), [
      {
        key: `${REFERENCE}:${BILL_SVC_ID}:pending`,
        source: 'reconcile',
        outcome: 'pending',
        order_state: 'pending',
        response_code: '30000',
        amount: 250_000,
        currency: 'EGP',
        bill_number: undefined,
      },
    ]);
  });

  it('is not reported again when a request already recorded the bill waiting, nor delivered twice when the request comes after', async () => {
    const delivered: VerifiedResult[] = [];
    const w = reconcilerWorld({ endpoint: { onResult: (result) => void delivered.push(result) } });
    w.harness.gateway.holds(REFERENCE, 'declined', { svcId: '1700000001' });
    const declined = await signedAnswer('13001', { merchant_reference: REFERENCE, command: 'PURCHASE', amount: '250000', currency: 'EGP', svc_id: '1700000001' });
    await returnQuery(w.harness, declined);
    failBillRecordOnce(w.store.results);
    assert.equal((await w.harness.post('/bill', { merchant_reference: REFERENCE, language: 'en' })).status, 200);
    w.harness.gateway.holds(REFERENCE, 'bill_issued', { svcId: BILL_SVC_ID });

    // The reconciler first, then the customer's old return posted again.
    await w.round();
    await returnQuery(w.harness, declined);
    await w.round();
    const pendingKeys = [...delivered, ...w.reported].filter((result) => result.order_state === 'pending').map((result) => result.idempotency_key);
    assert.deepEqual(pendingKeys, [`${REFERENCE}:${BILL_SVC_ID}:pending`], 'the shop heard of the bill once');
  });

  it('reports nothing for a bill waiting whose own result the shop heard when it was issued', async () => {
    const w = reconcilerWorld();
    const issued = await w.harness.post('/bill', { merchant_reference: REFERENCE, language: 'en' });
    assert.equal(issued.status, 200);
    w.harness.gateway.holds(REFERENCE, 'bill_issued', { svcId: BILL_SVC_ID });
    await w.round();
    await w.round();
    assert.deepEqual(w.reported, []);
    assert.deepEqual((await w.store.results.list({ state: 'all', limit: 10 })).map((stored) => stored.result.idempotency_key), [
      `${REFERENCE}:${issued.body.bill_number}:pending`,
    ]);
  });
});

describe('a cash bill whose own result was never recorded (sandbox)', () => {
  const order: MerchantOrder = { merchant_reference: 'cash-9', amount: 45_000, currency: 'EGP', description: 'cash order' };

  it('reaches the shop as pending with its number from the reconciler, then captured once paid at the counter', async () => {
    const w = sandboxWorld([order]);
    failBillRecordOnce(w.store.results);
    const issued = await w.post('/bill', { merchant_reference: 'cash-9', language: 'en' });
    assert.equal(issued.status, 200);
    const billNumber = (issued.body as unknown as { bill_number: string }).bill_number;
    assert.equal(w.results.length, 0, 'the shop has heard nothing of the bill');

    w.clock.advance(31 * MINUTE);
    await w.reconciler.runDue();
    assert.deepEqual(
      w.results.map((result) => [result.source, result.order_state, result.bill?.bill_number]),
      [['reconcile', 'pending', billNumber]],
    );
    assert.equal(w.shop.get('cash-9')?.amount, 45_000);

    w.gateway.payBill(billNumber);
    w.clock.advance(31 * MINUTE);
    await w.reconciler.runDue();
    w.clock.advance(2 * 60 * MINUTE);
    await w.reconciler.runDue();
    assert.deepEqual(
      w.results.map((result) => [result.source, result.order_state, result.outcome]),
      [
        ['reconcile', 'pending', 'pending'],
        ['reconcile', 'captured', 'success'],
      ],
    );
  });
});

describe('a cash bill whose answer was lost on its way back (sandbox, which names the bill number in CHECK_STATUS)', () => {
  const order: MerchantOrder = { merchant_reference: 'cash-lost', amount: 45_000, currency: 'EGP', description: 'cash order' };

  it('is shown when the customer asks again, not refused as in progress, and the shop hears of it once with its number', async () => {
    const w = sandboxWorld([order], { gatewayTimeoutMs: 300 });
    // The gateway issues the bill, and its answer leaves after the endpoint has stopped waiting.
    w.gateway.injectFaults({ delayMs: 1_000, count: 1, operation: 'BILL_PRESENTMENT' });
    const lost = await w.post('/bill', { merchant_reference: 'cash-lost', language: 'ar' });
    assert.equal(lost.status, 502);
    const billNumber = w.gateway.order({ merchantReference: 'cash-lost' })?.bill?.billNumber ?? '';
    assert.match(billNumber, /^\d{14}$/, 'the gateway issued a bill');
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the late answer is spent

    const again = await w.post('/bill', { merchant_reference: 'cash-lost', language: 'ar' });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const shown = again.body as unknown as { bill_number: string; amount: number; payment_partner: string; request_expiry_date: string };
    assert.deepEqual([shown.bill_number, shown.amount, shown.payment_partner], [billNumber, 45_000, SANDBOX_VOUCHER_PARTNER_CODE]);
    assert.deepEqual(w.results.map((result) => [result.source, result.order_state, result.bill?.bill_number]), [['bill', 'pending', billNumber]]);

    // Shown again as kept, and the reconciler reports nothing twice.
    const third = await w.post('/bill', { merchant_reference: 'cash-lost', language: 'en' });
    assert.equal((third.body as unknown as { bill_number: string }).bill_number, billNumber);
    w.clock.advance(31 * MINUTE);
    await w.reconciler.runDue();
    assert.equal(w.results.length, 1, 'the shop heard of the bill once');

    w.gateway.payBill(billNumber);
    w.clock.advance(31 * MINUTE);
    await w.reconciler.runDue();
    assert.deepEqual(w.results.map((result) => [result.source, result.order_state]), [['bill', 'pending'], ['reconcile', 'captured']]);
  });

  it('reaches the shop with its number from the reconciler when the customer does not come back', async () => {
    const w = sandboxWorld([order], { gatewayTimeoutMs: 300 });
    w.gateway.injectFaults({ delayMs: 1_000, count: 1, operation: 'BILL_PRESENTMENT' });
    assert.equal((await w.post('/bill', { merchant_reference: 'cash-lost', language: 'en' })).status, 502);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const billNumber = w.gateway.order({ merchantReference: 'cash-lost' })?.bill?.billNumber;
    w.clock.advance(31 * MINUTE);
    await w.reconciler.runDue();
    assert.deepEqual(
      w.results.map((result) => [result.source, result.order_state, result.bill?.bill_number, result.bill?.payment_partner]),
      [['reconcile', 'pending', billNumber, SANDBOX_VOUCHER_PARTNER_CODE]],
    );
  });
});
