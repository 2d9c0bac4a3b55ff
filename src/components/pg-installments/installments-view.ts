/**
 * The body of `<pg-installments>`, loaded when the element first meets a document (see
 * shared/element-view.ts): the plans from the endpoint, the issuers and their plans for the card's
 * first digits, the agreement, the receipt, the form value and validity, and the payment.
 */
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { formatMoney } from '../../core/amounts.ts';
import type { InstallmentPlansResult } from '../../core/endpoint-results.ts';
import { hostedPageCall, installmentPlansCall, merchantPageCall } from '../../core/endpoint-routes.ts';
import { completionInstallments } from '../../core/installments.ts';
import { normalizeDigits } from '../../core/language.ts';
import { CardFormController, cardFormStyles, renderCardFields } from '../shared/card-form.ts';
import { ElementView, viewState, type ElementKit, type ViewModule } from '../shared/element-view.ts';
import { postToGateway } from '../shared/gateway-form.ts';
import { live } from '../shared/live.ts';
import { renderFailure } from '../shared/pg-element.ts';
import { ltr, ltrText } from '../shared/localize.ts';
import { PgPayInFullEvent, PgPlansLoadEvent, type PayInFullReason } from './events.ts';
import { installmentsMessages, type InstallmentsMessages } from './messages.ts';
import type { InstallmentSelection, PgInstallments } from './pg-installments.ts';
import {
  issuerOffers,
  issuerText,
  matchCard,
  planRange,
  unavailability,
  type IssuerOffer,
  type PlanOffer,
} from './plan-offers.ts';
import { installmentsStyles } from './styles.ts';

type Situation = 'idle' | 'loading' | 'ready' | PayInFullReason;

export class InstallmentsView extends ElementView<PgInstallments, InstallmentsMessages> {
  static {
    viewState(this, 'plans', 'loadState', 'loadError', 'issuerCode', 'planCode', 'agreed', 'payingInFull', 'showErrors', 'ownDigits', 'formDisabled', 'paying', 'payError');
  }

  private plans: InstallmentPlansResult | undefined;
  private loadState: 'idle' | 'loading' | 'loaded' | 'failed' = 'idle';
  private loadError = '';
  private issuerCode: string | undefined;
  private planCode: string | undefined;
  private agreed = false;
  private payingInFull = false;
  private showErrors = false;
  private ownDigits = '';
  private formDisabled = this.host.matches(':disabled');
  private paying = false;
  private payError = '';

  private readonly card = new CardFormController(this.host);
  #offers: IssuerOffer[] = [];
  #lastDigits = '';

  /** The chosen issuer and plan, when both are chosen (the element's `selection`). */
  get selection(): InstallmentSelection | undefined {
    const offer = this.#chosenPlan;
    if (!offer || !this.issuerCode || this.payingInFull) return undefined;
    return { issuerCode: this.issuerCode, planCode: offer.plan.plan_code, months: offer.months };
  }

  /** True once the customer chose to pay in full instead. */
  get payInFull(): boolean {
    return this.payingInFull;
  }

  /** Shows every problem, moves focus to the first one and returns whether the choice is valid. */
  reportValidity(): boolean {
    this.showErrors = true;
    if (this.host.completion === 'hosted-checkout' && this.host.cardSource === 'own') this.card.touchAll();
    void this.kit.reportInvalidFields().then((count) => {
      if (count === 0 && !this.kit.internals.validity.valid) this.#payInFullButton?.focus();
    });
    return this.kit.internals.validity.valid;
  }

