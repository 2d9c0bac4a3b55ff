import type { Language } from '../../core/language.ts';
import { LazyPgElement, type ViewModule } from '../shared/element-view.ts';
import type { ElementProperties } from '../shared/property.ts';
import { commandReader, flagReader, oneOfReader, propertyReader, textReader } from '../shared/property-readers.ts';
import type { InstallmentsView } from './installments-view.ts';
import type { InstallmentsMessages } from './messages.ts';
import type { MonthlySource } from './plan-offers.ts';

/**
 * How the chosen plan is paid: on the gateway's hosted page (installments STANDALONE), by hosted
 * checkout (this element takes the card for a merchant page 2.0 form; installments HOSTED), or by a host.
 */
export type InstallmentsCompletion = 'hosted-page' | 'hosted-checkout' | 'none';

const completionOf = oneOfReader(['hosted-page', 'hosted-checkout', 'none'] as const, 'hosted-page');
/** `direct`, this value's former name, still reads as `hosted-checkout`. */
const completionReader = propertyReader((value): InstallmentsCompletion =>
  value === 'direct' ? 'hosted-checkout' : completionOf.fromValue(value),
);

/** The customer's choice, as it goes into the form value. */
export interface InstallmentSelection {
  readonly issuerCode: string;
  readonly planCode: string;
  readonly months: number;
}

/**
 * Installment plans for the order: loads them through the merchant endpoint, shows the issuers
 * and, for the issuer of the customer's card (found from its first digits), each eligible plan
 * with its monthly amount, fees, total and extra cost. A form control: the chosen plan and issuer
 * are its form value. Completes on the hosted page (installments STANDALONE), by hosted checkout
 * (the card typed here goes to the gateway in a merchant page 2.0 form, and the endpoint charges the
 * plan with installments HOSTED), or leaves completion to a host.
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
 * @csspart credit-card-container - The card form (`completion="hosted-checkout"`), with the brand class.
 * @csspart half1 - The expiry date field (`completion="hosted-checkout"`).
 * @csspart half2 - The security code field (`completion="hosted-checkout"`).
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
export class PgInstallments extends LazyPgElement<InstallmentsMessages> {
  static formAssociated = true;

  static override properties: ElementProperties = {
    plansView: { converter: oneOfReader(['dropdown', 'table'], 'dropdown') },
    completion: { converter: completionReader },
    cardSource: { converter: oneOfReader(['own', 'host'], 'own') },
    cardPrefix: { attribute: false, converter: textReader },
    command: { converter: commandReader },
    monthlySource: { converter: oneOfReader(['formula', 'gateway'], 'formula') },
    hideReceipt: { converter: flagReader },
    required: { converter: flagReader },
  };

  /** How the plans are shown: `dropdown` (a select) or `table`. */
  plansView: 'dropdown' | 'table' = 'dropdown';

  /** How the choice is paid: `hosted-page` (STANDALONE), `hosted-checkout` (HOSTED; `direct` reads as it) or `none` (a host or form pays). */
  completion: InstallmentsCompletion = 'hosted-page';

  /** `own`: this element asks for the card's first digits; `host`: a host sets `cardPrefix`. */
  cardSource: 'own' | 'host' = 'own';

  /** The first digits of the card typed in a host's card form (`card-source="host"`). */
  cardPrefix = '';

  /** The operation the payment runs: `PURCHASE` (default) or `AUTHORIZATION`. */
  command: 'AUTHORIZATION' | 'PURCHASE' = 'PURCHASE';

  /** Monthly amounts from the core `formula` (default) or the `gateway`'s `amountPerMonth`. */
  monthlySource: MonthlySource = 'formula';

  /** Hides the summary of the chosen plan (`receipt-container`). */
  hideReceipt = false;

  /** A plan must be chosen (or paying in full chosen) for the form to be valid. */
  required = false;

  protected declare view: InstallmentsView | undefined;
  /** A form state the browser restored before the view existed. */
  #restoredState: string | undefined;

  /** The chosen issuer and plan, when both are chosen. */
  get selection(): InstallmentSelection | undefined {
    return this.view?.selection;
  }

  /** True once the customer chose to pay in full instead. */
  get payInFull(): boolean {
    return this.view?.payInFull ?? false;
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
    return this.view ? this.view.reportValidity() : this.internals.reportValidity();
  }

  /** Submits a form built for the gateway. Override to intercept the post (tests, analytics). */
  submitForm(form: HTMLFormElement): void {
    form.submit();
  }

  formResetCallback(): void {
    this.#restoredState = undefined;
    this.view?.formResetCallback();
  }

  formDisabledCallback(disabled: boolean): void {
    this.view?.formDisabledCallback(disabled);
  }

  formStateRestoreCallback(saved: string | File | FormData | null): void {
    if (this.view) this.view.formStateRestoreCallback(saved);
    else if (typeof saved === 'string') this.#restoredState = saved;
  }

  protected override async importView(language: Language): Promise<ViewModule<PgInstallments, InstallmentsMessages>> {
    // The Arabic catalog comes with the view, not after it.
    if (language === 'ar') import('./messages.ar.ts').catch(() => {});
    return (await import('./installments-view.ts')).installmentsView;
  }

  protected override viewArrived(view: InstallmentsView): void {
    if (this.#restoredState !== undefined) view.formStateRestoreCallback(this.#restoredState);
    this.#restoredState = undefined;
  }

  protected override updated(): void {
    super.updated();
    // Until the view is here no plan can be chosen: a required choice is missing.
    if (!this.view) {
      if (this.required) this.internals.setValidity({ valueMissing: true }, LOADING_VALIDATION[this.language]);
      else this.internals.setValidity({});
    }
  }
}

/** Why a required choice is missing while the element's code loads. */
const LOADING_VALIDATION: Readonly<Record<Language, string>> = {
  en: 'The installment plans are still loading.',
  ar: 'لا تزال خطط التقسيط قيد التحميل.',
};

declare global {
  interface HTMLElementTagNameMap {
    'pg-installments': PgInstallments;
  }
}
