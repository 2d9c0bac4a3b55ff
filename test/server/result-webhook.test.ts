/**
 * The result webhook's sender.
 *
 * Message types: a card saved without a payment is never a payment: it reaches the shop's webhook
 * as a `saved_card` message (its result `kind: 'saved_card'`), payments as `payment_result`, and
 * the schema a shop checks them with refuses one passed off as the other.
 *
 * Stopping: the delivery under way finishes and is acknowledged, no other is started, and the rest
 * are handed back, delivered at once by the next sender (after the restart, or another instance),
 * each once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createResultWebhook } from '../../src/server/result-webhook.ts';
import { ShopAvailability } from '../../src/server/shop-client.ts';
import { resultWebhook } from '../../src/server/shop-protocol.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { Store } from '../../src/store/store.ts';
import { resultOf } from '../store/store-contract.ts';

const AT = Date.parse('2026-11-26T10:00:00Z');

const paymentOf = (reference: string): VerifiedResult => resultOf(reference, 'captured');

const payment = paymentOf('order-1');

const savedCard: VerifiedResult = {
  merchant_reference: 'signup-7',
  outcome: 'success',
  response_code: '18000',
  response_message: 'Success',
  status: '18',
  source: 'save-card',
  kind: 'saved_card',
  idempotency_key: 'signup-7:card_saved:0123456789abcdef',
  order_state: 'not_found',
  saved_card: { token_name: 'TK1', confirmed: true, card_number: '411111******1111' },
  gateway: {},
};

describe('the webhook’s message types', () => {
  it('sends a saved card as saved_card and a payment as payment_result', async () => {
    const store = createMemoryStore();
    const bodies: { type: string; result: VerifiedResult }[] = [];
    const webhook = createResultWebhook({
      url: 'https://shop.example/pg-hooks/result',
      secret: 'a-hook-secret-of-at-least-32-characters',
      timeoutMs: 1000,
      now: () => new Date(AT),
      fetch: async (_input, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return new Response('{}', { status: 200 });
      },
      results: store.results,
      log: silentLogger,
      availability: new ShopAvailability(silentLogger),
    });
    await store.results.record(payment, new Date('2026-11-26T09:59:00Z'));
    await store.results.record(savedCard, new Date('2026-11-26T09:59:01Z'));
    await webhook.deliverDue();
    assert.deepEqual(
      bodies.map((body) => [body.type, body.result.idempotency_key]),
      [
        ['payment_result', payment.idempotency_key],
        ['saved_card', savedCard.idempotency_key],
      ],
    );
    for (const body of bodies) assert.ok(resultWebhook.safeParse(body).success, body.type);
  });

  it('refuses, in the schema a shop checks with, a saved card passed off as a payment and the reverse', () => {
    assert.equal(resultWebhook.safeParse({ type: 'payment_result', result: savedCard }).success, false);
    assert.equal(resultWebhook.safeParse({ type: 'saved_card', result: payment }).success, false);
    const { kind: _kind, ...olderPayment } = payment;
    assert.equal(resultWebhook.safeParse({ type: 'payment_result', result: olderPayment }).success, true, 'a payment from before kinds existed');
  });
});

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
  it('finishes the delivery under way, starts no other, and hands the rest back to the next sender, each delivered once', async () => {
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
    // Handed back, not held for their claim: the next sender (another instance, or this one restarted) takes them at once.
    clock += 1;
    await sender(store, () => clock, delivered).deliverDue();
    assert.deepEqual(delivered, ['order-1', 'order-2', 'order-3']);
    assert.deepEqual(await store.results.list({ limit: 10 }), []);
  });
});
