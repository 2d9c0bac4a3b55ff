/**
 * The merchant's side of an order. The amount, currency and identity of every payment come from
 * here (through `resolveOrder`), never from the browser. `InMemoryOrderStore` is the store of the
 * demo and the tests; a real shop looks the order up in its own database.
 */
import { currencyExponent, parseWireAmount } from '../core/amounts.ts';
import type { FinancingProduct, PaymentResult } from '../core/endpoint-api.ts';
import { field } from '../core/schemas/index.ts';

export interface MerchantOrder {
  /** The merchant's unique order number (max 40: letters, digits, `-`, `_`, `.`). */
  readonly merchant_reference: string;
  /** Integer minor units of `currency`: 150000 EGP is EGP 1,500.00. */
  readonly amount: number;
  /** ISO 4217 alphabetic code. */
  readonly currency: string;
  /** Sent as `order_description` (and financing `purchase_description`). */
  readonly description?: string;
  readonly customer_email?: string;
  readonly customer_name?: string;
  /** The financing partner's product list; the browser's list is used only when this is absent. */
  readonly products?: readonly FinancingProduct[];
  /** Financing `customer_code`: the merchant's id of the customer (default: the verified phone number). */
  readonly customer_code?: string;
  /**
   * True when the merchant already holds a payment for this order (your own record, however it was
   * paid). The endpoint then refuses to sign a form, issue a bill or start financing for it
   * (`order_already_paid`); it also asks the gateway itself, so this is the first of two checks.
   */
  readonly paid?: boolean;
}

/** Looks an order up by merchant_reference; undefined when the merchant has no such order. */
export type ResolveOrder = (merchantReference: string) => MerchantOrder | undefined | Promise<MerchantOrder | undefined>;

/** Throws a TypeError naming the first field of `order` that breaks the wire rules. */
export function assertMerchantOrder(order: MerchantOrder): void {
  if (!field('merchant_reference').safeParse(order.merchant_reference).success) {
    throw new TypeError('merchant_reference: 1 to 40 letters, digits, "-", "_" or "."');
  }
  currencyExponent(order.currency);
  parseWireAmount(order.amount);
}

/**
 * Orders in memory, for the demo and tests. `resolve` is bound, so it can be passed as
 * `resolveOrder` directly; `recordResult` can be passed as (or called from) `onResult`.
 */
export class InMemoryOrderStore {
  readonly #orders = new Map<string, MerchantOrder>();
  readonly #results = new Map<string, PaymentResult>();

  constructor(orders: Iterable<MerchantOrder> = []) {
    for (const order of orders) this.add(order);
  }

  /** Adds (or replaces) an order after checking its reference, amount and currency. */
  add(order: MerchantOrder): MerchantOrder {
    assertMerchantOrder(order);
    const stored = Object.freeze({ ...order });
    this.#orders.set(order.merchant_reference, stored);
    return stored;
  }

  get(merchantReference: string): MerchantOrder | undefined {
    return this.#orders.get(merchantReference);
  }

  list(): MerchantOrder[] {
    return [...this.#orders.values()];
  }

  readonly resolve: ResolveOrder = (merchantReference) => this.get(merchantReference);

  /** Keeps the last verified result of each order (what a shop would write to its database). */
  readonly recordResult = (result: PaymentResult): void => {
    this.#results.set(result.merchant_reference, result);
  };

  resultOf(merchantReference: string): PaymentResult | undefined {
    return this.#results.get(merchantReference);
  }
}
