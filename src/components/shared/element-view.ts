/**
 * Elements whose implementation loads on demand. The element class a page registers is small: its
 * attributes and properties, its public methods and, for a form control, its form association:
 * everything React, Vue, the typings and the custom-elements manifest see, there at once. Its
 * view (templates, behaviour, state, styles and messages) is a module of its own, imported when
 * the element first meets a document; until then, and while the page's language loads, the
 * element shows its pending state, and a view that fails to arrive is an error with a retry.
 *
 * A view is written as an element's body would be: `host` is the element (its public
 * properties), `kit` the element's own tools (the endpoint, the live region, the frame, its form
 * internals), `viewState()` names what re-renders it, and `willUpdate(changed)` / `updated(changed)`
 * see the element's changed properties together with the view's own changed state, as Lit's do.
 * The first update after the view arrives sees every property as changed, as an element's first
 * update does.
 */
import type { CSSResultGroup, PropertyValues, ReactiveElement, TemplateResult } from 'lit';
import type { Language } from '../../core/language.ts';
import type { EndpointController } from './endpoint-controller.ts';
import { loadCatalog, type Catalogs, type Renderable } from './localize.ts';
import type { SharedMessages } from './messages.ts';
import { PgElement, type LoadState, type StatusTone } from './pg-element.ts';
import type { ElementProperties } from './property.ts';

/**
 * The element's own tools, which it lends its view (protected to everyone else): the kit a view
 * is given is the element itself, seen through this interface.
 */
export interface ElementKit<Messages extends SharedMessages> {
  readonly internals: ElementInternals;
  readonly endpointRequests: EndpointController;
  /** The element's text in its language (see PgElement `messages`). */
  readonly messages: Messages;
  announce(text: Renderable, tone?: StatusTone): void;
  clearStatus(): void;
  renderFrame(content: unknown): TemplateResult;
  reportInvalidFields(): Promise<number>;
  setCustomState(name: string, on: boolean): void;
}

/**
 * The body of a lazily loaded element. Subclasses keep their state in fields named by
 * `viewState()` and render with `render()`; the hooks are those of a Lit element, run by the element.
 */
export abstract class ElementView<Host extends PgElement<Messages>, Messages extends SharedMessages> {
  /** View state changed since the element's last update, with its value before. */
  #changed = new Map<PropertyKey, unknown>();

  constructor(
    readonly host: Host,
    protected readonly kit: ElementKit<Messages>,
  ) {}

  /** The element's content. */
  abstract render(): unknown;

  willUpdate?(changed: PropertyValues): void;
  updated?(changed: PropertyValues): void;
  connected?(): void;
  disconnected?(): void;

