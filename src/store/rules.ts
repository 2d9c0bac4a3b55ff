/**
 * What every engine decides the same way, written once: which of an order's results is its
 * furthest, and when a watch is asked about next.
 */
import { canMoveOrderState, type OrderState } from '../core/order-status.ts';
import type { VerifiedResult } from '../core/verified-result.ts';
import type { StoredResult } from './store.ts';

/** The state a result leaves the order in: an overruled result (amount mismatch, say) counts as failed. */
export function resultState(result: Pick<VerifiedResult, 'order_state' | 'error'>): OrderState {
  return result.error === undefined ? result.order_state : 'failed';
}

/** The furthest of an order's results, given oldest first: each later one wins only by a forward move. */
export function furthestResult(results: readonly VerifiedResult[]): VerifiedResult | undefined {
  let latest: VerifiedResult | undefined;
  for (const result of results) {
    if (!latest || canMoveOrderState(resultState(latest), resultState(result))) latest = result;
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
