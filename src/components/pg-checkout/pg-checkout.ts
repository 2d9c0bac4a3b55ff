import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { formatMoney } from '../../core/amounts.ts';
import { CUSTOMER_CANCEL_CODE } from '../../core/customer-outcome.ts';
import type { FormPostResult, OrderResult } from '../../core/endpoint-results.ts';
import { hostedPageCall, merchantPageCall, orderCall, saveCardCall } from '../../core/endpoint-routes.ts';
import { billMemoryKey } from '../pg-bill-voucher/bill-key.ts';
import type { PgBillExpireEvent } from '../pg-bill-voucher/events.ts';
import type { PgInstallments } from '../pg-installments/pg-installments.ts';
import type { PgPayInFullEvent } from '../pg-installments/events.ts';
import { CardFormController, cardFormStyles, renderCardFields } from '../shared/card-form.ts';
import { PgPaymentResultEvent, type PaymentResultDetails } from '../shared/events.ts';
import { LazyFramedFlow } from '../shared/framed-flow-loader.ts';
import { afterNextPaint } from '../shared/paint.ts';
import { postToGateway } from '../shared/gateway-form.ts';
import { live } from '../shared/live.ts';
import { ltr } from '../shared/localize.ts';
import { PgElement, renderFailure } from '../shared/pg-element.ts';
import type { ElementProperties } from '../shared/property.ts';
import { commandReader, flagReader, oneOfReader, propertyReader, textReader } from '../shared/property-readers.ts';
import { PgMethodChangeEvent, type PaymentMethod } from './events.ts';
import { FIRST_SCREEN, sameControl, typedInFirstScreen } from './first-screen.ts';
import { checkoutMessages, type CheckoutMessages } from './messages.ts';
import { checkoutStyles } from './styles.ts';

export type { PaymentMethod } from './events.ts';

/**
 * `redirect`: the hosted page; `merchant-page`: the card form here; `embedded`: the gateway's card
 * page in a frame here; `drop-in`: several methods.
 */
export type CheckoutMode = 'redirect' | 'merchant-page' | 'embedded' | 'drop-in';

/** How the drop-in takes cards (and installments). */
export type CardMode = 'redirect' | 'merchant-page' | 'embedded';

/** `pay` the order, or `save-card`: keep the card for later payments, charging nothing now. */
export type CheckoutIntent = 'pay' | 'save-card';

/** Where the card is typed: the hosted page (top level), the element's form, or the gateway's page in a frame. */
type CardFlow = 'hosted-page' | 'merchant-page' | 'embedded';

/** Every method a drop-in can offer, in display order. */
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['card', 'installments', 'voucher', 'financing'];

/**
 * A card brand as the gateway names it (`card_brand`: `VISA`, `MASTERCARD`, `MADA`, `MEEZA`, `AMEX`),
 * as customers know it: `Visa`, `Mastercard`, `Mada`, `Meeza`, `American Express`.
 */
const brandName = (code = ''): string => (code === 'AMEX' ? 'American Express' : code.charAt(0) + code.slice(1).toLowerCase());

function isPaymentMethod(value: string): value is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value);
}

/**
 * `methods`: the text `"card installments voucher"` (spaces or commas) or a list; order kept,
 * unknown names and repeats dropped, `card` when nothing is left.
 */
const methodsReader = propertyReader((value): PaymentMethod[] => {
  const names: unknown[] = typeof value === 'string' ? value.split(/[\s,]+/) : Array.isArray(value) ? value : [];
  const methods = names.filter((name): name is PaymentMethod => typeof name === 'string' && isPaymentMethod(name));
  return methods.length > 0 ? [...new Set(methods)] : ['card'];
});

