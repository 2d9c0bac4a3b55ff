/**
 * The base class of every pg- element: the attributes they all share (endpoint, merchant
 * reference, language, theme file), the endpoint controller, the single polite live region, the
 * right-to-left frame, the focus-the-first-error rule, and what the element shows while a part of
 * it loads (its catalog in a language other than English, or the code of a lazily loaded element):
 * a pending state, or an error with a way to try again, never text in two languages.
 */
import { LitElement, html, nothing, type CSSResultGroup, type PropertyValues, type TemplateResult } from 'lit';
import { directionOf, type Language } from '../../core/language.ts';
import { EndpointController } from './endpoint-controller.ts';
import { loadCatalog, loadedCatalog, type Catalogs, type Renderable } from './localize.ts';
import { describeRequestError, LOADING_TEXT, type SharedMessages } from './messages.ts';
import { defineReadingAccessor, type ElementProperties } from './property.ts';
import { languageReader, textReader } from './property-readers.ts';
import { foundationStyles } from './styles.ts';

/**
 * A failed step's message and its **Try again** button (none without `retry`), as every element
 * shows it. `alert`: announced at once (a failed load, which has no live region of its own yet).
 */
export function renderFailure(message: unknown, retryLabel: string, retry?: (event: Event) => void, alert?: boolean): TemplateResult {
  return html`<div class="failure" part="failure" role=${alert ? 'alert' : nothing}>
    <p class="error" part="error">${message}</p>
    ${retry ? html`<button type="button" class="retry" part="retry" @click=${retry}>${retryLabel}</button>` : nothing}
  </div>`;
}

/** Whether the element's code and catalog are at hand. */
export type LoadState = 'ready' | 'loading' | 'failed';

/** Tone of the live region's current message. */
export type StatusTone = 'info' | 'error' | 'success';

export interface StatusMessage {
  readonly text: Renderable;
  readonly tone: StatusTone;
}

/**
 * @cssprop --pg-font-family - Font of the element's text.
 * @cssprop --pg-font-size - Base font size.
 * @cssprop --pg-color-on-surface - Text colour.
 * @cssprop --pg-color-surface - Background of the element's frame.
 * @cssprop --pg-color-muted - Colour of hints and secondary text.
 * @cssprop --pg-color-outline - Border colour of fields.
 * @cssprop --pg-color-field - Background of fields.
 * @cssprop --pg-color-primary - Accent colour: the Pay button, links, checkboxes.
 * @cssprop --pg-color-on-primary - Text on the accent colour.
 * @cssprop --pg-color-error - Colour of error messages and invalid fields.
 * @cssprop --pg-color-focus - Focus ring colour.
 * @cssprop --pg-space - Base spacing unit.
 * @cssprop --pg-radius - Corner radius of the frame.
 * @cssprop --pg-radius-small - Corner radius of fields and buttons.
 * @cssprop --pg-pay-background - Background of the Pay button (falls back to --pg-color-primary).
 * @cssprop --pg-pay-color - Text of the Pay button (falls back to --pg-color-on-primary).
 * @csspart frame - The element's outer container; carries `dir` and `lang`.
 * @csspart status - The polite live region with the element's current message.
 * @cssstate pending - A request to the merchant endpoint is in flight.
 * @cssstate loading - The element's code, or its text in the page's language, is still loading.
 * @csspart failure - A failed request's (or a failed load's) message and retry button.
 * @fires pg-request-start - Before every request to the merchant endpoint; cancelable.
 * @fires pg-request-success - A request succeeded and its answer passed the contract.
 * @fires pg-request-error - A request failed; carries the route, kind, endpoint code and shown message.
 * @fires pg-request-complete - Last event of every started request.
 */
export abstract class PgElement<Messages extends SharedMessages = SharedMessages> extends LitElement {
  static override styles: CSSResultGroup = foundationStyles;

