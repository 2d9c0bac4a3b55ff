import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { classMap } from 'lit/directives/class-map.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import { formatMoney } from '../../core/amounts.ts';
import type { OrderResult } from '../../core/endpoint-api.ts';
import type { PgInstallments } from '../pg-installments/pg-installments.ts';
import type { PgPayInFullEvent } from '../pg-installments/events.ts';
import { CardFormController, cardFormStyles, renderCardFields } from '../shared/card-form.ts';
import { postToGateway } from '../shared/gateway-form.ts';
import { ltr, messagesFor } from '../shared/localize.ts';
import { PgElement } from '../shared/pg-element.ts';
import { property } from '../shared/property.ts';
import { commandReader, flagReader, oneOfReader, propertyReader, textReader } from '../shared/property-readers.ts';
import { PgMethodChangeEvent, type PaymentMethod } from './events.ts';
import { checkoutMessages, type CheckoutMessages } from './messages.ts';
import { checkoutStyles } from './styles.ts';

export type { PaymentMethod } from './events.ts';

/** `redirect`: the hosted page; `merchant-page`: the card form here; `drop-in`: several methods. */
export type CheckoutMode = 'redirect' | 'merchant-page' | 'drop-in';

/** Every method a drop-in can offer, in display order. */
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['card', 'installments', 'voucher', 'financing'];

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

/** The element that hosts each method other than card. */
const METHOD_ELEMENTS = { voucher: 'pg-bill-voucher', financing: 'pg-financing-otp' } as const;

/**
 * Checkout for one order of the merchant. `mode="redirect"` shows a Pay button that sends the
 * customer to the gateway's hosted page; `mode="merchant-page"` shows a card form whose card
 * fields are posted straight to the gateway (merchant page 2.0 tokenization) while only the other
 * fields are signed by the merchant endpoint; `mode="drop-in"` offers the `methods` the merchant
 * enables (card, installments, cash voucher, consumer financing) and hosts the element of each.
 *
 * @tagname pg-checkout
 * @fires pg-request-start - Before every request to the merchant endpoint (order, signed fields); cancelable: cancel it and nothing is sent or posted.
 * @fires pg-request-success - A request succeeded.
 * @fires pg-request-error - A request failed; the element shows the message and a retry.
 * @fires pg-request-complete - Last event of every started request.
 * @fires pg-payment-submit - The form is being posted to the gateway (flow and address only).
 * @fires pg-method-change - The customer chose another method in the drop-in.
 * @csspart frame - The element's outer container; carries `dir` and `lang`.
 * @csspart status - The polite live region.
 * @csspart methods - The drop-in's group of payment methods.
 * @csspart method - One payment method choice.
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
 * @cssprop --pg-pay-background - Background of the Pay button.
 * @cssprop --pg-pay-color - Text of the Pay button.
 * @cssprop --pg-card-border-color - Border of the card form.
 * @cssprop --pg-color-visa - Visa brand colour.
 * @cssprop --pg-color-mastercard - MasterCard brand colour.
 * @cssstate pending - A request to the merchant endpoint is in flight.
 */
export class PgCheckout extends PgElement {
  static override styles = [PgElement.styles, cardFormStyles, checkoutStyles];

  /** `redirect` (hosted page, default), `merchant-page` (card form) or `drop-in` (several methods). */
  @property({ converter: oneOfReader(['redirect', 'merchant-page', 'drop-in'], 'redirect') }) mode: CheckoutMode = 'redirect';

  /** The operation: `PURCHASE` (default) or `AUTHORIZATION` (hold the amount, capture later). */
  @property({ converter: commandReader }) command: 'AUTHORIZATION' | 'PURCHASE' = 'PURCHASE';

  /** Drop-in only: the methods offered, from `card installments voucher financing` (text or a list). */
  @property({ converter: methodsReader }) methods: PaymentMethod[] = ['card'];

  /** Drop-in only: the chosen method (set it for the initial choice). */
  @property({ reflect: true, converter: oneOfReader(PAYMENT_METHODS, undefined) }) method: PaymentMethod | undefined;

  /** Drop-in only: how cards are taken, `merchant-page` (default) or `redirect`. */
  @property({ attribute: 'card-mode', converter: oneOfReader(['redirect', 'merchant-page'], 'merchant-page') })
  cardMode: 'redirect' | 'merchant-page' = 'merchant-page';

  /** Customer e-mail sent with a hosted-page request, when the order has none. */
  @property({ attribute: 'customer-email', converter: textReader }) customerEmail = '';

