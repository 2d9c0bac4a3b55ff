/**
 * A store that stops working while the endpoint runs (a lost database connection, a full disk):
 * what needs it answers 503 store_unavailable, localized, and changes nothing; the log says so
 * once, and once more when the store works again, which it does without a restart.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../../src/store/memory.ts';
import { StoreUnavailableError, type Store } from '../../src/store/store.ts';
import { setup } from './harness.ts';
import { signedAnswer } from './support/returns.ts';

/** A memory store whose writes fail while `down` is set, as a database behind a cut connection. */
function flakyStore(): { store: Store; outage: { down: boolean; watchesDown?: boolean } } {
  const inner = createMemoryStore();
  const outage: { down: boolean; watchesDown?: boolean } = { down: false };
  const guard = <Part extends object>(part: Part, also?: () => boolean): Part =>
    new Proxy(part, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (outage.down || also?.()) return Promise.reject(new StoreUnavailableError('connection', 'the database connection was lost'));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return {
    outage,
    store: { ...inner, results: guard(inner.results), watches: guard(inner.watches, () => outage.watchesDown === true), orders: guard(inner.orders), limits: guard(inner.limits) },
  };
}

const events = (logs: readonly string[], event: string) => logs.filter((line) => JSON.parse(line).event === event);

describe('when the store stops working', () => {
  it('answers 503 store_unavailable in the request language, signs nothing, and logs it once', async () => {
    const { store, outage } = flakyStore();
    const harness = setup({ store, resultLedger: undefined });
    outage.down = true;
    const english = await harness.post('/hosted-page', { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' });
    assert.equal(english.status, 503);
    assert.equal(english.body.error.code, 'store_unavailable');
    assert.equal(english.headers.get('retry-after'), '30');
    assert.equal(english.body.fields, undefined, 'no signed form');
    const arabic = await harness.post('/hosted-page', { merchant_reference: 'order-1001', language: 'ar', command: 'PURCHASE' });
    assert.equal(arabic.status, 503);
    assert.match(arabic.body.error.message, /[\u0600-\u06FF]/);
    assert.equal(events(harness.logs, 'store_unavailable').length, 1, 'one line for the outage, not one per request');
    assert.deepEqual(await store.watches.list({ limit: 10 }).catch(() => 'down'), 'down');

    outage.down = false;
    const back = await harness.post('/hosted-page', { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' });
    assert.equal(back.status, 200);
    assert.equal(events(harness.logs, 'store_recovered').length, 1);
    assert.equal((await store.watches.get('order-1001'))?.kind, 'in_progress', 'written once the store is back');
  });

  it('records no result during the outage, and reports it once the store is back', async () => {
    const { store, outage } = flakyStore();
    const harness = setup({ store, resultLedger: undefined });
    harness.gateway.holds('order-1001', 'captured');
    const fields = await signedAnswer('14000', { command: 'PURCHASE', merchant_reference: 'order-1001', amount: '250000', currency: 'EGP', svc_id: '1700000001' });
    const post = () => harness.postReturn(fields);
    outage.down = true;
    assert.equal((await post()).status, 503);
    assert.deepEqual(harness.results, [], 'nobody was told of a result that is not recorded');
    outage.down = false;
    assert.equal((await post()).status, 303);
    assert.equal(harness.results.length, 1);
    assert.equal((await store.results.list({ limit: 10 })).length, 1);
  });

  it('shows the customer a result already committed when only the watch after it cannot be written (the store lost between two statements)', async () => {
    const { store, outage } = flakyStore();
    const harness = setup({ store, resultLedger: undefined });
    // Authorized: its result starts an authorization watch, written after the result is committed.
    harness.gateway.holds('order-1001', 'authorized');
    const fields = await signedAnswer('02000', { command: 'AUTHORIZATION', merchant_reference: 'order-1001', amount: '250000', currency: 'EGP', svc_id: '1700000001' });
    outage.watchesDown = true;
    const answer = await harness.postReturn(fields);
    assert.equal(answer.status, 303, 'not 503 "nothing was changed": the result is recorded and the shop told');
    assert.match(answer.headers.get('location') ?? '', /outcome=success/);
    assert.equal(harness.results.length, 1);
    assert.equal((await store.results.list({ limit: 10 })).length, 1);
    assert.equal(events(harness.logs, 'result_watch_deferred').length, 1, 'the missing watch is logged');
  });
});
