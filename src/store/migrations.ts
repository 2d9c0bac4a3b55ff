/**
 * The store's schema, as numbered, forward-only migrations per engine, and what applies them: each
 * migration once, in order, in its own transaction, under a lock so that two instances starting at
 * the same moment do not race (graphile/worker's way). The SQL is kept in TypeScript so that the
 * built package needs no file beside it. A migration, once released, is never edited: a change is
 * a new one.
 *
 * `pg_checkout_schema` records what was applied. A database whose highest version is newer than
 * the code's is refused: older code must not write rows it does not understand.
 */
import type { Database } from 'libsql';
import type { ClientBase } from 'pg';
import type { VerifiedResult } from '../core/verified-result.ts';
import type { Logger } from '../log/logger.ts';
import { StoreOpenError, type JsonObject, type NewWatch, type PaymentWatch, type ResultBacklog, type StoredResult } from './store.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Times are BIGINT epoch milliseconds, always the ones the caller passed in, never the database's clock. */
export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'results, watches, orders and limits',
    sql: `
      CREATE TABLE pg_checkout_results (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        idempotency_key TEXT NOT NULL UNIQUE,
        merchant_reference TEXT NOT NULL,
        result TEXT NOT NULL CHECK (json_valid(result)),
        recorded_at BIGINT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        last_error TEXT,
        acknowledged_at BIGINT
      );
      CREATE INDEX pg_checkout_results_due ON pg_checkout_results (next_attempt_at) WHERE acknowledged_at IS NULL;
      CREATE INDEX pg_checkout_results_order ON pg_checkout_results (merchant_reference, seq);

      CREATE TABLE pg_checkout_watches (
        merchant_reference TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        svc_id TEXT,
        amount BIGINT,
        currency TEXT,
        language TEXT NOT NULL,
        last_state TEXT NOT NULL,
        due_at BIGINT,
        expires_at BIGINT NOT NULL,
        next_check_at BIGINT NOT NULL,
        checks INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        created_at BIGINT NOT NULL,
        ended_at BIGINT,
        end_reason TEXT
      );
      CREATE INDEX pg_checkout_watches_due ON pg_checkout_watches (next_check_at) WHERE ended_at IS NULL;

      CREATE TABLE pg_checkout_orders (
        merchant_reference TEXT PRIMARY KEY,
        order_json TEXT NOT NULL CHECK (json_valid(order_json)),
        remembered_at BIGINT NOT NULL
      );

      CREATE TABLE pg_checkout_limits (
        key TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        window_ends_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'watch details',
    sql: `ALTER TABLE pg_checkout_watches ADD COLUMN detail TEXT CHECK (detail IS NULL OR json_valid(detail));`,
  },
];

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'results, watches, orders and limits',
    sql: `
      CREATE TABLE pg_checkout_results (
        seq BIGSERIAL PRIMARY KEY,
        idempotency_key TEXT NOT NULL UNIQUE,
        merchant_reference TEXT NOT NULL,
        result JSONB NOT NULL,
        recorded_at BIGINT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        last_error TEXT,
        acknowledged_at BIGINT
      );
      CREATE INDEX pg_checkout_results_due ON pg_checkout_results (next_attempt_at) WHERE acknowledged_at IS NULL;
      CREATE INDEX pg_checkout_results_order ON pg_checkout_results (merchant_reference, seq);

      CREATE TABLE pg_checkout_watches (
        merchant_reference TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        svc_id TEXT,
        amount BIGINT,
        currency TEXT,
        language TEXT NOT NULL,
        last_state TEXT NOT NULL,
        due_at BIGINT,
        expires_at BIGINT NOT NULL,
        next_check_at BIGINT NOT NULL,
        checks INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        created_at BIGINT NOT NULL,
        ended_at BIGINT,
        end_reason TEXT
      );
      CREATE INDEX pg_checkout_watches_due ON pg_checkout_watches (next_check_at) WHERE ended_at IS NULL;

      CREATE TABLE pg_checkout_orders (
        merchant_reference TEXT PRIMARY KEY,
        order_json JSONB NOT NULL,
        remembered_at BIGINT NOT NULL
      );

      CREATE TABLE pg_checkout_limits (
        key TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        window_ends_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'watch details',
    // Text, as the results' JSON is read: one mapping serves both engines.
    sql: `ALTER TABLE pg_checkout_watches ADD COLUMN detail TEXT;`,
  },
];

const SCHEMA_TABLE = `
  CREATE TABLE IF NOT EXISTS pg_checkout_schema (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at BIGINT NOT NULL
  )`;

/**
 * The advisory lock every pg-checkout instance takes while it migrates ('pg_chec' in ASCII): one
 * fixed number, so that instances of any version exclude each other.
 */
