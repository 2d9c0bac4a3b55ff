/**
 * The result webhook: every result in the outbox is POSTed to the shop (`PG_RESULT_WEBHOOK_URL`),
 * signed, until the shop answers 2xx; then it is acknowledged. The first delivery is made at once,
 * while the customer's return is being answered, so the shop usually knows the result before the
 * customer lands on its page. A failed delivery is tried again later with growing waits (2 s, 4 s,
 * 8 s, … at most 5 minutes) by a background sender that asks the outbox for due results; results
 * wait there as long as it takes, and the shop can also fetch them itself.
 */
import type { VerifiedResult } from './config.ts';
import type { Logger } from '../log/logger.ts';
import type { OutboxEntry, ResultOutbox } from './result-outbox.ts';
import { postToShop, ShopUnreachable, type ShopAvailability, type ShopCallSettings } from './shop-client.ts';
import type { ResultWebhook } from './shop-protocol.ts';

export interface ResultWebhookOptions extends ShopCallSettings {
  readonly outbox: ResultOutbox;
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
  /** Delivers one result now; true once the shop has acknowledged it. */
  deliver(result: VerifiedResult, attempts?: number): Promise<boolean>;
  /** Delivers every result that is due (what the background sender runs). */
  deliverDue(): Promise<void>;
  /** Starts the background sender. */
  start(): void;
  /** Stops it and waits for a delivery under way. */
  stop(): Promise<void>;
}

/** Results a background pass takes at once. */
const BATCH = 20;

export function createResultWebhook(options: ResultWebhookOptions): ResultWebhookSender {
  const { outbox, log, availability } = options;
  const firstRetryMs = options.firstRetryMs ?? 2_000;
  const maxRetryMs = options.maxRetryMs ?? 300_000;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | undefined;

  const deliver = async (result: VerifiedResult, attempts = 0): Promise<boolean> => {
    const key = result.idempotency_key;
    const message: ResultWebhook = { type: 'payment_result', result };
    let failure: string;
    let status: number | undefined;
    try {
      const answer = await postToShop(options, JSON.stringify(message));
      if (answer.status >= 200 && answer.status < 300) {
        availability.up('result_webhook');
        await outbox.acknowledge(key);
        log.info('result_delivered', { merchant_reference: result.merchant_reference, idempotency_key: key, attempts: attempts + 1 });
        return true;
      }
      status = answer.status;
      failure = `status ${answer.status}`;
    } catch (error) {
      if (!(error instanceof ShopUnreachable)) throw error;
      failure = error.reason;
    }
    const wait = Math.min(maxRetryMs, firstRetryMs * 2 ** attempts);
    await outbox.recordFailure(key, new Date(options.now().getTime() + wait), failure);
    // A shop answering 4xx is up but refusing (a wrong secret, a bug): say so for each result.
    if (status !== undefined && status < 500 && status !== 429) {
      log.error('result_refused_by_shop', { merchant_reference: result.merchant_reference, idempotency_key: key, status });
    } else {
      availability.down('result_webhook', failure, status);
    }
    return false;
  };

  const deliverDue = async (): Promise<void> => {
    const now = options.now();
    // Held for longer than one delivery can take, so no other sender takes them meanwhile.
    const until = new Date(now.getTime() + options.timeoutMs * 2 + 1_000);
    const due: readonly OutboxEntry[] = await outbox.claimDue(now, until, BATCH);
    for (const entry of due) {
      const delivered = await deliver(entry.result, entry.attempts);
      // While the shop is down, one failed delivery a pass is enough: the others stay held until
      // `until` and are tried again after it, without counting an attempt they did not make.
      if (!delivered && availability.isDown('result_webhook')) break;
    }
  };

  const pass = (): void => {
    if (running) return;
    running = deliverDue()
      .catch((error: unknown) => log.error('result_delivery_failed', { error }))
      .finally(() => {
        running = undefined;
      });
  };

  return {
    deliver,
    deliverDue,
    start() {
      if (timer) return;
      timer = setInterval(pass, pollIntervalMs);
      // The server keeps the process alive; the sender alone should not.
      (timer as { unref?: () => void }).unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
