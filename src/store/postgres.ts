/**
 * The store in PostgreSQL (`PG_DATABASE_URL`), for several instances behind a load balancer. Every
 * operation that must hold against another instance is one statement: `record` an INSERT … ON
 * CONFLICT DO NOTHING, `claimDue` an UPDATE of rows picked FOR UPDATE SKIP LOCKED (so that two
 * senders never take one row, and neither waits for the other), the limiter's `hit` one upsert
 * with the window in SQL. The pool reconnects by itself once the server is back; until then each
 * call fails with StoreUnavailableError('connection'). The semantics are memory.ts's, row for row.
 */
import type * as Pg from 'pg';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { Logger } from '../log/logger.ts';
import type { VerifiedResult } from '../core/verified-result.ts';
import {
  backlogOf,
  isoOf,
  MIGRATION_LOCK_TIMEOUT_MS,
  MIGRATION_WAIT_MS,
  MigrationBlockedError,
  migratePostgres,
  msOf,
  newWatchRow,
  POSTGRES_MIGRATIONS,
  rowLimit,
  storedResultOf,
  WATCH_COLUMNS,
  watchOf,
  type BacklogRow,
  type ResultRow,
  type WatchRow,
} from './migrations.ts';
import { redactDatabaseUrl, type OpenStoreOptions } from './open.ts';
import { furthestResult, RESULT_AS_RECORDED_SQL, WATCH_REPLACEABLE_SQL } from './rules.ts';
import {
  CLOCK_SKEW_LIMIT_MS,
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

/** How long a call waits for a connection before answering `connection`: a dead server answers promptly. */
const CONNECT_TIMEOUT_MS = 5000;
/**
 * How long one statement may run, waiting for a lock included, before the server cancels it
 * (`busy`). Every statement of a request or a round is one indexed row or a handful: a healthy
 * database answers in milliseconds, and a request should answer 503 well before a load balancer
 * or a customer gives up on it.
 */
const STATEMENT_TIMEOUT_MS = 5000;
/**
 * How much longer than the statement timeout a call waits for a server that answers nothing at all
 * (frozen, or cut off by a network partition that sends no reset): then the connection is dropped
 * and the call answers `connection`. The server's own cancel, with its precise reason, comes first.
 */
const UNANSWERED_MARGIN_MS = 2000;
/** The hourly prune deletes what a retention period let pile up in one statement: it may take longer than a request. */
const PRUNE_TIMEOUT_MS = 120_000;
/** An idle pooled connection is probed after this long, so one whose server vanished is found and dropped. */
const KEEPALIVE_DELAY_MS = 10_000;
/**
 * A session left inside a transaction this long (its process froze or died mid-way) is ended by the
 * server, its locks released: a pooled connection's, and a migrating instance's migration lock.
 */
const IDLE_IN_TRANSACTION_MS = 30_000;
/** pg's type id of BIGINT, which it hands over as a string by default. */
const INT8_OID = 20;

/**
 * Options of this engine besides the location, for tests and embedders: `statementTimeoutMs`
 * (default 5 s); how long a migration's statement waits for a lock at a time
 * (`migrationLockTimeoutMs`, default 2 s and at most half the statement timeout) and how long a
 * start-up waits for its migrations' locks in all (`migrationLockWaitMs`, default 3 min).
 */
export interface PostgresStoreOptions extends OpenStoreOptions {
  readonly statementTimeoutMs?: number;
  readonly migrationLockTimeoutMs?: number;
  readonly migrationLockWaitMs?: number;
}

async function loadDriver(): Promise<typeof Pg> {
  try {
    return await import('pg');
  } catch (error) {
    throw new StoreOpenError('PG_DATABASE_URL: the PostgreSQL driver (pg) is not installed; run npm install pg', { cause: error });
  }
}

/** Opens (creating or migrating) the store in the database at `url`. Throws StoreOpenError. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions): Promise<Store> {
  const { Client, Pool, TypeOverrides } = await loadDriver();
  const location = redactDatabaseUrl(url);
  // Times are epoch milliseconds in BIGINT columns, well within a double: read them as numbers.
  const types = new TypeOverrides();
  types.setTypeParser(INT8_OID, Number);
  const statementTimeoutMs = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const session = {
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    types,
  };
  const pool = new Pool({
    ...session,
    max: options.poolSize ?? 10,
    query_timeout: statementTimeoutMs + UNANSWERED_MARGIN_MS,
    // The server's own limits, set on each new connection before it is handed out (the pool awaits
    // this), rather than sent as startup parameters, which a connection pooler in front of the
    // database (PgBouncer) refuses by default. A connection that cannot take them is not used: the
    // call fails as the store's own error, never runs without its limits.
    onConnect: async (connected: Pg.ClientBase) => {
      await connected.query(`SET statement_timeout = ${Math.ceil(statementTimeoutMs)}; SET idle_in_transaction_session_timeout = ${IDLE_IN_TRANSACTION_MS}`);
    },
  });
  const conn = new Connection(pool, url, options.log);
  // Migrations run on a session of their own, without the statement timeout (a migration may
  // rewrite a large table), but with a lock timeout shorter than the pool's statement timeout,
  // tried again until the migration's wait is spent: a start-up blocked by another session fails
  // naming it, and the running instances' statements queued behind its ALTER TABLE still finish.
  const client = new Client(session);
  // A connection that drops with no listener would crash the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new StoreOpenError(`PG_DATABASE_URL: cannot connect to ${location} (${conn.reasonOf(error)})`, { cause: error });
  }
  try {
    await migratePostgres(client, POSTGRES_MIGRATIONS, {
      lockTimeoutMs: options.migrationLockTimeoutMs ?? Math.min(MIGRATION_LOCK_TIMEOUT_MS, statementTimeoutMs / 2),
      waitMs: options.migrationLockWaitMs ?? MIGRATION_WAIT_MS,
      idleInTransactionMs: IDLE_IN_TRANSACTION_MS,
      log: options.log,
    });
    // Said at start-up (and by the health route's pings after): an instance whose clock is off the
    // database's claims results badly. Not worth failing the start for: measured again at each ping.
    conn.noteClockSkew(await clockSkewOf(client).catch(() => 0));
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof StoreOpenError) throw error;
    if (error instanceof MigrationBlockedError) {
      throw new StoreOpenError(`PG_DATABASE_URL: cannot migrate the schema of ${location}: ${conn.reasonOf(error)}`, { cause: error });
    }
    throw new StoreOpenError(`PG_DATABASE_URL: cannot migrate the schema of ${location} (${conn.reasonOf(error)})`, { cause: error });
  } finally {
    await client.end().catch(() => {});
  }
  return new PostgresStore(conn, location, statementTimeoutMs);
}

/** The database server's clock, in epoch milliseconds. */
const CLOCK_SQL = 'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms';

/** How far this process's clock is ahead of the server's, taking the server's reading as made halfway through the round trip. */
async function clockSkewOf(client: Pg.ClientBase): Promise<number> {
  const sent = Date.now();
  const { rows } = await client.query<{ now_ms: number }>(CLOCK_SQL);
  const received = Date.now();
  const serverMs = rows[0]?.now_ms;
  if (typeof serverMs !== 'number') throw new Error('PostgreSQL store: the server did not tell its time');
  return (sent + received) / 2 - serverMs;
}

/** Error codes of a connection refused, lost or closed by the server (SQLSTATE class 08 aside). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '25P03', // idle_in_transaction_session_timeout: the server ended the session
]);
/** Codes of a statement that could not finish in time: the statement timeout (57014), a lock not granted (55P03). */
const BUSY_CODES = new Set(['53300', '57014', '55P03']);
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'connection error',
  // pg's own timeout (query_timeout): the server answered nothing, and the connection is dropped.
  'Query read timeout',
];

