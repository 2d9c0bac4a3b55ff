/**
 * The webhook sender's background pass when the service stops: the delivery under way finishes
 * and is acknowledged, no other is started, and the rest are delivered by the next sender (after
 * the restart, or another instance) once their claim lapses, each once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createResultWebhook } from '../../src/server/result-webhook.ts';
import { ShopAvailability } from '../../src/server/shop-client.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { Store } from '../../src/store/store.ts';

const AT = Date.parse('2026-11-26T10:00:00Z');

function paymentOf(reference: string): VerifiedResult {
  return {
    merchant_reference: reference,
    outcome: 'success',
    response_code: '14000',
    response_message: 'Success',
    status: '14',
    svc_id: '1700000001',
    amount: 250_000,
    currency: 'EGP',
    source: 'return',
    kind: 'payment',
    idempotency_key: `${reference}:1700000001:captured`,
    order_state: 'captured',
    gateway: {},
  };
}

function sender(store: Store, at: () => number, delivered: string[]) {
  return createResultWebhook({
    url: 'https://shop.example/pg-hooks/result',
    secret: 'a-hook-secret-of-at-least-32-characters',
    timeoutMs: 1000,
    now: () => new Date(at()),
    fetch: async (_input, init) => {
      delivered.push((JSON.parse(String(init?.body)) as { result: VerifiedResult }).result.merchant_reference);
      return new Response('{}', { status: 200 });
    },
    results: store.results,
    log: silentLogger,
    availability: new ShopAvailability(silentLogger),
  });
}

describe('the webhook sender stopping', () => {
  it('finishes the delivery under way, starts no other, and leaves the rest to the next sender, each delivered once', async () => {
    const store = createMemoryStore();
    for (const [index, reference] of ['order-1', 'order-2', 'order-3'].entries()) {
      await store.results.record(paymentOf(reference), new Date(AT - 60_000 + index));
    }
    let clock = AT;
    const delivered: string[] = [];
    // The service is told to stop during the first delivery: the pass reads it before the second.
    let reads = 0;
    await sender(store, () => clock, delivered).deliverDue({
      get stopping() {
        reads += 1;
        return reads > 1;
      },
    });
    assert.deepEqual(delivered, ['order-1']);
    assert.deepEqual(
      (await store.results.list({ limit: 10 })).map((entry) => entry.result.merchant_reference),
      ['order-2', 'order-3'],
      'the first is acknowledged, the others still wait',
    );
    // The next sender (the restarted service) takes them once their claim has lapsed.
    clock += 3_000;
    await sender(store, () => clock, delivered).deliverDue();
    assert.deepEqual(delivered, ['order-1', 'order-2', 'order-3']);
    assert.deepEqual(await store.results.list({ limit: 10 }), []);
  });
});
