/** Where countdowns read the time: the real clock, or a manual one for tests and demos. */

/**
 * Where countdowns read the time and schedule their next tick. Elements take one as a property so
 * that a test (or a demo) can move time with {@link createManualClock} instead of waiting.
 */
export interface Clock {
  now(): number;
  /** Calls `callback` after `ms` milliseconds; the returned function cancels it. */
  schedule(callback: () => void, ms: number): () => void;
}

/** The real clock: `Date.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  schedule(callback, ms) {
    const handle = setTimeout(callback, ms);
    return () => clearTimeout(handle);
  },
};

/** A clock that moves only when told to; scheduled callbacks run in time order as it passes them. */
export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, running every callback that falls due on the way. */
  advance(ms: number): void;
  /** Moves time to `instant` (never backwards), running what falls due. */
  set(instant: number): void;
  /** Callbacks still waiting. */
  readonly pending: number;
}

export function createManualClock(start: number | Date = 0): ManualClock {
  let current = typeof start === 'number' ? start : start.getTime();
  let sequence = 0;
  const timers = new Map<number, { at: number; order: number; callback: () => void }>();

  const moveTo = (target: number): void => {
    for (;;) {
      let next: [number, { at: number; order: number; callback: () => void }] | undefined;
      for (const entry of timers) {
        if (entry[1].at > target) continue;
        if (!next || entry[1].at < next[1].at || (entry[1].at === next[1].at && entry[1].order < next[1].order)) {
          next = entry;
        }
      }
      if (!next) break;
      timers.delete(next[0]);
      current = Math.max(current, next[1].at);
      next[1].callback();
    }
    current = Math.max(current, target);
  };

  return {
    now: () => current,
    schedule(callback, ms) {
      const id = ++sequence;
      timers.set(id, { at: current + Math.max(0, ms), order: id, callback });
      return () => void timers.delete(id);
    },
    advance(ms) {
      moveTo(current + ms);
    },
    set(instant) {
      moveTo(instant);
    },
    get pending() {
      return timers.size;
    },
  };
}
