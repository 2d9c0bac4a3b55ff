/**
 * A throwaway PostgreSQL for the store's tests. With PG_TEST_DATABASE_URL set, that server is used
 * and each `createDatabase()` makes a fresh database on it (dropped at cleanup). Otherwise a
 * cluster of Debian's `postgresql` package is made in a temporary folder (initdb, without fsync: the
 * tests need speed, not durability), started on a free loopback port as a child process, and removed
 * at cleanup or, whatever happens, when the process exits. PostgreSQL refuses to run as root, so as
 * root it runs as the `postgres` user.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** The server's maintenance database (`postgres`). */
  readonly url: string;
  /** False on a server given by PG_TEST_DATABASE_URL: the tests cannot stop it. */
  readonly canRestart: boolean;
  /** A new, empty database on the server; its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast shutdown: sessions are cut, as when a database server goes away). */
  stop(): Promise<void>;
  /** Starts it again on the same folder and port. */
  start(): Promise<void>;
  /** Stops the server and removes its folder (or drops the databases made on a given server). */
  cleanup(): Promise<void>;
}

const POSTGRES_ROOT = '/usr/lib/postgresql';

/** The bin folder of the highest installed PostgreSQL version, if any. */
export function findPostgresBin(): string | undefined {
  if (!existsSync(POSTGRES_ROOT)) return undefined;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((name) => existsSync(join(POSTGRES_ROOT, name, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] === undefined ? undefined : join(POSTGRES_ROOT, versions[0], 'bin');
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env['PG_TEST_DATABASE_URL']?.trim();
  if (given) return givenServer(given);
  const bin = findPostgresBin();
  if (bin === undefined) {
    throw new Error(
      "The PostgreSQL store tests need a server: install Debian's postgresql package " +
        '(apt-get install -y postgresql) or set PG_TEST_DATABASE_URL to a server where databases may be created.',
    );
  }
  return localCluster(bin);
}

const databaseName = (): string => `pg_checkout_test_${randomBytes(6).toString('hex')}`;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.href;
}

async function createDatabaseOn(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return withDatabase(url, name);
}

async function givenServer(url: string): Promise<TestPostgres> {
  const created: string[] = [];
  return {
    url,
    canRestart: false,
    async createDatabase() {
      const name = databaseName();
      created.push(name);
      return createDatabaseOn(url, name);
    },
    async stop() {
      throw new Error('PG_TEST_DATABASE_URL names a server the tests cannot stop');
    },
    async start() {
      throw new Error('PG_TEST_DATABASE_URL names a server the tests cannot start');
    },
    async cleanup() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const name of created.splice(0)) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The command line that runs a PostgreSQL program as a user it accepts. */
function asPostgresUser(program: string, args: readonly string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, [...args]];
}

async function localCluster(bin: string): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-checkout-postgres-'));
  const data = join(dir, 'data');
  let server: ChildProcess | undefined;
  let log = '';

  // Whatever ends the process (a failed assertion, Ctrl-C through node:test), the server goes too.
  const killNow = (): void => {
    if (server?.pid !== undefined && server.exitCode === null && server.signalCode === null) {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', killNow);
  // A signal skips 'exit': kill the server, then die of the signal as the process would have.
  const onSignal = (signal: NodeJS.Signals): void => {
    killNow();
    process.kill(process.pid, signal);
  };
  for (const signal of SIGNALS) process.once(signal, onSignal);

  try {
    if (isRoot) execFileSync('chown', ['-R', 'postgres:', dir]);
    const [initdb, initArgs] = asPostgresUser(join(bin, 'initdb'), [
      '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C',
    ]);
    execFileSync(initdb, initArgs, { stdio: 'pipe' });
  } catch (error) {
    killNow();
    throw new Error(`initdb failed: ${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`, { cause: error });
  }
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  async function start(): Promise<void> {
    if (server !== undefined && server.exitCode === null && server.signalCode === null) return;
    const [program, args] = asPostgresUser(join(bin, 'postgres'), [
      '-D', data, '-p', String(port), '-k', dir,
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
    ]);
    log = '';
    // Its own process group, so that one signal reaches runuser and the postmaster alike.
    const child = spawn(program, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    // A test that forgets cleanup must not keep the process alive: 'exit' then kills the server.
    child.unref();
    (child.stderr as Socket | null)?.unref();
    server = child;
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`postgres exited at start:\n${log}`);
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      // A refused attempt must not be reported as an unhandled 'error' event.
      client.on('error', () => {});
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => {});
        if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 20 s:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  async function stop(): Promise<void> {
    const child = server;
    if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // SIGINT is PostgreSQL's fast shutdown: open sessions are told 57P01 and cut.
    process.kill(-child.pid, 'SIGINT');
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 10_000);
    await exited;
    clearTimeout(timer);
  }

  try {
    await start();
  } catch (error) {
    killNow();
    throw error;
  }

  return {
    url,
    canRestart: true,
    createDatabase: () => createDatabaseOn(url, databaseName()),
    stop,
    start,
    async cleanup() {
      await stop();
      process.off('exit', killNow);
      for (const signal of SIGNALS) process.off(signal, onSignal);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
