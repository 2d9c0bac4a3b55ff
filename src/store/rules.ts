/**
 * What every engine decides the same way, written once: which of an order's results is its
 * furthest, which result may still be forgotten, and which watch a new one replaces (each with the
 * SQL the SQLite and PostgreSQL stores write it in).
 */
import type { OrderState } from '../core/order-status.ts';
import { canMoveOrderPayment } from '../core/payment-attempts.ts';
import type { VerifiedResult } from '../core/verified-result.ts';
import type { NewWatch, PaymentWatch, StoredResult, WatchKind } from './store.ts';

/** The state a result leaves the order in: an overruled result (amount mismatch, say) counts as failed. */
export function resultState(result: Pick<VerifiedResult, 'order_state' | 'error'>): OrderState {
  return result.error === undefined ? result.order_state : 'failed';
}

/**
 * The furthest of an order's results, given oldest first: each later one wins only by a forward
 * move, or, after a void, as another payment of the order (core `canMoveOrderPayment`).
 */
export function furthestResult(results: readonly VerifiedResult[]): VerifiedResult | undefined {
  let latest: VerifiedResult | undefined;
  for (const result of results) {
    if (!latest || canMoveOrderPayment({ ...latest, state: resultState(latest) }, { ...result, state: resultState(result) })) latest = result;
  }
  return latest;
}

/** Whether a stored result matches a list filter's state. */
export function matchesState(row: StoredResult, state: 'pending' | 'failing' | 'delivered' | 'all'): boolean {
  switch (state) {
    case 'all':
      return true;
    case 'delivered':
      return row.acknowledged_at !== undefined;
    case 'failing':
      return row.acknowledged_at === undefined && row.attempts > 0;
    case 'pending':
      return row.acknowledged_at === undefined;
  }
}

/**
 * A result as `record` left it: never claimed by a delivery (a claim moves the next attempt), tried
 * or acknowledged. Only such a result may be released (`ResultStore.release`).
 */
export function isAsRecorded(row: { readonly acknowledgedAt?: number | undefined; readonly attempts: number; readonly nextAttemptAt: number; readonly recordedAt: number }): boolean {
  return row.acknowledgedAt === undefined && row.attempts === 0 && row.nextAttemptAt === row.recordedAt;
}

/** {@link isAsRecorded} over a `pg_checkout_results` row. */
export const RESULT_AS_RECORDED_SQL = 'acknowledged_at IS NULL AND attempts = 0 AND next_attempt_at = recorded_at';

/**
 * The kinds that watch a payment the gateway holds for days: a bill payable at the counter, an
 * authorization until its hold ends. An open one is replaced by `WatchStore.watch` only with another
 * of them: a shorter watch written after it (a signed form, a return replayed or not confirmed, a
 * lost money call's) would stop asking sooner and drop the bill it keeps, while it asks about the
 * same reference anyway and reports whatever the gateway shows there.
 */
export const HOLDING_WATCH_KINDS: readonly WatchKind[] = ['bill', 'authorization'];

/** Whether `WatchStore.watch` writes `next` over the order's watch `current` (HOLDING_WATCH_KINDS). */
export function replacesWatch(current: Pick<PaymentWatch, 'kind' | 'ended_at'> | undefined, next: Pick<NewWatch, 'kind'>): boolean {
  if (current === undefined || current.ended_at !== undefined) return true;
  return !HOLDING_WATCH_KINDS.includes(current.kind) || HOLDING_WATCH_KINDS.includes(next.kind);
}

/** {@link replacesWatch} in an upsert's `DO UPDATE … WHERE`: the stored row and the new one (`excluded`). */
export const WATCH_REPLACEABLE_SQL = (() => {
  const holding = HOLDING_WATCH_KINDS.map((kind) => `'${kind}'`).join(', ');
  return `pg_checkout_watches.ended_at IS NOT NULL OR pg_checkout_watches.kind NOT IN (${holding}) OR excluded.kind IN (${holding})`;
})();
