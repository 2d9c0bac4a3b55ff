import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PaymentResult } from '../../src/core/endpoint-api.ts';
import type { OrderState } from '../../src/core/order-status.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { ORDERS, setup } from './harness.ts';

const REFERENCE = 'order-1001';

function result(state: OrderState, outcome: PaymentResult['outcome'], key: string, extra: Partial<PaymentResult> = {}) {
  return {
    merchant_reference: REFERENCE,
    outcome,
    response_code: outcome === 'success' ? '14000' : '00005',
    response_message: '',
    status: '',
    idempotency_key: key,
    order_state: state,
    ...extra,
  };
}

describe('InMemoryOrderStore', () => {
  it('refuses an order whose reference ends in .pg2 to .pg9, kept for new payment attempts', () => {
    assert.throws(() => new InMemoryOrderStore([{ ...ORDERS[0]!, merchant_reference: 'inv-77.pg2' }]), /merchant_reference: must not end in "\.pg2" to "\.pg9"/);
    assert.doesNotThrow(() => new InMemoryOrderStore([{ ...ORDERS[0]!, merchant_reference: 'inv-77.pg10' }]));
  });

  it('never moves a paid order back to failed when a failure arrives later', () => {
    const store = new InMemoryOrderStore(ORDERS);
    store.recordResult(result('captured', 'success', '17:captured'));
    store.recordResult(result('failed', 'failure', 'order-1001:00005'));
    store.recordResult(result('pending', 'pending', '17:pending'));
    assert.equal(store.resultOf(REFERENCE)?.outcome, 'success');
    assert.equal(store.resultOf(REFERENCE)?.order_state, 'captured');
  });

  it('never takes a bare failure (without an order state) over a paid result either', () => {
    const store = new InMemoryOrderStore(ORDERS);
    store.recordResult({ merchant_reference: REFERENCE, outcome: 'success', response_code: '14000', response_message: '', status: '14' });
    store.recordResult({ merchant_reference: REFERENCE, outcome: 'failure', response_code: '00005', response_message: '', status: '00' });
    assert.equal(store.resultOf(REFERENCE)?.outcome, 'success');
  });

  it('moves forward through the lifecycle: authorized, captured, refunded; authorized, voided', () => {
    const store = new InMemoryOrderStore(ORDERS);
    store.recordResult(result('authorized', 'success', '17:authorized'));
    store.recordResult(result('captured', 'success', '17:captured'));
    store.recordResult(result('refunded', 'failure', '17:refunded'));
    assert.equal(store.resultOf(REFERENCE)?.order_state, 'refunded');

    const voided = new InMemoryOrderStore(ORDERS);
    voided.recordResult(result('authorized', 'success', '18:authorized'));
    voided.recordResult(result('voided', 'failure', '18:voided'));
    assert.equal(voided.resultOf(REFERENCE)?.order_state, 'voided');
  });

  it('lets a failed attempt be followed by a successful one', () => {
    const store = new InMemoryOrderStore(ORDERS);
    store.recordResult(result('failed', 'failure', '16:failed'));
    store.recordResult(result('captured', 'success', '17:captured'));
    assert.equal(store.resultOf(REFERENCE)?.outcome, 'success');
  });

  it('keeps one result per idempotency key, however often it is reported', () => {
    const store = new InMemoryOrderStore(ORDERS);
    for (let i = 0; i < 3; i++) store.recordResult(result('captured', 'success', '17:captured'));
    store.recordResult(result('refunded', 'failure', '17:refunded'));
    assert.deepEqual(
      store.resultsOf(REFERENCE).map((entry) => entry.idempotency_key),
      ['17:captured', '17:refunded'],
    );
  });

  it('tells the endpoint the order is paid, so no second payment starts', async () => {
    const store = new InMemoryOrderStore(ORDERS);
    const shop = setup({ resolveOrder: store.resolve, onResult: store.recordResult });
    store.recordResult(result('captured', 'success', '17:captured'));
    assert.equal((await store.resolve(REFERENCE))?.paid, true);
    const answer = await shop.post('/hosted-page', { merchant_reference: REFERENCE, language: 'en', command: 'PURCHASE' });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error.code, 'order_already_paid');
    assert.equal(shop.gateway.calls.length, 0, 'the merchant’s word is enough: the gateway is not asked');
  });
});
