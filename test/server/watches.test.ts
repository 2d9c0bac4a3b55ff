import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PaymentWatch } from '../../src/store/store.ts';
import { billWatch, DEFAULT_WATCH_SETTINGS, keptBillOf, resultWatch } from '../../src/server/watches.ts';

describe('the watch a recorded result calls for', () => {
  const authorized = { merchant_reference: 'order-1001', order_state: 'authorized', source: 'return', amount: 150_000, currency: 'EGP' } as const;

  it('asks about an authorization under the order reference', () => {
    assert.equal(resultWatch(authorized, 'en', Date.now(), DEFAULT_WATCH_SETTINGS)?.merchant_reference, 'order-1001');
  });

  it('asks about a new attempt’s authorization under the attempt’s own reference, the one the gateway knows', () => {
    const watch = resultWatch({ ...authorized, payment_reference: 'order-1001.pg2' }, 'en', Date.now(), DEFAULT_WATCH_SETTINGS);
    assert.equal(watch?.merchant_reference, 'order-1001.pg2');
    assert.equal(watch?.kind, 'authorization');
  });
});

describe('the bill a bill watch keeps', () => {
  const now = Date.parse('2026-11-26T10:00:00Z');
  const order = { merchant_reference: 'order-1001', amount: 250_000, currency: 'EGP' };
  const issued = { bill_number: '12345678901234', payment_partner: 'CASHP', request_expiry_date: '2026-11-28T10:00:00+00:00' };
  const expiry = now + 2 * 24 * 3600_000;
  // The route passes the whole bill it answers; only the bill's own fields are kept.
  const answered = { ...issued, amount: 1, merchant_reference: 'x' };
  const stored = (watch = billWatch({ ...order, language: 'en' }, expiry, now, DEFAULT_WATCH_SETTINGS, answered)): PaymentWatch => ({
    ...watch,
    next_check_at: watch.next_check_at ?? '',
    checks: 0,
    created_at: new Date(now).toISOString(),
  });

  it('is shown again for the same order while the bill is payable, and keeps only the bill\'s own fields', () => {
    assert.deepEqual(stored().detail, { bill: issued });
    assert.deepEqual(keptBillOf(stored(), order, now + 3600_000), { ...issued, merchant_reference: 'order-1001', amount: 250_000, currency: 'EGP' });
  });

  it('is not shown past its expiry, once the watch ended, for a changed order, or before the bill was issued', () => {
    assert.equal(keptBillOf(stored(), order, expiry), undefined, 'expired');
    assert.equal(keptBillOf({ ...stored(), ended_at: new Date(now).toISOString() }, order, now), undefined, 'ended');
    assert.equal(keptBillOf(stored(), { ...order, amount: 260_000 }, now), undefined, 'the order\'s amount changed');
    assert.equal(keptBillOf(stored(billWatch({ ...order, language: 'en' }, expiry, now, DEFAULT_WATCH_SETTINGS)), order, now), undefined, 'sent, no answer yet');
    assert.equal(keptBillOf({ ...stored(), detail: { bill: { ...issued, bill_number: 42 } } }, order, now), undefined, 'unreadable');
    assert.equal(keptBillOf(undefined, order, now), undefined);
  });
});
