/**
 * The store in this process's memory: for tests, the demo and code that asks for it by name
 * (`createMemoryStore()`). Nothing survives a restart, and one process keeps its promises alone.
 * It is the reference the SQL engines are tested against (test/store/).
 */
import type { VerifiedResult } from '../core/verified-result.ts';
import { furthestResult, isAsRecorded, matchesState, replacesWatch } from './rules.ts';
import type {
  JsonObject,
  NewWatch,
  OrderMemory,
  PaymentWatch,
  PruneCounts,
  PrunePolicy,
  RateCounter,
  RateDecision,
  RecordOutcome,
  ResultBacklog,
  ResultFilter,
  ResultStore,
  Store,
  StoredResult,
  WatchChange,
  WatchStore,
  WatchVersion,
} from './store.ts';

interface ResultRow {
  readonly seq: number;
  readonly result: VerifiedResult;
  readonly recordedAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
  acknowledgedAt?: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function storedOf(row: ResultRow): StoredResult {
  return {
    result: row.result,
    recorded_at: iso(row.recordedAt),
    attempts: row.attempts,
    next_attempt_at: iso(row.nextAttemptAt),
    ...(row.lastError === undefined ? {} : { last_error: row.lastError }),
    ...(row.acknowledgedAt === undefined ? {} : { acknowledged_at: iso(row.acknowledgedAt) }),
  };
}

class MemoryResults implements ResultStore {
  readonly rows = new Map<string, ResultRow>();
  #seq = 0;

