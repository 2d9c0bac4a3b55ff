import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { classMap } from 'lit/directives/class-map.js';
import { formatMoney } from '../../core/amounts.ts';
import { billCall, orderCall, type BillResult, type OrderResult } from '../../core/endpoint-results.ts';
import { VOUCHER_CURRENCY } from '../../core/partners.ts';
import {
  billReminder,
  billReminderFileName,
  countdownDigits,
  formatExpiry,
  groupBillNumber,
  isBillNumber,
  parseExpiry,
  systemClock,
  timeLeft,
  type Clock,
} from '../../core/voucher.ts';
import { ltr, messagesFor } from '../shared/localize.ts';
import { CountdownController } from '../shared/countdown.ts';
import { PgElement } from '../shared/pg-element.ts';
import { property } from '../shared/property.ts';
import { amountReader, clockReader, flagReader, propertyReader, textReader } from '../shared/property-readers.ts';
import {
  PgBillCopyEvent,
  PgBillExpireEvent,
  PgBillIssueEvent,
  PgBillReissueEvent,
  type IssuedBill,
} from './events.ts';
import { billVoucherMessages, type BillVoucherMessages } from './messages.ts';
import { billVoucherStyles } from './styles.ts';
import { forgetBill, recallBill, rememberBill } from './bill-memory.ts';

/** A bill as the element shows it, from the endpoint's answer, the session or the attributes. */
interface ShownBill {
  readonly billNumber: string;
  readonly amount: number | undefined;
  readonly paymentPartner: string;
  readonly expires: string;
  readonly expiresAt: number;
}

/**
 * - `idle`: no bill yet; offers to issue one;
 * - `issuing`: the endpoint is issuing it;
 * - `issued`: the bill is shown with its countdown;
 * - `expired`: the expiry passed unpaid: the hold is cancelled;
 * - `failed`: the request failed; offers to try again;
 * - `currency-refused`: the order is not in EGP; nothing is requested;
 * - `unreadable`: the stored bill given as attributes is not valid.
 */
type Phase = 'idle' | 'issuing' | 'issued' | 'expired' | 'failed' | 'currency-refused' | 'unreadable';

/**
 * `expires`: the gateway's text as given, or a `Date` written in ISO 8601 (UTC). An invalid Date
 * keeps its text ("Invalid Date"), which reads as an unreadable stored bill, as that attribute would.
 */
const expiryReader = propertyReader((value): string =>
  value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value == null ? '' : String(value),
);

/** The gateway's "bill expired" response code (src/core/response.ts). */
const BILL_EXPIRED_CODE = '31001';

/**
 * A cash (voucher) bill (spec, "Cash (voucher) payments" and "Cash bill"): asks the merchant
 * endpoint to issue the bill for the order (BILL_PRESENTMENT, EGP only), then shows the bill
 * number (grouped for reading, copied exactly as issued), the amount, the payment partner, how
 * to pay, and the expiry as a date and a live countdown. When the expiry passes unpaid it says
 * the hold is cancelled and, with `allow-reissue`, offers a new bill.
 *
 * Given `bill-number` and `expires` (and optionally `amount` and `payment-partner`), it shows a
 * stored bill without calling the endpoint: order-history and e-mail landing pages use this.
 * Printing the page prints a plain bill slip; the calendar link downloads an `.ics` reminder.
 *
 * @tagname pg-bill-voucher
 * @fires pg-bill-issue - The endpoint issued a bill; carries what is needed to show it again.
 * @fires pg-bill-expire - The bill on screen expired unpaid; the hold is cancelled.
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
 * @cssstate expired - The bill shown has expired.
 */
export class PgBillVoucher extends PgElement {
  static override styles = [PgElement.styles, billVoucherStyles];

  /**
   * The order currency, when the page knows it: anything but EGP is refused before any request.
   * Without it the element reads the order from the endpoint before offering a bill.
   */
  @property({ converter: textReader }) currency = '';

  /** The amount in minor units of EGP, for display before the bill (and for a stored bill). The endpoint's is authoritative. */
  @property({ converter: amountReader }) amount: number | undefined;

  /** A stored bill's number, exactly as issued; shown without calling the endpoint. */
  @property({ attribute: 'bill-number', converter: textReader }) billNumber = '';

  /** A stored bill's `request_expiry_date` (ISO 8601 with an offset); a `Date` is taken too, and read back in UTC. */
  @property({ converter: expiryReader }) expires = '';

  /** A stored bill's `payment_partner`. */
  @property({ attribute: 'payment-partner', converter: textReader }) paymentPartner = '';

