/**
 * A round of background work run every so often (the webhook sender, the reconciler): one round at
 * a time, a store outage left to the monitored store's one log line, any other failure logged, and
 * a timer that does not keep the process alive by itself (the server does).
 */
import type { Logger } from '../log/logger.ts';
import { StoreUnavailableError } from '../store/store.ts';

export interface BackgroundLoop {
  start(options?: { readonly runAtOnce?: boolean }): void;
  /** Stops the timer, tells a round under way to stop after its current step, and waits for it. */
  stop(): Promise<void>;
}

/** What a round reads between two steps (a question, a delivery): the service is stopping, so end here. */
export interface RoundControl {
  readonly stopping: boolean;
}

export function backgroundLoop(
  round: (control: RoundControl) => Promise<unknown>,
  intervalMs: number,
  log: Logger,
  failureEvent: string,
): BackgroundLoop {
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | undefined;
  const control = { stopping: false };

  const pass = (): void => {
    if (running) return;
    running = round(control)
      .then(() => undefined)
      .catch((error: unknown) => {
        // The store is down: the monitored store has said so once; the next round tries again.
        if (!(error instanceof StoreUnavailableError)) log.error(failureEvent, { error });
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    start(options = {}) {
      if (timer) return;
      control.stopping = false;
      timer = setInterval(pass, intervalMs);
      (timer as { unref?: () => void }).unref?.();
      if (options.runAtOnce) pass();
    },
    async stop() {
      control.stopping = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
