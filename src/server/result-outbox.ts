/**
 * The result outbox: the result ledger (result-ledger.ts) that also remembers which results the
 * shop has not acknowledged yet. The endpoint records each result once per idempotency key, as with
 * any ledger; the webhook (result-webhook.ts) sends every unacknowledged result to the shop until
 * it answers 2xx, and the shop can list and acknowledge them itself (results routes, `pg-checkout
 * results`). So a result is never lost while the shop is down, and never reported twice.
 *
 * The default lives in memory. Several instances share one outbox: `record` is the ledger's atomic
 * insert-if-absent (the row starts unacknowledged, in the same write), `claimDue` takes due rows
 * for one sender at a time (SQL `UPDATE … SET next_attempt_at = :until WHERE key IN (SELECT … WHERE
 * acknowledged_at IS NULL AND next_attempt_at <= :now ORDER BY recorded_at LIMIT :n FOR UPDATE SKIP
 * LOCKED) RETURNING *`), `acknowledge` sets `acknowledged_at`. See docs/standalone.md.
 */
import { canMoveOrderState } from '../core/order-status.ts';
import type { VerifiedResult } from './config.ts';
import type { LedgerEntry, ResultLedger } from './result-ledger.ts';

/** A result the shop has not acknowledged yet. */
export interface OutboxEntry {
  readonly result: VerifiedResult;
  /** When the endpoint recorded it (ISO 8601). */
  readonly recorded_at: string;
  /** Deliveries tried so far without an acknowledgement. */
  readonly attempts: number;
  /** When the next delivery is due (ISO 8601). */
  readonly next_attempt_at: string;
  /** Why the last delivery failed: `timeout`, `network` or `status 503`. */
  readonly last_error?: string;
}

type Maybe<T> = T | Promise<T>;

export interface ResultOutbox extends ResultLedger {
  /** Unacknowledged results, oldest first, at most `limit`. */
  pending(limit: number): Maybe<readonly OutboxEntry[]>;
  /**
   * Takes at most `limit` unacknowledged results due at `now` and holds them until `until`, so
   * that no other sender (another instance) takes them meanwhile.
   */
  claimDue(now: Date, until: Date, limit: number): Maybe<readonly OutboxEntry[]>;
  /** A delivery failed: count it, and make the result due again at `nextAttemptAt`. */
  recordFailure(key: string, nextAttemptAt: Date, reason: string): Maybe<void>;
  /** The shop has stored the result. False when no unacknowledged result has this key. */
  acknowledge(key: string): Maybe<boolean>;
  /** The order's furthest result so far (for the service's result page), acknowledged or not. */
  latestFor(merchantReference: string): Maybe<VerifiedResult | undefined>;
}

export interface InMemoryResultOutboxOptions {
  /** Results kept, acknowledged ones forgotten first (default 10,000). */
  readonly capacity?: number;
  /**
   * How long a newly recorded result is held for the delivery its recorder makes at once, before
   * a background sender may take it (default 30 s).
   */
  readonly firstDeliveryHoldMs?: number;
  readonly now?: () => Date;
}

interface Row {
  readonly result: VerifiedResult;
  readonly recordedAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
  acknowledged: boolean;
}

/** The state a result leaves the order in, for the result page (an overruled result counts as failed). */
function stateOf(result: VerifiedResult) {
  return result.error === undefined ? result.order_state : 'failed';
}

export class InMemoryResultOutbox implements ResultOutbox {
  readonly #rows = new Map<string, Row>();
  readonly #latest = new Map<string, string>();
  readonly #capacity: number;
  readonly #holdMs: number;
  readonly #now: () => Date;

  constructor(options: InMemoryResultOutboxOptions = {}) {
    this.#capacity = options.capacity ?? 10_000;
    this.#holdMs = options.firstDeliveryHoldMs ?? 30_000;
    this.#now = options.now ?? (() => new Date());
  }

  record(result: VerifiedResult): LedgerEntry {
    const key = result.idempotency_key;
    const recorded = this.#rows.get(key);
    if (recorded) return { first: false, result: recorded.result };
    const now = this.#now().getTime();
    this.#rows.set(key, { result, recordedAt: now, attempts: 0, nextAttemptAt: now + this.#holdMs, acknowledged: false });
    const latestKey = this.#latest.get(result.merchant_reference);
    const latest = latestKey === undefined ? undefined : this.#rows.get(latestKey)?.result;
    if (!latest || canMoveOrderState(stateOf(latest), stateOf(result))) this.#latest.set(result.merchant_reference, key);
    this.#forgetBeyondCapacity();
    return { first: true, result };
  }

  release(key: string): void {
    const row = this.#rows.get(key);
    this.#rows.delete(key);
    if (row && this.#latest.get(row.result.merchant_reference) === key) this.#latest.delete(row.result.merchant_reference);
  }

  pending(limit: number): OutboxEntry[] {
    const entries: OutboxEntry[] = [];
    for (const row of this.#rows.values()) {
      if (entries.length >= limit) break;
      if (!row.acknowledged) entries.push(entryOf(row));
    }
    return entries;
  }

  claimDue(now: Date, until: Date, limit: number): OutboxEntry[] {
    const entries: OutboxEntry[] = [];
    for (const row of this.#rows.values()) {
      if (entries.length >= limit) break;
      if (row.acknowledged || row.nextAttemptAt > now.getTime()) continue;
      row.nextAttemptAt = until.getTime();
      entries.push(entryOf(row));
    }
    return entries;
  }

  recordFailure(key: string, nextAttemptAt: Date, reason: string): void {
    const row = this.#rows.get(key);
    if (!row || row.acknowledged) return;
    row.attempts += 1;
    row.nextAttemptAt = nextAttemptAt.getTime();
    row.lastError = reason;
  }

  acknowledge(key: string): boolean {
    const row = this.#rows.get(key);
    if (!row || row.acknowledged) return false;
    row.acknowledged = true;
    return true;
  }

  latestFor(merchantReference: string): VerifiedResult | undefined {
    const key = this.#latest.get(merchantReference);
    return key === undefined ? undefined : this.#rows.get(key)?.result;
  }

  /** Unacknowledged results. */
  get size(): number {
    let count = 0;
    for (const row of this.#rows.values()) if (!row.acknowledged) count += 1;
    return count;
  }

  /** Past capacity, acknowledged results go first, oldest first; then, only if it must, the oldest at all. */
  #forgetBeyondCapacity(): void {
    if (this.#rows.size <= this.#capacity) return;
    for (const [key, row] of this.#rows) {
      if (this.#rows.size <= this.#capacity) return;
      if (row.acknowledged) this.release(key);
    }
    while (this.#rows.size > this.#capacity) {
      const oldest = this.#rows.keys().next().value;
      if (oldest === undefined) return;
      this.release(oldest);
    }
  }
}

function entryOf(row: Row): OutboxEntry {
  return {
    result: row.result,
    recorded_at: new Date(row.recordedAt).toISOString(),
    attempts: row.attempts,
    next_attempt_at: new Date(row.nextAttemptAt).toISOString(),
    ...(row.lastError === undefined ? {} : { last_error: row.lastError }),
  };
}