function unavailableReason(error: unknown): StoreUnavailableError['reason'] | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code) || code.startsWith('08')) return 'connection';
    if (code === '53100') return 'disk_full';
    if (BUSY_CODES.has(code)) return 'busy';
    if (code === '25006') return 'read_only';
  }
  const message = error instanceof Error ? error.message : '';
  return CONNECTION_MESSAGES.some((text) => message.includes(text)) ? 'connection' : undefined;
}

/**
 * The pool, and the ways every statement goes through it: errors mapped, a lost connection logged
 * once, a clock off the database's logged once.
 */
class Connection {
  readonly pool: Pool;
  readonly #secrets: readonly string[];
  readonly #log: Logger | undefined;
  #lost = false;
  #skewed = false;

  constructor(pool: Pool, url: string, log: Logger | undefined) {
    this.pool = pool;
    this.#log = log;
    this.#secrets = passwordsOf(url);
    // An idle client whose server went away emits this; without a listener it would end the process.
    pool.on('error', (error) => this.#connectionLost(error));
  }

  query<Row extends QueryResultRow>(text: string, values: readonly unknown[] = []): Promise<{ rows: Row[]; rowCount: number }> {
    return this.#mapped(async () => {
      const result = await this.pool.query<Row>(text, values as unknown[]);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    });
  }

  /** One statement allowed `timeoutMs` (for the server, and the margin for the client), in a transaction of its own. */
  queryWithin<Row extends QueryResultRow>(
    timeoutMs: number,
    text: string,
    values: readonly unknown[] = [],
  ): Promise<{ rows: Row[]; rowCount: number }> {
    return this.#mapped(() =>
      this.#withClient(async (client) => {
        await client.query('BEGIN');
        // SET takes no parameter; the number is this module's own.
        await client.query(`SET LOCAL statement_timeout = ${Math.ceil(timeoutMs)}`);
        // pg reads a query's own query_timeout before the pool's; its typings do not name it.
        const query: Pg.QueryConfig & { readonly query_timeout: number } = {
          text,
          values: values as unknown[],
          query_timeout: timeoutMs + UNANSWERED_MARGIN_MS,
        };
        const result = await client.query<Row>(query);
        await client.query('COMMIT');
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      }),
    );
  }

  /** Measures the skew on a connection of the pool, timing the query alone (not the wait for a connection), and notes it. */
  clockSkew(): Promise<number> {
    return this.#mapped(async () => {
      const skew = await this.#withClient(clockSkewOf);
      this.noteClockSkew(skew);
      return skew;
    });
  }

  /** Says once when this process's clock drifts beyond the limit from the database's, and once when it is back within half of it. */
  noteClockSkew(skewMs: number): void {
    const skew = Math.round(skewMs);
    if (!this.#skewed && Math.abs(skew) > CLOCK_SKEW_LIMIT_MS) {
      this.#skewed = true;
      this.#log?.warn('clock_skew', {
        skew_ms: skew,
        limit_ms: CLOCK_SKEW_LIMIT_MS,
        message: `this instance's clock is ${Math.abs(skew)} ms ${skew > 0 ? 'ahead of' : 'behind'} the database's: instances sharing the store need synchronised clocks (NTP), or two may deliver one result at once`,
      });
    } else if (this.#skewed && Math.abs(skew) <= CLOCK_SKEW_LIMIT_MS / 2) {
      this.#skewed = false;
      this.#log?.info('clock_skew_resolved', { skew_ms: skew });
    }
  }

  /** An error's code, or its message, never with the password in it. */
  reasonOf(error: unknown): string {
    const code = (error as { code?: unknown } | undefined)?.code;
    let reason = typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : error instanceof Error ? error.message : String(error);
    for (const secret of this.#secrets) reason = reason.split(secret).join('***');
    return reason;
  }

  /** Runs `run`, answering StoreUnavailableError for what says the database cannot be used now. */
  async #mapped<T>(run: () => Promise<T>): Promise<T> {
    try {
      const value = await run();
      this.#lost = false;
      return value;
    } catch (error) {
      const reason = unavailableReason(error);
      if (reason === undefined) throw error;
      if (reason === 'connection') this.#connectionLost(error);
      throw new StoreUnavailableError(reason, `PostgreSQL store unavailable: ${this.reasonOf(error)}`, { cause: error });
    }
  }

  /**
   * A connection of the pool for `use`, given back after it; dropped instead when `use` failed, as
   * pool.query does (it may be mid-transaction, or its server gone).
   */
  async #withClient<T>(use: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A checked-out client with no listener would crash the process if its connection dropped.
    const ignore = (): void => {};
    client.on('error', ignore);
    try {
      const value = await use(client);
      client.off('error', ignore);
      client.release();
      return value;
    } catch (error) {
      client.off('error', ignore);
      client.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  #connectionLost(error: unknown): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#log?.warn('store_connection_lost', { reason: this.reasonOf(error) });
  }
}

