/**
 * The store in one SQLite file (`PG_DATA_DIR/pg-checkout.sqlite`), through libsql's synchronous,
 * better-sqlite3-compatible API: one instance, or several processes of one host sharing the file.
 * WAL lets readers go on while a writer writes; every write is a BEGIN IMMEDIATE transaction, so
 * that another process's write lock is waited for before anything is written, never halfway through.
 * The driver is synchronous: SQLite's own wait (busy_timeout) would stop this whole process, every
 * request and timer, for as long as another process holds the lock. So SQLite waits only a moment,
 * and the rest of the wait (up to LOCK_WAIT_MS in all) is spent asleep between tries, while this
 * process goes on serving. synchronous=FULL makes a result durable when `record` returns. Statements are prepared once,
 * when the store opens. The semantics are memory.ts's, row for row.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Database, Statement } from 'libsql';
import type { VerifiedResult } from '../core/verified-result.ts';
import {
  isoOf,
  backlogOf,
  migrateSqlite,
  msOf,
  newWatchRow,
  rowLimit,
  storedResultOf,
  WATCH_COLUMNS,
  watchOf,
  type BacklogRow,
  type ResultRow,
  type WatchRow,
} from './migrations.ts';
import { SQLITE_FILE, type OpenStoreOptions } from './open.ts';
import { furthestResult, RESULT_AS_RECORDED_SQL, WATCH_REPLACEABLE_SQL } from './rules.ts';
import {
  StoreOpenError,
  StoreUnavailableError,
  type JsonObject,
  type NewWatch,
  type OrderMemory,
  type PaymentWatch,
  type PruneCounts,
  type PrunePolicy,
  type RateCounter,
  type RateDecision,
  type RecordOutcome,
  type ResultBacklog,
  type ResultFilter,
  type ResultStore,
  type Store,
  type StoredResult,
  type StorePing,
  type WatchChange,
  type WatchStore,
  type WatchVersion,
} from './store.ts';

/** How long an operation waits in all for another process's lock before answering `busy`. */
const LOCK_WAIT_MS = 5000;
/** How long SQLite itself waits for a lock, this whole process stopped, before the wait goes on asleep. */
const LOCK_SPIN_MS = 20;
/** The longest sleep between two tries of a lock. */
const LOCK_PAUSE_MAX_MS = 200;

type SqliteDriver = new (path: string, options?: { timeout?: number }) => Database;

async function loadDriver(): Promise<SqliteDriver> {
  try {
    return (await import('libsql')).default as unknown as SqliteDriver;
  } catch (error) {
    throw new StoreOpenError('PG_DATA_DIR: the SQLite driver (libsql) is not installed; run npm install libsql', { cause: error });
  }
}

