import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { SQLITE_FILE } from '../../src/store/open.ts';
import { migrateSqlite, SQLITE_MIGRATIONS } from '../../src/store/migrations.ts';
import { openSqliteStore } from '../../src/store/sqlite.ts';
import { StoreOpenError, StoreUnavailableError, type NewWatch, type Store } from '../../src/store/store.ts';
import { at, describeStoreContract, resultOf } from './store-contract.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pg-checkout-sqlite-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let folders = 0;
const newFolder = (): string => join(scratch, `data-${(folders += 1)}`);

const openIn = (dataDir: string): Promise<Store> => openSqliteStore(dataDir, { dataDir });

describeStoreContract('SQLite', async () => {
  const dataDir = newFolder();
  const stores: Store[] = [];
  const open = async (): Promise<Store> => {
    const store = await openIn(dataDir);
    stores.push(store);
    return store;
  };
  return {
    store: await open(),
    reopen: open,
    async cleanup() {
      for (const store of stores) await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

describe('the SQLite store, opening', () => {
  it('creates the data folder on first open, and names its file as its location', async () => {
    const dataDir = join(newFolder(), 'nested', 'pg-checkout-data');
    const store = await openIn(dataDir);
    try {
      assert.equal(store.engine, 'sqlite');
      assert.equal(store.location, join(dataDir, SQLITE_FILE));
      assert.equal(existsSync(join(dataDir, SQLITE_FILE)), true);
    } finally {
      await store.close();
    }
  });

  it('refuses a folder that cannot be written, naming PG_DATA_DIR and the folder', async () => {
    const file = `${newFolder()}.txt`;
    writeFileSync(file, 'a file where the folder would be');
    const impossible = join(file, 'sub');
    await assert.rejects(openIn(impossible), (error: unknown) => {
      assert.ok(error instanceof StoreOpenError);
      assert.equal(error.message, `PG_DATA_DIR: ${resolve(impossible)} cannot be written (ENOTDIR)`);
      return true;
    });
  });

  it('applies each migration once, however often the store is opened', async () => {
    const dataDir = newFolder();
    await (await openIn(dataDir)).close();
    await (await openIn(dataDir)).close();
    const db = new Database(join(dataDir, SQLITE_FILE));
    try {
      const rows = db.prepare('SELECT version, name FROM pg_checkout_schema ORDER BY version').all() as { version: number; name: string }[];
      assert.deepEqual(
        rows.map((row) => ({ version: row.version, name: row.name })),
        SQLITE_MIGRATIONS.map(({ version, name }) => ({ version, name })),
      );
    } finally {
      db.close();
    }
  });

  it('upgrades a database an older version made, keeping its rows (forward-only migrations)', async () => {
    const dataDir = newFolder();
    mkdirSync(dataDir, { recursive: true });
    const old = new Database(join(dataDir, SQLITE_FILE));
    migrateSqlite(old, SQLITE_MIGRATIONS.slice(0, 1));
    old
      .prepare(
        `INSERT INTO pg_checkout_watches (merchant_reference, kind, language, last_state, expires_at, next_check_at, created_at)
         VALUES ('order-9', 'bill', 'en', 'pending', 2000, 1000, 0)`,
      )
      .run();
    old.close();
    const store = await openIn(dataDir);
    try {
      const watch = await store.watches.get('order-9');
      assert.equal(watch?.kind, 'bill');
      assert.equal(watch?.detail, undefined);
      await store.watches.watch({ ...watch!, detail: { token_name: 'TK1' } } as NewWatch, at(5));
      assert.deepEqual((await store.watches.get('order-9'))?.detail, { token_name: 'TK1' });
    } finally {
      await store.close();
    }
  });

  it('refuses a database whose schema is newer than this code', async () => {
    const dataDir = newFolder();
    await (await openIn(dataDir)).close();
    const db = new Database(join(dataDir, SQLITE_FILE));
    db.prepare("INSERT INTO pg_checkout_schema (version, name, applied_at) VALUES (99, 'from the future', 0)").run();
    db.close();
    await assert.rejects(openIn(dataDir), (error: unknown) => {
      assert.ok(error instanceof StoreOpenError);
      assert.equal(
        error.message,
        'PG_DATA_DIR: the database schema is version 99, newer than this pg-checkout knows (2): upgrade pg-checkout or use another database',
      );
      return true;
    });
  });

  it('opens one new folder twice at once: both succeed, the schema made once', async () => {
    const dataDir = newFolder();
    const [a, b] = await Promise.all([openIn(dataDir), openIn(dataDir)]);
    try {
      assert.equal((await a.results.record(resultOf('order-1', 'captured'), at(0))).first, true);
      assert.equal((await b.results.record(resultOf('order-1', 'captured'), at(1))).first, false);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the SQLite store, shared by two stores on one file', () => {
  it('records a key once when both record it at the same moment', async () => {
    const dataDir = newFolder();
    const [a, b] = await Promise.all([openIn(dataDir), openIn(dataDir)]);
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, index) => {
          const result = resultOf(`order-${index % 10}`, 'captured');
          return (index % 2 === 0 ? a : b).results.record(result, at(index));
        }),
      );
      assert.equal(outcomes.filter((outcome) => outcome.first).length, 10);
      assert.equal((await a.results.list({ state: 'all', limit: 100 })).length, 10);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('never lets both claim the same result', async () => {
    const dataDir = newFolder();
    const [a, b] = await Promise.all([openIn(dataDir), openIn(dataDir)]);
    try {
      for (let index = 0; index < 50; index += 1) await a.results.record(resultOf(`order-${index}`, 'captured'), at(0));
      const claimed: string[] = [];
      const claimer = async (store: Store): Promise<void> => {
        for (;;) {
          const rows = await store.results.claimDue(at(1), at(600), 7);
          if (rows.length === 0) return;
          claimed.push(...rows.map((row) => row.result.idempotency_key));
        }
      };
      await Promise.all([claimer(a), claimer(b), claimer(a), claimer(b)]);
      assert.equal(claimed.length, 50);
      assert.equal(new Set(claimed).size, 50);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('answers busy, and writes nothing, while another connection holds the write lock past the busy timeout', async () => {
    const dataDir = newFolder();
    const store = await openIn(dataDir);
    const holder = new Database(join(dataDir, SQLITE_FILE));
    try {
      holder.exec('BEGIN IMMEDIATE');
      await assert.rejects(store.results.record(resultOf('order-1', 'captured'), at(0)), (error: unknown) => {
        assert.ok(error instanceof StoreUnavailableError);
        assert.equal(error.reason, 'busy');
        return true;
      });
      holder.exec('ROLLBACK');
      assert.equal((await store.results.record(resultOf('order-1', 'captured'), at(1))).first, true);
    } finally {
      holder.close();
      await store.close();
    }
  });
});

describe('the SQLite store, waiting for a lock', () => {
  it('keeps this process answering while a write waits for another connection to let go of the write lock', async () => {
    const dataDir = newFolder();
    const store = await openIn(dataDir);
    const holder = new Database(join(dataDir, SQLITE_FILE));
    try {
      await store.results.record(resultOf('order-1', 'captured'), at(0));
      holder.exec('BEGIN IMMEDIATE');
      let settled = false;
      const waiting = store.results.record(resultOf('order-2', 'captured'), at(1)).finally(() => (settled = true));
      // While the write waits, a read and a timer of this process still run: the wait does not
      // stop the process (a synchronous wait would have held it until the lock's holder, here in
      // this very process, could never let go).
      const read = await store.results.get(resultOf('order-1', 'captured').idempotency_key);
      assert.equal(read?.result.merchant_reference, 'order-1');
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(settled, false, 'the write waits while the lock is held');
      holder.exec('COMMIT');
      assert.equal((await waiting).first, true);
      assert.equal((await store.results.get(resultOf('order-2', 'captured').idempotency_key))?.result.merchant_reference, 'order-2');
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
      await store.close();
    }
  });
});

describe('the SQLite store, shared by two processes', () => {
  it('keeps every row of two processes writing one new file at the same time, none twice', async () => {
    const KEYS = 200;
    const dataDir = newFolder();
    const script = join(scratch, 'writer.mts');
    const sqliteModule = fileURLToPath(new URL('../../src/store/sqlite.ts', import.meta.url));
    const contractModule = fileURLToPath(new URL('./store-contract.ts', import.meta.url));
    // Each writer opens the store (both migrating the new file at once), says so, waits for the
    // word, then records KEYS keys of its own and the same KEYS shared keys, and reports its firsts.
    writeFileSync(
      script,
      `import { once } from 'node:events';
import { openSqliteStore } from ${JSON.stringify(sqliteModule)};
import { at, resultOf } from ${JSON.stringify(contractModule)};
const [dataDir, name] = process.argv.slice(2);
const store = await openSqliteStore(dataDir, { dataDir });
process.stdout.write('ready\\n');
await once(process.stdin, 'data');
const firsts = [];
// The second writer takes the shared keys from the other end: the two meet in the middle.
const order = Array.from({ length: ${KEYS} }, (_, index) => (name === 'writer-b' ? ${KEYS - 1} - index : index));
for (const index of order) {
  await store.results.record(resultOf(name + '-' + index, 'captured'), at(index));
  const shared = await store.results.record(resultOf('shared-' + index, 'captured'), at(index));
  if (shared.first) firsts.push(index);
  // Paced like a server between requests: SQLite's busy handler sleeps, and a writer that never
  // pauses would keep the lock until it is done, leaving nothing for the other to race.
  await new Promise((resolve) => setTimeout(resolve, 1));
}
await store.close();
process.stdout.write(JSON.stringify(firsts) + '\\n');
process.exit(0);
`,
    );
    const writers = ['writer-a', 'writer-b'].map((name) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, name], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const ready = new Promise<void>((resolveReady, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.startsWith('ready\n')) resolveReady();
        });
        child.on('exit', (code) => reject(new Error(`${name} exited ${code} before it was ready: ${err}`)));
      });
      const done = new Promise<number[]>((resolveDone, reject) => {
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0 ? resolveDone(JSON.parse(out.slice('ready\n'.length)) as number[]) : reject(new Error(`${name} exited ${code}: ${err}`)),
        );
      });
      return { child, ready, done };
    });
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) writer.child.stdin.end('go');
    const [first, second] = await Promise.all(writers.map((writer) => writer.done));

    const store = await openIn(dataDir);
    try {
      const rows = await store.results.list({ state: 'all', limit: 10 * KEYS });
      const keys = rows.map((row) => row.result.idempotency_key);
      assert.equal(rows.length, 3 * KEYS);
      assert.equal(new Set(keys).size, 3 * KEYS);
      for (const name of ['writer-a', 'writer-b', 'shared']) {
        assert.equal(keys.filter((key) => key.startsWith(`${name}-`)).length, KEYS, name);
      }
      const firsts = [...(first ?? []), ...(second ?? [])].sort((x, y) => x - y);
      assert.deepEqual(firsts, Array.from({ length: KEYS }, (_, index) => index), 'each shared key first once');
    } finally {
      await store.close();
    }
  });
});
