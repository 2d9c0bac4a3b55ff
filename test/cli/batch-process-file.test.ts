/**
 * `pg-checkout batch process REFERENCE:ID --file FILE`: the file is the one the operator uploaded,
 * and its lines are what the question shows. A malformed file (a line of the wrong number of values,
 * an amount that is not whole minor units, an unknown command, a field a line needs left empty) is
 * refused by the same check `batch upload` and the gateway make (core `validateBatchFile`), each
 * problem named by its line and field, before anything is asked of the gateway: a proxy in front of
 * the sandbox counts what reached it.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { EXIT } from '../../src/cli/command.ts';
import { buildBatchFile } from '../../src/core/batch-file.ts';
import type { BatchHandle, GatewayClient } from '../../src/gateway/index.ts';
import { BATCH_PROCESSING_MS, BATCH_VALIDATION_MS } from '../../src/sandbox/batch.ts';
import { authorize, clientFor, nextReference, startFaultProxy, startSandbox, type FaultProxy, type Sandbox } from '../gateway/support.ts';
import { runCaptured, sandboxAccountEnv } from './support/run.ts';

let sandbox: Sandbox;
let proxy: FaultProxy;
let client: GatewayClient;
let workdir: string;

before(async () => {
  sandbox = await startSandbox();
  proxy = await startFaultProxy(sandbox.origin);
  client = clientFor(sandbox.origin);
  workdir = mkdtempSync(join(tmpdir(), 'pg-batch-file-'));
});
after(async () => {
  await proxy.close();
  await sandbox.close();
  rmSync(workdir, { recursive: true, force: true });
});
beforeEach(() => {
  proxy.received.length = 0;
  proxy.forwarded.length = 0;
});

/** The CLI in this process, talking to the gateway through the counting proxy; stdin a pipe. */
function run(args: string[]) {
  return runCaptured(args, { ...sandboxAccountEnv(proxy.origin), PG_BATCH_SANDBOX_URL: proxy.origin }, new PassThrough());
}

function file(name: string, text: string): string {
  const path = join(workdir, name);
  writeFileSync(path, text);
  return path;
}

/** A validated batch of `lines` captures of authorized orders, uploaded past the proxy; its handle and references. */
async function validatedBatch(lines = 2): Promise<{ handle: string; batch: BatchHandle; references: string[] }> {
  const references: string[] = [];
  for (let i = 0; i < lines; i++) {
    const reference = nextReference('bpf');
    await authorize(client, reference, 9_000);
    references.push(reference);
  }
  const text = buildBatchFile(references.map((reference) => ({ command: 'CAPTURE', merchant_reference: reference, amount: '9000', currency: 'EGP' })));
  const batch_reference = `bpf-${Date.now().toString(36)}${lines}`;
  const uploaded = await client.uploadBatch({ batch_reference, file: new TextEncoder().encode(text), file_name: 'batch.csv' });
  assert.equal(uploaded.outcome, 'success', JSON.stringify(uploaded));
  sandbox.clock.advance(BATCH_VALIDATION_MS);
  const batch = { batch_reference, batch_id: String(uploaded.answer?.batch_id) };
  return { handle: `${batch.batch_reference}:${batch.batch_id}`, batch, references };
}

const HEADER = 'command,merchant_reference,amount,currency';

