/**
 * The body of `<pg-bill-voucher>`, loaded when the element first meets a document (see
 * shared/element-view.ts): the offer to issue a bill, the bill with its countdown, copy, print and
 * calendar, its expiry and reissue, and the session memory of an issued bill.
 */
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { formatMoney } from '../../core/amounts.ts';
import type { BillResult, OrderResult } from '../../core/endpoint-results.ts';
import { billCall, orderCall, statusCall } from '../../core/endpoint-routes.ts';
import { paymentAmountOf } from '../../core/order-status.ts';
import { VOUCHER_CURRENCY, voucherPartnerName } from '../../core/partners.ts';
import {
  billReminder,
  billReminderFileName,
  countdownDigits,
  formatExpiry,
  groupBillNumber,
  isBillNumber,
  parseExpiry,
  timeLeft,
} from '../../core/voucher.ts';
import { CountdownController } from '../shared/countdown.ts';
import { ElementView, viewState, type ElementKit, type ViewModule } from '../shared/element-view.ts';
import { renderFailure } from '../shared/pg-element.ts';
import { ltr, type Renderable } from '../shared/localize.ts';
import { forgetBill, recallBill, rememberBill } from './bill-memory.ts';
import { PgBillCopyEvent, PgBillExpireEvent, PgBillIssueEvent, PgBillPaidEvent, PgBillReissueEvent, type IssuedBill } from './events.ts';
import { billVoucherMessages, type BillVoucherMessages } from './messages.ts';
import type { PgBillVoucher } from './pg-bill-voucher.ts';
import { billVoucherStyles } from './styles.ts';

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
 * - `checking`: the expiry has passed; the endpoint is asked whether the bill was paid;
 * - `paid`: the endpoint's status of the order shows the payment;
 * - `expired`: the expiry passed unpaid: the hold is cancelled;
 * - `unconfirmed`: the expiry passed and the endpoint could not say whether the bill was paid;
 * - `failed`: the request failed; offers to try again;
 * - `currency-refused`: the order is not in EGP; nothing is requested;
 * - `unreadable`: the stored bill given as attributes is not valid.
 */
type Phase = 'idle' | 'issuing' | 'issued' | 'checking' | 'paid' | 'expired' | 'unconfirmed' | 'failed' | 'currency-refused' | 'unreadable';

/** The gateway's "bill expired" response code (src/core/response.ts). */
const BILL_EXPIRED_CODE = '31001';

/** A customer back on the tab is asked about at most this often: no polling, and no request per glance. */
const RECHECK_AFTER_MS = 30_000;

export class BillVoucherView extends ElementView<PgBillVoucher, BillVoucherMessages> {
  static {
    viewState(this, 'phase', 'bill', 'order', 'failure', 'now', 'copied');
  }

  private phase: Phase = 'idle';
  private bill: ShownBill | undefined;
  private order: OrderResult | undefined;
  private failure: { readonly message: string; readonly retry: boolean } | undefined;
  private now = 0;
  private copied = false;