  async record(result: VerifiedResult, now = new Date()): Promise<RecordOutcome> {
    const recorded = this.rows.get(result.idempotency_key);
    if (recorded) return { first: false, result: recorded.result };
    this.#seq += 1;
    const at = now.getTime();
    this.rows.set(result.idempotency_key, { seq: this.#seq, result, recordedAt: at, attempts: 0, nextAttemptAt: at });
    return { first: true, result };
  }

  async release(key: string): Promise<void> {
    const row = this.rows.get(key);
    if (row && isAsRecorded(row)) this.rows.delete(key);
  }

  async list(filter: ResultFilter): Promise<StoredResult[]> {
    const state = filter.state ?? 'pending';
    const since = filter.since?.getTime();
    const out: StoredResult[] = [];
    for (const row of this.#ordered()) {
      if (out.length >= filter.limit) break;
      if (since !== undefined && row.recordedAt < since) continue;
      const stored = storedOf(row);
      if (matchesState(stored, state)) out.push(stored);
    }
    return out;
  }

  async get(key: string): Promise<StoredResult | undefined> {
    const row = this.rows.get(key);
    return row ? storedOf(row) : undefined;
  }

  async claimDue(now: Date, until: Date, limit: number): Promise<StoredResult[]> {
    const out: StoredResult[] = [];
    for (const row of this.#ordered()) {
      if (out.length >= limit) break;
      if (this.#isDue(row, now.getTime())) {
        row.nextAttemptAt = until.getTime();
        out.push(storedOf(row));
      }
    }
    return out;
  }

  async claim(key: string, now: Date, until: Date): Promise<StoredResult | undefined> {
    const row = this.rows.get(key);
    if (!row || !this.#isDue(row, now.getTime())) return undefined;
    row.nextAttemptAt = until.getTime();
    return storedOf(row);
  }

  async recordFailure(key: string, nextAttemptAt: Date, reason: string): Promise<void> {
    const row = this.rows.get(key);
    if (!row || row.acknowledgedAt !== undefined) return;
    row.attempts += 1;
    row.nextAttemptAt = nextAttemptAt.getTime();
    row.lastError = reason;
  }

  async acknowledge(key: string, at = new Date()): Promise<boolean> {
    const row = this.rows.get(key);
    if (!row || row.acknowledgedAt !== undefined) return false;
    row.acknowledgedAt = at.getTime();
    return true;
  }

  async hastenRetries(now: Date, beyond: Date): Promise<number> {
    let hastened = 0;
    for (const row of this.rows.values()) {
      if (row.acknowledgedAt === undefined && row.attempts > 0 && row.nextAttemptAt > beyond.getTime()) {
        row.nextAttemptAt = now.getTime();
        hastened += 1;
      }
    }
    return hastened;
  }

  async redeliver(key: string, at: Date): Promise<boolean> {
    const row = this.rows.get(key);
    if (!row) return false;
    delete row.acknowledgedAt;
    row.nextAttemptAt = at.getTime();
    return true;
  }

  async latestFor(merchantReference: string): Promise<VerifiedResult | undefined> {
    return furthestResult(this.#ordered().filter((row) => row.result.merchant_reference === merchantReference).map((row) => row.result));
  }

  async backlog(): Promise<ResultBacklog> {
    const undelivered = [...this.rows.values()].filter((row) => row.acknowledgedAt === undefined);
    const oldest = undelivered.reduce<number | undefined>((min, row) => (min === undefined || row.recordedAt < min ? row.recordedAt : min), undefined);
    return {
      undelivered: undelivered.length,
      failing: undelivered.filter((row) => row.attempts > 0).length,
      ...(oldest === undefined ? {} : { oldest_recorded_at: iso(oldest) }),
    };
  }

  /** Due: unacknowledged, its time come, and no earlier result of its order still unacknowledged. */
  #isDue(row: ResultRow, now: number): boolean {
    if (row.acknowledgedAt !== undefined || row.nextAttemptAt > now) return false;
    for (const other of this.rows.values()) {
      if (
        other.seq < row.seq &&
        other.acknowledgedAt === undefined &&
        other.result.merchant_reference === row.result.merchant_reference
      ) {
        return false;
      }
    }
    return true;
  }

  #ordered(): ResultRow[] {
    return [...this.rows.values()].sort((a, b) => a.seq - b.seq);
  }
}

class MemoryWatches implements WatchStore {
  readonly rows = new Map<string, PaymentWatch>();

  async watch(watch: NewWatch, now: Date): Promise<void> {
    if (replacesWatch(this.rows.get(watch.merchant_reference), watch)) this.#write(watch, now);
  }

  async watchIfUnchanged(watch: NewWatch, now: Date, seen: WatchVersion | undefined): Promise<WatchVersion | undefined> {
    const current = this.rows.get(watch.merchant_reference);
    if (current && current.created_at !== seen?.created_at) return undefined;
    return { created_at: this.#write(watch, now) };
  }

  #write(watch: NewWatch, now: Date): string {
    const { next_check_at, ...rest } = watch;
    const replaced = this.rows.get(watch.merchant_reference);
    const created = replaced ? Math.max(now.getTime(), Date.parse(replaced.created_at) + 1) : now.getTime();
    const createdAt = new Date(created).toISOString();
    this.rows.delete(watch.merchant_reference);
    this.rows.set(watch.merchant_reference, {
      ...rest,
      next_check_at: next_check_at ?? now.toISOString(),
      checks: 0,
      created_at: createdAt,
    });
    return createdAt;
  }

  async claimDue(now: Date, until: Date, limit: number): Promise<PaymentWatch[]> {
    const due = [...this.rows.values()]
      .filter((watch) => watch.ended_at === undefined && Date.parse(watch.next_check_at) <= now.getTime())
      .sort((a, b) => Date.parse(a.next_check_at) - Date.parse(b.next_check_at))
      .slice(0, limit);
    return due.map((watch) => {
      const held = { ...watch, next_check_at: until.toISOString() };
      this.rows.set(watch.merchant_reference, held);
      return watch;
    });
  }

  async update(merchantReference: string, change: WatchChange): Promise<void> {
    const watch = this.rows.get(merchantReference);
    if (!watch || watch.ended_at !== undefined) return;
    const { last_error: _lastError, ...rest } = watch;
    const lastError = change.last_error === undefined ? watch.last_error : (change.last_error ?? undefined);
    this.rows.set(merchantReference, {
      ...rest,
      ...(change.last_state === undefined ? {} : { last_state: change.last_state }),
      ...(change.svc_id === undefined ? {} : { svc_id: change.svc_id }),
      next_check_at: change.next_check_at,
      checks: watch.checks + change.checked,
      ...(lastError === undefined ? {} : { last_error: lastError }),
    });
  }

  async deferAll(until: Date): Promise<number> {
    let moved = 0;
    for (const watch of this.rows.values()) {
      if (watch.ended_at !== undefined || Date.parse(watch.next_check_at) >= until.getTime()) continue;
      this.rows.set(watch.merchant_reference, { ...watch, next_check_at: until.toISOString() });
      moved += 1;
    }
    return moved;
  }

  async end(merchantReference: string, at: Date, reason: string, only?: WatchVersion): Promise<void> {
    const watch = this.rows.get(merchantReference);
    if (!watch || watch.ended_at !== undefined) return;
    if (only && watch.created_at !== only.created_at) return;
    this.rows.set(merchantReference, { ...watch, ended_at: at.toISOString(), end_reason: reason });
  }

  async get(merchantReference: string): Promise<PaymentWatch | undefined> {
    return this.rows.get(merchantReference);
  }

  async countActive(): Promise<number> {
    return [...this.rows.values()].filter((watch) => watch.ended_at === undefined).length;
  }

  async list(filter: { readonly active?: boolean; readonly limit: number }): Promise<PaymentWatch[]> {
    return [...this.rows.values()]
      .filter((watch) => !filter.active || watch.ended_at === undefined)
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
      .slice(0, filter.limit);
  }
}

class MemoryOrders implements OrderMemory {
  readonly rows = new Map<string, { order: JsonObject; at: number }>();

  async remember(merchantReference: string, order: JsonObject, at: Date): Promise<void> {
    this.rows.set(merchantReference, { order, at: at.getTime() });
  }

  async recall(merchantReference: string, notBefore: Date): Promise<JsonObject | undefined> {
    const row = this.rows.get(merchantReference);
    return row && row.at >= notBefore.getTime() ? row.order : undefined;
  }
}

class MemoryLimits implements RateCounter {
  readonly windows = new Map<string, { count: number; endsAt: number }>();

  async hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateDecision> {
    const at = now.getTime();
    let window = this.windows.get(key);
    if (!window || at >= window.endsAt) {
      window = { count: 0, endsAt: at + windowSeconds * 1000 };
      this.windows.set(key, window);
    }
    if (window.count >= limit) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - at) / 1000)) };
    window.count += 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }
}

