/**
 * Opening the store the configuration names: PostgreSQL when `PG_DATABASE_URL` is set (several
 * instances behind a load balancer), else SQLite in a file under `PG_DATA_DIR` (default: a
 * `pg-checkout-data` folder in the working directory, created on first start). The engines and
 * their drivers are loaded only when asked for, so a page that embeds the elements, or a handler
 * given a memory store, never loads a database driver.
 *
 * Opening creates or migrates the schema (migrations.ts: versioned, forward-only, under a lock), and
 * fails with one StoreOpenError line naming the setting: an unwritable folder, an unreachable
 * database, a schema newer than this code, a driver that is not installed. It never falls back to
 * memory.
 */
import type { Logger } from '../log/logger.ts';
import type { Store } from './store.ts';

/** The folder `PG_DATA_DIR` defaults to, in the working directory. */
export const DEFAULT_DATA_DIR = 'pg-checkout-data';
/** The SQLite file inside the data folder. */
export const SQLITE_FILE = 'pg-checkout.sqlite';

export interface StoreLocation {
  /** SQLite: the data folder (absolute). */
  readonly dataDir: string;
  /** PostgreSQL: the connection URL; when set, the data folder holds no store. */
  readonly databaseUrl?: string;
}

/**
 * Where the store is, from `PG_DATA_DIR` (relative to `cwd`) and `PG_DATABASE_URL`. No `node:`
 * import here: the endpoint's configuration reads this, and the endpoint also runs in browsers
 * (msw) and edge runtimes.
 */
export function storeLocationFromEnv(env: Readonly<Record<string, string | undefined>>, cwd = workingDirectory()): StoreLocation {
  const folder = env['PG_DATA_DIR']?.trim() || DEFAULT_DATA_DIR;
  const absolute = folder.startsWith('/') || /^[A-Za-z]:[\\/]/.test(folder);
  const dataDir = absolute ? folder : `${cwd.replace(/[\\/]+$/, '')}/${folder.replace(/^\.\//, '')}`;
  const databaseUrl = env['PG_DATABASE_URL']?.trim() || undefined;
  return databaseUrl === undefined ? { dataDir } : { dataDir, databaseUrl };
}

function workingDirectory(): string {
  const running = (globalThis as { process?: { cwd?: () => string } }).process;
  return running?.cwd?.() ?? '.';
}

/** A database URL fit for a log line: the password, if any, replaced. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(malformed URL)';
  }
}

export interface OpenStoreOptions extends StoreLocation {
  readonly log?: Logger;
  /** PostgreSQL connections of this process (default 10). */
  readonly poolSize?: number;
}

/** Opens (creating or migrating) the store the location names. Throws StoreOpenError. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl !== undefined) {
    const { openPostgresStore } = await import('./postgres.ts');
    return openPostgresStore(options.databaseUrl, options);
  }
  const { openSqliteStore } = await import('./sqlite.ts');
  return openSqliteStore(options.dataDir, options);
}