/** The password of a URL as written and decoded, to scrub from any message a driver builds. */
function passwordsOf(url: string): string[] {
  try {
    const { password } = new URL(url);
    return password ? [...new Set([password, decodeURIComponent(password)])] : [];
  } catch {
    return [];
  }
}

const RESULT_COLUMNS = 'seq, result::text AS result, recorded_at, attempts, next_attempt_at, last_error, acknowledged_at';

/** Due (for `r`, at the time in parameter `now`): unacknowledged, its time come, no earlier result of its order unacknowledged. */
const resultIsDue = (now: string): string => `r.acknowledged_at IS NULL AND r.next_attempt_at <= ${now} AND NOT EXISTS (
  SELECT 1 FROM pg_checkout_results AS earlier
  WHERE earlier.merchant_reference = r.merchant_reference AND earlier.seq < r.seq AND earlier.acknowledged_at IS NULL)`;

const STATE_CONDITION: Record<NonNullable<ResultFilter['state']>, string> = {
  pending: 'acknowledged_at IS NULL',
  failing: 'acknowledged_at IS NULL AND attempts > 0',
  delivered: 'acknowledged_at IS NOT NULL',
  all: 'TRUE',
};

const WATCH_UPSERT = `
    INSERT INTO pg_checkout_watches (${WATCH_COLUMNS})
    VALUES (${WATCH_COLUMNS.split(', ').map((_, index) => `$${index + 1}`).join(', ')})
    ON CONFLICT (merchant_reference) DO UPDATE SET ${WATCH_COLUMNS.split(', ')
      .filter((column) => column !== 'merchant_reference')
      .map((column) =>
        // Always after the replaced watch's (WatchStore.watch).
        column === 'created_at'
          ? 'created_at = GREATEST(EXCLUDED.created_at, pg_checkout_watches.created_at + 1)'
          : `${column} = EXCLUDED.${column}`,
      )
      .join(', ')}`;