/**
 * Checkout for one order of the merchant. `mode="redirect"` shows a Pay button that sends the
 * customer to the gateway's hosted page; `mode="merchant-page"` shows a card form whose card
 * fields are posted straight to the gateway (merchant page 2.0 tokenization) while only the other
 * fields are signed by the merchant endpoint; `mode="embedded"` shows the gateway's own card page
 * in a frame, so the card never touches the shop's page; `mode="drop-in"` offers the `methods`
 * the merchant enables (card, installments, cash voucher, consumer financing) and hosts the
 * element of each. Once a cash bill is issued for the order, the drop-in keeps it in view and offers
 * no other method until it expires unpaid (one bill per order: the endpoint refuses another payment
 * while it waits). The merchant page and the embedded page end in place: the outcome is shown
 * here, and a 3-D Secure check opens in a dialog; nothing navigates the page.
 * `intent="save-card"` saves a card for later (TOKENIZATION, nothing charged) in any card mode.
 *
 * @tagname pg-checkout
 * @fires pg-request-start - Before every request to the merchant endpoint (order, signed fields); cancelable: cancel it and nothing is sent or posted.
 * @fires pg-request-success - A request succeeded.
 * @fires pg-request-error - A request failed; the element shows the message and a retry.
 * @fires pg-request-complete - Last event of every started request.
 * @fires pg-payment-submit - The form is being posted to the gateway (flow and address only).
 * @fires pg-payment-result - A payment or card saving on this page ended (merchant page, embedded page): the verified outcome, or `cancelled` when the customer closed the 3-D Secure dialog. No card data, token or signature.
 * @fires pg-method-change - The customer chose another method in the drop-in.
 * @csspart frame - The element's outer container; carries `dir` and `lang`.
 * @csspart status - The polite live region.
 * @csspart methods - The drop-in's group of payment methods.
 * @csspart method - One payment method choice.
 * @csspart bill-note - Under the methods: the order waits for its cash bill, or the bill expired unpaid.
 * @csspart method-panel - The area of the chosen method.
 * @csspart credit-card-container - The card form; also carries `Visa` or `MasterCard`.
 * @csspart Visa - The card form and brand badge of a Visa card.
 * @csspart MasterCard - The card form and brand badge of a MasterCard card.
 * @csspart brand - The detected card brand.
 * @csspart floatl - The container of each input.
 * @csspart half1 - The expiry date field.
 * @csspart half2 - The security code field.
 * @csspart error - Error messages.
 * @csspart failure - A failed request's message and retry button.
 * @csspart retry - The "try again" button.
 * @csspart Pay - The Pay button.
 * @csspart payment-frame - The frame of the gateway's card page (embedded).
 * @csspart challenge - The 3-D Secure dialog.
 * @csspart challenge-frame - The bank's page inside the dialog.
 * @csspart close - The dialog's Close button.
 * @csspart consent - The "save this card" agreement (intent save-card).
 * @csspart outcome - The outcome shown in place at the end of a payment on this page.
 * @csspart see-order - The link to the merchant's result page for the order.
 * @cssprop --pg-pay-background - Background of the Pay button.
 * @cssprop --pg-pay-color - Text of the Pay button.
 * @cssprop --pg-card-border-color - Border of the card form.
 * @cssprop --pg-color-visa - Visa brand colour.
 * @cssprop --pg-color-mastercard - MasterCard brand colour.
 * @cssstate pending - A request to the merchant endpoint is in flight.
 */
export class PgCheckout extends PgElement<CheckoutMessages> {
  static override styles = [PgElement.styles, cardFormStyles, checkoutStyles];

  static override properties: ElementProperties = {
    mode: { converter: oneOfReader(['redirect', 'merchant-page', 'embedded', 'drop-in'], 'redirect') },
    intent: { converter: oneOfReader(['pay', 'save-card'], 'pay') },
    command: { converter: commandReader },
    methods: { converter: methodsReader },
    method: { reflect: true, converter: oneOfReader(PAYMENT_METHODS, undefined) },
    cardMode: { converter: oneOfReader(['redirect', 'merchant-page', 'embedded'], 'merchant-page') },
    customerEmail: { converter: textReader },
    plansView: { converter: oneOfReader(['dropdown', 'table'], 'dropdown') },
    hideRememberMe: { converter: flagReader },
    order: { state: true, attribute: false },
    paying: { state: true, attribute: false },
    failure: { state: true, attribute: false },
    outcome: { state: true, attribute: false },
    consent: { state: true, attribute: false },
    consentError: { state: true, attribute: false },
    billWaits: { state: true, attribute: false },
  };

  protected override catalogs = checkoutMessages;

  /** `redirect` (hosted page, default), `merchant-page` (card form), `embedded` (the gateway's page here) or `drop-in` (several methods). */
  mode: CheckoutMode = 'redirect';

  /** `pay` (default) the order, or `save-card`: keep the card for later payments, charging nothing now. */
  intent: CheckoutIntent = 'pay';

  /** The operation: `PURCHASE` (default) or `AUTHORIZATION` (hold the amount, capture later). */
  command: 'AUTHORIZATION' | 'PURCHASE' = 'PURCHASE';

  /** Drop-in only: the methods offered, from `card installments voucher financing` (text or a list). */
  methods: PaymentMethod[] = ['card'];

  /** Drop-in only: the chosen method (set it for the initial choice). */
  method: PaymentMethod | undefined;

  /** Drop-in only: how cards are taken, `merchant-page` (default), `embedded` or `redirect`. */
  cardMode: CardMode = 'merchant-page';

  /** Customer e-mail sent with a hosted-page request, when the order has none. */
  customerEmail = '';

  /** How the hosted `<pg-installments>` shows plans: `dropdown` (default) or `table`. */
  plansView: 'dropdown' | 'table' = 'dropdown';

  /** Hides the "remember this card" checkbox. */
  hideRememberMe = false;

