/**
 * `/status` for an order whose first payment was authorized and then voided, and which was paid
 * again under its next attempt (`<order>.pg2`): the order is paid, as the payment routes already
 * say (`order_already_paid`), so `/status` answers the attempt that was paid, never the void.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KnownResponseCode } from '../../src/core/response.ts';
import { ORDERS, setup } from './harness.ts';
import { signedAnswer } from './support/returns.ts';

const harness = setup();
const ORDER = { merchant_reference: 'order-2002', language: 'en' } as const;
const AMOUNT = ORDERS[1]!.amount;

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, []);
  harness.gateway.reset();
  harness.ledger.clear();
});

/** The gateway's signed return of a PURCHASE of order-2002 under `reference`, as the customer's browser posts it. */
function signedReturn(reference: string, svcId: string, code: KnownResponseCode): Promise<Record<string, string>> {
  return signedAnswer(code, { merchant_reference: reference, command: 'PURCHASE', amount: String(AMOUNT), currency: 'SAR', svc_id: svcId });
}

describe('the status route for an order paid by a new attempt after its authorization was voided', () => {
  it('answers the captured attempt (14000, its amounts), not the voided first one (08000)', async () => {
    harness.gateway.holds('order-2002', 'voided', { svcId: '1700000077', amount: AMOUNT });
    harness.gateway.holds('order-2002.pg2', 'captured', { svcId: '1700000088', amount: AMOUNT });
    const answer = await harness.post('/status', ORDER);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.merchant_reference, 'order-2002');
    assert.equal(answer.body.transaction_code, '14000');
    assert.equal(answer.body.captured_amount, AMOUNT);
    // The payment routes say the same of the order.
    const again = await harness.post('/hosted-page', { ...ORDER, command: 'PURCHASE' });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'order_already_paid');
  });

  it('answers the void when no later attempt exists (asking once more, for .pg2)', async () => {
    harness.gateway.holds('order-2002', 'voided', { svcId: '1700000077', amount: AMOUNT });
    const answer = await harness.post('/status', ORDER);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.transaction_code, '08000');
    assert.deepEqual(
      harness.gateway.callsOf('CHECK_STATUS').map((call) => call.request['merchant_reference']),
      ['order-2002', 'order-2002.pg2'],
    );
  });

  it('follows the journey: the new attempt is signed after the void, paid at its return, and /status says paid', async () => {
    harness.gateway.holds('order-2002', 'voided', { svcId: '1700000077', amount: AMOUNT });
    const form = await harness.post('/hosted-page', { ...ORDER, command: 'PURCHASE' });
    assert.equal(form.status, 200);
    const attempt = form.body.fields.merchant_reference;
    assert.equal(attempt, 'order-2002.pg2');
    harness.gateway.holds(attempt, 'captured', { svcId: '1700000088', amount: AMOUNT });
    const back = await harness.postReturn(await signedReturn(attempt, '1700000088', '14000'));
    assert.equal(back.status, 303);
    assert.match(back.headers.get('location') ?? '', /outcome=success/);

    const status = await harness.post('/status', ORDER);
    assert.equal(status.body.transaction_code, '14000');
    assert.equal(status.body.captured_amount, AMOUNT);
  });
});