  /** The partner's name as customers know it; the partner code is shown when empty. */
  @property({ attribute: 'partner-name', converter: textReader }) partnerName = '';

  /** Offer a new bill once this one has expired. */
  @property({ attribute: 'allow-reissue', converter: flagReader }) allowReissue = false;

  /** Ask for the bill as soon as the element is shown, instead of waiting for the customer's click. */
  @property({ attribute: 'auto-issue', converter: flagReader }) autoIssue = false;

  /** `customer_name` sent with the bill (optional). */
  @property({ attribute: 'customer-name', converter: textReader }) customerName = '';

  /** `customer_email` sent with the bill (optional). */
  @property({ attribute: 'customer-email', converter: textReader }) customerEmail = '';

  /** IANA time zone for the expiry date (for example `Africa/Cairo`); the viewer's zone when empty. */
  @property({ attribute: 'time-zone', converter: textReader }) timeZone = '';

  /** Where the countdown reads the time; tests and demos pass `createManualClock()`. */
  @property({ attribute: false, converter: clockReader }) clock: Clock = systemClock;

  @state() private phase: Phase = 'idle';
  @state() private bill: ShownBill | undefined;
  @state() private order: OrderResult | undefined;
  @state() private failure: { readonly message: string; readonly retry: boolean } | undefined;
  @state() private now = 0;
  @state() private copied = false;