const SQL = {
  insertResult: `
    INSERT INTO pg_checkout_results (idempotency_key, merchant_reference, result, recorded_at, next_attempt_at)
    VALUES ($1, $2, $3, $4, $4)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING seq`,
  resultOf: 'SELECT result::text AS result FROM pg_checkout_results WHERE idempotency_key = $1',
  rowOf: `SELECT ${RESULT_COLUMNS} FROM pg_checkout_results WHERE idempotency_key = $1`,
  release: `DELETE FROM pg_checkout_results WHERE idempotency_key = $1 AND ${RESULT_AS_RECORDED_SQL}`,
  list: (state: NonNullable<ResultFilter['state']>): string => `
    SELECT ${RESULT_COLUMNS} FROM pg_checkout_results
    WHERE ${STATE_CONDITION[state]} AND recorded_at >= $1
    ORDER BY seq LIMIT $2`,
  // SKIP LOCKED: a row another sender is claiming right now is left to it, not waited for.
  claimDue: `
    WITH claimed AS (
      UPDATE pg_checkout_results SET next_attempt_at = $2
      WHERE seq IN (
        SELECT r.seq FROM pg_checkout_results AS r WHERE ${resultIsDue('$1')}
        ORDER BY r.seq LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING ${RESULT_COLUMNS})
    SELECT * FROM claimed ORDER BY seq`,
  claim: `
    UPDATE pg_checkout_results SET next_attempt_at = $3
    WHERE seq IN (
      SELECT r.seq FROM pg_checkout_results AS r WHERE r.idempotency_key = $1 AND ${resultIsDue('$2')}
      FOR UPDATE SKIP LOCKED)
    RETURNING ${RESULT_COLUMNS}`,
  recordFailure: `
    UPDATE pg_checkout_results SET attempts = attempts + 1, next_attempt_at = $2, last_error = $3
    WHERE idempotency_key = $1 AND acknowledged_at IS NULL`,
  acknowledge: 'UPDATE pg_checkout_results SET acknowledged_at = $2 WHERE idempotency_key = $1 AND acknowledged_at IS NULL',
  redeliver: 'UPDATE pg_checkout_results SET acknowledged_at = NULL, next_attempt_at = $2 WHERE idempotency_key = $1',
  // A row a sender is claiming at this moment is waited for, then read again: its claim ends before $2, so it stays.
  hastenRetries: `
    UPDATE pg_checkout_results SET next_attempt_at = $1
    WHERE acknowledged_at IS NULL AND attempts > 0 AND next_attempt_at > $2`,
  resultsOfOrder: 'SELECT result::text AS result FROM pg_checkout_results WHERE merchant_reference = $1 ORDER BY seq',
  resultBacklog: `
    SELECT COUNT(*) AS undelivered, COUNT(*) FILTER (WHERE attempts > 0) AS failing, MIN(recorded_at) AS oldest
    FROM pg_checkout_results WHERE acknowledged_at IS NULL`,

  upsertWatch: `${WATCH_UPSERT}
    WHERE ${WATCH_REPLACEABLE_SQL}`,
  // No row yet, or the row read before (by its created_at, the last parameter; none read: no row may be there).
  upsertWatchIfUnchanged: `${WATCH_UPSERT}
    WHERE pg_checkout_watches.created_at = $${WATCH_COLUMNS.split(', ').length + 1}::bigint
    RETURNING created_at`,
  // Answered as they were when claimed (memory does the same): `due` holds the rows before the hold.
  claimDueWatches: `
    WITH claimed AS (
      UPDATE pg_checkout_watches AS w SET next_check_at = $3
      FROM (
        SELECT ${WATCH_COLUMNS} FROM pg_checkout_watches
        WHERE ended_at IS NULL AND next_check_at <= $1
        ORDER BY next_check_at, created_at, merchant_reference COLLATE "C" LIMIT $2 FOR UPDATE SKIP LOCKED) AS due
      WHERE w.merchant_reference = due.merchant_reference
      RETURNING ${WATCH_COLUMNS.split(', ').map((column) => `due.${column}`).join(', ')})
    SELECT * FROM claimed ORDER BY next_check_at, created_at, merchant_reference COLLATE "C"`,
  updateWatch: `
    UPDATE pg_checkout_watches SET
      last_state = COALESCE($2, last_state),
      svc_id = COALESCE($3, svc_id),
      next_check_at = $4,
      checks = checks + $5,
      last_error = CASE WHEN $6 THEN last_error ELSE $7 END
    WHERE merchant_reference = $1 AND ended_at IS NULL`,
  deferAllWatches: 'UPDATE pg_checkout_watches SET next_check_at = $1 WHERE ended_at IS NULL AND next_check_at < $1',
  endWatch: `
    UPDATE pg_checkout_watches SET ended_at = $2, end_reason = $3
    WHERE merchant_reference = $1 AND ended_at IS NULL AND ($4::bigint IS NULL OR created_at = $4::bigint)`,
  getWatch: `SELECT ${WATCH_COLUMNS} FROM pg_checkout_watches WHERE merchant_reference = $1`,
  countActiveWatches: 'SELECT COUNT(*) AS active FROM pg_checkout_watches WHERE ended_at IS NULL',
  listWatches: `
    SELECT ${WATCH_COLUMNS} FROM pg_checkout_watches
    WHERE NOT $1 OR ended_at IS NULL
    ORDER BY created_at, merchant_reference COLLATE "C" LIMIT $2`,

  remember: `
    INSERT INTO pg_checkout_orders (merchant_reference, order_json, remembered_at) VALUES ($1, $2, $3)
    ON CONFLICT (merchant_reference) DO UPDATE SET order_json = EXCLUDED.order_json, remembered_at = EXCLUDED.remembered_at`,
  recall: 'SELECT order_json::text AS order_json FROM pg_checkout_orders WHERE merchant_reference = $1 AND remembered_at >= $2',

  /**
   * One hit, as memory counts it: a window that has ended starts again; a hit within the limit
   * counts, one beyond it changes nothing (the WHERE) and is answered from the row as it stands.
   * $1 key, $2 limit, $3 now (ms), $4 window (ms).
   */
  hit: `
    WITH hit AS (
      INSERT INTO pg_checkout_limits AS l (key, count, window_ends_at)
      VALUES ($1, CASE WHEN $2::integer > 0 THEN 1 ELSE 0 END, $3::bigint + $4::bigint)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN $3::bigint >= l.window_ends_at THEN EXCLUDED.count ELSE l.count + 1 END,
        window_ends_at = CASE WHEN $3::bigint >= l.window_ends_at THEN EXCLUDED.window_ends_at ELSE l.window_ends_at END
      WHERE $3::bigint >= l.window_ends_at OR l.count < $2::integer
      RETURNING count, window_ends_at)
    SELECT count, window_ends_at, TRUE AS counted FROM hit
    UNION ALL
    SELECT count, window_ends_at, FALSE FROM pg_checkout_limits WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM hit)`,

  prune: `
    WITH results AS (
      DELETE FROM pg_checkout_results r WHERE acknowledged_at IS NOT NULL AND recorded_at < $1
        AND NOT EXISTS (SELECT 1 FROM pg_checkout_watches w WHERE w.merchant_reference = r.merchant_reference AND w.ended_at IS NULL)
      RETURNING 1
    ), watches AS (
      DELETE FROM pg_checkout_watches WHERE ended_at IS NOT NULL AND ended_at < $2 RETURNING 1
    ), orders AS (
      DELETE FROM pg_checkout_orders WHERE remembered_at < $3 RETURNING 1
    ), limits AS (
      DELETE FROM pg_checkout_limits WHERE window_ends_at <= $4 RETURNING 1
    )
    SELECT (SELECT COUNT(*) FROM results)::integer AS results, (SELECT COUNT(*) FROM watches)::integer AS watches,
      (SELECT COUNT(*) FROM orders)::integer AS orders, (SELECT COUNT(*) FROM limits)::integer AS limits`,
} as const;

