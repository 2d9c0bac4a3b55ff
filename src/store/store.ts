/**
 * The store: everything the merchant endpoint and the standalone service must not forget, behind
 * one interface with several engines (memory, SQLite in a file, PostgreSQL). Code above the store
 * asks for what it needs (record a result, claim due deliveries, watch a payment, count an SMS) and
 * never writes SQL; every engine passes the same test suite (test/store/).
 *
 * What lives here:
 * - results, one per idempotency key, each with its delivery to the shop (the outbox): attempts,
 *   next attempt, last error, acknowledged or not;
 * - watches: payments that were not final when the customer left, asked about on a schedule;
 * - orders remembered as the shop last answered them (a return while the shop is down);
 * - the OTP send limiter's counts.
 *
 * Every write that must land whole is one statement or one transaction: a result and its outbox
 * row are one row. Engines throw `StoreUnavailableError` when the database cannot be used (a lost
 * connection or a server that stops answering, a full disk, a lock held too long): the caller answers 503 and changes nothing.
 */
import type { Language } from '../core/language.ts';
import type { OrderState } from '../core/order-status.ts';
import type { VerifiedResult } from '../core/verified-result.ts';

export type StoreEngine = 'memory' | 'sqlite' | 'postgres';

/** A result and its delivery to the shop. Times are ISO 8601 (UTC). */
export interface StoredResult {
  readonly result: VerifiedResult;
  /** When the store first recorded it. */
  readonly recorded_at: string;
  /** Deliveries tried so far without an acknowledgement. */
  readonly attempts: number;
  /** When the next delivery is due (meaningless once acknowledged). */
  readonly next_attempt_at: string;
  /** Why the last delivery failed: `timeout`, `network`, `status 503` … */
  readonly last_error?: string;
  /** When the shop acknowledged it (a 2xx to the webhook, or the acknowledge route). */
  readonly acknowledged_at?: string;
}

/** Which results to list. */
export interface ResultFilter {
  /**
   * `pending`: not acknowledged (default); `failing`: not acknowledged and at least one delivery
   * failed; `delivered`: acknowledged; `all`.
   */
  readonly state?: 'pending' | 'failing' | 'delivered' | 'all';
  /** Only results recorded at or after this time. */
  readonly since?: Date;
  /** At most this many, oldest first. */
  readonly limit: number;
}

export interface RecordOutcome {
  /** True for the call that recorded the result: that one reports it. */
  readonly first: boolean;
  /** The result under the key: this call's when `first`, else the one recorded before. */
  readonly result: VerifiedResult;
}

/**
 * Results by idempotency key, and their delivery. The webhook sender claims due rows, so that two
 * instances never deliver one row at once; within one order, results are delivered in the order
 * they were recorded (a row is due only when no earlier row of its order is unacknowledged).
 */
export interface ResultStore {
  /**
   * Records the result under its key unless one is there already (atomic per key), due for
   * delivery at once. Committed durably before it returns.
   */
  record(result: VerifiedResult, now?: Date): Promise<RecordOutcome>;
  /**
   * Forgets a key whose report failed (the merchant's `onResult` threw), so the next return reports
   * it; only while the result is as `record` left it (attempts 0, not acknowledged, next attempt at
   * its recording). One that a delivery has claimed, tried or had acknowledged is kept: it is the
   * outbox's row, and the delivery under way, or the next, must still find it.
   */
  release(key: string): Promise<void>;
  /** Results matching the filter, oldest first. */
  list(filter: ResultFilter): Promise<StoredResult[]>;
  /** One result by key, acknowledged or not. */
  get(key: string): Promise<StoredResult | undefined>;
  /**
   * Takes at most `limit` results due at `now` (each the earliest unacknowledged of its order) and
   * holds them until `until`, so that no other sender takes them meanwhile.
   */
  claimDue(now: Date, until: Date, limit: number): Promise<StoredResult[]>;
  /** Takes this one result as `claimDue` would, if it is due now; undefined otherwise. */
  claim(key: string, now: Date, until: Date): Promise<StoredResult | undefined>;
  /** A delivery failed: count it and make the result due again at `nextAttemptAt`. */
  recordFailure(key: string, nextAttemptAt: Date, reason: string): Promise<void>;
  /** The shop has stored the result. False when no unacknowledged result has this key. */
  acknowledge(key: string, at?: Date): Promise<boolean>;
  /**
   * The shop answers again: every unacknowledged result that failed before and waits past `beyond`
   * is made due at `now`, rather than each waiting out its own growing wait. `beyond` is later than
   * any claim a sender may hold right now, so a result being posted is left to its sender (a claim
   * sets the next attempt to its end). Returns how many were made due.
   */
  hastenRetries(now: Date, beyond: Date): Promise<number>;
  /** Delivers the result again (an operator's request), acknowledged or not. False for an unknown key. */
  redeliver(key: string, at: Date): Promise<boolean>;
  /** The order's furthest result so far (core `canMoveOrderState`), acknowledged or not. */
  latestFor(merchantReference: string): Promise<VerifiedResult | undefined>;
  /** What the shop has not acknowledged yet, for monitoring (the health route). */
  backlog(): Promise<ResultBacklog>;
}

