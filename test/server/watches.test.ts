import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_WATCH_SETTINGS, resultWatch } from '../../src/server/watches.ts';

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
