/**
 * The reconciler when questions go unanswered: a payment whose answer never reads (a poison watch)
 * must not hold up every other payment, nor be asked about for ever; a gateway outage must pause the
 * rounds without ending or losing any watch. A scripted gateway answers per reference, on one clock
 * with the reconciler and a memory store.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckStatusResponse } from '../../src/core/schemas/index.ts';
import { GatewayUnavailableError } from '../../src/gateway/transport.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import { createReconciler } from '../../src/server/reconciler.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { NewWatch } from '../../src/store/store.ts';

const START = Date.parse('2026-11-20T08:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The gateway's id of a reference's payment. */
const svcIdOf = (reference: string): string => `17${reference.replace(/\D/g, '').padStart(8, '0')}`;

/** What the scripted gateway does when asked about a reference. */
type Reply = 'captured' | 'unreadable_amount' | 'down';

function world() {
  let clock = START;
  const now = () => new Date(clock);
  const store = createMemoryStore();
  const replies = new Map<string, Reply>();
  const asked = new Map<string, number>();
  const reported: string[] = [];
  const logs: Record<string, unknown>[] = [];
  const answer = (reference: string, fields: Partial<CheckStatusResponse>): { answer: CheckStatusResponse } => ({
    answer: { query_command: 'CHECK_STATUS', response_code: '12000', status: '12', merchant_reference: reference, ...fields } as CheckStatusResponse,
  });
  const reconciler = createReconciler({
    store,
    log: createJsonLogger((line) => logs.push(JSON.parse(line) as Record<string, unknown>)),
    now,
    sleep: async () => {},
    questionsPerMinute: 60_000,
    settings: { intervalSeconds: 60 },
    report: async (result) => void reported.push(result.idempotency_key),
    gateway: {
      call: (async (_operation: unknown, request: { params: { merchant_reference: string } }) => {
        const reference = request.params.merchant_reference;
        clock += SECOND; // a question takes time
        asked.set(reference, (asked.get(reference) ?? 0) + 1);
        const paid = { svc_id: svcIdOf(reference), transaction_code: '04000', transaction_status: '04' };
        switch (replies.get(reference)) {
          case 'captured':
            return answer(reference, { ...paid, authorized_amount: '1000', captured_amount: '1000' });
          case 'unreadable_amount':
            // Signed and of the right shape, with an amount the parser rejects: asking again reads the same.
            return answer(reference, { ...paid, captured_amount: 'ten' });
          case 'down':
            throw new GatewayUnavailableError('CHECK_STATUS', 'http_error', { httpStatus: 503 });
          default:
            return answer(reference, { response_code: '12001', status: '12' });
        }
      }) as never,
    },
  });
  return {
    store,
    replies,
    asked,
    reported,
    logs,
    reconciler,
    now,
    get clock() {
      return clock;
    },
    advance(ms: number) {
      clock += ms;
    },
    /** Rounds every 5 seconds (the background loop's pace) for `ms`. */
    async runFor(ms: number) {
      const end = clock + ms;
      while (clock < end) {
        await reconciler.runDue();
        clock += 5 * SECOND;
      }
    },
    events: (event: string) => logs.filter((line) => line['event'] === event),
  };
}

type World = ReturnType<typeof world>;

const iso = (ms: number) => new Date(ms).toISOString();

/** A watch of `kind` due at `next`, expiring at `expires` (epoch ms). */
async function watch(w: World, reference: string, kind: NewWatch['kind'], next: number, expires: number, lastState: NewWatch['last_state']) {
  await w.store.watches.watch(
    { merchant_reference: reference, kind, language: 'en', last_state: lastState, amount: 1000, currency: 'EGP', expires_at: iso(expires), next_check_at: iso(next) },
    w.now(),
  );
  w.advance(1); // each watch is due a moment after the one before
}

/** Eight authorizations the gateway now shows captured, each due after the watches before them. */
async function capturedAuthorizations(w: World): Promise<string[]> {
  const references = Array.from({ length: 8 }, (_, index) => `good-${index + 1}`);
  for (const reference of references) {
    w.replies.set(reference, 'captured');
    await watch(w, reference, 'authorization', w.clock, w.clock + 9 * DAY, 'authorized');
  }
  return references;
}

