/**
 * The result webhook: every result in the store that the shop has not acknowledged is POSTed to
 * the shop (`PG_RESULT_WEBHOOK_URL`), signed, until the shop answers 2xx; then it is acknowledged.
 * The result is committed to the store before any delivery, so a killed process loses nothing: a
 * delivery cut off midway is made again once its claim lapses (at least once, under the same key;
 * the shop stores by key). The first delivery is made at once, while the customer's return is
 * being answered, so the shop usually knows the result before the customer lands on its page. A
 * failed delivery is tried again later with growing waits (2 s, 4 s, 8 s, … at most 5 minutes) by
 * a background sender that claims due results from the store; results wait there as long as it
 * takes, and the shop can also fetch them itself. When the shop answers 2xx again after failing
 * (`shop_reachable`), every result waiting out its wait is made due at once, in one store call, so
 * the backlog reaches the shop within a pass or two, not minutes later. One order's results go out
 * in the order they were recorded.
 */
import type { VerifiedResult } from './config.ts';
import type { Logger } from '../log/logger.ts';
import { StoreUnavailableError, type ResultStore, type StoredResult } from '../store/store.ts';
import { backgroundLoop, type RoundControl } from './background.ts';
import {
  isSignatureRefusal,
  postToShop,
  ShopUnreachable,
  signatureRefusalHint,
  type ShopAvailability,
  type ShopCallSettings,
} from './shop-client.ts';
import { webhookTypeOf, type ResultWebhook } from './shop-protocol.ts';

export interface ResultWebhookOptions extends ShopCallSettings {
  readonly results: ResultStore;
  readonly log: Logger;
  readonly availability: ShopAvailability;
  /** Wait after the first failed delivery (default 2 s); each further failure doubles it. */
  readonly firstRetryMs?: number;
  /** The longest wait between two deliveries of one result (default 5 minutes). */
  readonly maxRetryMs?: number;
  /** How often the background sender looks for due results (default 1 s). */
  readonly pollIntervalMs?: number;
}

export interface ResultWebhookSender {
  /** Delivers the result with this key now, if it is due and first in its order's line; true once acknowledged. */
  deliverNow(key: string): Promise<boolean>;
  /** Delivers every result that is due (what the background sender runs). */
  deliverDue(control?: RoundControl): Promise<void>;
  /** Starts the background sender. */
  start(): void;
  /** Stops it: a pass under way ends after its current delivery; waits for it. */
  stop(): Promise<void>;
}

/** Deliveries a background pass makes at most, one claimed at a time. */
const BATCH = 20;

export function createResultWebhook(options: ResultWebhookOptions): ResultWebhookSender {
  const { results, log, availability } = options;
  const firstRetryMs = options.firstRetryMs ?? 2_000;
  const maxRetryMs = options.maxRetryMs ?? 300_000;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;

  // Held for longer than one delivery can take, so no other sender takes it meanwhile.
  const claimMs = options.timeoutMs * 2 + 1_000;
  const claimUntil = (now: Date) => new Date(now.getTime() + claimMs);

  /**
   * The shop is back: what waits out a growing wait is due now, on every instance. A result whose
   * next attempt comes within two claims' length is left: another sender may hold it right now (a
   * claim taken while this call was on its way to the store ends within that too), and it is due
   * soon anyway. A store that fails here leaves the waits as they were: nothing is lost.
   */
  const hastenRetries = async (): Promise<void> => {
    const now = options.now();
    try {
      const hastened = await results.hastenRetries(now, new Date(now.getTime() + 2 * claimMs));
      if (hastened > 0) log.info('result_retries_hastened', { results: hastened });
    } catch (error) {
      if (error instanceof StoreUnavailableError) log.warn('result_retries_not_hastened', { reason: error.reason });
      else log.error('result_retries_not_hastened', { error });
    }
  };

  const deliver = async (entry: StoredResult): Promise<boolean> => {
    const { result, attempts } = entry;
    const key = result.idempotency_key;
    const message: ResultWebhook = { type: webhookTypeOf(result), result: result as VerifiedResult };
    let failure: string;
    let status: number | undefined;
    try {
      const answer = await postToShop(options, JSON.stringify(message));
      if (answer.status >= 200 && answer.status < 300) {
        const wasDown = availability.isDown('result_webhook');
        availability.up('result_webhook');
        await results.acknowledge(key, options.now());
        log.info('result_delivered', { merchant_reference: result.merchant_reference, idempotency_key: key, attempts: attempts + 1 });
        if (wasDown) await hastenRetries();
        return true;
      }
      status = answer.status;
      failure = `status ${answer.status}`;
    } catch (error) {
      if (!(error instanceof ShopUnreachable)) throw error;
      failure = error.reason;
    }
    const wait = Math.min(maxRetryMs, firstRetryMs * 2 ** attempts);
    await results.recordFailure(key, new Date(options.now().getTime() + wait), failure);
    // A shop answering 4xx is up but refusing (a wrong secret, a bug): say so for each result.
    if (status !== undefined && status < 500 && status !== 429) {
      log.error('result_refused_by_shop', {
        merchant_reference: result.merchant_reference,
        idempotency_key: key,
        status,
        ...(isSignatureRefusal(status) ? { hint: signatureRefusalHint('result_webhook') } : {}),
      });
    } else {
      availability.down('result_webhook', failure, status);
    }
    return false;
  };

  /**
   * Takes one row (this key's, or the first due) until one delivery's time from now, and answers it
   * only while enough of that claim is left for a delivery and its acknowledgement: a claim that
   * waited long for a busy store is left to lapse, and the row is due again when it does.
   */
  const claimOne = async (key?: string): Promise<StoredResult | undefined> => {
    const now = options.now();
    const until = claimUntil(now);
    const entry = key === undefined ? (await results.claimDue(now, until, 1))[0] : await results.claim(key, now, until);
    if (entry && until.getTime() - options.now().getTime() < options.timeoutMs + 1_000) return undefined;
    return entry;
  };

  const deliverNow = async (key: string): Promise<boolean> => {
    const entry = await claimOne(key);
    return entry ? deliver(entry) : false;
  };

  const deliverDue = async (control?: RoundControl): Promise<void> => {
    // One row claimed at a time, just before it is posted: a claim covers one delivery, so a slow
    // shop cannot outlast the claims of rows still waiting in the pass (another sender would take
    // and post them too), and no row is held that this pass does not try.
    for (let delivered = 0; delivered < BATCH; delivered += 1) {
      // Stopping: nothing more is claimed; what is due stays due, for another instance or this one after its restart.
      if (control?.stopping) return;
      const entry = await claimOne();
      if (!entry) return;
      // While the shop is down, one failed delivery a pass is enough; each row still waiting is
      // tried in its turn, and counts its own failures and growing waits.
      if (!(await deliver(entry)) && availability.isDown('result_webhook')) return;
    }
  };

  const loop = backgroundLoop(deliverDue, pollIntervalMs, log, 'result_delivery_failed');

  return {
    deliverNow,
    deliverDue,
    start: () => loop.start(),
    stop: () => loop.stop(),
  };
}
