/**
 * The results routes as a shop that polls them instead of taking the webhook reads them: each
 * pending entry names its `type` exactly as the webhook would, so a card saved without a payment
 * is never taken for a payment of the same order.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from '../../src/server/hook-signature.ts';
import { createResultsRoutes } from '../../src/server/results-routes.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { resultOf } from '../store/store-contract.ts';

const SECRET = 'a-hook-secret-of-at-least-32-characters';
const NOW = new Date('2026-11-26T10:00:00Z');

const savedCard: VerifiedResult = {
  merchant_reference: 'order-1',
  outcome: 'success',
  response_code: '18000',
  response_message: 'Success',
  status: '18',
  source: 'save-card',
  kind: 'saved_card',
  idempotency_key: 'order-1:card_saved:0123456789abcdef',
  order_state: 'not_found',
  saved_card: { token_name: 'TK1', confirmed: true },
  gateway: {},
};

async function listPending(store = createMemoryStore()) {
  const routes = createResultsRoutes({ results: store.results, secret: SECRET, basePath: '', log: silentLogger, now: () => NOW });
  const body = JSON.stringify({});
  const response = await routes(
    new Request('http://127.0.0.1/results/pending', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [HOOK_SIGNATURE_HEADER]: await signHookBody(body, SECRET, NOW) },
      body,
    }),
  );
  assert.ok(response);
  const text = await response.text();
  assert.equal(response.status, 200);
  assert.equal((await verifyHookSignature(text, response.headers.get(HOOK_SIGNATURE_HEADER), SECRET, { now: NOW })).valid, true);
  return JSON.parse(text) as { results: { type: string; result: VerifiedResult; recorded_at: string; attempts: number }[] };
}

describe('POST /results/pending', () => {
  it('names each entry’s type as the webhook does: a saved card is saved_card, a payment payment_result', async () => {
    const store = createMemoryStore();
    await store.results.record(resultOf('order-1', 'authorized'), new Date('2026-11-26T09:00:00Z'));
    await store.results.record(savedCard, new Date('2026-11-26T09:01:00Z'));
    const { results } = await listPending(store);
    assert.deepEqual(
      results.map((entry) => [entry.type, entry.result.idempotency_key]),
      [
        ['payment_result', 'order-1:1700000004:authorized'],
        ['saved_card', 'order-1:card_saved:0123456789abcdef'],
      ],
    );
  });

  it('keeps every field an entry had before, beside its type', async () => {
    const store = createMemoryStore();
    const payment = resultOf('order-2', 'captured');
    await store.results.record(payment, new Date('2026-11-26T09:00:00Z'));
    const [entry] = (await listPending(store)).results;
    assert.deepEqual(entry, { type: 'payment_result', ...(await store.results.get(payment.idempotency_key)) });
  });
});
