/**
 * The bill issued for an order, kept in sessionStorage under its merchant reference: a refresh
 * or a re-render during checkout shows the same bill instead of asking the gateway for another
 * (a second BILL_PRESENTMENT for the same reference would be refused as a duplicate).
 */
import { billResult, type BillResult } from '../../core/endpoint-results.ts';
import { read } from '../../core/shape.ts';
import { pageSessionStorage } from '../shared/session-storage.ts';
import { billMemoryKey as storageKey } from './bill-key.ts';

/** The bill issued for this order in this browser session, if any (and if still readable). */
export function recallBill(merchantReference: string): BillResult | undefined {
  if (!merchantReference) return undefined;
  try {
    const text = pageSessionStorage()?.getItem(storageKey(merchantReference));
    if (!text) return undefined;
    const bill = read(billResult, JSON.parse(text));
    return bill?.merchant_reference === merchantReference ? bill : undefined;
  } catch {
    return undefined;
  }
}

export function rememberBill(bill: BillResult): void {
  try {
    pageSessionStorage()?.setItem(storageKey(bill.merchant_reference), JSON.stringify(bill));
  } catch {
    // Private mode or a full quota: only the resume after a refresh is lost.
  }
}

export function forgetBill(merchantReference: string): void {
  try {
    pageSessionStorage()?.removeItem(storageKey(merchantReference));
  } catch {
    // Nothing to forget.
  }
}
