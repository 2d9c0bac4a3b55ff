/**
 * The money the gateway took is checked against the merchant's order wherever a result's state
 * comes from CHECK_STATUS: a payment that holds or took money (authorized, captured, partially
 * refunded, refunded) whose authorized amount (its captured amount, when it names no
 * authorization) is not the order's is a `failure` with `amount_mismatch`, its `order_state` still
 * the gateway's, so the shop is told money was taken that does not pay the order and must refund
 * it; never `success`. The result's `amount` is what the gateway took.
 *
 * First over the real endpoint and the sandbox gateway (a hosted-page form signed at the order's
 * old amount and paid after it went up), then over the fake gateway for the cases the sandbox
 * does not make: partial captures, refunds, a gateway that names no amount, later attempts, bills,
 * watches without an amount.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MerchantOrder } from '../../src/server/orders.ts';
import { billWatch, DEFAULT_WATCH_SETTINGS, formWatch, moneyCallWatch } from '../../src/server/watches.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { formAction, hiddenFields } from '../sandbox/support.ts';
import { setup, START, type Harness } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { events, MINUTE, reconcilerWorld, returnQuery, SANDBOX_START, sandboxWorld, summary } from './support/worlds.ts';

// ---- Over the sandbox gateway ----

describe('a stale hosted-page form paid after the order went up (sandbox)', () => {
  const cart = (amount: number): MerchantOrder => ({ merchant_reference: 'cart-77', amount, currency: 'EGP', description: 'cart' });

  it('is reported by the reconciler as a failure (amount_mismatch) with the amount the gateway took, never as paid', async () => {
    const w = sandboxWorld([cart(10_000)]);
    const cheap = await w.post('/hosted-page', { merchant_reference: 'cart-77', language: 'en', command: 'PURCHASE' });
    assert.equal(cheap.body.fields['amount'], '10000');
    w.shop.add(cart(500_000));
    const dear = await w.post('/hosted-page', { merchant_reference: 'cart-77', language: 'en', command: 'PURCHASE' });
    assert.equal(dear.body.fields['amount'], '500000');
    assert.equal((await w.store.watches.get('cart-77'))?.amount, 500_000, 'the watch holds the order as last signed');
    // The old form is paid; the customer never comes back.
    const ret = await w.payForm(cheap.body);
    assert.equal(ret.fields['amount'], '10000');
    assert.equal(ret.fields['response_code'], '14000');

    w.clock.set(new Date(Date.parse(SANDBOX_START) + 31 * MINUTE));
    const round = await w.reconciler.runDue();
    assert.equal(round.reported, 1);
    assert.deepEqual(summary(w.results[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.equal(w.results[0]?.order_status?.captured_amount, 10_000);
    assert.equal(w.shop.resolve('cart-77')?.paid, undefined, 'the shop does not mark the order paid');
    assert.equal(events(w.logs, 'verified_answer_disagrees_with_order').length, 1);

    // The customer's own return, posted after all: the result already recorded, a failure.
    const query = await w.toEndpoint(ret.action, ret.fields);
    assert.equal(query.get('outcome'), 'failure');
    assert.equal(w.results.length, 1);
    assert.ok(w.results.every((result) => result.outcome !== 'success'));
  });

  it('still reports the form paid at the order\'s current amount as paid, with the amount the gateway took', async () => {
    const w = sandboxWorld([cart(10_000)]);
    await w.post('/hosted-page', { merchant_reference: 'cart-77', language: 'en', command: 'PURCHASE' });
    w.shop.add(cart(500_000));
    const dear = await w.post('/hosted-page', { merchant_reference: 'cart-77', language: 'en', command: 'PURCHASE' });
    await w.payForm(dear.body);
    w.clock.set(new Date(Date.parse(SANDBOX_START) + 31 * MINUTE));
    await w.reconciler.runDue();
    assert.deepEqual(summary(w.results[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 500_000, currency: 'EGP' });
    assert.equal(w.shop.resolve('cart-77')?.paid, true);
  });

  it('records an old amountless TOKENIZATION answer posted to /return as a failure, so the real return never turns it into success', async () => {
    const w = sandboxWorld([{ merchant_reference: 'cart-88', amount: 10_000, currency: 'EGP', description: 'cart' }]);
    // A merchant-page TOKENIZATION the gateway refused (an expired card): signed, and without an amount.
    const mp = await w.post('/merchant-page', { merchant_reference: 'cart-88', language: 'en' });
    const tokenPage = await w.toGateway(mp.body.action, { ...mp.body.fields, card_number: testCard('success').number, expiry_date: '2001', card_security_code: '123' });
    const tokenHtml = await tokenPage.text();
    const tokenization = { action: formAction(tokenHtml), fields: hiddenFields(tokenHtml) };
    assert.equal(tokenization.fields['service_command'], 'TOKENIZATION');
    assert.equal('amount' in tokenization.fields, false);
    const cheap = await w.post('/hosted-page', { merchant_reference: 'cart-88', language: 'en', command: 'PURCHASE' });
    w.shop.add({ merchant_reference: 'cart-88', amount: 500_000, currency: 'EGP', description: 'cart' });
    const real = await w.payForm(cheap.body);
    assert.equal(real.fields['amount'], '10000');

    const first = await w.toEndpoint(tokenization.action, tokenization.fields);
    assert.equal(first.get('outcome'), 'failure');
    assert.equal(first.get('error'), 'amount_mismatch');
    assert.equal(w.results.length, 1);
    assert.deepEqual(summary(w.results[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.equal(w.shop.resolve('cart-88')?.paid, undefined);

    // The real return, posted afterwards, has the same payment's key: the failure, as first recorded.
    const second = await w.toEndpoint(real.action, real.fields);
    assert.equal(second.get('outcome'), 'failure');
    assert.equal(second.get('error'), 'amount_mismatch');
    assert.equal(w.results.length, 1, 'nothing reported again, and never a success');
    assert.equal(w.shop.resolve('cart-88')?.paid, undefined);
  });
});

// ---- Over the fake gateway: the return (no store) ----

/** The gateway's signed return of a hosted-page payment of order-1001, as the customer's browser posts it. */
const hostedReturn = (code: KnownResponseCode, extra: Record<string, string> = {}) =>
  signedAnswer(code, {
    merchant_reference: 'order-1001',
    command: code === '02000' ? 'AUTHORIZATION' : 'PURCHASE',
    amount: '250000',
    currency: 'EGP',
    svc_id: '169999',
    ...extra,
  });

