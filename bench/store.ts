/**
 * What the durable store costs, side by side for its three engines: memory, SQLite (a file in a
 * temporary folder) and PostgreSQL (a throwaway cluster, test/support/postgres.ts, or the server
 * PG_TEST_DATABASE_URL names).
 *
 * 1. `store.results.record(result, now)` called directly in this process for distinct results (a
 *    new idempotency key each, copies of the result the return route records), by one caller and
 *    by ten concurrent callers, each run bounded in time and count; records/s, median of rounds.
 * 2. The endpoint's return route (`POST /return`, a signed gateway return for a new order each
 *    request, confirmed by CHECK_STATUS from an in-process stub that holds it captured, recorded,
 *    redirected) over HTTP on 127.0.0.1: one child process per store (`servers/store-endpoint-server.ts`)
 *    under autocannon from this process, as the endpoint section measures `/hosted-page`.
 *
 * A store that cannot be opened (no PostgreSQL installed, a driver missing) is reported "not
 * measured" with the reason. Temporary folders are removed and the cluster stopped at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon, { type Options, type Result } from 'autocannon';
import pg from 'pg';
import { resultKeyOf } from '../src/core/order-status.ts';
import type { VerifiedResult } from '../src/core/verified-result.ts';
import { createMemoryStore } from '../src/store/memory.ts';
import { openStore } from '../src/store/open.ts';
import type { Store } from '../src/store/store.ts';
import { startTestPostgres, type TestPostgres } from '../test/support/postgres.ts';
import { BENCH_DIR } from './build.ts';
import { currentLoad } from './environment.ts';
import type { SectionResult, Table } from './report.ts';
import {
  COUNTERS_PATH,
  createReturnEndpoint,
  newCounters,
  RESULT_PATH,
  RETURN_PATH,
  signedReturnBody,
  svcIdOf,
  type ReturnCounters,
} from './servers/return-endpoint.ts';
import { formatMs, formatRate, formatRatio, median } from './stats.ts';

export interface StoreOptions {
  readonly record: {
    /** Upper bound of one run (one caller, or ten), in ms. */
    readonly durationMs: number;
    /** Upper bound of the records of one run. */
    readonly maxRecords: number;
    readonly rounds: number;
    readonly concurrency: number;
  };
  readonly http: {
    readonly durationSeconds: number;
    readonly warmUpSeconds: number;
    readonly rounds: number;
    readonly connections: number;
  };
}

type EngineName = 'memory' | 'sqlite' | 'postgres';

const ENGINES: readonly EngineName[] = ['memory', 'sqlite', 'postgres'];

const LABELS: Readonly<Record<EngineName, string>> = {
  memory: 'memory (`createMemoryStore()`)',
  sqlite: 'SQLite (a file in a temporary folder)',
  postgres: 'PostgreSQL (throwaway cluster on 127.0.0.1, fsync off)',
};

/** Why an engine has no figure: shown in its row instead of a number. */
type Unmeasured = { readonly reason: string };

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();

// ---- The result recorded ----------------------------------------------------------------------

/**
 * The result the return route records for one benchmark return, captured from the route itself
 * (in-process, memory store): the copies recorded in part 1 are what part 2 records, row for row.
 */