const LIST_RESULTS = {
  pending: SQL.list('pending'),
  failing: SQL.list('failing'),
  delivered: SQL.list('delivered'),
  all: SQL.list('all'),
};

/**
 * How often a statement is tried again when another instance's commit landed between its snapshot
 * and its write (the stored row is then visible to the next statement, not to this one).
 */
const RACE_RETRIES = 5;

class PostgresResults implements ResultStore {
  readonly #conn: Connection;

  constructor(conn: Connection) {
    this.#conn = conn;
  }

  async record(result: VerifiedResult, now = new Date()): Promise<RecordOutcome> {
    const key = result.idempotency_key;
    for (let attempt = 0; attempt < RACE_RETRIES; attempt += 1) {
      const inserted = await this.#conn.query(SQL.insertResult, [key, result.merchant_reference, JSON.stringify(result), now.getTime()]);
      if (inserted.rowCount === 1) return { first: true, result };
      const { rows } = await this.#conn.query<{ result: string }>(SQL.resultOf, [key]);
      // Empty only when the row was released between the two statements: record it again.
      if (rows[0]) return { first: false, result: JSON.parse(rows[0].result) as VerifiedResult };
    }
    throw new StoreUnavailableError('busy', `PostgreSQL store: ${key} was recorded and released ${RACE_RETRIES} times during one record`);
  }

