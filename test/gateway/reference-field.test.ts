/**
 * The back-office client set to the live gateway's name of its order reference
 * (`gatewayReferenceField: 'fort_id'`), against the sandbox set alike, over loopback HTTP with every
 * exchange recorded off the wire: requests carry `fort_id` (never `svc_id`) and are signed over it,
 * answers are verified over it, and what the client returns names the reference `svc_id` (typed
 * answers, order status, batch rows, report columns).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildBatchFile } from '../../src/core/batch-file.ts';
import { verifySignature, signatureOptionsFor, type SignableParams } from '../../src/core/signature.ts';
import { ConfigError } from '../../src/gateway/settings.ts';
import type { GatewayClient } from '../../src/gateway/index.ts';
import { authorize, clientFor, M, nextReference, sleepsOn, startSandbox, type Sandbox } from './support.ts';

interface Exchange {
  readonly url: string;
  /** The request as sent: the JSON text, or a multipart form's fields and file part. */
  readonly request: string;
  readonly answer: string;
}

/** `fetch` that keeps a copy of every request body and answer body that crossed the wire. */
function recordingFetch(): { readonly fetch: typeof fetch; readonly exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const record: typeof fetch = async (input, init) => {
    let request = '';
    if (typeof init?.body === 'string') request = init.body;
    else if (init?.body instanceof FormData) {
      for (const [name, value] of init.body) request += `${name}=${typeof value === 'string' ? value : await value.text()}\n`;
    }
    const response = await fetch(input, init);
    exchanges.push({ url: String(input), request, answer: await response.clone().text() });
    return response;
  };
  return { fetch: record, exchanges };
}

let sandbox: Sandbox;
let client: GatewayClient;
let wire: ReturnType<typeof recordingFetch>;

before(async () => {
  sandbox = await startSandbox({ gatewayReferenceField: 'fort_id' });
  wire = recordingFetch();
  client = clientFor(sandbox.origin, { gatewayReferenceField: 'fort_id', fetch: wire.fetch, sleep: sleepsOn(sandbox.clock).sleep, now: sandbox.clock.now });
});
after(() => sandbox.close());

/** The exchanges since `from`, asserted to name the reference only fort_id, with every JSON answer verifying. */
async function fortIdOnly(from: number): Promise<Exchange[]> {
  const exchanges = wire.exchanges.slice(from);
  assert.ok(exchanges.length > 0);
  for (const exchange of exchanges) {
    assert.doesNotMatch(exchange.request, /svc_id/, `no svc_id sent to ${exchange.url}: ${exchange.request}`);
    assert.doesNotMatch(exchange.answer, /svc_id/, `no svc_id answered by ${exchange.url}: ${exchange.answer}`);
    if (exchange.answer.startsWith('{')) {
      const answer = JSON.parse(exchange.answer) as SignableParams;
      assert.ok((await verifySignature(answer, M.responsePhrase, M.shaType, signatureOptionsFor(answer))).valid, exchange.answer);
    }
  }
  return exchanges;
}

