/** Events of `<pg-bill-voucher>`; the request lifecycle events come from the shared foundation. */
import { PgEvent } from '../shared/events.ts';

/** What a page needs to show a bill again later (order history, e-mail landing page). */
export interface IssuedBill {
  readonly merchantReference: string;
  /** Exactly as issued: digits only, no grouping. */
  readonly billNumber: string;
  /** Minor units of EGP; undefined only for a stored bill given without `amount`. */
  readonly amount: number | undefined;
  readonly currency: 'EGP';
  readonly paymentPartner: string;
  /** `request_expiry_date` as issued: ISO 8601 with an offset. */
  readonly expires: string;
}

/**
 * The endpoint issued a bill, or showed again the one it issued for this order (asked from another
 * tab or device: the same number). Store `bill`, keyed by its number, to show it again later with
 * the `bill-number`, `expires`, `amount` and `payment-partner` attributes.
 */
export class PgBillIssueEvent extends PgEvent {
  static readonly eventName = 'pg-bill-issue';
  constructor(readonly bill: IssuedBill) {
    super(PgBillIssueEvent.eventName);
  }
}

/**
 * The bill on screen expired unpaid: its expiry passed while it was shown, or it was shown again
 * after its expiry (a reload), and the endpoint's status of the order shows no payment of it. The
 * hold on the order is cancelled. `orderPaid`: the order was since paid another way.
 */
export class PgBillExpireEvent extends PgEvent {
  static readonly eventName = 'pg-bill-expire';
  constructor(
    readonly billNumber: string,
    /** The order was paid another way after the bill expired (a card, under its next attempt): nothing is due. */
    readonly orderPaid = false,
  ) {
    super(PgBillExpireEvent.eventName);
  }
}

/**
 * The bill on screen has been paid: asked at its expiry, when the customer came back to the tab or
 * when the bill was shown again, the endpoint's status of the order shows the payment.
 */
export class PgBillPaidEvent extends PgEvent {
  static readonly eventName = 'pg-bill-paid';
  constructor(
    readonly billNumber: string,
    readonly merchantReference: string,
  ) {
    super(PgBillPaidEvent.eventName);
  }
}

/** The customer copied the bill number with the copy button. */
export class PgBillCopyEvent extends PgEvent {
  static readonly eventName = 'pg-bill-copy';
  constructor(readonly billNumber: string) {
    super(PgBillCopyEvent.eventName);
  }
}

/**
 * The customer asked for a new bill after the last one expired. Cancelable: call
 * `preventDefault()` to handle it entirely (for example, by sending the customer back to the
 * cart). A bill needs a merchant reference the gateway has not seen, so a merchant whose endpoint
 * does not make one itself passes the new order's reference, or a promise of it, to
 * `respondWith()`; the element then issues the bill for that order.
 */
export class PgBillReissueEvent extends PgEvent {
  static readonly eventName = 'pg-bill-reissue';
  #reference: Promise<string> | undefined;

  constructor(readonly expiredBillNumber: string) {
    super(PgBillReissueEvent.eventName, { cancelable: true });
  }

  /** The merchant reference to issue the new bill for (call during dispatch). */
  respondWith(merchantReference: string | Promise<string>): void {
    this.#reference = Promise.resolve(merchantReference);
  }

  /** What a listener passed to `respondWith()`, if any. */
  get newMerchantReference(): Promise<string> | undefined {
    return this.#reference;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-bill-issue': PgBillIssueEvent;
    'pg-bill-expire': PgBillExpireEvent;
    'pg-bill-paid': PgBillPaidEvent;
    'pg-bill-copy': PgBillCopyEvent;
    'pg-bill-reissue': PgBillReissueEvent;
  }
}
