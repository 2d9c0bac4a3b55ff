/**
 * A payment that never leaves the shop's page: the signed form is posted into a frame of the
 * element's own (the gateway's card page, shown: `embedded`; or the merchant page's card fields,
 * to a hidden frame: `merchant-page`), the gateway's return lands on the endpoint's return route
 * inside that frame, and the endpoint's small page tells the element the outcome by postMessage.
 * When the completion needs 3-D Secure, the endpoint's page hands over the `3ds_url` and the
 * challenge opens in a modal dialog holding a frame; the gateway's final return lands there.
 *
 * A message is taken only from one of this element's own frames (`event.source`) and, for an
 * outcome or a 3-D Secure address, only from the endpoint's origin (the element's `endpoint`
 * resolved against the page). A height report is also taken from the gateway's origin (the form's
 * action). Anything else is ignored.
 *
 * This module is not in what a page downloads up front: elements reach it through
 * framed-flow-loader.ts, which loads it when the customer first needs a frame.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { FormPostResult, FramedMessage, FramedResultMessage } from '../../core/endpoint-results.ts';
import { FRAMED_MESSAGE_TYPES } from '../../core/endpoint-routes.ts';
import { loadContract, loadedContract, type Contract } from './contract.ts';
import { postToGateway, type GatewayFormHost } from './gateway-form.ts';
import { css } from './styles.ts';
import type { PaymentResultDetails } from './events.ts';

/**
 * Height of the embedded frame until its page reports one, in CSS pixels: enough for the card
 * page (the sandbox's, with installment plans). The live gateway's page may never report its
 * height; this is then its height for good.
 */
export const DEFAULT_FRAME_HEIGHT = 560;
const MIN_FRAME_HEIGHT = 160;
const MAX_FRAME_HEIGHT = 2000;
/** How long a hidden merchant-page frame may stay silent before the customer is told. */
const PROCESSING_TIMEOUT_MS = 90_000;

/**
 * What the frames may do: run the gateway's and the bank's pages (scripts, forms, their own
 * origin's storage, a bank's pop-up), but never navigate the shop's page by themselves; a link
 * the customer clicks may (the endpoint page's fallback link, for a browser that runs no script).
 */
const FRAME_SANDBOX =
  'allow-forms allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation';

/**
 * `idle`: nothing in a frame. `embedded`: the gateway's card page is shown. `ready`: that page took
 * the card, nothing is charged, the host's Pay button confirms (`confirm()`). `processing`: the
 * merchant page's form (or that confirmation) went to the hidden frame. `challenge`: the 3-D Secure dialog is open.
 */
export type FramedStage = 'idle' | 'embedded' | 'ready' | 'processing' | 'challenge';

export interface FramedFlowHost extends ReactiveControllerHost, GatewayFormHost {
  readonly endpoint: string;
  readonly merchantReference: string;
  readonly updateComplete: Promise<boolean>;
}

export interface FramedFlowOptions {
  /** The endpoint's verified outcome arrived (from the payment frame or the dialog). */
  readonly onResult: (details: PaymentResultDetails) => void;
  /** The customer closed the 3-D Secure dialog (Escape or Close). */
  readonly onCancel: () => void;
  /** The hidden merchant-page frame said nothing for too long. */
  readonly onTimeout: () => void;
  /** The embedded page took the card: the host's Pay button, naming the amount, now charges it. */
  readonly onReady?: () => void;
}

/** Words the frames need, from the host's catalog. */
export interface FramedFlowMessages {
  readonly frameTitle: string;
  readonly processingFrameTitle: string;
  readonly challengeTitle: string;
  readonly challengeText: string;
  readonly challengeFrameTitle: string;
  readonly close: string;
}

