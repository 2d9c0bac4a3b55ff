import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { orderResult, statusResult } from '../../src/core/endpoint-api.ts';
import { ConfigError } from '../../src/server/config.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import { serve, type RunningServer } from '../../src/server/serve.ts';
import {
  ACCESS_CODE,
  API_ROOT,
  createFakeGateway,
  GATEWAY_BASE_URL,
  MERCHANT_IDENTIFIER,
  REQUEST_PHRASE,
  RESPONSE_PHRASE,
} from './fake-gateway.ts';
import { parse } from '../../src/core/shape.ts';
import { signedTokenization } from './support/returns.ts';

/** The uncommented `NAME=value` lines of .env.example: the documented start-up configuration. */
function documentedEnv(): Record<string, string> {
  const text = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^(PG_[A-Z_]+)=(.*)$/.exec(line.trim());
    if (match?.[1] && match[2] !== undefined) env[match[1]] = match[2];
  }
  return env;
}

/** The documented configuration, pointed at the fake gateway and a free port. */
function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...documentedEnv(),
    PG_MERCHANT_IDENTIFIER: MERCHANT_IDENTIFIER,
    PG_ACCESS_CODE: ACCESS_CODE,
    PG_SHA_REQUEST_PHRASE: REQUEST_PHRASE,
    PG_SHA_RESPONSE_PHRASE: RESPONSE_PHRASE,
    PG_GATEWAY_BASE_URL: GATEWAY_BASE_URL,
    PG_API_ROOT: API_ROOT,
    PG_PORT: '0',
    PG_DATA_DIR: dataDir,
    ...extra,
  };
}

/** The store's folder: SQLite in a file, as a real start-up opens it, never in the working directory. */
const dataDir = mkdtempSync(join(tmpdir(), 'pg-serve-test-'));

const running: RunningServer[] = [];
after(async () => {
  await Promise.all(running.map((server) => server.close()));
});

async function start(env: Record<string, string>, options: Parameters<typeof serve>[1] = {}) {
  const logs: string[] = [];
  const gateway = createFakeGateway();
  const server = await serve(env, { logger: createJsonLogger((line) => logs.push(line)), fetch: gateway.fetch, ...options });
  running.push(server);
  return { server, logs, gateway };
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('serve()', () => {
  it('starts on 127.0.0.1 from the documented variables and answers the elements', async () => {
    const { server, logs } = await start(testEnv());
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(server.endpointUrl, server.url);
    const response = await postJson(`${server.url}/order`, { merchant_reference: 'demo-1001', language: 'en' });
    assert.equal(response.status, 200);
    assert.deepEqual(parse(orderResult, await response.json()), {
      merchant_reference: 'demo-1001',
      amount: 250_000,
      currency: 'EGP',
      description: 'Noise-cancelling headphones',
    });
    assert.match(logs[0] ?? '', /"event":"listening"/);
  });

  it('calls the gateway server to server and verifies its answer', async () => {
    const { server, gateway } = await start(testEnv({ PG_BASE_PATH: '/pg' }));
    gateway.holds('demo-1001', 'captured');
    const response = await postJson(`${server.endpointUrl}/status`, { merchant_reference: 'demo-1001', language: 'en' });
    assert.equal(response.status, 200);
    assert.equal(parse(statusResult, await response.json()).transaction_status, '14');
    assert.deepEqual(gateway.problems, []);
  });

  it('passes the socket address on as the customer IP of a merchant page completion', async () => {
    const { server, gateway } = await start(testEnv({ PG_RESULT_URL: '/done' }));
    const tokenization = await signedTokenization('demo-1001', 'tok-9');
    const response = await fetch(`${server.url}/return`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '6.6.6.6' },
      body: new URLSearchParams(tokenization).toString(),
      redirect: 'manual',
    });
    assert.equal(response.status, 303);
    assert.match(response.headers.get('location') ?? '', /\/done\?merchant_reference=demo-1001&outcome=success/);
    assert.equal(gateway.callsOf('TOKEN_PAYMENT')[0]?.request['customer_ip'], '127.0.0.1');
    assert.equal(server.orders?.resultOf('demo-1001')?.outcome, 'success', 'the demo store records the result');
  });

  it('refuses an oversized body through the Node adapter with 413', async () => {
    const { server } = await start(testEnv());
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(`${server.url}/order`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (incoming) => {
        incoming.resume();
        resolve(incoming.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.write(`{"merchant_reference":"demo-1001","language":"en","x":"`);
      // Streams well past the 16 KiB limit without a Content-Length.
      for (let i = 0; i < 40; i++) outgoing.write('y'.repeat(1024));
      outgoing.end('"}');
    });
    assert.equal(status, 413);
  });

  it('shares the port with mounted handlers for paths that are not the endpoint’s', async () => {
    const { server } = await start(testEnv({ PG_BASE_PATH: '/pg' }), {
      mount: [(request) => (new URL(request.url).pathname.startsWith('/sandbox/') ? new Response('sandbox here') : undefined)],
    });
    assert.equal(await (await fetch(`${server.url}/sandbox/FortAPI/paymentApi`)).text(), 'sandbox here');
    const endpointAnswer = await postJson(`${server.url}/pg/order`, { merchant_reference: 'demo-1002', language: 'en' });
    assert.equal(endpointAnswer.status, 200);
    const elsewhere = await fetch(`${server.url}/nothing`);
    assert.equal(elsewhere.status, 404);
  });

  it('refuses to start without a variable, naming it and printing no secret', async () => {
    const { PG_ACCESS_CODE: _missing, ...env } = testEnv({ PG_SHA_TYPE: 'MD5' });
    await assert.rejects(serve(env), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /PG_ACCESS_CODE is not set/);
      assert.match(error.message, /PG_SHA_TYPE must be SHA-256 or SHA-512/);
      assert.ok(!error.message.includes(REQUEST_PHRASE));
      assert.ok(!error.message.includes(RESPONSE_PHRASE));
      return true;
    });
  });

  it('names the port when it is taken', async () => {
    const { server } = await start(testEnv());
    const port = new URL(server.url).port;
    await assert.rejects(serve(testEnv({ PG_PORT: port })), /PG_PORT \/ PG_HOST: 127\.0\.0\.1:\d+ is already in use/);
  });
});

