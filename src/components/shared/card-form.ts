/**
 * The card form of merchant page 2.0, shared by `<pg-checkout>` and a stand-alone
 * `<pg-installments completion="hosted-checkout">`: a controller that owns what was typed and the rules,
 * and renders the fields (`renderCardFields`; the template is the controller's, so its handlers stay
 * private). Card values live only here and in the form posted to the gateway (`gatewayFields()`);
 * they are never sent to the merchant endpoint or put in an event.
 */
import { html, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { normalizeDigits } from '../../core/language.ts';
import {
  cardDigits,
  cardNumberProblem,
  cvvLengths,
  cvvProblem,
  detectBrand,
  expiryProblem,
  formatCardNumber,
  formatExpiryInput,
  gatewayExpiry,
  holderProblem,
  maxCardNumberLength,
  type CardBrand,
} from './card.ts';
import { live } from './live.ts';
import type { SharedMessages } from './messages.ts';
import { css } from './styles.ts';

export type CardField = 'number' | 'expiry' | 'cvv' | 'holder';

const FIELDS: readonly CardField[] = ['number', 'expiry', 'cvv', 'holder'];

/** The input id of a field inside the host's shadow root: `card-number`, `card-expiry`, `card-cvv`, `card-holder`. */
const idOf = (field: CardField) => `card-${field}`;

/** What was typed in the card form, its rules, and the handlers; re-renders its host on change. */
export class CardFormController {
  /** Card number digits, without spaces. */
  number = '';
  /** Expiry as shown: MM/YY. */
  expiry = '';
  cvv = '';
  holder = '';
  /** "Remember this card" (`remember_me=YES`). */
  remember = false;
  /**
   * The security code may be left empty: the merchant's account has CVV suppression. Set by the
   * host from the endpoint's order answer only, never from an attribute a page could set.
   */
  cvvOptional?: boolean;
  /** Today, for the expiry rule; replaceable in tests. */
  now: () => Date = () => new Date();

  readonly #host: ReactiveControllerHost;
  readonly #edited = new Set<CardField>();
  readonly #touched = new Set<CardField>();

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
  }

  get brand(): CardBrand | undefined {
    return detectBrand(this.number);
  }

  /** The problem code of each field (undefined when the field is valid). */
  #problemOf(field: CardField): string | undefined {
    switch (field) {
      case 'number':
        return cardNumberProblem(this.number);
      case 'expiry':
        return expiryProblem(this.expiry, this.now());
      case 'cvv':
        return cvvProblem(this.cvv, this.brand, this.cvvOptional);
      case 'holder':
        return holderProblem(this.holder);
    }
  }

  /** A field's problem, but only once the customer has left it after typing, or tried to pay. */
  #visibleProblemOf(field: CardField): string | undefined {
    return this.#touched.has(field) ? this.#problemOf(field) : undefined;
  }

  /** Every field is valid. */
  get valid(): boolean {
    return FIELDS.every((field) => this.#problemOf(field) === undefined);
  }

  /** Shows every field's problem (after a submit attempt). */
  touchAll(): void {
    for (const field of FIELDS) this.#touched.add(field);
    this.#host.requestUpdate();
  }

  /**
   * Takes what the customer typed before this form was on screen, in its formats (MM/YY): a
   * field given a value counts as typed here, so leaving it shows its problem.
   */
  restore(values: Readonly<Record<CardField, string> & { remember: boolean }>): void {
    for (const field of FIELDS) {
      if (values[field]) {
        this[field] = values[field];
        this.#edited.add(field);
      }
    }
    this.remember = values.remember;
    this.#host.requestUpdate();
  }

  /** Clears everything typed. */
  reset(): void {
    this.number = this.expiry = this.cvv = this.holder = '';
    this.remember = false;
    this.#edited.clear();
    this.#touched.clear();
    this.#host.requestUpdate();
  }

  /**
   * The card fields of the merchant page 2.0 form post, exactly as the gateway takes them
   * (`expiry_date` as YYMM; no `card_security_code` when an optional one was left empty). Only
   * call once `valid` is true.
   */
  gatewayFields(): Record<string, string> {
    const fields: Record<string, string> = {
      card_number: this.number,
      expiry_date: gatewayExpiry(this.expiry) ?? '',
      card_holder_name: this.holder.trim(),
    };
    if (this.cvv) fields.card_security_code = this.cvv;
    if (this.remember) fields.remember_me = 'YES';
    return fields;
  }

  // ---- Input handlers (bound in the template) ----

  readonly #onNumberInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const caret = input.selectionStart ?? input.value.length;
    const digitsBeforeCaret = cardDigits(input.value.slice(0, caret)).length;
    const typed = cardDigits(input.value);
    const digits = typed.slice(0, maxCardNumberLength(detectBrand(typed)));
    const formatted = formatCardNumber(digits);
    input.value = formatted;
    const position = caretAfterDigits(formatted, Math.min(digitsBeforeCaret, digits.length));
    input.setSelectionRange(position, position);
    this.number = digits;
    this.#edit('number');
  };

  readonly #onExpiryInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const deleting = (event as InputEvent).inputType?.startsWith('delete') ?? false;
    input.value = formatExpiryInput(input.value, deleting);
    this.expiry = input.value;
    this.#edit('expiry');
  };

  readonly #onCvvInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    input.value = cardDigits(input.value).slice(0, Math.max(...cvvLengths(this.brand)));
    this.cvv = input.value;
    this.#edit('cvv');
  };

  readonly #onHolderInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const cleaned = normalizeDigits(input.value);
    if (cleaned !== input.value) input.value = cleaned;
    this.holder = cleaned;
    this.#edit('holder');
  };

  readonly #onRememberChange = (event: Event): void => {
    this.remember = (event.target as HTMLInputElement).checked;
    this.#host.requestUpdate();
  };

  /** Leaving a field the customer typed in shows its problem from then on. */
  readonly #onFieldBlur = (event: FocusEvent): void => {
    const field = fieldOfInput(event.target as HTMLElement);
    if (field && this.#edited.has(field) && !this.#touched.has(field)) {
      this.#touched.add(field);
      this.#host.requestUpdate();
    }
  };

  /**
   * The card fields: number (with brand), expiry (`half1`) and CVV (`half2`), holder name and
   * "remember this card", in a `credit-card-container` carrying the brand class.
   */
  renderFields(messages: SharedMessages['card'], options: CardFieldsOptions = {}): TemplateResult {
    const brand = this.brand;
    const brandClass = brand ?? '';
    const field = (name: CardField) => {
      const problem = this.#visibleProblemOf(name);
      const id = idOf(name);
      return {
        id,
        invalid: problem ? 'true' : 'false',
        describedBy: `${id}-error ${id}-hint`,
        error: html`<p id="${id}-error" class="error" part="error">${problemText(name, problem, messages)}</p>`,
      };
    };
    const number = field('number');
    const expiry = field('expiry');
    const cvv = field('cvv');
    const holder = field('holder');
    return html`
      <fieldset
        class="credit-card-container ${brandClass}"
        part="credit-card-container ${brandClass}"
        ?disabled=${options.disabled ?? false}
        @focusout=${this.#onFieldBlur}
      >
        <legend>${messages.legend}</legend>
        <div class="floatl card-number" part="floatl">
          <label for=${number.id}>${messages.number}</label>
          <div class="number-row">
            <input
              id=${number.id}
              type="text"
              inputmode="numeric"
              autocomplete="cc-number"
              dir="ltr"
              spellcheck="false"
              .value=${live(formatCardNumber(this.number))}
              aria-invalid=${number.invalid}
              aria-describedby="${number.describedBy} card-brand"
              @input=${this.#onNumberInput}
            />
            <span id="card-brand" class="brand ${brandClass}" part="brand ${brandClass}"
              >${brand ? html`<span class="visually-hidden">${messages.brand(brand)}</span><span aria-hidden="true">${brand}</span>` : ''}</span
            >
          </div>
          <span id="${number.id}-hint" class="hint">${messages.numberHint}</span>
          ${number.error}
        </div>
        <div class="split">
          <div class="floatl half1" part="floatl half1">
            <label for=${expiry.id}>${messages.expiry}</label>
            <input
              id=${expiry.id}
              type="text"
              inputmode="numeric"
              autocomplete="cc-exp"
              dir="ltr"
              placeholder="MM/YY"
              maxlength="5"
              .value=${live(this.expiry)}
              aria-invalid=${expiry.invalid}
              aria-describedby=${expiry.describedBy}
              @input=${this.#onExpiryInput}
            />
            <span id="${expiry.id}-hint" class="hint">${messages.expiryHint}</span>
            ${expiry.error}
          </div>
          <div class="floatl half2" part="floatl half2">
            <label for=${cvv.id}>${messages.cvv}</label>
            <input
              id=${cvv.id}
              type="text"
              inputmode="numeric"
              autocomplete="cc-csc"
              dir="ltr"
              maxlength="4"
              .value=${live(this.cvv)}
              aria-invalid=${cvv.invalid}
              aria-describedby=${cvv.describedBy}
              @input=${this.#onCvvInput}
            />
            <span id="${cvv.id}-hint" class="hint">${this.cvvOptional ? `${messages.cvvOptional}: ${messages.cvvHint}` : messages.cvvHint}</span>
            ${cvv.error}
          </div>
        </div>
        <div class="floatl" part="floatl">
          <label for=${holder.id}>${messages.holder}</label>
          <input
            id=${holder.id}
            type="text"
            autocomplete="cc-name"
            spellcheck="false"
            .value=${live(this.holder)}
            aria-invalid=${holder.invalid}
            aria-describedby="${holder.id}-error"
            @input=${this.#onHolderInput}
          />
          ${holder.error}
        </div>
        ${options.rememberMe === false
          ? ''
          : html`<div class="check remember">
              <input id="remember-me" type="checkbox" .checked=${live(this.remember)} @change=${this.#onRememberChange} />
              <label for="remember-me">${messages.rememberMe}</label>
            </div>`}
      </fieldset>
    `;
  }

  #edit(field: CardField): void {
    this.#edited.add(field);
    this.#host.requestUpdate();
  }
}

