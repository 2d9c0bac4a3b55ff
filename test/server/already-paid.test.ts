/**
 * No second payment for an order that is paid or being paid: nothing is signed, no bill issued and
 * no financing started when the merchant or the gateway says the order is paid.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import type { HeldState } from './fake-gateway.ts';
import { ORDERS, setup, type Harness } from './harness.ts';

const harness = setup();

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, []);
  harness.gateway.reset();
});

const ORDER = { merchant_reference: 'order-1001', language: 'en' } as const;

/** Each way to start a payment, with its body. */
const STARTS: readonly [string, Record<string, unknown>][] = [
  ['/hosted-page', { ...ORDER, command: 'PURCHASE' }],
  ['/merchant-page', { ...ORDER }],
  ['/bill', { ...ORDER }],
  ['/financing/verify-customer', { ...ORDER, phone_number: '01012345678' }],
];

const PAYMENTS = ['TOKEN_PAYMENT', 'BILL_PRESENTMENT', 'CUSTOMER_VERIFY'] as const;

function assertNothingStarted(): void {
  for (const operation of PAYMENTS) assert.equal(harness.gateway.callsOf(operation).length, 0, operation);
}

describe('when the gateway already holds a payment for the order', () => {
  for (const state of ['captured', 'authorized', 'refunded'] as const satisfies readonly HeldState[]) {
    for (const [route, body] of STARTS) {
      it(`refuses ${route} for a ${state} order with 409 order_already_paid, and signs nothing`, async () => {
        harness.gateway.holds('order-1001', state);
        const answer = await harness.post(route, body);
        assert.equal(answer.status, 409);
        assert.deepEqual(answer.body.error, {
          code: 'order_already_paid',
          field: 'merchant_reference',
          message: 'This order has already been paid.',
        });
        assert.ok(!JSON.stringify(answer.body).includes('signature'));
        assertNothingStarted();
      });
    }
  }

  it('says so in Arabic to an Arabic request', async () => {
    harness.gateway.holds('order-1001', 'captured');
    const answer = await harness.post('/hosted-page', { ...ORDER, language: 'ar', command: 'PURCHASE' });
    assert.equal(answer.body.error.message, 'تم دفع هذا الطلب بالفعل.');
  });
});

describe('when a payment for the order is under way', () => {
  it('refuses a hosted-page form while the gateway holds an issued bill, with 409 order_in_progress', async () => {
    harness.gateway.holds('order-1001', 'bill_issued');
    const answer = await harness.post('/hosted-page', { ...ORDER, command: 'PURCHASE' });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error.code, 'order_in_progress');
  });

  it('refuses a second bill for the same order when no store keeps the first (with one, the first is shown again)', async () => {
    assert.equal((await harness.post('/bill', ORDER)).status, 200);
    const again = await harness.post('/bill', ORDER);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'order_in_progress');
    assert.equal(harness.gateway.callsOf('BILL_PRESENTMENT').length, 1);
  });
});

describe('when the merchant says the order is paid', () => {
  const store = new InMemoryOrderStore([{ ...ORDERS[0]!, paid: true }]);
  const shop = setup({ resolveOrder: store.resolve });

  for (const [route, body] of STARTS) {
    it(`refuses ${route} with 409 order_already_paid without asking the gateway`, async () => {
      const answer = await shop.post(route, body);
      assert.equal(answer.status, 409);
      assert.equal(answer.body.error.code, 'order_already_paid');
      assert.equal(shop.gateway.calls.length, 0);
    });
  }

  it('refuses the later financing steps too', async () => {
    const answer = await shop.post('/financing/otp', { ...ORDER, flow: 'v1.anything' });
    assert.equal(answer.body.error.code, 'order_already_paid');
  });
});

describe('when nothing is paid yet', () => {
  it('lets a declined attempt be retried', async () => {
    harness.gateway.holds('order-1001', 'declined');
    const answer = await harness.post('/hosted-page', { ...ORDER, command: 'PURCHASE' });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.fields.signature);
  });

  it('signs the form when CHECK_STATUS cannot be reached (the gateway still refuses a duplicate reference)', async () => {
    harness.gateway.holds('order-1001', 'captured');
    harness.gateway.goOffline();
    const answer = await harness.post('/hosted-page', { ...ORDER, command: 'PURCHASE' });
    assert.equal(answer.status, 200);
  });

  it('waits for a silent CHECK_STATUS no longer than orderCheckTimeoutMs, not the whole gatewayTimeoutMs, then signs', { timeout: 20_000 }, async () => {
    // The gateway takes the question and answers it only after 50 s, unless the call's time limit
    // aborts it first; the call limit is longer than this test may run, so only the check's can end it.
    const late = (signal: AbortSignal | null | undefined) =>
      new Promise<Response>((_resolve, reject) => {
        const answerLate = setTimeout(() => reject(new Error('answered too late')), 50_000);
        signal?.addEventListener('abort', () => {
          clearTimeout(answerLate);
          reject(signal.reason as Error);
        });
      });
    const silent: Harness = setup({
      gatewayTimeoutMs: 60_000,
      orderCheckTimeoutMs: 200,
      fetch: (input, init) => (String(init?.body ?? '').includes('"CHECK_STATUS"') ? late(init?.signal) : silent.gateway.fetch(input, init)),
    });
    for (const [route, body] of STARTS) {
      const answer = await silent.post(route, body);
      assert.equal(answer.status, 200, route);
    }
    const unknown = silent.logs.map((line) => JSON.parse(line)).filter((line) => line.event === 'order_status_unknown');
    assert.equal(unknown.length, STARTS.length);
    assert.ok(unknown.every((line) => line.reason === 'gateway_unreachable'));
  });
});