  async release(key: string): Promise<void> {
    await this.#conn.query(SQL.release, [key]);
  }

  async list(filter: ResultFilter): Promise<StoredResult[]> {
    const { rows } = await this.#conn.query<ResultRow>(LIST_RESULTS[filter.state ?? 'pending'], [
      filter.since?.getTime() ?? Number.MIN_SAFE_INTEGER,
      rowLimit(filter.limit),
    ]);
    return rows.map(storedResultOf);
  }

  async get(key: string): Promise<StoredResult | undefined> {
    const { rows } = await this.#conn.query<ResultRow>(SQL.rowOf, [key]);
    return rows[0] && storedResultOf(rows[0]);
  }

  async claimDue(now: Date, until: Date, limit: number): Promise<StoredResult[]> {
    const { rows } = await this.#conn.query<ResultRow>(SQL.claimDue, [now.getTime(), until.getTime(), rowLimit(limit)]);
    return rows.map(storedResultOf);
  }

  async claim(key: string, now: Date, until: Date): Promise<StoredResult | undefined> {
    const { rows } = await this.#conn.query<ResultRow>(SQL.claim, [key, now.getTime(), until.getTime()]);
    return rows[0] && storedResultOf(rows[0]);
  }

  async recordFailure(key: string, nextAttemptAt: Date, reason: string): Promise<void> {
    await this.#conn.query(SQL.recordFailure, [key, nextAttemptAt.getTime(), reason]);
  }

  async acknowledge(key: string, at = new Date()): Promise<boolean> {
    return (await this.#conn.query(SQL.acknowledge, [key, at.getTime()])).rowCount === 1;
  }

  async redeliver(key: string, at: Date): Promise<boolean> {
    return (await this.#conn.query(SQL.redeliver, [key, at.getTime()])).rowCount === 1;
  }

  async hastenRetries(now: Date, beyond: Date): Promise<number> {
    return (await this.#conn.query(SQL.hastenRetries, [now.getTime(), beyond.getTime()])).rowCount;
  }

  async latestFor(merchantReference: string): Promise<VerifiedResult | undefined> {
    const { rows } = await this.#conn.query<{ result: string }>(SQL.resultsOfOrder, [merchantReference]);
    return furthestResult(rows.map((row) => JSON.parse(row.result) as VerifiedResult));
  }

  async backlog(): Promise<ResultBacklog> {
    const { rows } = await this.#conn.query<BacklogRow>(SQL.resultBacklog);
    return backlogOf(rows[0] as BacklogRow);
  }
}

class PostgresWatches implements WatchStore {
  readonly #conn: Connection;

  constructor(conn: Connection) {
    this.#conn = conn;
  }

  async watch(watch: NewWatch, now: Date): Promise<void> {
    const row = newWatchRow(watch, now);
    await this.#conn.query(
      SQL.upsertWatch,
      WATCH_COLUMNS.split(', ').map((column) => row[column as keyof WatchRow]),
    );
  }

  async watchIfUnchanged(watch: NewWatch, now: Date, seen: WatchVersion | undefined): Promise<WatchVersion | undefined> {
    const row = newWatchRow(watch, now);
    const { rows } = await this.#conn.query<{ created_at: number }>(SQL.upsertWatchIfUnchanged, [
      ...WATCH_COLUMNS.split(', ').map((column) => row[column as keyof WatchRow]),
      seen ? msOf(seen.created_at, 'created_at') : null,
    ]);
    return rows[0] && { created_at: isoOf(rows[0].created_at) };
  }

  async claimDue(now: Date, until: Date, limit: number): Promise<PaymentWatch[]> {
    const { rows } = await this.#conn.query<WatchRow>(SQL.claimDueWatches, [now.getTime(), rowLimit(limit), until.getTime()]);
    return rows.map(watchOf);
  }

  async update(merchantReference: string, change: WatchChange): Promise<void> {
    await this.#conn.query(SQL.updateWatch, [
      merchantReference,
      change.last_state ?? null,
      change.svc_id ?? null,
      msOf(change.next_check_at, 'next_check_at'),
      change.checked,
      change.last_error === undefined,
      change.last_error ?? null,
    ]);
  }

  async deferAll(until: Date): Promise<number> {
    const { rowCount } = await this.#conn.query(SQL.deferAllWatches, [until.getTime()]);
    return rowCount ?? 0;
  }

  async end(merchantReference: string, at: Date, reason: string, only?: WatchVersion): Promise<void> {
    await this.#conn.query(SQL.endWatch, [merchantReference, at.getTime(), reason, only ? msOf(only.created_at, 'created_at') : null]);
  }

  async countActive(): Promise<number> {
    const { rows } = await this.#conn.query<{ active: number }>(SQL.countActiveWatches);
    return Number(rows[0]?.active ?? 0);
  }

  async get(merchantReference: string): Promise<PaymentWatch | undefined> {
    const { rows } = await this.#conn.query<WatchRow>(SQL.getWatch, [merchantReference]);
    return rows[0] && watchOf(rows[0]);
  }

  async list(filter: { readonly active?: boolean; readonly limit: number }): Promise<PaymentWatch[]> {
    const { rows } = await this.#conn.query<WatchRow>(SQL.listWatches, [filter.active === true, rowLimit(filter.limit)]);
    return rows.map(watchOf);
  }
}

