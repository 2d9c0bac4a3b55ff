/**
 * The keys of captures and refunds in one state, where results were recorded before keys could
 * carry a running total (fake gateway; the endpoint's store, or its ledger in memory).
 *
 * - Every result recorded so far keeps its key: a replay of it (the customer's old return, the
 *   reconciler reading the same totals) is answered from the ledger, nothing delivered twice.
 * - A later capture or refund in the same state, whose totals differ from the one recorded there,
 *   gets a key of its own (`…:captured:250000`) and reaches the shop once, even a capture that
 *   completes a hold whose first part holds the plain key.
 * - A merchant's own ledger that cannot be read by key keeps the plain key, as before.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { ledgerKeyOf, type LedgerEntry, type ResultLedger } from '../../src/server/result-ledger.ts';
import type { FakeGateway } from './fake-gateway.ts';
import { setup, type Harness } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { events, reconcilerWorld, returnQuery } from './support/worlds.ts';

const SVC_ID = '1700000071';

/** CHECK_STATUS of order-1001: held, captured and refunded as given, `code` its last operation. */
function reads(gateway: FakeGateway, code: KnownResponseCode, amounts: { captured: number; refunded?: number }) {
  gateway.answer('CHECK_STATUS', () => ({
    code: '12000',
    fields: {
      svc_id: SVC_ID,
      transaction_code: code,
      transaction_status: expectedStatus(code),
      transaction_message: responseMessage(code, 'en'),
      authorized_amount: '250000',
      captured_amount: String(amounts.captured),
      refunded_amount: String(amounts.refunded ?? 0),
    },
  }));
}

/** The customer's return of the hold (EGP 2,500.00 authorized), as their browser posts it again. */
const holdReturn = () => signedAnswer('02000', { merchant_reference: 'order-1001', command: 'AUTHORIZATION', amount: '250000', currency: 'EGP', svc_id: SVC_ID });

/** A first partial capture's result, as it was recorded before keys carried totals: under the state's plain key. */
function recordedBeforeTheUpgrade(state: 'captured' | 'partially_refunded', captured: number, refunded = 0): VerifiedResult {
  return {
    merchant_reference: 'order-1001',
    outcome: 'success',
    response_code: '20064',
    response_message: 'Success.',
    status: '04',
    svc_id: SVC_ID,
    amount: captured,
    currency: 'EGP',
    source: 'reconcile',
    kind: 'payment',
    idempotency_key: `order-1001:${SVC_ID}:${state}`,
    order_state: state,
    order_status: { state, authorized_amount: 250_000, captured_amount: captured, refunded_amount: refunded, svc_id: SVC_ID },
    gateway: {},
  };
}

/** The worlds: the endpoint on the memory store, or on its ledger in memory; `record` puts a result in what it records into. */
const worlds: ReadonlyArray<{ name: string; make: () => { h: Harness; record: (result: VerifiedResult) => Promise<unknown> } }> = [
  {
    name: 'the store',
    make: () => {
      const w = reconcilerWorld();
      return { h: w.harness, record: (result) => w.store.results.record(result, w.now()) };
    },
  },
  {
    name: 'the ledger in memory',
    make: () => {
      const h = setup();
      return { h, record: async (result) => h.ledger.record(result) };
    },
  },
];

for (const { name, make } of worlds) {
  describe(`a hold captured in part before keys carried totals (${name})`, () => {
    it('answers a replay of the recorded capture from the ledger: nothing delivered twice', async () => {
      const { h, record } = make();
      await record(recordedBeforeTheUpgrade('captured', 100_000));
      reads(h.gateway, '20064', { captured: 100_000 });
      const back = await returnQuery(h, await holdReturn());
      assert.equal(back.get('outcome'), 'success');
      assert.deepEqual(h.results, [], 'the shop was told of it already');
      assert.equal(events(h.logs, 'payment_result_replayed').length, 1);
    });

    it('reports the capture of the rest once, under a key of its own', async () => {
      const { h, record } = make();
      await record(recordedBeforeTheUpgrade('captured', 100_000));
      reads(h.gateway, '20064', { captured: 250_000 });
      assert.equal((await returnQuery(h, await holdReturn())).get('outcome'), 'success');
      await returnQuery(h, await holdReturn());
      assert.deepEqual(
        h.results.map((result) => [result.idempotency_key, result.outcome, result.amount, result.error]),
        [[`order-1001:${SVC_ID}:captured:250000`, 'success', 250_000, undefined]],
      );
    });

    it('reports a second partial refund once, the first one\'s key kept', async () => {
      const { h, record } = make();
      await record(recordedBeforeTheUpgrade('partially_refunded', 250_000, 50_000));
      reads(h.gateway, '20064', { captured: 250_000, refunded: 50_000 });
      await returnQuery(h, await holdReturn());
      assert.equal(h.results.length, 0);
      reads(h.gateway, '20064', { captured: 250_000, refunded: 120_000 });
      await returnQuery(h, await holdReturn());
      assert.deepEqual(
        h.results.map((result) => [result.idempotency_key, result.order_state, result.amount, result.order_status?.refunded_amount]),
        [[`order-1001:${SVC_ID}:partially_refunded:120000`, 'partially_refunded', 250_000, 120_000]],
      );
    });
  });
}

describe('a merchant\'s own ledger that cannot be read by key', () => {
  it('keeps the state\'s plain key: a second capture in the same state is taken for a replay, as before', async () => {
    const kept = new Map<string, VerifiedResult>();
    const ledger: ResultLedger = {
      record(result): LedgerEntry {
        const recorded = kept.get(result.idempotency_key);
        if (recorded) return { first: false, result: recorded };
        kept.set(result.idempotency_key, result);
        return { first: true, result };
      },
      release(key) {
        kept.delete(key);
      },
    };
    const h = setup({ resultLedger: ledger });
    reads(h.gateway, '20064', { captured: 100_000 });
    await returnQuery(h, await holdReturn());
    reads(h.gateway, '20064', { captured: 200_000 });
    await returnQuery(h, await holdReturn());
    assert.deepEqual(
      h.results.map((result) => [result.idempotency_key, result.amount]),
      [[`order-1001:${SVC_ID}:captured`, 100_000]],
      'what was recorded cannot be read, so nothing tells the second capture from a replay',
    );
  });
});

describe('ledgerKeyOf: the same capture read again with more of its totals named', () => {
  it('keeps the plain key when only the authorized amount, missing at first, is named later; a new running total gets its own', async () => {
    const first = recordedBeforeTheUpgrade('captured', 3_000);
    const recorded: VerifiedResult = { ...first, order_status: { ...first.order_status!, authorized_amount: 0 } };
    const lookup = async (key: string) => (key === recorded.idempotency_key ? recorded : undefined);
    const again = { ...first, order_status: { ...first.order_status!, authorized_amount: 250_000 } };
    assert.equal(await ledgerKeyOf(again, lookup), `order-1001:${SVC_ID}:captured`, 'the same capture, not delivered twice');
    const further = { ...first, order_status: { ...first.order_status!, captured_amount: 5_000 } };
    assert.equal(await ledgerKeyOf(further, lookup), `order-1001:${SVC_ID}:captured:5000`);
  });
});
