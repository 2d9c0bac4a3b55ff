/**
 * The merchant's side of an order. The amount, currency and identity of every payment come from
 * here (through `resolveOrder`), never from the browser. `InMemoryOrderStore` is the store of the
 * demo and the tests; a real shop looks the order up in its own database.
 */
import { currencyExponent, parseWireAmount } from '../core/amounts.ts';
import type { FinancingProduct, PaymentResult, EndpointRouteName } from '../core/endpoint-api.ts';
import { isPaidState, type OrderState } from '../core/order-status.ts';
import { ATTEMPT_REFERENCE_REFUSAL, canMoveOrderPayment, isAttemptReference } from '../core/payment-attempts.ts';
import { field } from '../core/schemas/index.ts';
import type { Logger } from '../log/logger.ts';

import { isPaymentCommand, type PaymentCommand } from '../core/payment-commands.ts';

// The core's list of the payments an element may ask for; a hold never captured is voided by the
// gateway after `PG_AUTHORIZATION_HOLD_DAYS`, so which one is signed is the merchant's to allow.
export { isPaymentCommand, PAYMENT_COMMANDS, type PaymentCommand } from '../core/payment-commands.ts';

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
  /**
   * Sent with a bill as the gateway takes it (letters of any script, `_ \ / - . '`, spaces, at most 50):
   * direction marks and odd spaces dropped, a long name cut after its last whole word; a name that
   * still does not fit is left out, never a reason to refuse the bill.
   */
  readonly customer_name?: string;
  /**
   * The customer's country, ISO 3166 alpha-3 (`EGY`): sent with installments through the
   * gateway's page (`customer_country_code`), which then offers that country's plans.
   */
  readonly customer_country_code?: string;
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
  /**
   * How this order is paid, when the merchant decides it per order (authorize the pre-orders,
   * purchase the rest): the only command the endpoint signs for it, whatever the endpoint's
   * `paymentCommands` allow, and the one used when the browser names none. A browser asking for
   * the other is refused (`command_refused`). Unset: the browser may ask for any of `paymentCommands`.
   */
  readonly command?: PaymentCommand;
}

/**
 * Who is asking for an order, so that `resolveOrder` can check the order is theirs. An order
 * belongs to the session or signed-in customer that created it: a reference the browser names is
 * resolved only for its owner (else answer undefined: the endpoint refuses `unknown_order`). A
 * reference from a verified gateway answer (the return URL) is resolved for anyone: the gateway's
 * cross-site form post carries no SameSite=Lax cookie, and its signature already proves the order.
 */
export interface OrderLookup {
  /** The request naming the order: its cookies and headers say whose session it comes from. */
  readonly request: Request;
  /** The route asking (`hostedPage`, `bill`, `financingOtp`, `gatewayReturn`, ...). */
  readonly route: EndpointRouteName;
  /**
   * `browser`: the browser named the reference, so check that the caller owns the order.
   * `gateway`: the reference comes from a gateway answer whose signature was verified.
   */
  readonly referenceSource: 'browser' | 'gateway';
  /**
   * The payment the browser asks for (`hostedPage`, `merchantPage`): `PURCHASE` or
   * `AUTHORIZATION`; absent when it names none. The endpoint refuses one the order or
   * `paymentCommands` does not allow; a resolver may also refuse (answer undefined).
   */
  readonly command?: PaymentCommand;
}

/**
 * Looks an order up by merchant_reference for the caller described by `lookup`; undefined when the
 * merchant has no such order, or it is not the caller's. A resolver written for the single-argument
 * form (`(reference) => orders.get(reference)`) still fits, but checks no ownership.
 */
export type ResolveOrder = (
  merchantReference: string,
  lookup: OrderLookup,
) => MerchantOrder | undefined | Promise<MerchantOrder | undefined>;

/** Throws a TypeError naming the first field of `order` that breaks the wire rules. */
export function assertMerchantOrder(order: MerchantOrder): void {
  if (!field('merchant_reference').safeParse(order.merchant_reference).success) {
    throw new TypeError('merchant_reference: 1 to 40 letters, digits, "-", "_" or "."');
  }
  if (isAttemptReference(order.merchant_reference)) {
    throw new TypeError(ATTEMPT_REFERENCE_REFUSAL.en);
  }
  currencyExponent(order.currency);
  parseWireAmount(order.amount);
  if (order.customer_country_code !== undefined && !field('customer_country_code').safeParse(order.customer_country_code).success) {
    throw new TypeError('customer_country_code: three capital letters (ISO 3166 alpha-3), e.g. EGY');
  }
  if (order.command !== undefined && !isPaymentCommand(order.command)) {
    throw new TypeError('command: PURCHASE or AUTHORIZATION');
  }
}

/**
 * Why an amount and currency someone named (the customer was shown, the gateway answered) are not
 * the order's: its currency first, since an amount in another currency is not comparable; then the
 * amount. A part not named is not compared.
 */
export function orderDisagreement(
  named: { readonly amount?: number | undefined; readonly currency?: string | undefined },
  order: MerchantOrder,
): 'currency_mismatch' | 'amount_mismatch' | undefined {
  if (named.currency !== undefined && named.currency !== order.currency) return 'currency_mismatch';
  if (named.amount !== undefined && named.amount !== order.amount) return 'amount_mismatch';
  return undefined;
}