async function routeResult(): Promise<VerifiedResult> {
  const origin = 'http://127.0.0.1:1';
  const counters = newCounters();
  let recorded: VerifiedResult | undefined;
  const endpoint = createReturnEndpoint(origin, createMemoryStore(), counters, (result) => (recorded = result));
  const reference = 'BENCH-TEMPLATE-1';
  const post = () =>
    endpoint(
      new Request(`${origin}${RETURN_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: signedReturnBody(reference),
      }),
    );
  const first = await post();
  const location = first.headers.get('location') ?? '';
  if (first.status < 300 || first.status >= 400 || !location.includes(RESULT_PATH) || !location.includes('outcome=success')) {
    throw new Error(`the return route answered ${first.status} ${location} ${await first.text()} instead of a redirect to a success`);
  }
  // A replay is answered from the store: the same redirect, nothing recorded again. Each return asks
  // CHECK_STATUS twice: its confirmation, and whether another attempt of the order was paid (issue 24).
  const replay = await post();
  if (replay.headers.get('location') !== location || counters.recorded !== 1 || counters.checkStatus !== 4) {
    throw new Error(`a replayed return was not answered from the store (recorded ${counters.recorded}, CHECK_STATUS ${counters.checkStatus})`);
  }
  if (!recorded || recorded.order_state !== 'captured' || recorded.amount !== 10000) {
    throw new Error(`the return route recorded ${JSON.stringify(recorded)} instead of a captured payment`);
  }
  return recorded;
}

/** The template's result for another order, as the route would record it (its own key, payment id and echo). */
function resultFor(template: VerifiedResult, reference: string): VerifiedResult {
  const svcId = svcIdOf(reference);
  return {
    ...template,
    merchant_reference: reference,
    svc_id: svcId,
    idempotency_key: resultKeyOf({ merchant_reference: reference, svc_id: svcId, state: template.order_state, response_code: template.response_code }),
    ...(template.order_status ? { order_status: { ...template.order_status, svc_id: svcId } } : {}),
    gateway: { ...template.gateway, merchant_reference: reference, svc_id: svcId },
  };
}

// ---- Part 1: record() in this process ---------------------------------------------------------

interface RecordFigures {
  /** records/s of each round. */
  readonly single: number[];
  readonly concurrent: number[];
  /** Records of each run. */
  readonly counts: number[];
}

/** A fresh reference for every record of the section (a run id, the engine, a counter). */
function referenceMaker(runId: string, tag: string): () => string {
  let next = 0;
  return () => `B${runId}-${tag}-${String(++next).padStart(9, '0')}`;
}

/** Records distinct results with `callers` concurrent callers until the count or the time runs out; records/s. */
async function recordRun(
  store: Store,
  results: readonly VerifiedResult[],
  callers: number,
  durationMs: number,
): Promise<{ rate: number; count: number }> {
  let issued = 0;
  let firsts = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  const caller = async (): Promise<void> => {
    while (issued < results.length && performance.now() < deadline) {
      const result = results[issued++]!;
      if ((await store.results.record(result, new Date())).first) firsts++;
    }
  };
  await Promise.all(Array.from({ length: callers }, caller));
  const seconds = (performance.now() - start) / 1000;
  // Every key is new: a record that found its key taken would be the cheaper replay, not this figure.
  if (firsts !== issued) throw new Error(`${issued - firsts} of ${issued} records found their key already recorded`);
  return { rate: issued / seconds, count: issued };
}

async function recordFigures(
  store: Store,
  template: VerifiedResult,
  nextReference: () => string,
  options: StoreOptions['record'],
): Promise<RecordFigures> {
  const batch = () => Array.from({ length: options.maxRecords }, () => resultFor(template, nextReference()));
  // Unmeasured warm-up: the statements' first runs, the JIT, the pool's connections.
  await recordRun(store, batch().slice(0, 200), options.concurrency, 1000);
  const figures: RecordFigures = { single: [], concurrent: [], counts: [] };
  for (let round = 0; round < options.rounds; round++) {
    // Built before the clock starts: the figure is record() alone.
    const single = await recordRun(store, batch(), 1, options.durationMs);
    const concurrent = await recordRun(store, batch(), options.concurrency, options.durationMs);
    figures.single.push(single.rate);
    figures.concurrent.push(concurrent.rate);
    figures.counts.push(single.count, concurrent.count);
  }
  return figures;
}

// ---- Part 2: the return route over HTTP --------------------------------------------------------

interface RunningServer {
  readonly engine: EngineName;
  readonly url: string;
  readonly child: ChildProcess;
  readonly nextReference: () => string;
}

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** Starts the endpoint with one store under tsx and waits (bounded) for its `PORT <n>` line. */
function startServer(engine: EngineName, env: Readonly<Record<string, string>>, nextReference: () => string): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(BENCH_DIR, 'servers', 'store-endpoint-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', BENCH_STORE: engine, ...env },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${engine} endpoint did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${engine} endpoint exited with code ${code} before listening`));
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const port = /^PORT (\d+)$/.exec(line)?.[1];
      if (!port) return;
      clearTimeout(timer);
      lines.close();
      resolve({ engine, url: `http://127.0.0.1:${port}`, child, nextReference });
    });
  });
}

