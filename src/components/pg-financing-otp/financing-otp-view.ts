/**
 * The body of `<pg-financing-otp>`, loaded when the element first meets a document (see
 * shared/element-view.ts): the phone, the one-time code with its resend countdown, the tenure
 * table and the purchase, each step through the endpoint, resumable from the session.
 */
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { formatMoney } from '../../core/amounts.ts';
import type { PaymentResult } from '../../core/endpoint-results.ts';
import { financingOtpCall, financingPurchaseCall, financingVerifyCustomerCall, financingVerifyOtpCall, orderCall } from '../../core/endpoint-routes.ts';
import type { Language } from '../../core/language.ts';
import { financingTotal, normalizeFinancingPhone } from '../../core/partners.ts';
import { countdownDigits, timeLeft } from '../../core/voucher.ts';
import { CountdownController } from '../shared/countdown.ts';
import { ElementView, viewState, type ElementKit, type ViewModule } from '../shared/element-view.ts';
import type { EndpointRequestError } from '../shared/endpoint-client.ts';
import { live } from '../shared/live.ts';
import { renderFailure } from '../shared/pg-element.ts';
import { ltr } from '../shared/localize.ts';
import { pageSessionStorage } from '../shared/session-storage.ts';
import { PgFinancingCompleteEvent, PgFinancingStepEvent } from './events.ts';
import {
  INITIAL_FINANCING_STATE,
  clearFlowState,
  loadFlowState,
  maskPhone,
  normalizeOtp,
  saveFlowState,
  type FinancingState,
  type FinancingStep,
} from './flow-state.ts';
import { financingOtpMessages, type FinancingOtpMessages } from './messages.ts';
import type { PgFinancingOtp } from './pg-financing-otp.ts';
import { financingOtpStyles } from './styles.ts';

/** Gateway response codes this element tells apart (src/core/response.ts). */
const NOT_REGISTERED = '91001';
const WRONG_OTP = '93001';
const OTP_LOCKED = '93002';

/** Endpoint codes that mean the flow token can no longer be used: the customer starts again. */
const FLOW_ENDED = new Set(['flow_invalid', 'step_out_of_order']);

/** A failed request: the step it is shown in, its message and what "try again" does. */
interface StepFailure {
  readonly step: FinancingStep;
  readonly message: string;
  /** Absent when trying again cannot help (the order is paid). */
  readonly retry?: (() => void) | undefined;
}

const FINANCING_ROUTES = ['financingVerifyCustomer', 'financingOtp', 'financingVerifyOtp', 'financingPurchase'] as const;

// The customer's three steps; the outcome that follows them is not one (a drop-in shows its own result there).
const STEP_NUMBER: Readonly<Record<Exclude<FinancingStep, 'done'>, number>> = { phone: 1, verified: 2, otp: 2, tenure: 3 };

export class FinancingOtpView extends ElementView<PgFinancingOtp, FinancingOtpMessages> {
  static {
    viewState(this, 'flow', 'orderCurrency', 'orderAmount', 'phoneInput', 'phoneError', 'otpInput', 'otpError', 'tenureChoice', 'tenureError', 'failure', 'now');
  }

  private flow: FinancingState = INITIAL_FINANCING_STATE;
  private orderCurrency = '';
  private orderAmount: number | undefined;
  private phoneInput = '';
  private phoneError = '';
  private otpInput = '';
  private otpError = '';
  private tenureChoice: number | undefined;
  private tenureError = '';
  private failure: StepFailure | undefined;
  private now = 0;

  readonly #countdown = new CountdownController(this.host, {
    clock: () => this.host.clock,
    deadline: () => (this.flow.step === 'otp' ? this.#resendAt : undefined),
    tick: (now) => {
      this.now = now;
    },
    reached: (fromTick) => {
      if (fromTick) this.kit.announce(this.#messages.otp.resendReady);
    },
  });
  /** Selector of the control to focus after the next render (only after the customer acted). */
  #focusNext: string | undefined;
  /** The order is read once per merchant reference (when the page gives no currency). */
  #orderRead = false;