describe('a client set to fort_id, against a gateway that says fort_id', () => {
  it('sends fort_id in a signed capture and reads the answers’ fort_id as svc_id', async () => {
    const reference = nextReference('fort');
    const from = wire.exchanges.length;
    const svcId = await authorize(client, reference, 50_000);
    assert.match(svcId, /^\d+$/, 'the charge’s answer names it svc_id inside');
    const captured = await client.capture({ merchant_reference: reference, amount: 20_000, currency: 'EGP' });
    assert.deepEqual([captured.outcome, captured.response_code], ['success', '20064']);
    const status = await client.checkStatus({ svc_id: svcId });
    assert.equal(status.order?.svc_id, svcId);
    assert.equal(status.answer?.merchant_reference, reference);
    assert.equal(status.order?.captured_amount, 20_000);

    const exchanges = await fortIdOnly(from);
    const captureRequest = exchanges.map((exchange) => JSON.parse(exchange.request) as Record<string, unknown>).find((request) => request['command'] === 'CAPTURE');
    assert.equal(captureRequest?.['fort_id'], svcId, 'the capture names the order as CHECK_STATUS read it, under the wire’s name');
  });

  it('uploads a batch file’s svc_id column as fort_id and reads the result rows’ fort_id as svc_id', async () => {
    const reference = nextReference('fort-batch');
    const svcId = await authorize(client, reference, 30_000);
    const from = wire.exchanges.length;
    const file = buildBatchFile([{ command: 'CAPTURE', merchant_reference: reference, svc_id: svcId, amount: '30000', currency: 'EGP' }]);
    assert.match(file, /^command,merchant_reference,svc_id,/, 'built under the inside names');
    const batch_reference = `fb-${Date.now().toString(36)}`;
    const uploaded = await client.uploadBatch({ batch_reference, file });
    assert.equal(uploaded.response_code, '50000', JSON.stringify(uploaded));
    const handle = { batch_reference, batch_id: String(uploaded.answer?.batch_id) };
    const validated = await client.waitForBatch({ ...handle, until: 'validated' });
    assert.equal(validated.batch_status, 'VALIDATED', JSON.stringify(validated.answer?.errors));
    await client.processBatch(handle);
    const results = await client.waitForBatch({ ...handle, until: 'processed', intervalMs: 5_000 });
    assert.equal(results.batch_status, 'PROCESSED');
    assert.equal(results.rows?.[0]?.svc_id, svcId);
    assert.equal(results.rows?.[0]?.response_code, '20064');
    assert.match(String(results.answer?.batch_results), /"Line_Number",.*"svc_id"/, 'the results text reads under the inside names');

    const exchanges = await fortIdOnly(from);
    assert.match(exchanges[0]?.request ?? '', /file=command,merchant_reference,fort_id,/, 'the file part names the column fort_id');
    const processedAnswer = exchanges.at(-1)?.answer ?? '';
    assert.match(processedAnswer, /"rows":\[\{[^}]*"fort_id":"\d+"/);
    assert.match(processedAnswer, /\\"fort_id\\"/, 'the results text’s header too');
  });

  it('asks for a report’s svc_id column and filter as fort_id, and reads the file’s fort_id column as svc_id', async () => {
    const reference = nextReference('fort-report');
    const svcId = await authorize(client, reference, 12_000);
    const from = wire.exchanges.length;
    const reportReference = nextReference('fr');
    const generated = await client.generateReport({
      merchant_reference: reportReference,
      from_date: '2026-03-10T00:00:00+00:00',
      to_date: '2026-03-10T23:59:59+00:00',
      columns: ['merchant_reference', 'svc_id', 'amount'],
      filters: [{ key: 'svc_id', value: svcId }],
    });
    assert.deepEqual([generated.response_code, generated.answer?.transactions_count], ['56000', '1']);
    const downloaded = await client.downloadReport({ merchant_reference: reportReference, file_format: 'CSV' });
    assert.equal(downloaded.outcome, 'success');
    assert.deepEqual(downloaded.file?.content?.columns, ['merchant_reference', 'svc_id', 'amount']);
    assert.deepEqual(downloaded.file?.content?.rows, [{ merchant_reference: reference, svc_id: svcId, amount: '12000' }]);
    assert.match(downloaded.file?.text ?? '', /^"merchant_reference","fort_id","amount"\r\n/, 'the file is kept as the gateway wrote it (its digest verified)');

    const [generate] = await fortIdOnly(from);
    assert.deepEqual(JSON.parse(generate?.request ?? '{}').columns, ['merchant_reference', 'fort_id', 'amount']);
    assert.deepEqual(JSON.parse(generate?.request ?? '{}').filters, [{ key: 'fort_id', value: svcId }]);
  });
});

describe('a client and a gateway that disagree on the name', () => {
  it('is refused as sending a field the gateway does not know (00002), never read wrong', async () => {
    const reference = nextReference('mismatch');
    const svcId = await authorize(client, reference, 10_000);
    const spec = clientFor(sandbox.origin, { gatewayReferenceField: 'svc_id' });
    const status = await spec.checkStatus({ merchant_reference: reference, svc_id: svcId });
    assert.deepEqual([status.outcome, status.response_code], ['refused', '00002']);
    assert.match(status.response_message, /svc_id/);
  });

  it('refuses a name other than svc_id or fort_id at configuration', () => {
    assert.throws(
      () => clientFor(sandbox.origin, { gatewayReferenceField: 'fortId' as 'fort_id' }),
      (error: unknown) => error instanceof ConfigError && /gatewayReferenceField must be svc_id/.test(error.message),
    );
  });
});
