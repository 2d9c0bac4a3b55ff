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
import { furthestResult } from '../store/rules.ts';
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
  /**
   * Optional: the result recorded under `key` (as `{ result }`, the store's results answer so), or
   * undefined when there is none. A ledger that has it lets a result be checked against what was
   * recorded before it: a capture against its authorization's accepted amount, a cash bill waiting
   * against the bill's own result (`recordedUnder`). Without it, those checks read the order as it
   * is now, and a bill waiting is recorded under the gateway's payment id.
   */
  get?(key: string): { readonly result: VerifiedResult } | undefined | Promise<{ readonly result: VerifiedResult } | undefined>;
  /**
   * Optional: the order's furthest result so far (the store's `latestFor`): where a ledger with
   * no watches beside it (an endpoint without a store) finds the number of the bill it recorded.
   */
  latestFor?(merchantReference: string): VerifiedResult | undefined | Promise<VerifiedResult | undefined>;
}

/**
 * How to read the result a ledger holds under a key: undefined when the ledger cannot say (one
 * without `get`); else a lookup answering the recorded result, or undefined when there is none.
 * Throws what the ledger throws (a store that cannot be read: `StoreUnavailableError`).
 */
export function recordedUnder(ledger: ResultLedger): ((key: string) => Promise<VerifiedResult | undefined>) | undefined {
  const get = ledger.get;
  if (typeof get !== 'function') return undefined;
  return async (key) => {
    const entry = await get.call(ledger, key);
    // Only the result recorded under that very key: a ledger answering anything else is not trusted.
    return entry?.result?.idempotency_key === key ? entry.result : undefined;
  };
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

  /** The result recorded under `key`, if it is still kept. */
  get(key: string): { readonly result: VerifiedResult } | undefined {
    const result = this.#results.get(key);
    return result && { result };
  }

  /** The order's furthest result still kept (as the store's `latestFor` reads it). */
  latestFor(merchantReference: string): VerifiedResult | undefined {
    return furthestResult([...this.#results.values()].filter((result) => result.merchant_reference === merchantReference));
  }

  /** Forgets every result (a test, or a sandbox being reset). */
  clear(): void {
    this.#results.clear();
  }

  get size(): number {
    return this.#results.size;
  }
}