/** SIGTERM (the server closes its store), SIGKILL if it has not exited within 10 s. */
function stopServer(server: RunningServer): Promise<void> {
  const { child } = server;
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** CPU time (user + system) of a process in µs, from Linux's /proc; undefined elsewhere. */
function processCpuMicros(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return undefined;
  }
}

async function readCounters(server: RunningServer): Promise<ReturnCounters> {
  const response = await fetch(`${server.url}${COUNTERS_PATH}`, { signal: AbortSignal.timeout(5000) });
  return (await response.json()) as ReturnCounters;
}

/** The counters once the requests still in the server when the load stopped are done (two equal reads, at most 3 s). */
async function settledCounters(server: RunningServer): Promise<ReturnCounters> {
  let last = await readCounters(server);
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await readCounters(server);
    if (now.recorded === last.recorded && now.checkStatus === last.checkStatus) return now;
    last = now;
  }
  return last;
}

const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

/** One signed return of a new order by fetch, as the customer's browser posts it; its replay must be answered from the store. */
async function probe(server: RunningServer): Promise<void> {
  const before = await readCounters(server);
  const body = signedReturnBody(server.nextReference());
  const post = () => fetch(`${server.url}${RETURN_PATH}`, { method: 'POST', headers: FORM_HEADERS, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  const first = await post();
  const location = first.headers.get('location') ?? '';
  if (first.status < 300 || first.status >= 400 || !location.includes('outcome=success')) {
    throw new Error(`the ${server.engine} endpoint answered ${first.status} ${location} ${await first.text()} instead of a redirect to a success`);
  }
  const replay = await post();
  const after = await readCounters(server);
  if (replay.headers.get('location') !== location || after.recorded - before.recorded !== 1 || after.captured - before.captured !== 1) {
    throw new Error(`the ${server.engine} endpoint did not record one captured result for a return and its replay`);
  }
}

type StatusCounts = Partial<Record<'1xx' | '2xx' | '3xx' | '4xx' | '5xx', number>>;

interface HttpRun {
  readonly result: Result & StatusCounts;
  /** Results the server recorded during the run (requests still in flight when autocannon stopped included). */
  readonly recorded: number;
  readonly checkStatus: number;
  readonly cpuMicros: number | undefined;
}

/** autocannon on `/return`, a new signed return (a new order) for every request. */
function load(server: RunningServer, options: StoreOptions['http'], duration: number): Promise<Result & StatusCounts> {
  const loadOptions = {
    url: server.url,
    connections: options.connections,
    pipelining: 1,
    duration,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: RETURN_PATH,
        headers: FORM_HEADERS,
        setupRequest: (request: Record<string, unknown>) => ({ ...request, body: signedReturnBody(server.nextReference()) }),
      },
    ],
  };
  return autocannon(loadOptions as Options) as Promise<Result & StatusCounts>;
}

async function measuredLoad(server: RunningServer, options: StoreOptions['http']): Promise<HttpRun> {
  const before = await settledCounters(server);
  const cpuBefore = processCpuMicros(server.child.pid);
  const result = await load(server, options, options.durationSeconds);
  const cpuAfter = processCpuMicros(server.child.pid);
  const after = await settledCounters(server);
  const recorded = after.recorded - before.recorded;
  const redirects = result['3xx'] ?? 0;
  // A redirect without a new result would be a replay (the cheap path), and a result that is not the captured payment a broken stub.
  if (recorded < redirects) throw new Error(`${server.engine}: ${redirects} redirects but only ${recorded} new results: some returns were replays`);
  if (after.captured - before.captured !== recorded) throw new Error(`${server.engine}: not every recorded result was the captured payment`);
  return {
    result,
    recorded,
    checkStatus: after.checkStatus - before.checkStatus,
    cpuMicros: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
  };
}