  /**
   * Adds the styles of a part of the element that loaded later (in the same cascade layer) after
   * the element's own. Each style keeps one sheet for every element (Lit's `CSSResult` makes it once).
   */
  protected addStyles(styles: CSSResultGroup): void {
    const root = this.renderRoot;
    if (!(root instanceof ShadowRoot)) return;
    const sheets = (this.constructor as typeof PgElement)
      .finalizeStyles(styles)
      .map((style) => (style instanceof CSSStyleSheet ? style : style.styleSheet));
    const added = sheets.filter((sheet): sheet is CSSStyleSheet => sheet !== undefined && !root.adoptedStyleSheets.includes(sheet));
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...added];
  }

  static override properties: ElementProperties = {
    endpoint: { converter: textReader },
    merchantReference: { converter: textReader },
    orderToken: { converter: textReader },
    language: { converter: languageReader },
    themeHref: { converter: textReader },
    status: { state: true, attribute: false },
    catalogFailed: { state: true, attribute: false },
  };

  /**
   * Before Lit creates a class's own properties, gives each one declared with a reader
   * (property.ts) its attribute, the property's name in kebab case unless declared
   * (`billNumber`: `bill-number`), and the accessor that runs every value set through that
   * reader; Lit wraps it.
   * @internal
   */
  protected static override finalize(): void {
    if (!Object.hasOwn(this, 'finalized') && Object.hasOwn(this, 'properties')) {
      for (const [name, options] of Object.entries(this.properties)) {
        if (!('converter' in options)) continue;
        (options as { attribute?: string | boolean }).attribute ??= name.replace(/[A-Z]/g, '-$&').toLowerCase();
        defineReadingAccessor(this.prototype, name, options.converter);
      }
    }
    super.finalize();
  }

  /** URL of the merchant endpoint (for example `/pg`); routes are appended to it. */
  endpoint = '';

  /** The merchant's order number, as the merchant endpoint knows it. */
  merchantReference = '';

  /**
   * The shop's opaque token for this order and this customer, sent to the endpoint as the
   * `pg-order-token` header so that a standalone endpoint on another origin can have the shop
   * check the order is the caller's. A per-order value the shop gave the page, never a merchant secret.
   */
  orderToken = '';

  /** Language of all text: `en` or `ar` (right-to-left); anything else reads as `en`. */
  language: Language = 'en';

  /** Address of a stylesheet (such as a back-office theme file) loaded inside the shadow root. */
  themeHref = '';

  /** The live region's current message. */
  protected status: StatusMessage | undefined;

  /** A catalog that could not be loaded (the network failed): shown with a way to try again. */
  private catalogFailed = false;

  /**
   * The element's text in every language; set by the element (a lazily loaded element sets it
   * when its code arrives). Until then, and while the page's language loads, the element shows
   * its pending state.
   */
  protected catalogs: Catalogs<Messages> | undefined;

  /** Custom states (`:state(pending)`) and, for form controls, the form value and validity. */
  protected readonly internals: ElementInternals = this.attachInternals();

  /** Every call to the merchant endpoint goes through this controller. */
  protected readonly endpointRequests = new EndpointController(this, {
    describeError: (error) => describeRequestError(error, this.messages),
  });

  /** True while a request to the merchant endpoint is in flight (also `:state(pending)`). */
  get pending(): boolean {
    return this.endpointRequests.pending;
  }

  /** `ltr` or `rtl`, from the language. */
  protected get direction(): 'ltr' | 'rtl' {
    return directionOf(this.language);
  }

  /**
   * The element's text in its language, once loaded; English until then (what an announcement or
   * an event made while the language loads says; the element itself shows its pending state).
   */
  protected get messages(): Messages {
    const catalogs = this.catalogs;
    if (!catalogs) throw new Error(`<${this.localName}> has no catalog yet`);
    return loadedCatalog(catalogs, this.language) ?? catalogs.en;
  }

  /** Whether the element can show its content: its catalog in its language is at hand. */
  protected get loadState(): LoadState {
    if (this.catalogFailed) return 'failed';
    return this.catalogs && loadedCatalog(this.catalogs, this.language) ? 'ready' : 'loading';
  }

  /** The element's content once everything it needs has loaded (what `render()` is to other Lit elements). */
  protected abstract renderContent(): unknown;

  /** The content, or the pending state while a part of the element loads, or the failed load with a retry. */
  override render(): unknown {
    const state = this.loadState;
    return state === 'ready' ? this.renderContent() : this.renderFrame(this.renderLoadState(state));
  }

  /** The pending state (a polite "Loading…") or a failed load's message with **Try again**. */
  protected renderLoadState(state: Exclude<LoadState, 'ready'>): TemplateResult {
    const text = LOADING_TEXT[this.language];
    if (state === 'loading') return html`<p class="loading muted">${text.loading}</p>`;
    return renderFailure(this.loadFailedMessage, text.retry, () => this.retryLoad(), true);
  }

  /** What the element says when a part of it could not be loaded (the network failed). */
  protected get loadFailedMessage(): string {
    return LOADING_TEXT[this.language].failed;
  }

  /** Tries again what failed to load. */
  protected retryLoad(): void {
    this.catalogFailed = false;
  }

  /**
   * Wraps an element's content: the theme stylesheet, the frame carrying `dir`/`lang`, and the
   * one polite live region. The region stays in the DOM (changes to it are announced) and is
   * visually hidden: elements show their messages in place, next to what they concern. While a
   * customer's action waits long on the network it says "Processing…", visibly, under the button.
   */
  protected renderFrame(content: unknown): TemplateResult {
    const tone = this.status?.tone ?? 'info';
    const slow = this.endpointRequests.slow;
    return html`
      ${this.themeHref ? html`<link rel="stylesheet" href=${this.themeHref} />` : nothing}
      <div class="frame" part="frame" dir=${this.direction} lang=${this.language}>
        ${content}
        <span class="status ${slow ? 'muted' : 'visually-hidden'} ${tone}" part="status" role="status">${slow ? this.messages.processing : (this.status?.text ?? nothing)}</span>
      </div>
    `;
  }

  protected override update(changed: PropertyValues): void {
    this.setCustomState('pending', this.endpointRequests.pending);
    // "Processing…" replaces what the region said: that must not be said again once it ends.
    if (this.endpointRequests.slow) this.status = undefined;
    this.#loadLanguage();
    this.setCustomState('loading', this.loadState === 'loading');
    super.update(changed);
  }

  /** Starts loading the catalog of the element's language unless it is at hand (or failed: the customer retries). */
  #loadLanguage(): void {
    const { catalogs, language } = this;
    if (!catalogs || this.catalogFailed || loadedCatalog(catalogs, language)) return;
    loadCatalog(catalogs, language).then(
      () => this.requestUpdate(),
      () => {
        if (this.language === language) this.catalogFailed = true;
      },
    );
  }

  /** Adds or removes a custom state, styled from outside as `pg-checkout:state(name)`. */
  protected setCustomState(name: string, on: boolean): void {
    if (on) this.internals.states.add(name);
    else this.internals.states.delete(name);
  }

  /** Puts `text` in the live region. */
  protected announce(text: Renderable, tone: StatusTone = 'info'): void {
    this.status = { text, tone };
  }

  protected clearStatus(): void {
    this.status = undefined;
  }

  /**
   * After a failed submit: renders, moves focus to the first field marked `aria-invalid="true"`
   * and announces how many fields need attention. Returns that number (0: nothing focused).
   */
  protected async reportInvalidFields(): Promise<number> {
    await this.updateComplete;
    const invalid = [...this.renderRoot.querySelectorAll<HTMLElement>('[aria-invalid="true"]')];
    // A radio group counts once.
    const fields = new Set(invalid.map((element) => element.getAttribute('name') || element.id || element));
    invalid[0]?.focus();
    if (fields.size > 0) this.announce(this.messages.fixErrors(fields.size), 'error');
    return fields.size;
  }
}
