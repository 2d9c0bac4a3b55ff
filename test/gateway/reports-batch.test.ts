/**
 * Reports and the batch service through the back-office client, against the sandbox over loopback
 * HTTP: a report listing the orders the client made, downloaded as CSV, JSON and XML and verified
 * (in memory, and streamed to a sink); a batch of mixed lines built from typed lines, uploaded,
 * validated, processed (PROCESS_BATCH to the batch sandbox host) and read line by line.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildBatchFile, GatewayUnavailableError, type BatchLine, type DownloadProgress, type GatewayClient } from '../../src/gateway/index.ts';
import { REPORT_SPEC_COLUMNS } from '../../src/core/schemas/index.ts';
import { authorize, clientFor, nextReference, saveCardAtCheckout, sleepsOn, startFaultProxy, startSandbox, type FaultProxy, type Sandbox } from './support.ts';

let sandbox: Sandbox;
let client: GatewayClient;
const WINDOW = { from_date: '2026-03-10T00:00:00+00:00', to_date: '2026-03-10T23:59:59+00:00' };

before(async () => {
  sandbox = await startSandbox();
  client = clientFor(sandbox.origin, { sleep: sleepsOn(sandbox.clock).sleep, now: sandbox.clock.now });
});
after(() => sandbox.close());

describe('a report of the orders', () => {
  const paid = nextReference('rep-paid');
  const held = nextReference('rep-held');
  const reportReference = nextReference('report');

  before(async () => {
    await authorize(client, paid, 70_000, 'PURCHASE');
    await authorize(client, held, 30_000);
    await client.capture({ merchant_reference: held, amount: 10_000, currency: 'EGP' });
  });

  it('GENERATE_REPORT answers 56000 with the number of rows', async () => {
    const generated = await client.generateReport({ merchant_reference: reportReference, ...WINDOW, columns: ['merchant_reference', 'operation', 'amount', 'currency'] });
    assert.deepEqual([generated.outcome, generated.response_code], ['success', '56000']);
    assert.equal(generated.answer?.transactions_count, '3');
  });

  for (const format of ['CSV', 'JSON', 'XML'] as const) {
    it(`DOWNLOAD_REPORT as ${format}: verified, read into rows listing those orders, counted as they pass`, async () => {
      const progress: DownloadProgress[] = [];
      const downloaded = await client.downloadReport({ merchant_reference: reportReference, file_format: format, onProgress: (step) => progress.push(step) });
      assert.deepEqual([progress.at(-1)?.rows, progress.at(-1)?.totalRows], [3, 3]);
      assert.equal(downloaded.outcome, 'success');
      const file = downloaded.file!;
      assert.equal(file.transactions_count, 3);
      assert.equal(file.file_name, `report-${reportReference}.${format.toLowerCase()}`);
      assert.match(file.file_digest, /^[0-9a-f]{64}$/);
      const rows = file.content?.rows ?? [];
      assert.deepEqual(
        rows.map((row) => [row['merchant_reference'], row['operation'], row['amount']]),
        [
          [paid, 'PURCHASE', '70000'],
          [held, 'AUTHORIZATION', '30000'],
          [held, 'CAPTURE', '10000'],
        ],
      );
    });
  }

  it('streams a download to a sink chunk by chunk, counting rows as they pass, and keeps no text in memory', async () => {
    const chunks: Uint8Array[] = [];
    const progress: DownloadProgress[] = [];
    const downloaded = await client.downloadReport({
      merchant_reference: reportReference,
      file_format: 'CSV',
      sink: { write: (chunk) => chunks.push(chunk) },
      onProgress: (step) => progress.push(step),
    });
    assert.equal(downloaded.file?.text, undefined);
    const text = Buffer.concat(chunks).toString('utf8');
    assert.equal(text.split('\r\n').filter(Boolean).length, 4, 'a header and three rows');
    assert.deepEqual(progress.at(-1), { bytes: Buffer.byteLength(text), rows: 3, totalRows: 3 });
  });

  it('answers a report that does not exist with the gateway’s signed refusal (57002)', async () => {
    const missing = await client.downloadReport({ merchant_reference: nextReference('none'), file_format: 'CSV' });
    assert.deepEqual([missing.outcome, missing.response_code, missing.file], ['refused', '57002', undefined]);
  });

  it('refuses a file whose signature does not verify (another response phrase)', async () => {
    const wrong = clientFor(sandbox.origin, { responsePhrase: 'not-the-response-phrase' });
    await assert.rejects(
      wrong.downloadReport({ merchant_reference: reportReference, file_format: 'JSON' }),
      (error: unknown) => error instanceof GatewayUnavailableError && error.kind === 'signature_invalid',
    );
  });

  it('takes a retried GENERATE_REPORT that finds the first attempt’s report (00005) as generated', async () => {
    const proxy: FaultProxy = await startFaultProxy(sandbox.origin);
    try {
      const flaky = clientFor(proxy.origin, { retry: { attempts: 2, delayMs: 1 } });
      proxy.inject('GENERATE_REPORT', 'reset_after_forward');
      const generated = await flaky.generateReport({ merchant_reference: nextReference('report'), ...WINDOW });
      assert.deepEqual([generated.outcome, generated.reason, generated.response_code], ['success', 'already_generated', '00005']);
    } finally {
      await proxy.close();
    }
  });

  it('defaults to the spec’s columns', async () => {
    const reference = nextReference('report');
    await client.generateReport({ merchant_reference: reference, ...WINDOW });
    const downloaded = await client.downloadReport({ merchant_reference: reference, file_format: 'JSON' });
    assert.deepEqual(downloaded.file?.content?.columns, [...REPORT_SPEC_COLUMNS]);
  });
});

describe('a batch of mixed lines', () => {
  const batchReference = `b-${Date.now().toString(36)}`;
  let batchId = '';
  const references = { auth: nextReference('b-auth'), paid: nextReference('b-paid'), sub: nextReference('b-sub'), ghost: nextReference('b-ghost') };

  before(async () => {
    await authorize(client, references.auth, 80_000);
    await authorize(client, references.paid, 60_000, 'PURCHASE');
  });

  it('is built from typed lines, uploaded (50000) and validated', async () => {
    const saved = await saveCardAtCheckout(sandbox.origin, nextReference('b-card'));
    const lines: BatchLine[] = [
      { command: 'PURCHASE', merchant_reference: references.sub, token_name: saved['token_name'] ?? '', amount: '15000', currency: 'EGP' },
      { command: 'CAPTURE', merchant_reference: references.auth, amount: '80000', currency: 'EGP' },
      { command: 'REFUND', merchant_reference: references.paid, amount: '20000', currency: 'EGP' },
      { command: 'CAPTURE', merchant_reference: references.ghost, amount: '100', currency: 'EGP' },
    ];
    const uploaded = await client.uploadBatch({ batch_reference: batchReference, file: buildBatchFile(lines) });
    assert.deepEqual([uploaded.outcome, uploaded.response_code, uploaded.status], ['success', '50000', '50']);
    batchId = String(uploaded.answer?.batch_id);

    const states: (string | undefined)[] = [];
    const validated = await client.waitForBatch({ batch_reference: batchReference, batch_id: batchId, until: 'validated', onProgress: (status) => states.push(status) });
    assert.equal(validated.batch_status, 'VALIDATED');
    assert.equal(states[0], 'UNDER_VALIDATION', 'the first reading finds it under validation');
  });

  it('stops waiting after maxWaitMs on the client’s clock, with the last reading', async () => {
    const file = buildBatchFile([{ command: 'VOID_AUTHORIZATION', merchant_reference: nextReference('b-none') }]);
    const uploaded = await client.uploadBatch({ batch_reference: `w-${Date.now().toString(36)}`, file });
    const handle = { batch_reference: String(uploaded.answer?.batch_reference), batch_id: String(uploaded.answer?.batch_id) };
    const readings: number[] = [];
    const last = await client.waitForBatch({ ...handle, until: 'validated', intervalMs: 1_000, maxWaitMs: 3_000, onProgress: (_status, reading) => readings.push(reading) });
    assert.equal(last.batch_status, 'UNDER_VALIDATION');
    assert.deepEqual(readings, [1, 2, 3, 4], 'at 0, 1, 2 and 3 seconds');
  });

  it('is processed through the batch sandbox host (72147) and gives one result per line', async () => {
    const processed = await client.processBatch({ batch_reference: batchReference, batch_id: batchId });
    assert.deepEqual([processed.outcome, processed.response_code, processed.status], ['success', '72147', '72']);
    const results = await client.waitForBatch({ batch_reference: batchReference, batch_id: batchId, until: 'processed', intervalMs: 5_000 });
    assert.equal(results.batch_status, 'PROCESSED');
    assert.deepEqual(
      results.rows?.map((row) => [row.Line_Number, row.merchant_reference, row.response_code]),
      [
        ['2', references.sub, '14000'],
        ['3', references.auth, '20064'],
        ['4', references.paid, '20064'],
        ['5', references.ghost, '00007'],
      ],
    );
    const captured = await client.checkStatus({ merchant_reference: references.auth });
    assert.equal(captured.order?.captured_amount, 80_000);
  });

  it('sends PROCESS_BATCH to the batch sandbox host in the sandbox, to batchApi live', async () => {
    const urls: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    };
    for (const batchSandboxUrl of [sandbox.origin, undefined]) {
      const spy = clientFor(sandbox.origin, { fetch: recording, batchSandboxUrl });
      await spy.processBatch({ batch_reference: batchReference, batch_id: batchId });
      assert.equal(spy.environment, batchSandboxUrl ? 'sandbox' : 'live');
    }
    assert.deepEqual(urls, [`${sandbox.origin}/integration-batch/batchApi/`, `${sandbox.origin}/FortAPI/batchApi/`]);
  });
});