describe('batch process --file refuses a malformed file before anything is sent', () => {
  const cases: { name: string; lines: (references: string[]) => string[]; named: RegExp }[] = [
    {
      name: 'a line with fewer values than the header names',
      lines: ([a, b]) => [`CAPTURE,${a},9000,EGP`, `CAPTURE,${b},9000`],
      named: /:3 the line has 3 values; the header row names 4 columns/,
    },
    {
      name: 'a line with more values than the header names',
      lines: ([a, b]) => [`CAPTURE,${a},9000,EGP,EXTRA`, `CAPTURE,${b},9000,EGP`],
      named: /:2 the line has 5 values; the header row names 4 columns/,
    },
    {
      name: 'an amount in major units, not whole minor units',
      lines: ([a, b]) => [`CAPTURE,${a},90.00,EGP`, `CAPTURE,${b},9000,EGP`],
      named: /:2 amount: may contain only digits 0-9/,
    },
    {
      name: 'a negative amount',
      lines: ([a, b]) => [`CAPTURE,${a},9000,EGP`, `CAPTURE,${b},-9000,EGP`],
      named: /:3 amount: may contain only digits 0-9/,
    },
    {
      name: 'a command the batch service does not take',
      lines: ([a, b]) => [`SALE,${a},9000,EGP`, `CAPTURE,${b},9000,EGP`],
      named: /:2 command: must be one of: PURCHASE, CAPTURE, REFUND, VOID_AUTHORIZATION/,
    },
    {
      name: 'a required field left empty',
      lines: ([a, b]) => [`CAPTURE,${a},9000,`, `CAPTURE,${b},9000,EGP`],
      named: /:2 currency: is required/,
    },
    {
      name: 'the same merchant_reference on two lines',
      lines: ([a]) => [`CAPTURE,${a},4000,EGP`, `CAPTURE,${a},5000,EGP`],
      named: /:3 merchant_reference: is already used by line 2 of this file/,
    },
  ];

  for (const { name, lines, named } of cases) {
    it(`${name}: names the line and the field, sends nothing (exit 2)`, async () => {
      const { handle, batch, references } = await validatedBatch();
      const path = file('bad.csv', `${HEADER}\n${lines(references).join('\n')}\n`);
      const refused = await run(['batch', 'process', handle, '--file', path, '--yes']);
      assert.equal(refused.code, EXIT.usage, refused.stderr);
      assert.match(refused.stderr, new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${named.source}`));
      assert.match(refused.stderr, /in --file .*; nothing was sent/);
      assert.deepEqual(proxy.received, [], 'nothing reached the gateway, not even GET_BATCH_RESULTS');
      assert.equal((await client.batchResults(batch)).batch_status, 'VALIDATED', 'the batch is left as it was');
    });
  }

  it('checks the file even when the batch is already processing: PROCESS_BATCH is not sent', async () => {
    const { handle, batch, references } = await validatedBatch();
    assert.equal((await client.processBatch(batch)).outcome, 'success');
    const path = file('late.csv', `${HEADER}\nCAPTURE,${references[0]},12.5,EGP\nCAPTURE,${references[1]},9000,EGP\n`);
    const refused = await run(['batch', 'process', handle, '--file', path, '--yes']);
    assert.equal(refused.code, EXIT.usage, refused.stderr);
    assert.match(refused.stderr, /late\.csv:2 amount: may contain only digits 0-9/);
    assert.deepEqual(proxy.received, []);
  });

  it('refuses a well-formed file of another line count after reading the batch, and sends no PROCESS_BATCH', async () => {
    const { handle, references } = await validatedBatch();
    const path = file('short.csv', `${HEADER}\nCAPTURE,${references[0]},9000,EGP\n`);
    const refused = await run(['batch', 'process', handle, '--file', path, '--yes']);
    assert.equal(refused.code, EXIT.usage, refused.stderr);
    assert.match(refused.stderr, /--file .*short\.csv has 1 line; the batch has 2: it is not the file of this batch; nothing was sent/);
    assert.deepEqual(proxy.received, ['GET_BATCH_RESULTS']);
  });

  it('points to batch status, not to an order, when the answer to PROCESS_BATCH is lost and no reading can say', async () => {
    const { handle, references } = await validatedBatch();
    const path = file('lost.csv', buildBatchFile(references.map((reference) => ({ command: 'CAPTURE', merchant_reference: reference, amount: '9000', currency: 'EGP' }))));
    proxy.inject('PROCESS_BATCH', 'bad_gateway_after_forward');
    proxy.beforeForward = (operation) => {
      // The first reading (before the question) is answered; those after the lost answer are not.
      if (operation === 'PROCESS_BATCH') proxy.inject('GET_BATCH_RESULTS', 'unavailable', Infinity);
    };
    const lost = await run(['batch', 'process', handle, '--file', path, '--yes', '--no-wait']);
    proxy.beforeForward = undefined;
    proxy.inject('GET_BATCH_RESULTS', 'pass', 0);
    assert.equal(lost.code, EXIT.unknown, lost.stderr);
    assert.match(lost.stderr, /Check the batch \(pg-checkout batch status\) before trying again/);
    sandbox.clock.advance(BATCH_PROCESSING_MS);
  });

  it('processes the batch with the file it was uploaded from, its money in the question', async () => {
    const { handle, references } = await validatedBatch();
    const path = file('good.csv', buildBatchFile(references.map((reference) => ({ command: 'CAPTURE', merchant_reference: reference, amount: '9000', currency: 'EGP' }))));
    const asked = await run(['batch', 'process', handle, '--file', path]);
    assert.equal(asked.code, EXIT.usage, 'no confirmation on a pipe');
    assert.match(asked.stderr, /CAPTURE in EGP: 2 lines, EGP 180\.00 \(18000 minor units\)/);
    assert.deepEqual(proxy.received, ['GET_BATCH_RESULTS']);
    const processed = await run(['batch', 'process', handle, '--file', path, '--yes', '--no-wait']);
    assert.equal(processed.code, EXIT.success, processed.stderr);
    assert.ok(proxy.received.includes('PROCESS_BATCH'));
    sandbox.clock.advance(BATCH_PROCESSING_MS);
  });
});