class PostgresOrders implements OrderMemory {
  readonly #conn: Connection;

  constructor(conn: Connection) {
    this.#conn = conn;
  }

  async remember(merchantReference: string, order: JsonObject, at: Date): Promise<void> {
    await this.#conn.query(SQL.remember, [merchantReference, JSON.stringify(order), at.getTime()]);
  }

  async recall(merchantReference: string, notBefore: Date): Promise<JsonObject | undefined> {
    const { rows } = await this.#conn.query<{ order_json: string }>(SQL.recall, [merchantReference, notBefore.getTime()]);
    return rows[0] && (JSON.parse(rows[0].order_json) as JsonObject);
  }
}

class PostgresLimits implements RateCounter {
  readonly #conn: Connection;

  constructor(conn: Connection) {
    this.#conn = conn;
  }

  async hit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateDecision> {
    const at = now.getTime();
    for (let attempt = 0; attempt < RACE_RETRIES; attempt += 1) {
      const { rows } = await this.#conn.query<{ count: number; window_ends_at: number; counted: boolean }>(SQL.hit, [
        key,
        limit,
        at,
        windowSeconds * 1000,
      ]);
      const row = rows[0];
      // No row: another instance created the window after this statement's snapshot; ask again.
      if (row === undefined) continue;
      if (row.counted && row.count > 0) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((row.window_ends_at - at) / 1000)) };
    }
    throw new StoreUnavailableError('busy', `PostgreSQL store: the rate window of ${key} kept changing during one hit`);
  }
}

