/**
 * The webhook sender's claims: a claim covers one delivery, so two senders sharing a store (two
 * instances on one PostgreSQL database, two processes on one SQLite file) never post one result
 * twice while the shop is healthy, however slow it answers; and while the shop is down, each result
 * waiting is tried in its turn and counts its own failures, none held without an attempt.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createResultWebhook, type ResultWebhookSender } from '../../src/server/result-webhook.ts';
import { ShopAvailability } from '../../src/server/shop-client.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import type { ResultStore, Store } from '../../src/store/store.ts';
import { resultOf } from '../store/store-contract.ts';

const SECRET = 'a-hook-secret-of-at-least-32-characters';
const RESULTS = 20;
/** The shop's time limit: a claim holds a result for 2 × 200 ms + 1 s = 1.4 s. */
const TIMEOUT_MS = 200;
/** A healthy but slow shop: every delivery is stored and answered 204 after 150 ms (a batch of 20 takes 3 s). */
const SHOP_MS = 150;

/** Posts seen by the shop, by idempotency key: which sender posted each time. */
type Posts = Map<string, string[]>;

function slowShop(posts: Posts, sender: string): typeof fetch {
  return async (_input, init) => {
    const key = (JSON.parse(String(init?.body)) as { result: VerifiedResult }).result.idempotency_key;
    posts.set(key, [...(posts.get(key) ?? []), sender]);
    await new Promise((resolve) => setTimeout(resolve, SHOP_MS));
    return new Response(null, { status: 204 });
  };
}

function senderOf(name: string, results: ResultStore, posts: Posts): ResultWebhookSender {
  return createResultWebhook({
    url: 'https://shop.example/pg-hooks/result',
    secret: SECRET,
    timeoutMs: TIMEOUT_MS,
    now: () => new Date(),
    fetch: slowShop(posts, name),
    results,
    log: silentLogger,
    availability: new ShopAvailability(silentLogger),
    pollIntervalMs: 20,
  });
}

/** Records RESULTS results (one per order) in `first`, runs a sender on each store until none waits, and answers the posts. */
async function deliverWithTwoSenders(first: Store, second: Store): Promise<Posts> {
  const recordedAt = new Date(Date.now() - 1_000);
  for (let index = 0; index < RESULTS; index += 1) await first.results.record(resultOf(`order-${index}`, 'captured'), recordedAt);
  const posts: Posts = new Map();
  const senders = [senderOf('A', first.results, posts), senderOf('B', second.results, posts)];
  for (const sender of senders) sender.start();
  const deadline = Date.now() + 20_000;
  while ((await first.results.backlog()).undelivered > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await Promise.all(senders.map((sender) => sender.stop()));
  return posts;
}

function assertEachPostedOnce(posts: Posts): void {
  assert.equal(posts.size, RESULTS, 'every result reached the shop');
  const twice = [...posts].filter(([, senders]) => senders.length > 1).map(([key, senders]) => `${key} by ${senders.join(', ')}`);
  assert.deepEqual(twice, [], 'no result posted more than once');
  const senders = new Set([...posts.values()].flat());
  assert.deepEqual([...senders].sort(), ['A', 'B'], 'both senders delivered: they shared the work');
}

describe('two webhook senders sharing a store, and a slow but healthy shop', () => {
  it('post every result exactly once on one SQLite file (two instances of one host)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-result-claims-'));
    const first = await openSqliteStore(dir, { dataDir: dir });
    const second = await openSqliteStore(dir, { dataDir: dir });
    try {
      assertEachPostedOnce(await deliverWithTwoSenders(first, second));
      assert.deepEqual(await first.results.backlog(), { undelivered: 0, failing: 0 });
    } finally {
      await first.close();
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('post every result exactly once on one memory store', async () => {
    const store = createMemoryStore();
    assertEachPostedOnce(await deliverWithTwoSenders(store, store));
  });
});

describe('a webhook sender while the shop is down', () => {
  it('tries one result a pass, counts its failure, and holds none of the others without an attempt', async () => {
    const store = createMemoryStore();
    const start = Date.parse('2026-11-26T10:00:00Z');
    let clock = start;
    let posts = 0;
    const sender = createResultWebhook({
      url: 'https://shop.example/pg-hooks/result',
      secret: SECRET,
      timeoutMs: 1_000,
      now: () => new Date(clock),
      fetch: async () => {
        posts += 1;
        return new Response('down for maintenance', { status: 503 });
      },
      results: store.results,
      log: silentLogger,
      availability: new ShopAvailability(silentLogger, () => new Date(clock)),
    });
    const waiting = ['order-1', 'order-2', 'order-3', 'order-4'].map((reference) => resultOf(reference, 'captured'));
    for (const result of waiting) await store.results.record(result, new Date(start - 60_000));
    const keys = waiting.map((result) => result.idempotency_key);

    await sender.deliverDue();
    assert.equal(posts, 1, 'one delivery a pass while the shop is down');
    assert.deepEqual(await store.results.backlog(), { undelivered: 4, failing: 1, oldest_recorded_at: new Date(start - 60_000).toISOString() });
    assert.deepEqual(
      (await store.results.list({ limit: 10 })).map((entry) => entry.next_attempt_at),
      [new Date(start + 2_000).toISOString(), ...Array(3).fill(new Date(start - 60_000).toISOString())],
      'the tried one waits 2 s; the others are not held, due for any sender at once',
    );

    for (let pass = 1; pass < keys.length; pass += 1) {
      clock += 10;
      await sender.deliverDue();
    }
    assert.equal(posts, 4);
    assert.deepEqual((await store.results.list({ limit: 10 })).map((entry) => [entry.result.idempotency_key, entry.attempts, entry.last_error]), keys.map((key) => [key, 1, 'status 503']));
    assert.equal((await store.results.backlog()).failing, 4, 'every result tried counts as failing');
    clock += 10;
    await sender.deliverDue();
    assert.equal(posts, 4, 'each waits its own growing wait before it is tried again');
  });
});