  /** Records a change of view state and asks the element to render again. */
  requestUpdate(name: PropertyKey, before: unknown): void {
    if (!this.#changed.has(name)) this.#changed.set(name, before);
    this.host.requestUpdate();
  }

  /**
   * Starts an update: the element's changes joined with the view's. A change made by `willUpdate`
   * joins this same update, as in Lit.
   */
  beginUpdate(changed: PropertyValues): PropertyValues {
    for (const [name, before] of changed) if (!this.#changed.has(name)) this.#changed.set(name, before);
    return this.#changed;
  }

  /** Ends an update; changes made from now on (by `updated`) belong to the next one. */
  endUpdate(): PropertyValues {
    const changed = this.#changed;
    this.#changed = new Map();
    return changed;
  }
}

/**
 * Declares a view's state (what `@state()` is to an element, with no decorator and its helper
 * code): a change of one of these fields re-renders the view's element and is seen by the view's
 * hooks. Called in the view class's static block: `static { viewState(this, 'phase', 'bill'); }`.
 */
export function viewState(view: abstract new (...args: never[]) => object, ...names: string[]): void {
  for (const name of names) {
    const slot = Symbol();
    Object.defineProperty(view.prototype, name, {
      get(this: Record<symbol, unknown>) {
        return this[slot];
      },
      set(this: { requestUpdate(name: string, before: unknown): void } & Record<symbol, unknown>, value: unknown) {
        const before = this[slot];
        if (Object.is(before, value)) return;
        this[slot] = value;
        this.requestUpdate(name, before);
      },
      configurable: true,
      enumerable: true,
    });
  }
}

/** What a view module gives its element. */
export interface ViewModule<Host extends PgElement<Messages>, Messages extends SharedMessages> {
  readonly catalogs: Catalogs<Messages>;
  /** The view's own styles, after the element's (foundation) styles. */
  readonly styles: CSSResultGroup;
  create(host: Host, kit: ElementKit<Messages>): ElementView<Host, Messages>;
}

/** Any lazily loaded element with these messages, as its view module sees it. */
type AnyLazyElement<Messages extends SharedMessages> = LazyPgElement<Messages>;

/**
 * An element whose view loads on demand: when it is first connected (a drop-in renders it only
 * once the customer picks its method), together with its catalog when the page is not in English.
 */
export abstract class LazyPgElement<Messages extends SharedMessages> extends PgElement<Messages> {
  static override properties: ElementProperties = { viewLoad: { state: true, attribute: false } };

  /** The view, once its module has arrived. */
  protected view: ElementView<AnyLazyElement<Messages>, Messages> | undefined;
  private viewLoad: 'idle' | 'loading' | 'failed' = 'idle';
  /** Resolves the first time the view is ready: what public methods called before then wait for. */
  readonly #viewReady: Promise<ElementView<AnyLazyElement<Messages>, Messages>>;
  #resolveView: (view: ElementView<AnyLazyElement<Messages>, Messages>) => void = () => {};

  constructor() {
    super();
    this.#viewReady = new Promise((resolve) => (this.#resolveView = resolve));
  }

  /**
   * Imports the view module. The module of a language other than English is imported in
   * parallel here (and found loaded when the view's catalog asks for it), not after the view.
   */
  protected abstract importView(language: Language): Promise<ViewModule<AnyLazyElement<Messages>, Messages>>;

  /** Resolves with the view once it has loaded. */
  protected whenViewReady(): Promise<ElementView<AnyLazyElement<Messages>, Messages>> {
    return this.#viewReady;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.viewLoad === 'idle') void this.#loadView();
    this.view?.connected?.();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.view?.disconnected?.();
  }

  protected override get loadState(): LoadState {
    if (this.viewLoad === 'failed') return 'failed';
    return this.view ? super.loadState : 'loading';
  }

  protected override retryLoad(): void {
    super.retryLoad();
    if (this.viewLoad === 'failed') void this.#loadView();
  }

  protected override willUpdate(changed: PropertyValues): void {
    const view = this.view;
    if (view?.willUpdate) view.willUpdate(view.beginUpdate(changed));
    else view?.beginUpdate(changed);
  }

  protected override updated(): void {
    this.view?.updated?.(this.view.endUpdate());
  }

  protected override renderContent(): unknown {
    return this.view?.render();
  }

  async #loadView(): Promise<void> {
    this.viewLoad = 'loading';
    let module: ViewModule<AnyLazyElement<Messages>, Messages>;
    try {
      module = await this.importView(this.language);
      // The view starts speaking (its live region, its first request) in the page's language only.
      await loadCatalog(module.catalogs, this.language);
    } catch {
      this.viewLoad = 'failed';
      return;
    }
    this.addStyles(module.styles);
    this.catalogs = module.catalogs;
    // The element is the kit: ElementKit names the protected members it lends its view.
    const view = module.create(this, this as unknown as ElementKit<Messages>);
    // The view's first update sees every property as changed, as an element's first update does.
    const properties = (this.constructor as typeof ReactiveElement).elementProperties;
    view.beginUpdate(new Map([...properties.keys()].map((name) => [name, undefined])));
    this.view = view;
    this.viewLoad = 'idle';
    this.viewArrived(view);
    this.#resolveView(view);
    if (this.isConnected) view.connected?.();
  }

  /** The view has just been created: hand it what the element was told before it existed. */
  protected viewArrived(_view: ElementView<AnyLazyElement<Messages>, Messages>): void {}
}
