/**
 * The webhook sender once the shop is back after an outage: results waiting out their growing
 * waits (up to 5 minutes each) are all made due the moment the first delivery is answered 2xx
 * (`shop_reachable`), with one store call, so the backlog reaches the shop within a pass, not a
 * minute later. A result another sender holds right then is left to it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LogData, Logger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createResultWebhook } from '../../src/server/result-webhook.ts';
import { ShopAvailability } from '../../src/server/shop-client.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { resultOf } from '../store/store-contract.ts';

const SECRET = 'a-hook-secret-of-at-least-32-characters';
const START = Date.parse('2026-11-26T10:00:00Z');
/** The shop's time limit: a claim holds a result for 2 × 1 s + 1 s = 3 s. */
const TIMEOUT_MS = 1_000;

function world() {
  const store = createMemoryStore();
  let clock = START;
  let shopUp = false;
  const posted: string[] = [];
  const events: { event: string; data?: LogData | undefined }[] = [];
  const log: Logger = {
    info: (event, data) => events.push({ event, data }),
    warn: (event, data) => events.push({ event, data }),
    error: (event, data) => events.push({ event, data }),
  };
  const now = () => new Date(clock);
  const sender = createResultWebhook({
    url: 'https://shop.example/pg-hooks/result',
    secret: SECRET,
    timeoutMs: TIMEOUT_MS,
    now,
    fetch: async (_input, init) => {
      posted.push((JSON.parse(String(init?.body)) as { result: VerifiedResult }).result.idempotency_key);
      return shopUp ? new Response(null, { status: 204 }) : new Response('down for maintenance', { status: 503 });
    },
    results: store.results,
    log,
    availability: new ShopAvailability(log, now),
  });
  return {
    store,
    sender,
    posted,
    events,
    advance: (ms: number) => (clock += ms),
    shopComesBack: () => (shopUp = true),
  };
}

describe('the webhook sender when the shop is back after an outage', () => {
  it('makes every result waiting out its backoff due at once, and delivers them in the same pass', async () => {
    const { store, sender, posted, events, advance, shopComesBack } = world();
    const waiting = ['order-1', 'order-2', 'order-3'].map((reference) => resultOf(reference, 'captured'));
    for (const result of waiting) await store.results.record(result, new Date(START));
    // Ninety seconds of outage: each pass tries the first due result, and each failure doubles its wait.
    for (let second = 0; second < 90; second += 1) {
      await sender.deliverDue();
      advance(1_000);
    }
    const backlog = await store.results.list({ state: 'pending', limit: 10 });
    assert.equal(backlog.length, 3);
    assert.ok(
      backlog.every((row) => row.attempts > 0 && Date.parse(row.next_attempt_at) > START + 90_000),
      'each is waiting out its own backoff',
    );

    shopComesBack();
    const late = resultOf('order-4', 'captured');
    await store.results.record(late, new Date(START + 90_000));
    posted.length = 0;
    assert.equal(await sender.deliverNow(late.idempotency_key), true, 'a new result is delivered at once: the shop is back');
    await sender.deliverDue();

    assert.deepEqual(posted, [late.idempotency_key, ...waiting.map((result) => result.idempotency_key)]);
    assert.deepEqual(await store.results.backlog(), { undelivered: 0, failing: 0 });
    assert.deepEqual(
      events.filter((line) => ['shop_reachable', 'result_retries_hastened'].includes(line.event)).map((line) => [line.event, line.data?.['results']]),
      [
        ['shop_reachable', undefined],
        ['result_retries_hastened', 3],
      ],
    );
  });

  it('leaves a result another sender is posting right then to that sender', async () => {
    const { store, sender, posted, advance, shopComesBack } = world();
    const held = resultOf('order-1', 'captured');
    const waiting = resultOf('order-2', 'captured');
    const late = resultOf('order-3', 'captured');
    for (const result of [held, waiting]) await store.results.record(result, new Date(START));
    await store.results.recordFailure(held.idempotency_key, new Date(START + 1_000), 'status 503');
    await store.results.recordFailure(waiting.idempotency_key, new Date(START + 300_000), 'status 503');
    await store.results.record(late, new Date(START));
    assert.equal(await sender.deliverNow(late.idempotency_key), false, 'the shop is down');

    advance(4_000);
    // Another instance takes the first again a second later, for as long as one delivery may take
    // (its claim ends after this sender's own would), and is posting it.
    const other = new Date(START + 5_000);
    assert.ok(await store.results.claim(held.idempotency_key, other, new Date(other.getTime() + 3_000)));

    shopComesBack();
    posted.length = 0;
    assert.equal(await sender.deliverNow(late.idempotency_key), true);
    await sender.deliverDue();
    assert.deepEqual(posted, [late.idempotency_key, waiting.idempotency_key], 'the held one is not posted twice at once');
    assert.equal((await store.results.get(held.idempotency_key))?.next_attempt_at, new Date(START + 8_000).toISOString(), 'its claim stands');
  });
});