class PostgresStore implements Store {
  readonly engine = 'postgres' as const;
  readonly location: string;
  readonly results: PostgresResults;
  readonly watches: PostgresWatches;
  readonly orders: PostgresOrders;
  readonly limits: PostgresLimits;
  readonly #conn: Connection;
  readonly #statementTimeoutMs: number;
  #closed: Promise<void> | undefined;

  constructor(conn: Connection, location: string, statementTimeoutMs: number) {
    this.#conn = conn;
    this.location = location;
    this.#statementTimeoutMs = statementTimeoutMs;
    this.results = new PostgresResults(conn);
    this.watches = new PostgresWatches(conn);
    this.orders = new PostgresOrders(conn);
    this.limits = new PostgresLimits(conn);
  }

  /** Answers the clock skew with it: the health route asks often, so the measure stays current and costs no extra statement. */
  async ping(): Promise<StorePing> {
    return { clockSkewMs: await this.#conn.clockSkew() };
  }

  async prune(policy: PrunePolicy): Promise<PruneCounts> {
    const timeoutMs = Math.max(PRUNE_TIMEOUT_MS, this.#statementTimeoutMs);
    const { rows } = await this.#conn.queryWithin<{ results: number; watches: number; orders: number; limits: number }>(timeoutMs, SQL.prune, [
      policy.acknowledgedBefore.getTime(),
      policy.endedBefore.getTime(),
      policy.ordersBefore.getTime(),
      policy.now.getTime(),
    ]);
    const counts = rows[0];
    if (!counts) throw new Error('PostgreSQL store: prune returned no counts');
    return { results: counts.results, watches: counts.watches, orders: counts.orders, limits: counts.limits };
  }

  /** Ends the pool once, however often it is called. */
  close(): Promise<void> {
    this.#closed ??= this.#conn.pool.end();
    return this.#closed;
  }
}