function fieldOfInput(element: HTMLElement): CardField | undefined {
  return FIELDS.find((field) => idOf(field) === element.id);
}

/** The caret position just after the `count`-th digit of `formatted`. */
function caretAfterDigits(formatted: string, count: number): number {
  let seen = 0;
  let position = 0;
  while (position < formatted.length && seen < count) {
    if (/\d/.test(formatted[position] ?? '')) seen += 1;
    position += 1;
  }
  return position;
}

/** The message of each problem a field can have, named after both: `numberRequired`, `expiryPast`, `cvvInvalid`… */
type ProblemMessage = Extract<keyof SharedMessages['card'], `${CardField}${'Required' | 'Incomplete' | 'Invalid' | 'Past'}`>;

function problemText(field: CardField, problem: string | undefined, messages: SharedMessages['card']): string {
  if (problem === undefined) return '';
  return messages[`${field}${problem[0]?.toUpperCase()}${problem.slice(1)}` as ProblemMessage];
}

export interface CardFieldsOptions {
  /** Show the "remember this card" checkbox (default true). */
  readonly rememberMe?: boolean;
  readonly disabled?: boolean;
}

/** The card fields of `card` (see {@link CardFormController.renderFields}). */
export function renderCardFields(
  card: CardFormController,
  messages: SharedMessages['card'],
  options: CardFieldsOptions = {},
): TemplateResult {
  return card.renderFields(messages, options);
}

