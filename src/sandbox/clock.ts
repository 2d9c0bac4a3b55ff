/**
 * The sandbox's notion of "now". Bill expiry, the authorization hold and page sessions are read
 * from it, so a test moves time forward instead of sleeping, and a developer moves a running
 * sandbox's clock forward with `POST sandbox-tools/advance-clock`.
 */

/** A clock tests move by hand; pass `clock.now` as the gateway's `now` option. */
export interface SandboxClock {
  readonly now: () => Date;
  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Moves time to `instant` (an ISO 8601 string, a Date or epoch milliseconds). */
  set(instant: string | Date | number): void;
}

export function createSandboxClock(start: string | Date | number = Date.now()): SandboxClock {
  let current = toEpoch(start);
  return {
    now: () => new Date(current),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('a sandbox clock only moves forward');
      current += ms;
    },
    set(instant) {
      current = toEpoch(instant);
    },
  };
}

function toEpoch(instant: string | Date | number): number {
  const epoch = typeof instant === 'number' ? instant : new Date(instant).getTime();
  if (!Number.isFinite(epoch)) throw new RangeError(`not an instant: ${String(instant)}`);
  return epoch;
}

/** The most one `advance-clock` may move the sandbox's clock: past any bill expiry or hold a test needs. */
export const MAX_CLOCK_ADVANCE_SECONDS = 400 * 86_400;

/** True for what `advance-clock` takes: a whole number of seconds, from 1 to {@link MAX_CLOCK_ADVANCE_SECONDS}. */
export function isClockAdvance(seconds: unknown): seconds is number {
  return typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds >= 1 && seconds <= MAX_CLOCK_ADVANCE_SECONDS;
}