/** The customer fields an element may send that the merchant's order may hold too. */
export type CustomerField = 'customer_email' | 'customer_name';

/** What `customerFieldsFor` chose for each customer field. */
export interface CustomerFields<Field extends CustomerField> {
  /** The value to send the gateway: the order's, else the browser's; absent when neither has one. */
  readonly values: Partial<Record<Field, string>>;
  /** The fields whose value is the browser's: a gateway rule it breaks is the browser's to correct. */
  readonly fromBrowser: Field[];
  /** The fields the browser sent another value for, left unused because the order has its own. */
  readonly ignored: Field[];
}

/**
 * The customer's e-mail and name to send with a payment. They are the merchant's, like the amount:
 * the gateway screens payments by e-mail (block and allow lists), so when the order has a value
 * (not empty), that value is sent whatever the browser sent; the browser's is used only for an
 * order that has none (a guest checkout). A different browser value is ignored, not refused: the
 * elements send their `customer-email` attribute, set by the shop's own page. Every route that
 * sends these fields chooses them here; given `log`, each value ignored is logged
 * (`customer_field_ignored`, info, by field name: never the values).
 */
export function customerFieldsFor<Field extends CustomerField>(
  order: MerchantOrder,
  sent: { readonly [Name in Field]?: string | undefined },
  fields: readonly Field[],
  log?: Logger,
): CustomerFields<Field> {
  const values: Partial<Record<Field, string>> = {};
  const fromBrowser: Field[] = [];
  const ignored: Field[] = [];
  for (const name of fields) {
    // A resolver in plain JavaScript may answer anything: only a text that is not blank is the order's value.
    const own: unknown = order[name];
    const browser = sent[name];
    if (typeof own === 'string' && own.trim() !== '') {
      values[name] = own;
      if (browser !== undefined && browser !== own) ignored.push(name);
    } else if (browser !== undefined) {
      values[name] = browser;
      fromBrowser.push(name);
    }
  }
  for (const name of ignored) log?.info('customer_field_ignored', { merchant_reference: order.merchant_reference, field: name });
  return { values, fromBrowser, ignored };
}

/** What the store keeps of a result: any `onResult` result, or a bare PaymentResult. */
export type RecordableResult = PaymentResult & {
  readonly idempotency_key?: string;
  readonly order_state?: OrderState;
  readonly error?: string;
};

/**
 * The state a result puts an order in: the gateway's, unless the endpoint overruled the result
 * (an amount mismatch is a failure to the merchant, whatever was captured); for a bare result,
 * read from its outcome.
 */
function stateOf(result: RecordableResult): OrderState {
  if (result.error !== undefined) return 'failed';
  if (result.order_state !== undefined) return result.order_state;
  return result.outcome === 'success' ? 'authorized' : result.outcome === 'pending' ? 'pending' : 'failed';
}

/**
 * Orders in memory, for the demo and tests. `resolve` is bound, so it can be passed as
 * `resolveOrder` directly; `recordResult` can be passed as (or called from) `onResult`.
 *
 * Results are kept as a shop's database should keep them: one per idempotency key (a result
 * reported again replaces its own entry, never adds one), and the order's current result moves only
 * forward (core `canMoveOrderPayment`): captured may become refunded, authorized voided, but a paid
 * order never goes back to failed or pending, whatever arrives later.
 */
export class InMemoryOrderStore {
  readonly #orders = new Map<string, MerchantOrder>();
  /** Every result by order, one per idempotency key, in the order they first arrived. */
  readonly #results = new Map<string, Map<string, RecordableResult>>();
  /** The order's current result. */
  readonly #current = new Map<string, RecordableResult>();

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

  /**
   * The order as the endpoint should see it: `paid` once a paid result is recorded for it. It
   * checks no ownership (the demo wraps it with a session check; see docs/endpoint.md).
   */
  readonly resolve = (merchantReference: string, _lookup?: OrderLookup): MerchantOrder | undefined => {
    const order = this.get(merchantReference);
    if (!order) return undefined;
    const current = this.#current.get(merchantReference);
    return current !== undefined && isPaidState(stateOf(current)) ? { ...order, paid: true } : order;
  };

  /** Upserts a result by its idempotency key and moves the order's current result forward only. */
  readonly recordResult = (result: RecordableResult): void => {
    const reference = result.merchant_reference;
    const key = result.idempotency_key ?? `${reference}:${result.outcome}:${result.response_code}`;
    const results = this.#results.get(reference) ?? new Map<string, RecordableResult>();
    results.set(key, result);
    this.#results.set(reference, results);
    const current = this.#current.get(reference);
    if (current === undefined || canMoveOrderPayment({ ...current, state: stateOf(current) }, { ...result, state: stateOf(result) })) {
      this.#current.set(reference, result);
    }
  };

  /** The order's current result: the furthest the payment has gone. */
  resultOf(merchantReference: string): RecordableResult | undefined {
    return this.#current.get(merchantReference);
  }

  /** Every result recorded for the order, one per idempotency key. */
  resultsOf(merchantReference: string): RecordableResult[] {
    return [...(this.#results.get(merchantReference)?.values() ?? [])];
  }
}