/** A merchant-page TOKENIZATION the gateway refused: signed, carrying no amount. */
const refusedTokenization = (extra: Record<string, string> = {}) =>
  signedAnswer('00011', {
    merchant_reference: 'order-1001',
    service_command: 'TOKENIZATION',
    card_number: '400555******0001',
    expiry_date: '2001',
    merchant_extra1: 'PURCHASE',
    ...extra,
  });

/** CHECK_STATUS answering a payment with these amounts (order-1001 of the harness costs EGP 2,500.00). */
function statusWith(h: Harness, code: KnownResponseCode, amounts: { authorized?: number; captured?: number; refunded?: number }, svcId = '169999') {
  h.gateway.answer('CHECK_STATUS', () => ({
    code: '12000',
    fields: {
      svc_id: svcId,
      transaction_status: expectedStatus(code),
      transaction_code: code,
      transaction_message: responseMessage(code, 'en'),
      ...(amounts.authorized === undefined ? {} : { authorized_amount: String(amounts.authorized) }),
      ...(amounts.captured === undefined ? {} : { captured_amount: String(amounts.captured) }),
      ...(amounts.refunded === undefined ? {} : { refunded_amount: String(amounts.refunded) }),
    },
  }));
}

describe('a return confirmed with CHECK_STATUS', () => {
  it('is paid when the authorized amount is the order\'s, though less was captured (a partial capture)', async () => {
    const h = setup();
    statusWith(h, '20064', { authorized: 250_000, captured: 100_000, refunded: 0 });
    const query = await returnQuery(h, await hostedReturn('02000'));
    assert.equal(query.get('outcome'), 'success');
    assert.deepEqual(summary(h.results[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 100_000, currency: 'EGP' });
  });

  it('checks a refunded payment\'s authorized amount too: part refunded is paid, wholly refunded is not, neither a mismatch', async () => {
    const h = setup();
    h.gateway.holds('order-1001', 'partially_refunded', { svcId: '169999' });
    await returnQuery(h, await hostedReturn('14000'));
    assert.deepEqual(summary(h.results[0]), { outcome: 'success', order_state: 'partially_refunded', error: undefined, amount: 250_000, currency: 'EGP' });
    h.gateway.holds('order-1001', 'refunded', { svcId: '169999' });
    await returnQuery(h, await hostedReturn('14000'));
    assert.deepEqual(summary(h.results[1]), { outcome: 'failure', order_state: 'refunded', error: undefined, amount: 250_000, currency: 'EGP' });
  });

  it('compares the captured amount when the gateway names no authorization', async () => {
    const h = setup();
    statusWith(h, '14000', { captured: 250_000 });
    await returnQuery(h, await hostedReturn('14000'));
    assert.deepEqual(summary(h.results[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 250_000, currency: 'EGP' });
    const other = setup();
    statusWith(other, '14000', { captured: 10_000 });
    await returnQuery(other, await hostedReturn('14000'));
    assert.deepEqual(summary(other.results[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
  });

  it('turns an amountless answer into a failure when the gateway took another amount, and the payment\'s real return replays it', async () => {
    const h = setup();
    h.gateway.holds('order-1001', 'captured', { svcId: '169999', amount: 10_000 });
    const query = await returnQuery(h, await refusedTokenization());
    assert.equal(query.get('outcome'), 'failure');
    assert.equal(query.get('error'), 'amount_mismatch');
    assert.deepEqual(summary(h.results[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.equal(h.results[0]?.idempotency_key, 'order-1001:169999:captured');
    const logged = events(h.logs, 'verified_answer_disagrees_with_order');
    assert.equal(logged.length, 1);
    assert.equal(logged[0]?.['error'], 'amount_mismatch');

    const again = await returnQuery(h, await hostedReturn('14000', { amount: '10000' }));
    assert.equal(again.get('outcome'), 'failure');
    assert.equal(h.results.length, 1, 'the first result is replayed, nothing reported');
  });

  it('is paid when an amountless answer asks about a payment of the order\'s amount', async () => {
    const h = setup();
    h.gateway.holds('order-1001', 'authorized', { svcId: '169999' });
    await returnQuery(h, await refusedTokenization());
    assert.deepEqual(summary(h.results[0]), { outcome: 'success', order_state: 'authorized', error: undefined, amount: 250_000, currency: 'EGP' });
  });

  it('is not paid, and records nothing, when the gateway says the order holds money but names no amount', async () => {
    const h = setup();
    statusWith(h, '14000', {});
    const query = await returnQuery(h, await refusedTokenization());
    assert.equal(query.get('outcome'), 'pending', 'not confirmed: the payment is watched until a reading names the money');
    assert.equal(h.results.length, 0, 'no failure kept under the payment\'s key');
    assert.deepEqual(
      events(h.logs, 'gateway_amount_invalid').map((line) => [line['operation'], line['field'], line['rule']]),
      [['CHECK_STATUS', 'authorized_amount', 'missing']],
    );
  });

  it('checks a later attempt (.pg2) against the order, reported under the order\'s reference', async () => {
    const h = setup();
    h.gateway.holds('order-1001.pg2', 'captured', { svcId: '169998', amount: 10_000 });
    await returnQuery(h, await refusedTokenization({ merchant_reference: 'order-1001.pg2' }));
    const [result] = h.results;
    assert.deepEqual(summary(result), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.equal(result?.merchant_reference, 'order-1001');
    assert.equal(result?.payment_reference, 'order-1001.pg2');
  });

  it('leaves a state that holds no money to the answer\'s own check (a declined payment, a 3-D Secure check waiting)', async () => {
    const h = setup();
    h.gateway.holds('order-1001', 'declined', { svcId: '169999' });
    await returnQuery(h, await hostedReturn('13001'));
    assert.deepEqual(summary(h.results[0]), { outcome: 'failure', order_state: 'failed', error: undefined, amount: 250_000, currency: 'EGP' });
  });
});

// ---- Over the fake gateway: the reconciler ----

/** What a watch keeps of order-1001 (EGP 2,500.00), under `reference`; `amount: null` keeps none. */
const basis = (reference = 'order-1001', amount: number | null = 250_000) => ({
  merchant_reference: reference,
  ...(amount === null ? {} : { amount }),
  currency: 'EGP',
  language: 'en' as const,
});

describe('the reconciler', () => {
  it('reports a payment of another amount than the order\'s watched one as a failure with the amount taken, and watches its hold', async () => {
    const w = reconcilerWorld();
    await w.watch(formWatch(basis(), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'authorized', { svcId: '1700000021', amount: 10_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'failure', order_state: 'authorized', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.equal(w.reported[0]?.idempotency_key, 'order-1001:1700000021:authorized');
    assert.equal(events(w.logs, 'verified_answer_disagrees_with_order')[0]?.['error'], 'amount_mismatch');
    // The money is held all the same: its capture or void is still watched, and still checked.
    const next = await w.store.watches.get('order-1001');
    assert.equal(next?.kind, 'authorization');
    assert.equal(next?.amount, 250_000, 'compared with the order, not with what was taken');
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000021', amount: 10_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[1]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
  });

  it('reports a partial capture of the order\'s authorization as paid, with the captured amount', async () => {
    const w = reconcilerWorld();
    await w.watch(formWatch(basis(), START.getTime(), DEFAULT_WATCH_SETTINGS));
    statusWith(w.harness, '20064', { authorized: 250_000, captured: 100_000, refunded: 0 }, '1700000022');
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 100_000, currency: 'EGP' });
  });

  it('checks a later attempt\'s payment (.pg2) against the order and reports it under the order\'s reference', async () => {
    const w = reconcilerWorld();
    await w.watch(formWatch(basis('order-1001.pg2'), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001.pg2', 'captured', { svcId: '1700000023', amount: 10_000 });
    await w.round();
    const [result] = w.reported;
    assert.deepEqual(summary(result), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.equal(result?.merchant_reference, 'order-1001');
    assert.equal(result?.payment_reference, 'order-1001.pg2');
  });

  it('checks a bill paid at the counter when it is captured, not while it waits', async () => {
    const w = reconcilerWorld();
    await w.watch(billWatch(basis(), START.getTime() + 2 * 24 * 60 * MINUTE, START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'bill_issued', { svcId: '1700000024' });
    await w.round();
    assert.deepEqual(
      w.reported.map(summary),
      [{ outcome: 'pending', order_state: 'pending', error: undefined, amount: 250_000, currency: 'EGP' }],
      'a bill waiting: nothing taken, the bill itself reported (its own result was never recorded)',
    );
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000024' });
    await w.round();
    assert.deepEqual(summary(w.reported[1]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 250_000, currency: 'EGP' });
  });

  it('reports what the gateway took for a watch that names no amount (a back-office call whose answer was lost)', async () => {
    const w = reconcilerWorld();
    await w.watch(moneyCallWatch(basis('order-1001', null), 'authorized', START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000025', amount: 99_900 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 99_900, currency: 'EGP' });
  });

  it('does not report as paid a payment whose amount the gateway does not name', async () => {
    const w = reconcilerWorld();
    await w.watch(formWatch(basis(), START.getTime(), DEFAULT_WATCH_SETTINGS));
    statusWith(w.harness, '14000', {}, '1700000026');
    await w.round();
    assert.equal(w.reported.length, 0, 'neither paid nor a failure for good: the reading is no answer about the money');
    assert.notEqual(await w.store.watches.get('order-1001'), undefined, 'the payment is still watched');
    statusWith(w.harness, '14000', { authorized: 250_000, captured: 250_000, refunded: 0 }, '1700000026');
    for (let round = 0; round < 8 && w.reported.length === 0; round += 1) await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 250_000, currency: 'EGP' });
  });
});
