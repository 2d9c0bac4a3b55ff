/**
 * What the shop is told of a capture or refund the merchant made from the back office, in part.
 *
 * - A result's `amount` is the money the payment has taken from the customer: the hold while it is
 *   only authorized, what was captured once anything was (a partial capture is not the hold). Its
 *   `order_status` carries the authorized, captured and refunded totals, as CHECK_STATUS states them.
 * - The check against the order still compares the payment's amount (the hold accepted when the
 *   money was first held), so a partial capture or a refund of one stays paid.
 * - A refused capture, or one whose answer was lost and that was made again, leaves nothing under
 *   the capture's key: the successful capture that follows is reported as paid.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { createGatewayClient } from '../../src/gateway/client.ts';
import { CAPTURE } from '../../src/gateway/orders.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import type { MerchantOrder } from '../../src/server/orders.ts';
import { DEFAULT_WATCH_SETTINGS, formWatch, moneyCallWatch } from '../../src/server/watches.ts';
import { endpointCredentials } from '../../src/sandbox/merchants.ts';
import type { FakeGateway } from './fake-gateway.ts';
import { START } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { deliveredFrom, events, reconcilerWorld, returnQuery, SANDBOX, SANDBOX_START, sandboxFetch, sandboxWorld, summary } from './support/worlds.ts';

const DAY = 24 * 60 * 60_000;

/** The totals CHECK_STATUS names, in what the shop reads of a result. */
const totals = (result: VerifiedResult | undefined) =>
  result?.order_status && {
    authorized: result.order_status.authorized_amount,
    captured: result.order_status.captured_amount,
    refunded: result.order_status.refunded_amount,
  };

describe('a hold of EGP 100.00 captured in part from the back office (sandbox)', () => {
  const cart: MerchantOrder = { merchant_reference: 'cart-40', amount: 10_000, currency: 'EGP', description: 'cart' };

  /** Holds EGP 100.00 through the hosted page, the customer back at the shop; the merchant captures EGP 40.00. */
  async function holdThenCapture() {
    const w = sandboxWorld([cart]);
    const client = createGatewayClient({ ...endpointCredentials(), gatewayBaseUrl: SANDBOX, apiRoot: 'FortAPI', fetch: sandboxFetch(w.gateway), retry: false, now: w.clock.now });
    const form = await w.post('/hosted-page', { merchant_reference: 'cart-40', language: 'en', command: 'AUTHORIZATION' });
    const ret = await w.payForm(form.body);
    assert.equal((await w.toEndpoint(ret.action, ret.fields)).get('outcome'), 'success');
    assert.equal((await client.capture({ merchant_reference: 'cart-40', amount: 4_000, currency: 'EGP' })).outcome, 'success');
    return { w, ret, client };
  }

  it('reaches the shop\'s webhook as captured with the EGP 40.00 captured, not the EGP 100.00 held', async () => {
    const { w } = await holdThenCapture();
    w.clock.set(new Date(Date.parse(SANDBOX_START) + 3 * DAY));
    assert.equal((await w.reconciler.runDue()).reported, 1);
    const delivered = await deliveredFrom(w.store, w.clock.now);
    assert.deepEqual(
      delivered.map((result) => [result.order_state, result.outcome, result.amount, result.currency]),
      [
        ['authorized', 'success', 10_000, 'EGP'],
        ['captured', 'success', 4_000, 'EGP'],
      ],
    );
    assert.deepEqual(totals(delivered[1]), { authorized: 10_000, captured: 4_000, refunded: 0 });
    assert.equal(delivered[1]?.error, undefined, 'still checked against the hold accepted, and paid');
  });

  it('shows the customer whose old return is posted after the capture the EGP 40.00 captured', async () => {
    const { w, ret } = await holdThenCapture();
    assert.equal((await w.toEndpoint(ret.action, ret.fields)).get('outcome'), 'success');
    assert.deepEqual(summary(w.results[1]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 4_000, currency: 'EGP' });
    assert.equal((await w.store.results.latestFor('cart-40'))?.amount, 4_000);
    assert.equal(events(w.logs, 'answer_amount_not_the_payment').length, 0, 'the hold\'s own return is the payment\'s amount');
  });

  it('records nothing under the capture\'s key for a capture refused or lost, and reports the capture made again as paid', async () => {
    const w = sandboxWorld([cart]);
    const client = createGatewayClient({
      ...endpointCredentials(),
      gatewayBaseUrl: SANDBOX,
      apiRoot: 'FortAPI',
      fetch: sandboxFetch(w.gateway),
      retry: false,
      reconcile: { attempts: 1, delayMs: 1, maxDelayMs: 1 },
      now: w.clock.now,
    });
    const form = await w.post('/hosted-page', { merchant_reference: 'cart-40', language: 'en', command: 'AUTHORIZATION' });
    const ret = await w.payForm(form.body);
    await w.toEndpoint(ret.action, ret.fields);
    // More than the hold: the gateway refuses it (05001), its last operation; the money stays held.
    const refused = await client.call(CAPTURE, {
      language: 'en',
      params: { command: 'CAPTURE', merchant_reference: 'cart-40', amount: '12000', currency: 'EGP', language: 'en' },
    });
    assert.equal(refused.answer.response_code, '05001');
    // A capture turned away by a proxy (503): its outcome cannot be told.
    w.gateway.injectFaults({ status: 503, count: 1, operation: 'CAPTURE' });
    assert.equal((await client.capture({ merchant_reference: 'cart-40', amount: 4_000, currency: 'EGP' })).outcome, 'unknown');
    // The customer's return posted again meanwhile: still the hold.
    assert.equal((await w.toEndpoint(ret.action, ret.fields)).get('outcome'), 'success');
    // Made again, it is taken.
    assert.equal((await client.capture({ merchant_reference: 'cart-40', amount: 4_000, currency: 'EGP' })).outcome, 'success');
    w.clock.set(new Date(Date.parse(SANDBOX_START) + 3 * DAY));
    await w.reconciler.runDue();
    const delivered = await deliveredFrom(w.store, w.clock.now);
    assert.deepEqual(
      delivered.map((result) => [result.idempotency_key.split(':').at(-1), result.outcome, result.error]),
      [
        ['authorized', 'success', undefined],
        ['captured', 'success', undefined],
      ],
    );
    assert.equal(w.shop.resultOf('cart-40')?.order_state, 'captured');
  });
});

