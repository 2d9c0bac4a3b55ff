import type { Language } from '../../core/language.ts';
import { systemClock, type Clock } from '../../core/clock.ts';
import { LazyPgElement, type ViewModule } from '../shared/element-view.ts';
import type { ElementProperties } from '../shared/property.ts';
import { amountReader, clockReader, flagReader, propertyReader, textReader } from '../shared/property-readers.ts';
import type { BillVoucherView } from './bill-voucher-view.ts';
import type { IssuedBill } from './events.ts';
import type { BillVoucherMessages } from './messages.ts';


/**
 * `expires`: the gateway's text as given, or a `Date` written in ISO 8601 (UTC). An invalid Date
 * keeps its text ("Invalid Date"), which reads as an unreadable stored bill, as that attribute would.
 */
const expiryReader = propertyReader((value): string =>
  value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value == null ? '' : String(value),
);

/**
 * A cash (voucher) bill (spec, "Cash (voucher) payments" and "Cash bill"): asks the merchant
 * endpoint to issue the bill for the order (BILL_PRESENTMENT, EGP only), then shows the bill
 * number (grouped for reading, copied exactly as issued), the amount, the payment partner, how
 * to pay, and the expiry as a date and a live countdown. At the expiry it asks the endpoint the
 * order's status before saying anything: paid, it says so; unpaid, it says the hold is cancelled
 * and, with `allow-reissue`, offers a new bill; when the endpoint cannot say, that the payment is
 * not confirmed yet, with a retry. It also asks when the customer comes back to the tab (at most
 * every 30 s) and when it shows a bill again, so a bill paid at the counter reads paid.
 *
 * Given `bill-number` and `expires` (and optionally `amount` and `payment-partner`), it shows a
 * stored bill without issuing one: order-history and e-mail landing pages use this (given
 * `endpoint` and `merchant-reference` too, it asks the order's status as above).
 * Printing the page prints a plain bill slip; the calendar link downloads an `.ics` reminder.
 *
 * @tagname pg-bill-voucher
 * @fires pg-bill-issue - The endpoint issued a bill; carries what is needed to show it again.
 * @fires pg-bill-expire - The bill on screen expired unpaid; the hold is cancelled.
 * @fires pg-bill-paid - The bill on screen has been paid (the endpoint's status of the order shows the payment); carries `billNumber` and `merchantReference`.
 * @fires pg-bill-copy - The customer copied the bill number.
 * @fires pg-bill-reissue - The customer asked for a new bill; cancelable, with `respondWith(reference)`.
 * @fires pg-request-start - Before every request to the merchant endpoint; cancelable.
 * @fires pg-request-success - A request succeeded.
 * @fires pg-request-error - A request failed.
 * @fires pg-request-complete - Last event of every started request.
 * @csspart bill - The bill: number, amount, partner, expiry, instructions and actions.
 * @csspart title - The heading line of the bill or of the offer to issue one.
 * @csspart bill-number - The bill number, in groups.
 * @csspart copy - The copy button.
 * @csspart amount - The amount in EGP.
 * @csspart partner - The payment partner.
 * @csspart expiry - The expiry date.
 * @csspart countdown - The live countdown to the expiry.
 * @csspart instructions - The list of steps to pay.
 * @csspart calendar - The link that downloads the calendar reminder.
 * @csspart print - The print button.
 * @csspart issue - The button that asks for a bill (also carries `Pay`).
 * @csspart Pay - The button that asks for a bill.
 * @csspart reissue - The button that asks for a new bill after expiry (`allow-reissue`).
 * @csspart expired - The bill once expired (also carries `bill`).
 * @csspart paid - The bill once paid (also carries `bill`).
 * @csspart unconfirmed - The bill past its expiry when the endpoint could not say whether it was paid (also carries `bill`).
 * @csspart failure - A failed request: its message and the "try again" button.
 * @csspart error - Error messages.
 * @csspart retry - The "try again" button.
 * @csspart frame - The element's outer container; carries `dir` and `lang`.
 * @csspart status - The polite live region.
 * @cssprop --pg-bill-background - Background of the bill (falls back to --pg-color-surface).
 * @cssprop --pg-bill-border-color - Border of the bill (falls back to --pg-color-outline).
 * @cssprop --pg-bill-number-font-family - Font of the bill number (a monospace by default).
 * @cssprop --pg-bill-number-font-size - Size of the bill number.
 * @cssstate pending - A request to the merchant endpoint is in flight.
 * @cssstate expired - The bill shown has expired unpaid.
 * @cssstate paid - The bill shown has been paid.
 */
export class PgBillVoucher extends LazyPgElement<BillVoucherMessages> {
  static override properties: ElementProperties = {
    currency: { converter: textReader },
    amount: { converter: amountReader },
    billNumber: { converter: textReader },
    expires: { converter: expiryReader },
    paymentPartner: { converter: textReader },
    partnerName: { converter: textReader },
    allowReissue: { converter: flagReader },
    autoIssue: { converter: flagReader },
    customerName: { converter: textReader },
    customerEmail: { converter: textReader },
    timeZone: { converter: textReader },
    clock: { attribute: false, converter: clockReader },
  };

  /**
   * The order currency, when the page knows it: anything but EGP is refused before any request.
   * Without it the element reads the order from the endpoint before offering a bill.
   */
  currency = '';

  /** The amount in minor units of EGP, for display before the bill (and for a stored bill). The endpoint's is authoritative. */
  amount: number | undefined;

  /** A stored bill's number, exactly as issued; shown without calling the endpoint. */
  billNumber = '';

  /** A stored bill's `request_expiry_date` (ISO 8601 with an offset); a `Date` is taken too, and read back in UTC. */
  expires = '';

  /** A stored bill's `payment_partner`. */
  paymentPartner = '';

  /** The partner's name as customers know it; when empty, the name known for the partner code, else the code. */
  partnerName = '';

  /** Offer a new bill once this one has expired. */
  allowReissue = false;

  /** Ask for the bill as soon as the element is shown, instead of waiting for the customer's click. */
  autoIssue = false;

  /** `customer_name` sent with the bill (optional). */
  customerName = '';

  /** `customer_email` sent with the bill (optional). */
  customerEmail = '';

  /** IANA time zone for the expiry date (for example `Africa/Cairo`); the viewer's zone when empty. */
  timeZone = '';

  /** Where the countdown reads the time; tests and demos pass `createManualClock()`. */
  clock: Clock = systemClock;

  protected declare view: BillVoucherView | undefined;

  /** The bill on screen, as a page would store it; undefined when none is shown. */
  get issuedBill(): IssuedBill | undefined {
    return this.view?.issuedBill;
  }

  /**
   * Asks the endpoint to issue the bill for the order. Refused without a request when the order is
   * not in EGP. Does nothing while a bill is shown or being issued.
   */
  async issue(): Promise<void> {
    await this.whenViewReady();
    return this.view?.issue();
  }

  /** Copies the bill number, exactly as issued, and announces it. */
  async copyBillNumber(): Promise<boolean> {
    await this.whenViewReady();
    return this.view?.copyBillNumber() ?? false;
  }

  /** Prints the page; the element's print stylesheet turns it into a bill slip. */
  printBill(): void {
    globalThis.print?.();
  }

  protected override async importView(language: Language): Promise<ViewModule<PgBillVoucher, BillVoucherMessages>> {
    // The Arabic catalog comes with the view, not after it.
    if (language === 'ar') import('./messages.ar.ts').catch(() => {});
    return (await import('./bill-voucher-view.ts')).billVoucherView;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pg-bill-voucher': PgBillVoucher;
  }
}