/** Layout of the card fields; brand colours come from `--pg-color-visa` / `--pg-color-mastercard`. */
export const cardFormStyles = css`
  .credit-card-container {
    padding: var(--pg-space, 0.75rem);
    border: 1px solid var(--pg-card-border-color, var(--pg-color-outline, #7b8794));
    border-radius: var(--pg-radius, 0.5rem);
    border-inline-start-width: 4px;
  }

  .credit-card-container.Visa {
    border-inline-start-color: var(--pg-color-visa, #1a1f71);
  }

  .credit-card-container.MasterCard {
    border-inline-start-color: var(--pg-color-mastercard, #c2410c);
  }

  .number-row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
  }

  .number-row input {
    flex: 1 1 15rem;
    min-inline-size: 0;
  }

  .brand {
    font-weight: 700;
    font-size: 0.875em;
  }

  .brand.Visa {
    color: var(--pg-color-visa, #1a1f71);
  }

  .brand.MasterCard {
    color: var(--pg-color-mastercard, #c2410c);
  }

  .split {
    display: flex;
    flex-wrap: wrap;
    gap: var(--pg-space, 0.75rem);
  }

  .half1,
  .half2 {
    flex: 1 1 8rem;
  }

  .remember {
    margin-block-start: calc(var(--pg-space, 0.75rem) / 2);
  }
`;