  get #messages(): InstallmentsMessages {
    return this.kit.messages;
  }

  get #cardDigits(): string {
    const digits =
      this.host.cardSource === 'host' ? this.host.cardPrefix : this.host.completion === 'hosted-checkout' ? this.card.number : this.ownDigits;
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
    return this.host.cardSource === 'own' && this.host.completion !== 'none';
  }

  get #payInFullButton(): HTMLButtonElement | null {
    return this.host.renderRoot.querySelector('button.pay-in-full');
  }

  #money(minor: number): string {
    return formatMoney(minor, this.plans?.currency ?? 'EGP', this.host.language);
  }

  // ---- Lifecycle ----

  override connected(): void {
    // Coming back after a disconnect aborted the load: load again.
    if (this.host.hasUpdated && this.loadState === 'loading' && !this.kit.endpointRequests.pending) void this.#loadPlans();
    window.addEventListener('pageshow', this.#onPageShow);
  }

  override disconnected(): void {
    window.removeEventListener('pageshow', this.#onPageShow);
  }

  /** Back from the gateway through the browser's back-forward cache: the customer may pay again. */
  readonly #onPageShow = (event: PageTransitionEvent): void => {
    if (event.persisted) this.paying = false;
  };

  override willUpdate(changed: PropertyValues): void {
    if (changed.has('endpoint') || changed.has('merchantReference')) void this.#loadPlans();
    if (changed.has('plans') || changed.has('monthlySource')) {
      this.#offers = this.plans ? issuerOffers(this.plans, this.host.monthlySource) : [];
      this.#lastDigits = '';
    }
    this.#followCard();
  }

  override updated(): void {
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

  render(): TemplateResult {
    const content = html`
      <div class="installments-container" part="installments-container">
        <p class="title">${this.#messages.title}</p>
        ${this.#renderOwnCardInput()} ${this.#renderOffers()} ${this.#renderPay()}
      </div>
    `;
    return this.kit.renderFrame(
      this.#hasPayButton ? html`<form novalidate @submit=${this.#onSubmit}>${content}</form>` : content,
    );
  }

  #renderOwnCardInput(): unknown {
    if (this.host.cardSource === 'host') return nothing;
    const m = this.#messages;
    if (this.host.completion === 'hosted-checkout') return renderCardFields(this.card, m.card, { disabled: this.formDisabled });
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
      ${plan && !this.host.hideReceipt ? this.#renderReceipt(plan) : nothing}
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
            const logo = issuerText(issuer, 'issuer_logo', this.host.language);
            // The card's first digits decide the issuer; the others stay visible but cannot be chosen.
            const locked = match.kind === 'issuer' && match.issuerCode !== code;
            const reason = `issuer-${code}-reason`;
            return html`
              <label
                class="issuer ${code === this.issuerCode ? 'selected' : ''} ${locked ? 'unavailable' : ''}"
                part="issuer"
              >
                <input
                  type="radio"
                  name="issuer"
                  value=${code}
                  .checked=${live(code === this.issuerCode)}
                  ?disabled=${locked}
                  aria-invalid=${missing}
                  aria-describedby=${locked ? `issuer-error ${reason}` : 'issuer-error'}
                  @change=${this.#onIssuerChange}
                />
                ${logo ? html`<img class="issuer-logo" part="issuer-logo" src=${logo} alt="" />` : nothing}
                <span>${issuerText(issuer, 'issuer_name', this.host.language)}</span>
                ${locked ? html`<span id=${reason} class="hint reason">${m.otherBank}</span>` : nothing}
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
    const error = html`<p id="plan-error" class="error" part="error">${missing ? m.planRequired : ''}</p>`;
    if (this.host.plansView === 'table') {
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
                  <tr class=${code === this.planCode ? 'selected' : ''} part="plan-row">
                    <th scope="row">
                      <span class="check">
                        <input
                          id=${id}
                          type="radio"
                          name="plan"
                          value=${code}
                          .checked=${live(code === this.planCode)}
                          ?disabled=${this.formDisabled}
                          aria-invalid=${missing}
                          aria-describedby="plan-error"
                          @change=${this.#onPlanChange}
                        />
                        <label for=${id}>${m.months(plan.months)}</label>
                      </span>
                    </th>
                    <td data-label=${m.columns.monthly}>
                      ${ltr(this.#money(plan.monthly))}
                      ${plan.lastMonthly !== plan.monthly
                        ? html`<span class="last-month muted">${m.lastMonth(ltr(this.#money(plan.lastMonthly)))}</span>`
                        : nothing}
                    </td>
                    <td data-label=${m.columns.fees}>${ltr(this.#money(plan.fees))}</td>
                    <td data-label=${m.columns.total}>${ltr(this.#money(plan.totalPayable))}</td>
                    <td data-label=${m.columns.extra}>${ltr(this.#money(plan.costOverFull))}</td>
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
          aria-invalid=${missing}
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
    const name = issuerText(issuer, 'issuer_name', this.host.language) ?? issuer.issuer_code;
    const terms = issuerText(issuer, 'terms_and_condition', this.host.language);
    const disclaimer = issuerText(issuer, 'disclaimer_message', this.host.language);
    const processingFees = issuerText(issuer, 'processing_fees_message', this.host.language);
    const missing = this.showErrors && !this.agreed;
    return html`
      <section class="bank" part="bank" aria-labelledby="bank-title">
        <p id="bank-title" class="bank-title">${m.bankTitle(name)}</p>
        <p class="terms">${terms ?? m.noTerms}</p>
        ${processingFees ? html`<p class="processing-fees">${processingFees}</p>` : nothing}
        ${plan ? html`<p class="chosen">${m.chosenPlan(m.months(plan.months), name)}</p>` : nothing}
        ${disclaimer ? html`<p class="disclaimer muted">${disclaimer}</p>` : nothing}
        <div class="check agree">
          <input
            id="agree"
            type="checkbox"
            .checked=${live(this.agreed)}
            ?disabled=${this.formDisabled}
            aria-required="true"
            aria-invalid=${missing}
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
        <p class="receipt-note muted">${m.charged(ltr(this.#money(this.plans?.amount ?? 0)))}</p>
      </section>
    `;
  }

  #renderPay(): unknown {
    if (!this.#hasPayButton) return nothing;
    const m = this.#messages;
    const label =
      this.payingInFull && this.plans ? m.payAmount(ltr(this.#money(this.plans.amount))) : m.payInstallments;
    return html`
      ${this.payError ? renderFailure(this.payError, m.retry, this.#onSubmit) : nothing}
      <button
        type="submit"
        class="Pay"
        part="Pay"
        aria-disabled=${this.paying || this.formDisabled}
      >
        ${label}
      </button>
    `;
  }

  // ---- Behaviour ----

  async #loadPlans(): Promise<void> {
    if (!this.host.endpoint || !this.host.merchantReference) return;
    const m = this.#messages;
    this.kit.endpointRequests.abortAll();
    this.plans = undefined;
    this.loadState = 'loading';
    this.kit.announce(m.loadingPlans);
    const outcome = await this.kit.endpointRequests.request(installmentPlansCall, {
      merchant_reference: this.host.merchantReference,
      language: this.host.language,
    });
    switch (outcome.status) {
      case 'success': {
        this.plans = outcome.value;
        this.loadState = 'loaded';
        const offers = issuerOffers(outcome.value, this.host.monthlySource);
        const planCount = offers.reduce((count, offer) => count + offer.plans.length, 0);
        this.kit.announce(
          planCount > 0
            ? m.plansReady(planCount)
            : m.unavailable.notForAmount(formatMoney(outcome.value.amount, outcome.value.currency, this.host.language)),
        );
        this.host.dispatchEvent(new PgPlansLoadEvent(offers.length, planCount));
        break;
      }
      case 'error':
        this.loadState = 'failed';
        this.loadError = outcome.message;
        this.kit.announce(`${m.unavailable.failed} ${outcome.message}`, 'error');
        break;
      case 'cancelled':
        this.loadState = 'failed';
        this.loadError = '';
        this.kit.clearStatus();
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
        if (issuer) this.kit.announce(this.#messages.issuerMatched(issuerText(issuer, 'issuer_name', this.host.language) ?? ''));
      }
    } else if (match.kind === 'not-eligible') {
      if (this.issuerCode !== undefined) this.#choose(undefined, undefined);
      this.kit.announce(this.#messages.unavailable.cardNotEligible);
    }
  }

  #choose(issuerCode: string | undefined, planCode: string | undefined): void {
    const changed = issuerCode !== this.issuerCode || planCode !== this.planCode;
    if (issuerCode !== this.issuerCode) this.agreed = false;
    this.issuerCode = issuerCode;
    this.planCode = planCode;
    if (changed) this.host.dispatchEvent(new Event('change', { bubbles: true }));
  }

  #syncFormValue(): void {
    const selection = this.selection;
    if (selection) {
      const value = new FormData();
      value.set('installments', this.host.completion === 'hosted-page' ? 'STANDALONE' : completionInstallments('merchant-page'));
      value.set('issuer_code', selection.issuerCode);
      value.set('plan_code', selection.planCode);
      value.set('number_of_installments', String(selection.months));
      this.kit.internals.setFormValue(value, `${selection.issuerCode}/${selection.planCode}`);
    } else {
      this.kit.internals.setFormValue(null);
    }
    const m = this.#messages;
    const query = (selector: string) => this.host.renderRoot.querySelector<HTMLElement>(selector) ?? undefined;
    if (this.payingInFull) {
      this.kit.internals.setValidity({});
    } else if (selection && !this.agreed) {
      this.kit.internals.setValidity({ valueMissing: true }, m.agreeRequired, query('#agree'));
    } else if (!selection && (this.host.required || this.issuerCode)) {
      const ready = this.#situation === 'ready';
      const message = ready && !this.issuerCode ? m.issuerRequired : m.planRequired;
      const anchor = !ready
        ? query('button.pay-in-full')
        : this.issuerCode
          ? query('#plan') ?? query('input[name="plan"]')
          : query('input[name="issuer"]:not([disabled])');
      this.kit.internals.setValidity({ valueMissing: true }, message, anchor);
    } else {
      this.kit.internals.setValidity({});
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
    this.host.dispatchEvent(new Event('change', { bubbles: true }));
  };

  readonly #onRetryLoad = (): void => {
    void this.#loadPlans();
  };

  readonly #onPayInFull = (): void => {
    const situation = this.#situation;
    const reason: PayInFullReason = situation === 'ready' || situation === 'idle' || situation === 'loading' ? 'no-plans' : situation;
    if (!this.host.dispatchEvent(new PgPayInFullEvent(reason))) return;
    this.payingInFull = true;
    this.#choose(undefined, undefined);
    this.kit.announce(this.#messages.payingInFull);
    // The button that had focus is gone: keep the keyboard user moving towards Pay.
    void this.host.updateComplete.then(() =>
      (this.host.renderRoot.querySelector<HTMLElement>('.Pay') ?? this.host.renderRoot.querySelector<HTMLElement>('.paying-in-full'))?.focus(),
    );
  };

  readonly #onSubmit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (this.paying || this.formDisabled || !this.#hasPayButton) return;
    const hostedCheckout = this.host.completion === 'hosted-checkout';
    this.showErrors = true;
    if (hostedCheckout) this.card.touchAll();
    const choiceValid = this.payingInFull || (this.selection !== undefined && this.agreed);
    if ((hostedCheckout && !this.card.valid) || !choiceValid) {
      const count = await this.kit.reportInvalidFields();
      if (count === 0) this.#payInFullButton?.focus();
      return;
    }
    this.paying = true;
    this.payError = '';
    const selection = this.selection;
    const base = {
      merchant_reference: this.host.merchantReference,
      language: this.host.language,
      command: this.host.command,
      // The amount the plans were worked out from: the endpoint charges it or refuses.
      ...(this.plans && { amount: this.plans.amount, currency: this.plans.currency }),
    };
    const outcome = hostedCheckout
      ? await this.kit.endpointRequests.request(merchantPageCall, {
          ...base,
          ...(selection && { plan_code: selection.planCode, issuer_code: selection.issuerCode }),
        })
      : await this.kit.endpointRequests.request(hostedPageCall, {
          ...base,
          ...(this.payingInFull ? {} : { installments: 'STANDALONE' as const }),
        });
    if (outcome.status === 'success') {
      this.kit.announce(this.#messages.redirecting);
      postToGateway(this.host, hostedCheckout ? 'merchant-page' : 'hosted-page', outcome.value, hostedCheckout ? this.card.gatewayFields() : {});
      return;
    }
    this.paying = false;
    if (outcome.status === 'error') {
      this.payError = outcome.message;
      this.kit.announce(outcome.message, 'error');
    }
  };
}

/** What the element loads: its view, styles and catalogs. */
export const installmentsView: ViewModule<PgInstallments, InstallmentsMessages> = {
  catalogs: installmentsMessages,
  styles: [cardFormStyles, installmentsStyles],
  create: (host: PgInstallments, kit: ElementKit<InstallmentsMessages>) => new InstallmentsView(host, kit),
};