const rate = (run: HttpRun) => (run.result['3xx'] ?? 0) / run.result.duration;
const meanRate = (runs: readonly HttpRun[]) => runs.reduce((sum, run) => sum + rate(run), 0) / runs.length;
const total = (runs: readonly HttpRun[], pick: (run: HttpRun) => number) => runs.reduce((sum, run) => sum + pick(run), 0);

function cpuPerRequest(runs: readonly HttpRun[]): number | undefined {
  if (runs.some((run) => run.cpuMicros === undefined)) return undefined;
  return total(runs, (run) => run.cpuMicros!) / total(runs, (run) => run.result.requests.total);
}

// ---- PostgreSQL --------------------------------------------------------------------------------

/** What the server does with a commit, read from the server itself: the note says how far it flatters the figure. */
async function postgresDurability(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    const show = async (name: string) => ((await client.query(`SHOW ${name}`)).rows[0] as Record<string, string>)[name];
    const version = ((await client.query('SHOW server_version')).rows[0] as { server_version: string }).server_version;
    return `PostgreSQL ${version}, fsync=${await show('fsync')}, synchronous_commit=${await show('synchronous_commit')}, full_page_writes=${await show('full_page_writes')}`;
  } finally {
    await client.end();
  }
}

// ---- The section -------------------------------------------------------------------------------

