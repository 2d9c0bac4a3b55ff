/**
 * A payment result as the merchant's server hears it (`onResult`, the standalone service's
 * webhook, the durable store): what the gateway stated server to server, checked against the
 * merchant's order, under a stable idempotency key. Types only.
 */
import type { BillResult, PaymentResult } from './endpoint-api.ts';
import type { OrderState, OrderStatus } from './order-status.ts';

/**
 * What a result is about: a payment (`payment_result` on the webhook), or a card saved without a
 * payment (`saved_card`): nothing was charged, and an order is never paid by one.
 */
export type ResultKind = 'payment' | 'saved_card';

/** Where a result came from. */
export type ResultSource = 'return' | 'merchant-page' | 'financing' | 'save-card' | 'bill' | 'reconcile' | 'back-office';

/**
 * A payment outcome the gateway has stated server to server, handed to `onResult` once per
 * `idempotency_key`. A return from the customer's browser is confirmed with CHECK_STATUS first, so
 * its outcome is what the gateway says now, not what the (possibly old) return said.
 */
export interface VerifiedResult extends PaymentResult {
  /**
   * Where the result came from: the return URL, merchant-page completion, financing PURCHASE, or
   * `save-card`: a card saved without a payment (then `order_state` is `not_found`, nothing was
   * charged, and `saved_card` names the token). Never ship an order on a `save-card` result.
   * `bill`: a cash bill issued for the order, `pending` until it is paid at the partner's counter or
   * cancelled at its expiry (then `reconcile` reports it); `bill` says what to tell the customer.
   * `reconcile`: a change the service found by asking CHECK_STATUS after the customer had left (a
   * bill paid at the counter or cancelled at its expiry, an authorization voided at the end of its
   * hold, a 3-D Secure check finished or abandoned, a capture whose answer was lost).
   * `back-office`: a capture, refund or void made with the back office (`pg-checkout capture` …),
   * recorded by the command itself once CHECK_STATUS showed it; one whose reading failed is found
   * and reported by the reconciler later (`reconcile`).
   */
  readonly source: ResultSource;
  /** `saved_card` for a card saved without a payment (nothing charged; never ship an order on it), else `payment`. */
  readonly kind: ResultKind;
  /**
   * The same for every report of this payment in this state (`order-1001:1700000004:captured`): a replayed
   * return has the key of the result already reported. Upsert your records by it.
   */
  readonly idempotency_key: string;
  /**
   * The merchant_reference the gateway knows this payment by, when it is not the order's own: a new
   * attempt after the customer closed a 3-D Secure check (`order-1001.pg2`). Capture, refund, void
   * and ask CHECK_STATUS about this payment under it. `merchant_reference` is always the order's.
   */
  readonly payment_reference?: string;
  /**
   * Another attempt of the same order that the gateway also holds paid (its merchant_reference):
   * the customer paid twice, typically by finishing a closed 3-D Secure check in another tab.
   * The endpoint moves no money by itself: refund (or void) one of the two.
   */
  readonly duplicate_of?: string;
  /** Where the order stands at the gateway (core `OrderState`); `outcome` follows from it. */
  readonly order_state: OrderState;
  /** The CHECK_STATUS reading, with the authorized, captured and refunded amounts, when one confirmed the result. */
  readonly order_status?: OrderStatus;
  /** `command` of the answered operation (AUTHORIZATION, PURCHASE) when the gateway names one. */
  readonly command?: string;
  /** The endpoint's own reason when it turned a verified answer into a failure (e.g. amount_mismatch, unknown_order). */
  readonly error?: string;
  /**
   * The card the customer agreed to keep (`remember_me` YES), once GET_TOKENS lists its token as
   * ACTIVE: a temporary token (a card not remembered) is never reported here. Store `token_name`
   * for the back office's recurring charges; it never reaches the browser.
   */
  readonly saved_card?: SavedCard;
  /**
   * The cash bill of a `bill` result, as the customer was shown it: its number, the partner whose
   * counters take it and when it expires. Show it on the order's page or send it to the customer;
   * hold the order until the expiry.
   */
  readonly bill?: IssuedBillDetails;
  /** The plan of an installments payment: the one the gateway's page returned, or the element's choice. */
  readonly installments?: InstallmentsChoice;
  /**
   * Every field of the verified gateway answer except `signature`, `otp` and `token_name` (card
   * number masked by the gateway); a token is reported only as `saved_card`.
   */
  readonly gateway: Readonly<Record<string, unknown>>;
}

/**
 * A token the gateway keeps for the customer: as GET_TOKENS lists it (`confirmed`), or, when the
 * token list cannot be had (the service not activated, the question refused, an answer of an
 * unknown shape), as the gateway's signed answer of the saving named it, marked not confirmed.
 */
export interface SavedCard {
  readonly token_name: string;
  /** True when GET_TOKENS lists the token, kept and ACTIVE. */
  readonly confirmed: boolean;
  /** Why the token list could not confirm it: `token_list_not_activated`, `token_list_refused`, `token_list_unreadable`. */
  readonly unconfirmed_reason?: 'token_list_not_activated' | 'token_list_refused' | 'token_list_unreadable';
  /** Masked by the gateway (`411111******1111`). */
  readonly card_number?: string;
  /** YYMM. */
  readonly expiry_date?: string;
  readonly card_brand?: string;
  readonly card_bin?: string;
}

/** The installments plan a payment was made with. */
export interface InstallmentsChoice {
  readonly number_of_installments?: number;
  readonly plan_code?: string;
  readonly issuer_code?: string;
}

/** What a shop needs of an issued cash bill to show it again or send it to the customer. */
export type IssuedBillDetails = Pick<BillResult, 'bill_number' | 'payment_partner' | 'request_expiry_date'>;