/** Opens (creating or migrating) the store in `dataDir`, creating the folder. Throws StoreOpenError. */
export async function openSqliteStore(dataDir: string, _options: OpenStoreOptions): Promise<Store> {
  const Driver = await loadDriver();
  const dir = resolve(dataDir);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new StoreOpenError(`PG_DATA_DIR: ${dir} cannot be written (${codeOf(error)})`, { cause: error });
  }
  const file = join(dir, SQLITE_FILE);
  let db: Database | undefined;
  try {
    db = new Driver(file, { timeout: LOCK_WAIT_MS });
    // busy_timeout first: switching to WAL itself waits for a process that holds the file. Opening
    // serves nobody yet, so it may wait the whole time in SQLite.
    db.exec(`PRAGMA busy_timeout = ${LOCK_WAIT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    migrateSqlite(db);
    db.exec(`PRAGMA busy_timeout = ${LOCK_SPIN_MS}`);
    return new SqliteStore(new Connection(db), file);
  } catch (error) {
    if (db?.open) db.close();
    if (error instanceof StoreOpenError) throw error;
    throw new StoreOpenError(`PG_DATA_DIR: ${file} cannot be opened (${codeOf(error)})`, { cause: error });
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code !== '') return code;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The error a caller should see: StoreUnavailableError when the file cannot be used right now (full
 * disk, a lock held too long, read-only, an I/O error), else the error itself (a bug, not an outage).
 */
function sqliteFailure(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return error;
  const reason = unavailableReason(code);
  if (reason === undefined) return error;
  const message = error instanceof Error ? error.message : code;
  return new StoreUnavailableError(reason, `SQLite store unavailable (${code}): ${message}`, { cause: error });
}

function unavailableReason(code: string): StoreUnavailableError['reason'] | undefined {
  if (code.startsWith('SQLITE_FULL')) return 'disk_full';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  if (code.startsWith('SQLITE_READONLY')) return 'read_only';
  if (['SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_PROTOCOL'].some((c) => code.startsWith(c))) {
    return 'failed';
  }
  return undefined;
}

/** The open file, and the two ways of using it: a read, or a write transaction. */
class Connection {
  readonly db: Database;
  readonly #begin: Statement;
  readonly #commit: Statement;
  readonly #rollback: Statement;

  constructor(db: Database) {
    this.db = db;
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
  }

  prepare(sql: string): Statement {
    return this.db.prepare(sql);
  }

  /** Runs `fn`, which only reads. */
  read<T>(fn: () => T): Promise<T> {
    return this.#waitingForLocks(fn);
  }

  /**
   * Runs `fn` in a BEGIN IMMEDIATE transaction, as `db.transaction(fn).immediate()` would, but
   * rolls back only while a transaction is open: SQLite rolls back by itself on a full disk or an
   * I/O error, and libsql's own ROLLBACK would then throw and hide that error.
   */
  write<T>(fn: () => T): Promise<T> {
    return this.#waitingForLocks(() => {
      this.#begin.run();
      try {
        const out = fn();
        this.#commit.run();
        return out;
      } catch (error) {
        if (this.db.inTransaction) this.#rollback.run();
        throw error;
      }
    });
  }

  /**
   * Runs `run` until it is not refused for another process's lock, asleep between tries, for up to
   * LOCK_WAIT_MS; a refused try has changed nothing (a write's transaction was rolled back).
   */
  async #waitingForLocks<T>(run: () => T): Promise<T> {
    const giveUpAt = Date.now() + LOCK_WAIT_MS;
    for (let pause = 5; ; pause = Math.min(pause * 2, LOCK_PAUSE_MAX_MS)) {
      try {
        return run();
      } catch (error) {
        if (!isLocked(error) || Date.now() + pause > giveUpAt) throw sqliteFailure(error);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

function isLocked(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && unavailableReason(code) === 'busy';
}

const RESULT_COLUMNS = 'seq, result, recorded_at, attempts, next_attempt_at, last_error, acknowledged_at';

/** Due (for `r`): unacknowledged, its time come, and no earlier result of its order unacknowledged. */
const RESULT_IS_DUE = `r.acknowledged_at IS NULL AND r.next_attempt_at <= :now AND NOT EXISTS (
  SELECT 1 FROM pg_checkout_results AS earlier
  WHERE earlier.merchant_reference = r.merchant_reference AND earlier.seq < r.seq AND earlier.acknowledged_at IS NULL)`;

const STATE_CONDITION: Record<NonNullable<ResultFilter['state']>, string> = {
  pending: 'acknowledged_at IS NULL',
  failing: 'acknowledged_at IS NULL AND attempts > 0',
  delivered: 'acknowledged_at IS NOT NULL',
  all: '1 = 1',
};

/** SQLite reads a negative LIMIT as none. */
const sqliteLimit = (limit: number): number => rowLimit(limit) ?? -1;

const bySeq = (a: ResultRow, b: ResultRow): number => a.seq - b.seq;

class SqliteResults implements ResultStore {
  readonly #conn: Connection;
  readonly #insert: Statement;
  readonly #resultOf: Statement;
  readonly #rowOf: Statement;
  readonly #release: Statement;
  readonly #list: Record<NonNullable<ResultFilter['state']>, Statement>;
  readonly #claimDue: Statement;
  readonly #claim: Statement;
  readonly #fail: Statement;
  readonly #acknowledge: Statement;
  readonly #redeliver: Statement;
  readonly #hasten: Statement;
  readonly #ofOrder: Statement;
  readonly #backlog: Statement;

  constructor(conn: Connection) {
    this.#conn = conn;
    this.#insert = conn.prepare(`
      INSERT INTO pg_checkout_results (idempotency_key, merchant_reference, result, recorded_at, next_attempt_at)
      VALUES (:key, :reference, :result, :at, :at)
      ON CONFLICT (idempotency_key) DO NOTHING`);
    this.#resultOf = conn.prepare('SELECT result FROM pg_checkout_results WHERE idempotency_key = ?');
    this.#rowOf = conn.prepare(`SELECT ${RESULT_COLUMNS} FROM pg_checkout_results WHERE idempotency_key = ?`);
    this.#release = conn.prepare(`DELETE FROM pg_checkout_results WHERE idempotency_key = ? AND ${RESULT_AS_RECORDED_SQL}`);
    const list = (state: NonNullable<ResultFilter['state']>): Statement =>
      conn.prepare(`
        SELECT ${RESULT_COLUMNS} FROM pg_checkout_results
        WHERE ${STATE_CONDITION[state]} AND recorded_at >= :since
        ORDER BY seq LIMIT :limit`);
    this.#list = { pending: list('pending'), failing: list('failing'), delivered: list('delivered'), all: list('all') };
    this.#claimDue = conn.prepare(`
      UPDATE pg_checkout_results SET next_attempt_at = :until
      WHERE seq IN (SELECT r.seq FROM pg_checkout_results AS r WHERE ${RESULT_IS_DUE} ORDER BY r.seq LIMIT :limit)
      RETURNING ${RESULT_COLUMNS}`);
    this.#claim = conn.prepare(`
      UPDATE pg_checkout_results SET next_attempt_at = :until
      WHERE seq IN (SELECT r.seq FROM pg_checkout_results AS r WHERE r.idempotency_key = :key AND ${RESULT_IS_DUE})
      RETURNING ${RESULT_COLUMNS}`);
    this.#fail = conn.prepare(`
      UPDATE pg_checkout_results SET attempts = attempts + 1, next_attempt_at = :next, last_error = :reason
      WHERE idempotency_key = :key AND acknowledged_at IS NULL`);
    this.#acknowledge = conn.prepare(`
      UPDATE pg_checkout_results SET acknowledged_at = :at WHERE idempotency_key = :key AND acknowledged_at IS NULL`);
    this.#redeliver = conn.prepare(`
      UPDATE pg_checkout_results SET acknowledged_at = NULL, next_attempt_at = :at WHERE idempotency_key = :key`);
    this.#hasten = conn.prepare(`
      UPDATE pg_checkout_results SET next_attempt_at = :now
      WHERE acknowledged_at IS NULL AND attempts > 0 AND next_attempt_at > :beyond`);
    this.#ofOrder = conn.prepare('SELECT result FROM pg_checkout_results WHERE merchant_reference = ? ORDER BY seq');
    this.#backlog = conn.prepare(`
      SELECT COUNT(*) AS undelivered, COALESCE(SUM(attempts > 0), 0) AS failing, MIN(recorded_at) AS oldest
      FROM pg_checkout_results WHERE acknowledged_at IS NULL`);
  }

  async record(result: VerifiedResult, now = new Date()): Promise<RecordOutcome> {
    return this.#conn.write(() => {
      const key = result.idempotency_key;
      const { changes } = this.#insert.run({
        key,
        reference: result.merchant_reference,
        result: JSON.stringify(result),
        at: now.getTime(),
      });
      if (changes === 1) return { first: true, result };
      const recorded = this.#resultOf.get(key) as { result: string };
      return { first: false, result: JSON.parse(recorded.result) as VerifiedResult };
    });
  }

  async release(key: string): Promise<void> {
    await this.#conn.write(() => this.#release.run(key));
  }

  async list(filter: ResultFilter): Promise<StoredResult[]> {
    const rows = await this.#conn.read(() =>
      this.#list[filter.state ?? 'pending'].all({
        since: filter.since?.getTime() ?? Number.MIN_SAFE_INTEGER,
        limit: sqliteLimit(filter.limit),
      }),
    ) as ResultRow[];
    return rows.map(storedResultOf);
  }

  async get(key: string): Promise<StoredResult | undefined> {
    const row = await this.#conn.read(() => this.#rowOf.get(key)) as ResultRow | undefined;
    return row && storedResultOf(row);
  }

  async claimDue(now: Date, until: Date, limit: number): Promise<StoredResult[]> {
    // `.all()`: a RETURNING statement left half-read by `.get()` keeps COMMIT from finishing.
    const rows = await this.#conn.write(() =>
      this.#claimDue.all({ now: now.getTime(), until: until.getTime(), limit: sqliteLimit(limit) }),
    ) as ResultRow[];
    return rows.sort(bySeq).map(storedResultOf);
  }

  async claim(key: string, now: Date, until: Date): Promise<StoredResult | undefined> {
    const rows = await this.#conn.write(() => this.#claim.all({ key, now: now.getTime(), until: until.getTime() })) as ResultRow[];
    return rows[0] && storedResultOf(rows[0]);
  }

  async recordFailure(key: string, nextAttemptAt: Date, reason: string): Promise<void> {
    await this.#conn.write(() => this.#fail.run({ key, next: nextAttemptAt.getTime(), reason }));
  }

  async acknowledge(key: string, at = new Date()): Promise<boolean> {
    return this.#conn.write(() => this.#acknowledge.run({ key, at: at.getTime() }).changes === 1);
  }

  async redeliver(key: string, at: Date): Promise<boolean> {
    return this.#conn.write(() => this.#redeliver.run({ key, at: at.getTime() }).changes === 1);
  }

  async hastenRetries(now: Date, beyond: Date): Promise<number> {
    return this.#conn.write(() => this.#hasten.run({ now: now.getTime(), beyond: beyond.getTime() }).changes);
  }

  async latestFor(merchantReference: string): Promise<VerifiedResult | undefined> {
    const rows = await this.#conn.read(() => this.#ofOrder.all(merchantReference)) as { result: string }[];
    return furthestResult(rows.map((row) => JSON.parse(row.result) as VerifiedResult));
  }

  async backlog(): Promise<ResultBacklog> {
    return backlogOf(await this.#conn.read(() => this.#backlog.get()) as BacklogRow);
  }
}

/**
 * Every column but the key, taken from the new row: `watch()` replaces the order's watch whole;
 * its `created_at` is always after the replaced one's (WatchStore.watch).
 */
const WATCH_REPLACED = WATCH_COLUMNS.split(', ')
  .filter((column) => column !== 'merchant_reference')
  .map((column) =>
    column === 'created_at'
      ? 'created_at = MAX(excluded.created_at, pg_checkout_watches.created_at + 1)'
      : `${column} = excluded.${column}`,
  )
  .join(', ');

class SqliteWatches implements WatchStore {
  readonly #conn: Connection;
  readonly #upsert: Statement;
  readonly #upsertIfUnchanged: Statement;
  readonly #due: Statement;
  readonly #hold: Statement;
  readonly #update: Statement;
  readonly #deferAll: Statement;
  readonly #end: Statement;
  readonly #get: Statement;
  readonly #countActive: Statement;
  readonly #list: Statement;

  constructor(conn: Connection) {
    this.#conn = conn;
    const params = WATCH_COLUMNS.split(', ').map((column) => `:${column}`).join(', ');
    this.#upsert = conn.prepare(`
      INSERT INTO pg_checkout_watches (${WATCH_COLUMNS}) VALUES (${params})
      ON CONFLICT (merchant_reference) DO UPDATE SET ${WATCH_REPLACED}
      WHERE ${WATCH_REPLACEABLE_SQL}`);
    // No row yet, or the row read before (by its created_at; none read: no row may be there).
    this.#upsertIfUnchanged = conn.prepare(`
      INSERT INTO pg_checkout_watches (${WATCH_COLUMNS}) VALUES (${params})
      ON CONFLICT (merchant_reference) DO UPDATE SET ${WATCH_REPLACED}
      WHERE pg_checkout_watches.created_at = :seen_created_at
      RETURNING created_at`);
    this.#due = conn.prepare(`
      SELECT ${WATCH_COLUMNS} FROM pg_checkout_watches
      WHERE ended_at IS NULL AND next_check_at <= :now
      ORDER BY next_check_at, created_at, merchant_reference LIMIT :limit`);
    this.#hold = conn.prepare('UPDATE pg_checkout_watches SET next_check_at = :until WHERE merchant_reference = :reference');
    this.#update = conn.prepare(`
      UPDATE pg_checkout_watches SET
        last_state = COALESCE(:last_state, last_state),
        svc_id = COALESCE(:svc_id, svc_id),
        next_check_at = :next_check_at,
        checks = checks + :checked,
        last_error = CASE WHEN :keep_error THEN last_error ELSE :last_error END
      WHERE merchant_reference = :reference AND ended_at IS NULL`);
    this.#deferAll = conn.prepare(
      'UPDATE pg_checkout_watches SET next_check_at = :until WHERE ended_at IS NULL AND next_check_at < :until',
    );
    this.#end = conn.prepare(`
      UPDATE pg_checkout_watches SET ended_at = :at, end_reason = :reason
      WHERE merchant_reference = :reference AND ended_at IS NULL AND (:only IS NULL OR created_at = :only)`);
    this.#get = conn.prepare(`SELECT ${WATCH_COLUMNS} FROM pg_checkout_watches WHERE merchant_reference = ?`);
    this.#countActive = conn.prepare('SELECT COUNT(*) AS active FROM pg_checkout_watches WHERE ended_at IS NULL');
    this.#list = conn.prepare(`
      SELECT ${WATCH_COLUMNS} FROM pg_checkout_watches
      WHERE NOT :active OR ended_at IS NULL
      ORDER BY created_at, merchant_reference LIMIT :limit`);
  }

  async watch(watch: NewWatch, now: Date): Promise<void> {
    const row = newWatchRow(watch, now);
    await this.#conn.write(() => this.#upsert.run(row));
  }

  async watchIfUnchanged(watch: NewWatch, now: Date, seen: WatchVersion | undefined): Promise<WatchVersion | undefined> {
    const row = { ...newWatchRow(watch, now), seen_created_at: seen ? msOf(seen.created_at, 'created_at') : null };
    // `.all()`: a RETURNING statement left half-read by `.get()` keeps COMMIT from finishing.
    const [written] = await this.#conn.write(() => this.#upsertIfUnchanged.all(row)) as { created_at: number }[];
    return written && { created_at: isoOf(written.created_at) };
  }

  async claimDue(now: Date, until: Date, limit: number): Promise<PaymentWatch[]> {
    // As memory does, the watches are answered as they were when claimed, before the hold.
    const rows = await this.#conn.write(() => {
      const due = this.#due.all({ now: now.getTime(), limit: sqliteLimit(limit) }) as WatchRow[];
      for (const row of due) this.#hold.run({ until: until.getTime(), reference: row.merchant_reference });
      return due;
    });
    return rows.map(watchOf);
  }

  async update(merchantReference: string, change: WatchChange): Promise<void> {
    await this.#conn.write(() =>
      this.#update.run({
        reference: merchantReference,
        last_state: change.last_state ?? null,
        svc_id: change.svc_id ?? null,
        next_check_at: msOf(change.next_check_at, 'next_check_at'),
        checked: change.checked,
        keep_error: change.last_error === undefined ? 1 : 0,
        last_error: change.last_error ?? null,
      }),
    );
  }

  async deferAll(until: Date): Promise<number> {
    return this.#conn.write(() => Number(this.#deferAll.run({ until: until.getTime() }).changes));
  }

  async end(merchantReference: string, at: Date, reason: string, only?: WatchVersion): Promise<void> {
    const created = only ? msOf(only.created_at, 'created_at') : null;
    await this.#conn.write(() => this.#end.run({ reference: merchantReference, at: at.getTime(), reason, only: created }));
  }

  async countActive(): Promise<number> {
    return Number((await this.#conn.read(() => this.#countActive.get()) as { active: number }).active);
  }

  async get(merchantReference: string): Promise<PaymentWatch | undefined> {
    const row = await this.#conn.read(() => this.#get.get(merchantReference)) as WatchRow | undefined;
    return row && watchOf(row);
  }

  async list(filter: { readonly active?: boolean; readonly limit: number }): Promise<PaymentWatch[]> {
    const rows = await this.#conn.read(() => this.#list.all({ active: filter.active ? 1 : 0, limit: sqliteLimit(filter.limit) })) as WatchRow[];
    return rows.map(watchOf);
  }
}

class SqliteOrders implements OrderMemory {
  readonly #conn: Connection;
  readonly #remember: Statement;
  readonly #recall: Statement;

  constructor(conn: Connection) {
    this.#conn = conn;
    this.#remember = conn.prepare(`
      INSERT INTO pg_checkout_orders (merchant_reference, order_json, remembered_at) VALUES (?, ?, ?)
      ON CONFLICT (merchant_reference) DO UPDATE SET order_json = excluded.order_json, remembered_at = excluded.remembered_at`);
    this.#recall = conn.prepare('SELECT order_json FROM pg_checkout_orders WHERE merchant_reference = ? AND remembered_at >= ?');
  }

  async remember(merchantReference: string, order: JsonObject, at: Date): Promise<void> {
    await this.#conn.write(() => this.#remember.run(merchantReference, JSON.stringify(order), at.getTime()));
  }

  async recall(merchantReference: string, notBefore: Date): Promise<JsonObject | undefined> {
    const row = await this.#conn.read(() => this.#recall.get(merchantReference, notBefore.getTime())) as { order_json: string } | undefined;
    return row && (JSON.parse(row.order_json) as JsonObject);
  }
}

class SqliteLimits implements RateCounter {
  readonly #conn: Connection;
  readonly #read: Statement;
  readonly #save: Statement;

  constructor(conn: Connection) {
    this.#conn = conn;
    this.#read = conn.prepare('SELECT count, window_ends_at FROM pg_checkout_limits WHERE key = ?');
    this.#save = conn.prepare(`
      INSERT INTO pg_checkout_limits (key, count, window_ends_at) VALUES (?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET count = excluded.count, window_ends_at = excluded.window_ends_at`);
  }

  /** Read and count in one IMMEDIATE transaction: no other process counts in between. */
  async hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateDecision> {
    const at = now.getTime();
    return this.#conn.write(() => {
      const row = this.#read.get(key) as { count: number; window_ends_at: number } | undefined;
      const open = row !== undefined && at < row.window_ends_at;
      const count = open ? row.count : 0;
      const endsAt = open ? row.window_ends_at : at + windowSeconds * 1000;
      const allowed = count < limit;
      this.#save.run(key, allowed ? count + 1 : count, endsAt);
      return allowed ? { allowed, retryAfterSeconds: 0 } : { allowed, retryAfterSeconds: Math.max(1, Math.ceil((endsAt - at) / 1000)) };
    });
  }
}

class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly location: string;
  readonly results: SqliteResults;
  readonly watches: SqliteWatches;
  readonly orders: SqliteOrders;
  readonly limits: SqliteLimits;
  readonly #conn: Connection;
  readonly #ping: Statement;
  readonly #prune: { readonly [Table in keyof PruneCounts]: Statement };

  constructor(conn: Connection, file: string) {
    this.#conn = conn;
    this.location = file;
    this.results = new SqliteResults(conn);
    this.watches = new SqliteWatches(conn);
    this.orders = new SqliteOrders(conn);
    this.limits = new SqliteLimits(conn);
    this.#ping = conn.prepare('SELECT 1 AS ok');
    this.#prune = {
      results: conn.prepare(
        'DELETE FROM pg_checkout_results WHERE acknowledged_at IS NOT NULL AND recorded_at < ? ' +
          'AND NOT EXISTS (SELECT 1 FROM pg_checkout_watches w WHERE w.merchant_reference = pg_checkout_results.merchant_reference AND w.ended_at IS NULL)',
      ),
      watches: conn.prepare('DELETE FROM pg_checkout_watches WHERE ended_at IS NOT NULL AND ended_at < ?'),
      orders: conn.prepare('DELETE FROM pg_checkout_orders WHERE remembered_at < ?'),
      limits: conn.prepare('DELETE FROM pg_checkout_limits WHERE window_ends_at <= ?'),
    };
  }

  /** The file is on this host: its times are this process's clock, so there is no skew to measure. */
  async ping(): Promise<StorePing> {
    await this.#conn.read(() => this.#ping.get());
    return {};
  }

  async prune(policy: PrunePolicy): Promise<PruneCounts> {
    return this.#conn.write(() => ({
      results: this.#prune.results.run(policy.acknowledgedBefore.getTime()).changes,
      watches: this.#prune.watches.run(policy.endedBefore.getTime()).changes,
      orders: this.#prune.orders.run(policy.ordersBefore.getTime()).changes,
      limits: this.#prune.limits.run(policy.now.getTime()).changes,
    }));
  }

  async close(): Promise<void> {
    if (this.#conn.db.open) this.#conn.db.close();
  }
}
