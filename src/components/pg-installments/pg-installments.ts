import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import { classMap } from 'lit/directives/class-map.js';
import { live } from 'lit/directives/live.js';
import { formatMoney } from '../../core/amounts.ts';
import { hostedPageCall, installmentPlansCall, merchantPageCall, type InstallmentPlansResult } from '../../core/endpoint-results.ts';
import { normalizeDigits } from '../../core/language.ts';
import { CardFormController, cardFormStyles, renderCardFields } from '../shared/card-form.ts';
import { postToGateway } from '../shared/gateway-form.ts';
import { ltr, ltrText, messagesFor } from '../shared/localize.ts';
import { PgElement } from '../shared/pg-element.ts';
import { property } from '../shared/property.ts';
import { commandReader, flagReader, oneOfReader, textReader } from '../shared/property-readers.ts';
import { PgPayInFullEvent, PgPlansLoadEvent, type PayInFullReason } from './events.ts';
import { installmentsMessages, type InstallmentsMessages } from './messages.ts';
import {
  issuerOffers,
  issuerText,
  matchCard,
  planRange,
  unavailability,
  type IssuerOffer,
  type MonthlySource,
  type PlanOffer,
} from './plan-offers.ts';
import { installmentsStyles } from './styles.ts';

/** How the chosen plan is paid: on the gateway's hosted page, by a direct operation, or by a host. */
export type InstallmentsCompletion = 'hosted-page' | 'direct' | 'none';

/** The customer's choice, as it goes into the form value. */
export interface InstallmentSelection {
  readonly issuerCode: string;
  readonly planCode: string;
  readonly months: number;
}

type Situation = 'idle' | 'loading' | 'ready' | PayInFullReason;

/**
 * Installment plans for the order: loads them through the merchant endpoint, shows the issuers
 * and, for the issuer of the customer's card (found from its first digits), each eligible plan
 * with its monthly amount, fees, total and extra cost. A form control: the chosen plan and issuer
 * are its form value. Completes on the hosted page (installments STANDALONE), by a direct
 * operation (installments YES, through merchant page 2.0), or leaves completion to a host.
 *
 * @tagname pg-installments
 * @fires change - The chosen issuer or plan changed, and with it the form value.
 * @fires pg-plans-load - The plans arrived; carries the number of eligible issuers and plans.
 * @fires pg-pay-in-full - The customer chose to pay in full instead; cancelable.
 * @fires pg-payment-submit - The form is being posted to the gateway.
 * @fires pg-request-start - Before every request to the merchant endpoint; cancelable.
 * @fires pg-request-success - A request succeeded.
 * @fires pg-request-error - A request failed.
 * @fires pg-request-complete - Last event of every started request.
 * @csspart installments-container - The whole installments section.
 * @csspart issuers - The group of issuers (banks).
 * @csspart issuer - One issuer choice, with its logo and name.
 * @csspart issuer-logo - An issuer's logo.
 * @csspart full-width - The plans view: a dropdown or a table.
 * @csspart plan-row - One plan in the table view.
 * @csspart bank - The bank section: terms, messages and the agreement checkbox.
 * @csspart receipt-container - The summary of the chosen plan (see `hide-receipt`).
 * @csspart floatl - The container of each input.
 * @csspart error - Error messages.
 * @csspart unavailable - The message shown when no plan can be offered.
 * @csspart pay-in-full - The "pay in full instead" button.
 * @csspart retry - The "try again" button.
 * @csspart Pay - The Pay button (when this element completes the payment).
 * @csspart credit-card-container - The card form (`completion="direct"`), with the brand class.
 * @csspart half1 - The expiry date field (`completion="direct"`).
 * @csspart half2 - The security code field (`completion="direct"`).
 * @csspart brand - The detected card brand; also carries `Visa` or `MasterCard`.
 * @csspart Visa - The card form and brand badge of a Visa card.
 * @csspart MasterCard - The card form and brand badge of a MasterCard card.
 * @csspart frame - The element's outer container; carries `dir` and `lang`.
 * @csspart status - The polite live region.
 * @cssprop --pg-installments-background - Background of the installments section.
 * @cssprop --pg-plan-selected-background - Background of the chosen plan's row (falls back to --pg-color-selected).
 * @cssprop --pg-receipt-background - Background of the summary (falls back to --pg-color-surface-variant).
 * @cssprop --pg-color-selected - System token: background of a selected row.
 * @cssprop --pg-color-surface-variant - System token: background of secondary panels.
 * @cssprop --pg-color-visa - Visa brand colour.
 * @cssprop --pg-color-mastercard - MasterCard brand colour.
 * @cssprop --pg-card-border-color - Border of the card form.
 * @cssstate pending - A request to the merchant endpoint is in flight.
 */
