/**
 * `pg-checkout results` beside a running service: what the shop has not acknowledged, read from the store,
 * acknowledged or redelivered there, and the same over the service's signed routes (--url).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCaptured } from './support/run.ts';
import { expectedStatus, responseMessage } from '../../src/core/response.ts';
import { signParams } from '../../src/core/signature.ts';
import { serve, type RunningServer } from '../../src/server/serve.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { ACCESS_CODE, createFakeGateway, GATEWAY_ENV, MERCHANT_IDENTIFIER, RESPONSE_PHRASE } from '../server/fake-gateway.ts';

const SECRET = 'cli-test-hook-secret-0123456789abcdef';
const KEY = 'demo-1001:1700000001:captured';

let service: RunningServer;
/** The service's SQLite store, which the command reads as the service writes it. */
const dataDir = mkdtempSync(join(tmpdir(), 'pg-results-cli-'));
before(async () => {
  const gateway = createFakeGateway();
  service = await serve(
    {
      ...GATEWAY_ENV,
      PG_PORT: '0',
      PG_BASE_PATH: '/pg',
      PG_HOOK_SECRET: SECRET,
      PG_DATA_DIR: dataDir,
    },
    { logger: silentLogger, fetch: gateway.fetch },
  );
  gateway.holds('demo-1001', 'captured');
  const fields = await signParams(
    {
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      language: 'en',
      command: 'PURCHASE',
      merchant_reference: 'demo-1001',
      amount: '250000',
      currency: 'EGP',
      response_code: '14000',
      response_message: responseMessage('14000', 'en'),
      status: expectedStatus('14000'),
    },
    RESPONSE_PHRASE,
    'sha256',
  );
  await fetch(`${service.endpointUrl}/return`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields as Record<string, string>).toString(),
    redirect: 'manual',
  });
});
after(() => service?.close());

function run(args: string[], env: Record<string, string> = {}) {
  return runCaptured(['results', ...args], { PG_HOOK_SECRET: SECRET, PG_DATA_DIR: dataDir, ...env });
}

describe('pg-checkout results', () => {
  it('prints its usage with --help and -h', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout } = await run([flag]);
      assert.equal(code, 0);
      assert.match(stdout, /pg-checkout results --ack KEY/);
    }
  });

  it('lists the results the shop has not acknowledged from the store, as lines or as JSON', async () => {
    const lines = await run([]);
    assert.equal(lines.code, 0);
    assert.match(lines.stdout, new RegExp(`^${KEY}  success \\(captured, return\\)  demo-1001  recorded `));
    assert.match(lines.stdout, /0 deliveries tried/);
    const json = await run(['--json', '--url', service.endpointUrl]);
    assert.equal(json.code, 0);
    assert.deepEqual((JSON.parse(json.stdout) as { result: { idempotency_key: string } }[]).map((entry) => entry.result.idempotency_key), [KEY]);
    assert.equal((await run(['--delivered'])).stdout, 'no delivered result\n');
    assert.equal((await run(['--since', '2999-01-01'])).stdout, 'no result is waiting for the shop\n');
  });

  it('stops with a clear message: no store here, or a bad option', async () => {
    const elsewhere = await run([], { PG_DATA_DIR: join(dataDir, 'missing') });
    assert.equal(elsewhere.code, 3);
    assert.match(elsewhere.stderr, /PG_DATA_DIR: .*missing does not exist/);
    const both = await run(['--failing', '--all']);
    assert.equal(both.code, 2);
    const since = await run(['--since', 'yesterday']);
    assert.match(since.stderr, /--since must be a date/);
  });

  it('over --url: stops with a clear message without the secret, with another secret, or with no service', async () => {
    const missing = await run(['--url', service.endpointUrl], { PG_HOOK_SECRET: '' });
    // A missing or wrong secret is the configuration's (exit 3), as a store that cannot be opened is.
    assert.deepEqual([missing.code, missing.stderr], [3, 'pg-checkout results: PG_HOOK_SECRET is not set (the shared secret the service signs with)\n']);
    const wrong = await run(['--url', service.endpointUrl], { PG_HOOK_SECRET: 'another-secret-0123456789abcdef012345' });
    assert.equal(wrong.code, 3);
    assert.match(wrong.stderr, /refused the signature: PG_HOOK_SECRET differs/);
    assert.ok(!wrong.stderr.includes('another-secret'));
    const nobody = await run(['--url', 'http://127.0.0.1:1/pg']);
    assert.equal(nobody.code, 2);
    assert.match(nobody.stderr, /could not be reached/);
  });

  it('acknowledges a result once; an unknown key exits 1; a redelivered one is pending again', async () => {
    const first = await run(['--ack', KEY]);
    assert.deepEqual([first.code, first.stdout], [0, `acknowledged ${KEY}\n`]);
    const again = await run(['--ack', KEY]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no result awaiting acknowledgement has the key/);
    assert.equal((await run([])).stdout, 'no result is waiting for the shop\n');
    assert.match((await run(['--delivered'])).stdout, new RegExp(`^${KEY} .*; acknowledged `));
    const redelivered = await run(['--redeliver', KEY]);
    assert.equal(redelivered.code, 0);
    assert.match((await run([])).stdout, new RegExp(`^${KEY} `));
    assert.equal((await run(['--redeliver', 'no-such-key'])).code, 1);
  });
});