  readonly #countdown = new CountdownController(this, {
    clock: () => this.clock,
    deadline: () => (this.bill && this.phase === 'issued' ? this.bill.expiresAt : undefined),
    tick: (now) => {
      this.now = now;
    },
    reached: () => this.#expire(),
  });
  #cancelCopied: (() => void) | undefined;
  #reminder: { key: string; href: string } | undefined;
  #autoIssued = false;
  /** The order is read once per merchant reference. */
  #orderRead = false;

  /** The bill on screen, as a page would store it; undefined when none is shown. */
  get issuedBill(): IssuedBill | undefined {
    const bill = this.bill;
    if (!bill) return undefined;
    return {
      merchantReference: this.merchantReference,
      billNumber: bill.billNumber,
      amount: bill.amount,
      currency: VOUCHER_CURRENCY,
      paymentPartner: bill.paymentPartner,
      expires: bill.expires,
    };
  }

  get #messages(): BillVoucherMessages {
    return messagesFor(billVoucherMessages, this.language);
  }

  /** True when this element shows a bill given as attributes and never asks the endpoint for one. */
  get #stored(): boolean {
    return this.billNumber !== '';
  }

  /** The order currency as far as the page or the endpoint told it. */
  get #knownCurrency(): string {
    return this.currency.trim().toUpperCase() || this.order?.currency || '';
  }

  get #currencyRefused(): boolean {
    const currency = this.#knownCurrency;
    return currency !== '' && currency !== VOUCHER_CURRENCY;
  }

  // ---- Lifecycle ----

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#cancelCopied?.();
    // A request aborted by leaving the page is asked for again on return.
    if (this.phase === 'issuing') this.phase = 'idle';
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('clock')) this.now = this.clock.now();
    if (changed.has('billNumber') || changed.has('expires') || changed.has('amount') || changed.has('paymentPartner')) {
      if (this.#stored) this.#showStoredBill();
    }
    if ((changed.has('merchantReference') || changed.has('billNumber')) && !this.#stored) this.#resumeFromSession();
    if (changed.has('currency') || changed.has('order')) {
      if (this.#currencyRefused && (this.phase === 'idle' || this.phase === 'failed')) this.phase = 'currency-refused';
      else if (!this.#currencyRefused && this.phase === 'currency-refused') this.phase = 'idle';
    }
    if (this.phase === 'idle' && !this.#stored && this.endpoint && this.merchantReference) {
      if (!this.#orderRead && !this.currency) void this.#loadOrder();
      if (this.autoIssue && !this.#autoIssued) {
        this.#autoIssued = true;
        void this.issue();
      }
    }
    this.setCustomState('expired', this.phase === 'expired');
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('clock') || changed.has('bill') || changed.has('phase')) this.#countdown.schedule();
  }

  // ---- Public actions ----

  /**
   * Asks the endpoint to issue the bill for the order. Refused without a request when the order is
   * not in EGP. Does nothing while a bill is shown or being issued.
   */
  async issue(): Promise<void> {
    if (this.#stored || (this.phase !== 'idle' && this.phase !== 'failed' && this.phase !== 'currency-refused')) return;
    if (this.#currencyRefused) {
      this.phase = 'currency-refused';
      this.announce(this.#messages.currencyRefused(ltr(this.#knownCurrency)), 'error');
      return;
    }
    this.phase = 'issuing';
    this.failure = undefined;
    this.announce(this.#messages.issuing);
    const currency = this.currency.trim().toUpperCase();
    const outcome = await this.endpointRequests.request(billCall, {
      merchant_reference: this.merchantReference,
      language: this.language,
      ...(currency ? { currency } : {}),
      ...(currency && this.amount !== undefined ? { amount: this.amount } : {}),
      ...(this.customerName ? { customer_name: this.customerName } : {}),
      ...(this.customerEmail ? { customer_email: this.customerEmail } : {}),
    });
    switch (outcome.status) {
      case 'success':
        this.#showIssuedBill(outcome.value);
        return;
      case 'cancelled':
      case 'aborted':
        this.phase = 'idle';
        this.clearStatus();
        return;
      case 'error': {
        const { error } = outcome;
        if (error.code === 'currency_not_supported') {
          this.phase = 'currency-refused';
          this.announce(this.#messages.currencyRefused(ltr(this.#knownCurrency || '—')), 'error');
        } else {
          // Asking again for a bill the gateway calls expired cannot help.
          const expired = error.responseCode === BILL_EXPIRED_CODE;
          const message = expired ? this.#messages.billRefusedExpired : outcome.message;
          this.phase = 'failed';
          this.failure = { message, retry: !expired };
          this.announce(message, 'error');
        }
      }
    }
  }

  /** Copies the bill number, exactly as issued, and announces it. */
  async copyBillNumber(): Promise<boolean> {
    const bill = this.bill;
    if (!bill) return false;
    const copied = await copyText(bill.billNumber, this.renderRoot);
    if (copied) {
      this.copied = true;
      this.#cancelCopied?.();
      this.#cancelCopied = this.clock.schedule(() => (this.copied = false), 3000);
      this.announce(this.#messages.copyDone, 'success');
      this.dispatchEvent(new PgBillCopyEvent(bill.billNumber));
    } else {
      this.#selectBillNumber();
      this.announce(this.#messages.copyFailed, 'error');
    }
    return copied;
  }

  // ---- State changes ----

  #showStoredBill(): void {
    const expiresAt = parseExpiry(this.expires);
    if (!isBillNumber(this.billNumber) || expiresAt === undefined) {
      this.bill = undefined;
      this.phase = 'unreadable';
      return;
    }
    this.bill = {
      billNumber: this.billNumber,
      amount: this.amount,
      paymentPartner: this.paymentPartner,
      expires: this.expires,
      expiresAt,
    };
    this.now = this.clock.now();
    this.phase = this.now >= expiresAt ? 'expired' : 'issued';
  }

  #resumeFromSession(): void {
    const remembered = recallBill(this.merchantReference);
    const expiresAt = remembered ? parseExpiry(remembered.request_expiry_date) : undefined;
    this.order = undefined;
    this.#orderRead = false;
    if (!remembered || expiresAt === undefined) {
      this.bill = undefined;
      this.phase = this.#currencyRefused ? 'currency-refused' : 'idle';
      return;
    }
    this.bill = fromResult(remembered, expiresAt);
    this.now = this.clock.now();
    this.phase = this.now >= expiresAt ? 'expired' : 'issued';
  }

  #showIssuedBill(result: BillResult): void {
    const expiresAt = parseExpiry(result.request_expiry_date);
    if (expiresAt === undefined) {
      this.phase = 'failed';
      this.failure = { message: this.#messages.errors.invalidResponse, retry: false };
      this.announce(this.failure.message, 'error');
      return;
    }
    rememberBill(result);
    this.bill = fromResult(result, expiresAt);
    this.now = this.clock.now();
    this.phase = this.now >= expiresAt ? 'expired' : 'issued';
    const expiry = formatExpiry(expiresAt, this.language, this.timeZone || undefined);
    this.announce(this.#messages.issued(groupBillNumber(result.bill_number).join(' '), expiry), 'success');
    const issued = this.issuedBill;
    if (issued) this.dispatchEvent(new PgBillIssueEvent(issued));
  }

  async #loadOrder(): Promise<void> {
    this.#orderRead = true;
    const outcome = await this.endpointRequests.request(orderCall, {
      merchant_reference: this.merchantReference,
      language: this.language,
    });
    // Without the order the customer can still ask for the bill; the endpoint checks the currency.
    if (outcome.status === 'success') this.order = outcome.value;
  }

  async #reissue(): Promise<void> {
    const expired = this.bill;
    const event = new PgBillReissueEvent(expired?.billNumber ?? '');
    if (!this.dispatchEvent(event)) return;
    const reference = event.newMerchantReference;
    if (reference) {
      try {
        this.merchantReference = await reference;
      } catch {
        this.announce(this.#messages.errors.refused, 'error');
        return;
      }
    }
    forgetBill(this.merchantReference);
    this.billNumber = '';
    this.bill = undefined;
    this.phase = 'idle';
    await this.updateComplete;
    await this.issue();
  }

  #expire(): void {
    const bill = this.bill;
    if (!bill) return;
    this.phase = 'expired';
    this.announce(this.#messages.expiredNow, 'error');
    this.dispatchEvent(new PgBillExpireEvent(bill.billNumber));
  }

  #selectBillNumber(): void {
    const number = this.renderRoot.querySelector('.bill-number');
    const selection = globalThis.getSelection?.();
    if (!number || !selection) return;
    const range = document.createRange();
    range.selectNodeContents(number);
    selection.removeAllRanges();
    selection.addRange(range);
  }

  // ---- Rendering ----

  override render(): TemplateResult {
    return this.renderFrame(this.#renderPhase());
  }

  #renderPhase(): unknown {
    switch (this.phase) {
      case 'idle':
      case 'issuing':
        return this.#renderOffer();
      case 'issued':
        return this.#renderBill();
      case 'expired':
        return this.#renderExpired();
      case 'failed':
        return this.#renderFailure();
      case 'currency-refused':
        return html`<p class="error" part="error">${this.#messages.currencyRefused(ltr(this.#knownCurrency))}</p>`;
      case 'unreadable':
        return html`<p class="error" part="error">${this.#messages.unreadable}</p>`;
    }
  }

  #renderOffer(): TemplateResult {
    const m = this.#messages;
    const issuing = this.phase === 'issuing';
    const amount = this.order?.amount ?? this.amount;
    return html`
      <div class="bill offer" part="bill">
        <p class="title" part="title">${m.title}</p>
        <p>${m.intro}</p>
        ${amount !== undefined && !this.#currencyRefused
          ? html`<p>${m.amount}: <span part="amount">${ltr(formatMoney(amount, VOUCHER_CURRENCY, this.language))}</span></p>`
          : nothing}
        <button
          type="button"
          class="Pay issue"
          part="issue Pay"
          aria-disabled=${issuing ? 'true' : 'false'}
          @click=${() => void this.issue()}
        >
          ${issuing ? m.issuing : m.issue}
        </button>
      </div>
    `;
  }

  #renderFailure(): TemplateResult {
    return html`
      <div class="failure" part="failure">
        <p class="error" part="error">${this.failure?.message}</p>
        ${this.failure?.retry
          ? html`<button type="button" class="retry" part="retry" @click=${() => void this.issue()}>
              ${this.#messages.retry}
            </button>`
          : nothing}
      </div>
    `;
  }

  #renderBill(): TemplateResult {
    const bill = this.bill as ShownBill;
    const m = this.#messages;
    const expiry = this.#expiryText(bill);
    const partner = this.partnerName || bill.paymentPartner;
    const amount =
      bill.amount === undefined ? undefined : ltr(formatMoney(bill.amount, VOUCHER_CURRENCY, this.language));
    const left = timeLeft(bill.expiresAt, this.now);
    return html`
      <section class="bill" part="bill" aria-labelledby="bill-title">
        <p class="title" part="title" id="bill-title">${m.title}</p>
        <dl class="details">
          <div class="row">
            <dt>${m.billNumber}</dt>
            <dd>
              ${this.#renderBillNumber(bill.billNumber)}
              <button type="button" class="copy" part="copy" @click=${() => void this.copyBillNumber()}>
                ${this.copied ? m.copied : m.copy}
              </button>
            </dd>
          </div>
          ${amount
            ? html`<div class="row">
                <dt>${m.amount}</dt>
                <dd part="amount">${amount}</dd>
              </div>`
            : nothing}
          ${partner
            ? html`<div class="row">
                <dt>${m.partner}</dt>
                <dd part="partner">${this.partnerName ? partner : ltr(partner)}</dd>
              </div>`
            : nothing}
          <div class="row">
            <dt>${m.payBefore}</dt>
            <dd><time part="expiry" datetime=${new Date(bill.expiresAt).toISOString()}>${expiry}</time></dd>
          </div>
          <div class="row time-left">
            <dt id="time-left-label">${m.timeLeft}</dt>
            <dd>
              <span class="countdown" part="countdown" role="timer" aria-labelledby="time-left-label">
                ${m.countdown(left, ltr(countdownDigits(left, this.language)))}
              </span>
            </dd>
          </div>
        </dl>
        <p class="instructions-title" id="instructions-title">${m.instructionsTitle}</p>
        <ol class="instructions" part="instructions" aria-labelledby="instructions-title">
          ${m
            .instructions(partner ? (this.partnerName ? partner : ltr(partner)) : m.anyPartner, amount, expiry)
            .map((step) => html`<li>${step}</li>`)}
        </ol>
        <div class="actions">
          <a
            class="calendar"
            part="calendar"
            href=${this.#reminderHref(bill, partner, expiry)}
            download=${billReminderFileName(bill.billNumber)}
            type="text/calendar"
          >${m.calendar}</a>
          <button type="button" class="print" part="print" @click=${() => this.printBill()}>${m.print}</button>
        </div>
      </section>
    `;
  }

  /** Prints the page; the element's print stylesheet turns it into a bill slip. */
  printBill(): void {
    globalThis.print?.();
  }

  #renderBillNumber(billNumber: string, inline = false): TemplateResult {
    const groups = groupBillNumber(billNumber);
    return html`<bdi dir="ltr" class=${classMap({ ltr: true, 'bill-number': true, inline })} part="bill-number"
      ><span aria-hidden="true">${groups.map((group) => html`<span class="group">${group}</span>`)}</span
      ><span class="visually-hidden spoken">${this.#messages.billNumberSpoken(groups)}</span></bdi
    >`;
  }

  #renderExpired(): TemplateResult {
    const bill = this.bill as ShownBill;
    const m = this.#messages;
    const canReissue = this.allowReissue && this.endpoint !== '' && this.merchantReference !== '';
    const reissuing = this.endpointRequests.isPending('bill');
    return html`
      <section class=${classMap({ bill: true, expired: true })} part="bill expired" aria-labelledby="bill-title">
        <p class="title" part="title" id="bill-title">${m.expiredTitle}</p>
        <p>${m.expiredBody(this.#renderBillNumber(bill.billNumber, true), this.#expiryText(bill))}</p>
        ${canReissue
          ? html`<button
              type="button"
              class="Pay reissue"
              part="reissue Pay"
              aria-disabled=${reissuing ? 'true' : 'false'}
              @click=${() => void (reissuing || this.#reissue())}
            >
              ${reissuing ? m.issuing : m.reissue}
            </button>`
          : nothing}
      </section>
    `;
  }

  #expiryText(bill: ShownBill): string {
    return formatExpiry(bill.expiresAt, this.language, this.timeZone || undefined);
  }

  /** The `.ics` reminder as a data URL, rebuilt only when the bill or the language changes. */
  #reminderHref(bill: ShownBill, partner: string, expiry: string): string {
    const key = `${bill.billNumber}|${bill.expiresAt}|${this.language}|${partner}|${expiry}`;
    if (this.#reminder?.key === key) return this.#reminder.href;
    const m = this.#messages;
    const grouped = groupBillNumber(bill.billNumber).join(' ');
    const amount = bill.amount === undefined ? undefined : formatMoney(bill.amount, VOUCHER_CURRENCY, this.language);
    const text = billReminder({
      billNumber: bill.billNumber,
      expiresAt: bill.expiresAt,
      now: this.clock.now(),
      summary: m.reminderSummary(grouped, partner || m.anyPartner),
      description: m.reminderDescription(bill.billNumber, amount, partner || m.anyPartner, expiry),
      language: this.language,
    });
    const href = `data:text/calendar;charset=utf-8,${encodeURIComponent(text)}`;
    this.#reminder = { key, href };
    return href;
  }
}

function fromResult(result: BillResult, expiresAt: number): ShownBill {
  return {
    billNumber: result.bill_number,
    amount: result.amount,
    paymentPartner: result.payment_partner,
    expires: result.request_expiry_date,
    expiresAt,
  };
}

/** The Clipboard API, else a copy command on a hidden field; false when neither is allowed. */
async function copyText(text: string, root: ParentNode & Node): Promise<boolean> {
  try {
    if (globalThis.navigator?.clipboard) {
      await globalThis.navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied (no user activation, or a permissions policy): try the older way.
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.className = 'visually-hidden';
  root.appendChild(field);
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    field.remove();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pg-bill-voucher': PgBillVoucher;
  }
}
