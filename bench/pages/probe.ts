import { evaluationStartMark } from './evaluation-start.ts';

/**
 * What a benchmark page reports back to `bench/browser.ts`: times are milliseconds since
 * `bench:evaluation-start`, and the outcome is left on `window.__benchResult` for Playwright.
 */

export interface FirstRenderResult {
  readonly ok: boolean;
  /** The form's DOM is present and its first field focusable, before the next paint. */
  readonly readyMs?: number;
  /** `readyMs` plus two animation frames: the form has been painted. */
  readonly paintedMs?: number;
  /** Milliseconds from navigation start to `bench:evaluation-start`: fetch, parse and compile. */
  readonly evaluationStartMs: number;
  readonly detail?: string;
  readonly extra?: Readonly<Record<string, number | string | boolean>>;
}

declare global {
  interface Window {
    __benchResult?: unknown;
  }
}

/** Milliseconds since the page's module graph started evaluating. */
export function sinceEvaluationStart(): number {
  return performance.now() - evaluationStartMark.startTime;
}

/** Milliseconds from navigation start to the start of module evaluation. */
export function evaluationStart(): number {
  return evaluationStartMark.startTime;
}

/** Resolves after the frame that follows the current one has been produced, i.e. after a paint. */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
}

/** Polls once per frame until `check` returns a value, or rejects after `timeoutMs`. */
export function waitFor<T>(check: () => T | null | undefined | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      const found = check();
      if (found) resolve(found);
      else if (performance.now() > deadline) reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      else requestAnimationFrame(poll);
    };
    poll();
  });
}

/** `promise`, or a rejection naming `what` after `timeoutMs`. */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function report(result: unknown): void {
  window.__benchResult = result;
}

/** Reports a failure instead of hanging the harness. */
export function reportFailure(error: unknown): void {
  const result: FirstRenderResult = {
    ok: false,
    evaluationStartMs: evaluationStart(),
    detail: error instanceof Error ? error.message : String(error),
  };
  report(result);
}
