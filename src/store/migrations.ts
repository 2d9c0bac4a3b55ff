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

/** Brings a PostgreSQL database up to date, each step under a transaction-scoped advisory lock. */
export async function migratePostgres(client: ClientBase, migrations: readonly Migration[] = POSTGRES_MIGRATIONS): Promise<void> {
  for (;;) {
    await client.query('BEGIN');
    try {
      // The lock comes first: CREATE TABLE IF NOT EXISTS itself races between two sessions.
      await client.query('SELECT pg_advisory_xact_lock($1)', [POSTGRES_MIGRATION_LOCK]);
      await client.query(SCHEMA_TABLE);
      const { rows } = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM pg_checkout_schema');
      const next = nextMigration(migrations, rows[0]?.version ?? 0, 'PG_DATABASE_URL');
      if (next === undefined) {
        await client.query('COMMIT');
        return;
      }
      await client.query(next.sql);
      await client.query('INSERT INTO pg_checkout_schema (version, name, applied_at) VALUES ($1, $2, $3)', [
        next.version,
        next.name,
        Date.now(),
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }
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