  readonly #countdown = new CountdownController(this.host, {
    clock: () => this.host.clock,
    deadline: () => (this.bill && this.phase === 'issued' ? this.bill.expiresAt : undefined),
    tick: (now) => {
      this.now = now;
    },
    reached: () => this.#expire(),
  });
  #cancelCopied: (() => void) | undefined;
  #reminder: { key: string; href: string } | undefined;
  #autoIssued = false;
  /** The bill being issued is the page's doing (`auto-issue`), not the customer's. */
  #quiet = false;
  /** Set when a bill is issued or expires: the button the customer was on is gone with the old view. */
  #focusTitle = false;
  /** The order is read once per merchant reference. */
  #orderRead = false;
  /** The clock's time of the last question about the bill's payment. */
  #askedAt = -Infinity;
  /** The answer moves focus to the bill's title (if focus fell with the old view): not for a bill shown again on load. */
  #focusOnAnswer = false;
  /** The bill that expired unpaid while the order was paid another way (a card under its next attempt). */
  #paidElsewhere: ShownBill | undefined;

  /** The bill on screen, as a page would store it (the element's `issuedBill`). */
  get issuedBill(): IssuedBill | undefined {
    const bill = this.bill;
    if (!bill) return undefined;
    return {
      merchantReference: this.host.merchantReference,
      billNumber: bill.billNumber,
      amount: bill.amount,
      currency: VOUCHER_CURRENCY,
      paymentPartner: bill.paymentPartner,
      expires: bill.expires,
    };
  }

  get #messages(): BillVoucherMessages {
    return this.kit.messages;
  }

  /** True when this element shows a bill given as attributes and never asks the endpoint for one. */
  get #stored(): boolean {
    return this.host.billNumber !== '';
  }

  /** The endpoint can say whether the bill was paid: it knows the order (a stored bill may name neither). */
  get #canAsk(): boolean {
    return this.host.endpoint !== '' && this.host.merchantReference !== '';
  }

  /** The order currency as far as the page or the endpoint told it. */
  get #knownCurrency(): string {
    return this.host.currency.trim().toUpperCase() || this.order?.currency || '';
  }

  get #currencyRefused(): boolean {
    const currency = this.#knownCurrency;
    return currency !== '' && currency !== VOUCHER_CURRENCY;
  }

  // ---- Lifecycle ----

  override connected(): void {
    document.addEventListener('visibilitychange', this.#onVisibilityChange);
    // A question aborted by leaving the page is asked again on return.
    if (this.phase === 'checking') void this.#check();
  }

  override disconnected(): void {
    this.#cancelCopied?.();
    document.removeEventListener('visibilitychange', this.#onVisibilityChange);
    // A request aborted by leaving the page is asked for again on return.
    if (this.phase === 'issuing') this.phase = 'idle';
  }

  override willUpdate(changed: PropertyValues): void {
    if (changed.has('clock')) this.now = this.host.clock.now();
    if (changed.has('billNumber') || changed.has('expires') || changed.has('amount') || changed.has('paymentPartner')) {
      if (this.#stored) this.#showStoredBill();
    }
    if ((changed.has('merchantReference') || changed.has('billNumber')) && !this.#stored) this.#resumeFromSession();
    if (changed.has('currency') || changed.has('order')) {
      if (this.#currencyRefused && (this.phase === 'idle' || this.phase === 'failed')) this.phase = 'currency-refused';
      else if (!this.#currencyRefused && this.phase === 'currency-refused') this.phase = 'idle';
    }
    if (this.phase === 'idle' && !this.#stored && this.host.endpoint && this.host.merchantReference) {
      if (!this.#orderRead && !this.host.currency) void this.#loadOrder();
      if (this.host.autoIssue && !this.#autoIssued) {
        // Issued as the page loads, not by the customer: focus (and the page's scroll) stays put.
        this.#autoIssued = this.#quiet = true;
        void this.issue().finally(() => (this.#quiet = false));
      }
    }
    this.kit.setCustomState('expired', this.phase === 'expired');
    this.kit.setCustomState('paid', this.phase === 'paid');
  }

  override updated(changed: PropertyValues): void {
    if (changed.has('clock') || changed.has('bill') || changed.has('phase')) this.#countdown.schedule();
    // Focus fell to <body> with that button; focus elsewhere on the page is left alone.
    if (this.#focusTitle && document.activeElement === document.body) this.host.renderRoot.querySelector<HTMLElement>('#bill-title')?.focus();
    this.#focusTitle = false;
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
      this.kit.announce(this.#messages.currencyRefused(ltr(this.#knownCurrency)), 'error');
      return;
    }
    this.phase = 'issuing';
    this.failure = undefined;
    this.kit.announce(this.#messages.issuing);
    const currency = this.host.currency.trim().toUpperCase();
    const outcome = await this.kit.endpointRequests.request(billCall, {
      merchant_reference: this.host.merchantReference,
      language: this.host.language,
      ...(currency ? { currency } : {}),
      ...(currency && this.host.amount !== undefined ? { amount: this.host.amount } : {}),
      ...(this.host.customerName ? { customer_name: this.host.customerName } : {}),
      ...(this.host.customerEmail ? { customer_email: this.host.customerEmail } : {}),
    });
    switch (outcome.status) {
      case 'success':
        this.#showIssuedBill(outcome.value);
        return;
      case 'cancelled':
      case 'aborted':
        this.phase = 'idle';
        this.kit.clearStatus();
        return;
      case 'error': {
        const { error } = outcome;
        if (error.code === 'currency_not_supported') {
          this.phase = 'currency-refused';
          this.kit.announce(this.#messages.currencyRefused(ltr(this.#knownCurrency || '—')), 'error');
        } else {
          // Asking again for a bill the gateway calls expired cannot help.
          const expired = error.responseCode === BILL_EXPIRED_CODE;
          const message = expired ? this.#messages.billRefusedExpired : outcome.message;
          this.phase = 'failed';
          this.failure = { message, retry: !expired };
          this.kit.announce(message, 'error');
        }
      }
    }
  }

  /** Copies the bill number, exactly as issued, and announces it. */
  async copyBillNumber(): Promise<boolean> {
    const bill = this.bill;
    if (!bill) return false;
    const copied = await copyText(bill.billNumber, this.host.renderRoot);
    if (copied) {
      this.copied = true;
      this.#cancelCopied?.();
      this.#cancelCopied = this.host.clock.schedule(() => (this.copied = false), 3000);
      this.kit.announce(this.#messages.copyDone, 'success');
      this.host.dispatchEvent(new PgBillCopyEvent(bill.billNumber));
    } else {
      this.#selectBillNumber();
      this.kit.announce(this.#messages.copyFailed, 'error');
    }
    return copied;
  }

  // ---- State changes ----

  #showStoredBill(): void {
    const expiresAt = parseExpiry(this.host.expires);
    if (!isBillNumber(this.host.billNumber) || expiresAt === undefined) {
      this.bill = undefined;
      this.phase = 'unreadable';
      return;
    }
    this.bill = {
      billNumber: this.host.billNumber,
      amount: this.host.amount,
      paymentPartner: this.host.paymentPartner,
      expires: this.host.expires,
      expiresAt,
    };
    this.#showAgain(expiresAt);
  }

  #resumeFromSession(): void {
    const remembered = recallBill(this.host.merchantReference);
    const expiresAt = remembered ? parseExpiry(remembered.request_expiry_date) : undefined;
    this.order = undefined;
    this.#orderRead = false;
    if (!remembered || expiresAt === undefined) {
      this.bill = undefined;
      this.phase = this.#currencyRefused ? 'currency-refused' : 'idle';
      return;
    }
    this.bill = fromResult(remembered, expiresAt);
    this.#showAgain(expiresAt);
  }

  /**
   * A bill shown again, from this session's memory (a reload) or the page's attributes: it may have
   * been paid meanwhile, so the endpoint is asked once, and one past its expiry says nothing before
   * the answer. Without an endpoint and order to ask, it is shown as the clock says.
   */
  #showAgain(expiresAt: number): void {
    this.now = this.host.clock.now();
    const due = this.now >= expiresAt;
    this.#focusOnAnswer = false;
    this.phase = !due ? 'issued' : this.#canAsk ? 'checking' : 'expired';
    if (this.#canAsk) void this.#check();
  }

  #showIssuedBill(result: BillResult): void {
    const expiresAt = parseExpiry(result.request_expiry_date);
    if (expiresAt === undefined) {
      this.phase = 'failed';
      this.failure = { message: this.#messages.errors.invalidResponse, retry: false };
      this.kit.announce(this.failure.message, 'error');
      return;
    }
    rememberBill(result);
    this.#focusTitle = !this.#quiet;
    this.bill = fromResult(result, expiresAt);
    this.now = this.host.clock.now();
    this.phase = this.now >= expiresAt ? 'expired' : 'issued';
    const expiry = formatExpiry(expiresAt, this.host.language, this.host.timeZone || undefined);
    this.kit.announce(this.#messages.issued(groupBillNumber(result.bill_number).join(' '), expiry), 'success');
    const issued = this.issuedBill;
    if (issued) this.host.dispatchEvent(new PgBillIssueEvent(issued));
  }

  async #loadOrder(): Promise<void> {
    this.#orderRead = true;
    const outcome = await this.kit.endpointRequests.request(orderCall, {
      merchant_reference: this.host.merchantReference,
      language: this.host.language,
    });
    // Without the order the customer can still ask for the bill; the endpoint checks the currency.
    if (outcome.status === 'success') this.order = outcome.value;
  }

  async #reissue(): Promise<void> {
    const expired = this.bill;
    const event = new PgBillReissueEvent(expired?.billNumber ?? '');
    if (!this.host.dispatchEvent(event)) return;
    // The expired bill is forgotten under its own order's reference, whichever order is issued next.
    const expiredReference = this.host.merchantReference;
    const reference = event.newMerchantReference;
    if (reference) {
      try {
        this.host.merchantReference = await reference;
      } catch {
        this.kit.announce(this.#messages.errors.refused, 'error');
        return;
      }
    }
    forgetBill(expiredReference);
    this.host.billNumber = '';
    this.bill = undefined;
    this.phase = 'idle';
    await this.host.updateComplete;
    await this.issue();
  }

  /** The countdown reached the expiry: the bill is called expired only once the endpoint shows it unpaid. */
  #expire(): void {
    const bill = this.bill;
    if (!bill) return;
    if (this.#canAsk) return this.#ask(true);
    this.#focusOnAnswer = true;
    this.#showExpired(bill);
  }

  /** Back on the tab while the bill waits (or its payment is unconfirmed): a customer who paid meanwhile sees it. */
  readonly #onVisibilityChange = (): void => {
    const waiting = this.phase === 'issued' || this.phase === 'unconfirmed';
    if (document.visibilityState !== 'visible' || !waiting || !this.#canAsk) return;
    if (this.host.clock.now() - this.#askedAt >= RECHECK_AFTER_MS) this.#ask(this.phase === 'unconfirmed');
  };

  /** Asks while the customer looks (the answer may take focus); `due`: the expiry has passed, nothing is said before the answer. */
  #ask(due: boolean): void {
    this.#focusOnAnswer = true;
    if (due) this.phase = 'checking';
    void this.#check();
  }

  /**
   * Asks the endpoint for the order's status (CHECK_STATUS) and says paid when it shows the money.
   * Nothing else changes before the expiry; a question asked once it has passed (`checking`) finds
   * the bill expired when the gateway shows no payment, and unconfirmed (never "expired unpaid")
   * when the endpoint could not be asked.
   */
  async #check(): Promise<void> {
    const bill = this.bill;
    if (!bill) return;
    const askedAt = (this.#askedAt = this.host.clock.now());
    const outcome = await this.kit.endpointRequests.request(statusCall, {
      merchant_reference: this.host.merchantReference,
      language: this.host.language,
    });
    // Another bill, or an answer already given by another question.
    if (this.bill !== bill || (this.phase !== 'issued' && this.phase !== 'checking')) return;
    if (outcome.status === 'success') {
      const { authorized_amount = 0, captured_amount = 0, payment_reference } = outcome.value;
      // The core's reading of CHECK_STATUS (orderStatusOf): where the amounts show money, the order is paid;
      // under another attempt (a card after the bill expired unpaid), not by this bill, which keeps the order's reference.
      if (paymentAmountOf({ authorized_amount, captured_amount }) !== undefined) {
        return payment_reference ? this.#showExpired(bill, true) : this.#showPaid(bill);
      }
    }
    // A question from before the expiry (the customer came back just before it) says nothing of it.
    if (this.phase !== 'checking' || askedAt < bill.expiresAt || outcome.status === 'aborted') return;
    // Unpaid; or a pg-request-start listener chose not to ask, as a page without an endpoint.
    if (outcome.status !== 'error') return this.#showExpired(bill);
    this.phase = 'unconfirmed';
    this.failure = { message: outcome.message, retry: true };
    this.kit.announce(this.#messages.unconfirmed, 'error');
  }

  #showPaid(bill: ShownBill): void {
    this.phase = 'paid';
    this.#focusTitle = this.#focusOnAnswer;
    this.kit.announce(this.#messages.paidTitle, 'success');
    this.host.dispatchEvent(new PgBillPaidEvent(bill.billNumber, this.host.merchantReference));
  }

  #showExpired(bill: ShownBill, orderPaid = false): void {
    this.phase = 'expired';
    this.#paidElsewhere = orderPaid ? bill : undefined;
    this.#focusTitle = this.#focusOnAnswer;
    this.kit.announce(orderPaid ? this.#messages.paidElsewhereTitle : this.#messages.expiredNow, orderPaid ? 'success' : 'error');
    this.host.dispatchEvent(new PgBillExpireEvent(bill.billNumber, orderPaid));
  }

  #selectBillNumber(): void {
    const number = this.host.renderRoot.querySelector('.bill-number');
    const selection = globalThis.getSelection?.();
    if (!number || !selection) return;
    const range = document.createRange();
    range.selectNodeContents(number);
    selection.removeAllRanges();
    selection.addRange(range);
  }

  // ---- Rendering ----

  render(): TemplateResult {
    return this.kit.renderFrame(this.#renderPhase());
  }

  #renderPhase(): unknown {
    switch (this.phase) {
      case 'idle':
      case 'issuing':
        return this.#renderOffer();
      case 'issued':
      case 'checking':
        return this.#renderBill();
      case 'paid':
        return this.#renderPaid();
      case 'expired':
        return this.#renderExpired();
      case 'unconfirmed':
        return this.#renderUnconfirmed();
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
    const amount = this.order?.amount ?? this.host.amount;
    return html`
      <div class="bill offer" part="bill">
        <p class="title" part="title">${m.title}</p>
        <p>${m.intro}</p>
        ${amount !== undefined && !this.#currencyRefused
          ? html`<p>${m.amount}: <span part="amount">${ltr(formatMoney(amount, VOUCHER_CURRENCY, this.host.language))}</span></p>`
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
    return renderFailure(this.failure?.message, this.#messages.retry, this.failure?.retry ? () => void this.issue() : undefined);
  }

  #renderBill(): TemplateResult {
    const bill = this.bill as ShownBill;
    const m = this.#messages;
    const expiry = this.#expiryText(bill);
    const named = this.host.partnerName || voucherPartnerName(bill.paymentPartner, this.host.language);
    const partner = named || bill.paymentPartner;
    // A name reads in the page's direction; a code is kept left to right.
    const shownPartner = named ? partner : ltr(partner);
    const amount =
      bill.amount === undefined ? undefined : ltr(formatMoney(bill.amount, VOUCHER_CURRENCY, this.host.language));
    const left = timeLeft(bill.expiresAt, this.now);
    return html`
      <section class="bill" part="bill" aria-labelledby="bill-title">
        <p class="title" part="title" id="bill-title" tabindex="-1">${m.title}</p>
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
                <dd part="partner">${shownPartner}</dd>
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
                ${this.phase === 'checking' ? m.checking : m.countdown(left, ltr(countdownDigits(left, this.host.language)))}
              </span>
            </dd>
          </div>
        </dl>
        <p class="instructions-title" id="instructions-title">${m.instructionsTitle}</p>
        <ol class="instructions" part="instructions" aria-labelledby="instructions-title">
          ${m
            .instructions(partner ? shownPartner : m.anyPartner, amount, expiry)
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
          <button type="button" class="print" part="print" @click=${() => this.host.printBill()}>${m.print}</button>
        </div>
      </section>
    `;
  }

  #renderBillNumber(billNumber: string, inline = false): TemplateResult {
    const groups = groupBillNumber(billNumber);
    return html`<bdi dir="ltr" class="ltr bill-number ${inline ? 'inline' : ''}" part="bill-number"
      ><span aria-hidden="true">${groups.map((group) => html`<span class="group">${group}</span>`)}</span
      ><span class="visually-hidden spoken">${this.#messages.billNumberSpoken(groups)}</span></bdi
    >`;
  }

  /** The bill once its outcome is known (`paid`, `expired`) or unconfirmed: a title, a sentence naming the bill, and what can be done. */
  #renderNotice(kind: string, title: string, body: Renderable, actions: unknown = nothing): TemplateResult {
    return html`
      <section class="bill ${kind}" part="bill ${kind}" aria-labelledby="bill-title">
        <p class="title" part="title" id="bill-title" tabindex="-1">${title}</p>
        <p>${body}</p>
        ${actions}
      </section>
    `;
  }

  #renderPaid(): TemplateResult {
    const bill = this.bill as ShownBill;
    const m = this.#messages;
    return this.#renderNotice('paid', m.paidTitle, m.paidBody(this.#renderBillNumber(bill.billNumber, true)));
  }

  #renderUnconfirmed(): TemplateResult {
    const m = this.#messages;
    const retry = renderFailure(this.failure?.message, m.retry, () => this.#ask(true));
    return this.#renderNotice('unconfirmed', m.unconfirmedTitle, m.unconfirmed, retry);
  }

  #renderExpired(): TemplateResult {
    const bill = this.bill as ShownBill;
    const m = this.#messages;
    if (this.#paidElsewhere === bill) return this.#renderNotice('order-paid', m.paidElsewhereTitle, m.paidElsewhereBody(this.#renderBillNumber(bill.billNumber, true)));
    const canReissue = this.host.allowReissue && this.#canAsk;
    const reissuing = this.kit.endpointRequests.isPending('bill');
    return this.#renderNotice(
      'expired',
      m.expiredTitle,
      m.expiredBody(this.#renderBillNumber(bill.billNumber, true), this.#expiryText(bill)),
      canReissue
        ? html`<button
            type="button"
            class="Pay reissue"
            part="reissue Pay"
            aria-disabled=${reissuing ? 'true' : 'false'}
            @click=${() => void (reissuing || this.#reissue())}
          >
            ${reissuing ? m.issuing : m.reissue}
          </button>`
        : nothing,
    );
  }

  #expiryText(bill: ShownBill): string {
    return formatExpiry(bill.expiresAt, this.host.language, this.host.timeZone || undefined);
  }

  /** The `.ics` reminder as a data URL, rebuilt only when the bill or the language changes. */
  #reminderHref(bill: ShownBill, partner: string, expiry: string): string {
    const key = `${bill.billNumber}|${bill.expiresAt}|${this.host.language}|${partner}|${expiry}`;
    if (this.#reminder?.key === key) return this.#reminder.href;
    const m = this.#messages;
    const grouped = groupBillNumber(bill.billNumber).join(' ');
    const amount = bill.amount === undefined ? undefined : formatMoney(bill.amount, VOUCHER_CURRENCY, this.host.language);
    const text = billReminder({
      billNumber: bill.billNumber,
      expiresAt: bill.expiresAt,
      now: this.host.clock.now(),
      summary: m.reminderSummary(grouped, partner || m.anyPartner),
      description: m.reminderDescription(bill.billNumber, amount, partner || m.anyPartner, expiry),
      language: this.host.language,
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

/** What the element loads: its view, styles and catalogs. */
export const billVoucherView: ViewModule<PgBillVoucher, BillVoucherMessages> = {
  catalogs: billVoucherMessages,
  styles: billVoucherStyles,
  create: (host: PgBillVoucher, kit: ElementKit<BillVoucherMessages>) => new BillVoucherView(host, kit),
};