const POSTGRES_MIGRATION_LOCK = '31638856778933603';

/** The migration to apply after `current`, or undefined when the schema is up to date. */
function nextMigration(migrations: readonly Migration[], current: number, setting: string): Migration | undefined {
  const known = migrations.at(-1)?.version ?? 0;
  if (current > known) {
    throw new StoreOpenError(
      `${setting}: the database schema is version ${current}, newer than this pg-checkout knows (${known}): upgrade pg-checkout or use another database`,
    );
  }
  return migrations.find((migration) => migration.version > current);
}

/** Brings a SQLite database up to date; BEGIN IMMEDIATE is the lock that serialises processes. */
export function migrateSqlite(db: Database, migrations: readonly Migration[] = SQLITE_MIGRATIONS): void {
  db.transaction(() => db.exec(SCHEMA_TABLE)).immediate();
  const readVersion = db.prepare('SELECT MAX(version) AS version FROM pg_checkout_schema');
  const markApplied = db.prepare('INSERT INTO pg_checkout_schema (version, name, applied_at) VALUES (?, ?, ?)');
  // The version is read again inside each transaction: another process may have applied it meanwhile.
  const applyNext = db.transaction((): boolean => {
    const row = readVersion.get() as { version: number | null };
    const next = nextMigration(migrations, row.version ?? 0, 'PG_DATA_DIR');
    if (next === undefined) return false;
    db.exec(next.sql);
    markApplied.run(next.version, next.name, Date.now());
    return true;
  });
  while (applyNext.immediate());
}

/**
 * How long one statement of a PostgreSQL migration waits for a lock (the migration lock, a table)
 * before its step is rolled back and tried again. Short on purpose: while an ALTER TABLE waits for
 * its table, every statement of the running instances on that table queues behind it, and must
 * not be held past their own statement limit (5 s) by a start-up.
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 2_000;
/**
 * How long in all a start-up waits for the locks its migrations need before it gives up, naming
 * the sessions that hold them. Longer than anything pg-checkout itself holds a lock of its tables
 * for (the hourly prune: 120 s), and than its own migrations take.
 */
export const MIGRATION_WAIT_MS = 180_000;

/** Limits of a PostgreSQL migration's session; none of them cuts a statement that holds its locks. */
export interface MigrationLimits {
  /** How long one statement waits for a lock before its step is tried again (default MIGRATION_LOCK_TIMEOUT_MS). */
  readonly lockTimeoutMs?: number;
  /** How long in all the locks are waited for before the migration gives up (default MIGRATION_WAIT_MS). */
  readonly waitMs?: number;
  /** A migrating session left idle inside its transaction this long (its process frozen) is ended by the server, its locks released. */
  readonly idleInTransactionMs?: number;
  /** Told once (`store_migration_waiting`) when a step first has to wait. */
  readonly log?: Logger | undefined;
}

/** A migration that could not have its locks within its wait: the message names what it waited for and who holds it. */
export class MigrationBlockedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationBlockedError';
  }
}

/** PostgreSQL's lock_not_available: lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Brings a PostgreSQL database up to date, each step under a transaction-scoped advisory lock.
 * A step whose statement waits longer than the lock limit for a lock is rolled back and tried again
 * after a pause (the running instances' statements queued behind it go through meanwhile); once
 * the wait is spent, MigrationBlockedError names the sessions holding the store's locks. A statement
 * that holds its locks runs as long as it needs: no statement timeout.
 */