export class PgInstallments extends PgElement {
  static formAssociated = true;
  static override styles = [PgElement.styles, cardFormStyles, installmentsStyles];

  /** How the plans are shown: `dropdown` (a select) or `table`. */
  @property({ attribute: 'plans-view', converter: oneOfReader(['dropdown', 'table'], 'dropdown') })
  plansView: 'dropdown' | 'table' = 'dropdown';

  /** How the choice is paid: `hosted-page` (STANDALONE), `direct` (YES) or `none` (a host or form pays). */
  @property({ converter: oneOfReader(['hosted-page', 'direct', 'none'], 'hosted-page') })
  completion: InstallmentsCompletion = 'hosted-page';

  /** `own`: this element asks for the card's first digits; `host`: a host sets `cardPrefix`. */
  @property({ attribute: 'card-source', converter: oneOfReader(['own', 'host'], 'own') }) cardSource: 'own' | 'host' = 'own';

  /** The first digits of the card typed in a host's card form (`card-source="host"`). */
  @property({ attribute: false, converter: textReader }) cardPrefix = '';

  /** The operation the payment runs: `PURCHASE` (default) or `AUTHORIZATION`. */
  @property({ converter: commandReader }) command: 'AUTHORIZATION' | 'PURCHASE' = 'PURCHASE';

  /** Monthly amounts from the core `formula` (default) or the `gateway`'s `amountPerMonth`. */
  @property({ attribute: 'monthly-source', converter: oneOfReader(['formula', 'gateway'], 'formula') })
  monthlySource: MonthlySource = 'formula';

  /** Hides the summary of the chosen plan (`receipt-container`). */
  @property({ attribute: 'hide-receipt', converter: flagReader }) hideReceipt = false;

  /** A plan must be chosen (or paying in full chosen) for the form to be valid. */
  @property({ converter: flagReader }) required = false;

  @state() private plans: InstallmentPlansResult | undefined;
  @state() private loadState: 'idle' | 'loading' | 'loaded' | 'failed' = 'idle';
  @state() private loadError = '';
  @state() private issuerCode: string | undefined;
  @state() private planCode: string | undefined;
  @state() private agreed = false;
  @state() private payingInFull = false;
  @state() private showErrors = false;
  @state() private ownDigits = '';
  @state() private formDisabled = false;
  @state() private paying = false;
  @state() private payError = '';

  private readonly card = new CardFormController(this);
  #offers: IssuerOffer[] = [];
  #lastDigits = '';

  /** The chosen issuer and plan, when both are chosen. */
  get selection(): InstallmentSelection | undefined {
    const offer = this.#chosenPlan;
    if (!offer || !this.issuerCode || this.payingInFull) return undefined;
    return { issuerCode: this.issuerCode, planCode: offer.plan.plan_code, months: offer.months };
  }

  /** True once the customer chose to pay in full instead. */
  get payInFull(): boolean {
    return this.payingInFull;
  }

  get form(): HTMLFormElement | null {
    return this.internals.form;
  }

  get validity(): ValidityState {
    return this.internals.validity;
  }

  get validationMessage(): string {
    return this.internals.validationMessage;
  }

  get willValidate(): boolean {
    return this.internals.willValidate;
  }

  checkValidity(): boolean {
    return this.internals.checkValidity();
  }

  /** Shows every problem, moves focus to the first one and returns whether the choice is valid. */
  reportValidity(): boolean {
    this.showErrors = true;
    if (this.completion === 'direct' && this.cardSource === 'own') this.card.touchAll();
    void this.reportInvalidFields().then((count) => {
      if (count === 0 && !this.internals.validity.valid) this.#payInFullButton?.focus();
    });
    return this.internals.validity.valid;
  }