describe('a refund after a partial capture', () => {
  /** CHECK_STATUS of order-1001 (svc_id 1700000071): held, captured and refunded as given, `code` its last operation. */
  function reads(gateway: FakeGateway, code: KnownResponseCode, amounts: { authorized: number; captured: number; refunded: number }) {
    gateway.answer('CHECK_STATUS', () => ({
      code: '12000',
      fields: {
        svc_id: '1700000071',
        transaction_code: code,
        transaction_status: expectedStatus(code),
        transaction_message: responseMessage(code, 'en'),
        authorized_amount: String(amounts.authorized),
        captured_amount: String(amounts.captured),
        refunded_amount: String(amounts.refunded),
      },
    }));
  }

  it('is reported with the amount captured, the refund in order_status, when the back office lost the refund\'s answer', async () => {
    const w = reconcilerWorld();
    // The refund's answer was lost: the CLI watches the payment (watchMoneyCall).
    await w.watch(moneyCallWatch({ merchant_reference: 'order-1001', language: 'en', svc_id: '1700000071', currency: 'EGP' }, 'captured', START.getTime(), DEFAULT_WATCH_SETTINGS));
    reads(w.harness.gateway, '20064', { authorized: 250_000, captured: 100_000, refunded: 30_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'partially_refunded', error: undefined, amount: 100_000, currency: 'EGP' });
    assert.deepEqual(totals(w.reported[0]), { authorized: 250_000, captured: 100_000, refunded: 30_000 });
  });

  it('is still paid when the customer\'s old return comes back after it, the hold\'s own result never recorded', async () => {
    const w = reconcilerWorld();
    const h = w.harness;
    // The customer left the gateway's page without coming back; the merchant captured part of the hold before the reconciler asked.
    await w.watch(formWatch({ merchant_reference: 'order-1001', amount: 250_000, currency: 'EGP', language: 'en' }, START.getTime(), DEFAULT_WATCH_SETTINGS));
    reads(h.gateway, '20064', { authorized: 250_000, captured: 100_000, refunded: 0 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 100_000, currency: 'EGP' });
    // Part of the capture refunded; the customer's return of the hold is posted at last.
    reads(h.gateway, '20064', { authorized: 250_000, captured: 100_000, refunded: 30_000 });
    const hold = await signedAnswer('02000', { merchant_reference: 'order-1001', command: 'AUTHORIZATION', amount: '250000', currency: 'EGP', svc_id: '1700000071' });
    const back = await returnQuery(h, hold);
    assert.equal(back.get('outcome'), 'success');
    assert.equal(back.get('error'), null);
    assert.deepEqual(summary(h.results[0]), { outcome: 'success', order_state: 'partially_refunded', error: undefined, amount: 100_000, currency: 'EGP' });
  });
});
