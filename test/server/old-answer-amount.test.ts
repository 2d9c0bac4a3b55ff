/**
 * An old signed answer posted to /return after the real payment (an earlier declined attempt's,
 * same reference, at the order's old amount) must not pre-empt the payment: its key is the
 * payment's (CHECK_STATUS: svc_id and state), so whatever it records first is what the real return
 * replays. When CHECK_STATUS shows money held and names its amount, that amount decides: the old
 * answer's amount is not the payment's and proves nothing. Its currency is still checked (CHECK_STATUS
 * names none), and its amount still decides when CHECK_STATUS shows no money held or names no amount.
 *
 * Over the real endpoint and the sandbox gateway first, then over the fake gateway.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MerchantOrder } from '../../src/server/orders.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { setup } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { returnQuery, sandboxWorld, summary } from './support/worlds.ts';

describe('an earlier declined attempt\'s answer posted after the real payment (sandbox)', () => {
  const cart = (amount: number): MerchantOrder => ({ merchant_reference: 'cart-55', amount, currency: 'EGP', description: 'cart' });

  it('does not pre-empt the payment: the gateway took the order\'s amount, so the order is paid, and the real return replays it', async () => {
    const w = sandboxWorld([cart(10_000)]);
    const first = await w.post('/hosted-page', { merchant_reference: 'cart-55', language: 'en', command: 'PURCHASE' });
    assert.equal(first.body.fields['amount'], '10000');
    const declined = await w.payForm(first.body, 'decline');
    assert.notEqual(declined.fields['response_code'], '14000');
    assert.equal(declined.fields['amount'], '10000');

    // The cart grows; the customer pays the new amount under the same reference.
    w.shop.add(cart(500_000));
    const second = await w.post('/hosted-page', { merchant_reference: 'cart-55', language: 'en', command: 'PURCHASE' });
    assert.equal(second.status, 200);
    assert.equal(second.body.fields['amount'], '500000');
    assert.equal(second.body.fields['merchant_reference'], declined.fields['merchant_reference'], 'the same reference');
    const paid = await w.payForm(second.body, 'success');
    assert.equal(paid.fields['response_code'], '14000');

    // The old declined answer arrives first (the back button, a replay).
    const old = await w.toEndpoint(declined.action, declined.fields);
    assert.equal(old.get('outcome'), 'success');
    assert.deepEqual(summary(w.results[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 500_000, currency: 'EGP' });
    assert.equal(w.shop.resolve('cart-55')?.paid, true);

    const real = await w.toEndpoint(paid.action, paid.fields);
    assert.equal(real.get('outcome'), 'success');
    assert.equal(w.results.length, 1, 'replayed, not reported again');
  });
});

// ---- Over the fake gateway ----

/** The gateway's signed answer about a PURCHASE of order-1001 at EGP 2,500.00, `fields` changing it. */
const purchaseAnswer = (code: KnownResponseCode, fields: Record<string, string>) =>
  signedAnswer(code, { merchant_reference: 'order-1001', command: 'PURCHASE', amount: '250000', currency: 'EGP', svc_id: '169990', ...fields });

/** The earlier declined attempt's answer, at the order's old amount (order-1001 now costs EGP 2,500.00). */
const oldDeclined = (extra: Record<string, string> = {}) => purchaseAnswer('13001', { amount: '10000', svc_id: '169990', ...extra });

describe('a return confirmed with CHECK_STATUS, the posted answer at another amount', () => {
  it('is paid when CHECK_STATUS shows the order\'s amount taken, and the real return replays it', async () => {
    const h = setup();
    h.gateway.holds('order-1001', 'captured', { svcId: '169999', amount: 250_000 });
    const query = await returnQuery(h, await oldDeclined());
    assert.equal(query.get('outcome'), 'success');
    assert.deepEqual(summary(h.results[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 250_000, currency: 'EGP' });
    assert.equal(h.results[0]?.idempotency_key, 'order-1001:169999:captured');
    const logged = h.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(logged.filter((line) => line['event'] === 'verified_answer_disagrees_with_order').length, 0);
    assert.deepEqual(
      logged.filter((line) => line['event'] === 'answer_amount_not_the_payment').map((line) => [line['merchant_reference'], line['answer_amount'], line['taken_amount']]),
      [['order-1001', 10_000, 250_000]],
    );

    const real = await returnQuery(h, await purchaseAnswer('14000', { svc_id: '169999' }));
    assert.equal(real.get('outcome'), 'success');
    assert.equal(h.results.length, 1);
  });

  it('is paid for an authorization of the order\'s amount too', async () => {
    const h = setup();
    h.gateway.holds('order-1001', 'authorized', { svcId: '169998', amount: 250_000 });
    await returnQuery(h, await oldDeclined({ command: 'AUTHORIZATION' }));
    assert.deepEqual(summary(h.results[0]), { outcome: 'success', order_state: 'authorized', error: undefined, amount: 250_000, currency: 'EGP' });
  });

  it('still fails when what the gateway took is not the order\'s amount, whatever the posted answer says', async () => {
    const h = setup();
    h.gateway.holds('order-1001', 'captured', { svcId: '169997', amount: 10_000 });
    await returnQuery(h, await purchaseAnswer('14000', { svc_id: '169997' }));
    assert.deepEqual(summary(h.results[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
  });

  it('keeps the posted answer\'s currency check: CHECK_STATUS names no currency', async () => {
    const h = setup();
    h.gateway.holds('order-1001', 'captured', { svcId: '169996', amount: 250_000 });
    await returnQuery(h, await oldDeclined({ amount: '250000', currency: 'SAR' }));
    assert.deepEqual(summary(h.results[0]), { outcome: 'failure', order_state: 'captured', error: 'currency_mismatch', amount: 250_000, currency: 'SAR' });
  });

  it('keeps the posted answer\'s amount check when CHECK_STATUS shows no money held', async () => {
    const h = setup();
    h.gateway.holds('order-1001', 'declined', { svcId: '169990' });
    await returnQuery(h, await oldDeclined());
    assert.deepEqual(summary(h.results[0]), { outcome: 'failure', order_state: 'failed', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
  });

  it('keeps the posted answer\'s amount check when CHECK_STATUS names no amount', async () => {
    const h = setup();
    h.gateway.answer('CHECK_STATUS', () => ({
      code: '12000',
      fields: { svc_id: '169995', transaction_status: expectedStatus('14000'), transaction_code: '14000', transaction_message: responseMessage('14000', 'en') },
    }));
    await returnQuery(h, await oldDeclined());
    assert.deepEqual(summary(h.results[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: undefined, currency: 'EGP' });
  });
});