describe('the reconciler, when questions go unanswered', () => {
  it('ends two expired watches whose answers never read after their last question, and reports every other payment', async () => {
    const w = world();
    for (const reference of ['poison-1', 'poison-2']) {
      w.replies.set(reference, 'unreadable_amount');
      await watch(w, reference, 'in_progress', w.clock, w.clock - SECOND, 'pending');
    }
    const good = await capturedAuthorizations(w);

    await w.runFor(DAY);

    assert.equal(w.reported.filter((key) => key.endsWith(':captured')).length, good.length, 'each captured payment is reported within the day');
    for (const reference of ['poison-1', 'poison-2']) {
      assert.equal(w.asked.get(reference), 1, `${reference}: one last question, not one every interval`);
      assert.equal((await w.store.watches.get(reference))?.end_reason, 'expired_unanswered');
    }
    const ended = w.events('watch_expired_unanswered');
    assert.deepEqual(ended.map((line) => [line['merchant_reference'], line['reason']]), [
      ['poison-1', 'answer_invalid'],
      ['poison-2', 'answer_invalid'],
    ]);
    assert.equal(await w.store.watches.countActive(), 0);
  });

  it('hands the watches a paused round did not reach back as due as they were, ahead of the two that failed', async () => {
    const w = world();
    for (const reference of ['poison-1', 'poison-2']) {
      w.replies.set(reference, 'unreadable_amount');
      await watch(w, reference, 'in_progress', w.clock, w.clock + DAY, 'pending');
    }
    const good = await capturedAuthorizations(w);
    const before = new Map((await w.store.watches.list({ active: true, limit: 20 })).map((row) => [row.merchant_reference, row.next_check_at]));

    const round = await w.reconciler.runDue();
    assert.deepEqual([round.asked, round.failed], [2, 2], 'two unanswered questions pause the round');
    for (const reference of good) {
      assert.equal((await w.store.watches.get(reference))?.next_check_at, before.get(reference), `${reference} keeps its place`);
    }
    for (const reference of ['poison-1', 'poison-2']) {
      assert.ok(Date.parse((await w.store.watches.get(reference))?.next_check_at ?? '') > w.clock, `${reference} waits`);
    }
    w.advance(5 * SECOND);
    await w.reconciler.runDue();
    assert.equal(w.reported.length, good.length, 'the next round reports the others');
  });

  it('asks an expired watch whose gateway keeps failing with growing waits, and ends it a day after its expiry', async () => {
    const w = world();
    w.replies.set('order-1001', 'down');
    await watch(w, 'order-1001', 'bill', w.clock, w.clock - SECOND, 'pending');

    await w.runFor(DAY - 10 * MINUTE);
    const asked = w.asked.get('order-1001') ?? 0;
    assert.ok(asked > 1 && asked <= 40, `backed off to at most one question an hour, not one a minute: ${asked}`);
    assert.equal((await w.store.watches.get('order-1001'))?.ended_at, undefined, 'still asked while the gateway may come back');

    await w.runFor(2 * HOUR);
    assert.equal((await w.store.watches.get('order-1001'))?.end_reason, 'expired_unanswered');
    assert.equal(w.events('watch_expired_unanswered')[0]?.['reason'], 'http_error 503');
  });

  it('pauses through a gateway outage without ending or losing a watch, and reports everything once the gateway is back', async () => {
    const w = world();
    const good = await capturedAuthorizations(w);
    // A bill whose watch expires during the outage: its last question is owed an answer.
    w.replies.set('bill-1', 'captured');
    await watch(w, 'bill-1', 'bill', w.clock, w.clock + 30 * MINUTE, 'pending');
    const all = [...good, 'bill-1'];
    for (const reference of all) w.replies.set(reference, 'down');

    const rounds: { asked: number; ended: number }[] = [];
    const end = w.clock + 3 * HOUR;
    while (w.clock < end) {
      rounds.push(await w.reconciler.runDue());
      w.advance(5 * SECOND);
    }
    assert.ok(rounds.every((round) => round.asked <= 2), 'each round stops after two unanswered questions');
    assert.equal(rounds.reduce((sum, round) => sum + round.ended, 0), 0, 'no watch ended');
    assert.equal(await w.store.watches.countActive(), all.length, 'no watch lost');
    assert.ok(all.every((reference) => (w.asked.get(reference) ?? 0) >= 2), 'every watch asked again during the outage');
    assert.deepEqual(w.reported, []);

    for (const reference of all) w.replies.set(reference, 'captured');
    await w.runFor(2 * HOUR);
    assert.deepEqual(
      [...w.reported].sort(),
      all.map((reference) => `${reference}:${svcIdOf(reference)}:captured`).sort(),
      'each payment reported once',
    );
    assert.equal(await w.store.watches.countActive(), 0);
    assert.equal(w.events('watch_expired_unanswered').length, 0);
  });
});