export class FramedFlowController implements ReactiveController {
  /**
   * The payment frame's name: the target of the signed form. Random, so that no other frame on the
   * shop's page can take the name first and receive the gateway's pages (the browser sends a form
   * to the first frame of its target's name).
   */
  readonly frameName = `pg-payment-frame-${crypto.getRandomValues(new Uint32Array(2)).join('-')}`;
  #stage: FramedStage = 'idle';
  #frameHeight = DEFAULT_FRAME_HEIGHT;
  #challengeUrl: string | undefined;
  /** Origin of the form's action: the gateway's card page, which may report its height. */
  #gatewayOrigin: string | undefined;
  #timeout: ReturnType<typeof setTimeout> | undefined;
  #heightSheet: CSSStyleSheet | undefined;
  #appliedHeight: string | undefined;
  readonly #host: FramedFlowHost;
  readonly #options: FramedFlowOptions;

  constructor(host: FramedFlowHost, options: FramedFlowOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  get stage(): FramedStage {
    return this.#stage;
  }

  /** The frame's current height, in CSS pixels. */
  get frameHeight(): number {
    return this.#frameHeight;
  }

  get #paymentFrame(): HTMLIFrameElement | null {
    return this.#host.renderRoot.querySelector('iframe.payment-frame');
  }