export async function benchStore(options: StoreOptions, log: (message: string) => void = () => {}): Promise<SectionResult> {
  const loadAtStart = currentLoad();
  const runId = Date.now().toString(36);
  const tempRoot = mkdtempSync(join(tmpdir(), 'pg-checkout-bench-store-'));
  let postgres: TestPostgres | undefined;
  const servers: RunningServer[] = [];
  try {
    const template = await routeResult();
    const resultBytes = Buffer.byteLength(JSON.stringify(template));

    const given = Boolean(process.env['PG_TEST_DATABASE_URL']?.trim());
    const labels: Readonly<Record<EngineName, string>> = given ? { ...LABELS, postgres: 'PostgreSQL (the server PG_TEST_DATABASE_URL names)' } : LABELS;
    let postgresReason: string | undefined;
    let postgresSettings = 'its settings not read';
    try {
      log(given ? 'store: PostgreSQL at PG_TEST_DATABASE_URL' : 'store: starting a throwaway PostgreSQL cluster');
      postgres = await startTestPostgres();
      postgresSettings = await postgresDurability(postgres.url);
    } catch (error) {
      postgresReason = `${given ? 'the server PG_TEST_DATABASE_URL names could not be reached' : 'the throwaway PostgreSQL cluster could not be started'}: ${firstLine(error)}`;
      log(`store: ${postgresReason}`);
      // A cluster that started but would not answer is stopped now; nothing was made on a given server.
      await postgres?.cleanup().catch(() => {});
      postgres = undefined;
    }

    /** Opens a fresh store of the engine for part 1 (this process). */
    const openFor = async (engine: EngineName): Promise<Store> => {
      if (engine === 'memory') return createMemoryStore();
      if (engine === 'sqlite') return openStore({ dataDir: join(tempRoot, 'record-sqlite') });
      if (!postgres) throw new Error(postgresReason);
      return openStore({ dataDir: tempRoot, databaseUrl: await postgres.createDatabase() });
    };

    // Part 1.
    const records = new Map<EngineName, RecordFigures | Unmeasured>();
    for (const engine of ENGINES) {
      if (engine === 'postgres' && postgresReason) {
        records.set(engine, { reason: postgresReason });
        continue;
      }
      log(`store: record() with ${engine}`);
      let store: Store | undefined;
      try {
        store = await openFor(engine);
        records.set(engine, await recordFigures(store, template, referenceMaker(runId, `r${engine[0]}`), options.record));
      } catch (error) {
        records.set(engine, { reason: firstLine(error) });
        log(`store: record() with ${engine} not measured: ${firstLine(error)}`);
      } finally {
        await store?.close().catch(() => {});
      }
    }

    // Part 2.
    const http = new Map<EngineName, HttpRun[] | Unmeasured>();
    for (const engine of ENGINES) {
      if (engine === 'postgres' && postgresReason) {
        http.set(engine, { reason: postgresReason });
        continue;
      }
      try {
        let env: Record<string, string> = {};
        if (engine === 'sqlite') {
          const dataDir = join(tempRoot, 'http-sqlite');
          mkdirSync(dataDir);
          env = { BENCH_DATA_DIR: dataDir };
        }
        if (engine === 'postgres') env = { BENCH_DATABASE_URL: await postgres!.createDatabase() };
        const server = await startServer(engine, env, referenceMaker(runId, `h${engine[0]}`));
        servers.push(server);
        await probe(server);
        http.set(engine, []);
      } catch (error) {
        http.set(engine, { reason: firstLine(error) });
        log(`store: the ${engine} endpoint not measured: ${firstLine(error)}`);
      }
    }
    const running = servers.filter((server) => Array.isArray(http.get(server.engine)));
    log(`store: POST ${RETURN_PATH} under load, ${running.map((server) => server.engine).join(', ')}`);
    for (const server of running) await load(server, options.http, options.http.warmUpSeconds);
    // Rounds alternate between the stores, so that a change of the machine's load falls on all of them.
    for (let round = 0; round < options.http.rounds; round++) {
      for (const server of running) (http.get(server.engine) as HttpRun[]).push(await measuredLoad(server, options.http));
    }

    const unmeasured = (entry: unknown): entry is Unmeasured => typeof entry === 'object' && entry !== null && 'reason' in entry;
    const durability: Readonly<Record<EngineName, string>> = {
      memory: 'none: the process\'s memory, gone at exit',
      sqlite: 'durable when record() returns: WAL, synchronous=FULL, each record its own BEGIN IMMEDIATE transaction, so one WAL fsync per record',
      postgres: given
        ? `the server PG_TEST_DATABASE_URL names (${postgresSettings}); one INSERT … ON CONFLICT DO NOTHING per record, autocommit`
        : `**not durable, flattered**: the throwaway cluster runs ${postgresSettings} (initdb --no-sync), so a commit waits for no disk at all; ` +
          'a production server (fsync=on, synchronous_commit=on) waits for a WAL flush on every commit',
    };

    const recordTable: Table = {
      caption: `store.results.record() in this process, distinct results (${resultBytes} bytes of JSON each, the return route's own result with a new key)`,
      headers: ['Store', 'one caller: records/s', 'µs per record', `${options.record.concurrency} concurrent callers: records/s`, 'records per run', 'Durability of a record'],
      rows: ENGINES.map((engine) => {
        const figures = records.get(engine);
        if (!figures || unmeasured(figures)) {
          return [labels[engine], `not measured: ${figures?.reason ?? 'not run'}`, '', '', '', durability[engine]];
        }
        const single = median(figures.single);
        return [
          labels[engine],
          formatRate(single),
          (1e6 / single).toFixed(single > 1e5 ? 2 : 0),
          formatRate(median(figures.concurrent)),
          `${Math.min(...figures.counts).toLocaleString('en-US')}–${Math.max(...figures.counts).toLocaleString('en-US')}`,
          durability[engine],
        ];
      }),
    };

    const memoryRuns = http.get('memory');
    const memoryRate = Array.isArray(memoryRuns) && memoryRuns.length > 0 ? meanRate(memoryRuns) : Number.NaN;
    const httpTable: Table = {
      caption: `POST ${RETURN_PATH} over HTTP on 127.0.0.1, a new order every request`,
      headers: ['Store', 'req/s (mean of rounds)', '× memory', 'endpoint process CPU per request', 'latency p50', 'latency p99', 'new results recorded', 'answers other than 303', 'errors'],
      rows: ENGINES.map((engine) => {
        const runs = http.get(engine);
        if (!runs || unmeasured(runs)) return [labels[engine], `not measured: ${runs?.reason ?? 'not run'}`, '', '', '', '', '', '', ''];
        const cpu = cpuPerRequest(runs);
        return [
          labels[engine],
          formatRate(meanRate(runs)),
          engine === 'memory' ? '1.00×' : formatRatio(meanRate(runs) / memoryRate),
          cpu === undefined ? 'n/a' : `${cpu.toFixed(0)} µs`,
          formatMs(Math.max(...runs.map((run) => run.result.latency.p50))),
          formatMs(Math.max(...runs.map((run) => run.result.latency.p99))),
          total(runs, (run) => run.recorded).toLocaleString('en-US'),
          String(total(runs, (run) => run.result.requests.total - (run.result['3xx'] ?? 0))),
          String(total(runs, (run) => run.result.errors + run.result.timeouts)),
        ];
      }),
    };

    const notMeasured = ENGINES.flatMap((engine) => {
      const reasons = new Set([records.get(engine), http.get(engine)].filter(unmeasured).map((entry) => entry.reason));
      return reasons.size === 0 ? [] : [`${labels[engine]}: not measured (${[...reasons].join('; ')}).`];
    });

    return {
      title: 'Durable store',
      method:
        `Part 1: \`store.results.record(result, now)\` called directly, each result under a new idempotency key, by one caller and by ` +
        `${options.record.concurrency} concurrent callers; each run stops at ${options.record.durationMs} ms or ${options.record.maxRecords.toLocaleString('en-US')} records, ` +
        `one unmeasured warm-up, then ${options.record.rounds} rounds of both; median of rounds. ` +
        `Part 2: the endpoint's return route with each store, each endpoint its own Node process on 127.0.0.1 (\`bench/servers/store-endpoint-server.ts\`), ` +
        `under autocannon from this process (${options.http.connections} connections, pipelining 1, ${options.http.warmUpSeconds} s warm-up, ` +
        `then ${options.http.rounds} alternating rounds of ${options.http.durationSeconds} s per store), every request the signed return of a new order.`,
      tables: [recordTable, httpTable],
      targets: [],
      notes: [
        ...notMeasured,
        `Each \`POST ${RETURN_PATH}\` is what the customer's browser posts back from the gateway's page: the form fields of a PURCHASE, signed with the response phrase, ` +
          'for a merchant_reference no request used before. The endpoint verifies the signature, resolves the order (any reference is an order of AED 100.00), asks CHECK_STATUS ' +
          'of an in-process stub gateway (`bench/servers/return-endpoint.ts`) that answers as for an order captured in full (12000, last operation 14000, captured and authorized ' +
          'amounts equal to the order\'s, signed), records the captured result under its new idempotency key, and redirects to the result page (a 303, counted as req/s). ' +
          'A replayed return would be much cheaper (the key is found, nothing is written); the benchmark checks after every round that the server recorded one new ' +
          'captured result per redirect, and before the load that a return and its replay record one result.',
        'The ratio to memory is the store\'s share of a return: memory records in a Map, so the gap is the engine\'s write, its durability and, for PostgreSQL, a round trip ' +
          'over loopback. The CPU column is the endpoint process\'s alone (from /proc): it leaves out PostgreSQL\'s own processes and any time spent waiting for the disk.',
        'SQLite is driven through libsql\'s synchronous API: a record holds the endpoint\'s event loop for its transaction and fsync, so concurrent callers and connections ' +
          'queue behind each other in one process (several processes would share the file\'s single writer lock). The PostgreSQL store uses its pool (10 connections), so ' +
          'concurrent records overlap on the server.',
        `Temporary folders under ${tmpdir()} (${tmpdir() === '/tmp' ? 'the root file system here' : 'the system temporary folder'}) hold the SQLite file; ` +
          'an fsync costs what that disk costs, and a laptop\'s SSD, a cloud volume and a RAM disk differ by orders of magnitude.',
        'The machine has few cores, and the load generator (which also signs every return it sends), the endpoint process and, for PostgreSQL, the database\'s processes ' +
          `share them. The 1-minute load average was ${loadAtStart.toFixed(2)} when this section started and ${currentLoad().toFixed(2)} when it ended; ` +
          'when another process loads the machine every figure falls, so compare the ratios between stores of one run.',
      ],
    };
  } finally {
    for (const server of servers) await stopServer(server);
    await postgres?.cleanup().catch((error: unknown) => console.error(`store: stopping PostgreSQL failed: ${firstLine(error)}`));
    rmSync(tempRoot, { recursive: true, force: true });
  }
}