  /** Submits a form built for the gateway. Override to intercept the post (tests, analytics). */
  submitForm(form: HTMLFormElement): void {
    form.submit();
  }

  get #messages(): InstallmentsMessages {
    return messagesFor(installmentsMessages, this.language);
  }

  get #cardDigits(): string {
    const digits =
      this.cardSource === 'host' ? this.cardPrefix : this.completion === 'direct' ? this.card.number : this.ownDigits;
    return normalizeDigits(digits).replace(/\D/g, '').slice(0, 8);
  }

  get #situation(): Situation {
    if (this.loadState === 'idle') return 'idle';
    if (this.loadState === 'loading') return 'loading';
    if (this.loadState === 'failed' || !this.plans) return 'failed';
    const reason = unavailability(this.plans, this.#offers);
    if (reason) return reason;
    return matchCard(this.plans, this.#offers, this.#cardDigits).kind === 'not-eligible' ? 'card-not-eligible' : 'ready';
  }

  get #chosenIssuer(): IssuerOffer | undefined {
    return this.#offers.find((offer) => offer.issuer.issuer_code === this.issuerCode);
  }

  get #chosenPlan(): PlanOffer | undefined {
    return this.#chosenIssuer?.plans.find((offer) => offer.plan.plan_code === this.planCode);
  }

  get #hasPayButton(): boolean {
    return this.cardSource === 'own' && this.completion !== 'none';
  }

  get #payInFullButton(): HTMLButtonElement | null {
    return this.renderRoot.querySelector('button.pay-in-full');
  }

  #money(minor: number): string {
    return formatMoney(minor, this.plans?.currency ?? 'EGP', this.language);
  }

  // ---- Lifecycle ----

  override connectedCallback(): void {
    super.connectedCallback();
    // Coming back after a disconnect aborted the load: load again.
    if (this.hasUpdated && this.loadState === 'loading' && !this.endpointRequests.pending) void this.#loadPlans();
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('endpoint') || changed.has('merchantReference')) void this.#loadPlans();
    if (changed.has('plans') || changed.has('monthlySource')) {
      this.#offers = this.plans ? issuerOffers(this.plans, this.monthlySource) : [];
      this.#lastDigits = '';
    }
    this.#followCard();
  }

  protected override updated(): void {
    this.#syncFormValue();
  }

  formResetCallback(): void {
    this.issuerCode = this.planCode = undefined;
    this.agreed = this.payingInFull = this.showErrors = false;
    this.ownDigits = '';
    this.card.reset();
  }

  formDisabledCallback(disabled: boolean): void {
    this.formDisabled = disabled;
  }

  formStateRestoreCallback(saved: string | File | FormData | null): void {
    if (typeof saved !== 'string') return;
    const [issuerCode, planCode] = saved.split('/');
    this.issuerCode = issuerCode || undefined;
    this.planCode = planCode || undefined;
  }

  // ---- Rendering ----

  override render(): TemplateResult {
    const content = html`
      <div class="installments-container" part="installments-container">
        <p class="title">${this.#messages.title}</p>
        ${this.#renderOwnCardInput()} ${this.#renderOffers()} ${this.#renderPay()}
      </div>
    `;
    return this.renderFrame(
      this.#hasPayButton ? html`<form novalidate @submit=${this.#onSubmit}>${content}</form>` : content,
    );
  }

  #renderOwnCardInput(): unknown {
    if (this.cardSource === 'host') return nothing;
    const m = this.#messages;
    if (this.completion === 'direct') return renderCardFields(this.card, m.card, { disabled: this.formDisabled });
    return html`
      <div class="floatl bin" part="floatl">
        <label for="card-prefix">${m.binLabel}</label>
        <input
          id="card-prefix"
          type="text"
          inputmode="numeric"
          autocomplete="off"
          dir="ltr"
          maxlength="8"
          spellcheck="false"
          .value=${live(this.ownDigits)}
          ?disabled=${this.formDisabled}
          aria-describedby="card-prefix-hint"
          @input=${this.#onPrefixInput}
        />
        <span id="card-prefix-hint" class="hint">${m.binHint}</span>
      </div>
    `;
  }

  #renderOffers(): unknown {
    const m = this.#messages;
    const situation = this.#situation;
    switch (situation) {
      case 'idle':
        return nothing;
      case 'loading':
        return html`<p class="muted">${m.loadingPlans}</p>`;
      case 'ready':
        return this.#renderChoice();
      default:
        return this.#renderUnavailable(situation);
    }
  }

  #renderUnavailable(reason: PayInFullReason): TemplateResult {
    const m = this.#messages;
    const amount = ltr(this.#money(this.plans?.amount ?? 0));
    const range = reason === 'out-of-range' && this.plans ? planRange(this.plans) : undefined;
    const message =
      reason === 'failed'
        ? html`${m.unavailable.failed} ${this.loadError}`
        : reason === 'card-not-eligible'
          ? m.unavailable.cardNotEligible
          : html`${m.unavailable.notForAmount(amount)}
            ${range ? m.unavailable.range(ltr(this.#money(range.min)), ltr(this.#money(range.max))) : nothing}`;
    return html`
      <div class="unavailable" part="unavailable">
        <p class=${reason === 'failed' ? 'error' : 'notice'} part=${reason === 'failed' ? 'error' : 'notice'}>${message}</p>
        ${this.payingInFull
          ? html`<p class="paying-in-full" tabindex="-1">${m.payingInFull}</p>`
          : html`<p class="muted">${m.payInFullHint}</p>`}
        <div class="actions">
          ${reason === 'failed'
            ? html`<button type="button" class="retry" part="retry" @click=${this.#onRetryLoad}>${m.retry}</button>`
            : nothing}
          ${this.payingInFull
            ? nothing
            : html`<button type="button" class="pay-in-full" part="pay-in-full" @click=${this.#onPayInFull}>
                ${m.payInFull}
              </button>`}
        </div>
      </div>
    `;
  }

  #renderChoice(): TemplateResult {
    const issuer = this.#chosenIssuer;
    const plan = this.#chosenPlan;
    return html`
      ${this.#renderIssuers()} ${issuer ? this.#renderPlans(issuer) : nothing}
      ${issuer ? this.#renderBank(issuer, plan) : nothing}
      ${plan && !this.hideReceipt ? this.#renderReceipt(plan) : nothing}
    `;
  }

  #renderIssuers(): TemplateResult {
    const m = this.#messages;
    const match = this.plans ? matchCard(this.plans, this.#offers, this.#cardDigits) : { kind: 'none' as const };
    const missing = this.showErrors && !this.issuerCode;
    return html`
      <fieldset class="issuers" part="issuers" ?disabled=${this.formDisabled}>
        <legend>${m.issuersLegend}</legend>
        <div class="issuer-list">
          ${this.#offers.map(({ issuer }) => {
            const code = issuer.issuer_code;
            const logo = issuerText(issuer, 'issuer_logo', this.language);
            // The card's first digits decide the issuer; the others stay visible but cannot be chosen.
            const locked = match.kind === 'issuer' && match.issuerCode !== code;
            return html`
              <label
                class=${classMap({ issuer: true, selected: code === this.issuerCode, unavailable: locked })}
                part="issuer"
              >
                <input
                  type="radio"
                  name="issuer"
                  value=${code}
                  .checked=${live(code === this.issuerCode)}
                  ?disabled=${locked}
                  aria-invalid=${missing ? 'true' : 'false'}
                  aria-describedby="issuer-error"
                  @change=${this.#onIssuerChange}
                />
                ${logo ? html`<img class="issuer-logo" part="issuer-logo" src=${logo} alt="" />` : nothing}
                <span>${issuerText(issuer, 'issuer_name', this.language)}</span>
              </label>
            `;
          })}
        </div>
        <p id="issuer-error" class="error" part="error">${missing ? m.issuerRequired : ''}</p>
      </fieldset>
    `;
  }

  #renderPlans(offer: IssuerOffer): TemplateResult {
    const m = this.#messages;
    const missing = this.showErrors && !this.planCode;
    const invalid = missing ? 'true' : 'false';
    const error = html`<p id="plan-error" class="error" part="error">${missing ? m.planRequired : ''}</p>`;
    if (this.plansView === 'table') {
      return html`
        <div class="plans">
          <table class="full-width" part="full-width">
            <caption>${m.plansCaption}</caption>
            <thead>
              <tr>
                <th scope="col">${m.columns.plan}</th>
                <th scope="col">${m.columns.monthly}</th>
                <th scope="col">${m.columns.fees}</th>
                <th scope="col">${m.columns.total}</th>
                <th scope="col">${m.columns.extra}</th>
              </tr>
            </thead>
            <tbody>
              ${offer.plans.map((plan) => {
                const code = plan.plan.plan_code;
                const id = `plan-${code}`;
                return html`
                  <tr class=${classMap({ selected: code === this.planCode })} part="plan-row">
                    <th scope="row">
                      <span class="check">
                        <input
                          id=${id}
                          type="radio"
                          name="plan"
                          value=${code}
                          .checked=${live(code === this.planCode)}
                          ?disabled=${this.formDisabled}
                          aria-invalid=${invalid}
                          aria-describedby="plan-error"
                          @change=${this.#onPlanChange}
                        />
                        <label for=${id}>${m.months(plan.months)}</label>
                      </span>
                    </th>
                    <td>
                      ${ltr(this.#money(plan.monthly))}
                      ${plan.lastMonthly !== plan.monthly
                        ? html`<span class="last-month muted">${m.lastMonth(ltr(this.#money(plan.lastMonthly)))}</span>`
                        : nothing}
                    </td>
                    <td>${ltr(this.#money(plan.fees))}</td>
                    <td>${ltr(this.#money(plan.totalPayable))}</td>
                    <td>${ltr(this.#money(plan.costOverFull))}</td>
                  </tr>
                `;
              })}
            </tbody>
          </table>
          ${error}
        </div>
      `;
    }
    return html`
      <div class="floatl plans" part="floatl">
        <label for="plan">${m.plansLabel}</label>
        <select
          id="plan"
          class="full-width"
          part="full-width"
          ?disabled=${this.formDisabled}
          aria-invalid=${invalid}
          aria-describedby="plan-error"
          @change=${this.#onPlanChange}
        >
          <option value="" ?selected=${!this.planCode}>${m.choosePlan}</option>
          ${offer.plans.map(
            (plan) => html`
              <option value=${plan.plan.plan_code} ?selected=${plan.plan.plan_code === this.planCode}>
                ${m.planOption(
                  m.months(plan.months),
                  ltrText(this.#money(plan.monthly)),
                  ltrText(this.#money(plan.totalPayable)),
                )}
              </option>
            `,
          )}
        </select>
        ${error}
      </div>
    `;
  }

  #renderBank(offer: IssuerOffer, plan: PlanOffer | undefined): TemplateResult {
    const m = this.#messages;
    const { issuer } = offer;
    const name = issuerText(issuer, 'issuer_name', this.language) ?? issuer.issuer_code;
    const terms = issuerText(issuer, 'terms_and_condition', this.language);
    const confirmation = issuerText(issuer, 'confirmation_message', this.language);
    const disclaimer = issuerText(issuer, 'disclaimer_message', this.language);
    const processingFees = issuerText(issuer, 'processing_fees_message', this.language);
    const missing = this.showErrors && !this.agreed;
    return html`
      <section class="bank" part="bank" aria-labelledby="bank-title">
        <p id="bank-title" class="bank-title">${m.bankTitle(name)}</p>
        <p class="terms">${terms ?? m.noTerms}</p>
        ${processingFees ? html`<p class="processing-fees">${processingFees}</p>` : nothing}
        ${plan && confirmation ? html`<p class="confirmation">${confirmation}</p>` : nothing}
        ${disclaimer ? html`<p class="disclaimer muted">${disclaimer}</p>` : nothing}
        <div class="check agree">
          <input
            id="agree"
            type="checkbox"
            .checked=${live(this.agreed)}
            ?disabled=${this.formDisabled}
            aria-required="true"
            aria-invalid=${missing ? 'true' : 'false'}
            aria-describedby="agree-error"
            @change=${this.#onAgreeChange}
          />
          <label for="agree">${m.agree(name)}</label>
        </div>
        <p id="agree-error" class="error" part="error">${missing ? m.agreeRequired : ''}</p>
      </section>
    `;
  }

  #renderReceipt(plan: PlanOffer): TemplateResult {
    const m = this.#messages.receipt;
    const row = (label: string, value: unknown) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`;
    return html`
      <section class="receipt-container" part="receipt-container" aria-labelledby="receipt-title">
        <p id="receipt-title" class="receipt-title">${m.title}</p>
        <dl>
          ${row(m.orderAmount, ltr(this.#money(this.plans?.amount ?? 0)))}
          ${row(m.plan, this.#messages.months(plan.months))} ${row(m.monthly, ltr(this.#money(plan.monthly)))}
          ${plan.lastMonthly !== plan.monthly ? row(m.lastMonthly, ltr(this.#money(plan.lastMonthly))) : nothing}
          ${row(m.fees, ltr(this.#money(plan.fees)))} ${row(m.total, ltr(this.#money(plan.totalPayable)))}
          ${row(m.extra, ltr(this.#money(plan.costOverFull)))}
        </dl>
      </section>
    `;
  }

  #renderPay(): unknown {
    if (!this.#hasPayButton) return nothing;
    const m = this.#messages;
    const label =
      this.payingInFull && this.plans ? m.payAmount(ltr(this.#money(this.plans.amount))) : m.payInstallments;
    return html`
      ${this.payError
        ? html`<div class="failure" part="failure">
            <p class="error" part="error">${this.payError}</p>
            <button type="button" class="retry" part="retry" @click=${this.#onSubmit}>${m.retry}</button>
          </div>`
        : nothing}
      <button
        type="submit"
        class="Pay"
        part="Pay"
        aria-disabled=${this.paying || this.formDisabled ? 'true' : 'false'}
      >
        ${label}
      </button>
    `;
  }

  // ---- Behaviour ----

  async #loadPlans(): Promise<void> {
    if (!this.endpoint || !this.merchantReference) return;
    const m = this.#messages;
    this.endpointRequests.abortAll();
    this.plans = undefined;
    this.loadState = 'loading';
    this.announce(m.loadingPlans);
    const outcome = await this.endpointRequests.request(installmentPlansCall, {
      merchant_reference: this.merchantReference,
      language: this.language,
    });
    switch (outcome.status) {
      case 'success': {
        this.plans = outcome.value;
        this.loadState = 'loaded';
        const offers = issuerOffers(outcome.value, this.monthlySource);
        const planCount = offers.reduce((count, offer) => count + offer.plans.length, 0);
        this.announce(
          planCount > 0
            ? m.plansReady(planCount)
            : m.unavailable.notForAmount(formatMoney(outcome.value.amount, outcome.value.currency, this.language)),
        );
        this.dispatchEvent(new PgPlansLoadEvent(offers.length, planCount));
        break;
      }
      case 'error':
        this.loadState = 'failed';
        this.loadError = outcome.message;
        this.announce(`${m.unavailable.failed} ${outcome.message}`, 'error');
        break;
      case 'cancelled':
        this.loadState = 'failed';
        this.loadError = '';
        this.clearStatus();
        break;
      case 'aborted':
        break;
    }
  }

  /** Picks the issuer from the card's first digits as the customer types. */
  #followCard(): void {
    if (!this.plans) return;
    const digits = this.#cardDigits;
    if (digits === this.#lastDigits) return;
    this.#lastDigits = digits;
    const match = matchCard(this.plans, this.#offers, digits);
    if (match.kind === 'issuer') {
      this.payingInFull = false;
      if (match.issuerCode !== this.issuerCode) {
        this.#choose(match.issuerCode, undefined);
        const issuer = this.#chosenIssuer?.issuer;
        if (issuer) this.announce(this.#messages.issuerMatched(issuerText(issuer, 'issuer_name', this.language) ?? ''));
      }
    } else if (match.kind === 'not-eligible') {
      if (this.issuerCode !== undefined) this.#choose(undefined, undefined);
      this.announce(this.#messages.unavailable.cardNotEligible);
    }
  }

  #choose(issuerCode: string | undefined, planCode: string | undefined): void {
    const changed = issuerCode !== this.issuerCode || planCode !== this.planCode;
    if (issuerCode !== this.issuerCode) this.agreed = false;
    this.issuerCode = issuerCode;
    this.planCode = planCode;
    if (changed) this.dispatchEvent(new Event('change', { bubbles: true }));
  }

  #syncFormValue(): void {
    const selection = this.selection;
    if (selection) {
      const value = new FormData();
      value.set('installments', this.completion === 'hosted-page' ? 'STANDALONE' : 'YES');
      value.set('issuer_code', selection.issuerCode);
      value.set('plan_code', selection.planCode);
      value.set('number_of_installments', String(selection.months));
      this.internals.setFormValue(value, `${selection.issuerCode}/${selection.planCode}`);
    } else {
      this.internals.setFormValue(null);
    }
    const m = this.#messages;
    const query = (selector: string) => this.renderRoot.querySelector<HTMLElement>(selector) ?? undefined;
    if (this.payingInFull) {
      this.internals.setValidity({});
    } else if (selection && !this.agreed) {
      this.internals.setValidity({ valueMissing: true }, m.agreeRequired, query('#agree'));
    } else if (!selection && (this.required || this.issuerCode)) {
      const ready = this.#situation === 'ready';
      const message = ready && !this.issuerCode ? m.issuerRequired : m.planRequired;
      const anchor = !ready
        ? query('button.pay-in-full')
        : this.issuerCode
          ? query('#plan') ?? query('input[name="plan"]')
          : query('input[name="issuer"]:not([disabled])');
      this.internals.setValidity({ valueMissing: true }, message, anchor);
    } else {
      this.internals.setValidity({});
    }
  }

  readonly #onPrefixInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const digits = normalizeDigits(input.value).replace(/\D/g, '').slice(0, 8);
    if (input.value !== digits) input.value = digits;
    this.ownDigits = digits;
  };

  readonly #onIssuerChange = (event: Event): void => {
    this.#choose((event.target as HTMLInputElement).value, undefined);
  };

  readonly #onPlanChange = (event: Event): void => {
    const value = (event.target as HTMLInputElement | HTMLSelectElement).value;
    this.#choose(this.issuerCode, value || undefined);
  };

  readonly #onAgreeChange = (event: Event): void => {
    this.agreed = (event.target as HTMLInputElement).checked;
    this.dispatchEvent(new Event('change', { bubbles: true }));
  };

  readonly #onRetryLoad = (): void => {
    void this.#loadPlans();
  };

  readonly #onPayInFull = (): void => {
    const situation = this.#situation;
    const reason: PayInFullReason = situation === 'ready' || situation === 'idle' || situation === 'loading' ? 'no-plans' : situation;
    if (!this.dispatchEvent(new PgPayInFullEvent(reason))) return;
    this.payingInFull = true;
    this.#choose(undefined, undefined);
    this.announce(this.#messages.payingInFull);
    // The button that had focus is gone: keep the keyboard user moving towards Pay.
    void this.updateComplete.then(() =>
      (this.renderRoot.querySelector<HTMLElement>('.Pay') ?? this.renderRoot.querySelector<HTMLElement>('.paying-in-full'))?.focus(),
    );
  };

  readonly #onSubmit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (this.paying || this.formDisabled || !this.#hasPayButton) return;
    const direct = this.completion === 'direct';
    this.showErrors = true;
    if (direct) this.card.touchAll();
    const choiceValid = this.payingInFull || (this.selection !== undefined && this.agreed);
    if ((direct && !this.card.valid) || !choiceValid) {
      const count = await this.reportInvalidFields();
      if (count === 0) this.#payInFullButton?.focus();
      return;
    }
    this.paying = true;
    this.payError = '';
    const selection = this.selection;
    const base = { merchant_reference: this.merchantReference, language: this.language, command: this.command };
    const outcome = direct
      ? await this.endpointRequests.request(merchantPageCall, {
          ...base,
          ...(selection ? { plan_code: selection.planCode, issuer_code: selection.issuerCode } : {}),
        })
      : await this.endpointRequests.request(hostedPageCall, {
          ...base,
          ...(this.payingInFull ? {} : { installments: 'STANDALONE' as const }),
        });
    if (outcome.status === 'success') {
      this.announce(this.#messages.redirecting);
      postToGateway(this, direct ? 'merchant-page' : 'hosted-page', outcome.value, direct ? this.card.gatewayFields() : {});
      return;
    }
    this.paying = false;
    if (outcome.status === 'error') {
      this.payError = outcome.message;
      this.announce(outcome.message, 'error');
    }
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'pg-installments': PgInstallments;
  }
}