  get #dialog(): HTMLDialogElement | null {
    return this.#host.renderRoot.querySelector('dialog.challenge');
  }

  get #challengeFrame(): HTMLIFrameElement | null {
    return this.#host.renderRoot.querySelector('iframe.challenge-frame');
  }

  /** The endpoint's origin, from the element's `endpoint` resolved against the page. */
  get #endpointOrigin(): string | undefined {
    try {
      return new URL(this.#host.endpoint, location.href).origin;
    } catch {
      return undefined;
    }
  }

  /**
   * Renders the frame, then posts the signed form (and the browser's extra fields: the card of the
   * merchant page) into it. The form leaves the page once submitted: the card fields do not stay.
   */
  async post(flow: 'merchant-page' | 'embedded', post: FormPostResult, extraFields: Readonly<Record<string, string>> = {}): Promise<void> {
    this.#closeDialog();
    this.#setStage(flow === 'embedded' ? 'embedded' : 'processing');
    this.#frameHeight = DEFAULT_FRAME_HEIGHT;
    // Loaded already by the request that signed the form, unless a host gave the form itself.
    loadContract().catch(() => {});
    try {
      this.#gatewayOrigin = new URL(post.action, location.href).origin;
    } catch {
      this.#gatewayOrigin = undefined;
    }
    await this.#host.updateComplete;
    postToGateway(this.#host, flow, post, extraFields, this.frameName);
    if (flow === 'merchant-page') this.#timeout = setTimeout(this.#onTimeout, PROCESSING_TIMEOUT_MS);
  }

  /**
   * The host's Pay button under the embedded page: the endpoint's ready page in the frame is asked
   * (its origin only) to post its sealed card to the confirm route, which charges.
   */
  confirm(): void {
    const origin = this.#endpointOrigin;
    if (this.#stage !== 'ready' || !origin) return;
    this.#paymentFrame?.contentWindow?.postMessage(FRAMED_MESSAGE_TYPES.confirm, origin);
    this.#setStage('processing');
    this.#timeout = setTimeout(this.#onTimeout, PROCESSING_TIMEOUT_MS);
  }

  /** Back to nothing in a frame (the element shows its own content again). */
  reset(): void {
    this.#closeDialog();
    this.#setStage('idle');
  }

  hostConnected(): void {
    window.addEventListener('message', this.#onMessage);
  }

  hostDisconnected(): void {
    window.removeEventListener('message', this.#onMessage);
    this.reset();
  }

  hostUpdated(): void {
    this.#applyHeight();
    const dialog = this.#dialog;
    if (this.#stage === 'challenge' && dialog && !dialog.open) {
      dialog.showModal();
      // The dialog itself, not the bank's frame: its label is read, and Escape reaches it (keys
      // typed inside the bank's page stay there).
      dialog.focus();
    }
  }

  /**
   * The frame's height, in a stylesheet of this element's own rather than a style attribute: the
   * page's Content-Security-Policy allows no inline styles, and a constructed sheet needs none.
   */
  #applyHeight(): void {
    const root = this.#host.renderRoot;
    if (!(root instanceof ShadowRoot)) return;
    if (!this.#heightSheet) {
      this.#heightSheet = new CSSStyleSheet();
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.#heightSheet];
    }
    const height = `${this.#frameHeight}px`;
    if (height !== this.#appliedHeight) {
      this.#appliedHeight = height;
      this.#heightSheet.replaceSync(`iframe.payment-frame { block-size: ${height}; }`);
    }
  }

  #setStage(stage: FramedStage): void {
    if (this.#timeout !== undefined) clearTimeout(this.#timeout);
    this.#timeout = undefined;
    this.#stage = stage;
    if (stage !== 'challenge') this.#challengeUrl = undefined;
    this.#host.requestUpdate();
  }

  #closeDialog(): void {
    const dialog = this.#dialog;
    if (dialog?.open) {
      // Closing it here is not the customer's cancel.
      this.#stage = 'idle';
      dialog.close();
    }
  }

  readonly #onMessage = (event: MessageEvent): void => {
    const { source } = event;
    if (source === null) return;
    const fromPayment = source === this.#paymentFrame?.contentWindow;
    const fromChallenge = source === this.#challengeFrame?.contentWindow;
    if (!fromPayment && !fromChallenge) return;
    const take = (contract: Contract): void => {
      const message = contract.checkedFramedMessage(event.data);
      if (message) this.#take(message, event.origin, fromPayment);
    };
    // The contract loaded with the request that signed the form, so a message is taken at once.
    const contract = loadedContract();
    if (contract) take(contract);
    else loadContract().then(take, () => {});
  };

  #take(message: FramedMessage, origin: string, fromPayment: boolean): void {
    const endpointOrigin = this.#endpointOrigin;

    if (message.type === FRAMED_MESSAGE_TYPES.height) {
      const trusted = origin === endpointOrigin || origin === this.#gatewayOrigin;
      if (fromPayment && trusted && this.#stage === 'embedded') {
        this.#frameHeight = Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, Math.ceil(message.height)));
        this.#host.requestUpdate();
      }
      return;
    }
    // An outcome or a 3-D Secure address comes from the endpoint, about this element's order.
    if (endpointOrigin === undefined || origin !== endpointOrigin) return;
    if (message.merchant_reference !== undefined && message.merchant_reference !== this.#host.merchantReference) return;

    if (message.type === FRAMED_MESSAGE_TYPES.ready) {
      if (!fromPayment || this.#stage !== 'embedded') return;
      this.#setStage('ready');
      this.#frameHeight = MIN_FRAME_HEIGHT;
      this.#options.onReady?.();
      return;
    }
    if (message.type === FRAMED_MESSAGE_TYPES.threeDs) {
      if (!fromPayment || (this.#stage !== 'embedded' && this.#stage !== 'processing')) return;
      this.#setStage('challenge');
      this.#challengeUrl = message.url;
      return;
    }
    if (this.#stage === 'idle') return;
    this.#closeDialog();
    this.#setStage('idle');
    this.#options.onResult(resultDetailsOf(message, this.#host.merchantReference));
  }

  readonly #onTimeout = (): void => {
    this.#timeout = undefined;
    if (this.#stage !== 'processing') return;
    this.#setStage('idle');
    this.#options.onTimeout();
  };

  /** Escape (the dialog's `cancel`), the Close button, or any other close the element did not make. */
  readonly #onDialogClose = (): void => {
    if (this.#stage !== 'challenge') return;
    this.#setStage('idle');
    this.#options.onCancel();
  };

  readonly #onCloseClick = (): void => {
    this.#dialog?.close();
  };

  /** The payment frame: the gateway's card page (`embedded`), or hidden while a merchant page is processed. */
  renderPaymentFrame(messages: FramedFlowMessages): TemplateResult | typeof nothing {
    if (this.#stage === 'idle' || this.#stage === 'challenge') return nothing;
    const hidden = this.#stage === 'processing';
    return html`<iframe
      name=${this.frameName}
      class="payment-frame"
      part="payment-frame"
      title=${hidden ? messages.processingFrameTitle : messages.frameTitle}
      sandbox=${FRAME_SANDBOX}
      ?hidden=${hidden}
      tabindex=${hidden ? '-1' : '0'}
      aria-hidden=${hidden}
    ></iframe>`;
  }

  /** The 3-D Secure dialog: labelled, its frame titled, focus kept inside by `showModal()`. */
  renderChallengeDialog(messages: FramedFlowMessages): TemplateResult | typeof nothing {
    if (this.#stage !== 'challenge' || !this.#challengeUrl) return nothing;
    return html`<dialog
      class="challenge"
      part="challenge"
      aria-labelledby="challenge-title"
      aria-describedby="challenge-text"
      tabindex="-1"
      @close=${this.#onDialogClose}
    >
      <h2 id="challenge-title" class="challenge-title">${messages.challengeTitle}</h2>
      <p id="challenge-text" class="muted">${messages.challengeText}</p>
      <iframe
        class="challenge-frame"
        part="challenge-frame"
        title=${messages.challengeFrameTitle}
        sandbox=${FRAME_SANDBOX}
        src=${this.#challengeUrl}
      ></iframe>
      <div class="challenge-actions">
        <button type="button" class="close" part="close" @click=${this.#onCloseClick}>${messages.close}</button>
      </div>
    </dialog>`;
  }
}

/** A framed outcome as the element's result event and outcome panel take it. */
function resultDetailsOf(message: FramedResultMessage, merchantReference: string): PaymentResultDetails {
  return {
    intent: message.intent,
    outcome: message.outcome,
    merchantReference: message.merchant_reference ?? merchantReference,
    orderState: message.order_state,
    message: message.message,
    responseCode: message.response_code,
    error: message.error,
    ...(message.installments && {
      installments: {
        months: message.installments.number_of_installments,
        planCode: message.installments.plan_code,
        issuerCode: message.installments.issuer_code,
      },
    }),
    ...(message.card && { card: { brand: message.card.brand, lastFour: message.card.last_four } }),
    ...(message.result_url && /^https?:\/\//.test(message.result_url) && { resultUrl: message.result_url }),
  };
}

/**
 * Frames and dialog: logical properties only; tokens with fallbacks. The dialog is one column no
 * taller than the screen (the browser's own limit for a modal dialog): the bank's frame gives up
 * height, so the Close button stays on screen and only the bank's page scrolls (a phone is 667 px tall).
 */
export const framedFlowStyles = css`
  .payment-frame {
    display: block;
    inline-size: 100%;
    block-size: ${DEFAULT_FRAME_HEIGHT}px;
    border: 1px solid var(--pg-card-border-color, var(--pg-color-outline, #7b8794));
    border-radius: var(--pg-radius-small, 0.25rem);
    background: var(--pg-color-field, #ffffff);
  }

  .payment-frame[hidden] {
    display: none;
  }

  dialog.challenge {
    inline-size: min(34rem, calc(100vw - 1rem));
    padding: var(--pg-space, 0.75rem);
    border: none;
    border-radius: var(--pg-radius, 0.5rem);
    background: var(--pg-color-surface, #ffffff);
    color: var(--pg-color-on-surface, #1f2933);
  }

  dialog.challenge[open] {
    display: flex;
    flex-flow: column;
  }

  dialog.challenge::backdrop {
    background: rgb(0 0 0 / 55%);
  }

  .challenge-title {
    margin-block: 0 0.25rem;
    font-size: 1.15em;
  }

  .challenge-frame {
    flex: 0 1 36rem;
    border: 1px solid var(--pg-color-outline, #7b8794);
    border-radius: var(--pg-radius-small, 0.25rem);
    background: #ffffff;
  }

  .challenge-actions {
    display: flex;
    justify-content: flex-end;
    margin-block-start: var(--pg-space, 0.75rem);
  }
`;