describe('when the customer closed a 3-D Secure check (the gateway holds the reference, pending)', () => {
  for (const [route, body] of STARTS) {
    it(`refuses ${route} for an order reference that reads as a later attempt, naming the field in the request's language`, async () => {
      for (const language of ['en', 'ar'] as const) {
        const answer = await harness.post(route, { ...body, merchant_reference: 'order-1001.pg2', language });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.error.code, 'invalid_request');
        assert.equal(answer.body.error.field, 'merchant_reference');
        assert.match(answer.body.error.message, language === 'en' ? /must not end in "\.pg2" to "\.pg9"/ : /محجوزة لمحاولات الدفع/);
      }
      assert.equal(harness.gateway.calls.length, 0, 'nothing asked, nothing signed');
    });
  }

  for (const [route, body] of STARTS.slice(0, 2)) {
    it(`signs ${route} as a new attempt under the next reference, the merchant's amount unchanged`, async () => {
      harness.gateway.holds('order-1001', 'pending_3ds');
      const answer = await harness.post(route, body);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.fields.merchant_reference, 'order-1001.pg2');
      if (route === '/hosted-page') assert.equal(answer.body.fields.amount, String(ORDERS[0]!.amount));
    });
  }

  it('signs a card after a cash bill expired unpaid under the next reference: the gateway keeps an expired bill\'s reference', async () => {
    harness.gateway.holds('order-1001', 'bill_expired');
    const answer = await harness.post('/merchant-page', ORDER);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.fields.merchant_reference, 'order-1001.pg2');
  });

  it('still reuses a declined card\'s reference (the gateway lets it go)', async () => {
    harness.gateway.holds('order-1001', 'declined');
    const answer = await harness.post('/merchant-page', ORDER);
    assert.equal(answer.body.fields.merchant_reference, 'order-1001');
  });

  it('takes the attempt after the last one still waiting', async () => {
    harness.gateway.holds('order-1001', 'pending_3ds');
    harness.gateway.holds('order-1001.pg2', 'pending_3ds');
    const answer = await harness.post('/merchant-page', ORDER);
    assert.equal(answer.body.fields.merchant_reference, 'order-1001.pg3');
  });

  it('refuses with 409 order_already_paid when a new attempt is paid, though the first still waits', async () => {
    harness.gateway.holds('order-1001', 'pending_3ds');
    harness.gateway.holds('order-1001.pg2', 'captured');
    const answer = await harness.post('/merchant-page', ORDER);
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error.code, 'order_already_paid');
  });

  it('refuses with 409 order_in_progress once every attempt is waiting on a check', async () => {
    for (const reference of ['order-1001', ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `order-1001.pg${n}`)]) {
      harness.gateway.holds(reference, 'pending_3ds');
    }
    const answer = await harness.post('/merchant-page', ORDER);
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error.code, 'order_in_progress');
  });

  it('does not start a new attempt for save-card: saving a card charges nothing and may wait', async () => {
    harness.gateway.holds('order-1001', 'pending_3ds');
    const answer = await harness.post('/save-card', ORDER);
    assert.equal(answer.status, 409);
  });
});

describe('the status route after a new attempt', () => {
  it('reports the attempt that was paid, not the check the customer closed', async () => {
    harness.gateway.holds('order-1001', 'pending_3ds');
    harness.gateway.holds('order-1001.pg2', 'captured');
    const answer = await harness.post('/status', ORDER);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.merchant_reference, 'order-1001');
    assert.equal(answer.body.transaction_code, '14000');
    assert.equal(answer.body.captured_amount, ORDERS[0]!.amount);
    assert.equal(answer.body.payment_reference, 'order-1001.pg2', 'names the attempt its money is under');
  });

  it('names the card\'s attempt when a card paid the order after its cash bill expired unpaid', async () => {
    harness.gateway.holds('order-1001', 'bill_expired');
    harness.gateway.holds('order-1001.pg2', 'captured');
    const answer = await harness.post('/status', ORDER);
    assert.equal(answer.status, 200);
    assert.deepEqual([answer.body.payment_reference, answer.body.captured_amount], ['order-1001.pg2', ORDERS[0]!.amount]);
  });

  it('cannot say, rather than answer the expired bill, when the question about the next attempt fails', async () => {
    harness.gateway.holds('order-1001', 'bill_expired');
    harness.gateway.holds('order-1001.pg2', 'captured');
    harness.gateway.failWith(503, 'order-1001.pg2');
    const answer = await harness.post('/status', { ...ORDER, language: 'ar' });
    assert.equal(answer.status, 502);
    assert.equal(answer.body.error.code, 'gateway_unreachable');
    assert.match(answer.body.error.message, /[\u0600-\u06FF]/, 'in the request\'s language');
    assert.equal(answer.body.transaction_code, undefined, 'the bill\'s 31001 is not passed on');
  });

  it('asks once when the order had one attempt, and names no other', async () => {
    harness.gateway.holds('order-1001', 'captured');
    const answer = await harness.post('/status', ORDER);
    assert.equal(harness.gateway.callsOf('CHECK_STATUS').length, 1);
    assert.equal(answer.body.payment_reference, undefined);
  });
});