export async function migratePostgres(client: ClientBase, migrations: readonly Migration[] = POSTGRES_MIGRATIONS, limits: MigrationLimits = {}): Promise<void> {
  const lockTimeoutMs = limits.lockTimeoutMs ?? MIGRATION_LOCK_TIMEOUT_MS;
  const waitMs = limits.waitMs ?? MIGRATION_WAIT_MS;
  // Only time spent waiting counts: a step applied starts the wait again, so a long migration before
  // a blocked one neither uses up its wait nor is named in its error.
  let started = Date.now();
  let told = false;
  for (;;) {
    const step: { waitingFor?: string; migration?: Migration } = {};
    try {
      if (!(await applyNextPostgres(client, migrations, lockTimeoutMs, limits.idleInTransactionMs, step))) return;
      started = Date.now();
    } catch (error) {
      if ((error as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw error;
      const holders = describeHolders(await lockHolders(client).catch(() => []));
      const waited = Date.now() - started;
      if (waited >= waitMs) {
        const seconds = (waited / 1000).toFixed(1);
        const what = step.migration
          ? `migration ${step.migration.version} (${step.migration.name}) waited ${seconds} s for the locks it needs`
          : `waited ${seconds} s for the ${step.waitingFor ?? 'migration lock'}`;
        throw new MigrationBlockedError(`${what}, held by ${holders}; end that session or let it finish, then start again`, { cause: error });
      }
      if (!told) {
        told = true;
        limits.log?.warn('store_migration_waiting', {
          ...(step.migration ? { version: step.migration.version, name: step.migration.name } : { waiting_for: step.waitingFor ?? 'migration lock' }),
          holders,
          gives_up_after_ms: waitMs,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, lockTimeoutMs / 2));
    }
  }
}

/** Applies the next migration, if any, in one transaction; false when the schema was up to date. `step` says how far it got. */
async function applyNextPostgres(
  client: ClientBase,
  migrations: readonly Migration[],
  lockTimeoutMs: number,
  idleInTransactionMs: number | undefined,
  step: { waitingFor?: string; migration?: Migration },
): Promise<boolean> {
  await client.query('BEGIN');
  try {
    // SET takes no parameter; the numbers are this module's own.
    await client.query(
      `SET LOCAL lock_timeout = ${Math.ceil(lockTimeoutMs)}` +
        (idleInTransactionMs === undefined ? '' : `; SET LOCAL idle_in_transaction_session_timeout = ${Math.ceil(idleInTransactionMs)}`),
    );
    // The lock comes first: CREATE TABLE IF NOT EXISTS itself races between two sessions.
    step.waitingFor = 'migration lock (another instance is migrating)';
    await client.query('SELECT pg_advisory_xact_lock($1)', [POSTGRES_MIGRATION_LOCK]);
    step.waitingFor = 'schema table pg_checkout_schema';
    await client.query(SCHEMA_TABLE);
    const { rows } = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM pg_checkout_schema');
    const next = nextMigration(migrations, rows[0]?.version ?? 0, 'PG_DATABASE_URL');
    if (next === undefined) {
      await client.query('COMMIT');
      return false;
    }
    step.migration = next;
    await client.query(next.sql);
    await client.query('INSERT INTO pg_checkout_schema (version, name, applied_at) VALUES ($1, $2, $3)', [next.version, next.name, Date.now()]);
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** A session holding a lock a migration may wait for, as pg_locks and pg_stat_activity show it. */
interface LockHolder {
  readonly pid: number;
  readonly lock: string;
  readonly application_name: string | null;
  readonly state: string | null;
  readonly in_transaction_s: number | null;
}

/**
 * Who holds, in this database, the migration lock or a lock on one of the store's tables (other
 * sessions than this one). A role that may not see another role's sessions reads their pid only.
 */
async function lockHolders(client: ClientBase): Promise<LockHolder[]> {
  const key = BigInt(POSTGRES_MIGRATION_LOCK);
  const { rows } = await client.query<LockHolder>(
    `SELECT DISTINCT l.pid,
            CASE WHEN l.locktype = 'advisory' THEN 'the migration lock' ELSE l.mode || ' on ' || c.relname END AS lock,
            a.application_name, a.state,
            floor(extract(epoch FROM clock_timestamp() - a.xact_start))::integer AS in_transaction_s
       FROM pg_locks l
       LEFT JOIN pg_class c ON l.locktype = 'relation' AND c.oid = l.relation
       LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.granted AND l.pid <> pg_backend_pid()
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND ((l.locktype = 'relation' AND c.relname LIKE 'pg\\_checkout\\_%')
          OR (l.locktype = 'advisory' AND l.classid::bigint = $1 AND l.objid::bigint = $2 AND l.objsubid = 1))
      ORDER BY l.pid, lock
      LIMIT 20`,
    [String(key >> 32n), String(key & 0xffffffffn)],
  );
  return rows;
}

/** `pid 4242 (psql, idle in transaction for 310 s: AccessShareLock on pg_checkout_watches)`, one per session. */
function describeHolders(holders: readonly LockHolder[]): string {
  if (holders.length === 0) return 'other sessions (none holds one now)';
  const byPid = new Map<number, LockHolder[]>();
  for (const holder of holders) byPid.set(holder.pid, [...(byPid.get(holder.pid) ?? []), holder]);
  return [...byPid.entries()]
    .map(([pid, locks]) => {
      const [first] = locks;
      const session = first?.state == null ? "another role's session" : `${first.application_name || 'no application name'}, ${first.state}${first.in_transaction_s == null ? '' : ` for ${first.in_transaction_s} s`}`;
      return `pid ${pid} (${session}: ${locks.map((holder) => holder.lock).join(', ')})`;
    })
    .join('; ');
}

// ---- The rows of version 1, as both engines read them and the interface gives them ----
// One mapping for both engines, so that their answers are deepEqual to each other and to memory's:
// ISO times, and optional fields absent (never null) when the column is NULL. Engines hand JSON
// columns over as text (PostgreSQL: `result::text`) and BIGINTs as numbers.

/** A `pg_checkout_results` row. */
export interface ResultRow {
  readonly seq: number;
  readonly result: string;
  readonly recorded_at: number;
  readonly attempts: number;
  readonly next_attempt_at: number;
  readonly last_error: string | null;
  readonly acknowledged_at: number | null;
}

/** A `pg_checkout_watches` row. */
export interface WatchRow {
  readonly merchant_reference: string;
  readonly kind: string;
  readonly svc_id: string | null;
  readonly amount: number | null;
  readonly currency: string | null;
  readonly language: string;
  readonly last_state: string;
  readonly due_at: number | null;
  readonly expires_at: number;
  readonly next_check_at: number;
  readonly checks: number;
  readonly last_error: string | null;
  readonly created_at: number;
  readonly ended_at: number | null;
  readonly end_reason: string | null;
  /** JSON text (version 2). */
  readonly detail: string | null;
}

/** The columns of a `pg_checkout_watches` row, for SELECT and RETURNING lists. */
export const WATCH_COLUMNS =
  'merchant_reference, kind, svc_id, amount, currency, language, last_state, due_at, expires_at, next_check_at, checks, last_error, created_at, ended_at, end_reason, detail';

export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** Epoch milliseconds of an ISO time the caller gave; a time that is no time is refused before it reaches a row. */
export function msOf(time: string, field: string): number {
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) throw new RangeError(`${field} is not a time: ${time}`);
  return ms;
}

export function storedResultOf(row: ResultRow): StoredResult {
  return {
    result: JSON.parse(row.result) as VerifiedResult,
    recorded_at: isoOf(row.recorded_at),
    attempts: row.attempts,
    next_attempt_at: isoOf(row.next_attempt_at),
    ...(row.last_error === null ? {} : { last_error: row.last_error }),
    ...(row.acknowledged_at === null ? {} : { acknowledged_at: isoOf(row.acknowledged_at) }),
  };
}

/** Columns are read by name: libsql adds a `_metadata` key to every row. */
export function watchOf(row: WatchRow): PaymentWatch {
  return {
    merchant_reference: row.merchant_reference,
    kind: row.kind as PaymentWatch['kind'],
    ...(row.svc_id === null ? {} : { svc_id: row.svc_id }),
    ...(row.amount === null ? {} : { amount: row.amount }),
    ...(row.currency === null ? {} : { currency: row.currency }),
    language: row.language as PaymentWatch['language'],
    last_state: row.last_state as PaymentWatch['last_state'],
    ...(row.due_at === null ? {} : { due_at: isoOf(row.due_at) }),
    expires_at: isoOf(row.expires_at),
    next_check_at: isoOf(row.next_check_at),
    checks: row.checks,
    ...(row.last_error === null ? {} : { last_error: row.last_error }),
    created_at: isoOf(row.created_at),
    ...(row.ended_at === null ? {} : { ended_at: isoOf(row.ended_at) }),
    ...(row.end_reason === null ? {} : { end_reason: row.end_reason }),
    ...(row.detail === null ? {} : { detail: JSON.parse(row.detail) as JsonObject }),
  };
}

/** The values of a watch's row as `watch()` writes it: schedule and counts start again. */
export function newWatchRow(watch: NewWatch, now: Date): WatchRow {
  const at = now.getTime();
  return {
    merchant_reference: watch.merchant_reference,
    kind: watch.kind,
    svc_id: watch.svc_id ?? null,
    amount: watch.amount ?? null,
    currency: watch.currency ?? null,
    language: watch.language,
    last_state: watch.last_state,
    due_at: watch.due_at === undefined ? null : msOf(watch.due_at, 'due_at'),
    expires_at: msOf(watch.expires_at, 'expires_at'),
    next_check_at: watch.next_check_at === undefined ? at : msOf(watch.next_check_at, 'next_check_at'),
    checks: 0,
    last_error: null,
    created_at: at,
    ended_at: null,
    end_reason: null,
    detail: watch.detail === undefined ? null : JSON.stringify(watch.detail),
  };
}

/** The unacknowledged results counted in SQL (`ResultStore.backlog`); PostgreSQL's counts arrive as numbers (int8 parser). */
export interface BacklogRow {
  readonly undelivered: number;
  readonly failing: number;
  readonly oldest: number | null;
}

export function backlogOf(row: BacklogRow): ResultBacklog {
  return {
    undelivered: Number(row.undelivered),
    failing: Number(row.failing),
    ...(row.oldest === null ? {} : { oldest_recorded_at: isoOf(Number(row.oldest)) }),
  };
}

/** A list's `limit` as SQL wants it: null for no limit (memory stops at `limit`, and at none for a non-number). */
export function rowLimit(limit: number): number | null {
  return Number.isFinite(limit) ? Math.max(0, Math.ceil(limit)) : null;
}