/** A store in this process's memory. */
export function createMemoryStore(): Store {
  const results = new MemoryResults();
  const watches = new MemoryWatches();
  const orders = new MemoryOrders();
  const limits = new MemoryLimits();
  return {
    engine: 'memory',
    location: 'memory',
    results,
    watches,
    orders,
    limits,
    async ping() {
      return {};
    },
    async prune(policy: PrunePolicy): Promise<PruneCounts> {
      const counts = { results: 0, watches: 0, orders: 0, limits: 0 };
      for (const [key, row] of results.rows) {
        const watched = watches.rows.get(row.result.merchant_reference);
        if (row.acknowledgedAt !== undefined && row.recordedAt < policy.acknowledgedBefore.getTime() && (watched === undefined || watched.ended_at !== undefined)) {
          results.rows.delete(key);
          counts.results += 1;
        }
      }
      for (const [key, watch] of watches.rows) {
        if (watch.ended_at !== undefined && Date.parse(watch.ended_at) < policy.endedBefore.getTime()) {
          watches.rows.delete(key);
          counts.watches += 1;
        }
      }
      for (const [key, row] of orders.rows) {
        if (row.at < policy.ordersBefore.getTime()) {
          orders.rows.delete(key);
          counts.orders += 1;
        }
      }
      for (const [key, window] of limits.windows) {
        if (window.endsAt <= policy.now.getTime()) {
          limits.windows.delete(key);
          counts.limits += 1;
        }
      }
      return counts;
    },
    async close() {},
  };
}