describe('pg-checkout serve', () => {
  it('starts from environment variables and answers on loopback', async () => {
    const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve'], {
      env: { ...process.env, ...testEnv() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const response = await postJson(`${url}/order`, { merchant_reference: 'demo-1003', language: 'ar' });
      assert.equal(response.status, 200);
      assert.equal(parse(orderResult, await response.json()).currency, 'KWD');
    } finally {
      child.kill();
    }
  });

  it('stops with one line naming PG_DATA_DIR when the store cannot be opened, never falling back to memory', async () => {
    const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
    // A folder under a regular file can never be made, whoever runs the test (root included).
    const blocked = join(dataDir, 'a-file');
    writeFileSync(blocked, 'not a folder');
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve'], {
      env: { PATH: process.env['PATH'] ?? '', ...testEnv({ PG_DATA_DIR: join(blocked, 'store') }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 3);
    assert.match(stderr, /^pg-checkout serve: PG_DATA_DIR: .*a-file\/store cannot be written \(\w+\)\n$/);
    assert.ok(!stdout.includes('listening'), 'never started without its store');
  });

  it('stops with one line naming PG_DATABASE_URL, without its password, when the database cannot be reached', async () => {
    const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve'], {
      env: { PATH: process.env['PATH'] ?? '', ...testEnv({ PG_DATABASE_URL: 'postgres://shop:s3cret-pw@127.0.0.1:1/pgcheckout' }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 3);
    assert.match(stderr, /^pg-checkout serve: PG_DATABASE_URL: cannot connect to postgres:\/\/shop:\*\*\*@127\.0\.0\.1:1\/pgcheckout \(ECONNREFUSED\)\n$/);
    assert.ok(!stderr.includes('s3cret-pw'));
  });

  it('stops with a message naming the variable, without printing a secret', async () => {
    const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
    const { PG_GATEWAY_BASE_URL: _missing, ...env } = testEnv();
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve'], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.notEqual(code, 0);
    assert.match(stderr, /PG_GATEWAY_BASE_URL is not set/);
    assert.ok(!stderr.includes(REQUEST_PHRASE) && !stderr.includes(RESPONSE_PHRASE));
  });
});
