/**
 * The record of payment results already handed to the merchant, by idempotency key. A return posted
 * again (a re-submitted form, a back button, an attacker replaying a signed answer) finds its key
 * here: the customer gets the same answer as the first time and `onResult` is not called again.
 *
 * The default lives in memory, bounded, so one endpoint instance keeps its promise alone. Several
 * instances behind a load balancer share one ledger: implement `record` as an atomic
 * insert-if-absent on a shared store (SQL `INSERT … ON CONFLICT (key) DO NOTHING RETURNING`, Redis
 * `SET key value NX`), so that two instances answering the same return at once agree on which one
 * reports it. A webhook outbox builds on the same record: write the result and an outbox row in one
 * transaction when `first` is true, POST the row to the shop until it is acknowledged, delete it then.
 */
import type { VerifiedResult } from './config.ts';

export interface LedgerEntry {
  /** True for the call that recorded the result: that one reports it. */
  readonly first: boolean;
  /** The result recorded under the key: this call's when `first`, else the one recorded before. */
  readonly result: VerifiedResult;
}

export interface ResultLedger {
  /** Records `result` under `result.idempotency_key` unless a result is there already. Atomic per key. */
  record(result: VerifiedResult, now?: Date): LedgerEntry | Promise<LedgerEntry>;
  /**
   * Forgets a key whose report failed (`onResult` threw), so that the next post of the same return
   * reports it again rather than being answered as already reported. A ledger that is also an
   * outbox (the store's) keeps a result a delivery has claimed, tried or had acknowledged.
   */
  release(key: string): void | Promise<void>;
}

/** How many results the in-memory ledger keeps before it forgets the oldest. */
export const DEFAULT_LEDGER_SIZE = 10_000;

/**
 * The default ledger: a bounded map in this process, oldest keys forgotten first. A return replayed
 * after its key was forgotten is confirmed with CHECK_STATUS again and reported again with the same
 * key; the merchant's own store should upsert by that key (as `InMemoryOrderStore` does).
 */
export class InMemoryResultLedger implements ResultLedger {
  readonly #results = new Map<string, VerifiedResult>();
  readonly #capacity: number;

  constructor(capacity: number = DEFAULT_LEDGER_SIZE) {
    this.#capacity = capacity;
  }

  record(result: VerifiedResult): LedgerEntry {
    const recorded = this.#results.get(result.idempotency_key);
    if (recorded) return { first: false, result: recorded };
    this.#results.set(result.idempotency_key, result);
    if (this.#results.size > this.#capacity) {
      const oldest = this.#results.keys().next().value;
      if (oldest !== undefined) this.#results.delete(oldest);
    }
    return { first: true, result };
  }

  release(key: string): void {
    this.#results.delete(key);
  }

  /** Forgets every result (a test, or a sandbox being reset). */
  clear(): void {
    this.#results.clear();
  }

  get size(): number {
    return this.#results.size;
  }
}