  private order: OrderResult | undefined;
  private paying = false;
  private failure: { readonly message: string; readonly retry?: (() => void) | undefined } | undefined;
  /** The outcome of a payment on this page, shown in place of the form. */
  private outcome: PaymentResultDetails | undefined;
  /** intent save-card: the customer agreed to keep the card. */
  private consent = false;
  private consentError = false;
  /**
   * Drop-in: a cash bill for this order waits to be paid (true), expired unpaid (false) or was paid
   * (`paid`), as `<pg-bill-voucher>` tells (`pg-bill-issue`, `pg-bill-expire`, `pg-bill-paid`), or
   * this browser session remembers one (true until its voucher has asked the endpoint).
   */
  private billWaits: boolean | 'paid' | undefined;

  readonly #card = new CardFormController(this);

  /**
   * The frames of a payment that stays on this page, and the 3-D Secure dialog: their code loads
   * when the customer first works with the card form, or with the request that signs a form.
   */
  readonly #framed = new LazyFramedFlow(
    this,
    {
      onResult: (details) => this.#finish(details),
      onCancel: () => this.#cancelled(),
      onTimeout: () => {
        this.paying = false;
        this.#embeddedFor = undefined;
        this.#fail(this.#messages.framed.timeout, this.#retryPay);
      },
      // Focus leaves the gateway's page for the Pay button, which says what pressing it charges.
      onReady: () => this.#focusAfterUpdate('.Pay'),
    },
    (styles) => this.addStyles(styles),
  );

  /** What the embedded frame was loaded for (order, language, command, method): a change reloads it. */
  #embeddedFor: string | undefined;

  /**
   * The nodes of the server's first screen (first-screen.ts) while they are on screen; null once its
   * form went to the gateway: the page is leaving, and what it posts stays as it is. (The element's
   * own form, posted later, leaves it undefined.)
   */
  #firstScreen: ChildNode[] | null | undefined;

  /** Submits a form built for the gateway. Override to intercept the post (tests, analytics). */
  submitForm(form: HTMLFormElement): void {
    form.submit();
  }

  /** Focuses the first match of `selector` once the next render is done. */
  #focusAfterUpdate(selector: string): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(selector)?.focus());
  }

  get #messages(): CheckoutMessages {
    return this.messages;
  }

  /** The method on screen: always `card` outside the drop-in, and when only saving a card; the bill while one waits. */
  get #activeMethod(): PaymentMethod {
    if (this.mode !== 'drop-in' || this.intent === 'save-card') return 'card';
    if (this.billWaits) return 'voucher';
    return this.method && this.methods.includes(this.method) ? this.method : (this.methods[0] ?? 'card');
  }

  get #cardFlow(): CardFlow {
    const mode = this.mode === 'drop-in' ? this.cardMode : this.mode;
    return mode === 'redirect' ? 'hosted-page' : mode;
  }

  /**
   * The amount the Pay button names, sent with the requests that sign a card payment: the endpoint
   * refuses it when the order no longer costs it, and binds the charge to it.
   */
  get #shownAmount(): { amount: number; currency: string } | undefined {
    return this.order && { amount: this.order.amount, currency: this.order.currency };
  }

  /**
   * Whether the endpoint refused a payment because the order changed since its amount was shown
   * (`code`); if so the order loads again, so that the Pay button names what would be charged.
   */
  #orderChanged(code: string | undefined): boolean {
    const changed = code === 'amount_mismatch' || code === 'currency_mismatch';
    if (changed) void this.#loadOrder();
    return changed;
  }

  get #installments(): PgInstallments | null {
    return this.renderRoot.querySelector('pg-installments');
  }

  // ---- Lifecycle ----

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('pageshow', this.#onPageShow);
    // Back on the page after a disconnect aborted the order's load: load it again.
    if (this.hasUpdated && !this.order && !this.failure && !this.pending) void this.#loadOrder();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pageshow', this.#onPageShow);
    // The frames are gone with the page's attention: an embedded page loads afresh on return.
    this.#embeddedFor = undefined;
    this.paying = false;
  }

  protected override willUpdate(changed: PropertyValues): void {
    // Only the endpoint's answer about the order can make the security code optional (CVV suppression).
    if (changed.has('order')) this.#card.cvvOptional = this.order?.cvv_optional;
    // A card saved is no payment, nor a payment a saved card: asked for the other, its outcome goes.
    if (changed.get('intent') && this.outcome?.intent !== this.intent) this.outcome = undefined;
    if (changed.has('endpoint') || changed.has('merchantReference')) {
      this.outcome = undefined;
      this.billWaits = this.#rememberedBillWaits();
      void this.#loadOrder();
    }
    // The embedded page is the payment form: it loads as soon as the order is known, and again
    // when what it was signed for changes (another language, command or method).
    const embedded = this.#wantedEmbeddedFrame();
    if (embedded !== this.#embeddedFor) {
      this.#embeddedFor = embedded;
      if (embedded !== undefined) void this.#loadEmbedded();
      // A card readied for another order (or language, command, method) is dropped with its Pay button.
      else if (this.#framed.stage === 'embedded' || this.#framed.stage === 'ready') this.#framed.reset();
    }
  }

  // ---- Rendering ----

  /**
   * The server's first screen stays alone until this element can show its own card form with the
   * order's amount (or why the order cannot be paid): not a "Loading…" while the page's language
   * loads, nor a Pay button without the amount. Then what was typed there, and the focus, move here.
   */
  override render(): unknown {
    const root = this.renderRoot as ShadowRoot;
    if (!this.hasUpdated && root.querySelector(FIRST_SCREEN)) {
      this.#firstScreen = [...root.childNodes];
      root.addEventListener('submit', () => (this.#firstScreen &&= null), true);
      // Lit renders before the first node of a declarative root: after the server's, which leave, instead.
      this.renderOptions.renderBefore = null;
    }
    const nodes = this.#firstScreen;
    if (nodes !== undefined) {
      if (!nodes || this.loadState !== 'ready' || !(this.order || this.failure)) return nothing;
      const focused = root.activeElement;
      this.#card.restore(typedInFirstScreen(root));
      for (const node of nodes) node.remove();
      this.#firstScreen = undefined;
      if (focused) this.#focusAfterUpdate(sameControl(focused));
    }
    return super.render();
  }

  protected override renderContent(): TemplateResult {
    return this.renderFrame(
      this.outcome
        ? this.#renderOutcome(this.outcome)
        : html`
            ${this.mode === 'drop-in' && this.intent === 'pay' ? this.#renderMethods() : nothing}
            <div class="method-panel" part="method-panel">${this.#renderPanel()}</div>
            ${this.#framed.renderChallengeDialog(this.#messages.framed)}
          `,
    );
  }

  #renderMethods(): TemplateResult {
    const m = this.#messages;
    const active = this.#activeMethod;
    const bill = this.billWaits;
    const note = bill === true ? m.billWaiting : bill === false ? m.billExpired : undefined;
    return html`
      <fieldset class="methods" part="methods">
        <legend>${m.methodsLegend}</legend>
        <div class="method-list">
          ${this.methods.map(
            (method) => html`
              <label class="check method ${method === active ? 'selected' : bill ? 'muted' : ''}" part="method">
                <input
                  type="radio"
                  name="method"
                  value=${method}
                  .checked=${live(method === active)}
                  ?disabled=${bill && method !== 'voucher'}
                  aria-describedby=${note ? 'bill-note' : nothing}
                  @change=${this.#onMethodChange}
                />
                <span>${m.methods[method]}</span>
              </label>
            `,
          )}
        </div>
      </fieldset>
      ${note ? html`<p id="bill-note" class="note" part="bill-note">${note}</p>` : nothing}
    `;
  }

  #renderPanel(): unknown {
    if (this.intent === 'save-card') return this.#renderSaveCard();
    const method = this.#activeMethod;
    switch (method) {
      case 'card':
        return this.#cardFlow === 'embedded' ? this.#renderEmbedded() : this.#renderCardPayment(false);
      case 'installments':
        if (this.#cardFlow === 'embedded') return this.#renderEmbedded();
        return this.#cardFlow === 'merchant-page' ? this.#renderCardPayment(true) : this.#renderHostedInstallments();
      case 'voucher':
      case 'financing':
        return this.#renderMethodElement(method);
    }
  }

  /**
   * The gateway's own card page, in a frame here. Its button only takes the card; once the page
   * says the card is ready, this element's Pay button, naming the amount, charges it.
   */
  #renderEmbedded(): TemplateResult {
    const m = this.#messages;
    const { stage } = this.#framed;
    const waiting = stage === 'challenge' ? m.framed.processing : stage === 'idle' && !this.failure ? m.framed.loadingPage : undefined;
    const confirming = stage === 'ready' || stage === 'processing';
    return html`
      <p class="note muted">${m.embeddedNote}</p>
      ${waiting ? html`<p class="loading muted">${waiting}</p>` : nothing}
      ${this.#framed.renderPaymentFrame(m.framed)} ${this.#renderFailure()}
      ${confirming ? html`<form class="confirm" @submit=${this.#onSubmit}>${this.#renderPayButton()}</form>` : nothing}
    `;
  }

  /** Saving a card: the agreement, and the card where the card mode takes it. Nothing is charged. */
  #renderSaveCard(): TemplateResult {
    const m = this.#messages;
    const flow = this.#cardFlow;
    if (flow === 'embedded' && this.#framed.stage === 'embedded') {
      // Above the gateway's page, whose own button saves the card: nothing is charged.
      return html`<p class="note muted">${m.save.note}</p>
        ${this.#framed.renderPaymentFrame(m.framed)}`;
    }
    return html`
      <form class="pay-form" novalidate @submit=${this.#onSubmit} @focusin=${this.#onFormFocus}>
        <p class="note muted">${m.save.note}</p>
        ${flow === 'merchant-page' ? renderCardFields(this.#card, m.card, { rememberMe: false }) : nothing}
        <div class="check consent" part="consent">
          <input
            id="save-consent"
            type="checkbox"
            required
            .checked=${live(this.consent)}
            aria-invalid=${this.consentError ? 'true' : 'false'}
            aria-describedby=${this.consentError ? 'save-consent-error' : nothing}
            @change=${this.#onConsentChange}
          />
          <label for="save-consent">${m.save.consent}</label>
        </div>
        ${this.consentError ? html`<p id="save-consent-error" class="error" part="error">${m.save.consentRequired}</p>` : nothing}
        ${flow === 'merchant-page' ? this.#framed.renderPaymentFrame(m.framed) : nothing} ${this.#renderFailure()}
        ${this.#renderPayButton(flow === 'embedded' ? m.save.continue : m.save.button)}
      </form>
    `;
  }

  /** The outcome of a payment on this page, in place of the form, with the order's result page. */
  #renderOutcome(outcome: PaymentResultDetails): TemplateResult {
    const m = this.#messages;
    const saving = outcome.intent === 'save-card';
    // A success's title says it all: the gateway's own word for it ("Success") is not repeated.
    const success = outcome.outcome === 'success';
    const title = success
      ? saving
        ? m.outcome.saveSuccess
        : m.outcome.paySuccess
      : outcome.outcome === 'pending'
        ? saving
          ? m.outcome.savePending
          : m.outcome.payPending
        : saving
          ? m.outcome.saveFailure
          : m.outcome.payFailure;
    const card = outcome.card;
    const retry = outcome.outcome === 'failure' || outcome.outcome === 'cancelled';
    return html`
      <section class="outcome ${outcome.outcome}" part="outcome" tabindex="-1" aria-labelledby="outcome-title">
        <h3 id="outcome-title" class="outcome-title">${title}</h3>
        ${success ? nothing : html`<p class="outcome-message">${outcome.message}</p>`}
        ${outcome.outcome === 'failure' && !outcome.error && outcome.responseCode !== CUSTOMER_CANCEL_CODE ? html`<p>${m.outcome.failureHint}</p>` : nothing}
        ${outcome.installments ? html`<p>${m.outcome.installments(outcome.installments.months)}</p>` : nothing}
        ${card?.lastFour ? html`<p>${m.outcome.savedCard(brandName(card.brand), ltr(card.lastFour))}</p>` : nothing}
        ${outcome.resultUrl
          ? html`<p><a class="see-order" part="see-order" href=${outcome.resultUrl}>${m.outcome.seeOrder}</a></p>`
          : nothing}
        ${retry ? html`<button type="button" class="retry" part="retry" @click=${this.#onOutcomeRetry}>${m.retry}</button>` : nothing}
      </section>
    `;
  }

  /** The card payment: a Pay button (hosted page) or the card form, optionally with installments. */
  #renderCardPayment(withInstallments: boolean): TemplateResult {
    const m = this.#messages;
    const flow = withInstallments ? 'merchant-page' : this.#cardFlow;
    return html`
      <form class="pay-form" novalidate @submit=${this.#onSubmit} @focusin=${this.#onFormFocus}>
        ${flow === 'hosted-page'
          ? html`<p class="note muted">${m.redirectNote}</p>`
          : html`${renderCardFields(this.#card, m.card, { rememberMe: !this.hideRememberMe, disabled: this.paying })}
              <p class="note muted">${m.merchantPageNote}</p>`}
        ${withInstallments
          ? html`<pg-installments
              card-source="host"
              completion="none"
              required
              endpoint=${this.endpoint}
              merchant-reference=${this.merchantReference}
              order-token=${this.orderToken || nothing}
              language=${this.language}
              theme-href=${this.themeHref || nothing}
              plans-view=${this.plansView}
              command=${this.command}
              .cardPrefix=${this.#card.number.slice(0, 8)}
              @pg-pay-in-full=${this.#onInstallmentsPayInFull}
            ></pg-installments>`
          : nothing}
        ${flow === 'merchant-page' ? this.#framed.renderPaymentFrame(m.framed) : nothing} ${this.#renderFailure()}
        ${this.#renderPayButton()}
      </form>
    `;
  }

  /**
   * The Pay button, naming the order's amount: the merchant page's, and the embedded page's once
   * the card is ready (or, with `label`, the card saving's).
   */
  #renderPayButton(label?: string): TemplateResult {
    const m = this.#messages;
    return html`<button type="submit" class="Pay" part="Pay" aria-disabled=${this.paying ? 'true' : 'false'}>
      ${label ??
      (this.#framed.stage === 'processing'
        ? m.framed.processing
        : this.order
          ? m.payAmount(ltr(formatMoney(this.order.amount, this.order.currency, this.language)))
          : m.pay)}
    </button>`;
  }

  /** Installments through the hosted page: the stand-alone element completes the payment. */
  #renderHostedInstallments(): TemplateResult {
    return html`<pg-installments
      completion="hosted-page"
      endpoint=${this.endpoint}
      merchant-reference=${this.merchantReference}
      order-token=${this.orderToken || nothing}
      language=${this.language}
      theme-href=${this.themeHref || nothing}
      plans-view=${this.plansView}
      command=${this.command}
      .submitForm=${(form: HTMLFormElement) => this.submitForm(form)}
      @pg-pay-in-full=${this.#onInstallmentsPayInFull}
    ></pg-installments>`;
  }

  /** Cash voucher (`<pg-bill-voucher>`) and consumer financing (`<pg-financing-otp>`): their own elements, given this checkout's attributes. */
  #renderMethodElement(method: 'voucher' | 'financing'): TemplateResult {
    return method === 'voucher'
      ? html`<pg-bill-voucher
          @pg-bill-issue=${this.#onBill}
          @pg-bill-expire=${this.#onBill}
          @pg-bill-paid=${this.#onBill}
          endpoint=${this.endpoint}
          merchant-reference=${this.merchantReference}
          order-token=${this.orderToken || nothing}
          language=${this.language}
          theme-href=${this.themeHref || nothing}
        ></pg-bill-voucher>`
      : html`<pg-financing-otp
          endpoint=${this.endpoint}
          merchant-reference=${this.merchantReference}
          order-token=${this.orderToken || nothing}
          language=${this.language}
          theme-href=${this.themeHref || nothing}
        ></pg-financing-otp>`;
  }

  #renderFailure(): unknown {
    return this.failure ? renderFailure(this.failure.message, this.#messages.retry, this.failure.retry) : nothing;
  }

  // ---- Behaviour ----

  /**
   * Settles once the first render is on screen. The order's amount waits for it: formatting the
   * page's first amount loads the browser's number-formatting data (30–60 ms in a fresh tab,
   * measured), which would otherwise hold back the card form when the order answers quickly.
   */
  readonly #firstPaint = this.updateComplete.then(() => afterNextPaint());
  #orderLoads = 0;

  async #loadOrder(): Promise<void> {
    if (!this.endpoint || !this.merchantReference) return;
    const load = ++this.#orderLoads;
    this.order = undefined;
    const outcome = await this.endpointRequests.request(orderCall, {
      merchant_reference: this.merchantReference,
      language: this.language,
    });
    if (outcome.status === 'success') {
      await this.#firstPaint;
      if (load !== this.#orderLoads) return; // another order was asked for meanwhile
      this.order = outcome.value;
      if (this.failure?.retry === this.#retryOrder) this.failure = undefined;
    } else if (outcome.status === 'error') {
      this.#fail(outcome.message, this.#retryOrder);
    }
  }

  readonly #retryOrder = (): void => {
    this.failure = undefined;
    void this.#loadOrder();
  };

  readonly #onSubmit = (event: Event): void => {
    event.preventDefault();
    void (this.intent === 'save-card' ? this.#save() : this.#pay());
  };

  readonly #retryPay = (): void => {
    if (this.intent === 'save-card') void this.#save();
    else if (this.#cardFlow === 'embedded') void this.#loadEmbedded();
    else void this.#pay();
  };

  /** The key of the embedded frame this element should show now, or undefined for none. */
  #wantedEmbeddedFrame(): string | undefined {
    const method = this.#activeMethod;
    const wanted =
      this.intent === 'pay' &&
      this.#cardFlow === 'embedded' &&
      (method === 'card' || method === 'installments') &&
      this.order !== undefined &&
      this.outcome === undefined &&
      this.isConnected;
    return wanted ? [this.endpoint, this.merchantReference, this.language, this.command, method].join('\u0000') : undefined;
  }

  /** Asks the endpoint for the embedded page's signed form (installments: the gateway's page offers the plans) and posts it into the frame. */
  async #loadEmbedded(): Promise<void> {
    // A load in flight finishes first, then sees whether it is still the one wanted (below).
    if (this.paying) return;
    const loading = this.#embeddedFor;
    this.paying = true;
    this.failure = undefined;
    this.#framed.preload();
    const outcome = await this.endpointRequests.request(merchantPageCall, {
      merchant_reference: this.merchantReference,
      language: this.language,
      command: this.command,
      ...this.#shownAmount,
      framed: true,
      embedded: true,
      ...(this.#activeMethod === 'installments' ? { installments: 'STANDALONE' as const } : {}),
    });
    this.paying = false;
    // The language, command or method changed meanwhile: that form is stale; sign the wanted one.
    if (loading !== this.#embeddedFor) {
      if (this.#embeddedFor !== undefined) void this.#loadEmbedded();
      return;
    }
    if (outcome.status === 'success') {
      await this.#post('embedded', outcome.value);
      return;
    }
    if (outcome.status === 'error') {
      this.#failPayment(outcome);
    }
  }

  /** Saves the card: the agreement first, then the signed TOKENIZATION, posted where the card mode takes the card. */
  async #save(): Promise<void> {
    if (this.paying) return;
    const flow = this.#cardFlow;
    const checkCard = flow === 'merchant-page';
    if (checkCard) this.#card.touchAll();
    this.consentError = !this.consent;
    if (this.consentError || (checkCard && !this.#card.valid)) {
      await this.reportInvalidFields();
      return;
    }
    this.paying = true;
    this.failure = undefined;
    this.clearStatus();
    if (flow !== 'hosted-page') this.#framed.preload();
    const outcome = await this.endpointRequests.request(saveCardCall, {
      merchant_reference: this.merchantReference,
      language: this.language,
      framed: flow !== 'hosted-page',
    });
    if (outcome.status === 'success') {
      await this.#post(flow, outcome.value, checkCard ? { ...this.#card.gatewayFields(), remember_me: 'YES' } : {});
      return;
    }
    this.paying = false;
    if (outcome.status === 'error') {
      this.#failPayment(outcome);
    }
  }

  /**
   * Posts a signed form: to the whole page (hosted page), into the hidden frame (merchant page)
   * or the shown one (embedded). Only the hosted page leaves the page. When the frames' code
   * cannot be loaded, nothing is posted: the customer is told and may try again (signing anew).
   */
  async #post(flow: CardFlow, post: FormPostResult, extraFields: Readonly<Record<string, string>> = {}): Promise<void> {
    if (flow === 'hosted-page') {
      this.announce(this.#messages.redirecting);
      postToGateway(this, 'hosted-page', post);
      return;
    }
    this.announce(flow === 'embedded' ? this.#messages.framed.loadingPage : this.#messages.framed.processing);
    try {
      await this.#framed.post(flow, post, extraFields);
    } catch {
      this.paying = false;
      this.#fail(this.loadFailedMessage, this.#retryPay);
    }
  }

  /** A request to pay (or save) failed: its message, or, when the order changed, that its amount did. */
  #failPayment(outcome: { readonly error: { readonly code?: string | undefined }; readonly message: string }): void {
    const { code } = outcome.error;
    // Paid another way (another tab, a bill at the counter): paying again would only be refused again.
    this.#fail(this.#orderChanged(code) ? this.#messages.amountChanged : outcome.message, code === 'order_already_paid' ? undefined : this.#retryPay);
  }

  /** Shows `message`, with a way to try again (`retry`) when one can help, and tells it to the live region. */
  #fail(message: string, retry?: () => void): void {
    this.failure = { message, retry };
    this.announce(message, 'error');
  }

  /** The endpoint's verified outcome arrived from a frame: shown in place, and told as an event. */
  #finish(details: PaymentResultDetails): void {
    this.paying = false;
    this.#embeddedFor = undefined;
    this.#card.reset();
    this.#showOutcome(this.#orderChanged(details.error) ? { ...details, message: this.#messages.amountChanged } : details);
  }

  /** The customer closed the 3-D Secure dialog: the payment was not completed. */
  #cancelled(): void {
    this.paying = false;
    this.#embeddedFor = undefined;
    this.#showOutcome({
      intent: this.intent,
      outcome: 'cancelled',
      merchantReference: this.merchantReference,
      message: this.#messages.framed.cancelled,
    });
  }

  #showOutcome(outcome: PaymentResultDetails): void {
    this.outcome = outcome;
    this.failure = undefined;
    // The shown outcome takes focus once rendered.
    this.#focusAfterUpdate('.outcome');
    this.announce(outcome.message, outcome.outcome === 'success' ? 'success' : outcome.outcome === 'pending' ? 'info' : 'error');
    this.dispatchEvent(new PgPaymentResultEvent(outcome));
  }

  readonly #onOutcomeRetry = (): void => {
    this.outcome = undefined;
    this.consent = false;
    this.clearStatus();
    // The embedded page loads again by itself, and takes the focus once it is there; the card form waits for the customer.
    this.#focusFrame = this.#cardFlow === 'embedded';
    this.#focusAfterUpdate('#card-number, #save-consent, .Pay');
  };

  /** Whether the embedded page's frame, loading again, takes the focus once a render shows it. */
  #focusFrame = false;

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const frame = this.#focusFrame && this.renderRoot.querySelector<HTMLElement>('.payment-frame');
    if (!frame) return;
    this.#focusFrame = false;
    frame.focus();
  }

  /** The customer starts on the card form: the frames that will take the payment start loading. */
  readonly #onFormFocus = (): void => {
    if (this.#cardFlow !== 'hosted-page' || this.#activeMethod === 'installments') this.#framed.preload();
  };

  readonly #onConsentChange = (event: Event): void => {
    this.consent = (event.target as HTMLInputElement).checked;
    if (this.consent) this.consentError = false;
  };

  /** Validates, asks the endpoint for the signed fields and posts the form. A double press posts once. */
  async #pay(): Promise<void> {
    if (this.paying) return;
    const withInstallments = this.#activeMethod === 'installments';
    // The embedded page's card is ready (stage ready, the only time this button shows): this press charges it.
    if (this.#cardFlow === 'embedded') {
      this.paying = this.#framed.stage === 'ready';
      this.#framed.confirm();
      return;
    }
    const flow = withInstallments ? 'merchant-page' : this.#cardFlow;
    const installments = withInstallments ? this.#installments : null;
    if (flow === 'merchant-page') {
      this.#card.touchAll();
      if (!this.#card.valid) {
        await this.reportInvalidFields();
        return;
      }
      if (installments && !installments.checkValidity()) {
        installments.reportValidity();
        return;
      }
    }

    this.paying = true;
    this.failure = undefined;
    this.clearStatus();
    if (flow !== 'hosted-page') this.#framed.preload();
    const base = { merchant_reference: this.merchantReference, language: this.language, command: this.command, ...this.#shownAmount };
    const selection = installments?.selection;
    const outcome =
      flow === 'hosted-page'
        ? await this.endpointRequests.request(hostedPageCall, {
            ...base,
            ...(this.customerEmail ? { customer_email: this.customerEmail } : {}),
          })
        : await this.endpointRequests.request(merchantPageCall, {
            ...base,
            framed: true,
            ...(selection ? { plan_code: selection.planCode, issuer_code: selection.issuerCode } : {}),
          });

    if (outcome.status === 'success') {
      // Card fields join the signed ones here, in the browser: they never reach the merchant endpoint.
      await this.#post(flow, outcome.value, flow === 'merchant-page' ? this.#card.gatewayFields() : {});
      return;
    }
    this.paying = false;
    if (outcome.status === 'error') {
      this.#failPayment(outcome);
    }
  }

  #selectMethod(method: PaymentMethod): void {
    if (method === this.#activeMethod || this.#framed.stage === 'processing' || this.#framed.stage === 'challenge') return;
    this.method = method;
    this.failure = undefined;
    // What the live region said concerned the method left (the hosted element has its own region).
    this.clearStatus();
    this.dispatchEvent(new PgMethodChangeEvent(method));
  }

  readonly #onMethodChange = (event: Event): void => {
    const value = (event.target as HTMLInputElement).value;
    if (isPaymentMethod(value)) this.#selectMethod(value);
  };

  /** "Pay in full" in the installments panel: switch to the card method when the merchant offers it. */
  readonly #onInstallmentsPayInFull = (event: PgPayInFullEvent): void => {
    if (!this.methods.includes('card')) return;
    event.preventDefault();
    this.#selectMethod('card');
    this.announce(this.#messages.payInFullWithCard);
    this.#focusAfterUpdate('#card-number, .Pay');
  };

  /**
   * The hosted voucher issued the order's bill (the other methods wait for it), saw it paid, or the
   * order paid another way since it expired (they stay away, without the note that they return), or
   * saw it expire unpaid (they are offered again).
   */
  readonly #onBill = (event: Event): void => {
    this.billWaits = event.type === 'pg-bill-paid' || (event as PgBillExpireEvent).orderPaid ? 'paid' : event.type === 'pg-bill-issue';
    if (!this.billWaits) this.announce(this.#messages.billExpired);
  };

  /**
   * Whether this browser session issued a bill for the order (bill-memory.ts): it stays in view after
   * a reload, past its expiry too, until its voucher has asked the endpoint whether it was paid (a
   * bill paid at the counter must never read as expired unpaid); undefined when none is remembered.
   */
  #rememberedBillWaits(): true | undefined {
    try {
      return sessionStorage.getItem(billMemoryKey(this.merchantReference)) ? true : undefined;
    } catch {
      return undefined;
    }
  }

  /** Back from the gateway through the browser's back-forward cache: allow paying again. */
  readonly #onPageShow = (event: PageTransitionEvent): void => {
    if (event.persisted) this.paying = false;
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'pg-checkout': PgCheckout;
  }
}
