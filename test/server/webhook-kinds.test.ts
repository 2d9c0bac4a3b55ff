/**
 * A card saved without a payment is never a payment: it reaches the shop's webhook as a
 * `saved_card` message (its result `kind: 'saved_card'`), payments as `payment_result`, and the
 * schema a shop checks them with refuses one passed off as the other.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createResultWebhook } from '../../src/server/result-webhook.ts';
import { ShopAvailability } from '../../src/server/shop-client.ts';
import { resultWebhook } from '../../src/server/shop-protocol.ts';
import { createMemoryStore } from '../../src/store/memory.ts';

const payment: VerifiedResult = {
  merchant_reference: 'order-1',
  outcome: 'success',
  response_code: '14000',
  response_message: 'Success',
  status: '14',
  svc_id: '1700000001',
  amount: 250_000,
  currency: 'EGP',
  source: 'return',
  kind: 'payment',
  idempotency_key: 'order-1:1700000001:captured',
  order_state: 'captured',
  gateway: {},
};

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
      now: () => new Date('2026-11-26T10:00:00Z'),
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
