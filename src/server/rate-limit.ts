/**
 * A small limiter for what costs money or can be abused at someone else's expense: the financing
 * OTP, sent by SMS to a number the caller types, the codes tried against it, and the cards tried
 * on one order (card testing). The endpoint asks `hit(key)` before each send, each code tried or
 * each card put to use.
 *
 * The default counts in this process's memory, so one instance limits alone. Several instances
 * share one limiter: implement `hit` on a shared store as a fixed window per key, e.g. Redis
 * `INCR key` then `EXPIRE key window NX`, allowed while the count is within the limit, with
 * `retryAfterSeconds` from the key's `TTL`. Keys are opaque digests: no phone number is stored.
 */
import { fileDigest } from '../core/signature.ts';
import type { RateCounter } from '../store/store.ts';

/** A limiter's key: `prefix` and a SHA-256 digest of `parts`, so no phone number or reference is stored with it. */
export async function limiterKey(prefix: string, ...parts: string[]): Promise<string> {
  return `${prefix}:${await fileDigest(parts.join('\u0000'), 'sha256')}`;
}

export interface RateLimitDecision {
  /** False when the key has used up its window. */
  readonly allowed: boolean;
  /** Seconds until the window frees up again (0 when allowed). */
  readonly retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one event for `key` and says whether it is within the limit. */
  hit(key: string): RateLimitDecision | Promise<RateLimitDecision>;
}

export interface InMemoryRateLimiterOptions {
  /** Events allowed per key in one window. */
  readonly limit: number;
  readonly windowSeconds: number;
  /** The clock (default `new Date()`). */
  readonly now?: () => Date;
  /** Keys kept before windows that have ended are forgotten (default 10,000). */
  readonly maxKeys?: number;
}

/** The store's counters as a limiter: every instance sharing the store counts every instance's events. */
export function storeRateLimiter(
  counter: RateCounter,
  options: { readonly limit: number; readonly windowSeconds: number; readonly now?: () => Date },
): RateLimiter {
  const now = options.now ?? (() => new Date());
  return { hit: (key) => counter.hit(key, options.limit, options.windowSeconds, now()) };
}

/** A fixed window per key, in memory, bounded in size. */
export class InMemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { count: number; endsAt: number }>();
  readonly #options: Required<InMemoryRateLimiterOptions>;

  constructor(options: InMemoryRateLimiterOptions) {
    this.#options = { now: () => new Date(), maxKeys: 10_000, ...options };
  }

  hit(key: string): RateLimitDecision {
    const now = this.#options.now().getTime();
    let window = this.#windows.get(key);
    if (!window || now >= window.endsAt) {
      window = { count: 0, endsAt: now + this.#options.windowSeconds * 1000 };
      this.#windows.delete(key);
      this.#windows.set(key, window);
      this.#forgetEnded(now);
    }
    if (window.count >= this.#options.limit) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
    }
    window.count += 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }

  /** Over the size limit: ended windows go first, then the oldest. */
  #forgetEnded(now: number): void {
    if (this.#windows.size <= this.#options.maxKeys) return;
    for (const [key, window] of this.#windows) if (now >= window.endsAt) this.#windows.delete(key);
    while (this.#windows.size > this.#options.maxKeys) {
      const oldest = this.#windows.keys().next().value;
      if (oldest === undefined) break;
      this.#windows.delete(oldest);
    }
  }
}
