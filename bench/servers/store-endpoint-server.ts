/**
 * The merchant endpoint of the store benchmark, mounted as a merchant would on Node
 * (`createMerchantEndpoint` under `toNodeListener`), with the store its environment names:
 *
 *   BENCH_STORE=memory                                     createMemoryStore()
 *   BENCH_STORE=sqlite   BENCH_DATA_DIR=<folder>           openStore({ dataDir })
 *   BENCH_STORE=postgres BENCH_DATABASE_URL=<url>          openStore({ dataDir, databaseUrl })
 *
 * Run as a child process; prints `PORT <n>` once listening on loopback. `GET /bench-counters`
 * answers what the process has done (CHECK_STATUS calls, results recorded), for the benchmark's
 * checks; every other request goes to the endpoint. SIGTERM closes the server and the store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toNodeListener } from '../../src/server/node.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { openStore } from '../../src/store/open.ts';
import type { Store } from '../../src/store/store.ts';
import { COUNTERS_PATH, createReturnEndpoint, newCounters } from './return-endpoint.ts';

async function storeFromEnv(): Promise<{ store: Store; cleanup: () => void }> {
  const engine = process.env['BENCH_STORE'];
  if (engine === 'memory') return { store: createMemoryStore(), cleanup: () => {} };
  if (engine === 'sqlite') {
    const dataDir = process.env['BENCH_DATA_DIR'];
    if (!dataDir) throw new Error('BENCH_STORE=sqlite needs BENCH_DATA_DIR');
    return { store: await openStore({ dataDir }), cleanup: () => {} };
  }
  if (engine === 'postgres') {
    const databaseUrl = process.env['BENCH_DATABASE_URL'];
    if (!databaseUrl) throw new Error('BENCH_STORE=postgres needs BENCH_DATABASE_URL');
    // The data folder holds no store when a database URL is given; an empty one of its own all the same.
    const dataDir = mkdtempSync(join(tmpdir(), 'pg-checkout-bench-pgdata-'));
    return { store: await openStore({ dataDir, databaseUrl }), cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  throw new Error(`BENCH_STORE must be memory, sqlite or postgres, not ${JSON.stringify(engine)}`);
}

const { store, cleanup } = await storeFromEnv();
const counters = newCounters();
const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const endpoint = toNodeListener(createReturnEndpoint(`http://127.0.0.1:${port}`, store, counters));
server.on('request', (request, response) => {
  if (request.url === COUNTERS_PATH) {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counters));
    return;
  }
  endpoint(request, response);
});

process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  void store
    .close()
    .catch((error: unknown) => console.error(error))
    .finally(() => {
      cleanup();
      process.exit(0);
    });
});

console.log(`PORT ${port}`);
