/**
 * A CHECK_STATUS reading that says the payment holds or took money and names no amount (the spec
 * lists the amounts "when applicable"): not an answer about the money (fake gateway).
 *
 * - The reconciler takes it as unanswered: logged, nothing recorded, the watch kept and asked
 *   again; the reading that names the amounts later is reported as the payment it is. Past the
 *   watch's expiry it ends unanswered, never reported paid.
 * - The return that meets it records nothing (the customer is told the payment is not confirmed
 *   yet, and the payment is watched), so the return posted once the amounts are named is paid; a
 *   payment already recorded in that state is answered from the ledger, still paid.
 * - A failure recorded from such a reading before this change does not hold back the real one.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectedStatus, responseMessage } from '../../src/core/response.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { DEFAULT_WATCH_SETTINGS, moneyCallWatch, resultWatch } from '../../src/server/watches.ts';
import type { FakeGateway } from './fake-gateway.ts';
import { START } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { events, MINUTE, reconcilerWorld, returnQuery, summary } from './support/worlds.ts';

const SVC_ID = '1700000081';
const DAY = 24 * 60 * MINUTE;

/** CHECK_STATUS of order-1001: captured (20064), with the amounts named or not. */
function readsCaptured(gateway: FakeGateway, amounts: boolean) {
  gateway.answer('CHECK_STATUS', () => ({
    code: '12000',
    fields: {
      svc_id: SVC_ID,
      transaction_code: '20064',
      transaction_status: expectedStatus('20064'),
      transaction_message: responseMessage('20064', 'en'),
      ...(amounts ? { authorized_amount: '250000', captured_amount: '250000', refunded_amount: '0' } : {}),
    },
  }));
}

/** The hold of EGP 2,500.00 accepted at the return, as its authorization watch keeps it. */
const holdWatch = () =>
  resultWatch(
    { merchant_reference: 'order-1001', order_state: 'authorized', source: 'return', svc_id: SVC_ID, amount: 250_000, currency: 'EGP' },
    'en',
    START.getTime(),
    DEFAULT_WATCH_SETTINGS,
  );

/** The customer's return of the hold, as their browser posts it. */
const holdReturn = () => signedAnswer('02000', { merchant_reference: 'order-1001', command: 'AUTHORIZATION', amount: '250000', currency: 'EGP', svc_id: SVC_ID });

describe('the reconciler, a captured reading that names no amount', () => {
  it('reports nothing, keeps the watch and asks again; the reading with the amounts is reported paid', async () => {
    const w = reconcilerWorld();
    const watch = holdWatch();
    assert.ok(watch);
    await w.watch(watch);
    readsCaptured(w.harness.gateway, false);
    assert.deepEqual(await w.round(), { asked: 1, reported: 0, ended: 0, failed: 1 });
    assert.equal(w.reported.length, 0);
    const kept = await w.store.watches.get('order-1001');
    assert.deepEqual([kept?.ended_at, kept?.last_state, kept?.last_error], [undefined, 'authorized', 'answer_invalid']);
    assert.deepEqual(
      events(w.logs, 'gateway_amount_invalid').map((line) => [line['operation'], line['merchant_reference'], line['rule']]),
      [['CHECK_STATUS', 'order-1001', 'missing']],
    );

    readsCaptured(w.harness.gateway, true);
    w.advance(2 * 60 * MINUTE);
    await w.reconciler.runDue();
    assert.deepEqual(w.reported.map(summary), [{ outcome: 'success', order_state: 'captured', error: undefined, amount: 250_000, currency: 'EGP' }]);
    assert.equal(w.reported[0]?.idempotency_key, `order-1001:${SVC_ID}:captured`);
    assert.equal((await w.store.watches.get('order-1001'))?.end_reason, 'captured');
  });

  it('ends a watch whose readings never name the amount at its expiry, unanswered, nothing reported', async () => {
    const w = reconcilerWorld();
    await w.watch(moneyCallWatch({ merchant_reference: 'order-1001', language: 'en', svc_id: SVC_ID, currency: 'EGP' }, 'authorized', START.getTime(), DEFAULT_WATCH_SETTINGS));
    readsCaptured(w.harness.gateway, false);
    await w.round();
    assert.equal((await w.store.watches.get('order-1001'))?.ended_at, undefined, 'a lost capture\'s watch is not settled by it either');
    w.advance(2 * DAY);
    await w.reconciler.runDue();
    assert.equal((await w.store.watches.get('order-1001'))?.end_reason, 'expired_unanswered');
    assert.deepEqual(w.reported, []);
  });
});

describe('the return, a captured reading that names no amount', () => {
  it('records nothing and watches the payment; the return posted once the amounts are named is paid', async () => {
    const w = reconcilerWorld();
    const h = w.harness;
    readsCaptured(h.gateway, false);
    const first = await returnQuery(h, await holdReturn());
    assert.deepEqual([first.get('outcome'), first.get('error')], ['pending', 'gateway_unreachable']);
    assert.deepEqual(h.results, []);
    assert.equal(await w.store.results.latestFor('order-1001'), undefined);
    assert.equal((await w.store.watches.get('order-1001'))?.ended_at, undefined, 'watched until the gateway says');
    assert.equal(events(h.logs, 'gateway_amount_invalid').length, 1);

    readsCaptured(h.gateway, true);
    const again = await returnQuery(h, await holdReturn());
    assert.deepEqual([again.get('outcome'), again.get('error')], ['success', null]);
    assert.deepEqual(h.results.map(summary), [{ outcome: 'success', order_state: 'captured', error: undefined, amount: 250_000, currency: 'EGP' }]);
  });

  it('still shows a paid order paid when its return is posted again, nothing delivered twice', async () => {
    const w = reconcilerWorld();
    const h = w.harness;
    readsCaptured(h.gateway, true);
    assert.equal((await returnQuery(h, await holdReturn())).get('outcome'), 'success');
    readsCaptured(h.gateway, false);
    const again = await returnQuery(h, await holdReturn());
    assert.deepEqual([again.get('outcome'), again.get('error')], ['success', null]);
    assert.equal(h.results.length, 1);
    assert.equal(events(h.logs, 'result_unconfirmed').length, 0);
  });

  it('is not held back by a failure such a reading left under the capture\'s key before this change', async () => {
    const w = reconcilerWorld();
    const h = w.harness;
    const before: VerifiedResult = {
      merchant_reference: 'order-1001',
      outcome: 'failure',
      response_code: '20064',
      response_message: 'Success.',
      status: '04',
      svc_id: SVC_ID,
      currency: 'EGP',
      source: 'reconcile',
      kind: 'payment',
      idempotency_key: `order-1001:${SVC_ID}:captured`,
      order_state: 'captured',
      order_status: { state: 'captured', authorized_amount: 0, captured_amount: 0, refunded_amount: 0, svc_id: SVC_ID },
      error: 'gateway_answer_invalid',
      gateway: {},
    };
    await w.store.results.record(before, w.now());
    readsCaptured(h.gateway, true);
    const back = await returnQuery(h, await holdReturn());
    assert.deepEqual([back.get('outcome'), back.get('error')], ['success', null]);
    assert.deepEqual(h.results.map(summary), [{ outcome: 'success', order_state: 'captured', error: undefined, amount: 250_000, currency: 'EGP' }]);
    assert.equal(h.results[0]?.idempotency_key, `order-1001:${SVC_ID}:captured:250000`);
  });
});