  /** How the hosted `<pg-installments>` shows plans: `dropdown` (default) or `table`. */
  @property({ attribute: 'plans-view', converter: oneOfReader(['dropdown', 'table'], 'dropdown') })
  plansView: 'dropdown' | 'table' = 'dropdown';

  /** Hides the "remember this card" checkbox. */
  @property({ attribute: 'hide-remember-me', converter: flagReader }) hideRememberMe = false;

  @state() private order: OrderResult | undefined;
  @state() private paying = false;
  @state() private failure: { readonly message: string; readonly retry: () => void } | undefined;

  private readonly card = new CardFormController(this);

  /** Submits a form built for the gateway. Override to intercept the post (tests, analytics). */
  submitForm(form: HTMLFormElement): void {
    form.submit();
  }

  get #messages(): CheckoutMessages {
    return messagesFor(checkoutMessages, this.language);
  }

  /** The method on screen: always `card` outside the drop-in. */
  get #activeMethod(): PaymentMethod {
    if (this.mode !== 'drop-in') return 'card';
    return this.method && this.methods.includes(this.method) ? this.method : (this.methods[0] ?? 'card');
  }

  get #cardFlow(): 'hosted-page' | 'merchant-page' {
    if (this.mode === 'drop-in') return this.cardMode === 'redirect' ? 'hosted-page' : 'merchant-page';
    return this.mode === 'merchant-page' ? 'merchant-page' : 'hosted-page';
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
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('endpoint') || changed.has('merchantReference')) void this.#loadOrder();
  }

  // ---- Rendering ----

  override render(): TemplateResult {
    return this.renderFrame(html`
      ${this.mode === 'drop-in' ? this.#renderMethods() : nothing}
      <div class="method-panel" part="method-panel">${this.#renderPanel()}</div>
    `);
  }

  #renderMethods(): TemplateResult {
    const m = this.#messages;
    const active = this.#activeMethod;
    return html`
      <fieldset class="methods" part="methods">
        <legend>${m.methodsLegend}</legend>
        <div class="method-list">
          ${this.methods.map(
            (method) => html`
              <label class=${classMap({ check: true, method: true, selected: method === active })} part="method">
                <input
                  type="radio"
                  name="method"
                  value=${method}
                  .checked=${live(method === active)}
                  @change=${this.#onMethodChange}
                />
                <span>${m.methods[method]}</span>
              </label>
            `,
          )}
        </div>
      </fieldset>
    `;
  }

  #renderPanel(): unknown {
    const method = this.#activeMethod;
    switch (method) {
      case 'card':
        return this.#renderCardPayment(false);
      case 'installments':
        return this.#cardFlow === 'merchant-page' ? this.#renderCardPayment(true) : this.#renderHostedInstallments();
      case 'voucher':
      case 'financing':
        return this.#renderMethodElement(METHOD_ELEMENTS[method]);
    }
  }

  /** The card payment: a Pay button (hosted page) or the card form, optionally with installments. */
  #renderCardPayment(withInstallments: boolean): TemplateResult {
    const m = this.#messages;
    const flow = withInstallments ? 'merchant-page' : this.#cardFlow;
    return html`
      <form class="pay-form" novalidate @submit=${this.#onSubmit}>
        ${flow === 'hosted-page'
          ? html`<p class="note muted">${m.redirectNote}</p>`
          : html`${renderCardFields(this.card, m.card, { rememberMe: !this.hideRememberMe })}
              <p class="note muted">${m.merchantPageNote}</p>`}
        ${withInstallments
          ? html`<pg-installments
              card-source="host"
              completion="none"
              required
              endpoint=${this.endpoint}
              merchant-reference=${this.merchantReference}
              order-token=${ifDefined(this.orderToken || undefined)}
              language=${this.language}
              theme-href=${ifDefined(this.themeHref || undefined)}
              plans-view=${this.plansView}
              command=${this.command}
              .cardPrefix=${this.card.number.slice(0, 8)}
              @pg-pay-in-full=${this.#onInstallmentsPayInFull}
            ></pg-installments>`
          : nothing}
        ${this.#renderFailure()}
        <button type="submit" class="Pay" part="Pay" aria-disabled=${this.paying ? 'true' : 'false'}>
          ${this.order ? m.payAmount(ltr(formatMoney(this.order.amount, this.order.currency, this.language))) : m.pay}
        </button>
      </form>
    `;
  }

  /** Installments through the hosted page: the stand-alone element completes the payment. */
  #renderHostedInstallments(): TemplateResult {
    return html`<pg-installments
      completion="hosted-page"
      endpoint=${this.endpoint}
      merchant-reference=${this.merchantReference}
      order-token=${ifDefined(this.orderToken || undefined)}
      language=${this.language}
      theme-href=${ifDefined(this.themeHref || undefined)}
      plans-view=${this.plansView}
      command=${this.command}
      .submitForm=${(form: HTMLFormElement) => this.submitForm(form)}
      @pg-pay-in-full=${this.#onInstallmentsPayInFull}
    ></pg-installments>`;
  }

  /** Cash voucher and consumer financing: their own elements, given this checkout's attributes. */
  #renderMethodElement(tag: (typeof METHOD_ELEMENTS)[keyof typeof METHOD_ELEMENTS]): TemplateResult {
    const themeHref = ifDefined(this.themeHref || undefined);
    return tag === 'pg-bill-voucher'
      ? html`<pg-bill-voucher
          endpoint=${this.endpoint}
          merchant-reference=${this.merchantReference}
          order-token=${ifDefined(this.orderToken || undefined)}
          language=${this.language}
          theme-href=${themeHref}
        ></pg-bill-voucher>`
      : html`<pg-financing-otp
          endpoint=${this.endpoint}
          merchant-reference=${this.merchantReference}
          order-token=${ifDefined(this.orderToken || undefined)}
          language=${this.language}
          theme-href=${themeHref}
        ></pg-financing-otp>`;
  }

  #renderFailure(): unknown {
    if (!this.failure) return nothing;
    return html`
      <div class="failure" part="failure">
        <p class="error" part="error">${this.failure.message}</p>
        <button type="button" class="retry" part="retry" @click=${this.failure.retry}>${this.#messages.retry}</button>
      </div>
    `;
  }

  // ---- Behaviour ----

  async #loadOrder(): Promise<void> {
    if (!this.endpoint || !this.merchantReference) return;
    this.order = undefined;
    const outcome = await this.endpointRequests.request('order', {
      merchant_reference: this.merchantReference,
      language: this.language,
    });
    if (outcome.status === 'success') {
      this.order = outcome.value;
      if (this.failure?.retry === this.#retryOrder) this.failure = undefined;
    } else if (outcome.status === 'error') {
      this.failure = { message: outcome.message, retry: this.#retryOrder };
      this.announce(outcome.message, 'error');
    }
  }

  readonly #retryOrder = (): void => {
    this.failure = undefined;
    void this.#loadOrder();
  };

  readonly #onSubmit = (event: Event): void => {
    event.preventDefault();
    void this.#pay();
  };

  readonly #retryPay = (): void => {
    void this.#pay();
  };

  /** Validates, asks the endpoint for the signed fields and posts the form. A double press posts once. */
  async #pay(): Promise<void> {
    if (this.paying) return;
    const withInstallments = this.#activeMethod === 'installments';
    const flow = withInstallments ? 'merchant-page' : this.#cardFlow;
    const installments = withInstallments ? this.#installments : null;
    if (flow === 'merchant-page') {
      this.card.touchAll();
      if (!this.card.valid) {
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
    const base = { merchant_reference: this.merchantReference, language: this.language, command: this.command };
    const selection = installments?.selection;
    const outcome =
      flow === 'hosted-page'
        ? await this.endpointRequests.request('hostedPage', {
            ...base,
            ...(this.customerEmail ? { customer_email: this.customerEmail } : {}),
          })
        : await this.endpointRequests.request('merchantPage', {
            ...base,
            ...(selection ? { plan_code: selection.planCode, issuer_code: selection.issuerCode } : {}),
          });

    if (outcome.status === 'success') {
      this.announce(this.#messages.redirecting);
      // Card fields join the signed ones here, in the browser: they never reach the merchant endpoint.
      postToGateway(this, flow, outcome.value, flow === 'merchant-page' ? this.card.gatewayFields() : {});
      return;
    }
    this.paying = false;
    if (outcome.status === 'error') {
      this.failure = { message: outcome.message, retry: this.#retryPay };
      this.announce(outcome.message, 'error');
    }
  }

  #selectMethod(method: PaymentMethod): void {
    if (method === this.#activeMethod) return;
    this.method = method;
    this.failure = undefined;
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
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#card-number, .Pay')?.focus());
  };

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
