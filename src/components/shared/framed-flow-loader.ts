/**
 * The framed payment flow (framed-flow.ts: the payment frame, the 3-D Secure dialog and their
 * styles) loaded on demand. An element holds this small stand-in from the start; the flow's code
 * arrives when the customer first works with the card form, or with the request that signs a form,
 * whichever comes first. Until then nothing is in a frame: the stage is `idle` and the frames
 * render nothing, exactly as a loaded flow with nothing posted.
 */
import { nothing, type CSSResultGroup, type TemplateResult } from 'lit';
import type { FormPostResult } from '../../core/endpoint-results.ts';
import type { FramedFlowController, FramedFlowHost, FramedFlowMessages, FramedFlowOptions, FramedStage } from './framed-flow.ts';
import { onDemand } from './on-demand.ts';

const flowModule = onDemand(() => import('./framed-flow.ts'));

/** Adds styles that arrived with a part of the element loaded later to the element's own. */
export type AddStyles = (styles: CSSResultGroup) => void;

export class LazyFramedFlow {
  #flow: FramedFlowController | undefined;
  readonly #host: FramedFlowHost;
  readonly #options: FramedFlowOptions;
  readonly #addStyles: AddStyles;

  constructor(host: FramedFlowHost, options: FramedFlowOptions, addStyles: AddStyles) {
    this.#host = host;
    this.#options = options;
    this.#addStyles = addStyles;
  }

  get stage(): FramedStage {
    return this.#flow?.stage ?? 'idle';
  }

  /** The flow, loading it first if it has not arrived; rejects when its code cannot be loaded. */
  async load(): Promise<FramedFlowController> {
    if (this.#flow) return this.#flow;
    const module = await flowModule.load();
    if (!this.#flow) {
      this.#addStyles(module.framedFlowStyles);
      this.#flow = new module.FramedFlowController(this.#host, this.#options);
    }
    return this.#flow;
  }

  /** Starts loading the flow's code (a failure is forgotten: `post` tries again). */
  preload(): void {
    this.load().catch(() => {});
  }

  /** See {@link FramedFlowController.post}; rejects, posting nothing, when the flow's code cannot be loaded. */
  async post(flow: 'merchant-page' | 'embedded', post: FormPostResult, extraFields: Readonly<Record<string, string>> = {}): Promise<void> {
    const controller = await this.load();
    await controller.post(flow, post, extraFields);
  }

  /** See {@link FramedFlowController.confirm}. */
  confirm(): void {
    this.#flow?.confirm();
  }

  reset(): void {
    this.#flow?.reset();
  }

  renderPaymentFrame(messages: FramedFlowMessages): TemplateResult | typeof nothing {
    return this.#flow?.renderPaymentFrame(messages) ?? nothing;
  }

  renderChallengeDialog(messages: FramedFlowMessages): TemplateResult | typeof nothing {
    return this.#flow?.renderChallengeDialog(messages) ?? nothing;
  }
}