  /** The step the customer has reached (the element's `step`). */
  get step(): FinancingStep {
    return this.flow.step;
  }

  get #messages(): FinancingOtpMessages {
    return this.kit.messages;
  }

  get #currency(): string {
    return this.flow.currency ?? (this.host.currency.trim().toUpperCase() || this.orderCurrency);
  }

  get #resendAt(): number | undefined {
    const afterLastCode = this.flow.otpSentAt === undefined ? undefined : this.flow.otpSentAt + this.host.resendAfter * 1000;
    const notBefore = this.flow.resendNotBefore;
    if (notBefore === undefined) return afterLastCode;
    return afterLastCode === undefined ? notBefore : Math.max(afterLastCode, notBefore);
  }

  /** A step's request is in flight (reading the order does not count: it never blocks a step). */
  get #stepPending(): boolean {
    return FINANCING_ROUTES.some((route) => this.kit.endpointRequests.isPending(route));
  }

  get #resendReady(): boolean {
    const resendAt = this.#resendAt;
    return resendAt === undefined || this.host.clock.now() >= resendAt;
  }

  get #attemptsLeft(): number {
    return Math.max(0, this.host.maxOtpAttempts - this.flow.wrongAttempts);
  }

  // ---- Lifecycle ----

  override willUpdate(changed: PropertyValues): void {
    if (changed.has('merchantReference')) {
      this.flow = loadFlowState(pageSessionStorage(), this.host.merchantReference);
      this.tenureChoice = this.flow.tenure;
      this.phoneInput = this.otpInput = '';
      this.phoneError = this.otpError = this.tenureError = '';
      this.failure = undefined;
      this.orderCurrency = '';
      this.orderAmount = undefined;
      this.#orderRead = false;
    }
    if (changed.has('clock')) this.now = this.host.clock.now();
    // The order's amount and currency, for display, when the page does not give them.
    if (this.flow.step === 'phone' && !this.#orderRead && !this.host.currency && this.host.endpoint && this.host.merchantReference) {
      void this.#loadOrder();
    }
  }

  override updated(changed: PropertyValues): void {
    if (changed.has('flow') || changed.has('clock') || changed.has('resendAfter')) this.#countdown.schedule();
    if (this.#focusNext) {
      const target = this.host.renderRoot.querySelector<HTMLElement>(this.#focusNext);
      this.#focusNext = undefined;
      target?.focus();
    }
  }

  // ---- Steps ----

  async #submitPhone(event: Event): Promise<void> {
    event.preventDefault();
    if (this.#stepPending) return;
    const m = this.#messages;
    const phone = normalizeFinancingPhone(this.phoneInput);
    // The partner's market is checked here, before anything is sent.
    this.phoneError = this.phoneInput.trim() === '' ? m.phone.required : phone ? '' : m.phone.invalid;
    if (!phone) {
      await this.#reportInvalid(this.phoneError);
      return;
    }
    this.failure = undefined;
    this.kit.announce(m.phone.checking);
    const outcome = await this.kit.endpointRequests.request(financingVerifyCustomerCall, {
      ...this.#orderFields(),
      phone_number: phone,
    });
    if (outcome.status !== 'success') {
      if (outcome.status === 'error') this.#phoneFailed(outcome.error, outcome.message);
      else this.kit.clearStatus();
      return;
    }
    const currency = this.#currency;
    this.#commit({
      version: 1,
      step: 'verified',
      flow: outcome.value.flow,
      maskedPhone: maskPhone(phone),
      ...(currency && { currency }),
      wrongAttempts: 0,
    });
    this.host.dispatchEvent(new PgFinancingStepEvent('verified'));
    await this.#sendCode();
  }

  #phoneFailed(error: EndpointRequestError, message: string): void {
    const m = this.#messages;
    const notRegistered = error.responseCode === NOT_REGISTERED;
    if (notRegistered || error.field === 'phone_number') {
      this.phoneError = notRegistered ? m.phone.notRegistered : m.phone.invalid;
      void this.#reportInvalid(this.phoneError);
    } else {
      this.#fail('phone', message, () => void this.#submitPhone(new Event('submit')));
    }
  }

  /** OTP_GENERATE: the first code after CUSTOMER_VERIFY, or a new one ("send a new code"). */
  async #sendCode(): Promise<void> {
    if (this.#stepPending || !this.flow.flow) return;
    const m = this.#messages;
    const from = this.flow.step;
    this.failure = undefined;
    this.kit.announce(m.otp.sending);
    if (!this.#currency) await this.#loadOrder();
    const outcome = await this.kit.endpointRequests.request(financingOtpCall, {
      ...this.#orderFields(),
      flow: this.flow.flow,
      ...(this.host.products.length > 0 && { products: this.host.products }),
    });
    const retry = (): void => void this.#sendCode();
    if (outcome.status !== 'success') {
      if (outcome.status === 'error') {
        const wait = outcome.error.code === 'otp_resend_limited' ? outcome.error.retryAfterSeconds : undefined;
        // Too many codes: the resend countdown runs until the endpoint will send one again.
        if (wait !== undefined) {
          this.now = this.host.clock.now();
          this.#commit({ ...this.flow, resendNotBefore: this.now + wait * 1000 });
        }
        this.#stepFailed(from, outcome.error, outcome.message, retry);
      } else this.kit.clearStatus();
      return;
    }
    const currency = this.#currency;
    if (!currency) {
      this.#fail(from, m.errors.invalidResponse, retry);
      return;
    }
    const sentAt = this.host.clock.now();
    this.#commit({
      ...this.flow,
      step: 'otp',
      flow: outcome.value.flow,
      currency,
      downPayment: outcome.value.down_payment,
      tenureMonths: outcome.value.tenure_months,
      otpSentAt: sentAt,
      resendNotBefore: undefined,
      wrongAttempts: 0,
      locked: false,
    });
    this.now = sentAt;
    this.otpInput = '';
    this.otpError = '';
    this.kit.announce(m.otp.sentAnnounce(this.flow.maskedPhone ?? '', this.host.resendAfter), 'success');
    this.#focusNext = '#otp';
    if (from !== 'otp') this.host.dispatchEvent(new PgFinancingStepEvent('otp'));
  }

  async #submitOtp(event: Event): Promise<void> {
    event.preventDefault();
    if (this.#stepPending || !this.flow.flow) return;
    const m = this.#messages;
    const code = normalizeOtp(this.otpInput);
    // A locked field keeps a message that already says why (the phone number's ceiling).
    if (this.flow.locked) this.otpError ||= m.otp.locked;
    else this.otpError = code === '' ? m.otp.required : code.length !== this.host.otpLength ? m.otp.format(this.host.otpLength) : '';
    if (this.otpError) {
      await this.#reportInvalid(this.otpError);
      return;
    }
    this.failure = undefined;
    this.kit.announce(m.otp.verifying);
    const outcome = await this.kit.endpointRequests.request(financingVerifyOtpCall, {
      ...this.#orderFields(),
      flow: this.flow.flow,
      otp: code,
    });
    if (outcome.status !== 'success') {
      if (outcome.status === 'error') this.#otpFailed(outcome.error, outcome.message);
      else this.kit.clearStatus();
      return;
    }
    this.otpInput = '';
    this.#commit({
      ...this.flow,
      step: 'tenure',
      flow: outcome.value.flow,
      downPayment: outcome.value.down_payment,
      tenures: outcome.value.tenures,
      otpSentAt: undefined,
    });
    this.tenureChoice = undefined;
    this.kit.announce(m.tenure.verifiedNote, 'success');
    this.#focusNext = 'input[name="tenure"]';
    this.host.dispatchEvent(new PgFinancingStepEvent('tenure'));
  }

  #otpFailed(error: EndpointRequestError, message: string): void {
    const m = this.#messages;
    if (error.responseCode === WRONG_OTP || error.responseCode === OTP_LOCKED) {
      const wrongAttempts = error.responseCode === OTP_LOCKED ? this.host.maxOtpAttempts : this.flow.wrongAttempts + 1;
      const locked = error.responseCode === OTP_LOCKED || wrongAttempts >= this.host.maxOtpAttempts;
      // The phone number's own ceiling (the endpoint says when it frees up): a new code would not
      // help before then, so the resend countdown runs until that time.
      const wait = error.code === 'otp_attempts_limited' ? error.retryAfterSeconds : undefined;
      this.now = this.host.clock.now();
      this.#commit({ ...this.flow, wrongAttempts, locked, resendNotBefore: wait === undefined ? this.flow.resendNotBefore : this.now + wait * 1000 });
      this.otpError = wait !== undefined ? m.errors.otpAttemptsLimited : locked ? m.otp.locked : m.otp.wrong(this.#attemptsLeft);
      this.kit.announce(this.otpError, 'error');
      // A locked field is disabled: focus goes to the new-code button when it is ready, else to the lock message.
      this.#focusNext = locked ? (this.#resendReady ? '.resend-button' : '#otp-error') : '#otp';
      if (!locked) void this.host.updateComplete.then(() => this.host.renderRoot.querySelector<HTMLInputElement>('#otp')?.select());
      return;
    }
    this.#stepFailed('otp', error, message, () => void this.#submitOtp(new Event('submit')));
  }

  async #submitPurchase(event: Event): Promise<void> {
    event.preventDefault();
    if (this.#stepPending || !this.flow.flow || this.flow.step !== 'tenure') return;
    const m = this.#messages;
    const tenure = this.tenureChoice;
    if (tenure === undefined) {
      this.tenureError = m.tenure.required;
      this.kit.announce(this.tenureError, 'error');
      this.#focusNext = 'input[name="tenure"]';
      this.host.requestUpdate();
      return;
    }
    this.failure = undefined;
    this.kit.announce(m.tenure.confirming);
    const outcome = await this.kit.endpointRequests.request(financingPurchaseCall, {
      ...this.#orderFields(),
      flow: this.flow.flow,
      tenure,
      ...(this.host.customerEmail && { customer_email: this.host.customerEmail }),
    });
    const retry = (): void => void this.#submitPurchase(new Event('submit'));
    if (outcome.status !== 'success') {
      if (outcome.status === 'error') this.#stepFailed('tenure', outcome.error, outcome.message, retry);
      else this.kit.clearStatus();
      return;
    }
    const result = outcome.value;
    if (result.outcome === 'failure') {
      // Declined: the OTP is still verified, so the customer may try again or start over.
      this.#fail('tenure', `${result.response_message || m.errors.gatewayRefused} ${m.tenure.declinedHint}`, retry);
      return;
    }
    this.#commit({ ...this.flow, step: 'done', tenure, result });
    this.kit.announce(result.outcome === 'success' ? m.done.success : m.done.pending, 'success');
    this.#focusNext = '.result .title';
    this.host.dispatchEvent(new PgFinancingStepEvent('done'));
    this.host.dispatchEvent(new PgFinancingCompleteEvent(result as PaymentResult & { outcome: 'success' | 'pending' }, tenure));
  }

  #stepFailed(step: FinancingStep, error: EndpointRequestError, message: string, retry: () => void): void {
    if (error.code && FLOW_ENDED.has(error.code)) {
      this.#restart(this.#messages.sessionExpired);
      return;
    }
    // Paid another way meanwhile: asking again would only be refused again.
    this.#fail(step, message, error.code === 'order_already_paid' ? undefined : retry);
  }

  #fail(step: FinancingStep, message: string, retry?: () => void): void {
    this.failure = { step, message, retry };
    this.kit.announce(message, 'error');
    this.#focusNext = '.retry';
  }

  /** Back to the first step: the stored flow is dropped and the customer types a number again. */
  #restart(message?: string): void {
    clearFlowState(pageSessionStorage(), this.host.merchantReference);
    this.flow = INITIAL_FINANCING_STATE;
    this.otpInput = this.otpError = this.tenureError = '';
    this.phoneError = '';
    this.tenureChoice = undefined;
    this.failure = undefined;
    if (message) this.kit.announce(message, 'error');
    else this.kit.clearStatus();
    this.#focusNext = '#phone';
  }

  #retry(): void {
    const failure = this.failure;
    this.failure = undefined;
    failure?.retry?.();
  }

  /** Announces `message` and focuses the field in error; the message is read with it (aria-describedby). */
  async #reportInvalid(message: string): Promise<void> {
    this.kit.announce(message, 'error');
    await this.host.updateComplete;
    this.host.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }

  #commit(next: FinancingState): void {
    this.flow = next;
    saveFlowState(pageSessionStorage(), this.host.merchantReference, next);
  }

  #orderFields(): { merchant_reference: string; language: Language; currency?: string; amount?: number } {
    const currency = this.host.currency.trim().toUpperCase();
    return {
      merchant_reference: this.host.merchantReference,
      language: this.host.language,
      ...(currency && { currency }),
      ...(currency && this.host.amount !== undefined && { amount: this.host.amount }),
    };
  }

  async #loadOrder(): Promise<void> {
    this.#orderRead = true;
    const outcome = await this.kit.endpointRequests.request(orderCall, {
      merchant_reference: this.host.merchantReference,
      language: this.host.language,
    });
    if (outcome.status === 'success') {
      this.orderCurrency = outcome.value.currency;
      this.orderAmount = outcome.value.amount;
    }
  }

  // ---- Rendering ----

  render(): TemplateResult {
    const m = this.#messages;
    return this.kit.renderFrame(html`
      <div class="financing" part="financing">
        <p class="title" part="title">${m.title}</p>
        ${this.flow.step === 'done' ? nothing : html`<p class="progress" part="progress">${m.progress(STEP_NUMBER[this.flow.step], 3)}</p>`}
        ${this.#renderStep()}
      </div>
    `);
  }

  #renderStep(): TemplateResult {
    switch (this.flow.step) {
      case 'phone':
        return this.#renderPhone();
      case 'verified':
        return this.#renderVerified();
      case 'otp':
        return this.#renderOtp();
      case 'tenure':
        return this.#renderTenure();
      case 'done':
        return this.#renderDone();
    }
  }

  #renderFailure(step: FinancingStep): unknown {
    return this.failure?.step === step ? renderFailure(this.failure.message, this.#messages.retry, this.failure.retry && (() => this.#retry())) : nothing;
  }

  #money(minor: number): TemplateResult {
    return ltr(formatMoney(minor, this.#currency, this.host.language));
  }

  #renderPhone(): TemplateResult {
    const m = this.#messages;
    const busy = this.kit.endpointRequests.isPending('financingVerifyCustomer');
    const amount = this.host.amount ?? this.orderAmount;
    const invalid = this.phoneError !== '';
    return html`
      <form class="step" novalidate aria-busy=${busy} @submit=${(e: Event) => void this.#submitPhone(e)}>
        <p>${m.phone.intro}</p>
        ${amount !== undefined && this.#currency
          ? html`<p>${m.orderTotal}: ${this.#money(amount)}</p>`
          : nothing}
        <div class="floatl" part="floatl">
          <label for="phone">${m.phone.label}</label>
          <input
            id="phone"
            part="phone"
            type="tel"
            inputmode="tel"
            autocomplete="tel-national"
            dir="ltr"
            aria-invalid=${invalid}
            aria-describedby=${invalid ? 'phone-error phone-hint' : 'phone-hint'}
            .value=${live(this.phoneInput)}
            @input=${(e: Event) => {
              this.phoneInput = (e.target as HTMLInputElement).value;
              this.phoneError = '';
            }}
          />
          <span class="hint" id="phone-hint">${m.phone.hint}</span>
          ${invalid ? html`<p class="error" part="error" id="phone-error">${this.phoneError}</p>` : nothing}
        </div>
        ${this.#renderFailure('phone')}
        <button type="submit" class="Pay" part="Pay" aria-disabled=${busy}>
          ${busy ? m.phone.checking : m.phone.submit}
        </button>
      </form>
    `;
  }

  #renderVerified(): TemplateResult {
    const m = this.#messages;
    const busy = this.kit.endpointRequests.isPending('financingOtp');
    return html`
      <div class="step" aria-busy=${busy}>
        <p>${m.verified.text(ltr(this.flow.maskedPhone ?? ''))}</p>
        ${this.#renderFailure('verified')}
        <div class="actions">
          <button
            type="button"
            class="Pay"
            part="Pay"
            aria-disabled=${busy}
            @click=${() => void this.#sendCode()}
          >
            ${busy ? m.otp.sending : m.verified.send}
          </button>
          <button type="button" class="back link-button" part="back" @click=${() => this.#restart()}>
            ${m.otp.changePhone}
          </button>
        </div>
      </div>
    `;
  }

  #renderOtp(): TemplateResult {
    const m = this.#messages;
    const verifying = this.kit.endpointRequests.isPending('financingVerifyOtp');
    const sending = this.kit.endpointRequests.isPending('financingOtp');
    const invalid = this.otpError !== '';
    const locked = this.flow.locked === true;
    return html`
      <form class="step" novalidate aria-busy=${verifying || sending} @submit=${(e: Event) => void this.#submitOtp(e)}>
        <p>${m.otp.sentTo(ltr(this.flow.maskedPhone ?? ''))}</p>
        <dl class="summary" part="summary">
          <dt>${m.otp.downPayment}</dt>
          <dd>${this.#money(this.flow.downPayment ?? 0)}</dd>
          <dt>${m.otp.tenureOffer}</dt>
          <dd>${(this.flow.tenureMonths ?? []).map((months) => m.months(months)).join(this.host.language === 'ar' ? '، ' : ', ')}</dd>
        </dl>
        <div class="floatl" part="floatl">
          <label for="otp">${m.otp.label}</label>
          <input
            id="otp"
            class="otp-input"
            part="otp"
            type="text"
            inputmode="numeric"
            autocomplete="one-time-code"
            dir="ltr"
            spellcheck="false"
            ?disabled=${locked}
            aria-invalid=${invalid}
            aria-describedby=${invalid ? 'otp-error otp-hint' : 'otp-hint'}
            .value=${live(this.otpInput)}
            @input=${this.#onOtpInput}
            @paste=${this.#onOtpPaste}
          />
          <span class="hint" id="otp-hint">${m.otp.hint(this.host.otpLength)}</span>
          ${invalid ? html`<p class="error" part="error" id="otp-error" tabindex="-1">${this.otpError}</p>` : nothing}
        </div>
        ${this.#renderFailure('otp')}
        <button type="submit" class="Pay" part="Pay" aria-disabled=${verifying || locked}>
          ${verifying ? m.otp.verifying : m.otp.submit}
        </button>
        ${this.#renderResend(sending)}
        <div class="actions">
          <button type="button" class="back link-button" part="back" @click=${() => this.#restart()}>
            ${m.otp.changePhone}
          </button>
        </div>
      </form>
    `;
  }

  #renderResend(sending: boolean): TemplateResult {
    const m = this.#messages;
    const resendAt = this.#resendAt ?? 0;
    const left = timeLeft(resendAt, this.now);
    const waiting = !left.expired;
    return html`
      <div class="resend">
        <button
          type="button"
          class="resend-button"
          part="resend"
          ?disabled=${waiting}
          aria-disabled=${sending}
          aria-describedby=${waiting ? 'resend-countdown' : nothing}
          @click=${() => void this.#sendCode()}
        >
          ${sending ? m.otp.sending : m.otp.resend}
        </button>
        ${waiting
          ? html`<span class="countdown" part="countdown" id="resend-countdown" role="timer">
              ${m.otp.resendIn(ltr(countdownDigits(left, this.host.language)))}
            </span>`
          : nothing}
      </div>
    `;
  }

  #onOtpInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    // Arabic-Indic digits become ASCII as they are typed; anything else is dropped.
    const code = normalizeOtp(input.value);
    if (code !== input.value) input.value = code;
    this.otpInput = code;
    this.otpError = '';
  };

  /** A pasted code ("Your code is ١٢٣٤٥٦", "123 456") replaces the field with its digits. */
  #onOtpPaste = (event: ClipboardEvent): void => {
    const code = normalizeOtp(event.clipboardData?.getData('text') ?? '');
    if (code.length < this.host.otpLength) return;
    event.preventDefault();
    const input = event.target as HTMLInputElement;
    input.value = code;
    this.otpInput = code;
    this.otpError = '';
  };

  #renderTenure(): TemplateResult {
    const m = this.#messages;
    const busy = this.kit.endpointRequests.isPending('financingPurchase');
    const invalid = this.tenureError !== '';
    const tenures = this.flow.tenures ?? [];
    return html`
      <form class="step" novalidate aria-busy=${busy} @submit=${(e: Event) => void this.#submitPurchase(e)}>
        <p>${m.tenure.verifiedNote}</p>
        <dl class="summary" part="summary">
          <dt>${m.otp.downPayment}</dt>
          <dd>${this.#money(this.flow.downPayment ?? 0)}</dd>
        </dl>
        <table class="full-width" part="full-width" aria-describedby=${invalid ? 'tenure-error' : nothing}>
          <caption>${m.tenure.caption}</caption>
          <thead>
            <tr>
              <th scope="col">${m.tenure.plan}</th>
              <th scope="col">${m.tenure.emi}</th>
              <th scope="col">${m.tenure.rate}</th>
              <th scope="col">${m.tenure.total}</th>
            </tr>
          </thead>
          <tbody>
            ${tenures.map(
              (option) => html`
                <tr class=${option.months === this.tenureChoice ? 'selected' : ''} part="tenure-row">
                  <th scope="row">
                    <label>
                      <input
                        type="radio"
                        name="tenure"
                        value=${option.months}
                        aria-invalid=${invalid}
                        .checked=${live(option.months === this.tenureChoice)}
                        @change=${() => {
                          this.tenureChoice = option.months;
                          this.tenureError = '';
                        }}
                      />
                      ${m.months(option.months)}
                    </label>
                  </th>
                  <td data-label=${m.tenure.emi}>${this.#money(option.emi)}</td>
                  <td data-label=${m.tenure.rate}>${m.tenure.ratePercent(option.interest_rate)}</td>
                  <td data-label=${m.tenure.total}>${this.#money(financingTotal(this.flow.downPayment ?? 0, option.months, option.emi))}</td>
                </tr>
              `,
            )}
          </tbody>
        </table>
        ${invalid ? html`<p class="error" part="error" id="tenure-error">${this.tenureError}</p>` : nothing}
        ${this.#renderFailure('tenure')}
        <div class="actions">
          <button type="submit" class="Pay" part="Pay" aria-disabled=${busy}>
            ${busy ? m.tenure.confirming : m.tenure.confirm}
          </button>
          <button type="button" class="back link-button" part="back" @click=${() => this.#restart()}>
            ${m.startOver}
          </button>
        </div>
      </form>
    `;
  }

  #renderDone(): TemplateResult {
    const m = this.#messages;
    const result = this.flow.result;
    const chosen = this.flow.tenures?.find((option) => option.months === this.flow.tenure);
    return html`
      <div class="result" part="result">
        <p class="title" tabindex="-1">${result?.outcome === 'pending' ? m.done.pending : m.done.success}</p>
        <dl class="summary" part="summary">
          ${chosen
            ? html`<dt>${m.done.plan}</dt>
                <dd>${m.months(chosen.months)} × ${this.#money(chosen.emi)}</dd>`
            : nothing}
          ${result?.svc_id
            ? html`<dt>${m.done.reference}</dt>
                <dd>${ltr(result.svc_id)}</dd>`
            : nothing}
        </dl>
      </div>
    `;
  }
}

/** What the element loads: its view, styles and catalogs. */
export const financingOtpView: ViewModule<PgFinancingOtp, FinancingOtpMessages> = {
  catalogs: financingOtpMessages,
  styles: financingOtpStyles,
  create: (host: PgFinancingOtp, kit: ElementKit<FinancingOtpMessages>) => new FinancingOtpView(host, kit),
};