export interface ResultBacklog {
  /** Results the shop has not acknowledged. */
  readonly undelivered: number;
  /** Of those, the ones with at least one failed delivery. */
  readonly failing: number;
  /** When the oldest of them was recorded; absent when there is none. */
  readonly oldest_recorded_at?: string;
}

/** What makes a payment worth watching after the customer has left. */
export type WatchKind =
  /** A cash bill issued and not yet paid: paid at the counter, or cancelled at its expiry. */
  | 'bill'
  /** An authorization not yet captured or voided: captured, voided, or lapsed at the end of its hold. */
  | 'authorization'
  /** A 3-D Secure check or a framed payment under way when the customer left. */
  | 'in_progress'
  /** A back-office capture, refund, void or charge whose answer was lost (outcome `unknown`). */
  | 'money_call'
  /** A card saved without a payment whose token list could not be read at the return (GET_TOKENS, not CHECK_STATUS). */
  | 'saved_card';

/** A payment the reconciler asks CHECK_STATUS about until it is final or the watch expires. */
export interface PaymentWatch {
  /** One watch per order: a newer watch of the same reference replaces the older (WatchStore.watch). */
  readonly merchant_reference: string;
  readonly kind: WatchKind;
  /** The gateway's id of the payment, once known. */
  readonly svc_id?: string;
  /** The merchant's order amount (minor units) and currency, for the results it reports. */
  readonly amount?: number;
  readonly currency?: string;
  /** Language of the messages of the results it reports. */
  readonly language: Language;
  /** Where the order stood when last read: a change from it is reported. */
  readonly last_state: OrderState;
  /** When something is expected to happen (a bill's expiry, the end of a hold): checked soon after. */
  readonly due_at?: string;
  /** The watch ends here whatever the gateway says. */
  readonly expires_at: string;
  readonly next_check_at: string;
  /** CHECK_STATUS questions asked so far. */
  readonly checks: number;
  readonly last_error?: string;
  readonly created_at: string;
  /** Set when the watch ended: the payment is final, or the watch expired. */
  readonly ended_at?: string;
  readonly end_reason?: string;
  /** What a kind needs besides the order (a saved card: the token and the tokenization's answer). */
  readonly detail?: JsonObject;
}

/** A watch to start (or to replace the order's current one with). */
export type NewWatch = Omit<PaymentWatch, 'checks' | 'created_at' | 'ended_at' | 'end_reason' | 'last_error' | 'next_check_at'> & {
  readonly next_check_at?: string;
};

export interface WatchChange {
  readonly last_state?: OrderState;
  readonly svc_id?: string;
  readonly next_check_at: string;
  /** Added to `checks`. */
  readonly checked: number;
  readonly last_error?: string | null;
}

export interface WatchStore {
  /**
   * Starts watching, or replaces the order's watch (its schedule and counts start again), except an
   * open bill or authorization watch, which only another of those replaces (`replacesWatch` in rules.ts): a
   * weaker write is dropped, in the same statement, so it holds across instances. A write
   * is always told apart from the one it replaces: its `created_at` is `now`, or 1 ms after the
   * replaced watch's when `now` is not later (two writes within one millisecond, or an instance
   * whose clock is behind another's).
   */
  watch(watch: NewWatch, now: Date): Promise<void>;
  /**
   * `watch`, only while the order's watch is still the one the caller read (`seen`, told by its
   * `created_at`; undefined: none), or there is none (pruned since, say). Writes nothing and answers
   * undefined when another request wrote the order's watch in between: two requests for one order
   * cannot overwrite each other's. Answers the version written, to end or replace it later only
   * while it is still this one.
   */
  watchIfUnchanged(watch: NewWatch, now: Date, seen: WatchVersion | undefined): Promise<WatchVersion | undefined>;
  /** Takes at most `limit` active watches due at `now` and holds them until `until`. */
  claimDue(now: Date, until: Date, limit: number): Promise<PaymentWatch[]>;
  /** Records a question asked and when to ask again. No effect on an ended watch. */
  update(merchantReference: string, change: WatchChange): Promise<void>;
  /**
   * Asks no active watch before `until`: every one due sooner is moved to `until` (the gateway
   * asked for quiet, and every instance sharing the store must keep it). Returns how many moved.
   */
  deferAll(until: Date): Promise<number>;
  /** Ends the order's watch; with `only`, only while it is still that watch (unchanged since it was written). */
  end(merchantReference: string, at: Date, reason: string, only?: WatchVersion): Promise<void>;
  get(merchantReference: string): Promise<PaymentWatch | undefined>;
  /** Watches, oldest first: active ones, or all. */
  list(filter: { readonly active?: boolean; readonly limit: number }): Promise<PaymentWatch[]>;
  /** How many watches are active, for monitoring (the health route). */
  countActive(): Promise<number>;
}

