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
import { resultKeyOf, runningTotalOf } from '../core/order-status.ts';
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
export function recordedUnder(ledger: Pick<ResultLedger, 'get'>): ((key: string) => Promise<VerifiedResult | undefined>) | undefined {
  const get = ledger.get;
  if (typeof get !== 'function') return undefined;
  return async (key) => {
    const entry = await get.call(ledger, key);
    // Only the result recorded under that very key: a ledger answering anything else is not trusted.
    return entry?.result?.idempotency_key === key ? entry.result : undefined;
  };
}

/**
 * The key a payment result is recorded under, given what the ledger holds (`lookup`, from
 * `recordedUnder`). A payment's state keeps the key of its first result (core `resultKeyOf`,
 * `{reference}:{svc_id}:{state}`); a result of the same payment and state whose running total
 * differs from that one's is a further capture or refund (CHECK_STATUS shows the hold captured in parts, or the
 * capture refunded in parts, in the same state): its key adds its running total (core
 * `runningTotalOf`), so each one is recorded and reported once. A reading of the same running total again
 * (a replay) keeps the plain key.
 *
 * Why the first keeps the plain key: every result recorded before keys could carry a total has it
 * (every capture, partial refund and failure of a capture so far), so a replay of it after the
 * upgrade is still answered from the ledger and nothing is delivered twice; and a capture that
 * completes a hold whose first part was recorded so is told apart from it all the same. A failure
 * recorded from a reading that named no amount (totals of 0) holds back no reading that names them.
 * A result recorded without totals (the answer of a purchase) is taken as of the same totals: its
 * payment cannot have moved in its state. A ledger that cannot be read by key (`lookup` undefined):
 * the plain key, as before (a further capture in the same state is then taken for a replay).
 * Two instances recording two captures of one state at the same moment, neither seeing the other's,
 * would both take the plain key: the second is then heard of only from a later reading (the
 * readings of two captures rarely meet so).
 */
export async function ledgerKeyOf(
  result: Pick<VerifiedResult, 'merchant_reference' | 'payment_reference' | 'svc_id' | 'order_state' | 'response_code' | 'order_status' | 'idempotency_key'>,
  lookup: ((key: string) => Promise<VerifiedResult | undefined>) | undefined,
): Promise<string> {
  const total = result.order_status && runningTotalOf(result.order_status);
  if (total === undefined || lookup === undefined) return result.idempotency_key;
  const fields = {
    merchant_reference: result.payment_reference ?? result.merchant_reference,
    svc_id: result.svc_id,
    state: result.order_state,
    response_code: result.response_code,
  };
  // Only a key the state gave (not a bill's or a saved card's own).
  if (result.idempotency_key !== resultKeyOf(fields)) return result.idempotency_key;
  const first = await lookup(result.idempotency_key);
  // The same running total is the same capture or refund, whatever else the reading names or leaves out.
  if (first === undefined || first.order_status === undefined || runningTotalOf(first.order_status) === total) return result.idempotency_key;
  return resultKeyOf({ ...fields, running_total: total });
}

/** `result` under the key the ledger records it under (`ledgerKeyOf`). */
export async function keyedForLedger(result: VerifiedResult, ledger: Pick<ResultLedger, 'get'>): Promise<VerifiedResult> {
  const key = await ledgerKeyOf(result, recordedUnder(ledger));
  return key === result.idempotency_key ? result : { ...result, idempotency_key: key };
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
