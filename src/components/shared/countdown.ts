/**
 * A countdown on the injectable clock: wakes its element once per change of what is shown
 * (`msUntilNextTick`), and says when the deadline has passed. The bill's expiry and the OTP's
 * resend delay both run on it; tests drive it with a manual clock, never with sleeps.
 */
import type { ReactiveController, ReactiveElement } from 'lit';
import { msUntilNextTick, type Clock } from '../../core/voucher.ts';

export interface CountdownOptions {
  readonly clock: () => Clock;
  /** Epoch milliseconds to count down to; undefined while nothing counts down. */
  readonly deadline: () => number | undefined;
  /** Each wake-up, with the clock's time (the element re-renders from it). */
  readonly tick: (now: number) => void;
  /** The deadline has passed; `fromTick` is false when it had already passed at scheduling. */
  readonly reached: (fromTick: boolean) => void;
}

export class CountdownController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: CountdownOptions;
  #cancel: (() => void) | undefined;

  constructor(host: ReactiveElement, options: CountdownOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  hostConnected(): void {
    if (this.#host.hasUpdated) this.schedule();
  }

  hostDisconnected(): void {
    this.#stop();
  }

  /** (Re)starts the countdown from the current deadline; call it when the deadline may change. */
  schedule(fromTick = false): void {
    this.#stop();
    const deadline = this.#options.deadline();
    if (deadline === undefined || !this.#host.isConnected) return;
    const clock = this.#options.clock();
    const now = clock.now();
    // Outside a tick the element has just set its time; setting it again would only re-render.
    if (fromTick) this.#options.tick(now);
    if (now >= deadline) {
      this.#options.reached(fromTick);
      return;
    }
    this.#cancel = clock.schedule(() => {
      this.#cancel = undefined;
      this.schedule(true);
    }, msUntilNextTick(deadline, now));
  }

  #stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