/** Which write of an order's watch this is: every `watch` starts a new one. */
export type WatchVersion = Pick<PaymentWatch, 'created_at'>;

/** A JSON object as the store keeps it. */
export type JsonObject = { readonly [name: string]: unknown };

/** Orders as the shop last answered them, for a return that arrives while the shop is down. */
export interface OrderMemory {
  remember(merchantReference: string, order: JsonObject, at: Date): Promise<void>;
  /** The order remembered at or after `notBefore`, if any. */
  recall(merchantReference: string, notBefore: Date): Promise<JsonObject | undefined>;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** Seconds until the window frees up again (0 when allowed). */
  readonly retryAfterSeconds: number;
}

/** Fixed-window counters shared by every instance (the OTP send limiter). */
export interface RateCounter {
  /** Counts one event for `key` within a window of `windowSeconds`, allowed while within `limit`. */
  hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateDecision>;
}

/** How long what is done is kept (a setting: `PG_RETENTION_DAYS`). */
export interface PrunePolicy {
  /** Acknowledged results recorded before this go, unless their order is still watched (the reconciler reads them to tell what the shop heard). */
  readonly acknowledgedBefore: Date;
  /** Watches ended before this go. */
  readonly endedBefore: Date;
  /** Remembered orders older than this go. */
  readonly ordersBefore: Date;
  /** Rate-limit windows that ended before this go. */
  readonly now: Date;
}

export interface PruneCounts {
  readonly results: number;
  readonly watches: number;
  readonly orders: number;
  readonly limits: number;
}

/** What a ping learned besides that the store answers. */
export interface StorePing {
  /**
   * How far this process's clock is ahead of the database server's, in milliseconds (negative:
   * behind), measured by this ping with half its round trip allowed for. Only for an engine whose
   * database runs on a clock of its own (PostgreSQL); SQLite and memory use this process's clock.
   */
  readonly clockSkewMs?: number;
}

/**
 * How far the clocks of the instances sharing a store may drift apart before it is said (the log,
 * the health route). Every time in the store is an instance's own clock (migrations.ts), and a
 * claim holds a result for a few seconds: an instance whose clock is ahead by more than a claim's
 * length sees another's claim as over, and posts the result while the other still is. Instances
 * need synchronised clocks (NTP); 2 s is well within what a claim tolerates and well above the
 * error of the measurement (half a round trip).
 */
export const CLOCK_SKEW_LIMIT_MS = 2_000;

export interface Store {
  readonly engine: StoreEngine;
  /** Where it is, for the start-up log: a file path, or a database URL without its password. */
  readonly location: string;
  readonly results: ResultStore;
  readonly watches: WatchStore;
  readonly orders: OrderMemory;
  readonly limits: RateCounter;
  /** Resolves when the store answers (the health route), with what it measured. Throws StoreUnavailableError. */
  ping(): Promise<StorePing>;
  prune(policy: PrunePolicy): Promise<PruneCounts>;
  close(): Promise<void>;
}

/** The store cannot be used right now: nothing was written. */
export class StoreUnavailableError extends Error {
  /** `connection` (lost, refused), `disk_full`, `busy` (a lock held too long), `read_only` or `failed`. */
  readonly reason: 'connection' | 'disk_full' | 'busy' | 'read_only' | 'failed';

  constructor(reason: StoreUnavailableError['reason'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
    this.reason = reason;
  }
}

/**
 * The store could not be opened: an unwritable folder, an unreachable database, a schema newer
 * than this code. The message is one line naming the setting (`PG_DATA_DIR`, `PG_DATABASE_URL`)
 * and never a password.
 */
export class StoreOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreOpenError';
  }
}
