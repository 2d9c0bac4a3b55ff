/**
 * The batch service over loopback HTTP: a mixed file (recurring PURCHASE lines with stored tokens,
 * CAPTURE, REFUND and VOID of orders made earlier, and lines that fail) goes from upload through
 * validation and processing to per-line results, and the orders change as single requests would.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildBatchFile, readBatchResults, type BatchLine } from '../../src/core/batch-file.ts';
import { validate } from '../../src/core/field-errors.ts';
import { batchResultsResponse, batchUploadResponse, processBatchResponse } from '../../src/core/schemas/index.ts';
import { fileDigest } from '../../src/core/signature.ts';
import { parseXml } from '../../src/core/xml.ts';
import { BATCH_PROCESSING_MS, BATCH_VALIDATION_MS } from '../../src/sandbox/batch.ts';
import type { SandboxMerchant } from '../../src/sandbox/merchants.ts';
import {
  call,
  chargeCard,
  M,
  NO_BATCH_MERCHANT,
  signedBy,
  startLoopback,
  tokenize,
  verifies,
  type Answer,
  type Loopback,
} from './batch-report-support.ts';

interface UploadReply {
  readonly status: number;
  readonly answer: Answer;
}

/** UPLOAD_BATCH_FILE as the spec sends it: a multipart form, the signed text fields beside the file part. */
async function upload(
  lb: Loopback,
  fields: Record<string, unknown>,
  file: string | Uint8Array<ArrayBuffer> | undefined,
  merchant: SandboxMerchant = M,
): Promise<UploadReply> {
  const signed = await signedBy(merchant, { service_command: 'UPLOAD_BATCH_FILE', language: 'en', ...fields });
  const form = new FormData();
  for (const [name, value] of Object.entries(signed)) form.set(name, String(value));
  if (file !== undefined) form.set('file', new Blob([file], { type: 'text/csv' }), 'batch.csv');
  // The spec writes the path with a trailing slash.
  const response = await fetch(`${lb.origin}${lb.gateway.paths.batchUpload}/`, { method: 'POST', body: form });
  return { status: response.status, answer: (await response.json()) as Answer };
}

/** An upload the gateway accepted: its signed 50000 answer. */
async function uploaded(lb: Loopback, batchReference: string, file: string | Uint8Array<ArrayBuffer>): Promise<Answer> {
  const { status, answer } = await upload(lb, { batch_reference: batchReference }, file);
  assert.equal(status, 200);
  assert.ok(await verifies(answer), 'the upload answer is signed');
  assert.equal(answer['response_code'], '50000', JSON.stringify(answer));
  return answer;
}

const batchPath = (lb: Loopback) => `${lb.gateway.paths.batchApi}/`;

async function results(lb: Loopback, batch: Answer, overrides: Record<string, unknown> = {}, merchant: SandboxMerchant = M): Promise<Answer> {
  return call(
    lb.origin,
    batchPath(lb),
    { service_command: 'GET_BATCH_RESULTS', batch_reference: batch['batch_reference'], batch_id: batch['batch_id'], language: 'en', ...overrides },
    merchant,
  );
}

async function processBatch(lb: Loopback, batch: Answer, path = batchPath(lb), merchant: SandboxMerchant = M): Promise<Answer> {
  return call(lb.origin, path, { service_command: 'PROCESS_BATCH', batch_reference: batch['batch_reference'], batch_id: batch['batch_id'], language: 'en' }, merchant);
}

async function status(lb: Loopback, merchantReference: string): Promise<Answer> {
  return call(lb.origin, lb.gateway.paths.paymentApi, { query_command: 'CHECK_STATUS', merchant_reference: merchantReference, language: 'en' });
}

describe('a mixed batch, from upload to per-line results', () => {
  let lb: Loopback;
  let batch: Answer;
  const svc: Record<string, string> = {};
  let file = '';

  before(async () => {
    lb = await startLoopback();
    const goodToken = await tokenize(lb, 'tok-good');
    const declinedToken = await tokenize(lb, 'tok-declined', 'decline');
    for (const [reference, command, amount] of [
      ['order-auth', 'AUTHORIZATION', 250_000],
      ['order-paid', 'PURCHASE', 250_000],
      ['order-void', 'AUTHORIZATION', 99_000],
      ['order-paid-2', 'PURCHASE', 10_000],
      ['order-paid-3', 'PURCHASE', 30_000],
    ] as const) {
      const answer = await chargeCard(lb, command, reference, amount);
      assert.match(String(answer['response_code']), /^(02000|14000)$/);
      svc[reference] = String(answer['svc_id']);
    }
    const lines: BatchLine[] = [
      { command: 'PURCHASE', merchant_reference: 'sub-1', token_name: goodToken, amount: '10000', currency: 'EGP', customer_email: 'subscriber@example.com' },
      { command: 'CAPTURE', merchant_reference: 'order-auth', svc_id: svc['order-auth'] ?? '', amount: '100000', currency: 'EGP' },
      { command: 'REFUND', merchant_reference: 'order-paid', svc_id: svc['order-paid'] ?? '', amount: '50000', currency: 'EGP' },
      { command: 'VOID_AUTHORIZATION', merchant_reference: 'order-void' },
      { command: 'REFUND', merchant_reference: 'order-paid-2', svc_id: svc['order-paid-2'] ?? '', amount: '20000', currency: 'EGP' },
      { command: 'PURCHASE', merchant_reference: 'sub-2', token_name: declinedToken, amount: '10000', currency: 'EGP' },
      { command: 'CAPTURE', merchant_reference: 'ghost', svc_id: '999999', amount: '1000', currency: 'EGP' },
      { command: 'PURCHASE', merchant_reference: 'sub-3', token_name: 'TKnoSuchToken', amount: '10000', currency: 'EGP' },
      { command: 'VOID_AUTHORIZATION', merchant_reference: 'order-paid-3' },
    ];
    file = buildBatchFile(lines);
  });

  after(() => lb.close());

  it('UPLOAD_BATCH_FILE answers 50000 / status 50 with a batch_id, echoing the text fields, signed', async () => {
    const digest = await fileDigest(file, M.shaType);
    const { answer } = await upload(lb, { batch_reference: 'batch-2026-03', file_digest: digest }, file);
    assert.ok(await verifies(answer));
    assert.equal(answer['response_code'], '50000');
    assert.equal(answer['status'], '50');
    assert.equal(answer['response_message'], 'Success');
    assert.equal(answer['service_command'], 'UPLOAD_BATCH_FILE');
    assert.equal(answer['batch_reference'], 'batch-2026-03');
    assert.equal(answer['file_digest'], digest);
    assert.match(String(answer['batch_id']), /^\d{1,20}$/);
    assert.ok(!('file' in answer), 'the file part is not echoed');
    assert.ok(validate(batchUploadResponse, answer, 'en').ok);
    batch = answer;
  });

  it('GET_BATCH_RESULTS says the file is still under validation (70001), and PROCESS_BATCH is refused (73001)', async () => {
    const answer = await results(lb, batch);
    assert.equal(answer['response_code'], '70001');
    assert.equal(answer['status'], '70');
    assert.equal(answer['response_message'], 'Batch file still under validation');
    assert.equal(answer['batch_status'], 'UNDER_VALIDATION');
    const refused = await processBatch(lb, batch);
    assert.equal(refused['response_code'], '73001');
    assert.equal(refused['status'], '73');
    lb.clock.advance(BATCH_VALIDATION_MS - 1);
    assert.equal((await results(lb, batch))['response_code'], '70001', 'validation takes its documented time');
  });

  it('after the validation delay, it is validated (70000 / status 70) with its transactions_count', async () => {
    lb.clock.advance(1);
    const answer = await results(lb, batch);
    assert.equal(answer['response_code'], '70000');
    assert.equal(answer['status'], '70');
    assert.equal(answer['batch_status'], 'VALIDATED');
    assert.equal(answer['transactions_count'], '9');
    assert.ok(!('errors' in answer) && !('rows' in answer));
    assert.ok(validate(batchResultsResponse, answer, 'en').ok);
  });

  it('the batch sandbox host path takes PROCESS_BATCH only: GET_BATCH_RESULTS there is refused (00002) naming the path', async () => {
    const sandboxPath = `${lb.gateway.paths.batchSandboxApi}/`;
    const params = { service_command: 'GET_BATCH_RESULTS', batch_reference: batch['batch_reference'], batch_id: batch['batch_id'], language: 'en' };
    const answer = await call(lb.origin, sandboxPath, params);
    assert.deepEqual([answer['response_code'], answer['status']], ['00002', '00']);
    assert.equal(
      answer['response_message'],
      `Invalid parameter format: service_command: ${sandboxPath} takes PROCESS_BATCH only; send GET_BATCH_RESULTS to ${batchPath(lb)}`,
    );
    assert.ok(await verifies(answer), 'signed for the merchant it names');
    assert.ok(!('batch_status' in answer));
    const arabic = await call(lb.origin, sandboxPath, { ...params, language: 'ar' });
    assert.match(String(arabic['response_message']), /PROCESS_BATCH فقط/);
    assert.equal((await results(lb, batch))['batch_status'], 'VALIDATED', 'the batch is where it was');
  });

  it('PROCESS_BATCH on the batch sandbox host path is accepted (72147 / status 72), and only once', async () => {
    const answer = await processBatch(lb, batch, `${lb.gateway.paths.batchSandboxApi}/`);
    assert.equal(answer['response_code'], '72147');
    assert.equal(answer['status'], '72');
    assert.equal(answer['response_message'], 'Batch processing request received');
    assert.equal(answer['batch_status'], 'PROCESSING');
    assert.ok(validate(processBatchResponse, answer, 'en').ok);
    assert.equal((await processBatch(lb, batch))['response_code'], '73003');
  });

  it('while processing, GET_BATCH_RESULTS answers 72147 without rows, and no order has changed yet', async () => {
    lb.clock.advance(BATCH_PROCESSING_MS - 1);
    const answer = await results(lb, batch);
    assert.equal(answer['response_code'], '72147');
    assert.equal(answer['status'], '72');
    assert.equal(answer['batch_status'], 'PROCESSING');
    assert.ok(!('rows' in answer));
    assert.equal((await status(lb, 'order-auth'))['captured_amount'], '0');
  });

  it('once processed, it gives one row per line in the spec’s columns, as quoted CSV text and as a list', async () => {
    lb.clock.advance(1);
    const answer = await results(lb, batch);
    assert.equal(answer['response_code'], '70000');
    assert.equal(answer['batch_status'], 'PROCESSED');
    assert.ok(validate(batchResultsResponse, answer, 'en').ok);
    const csv = String(answer['batch_results']);
    assert.ok(csv.startsWith('"Line_Number","response_code","response_message","status","eci","svc_id","merchant_reference","amount","card_number","expiry_date","currency"\r\n'));
    const rows = readBatchResults(csv);
    assert.deepEqual(rows, answer['rows'], 'the CSV text and the list hold the same rows');
    assert.deepEqual(
      rows.map((row) => [row.Line_Number, row.merchant_reference, row.response_code, row.status]),
      [
        ['2', 'sub-1', '14000', '14'],
        ['3', 'order-auth', '20064', '04'],
        ['4', 'order-paid', '20064', '04'],
        ['5', 'order-void', '08000', '08'],
        ['6', 'order-paid-2', '06001', '06'],
        ['7', 'sub-2', '13001', '13'],
        ['8', 'ghost', '00007', '00'],
        ['9', 'sub-3', '00010', '00'],
        ['10', 'order-paid-3', '09001', '09'],
      ],
    );
    const [purchase, captured] = rows;
    assert.deepEqual(purchase, {
      Line_Number: '2',
      response_code: '14000',
      response_message: 'Success',
      status: '14',
      eci: 'RECURRING',
      svc_id: lb.gateway.order({ merchantReference: 'sub-1' })?.svcId,
      merchant_reference: 'sub-1',
      amount: '10000',
      card_number: '411111******1111',
      expiry_date: '2908',
      currency: 'EGP',
    });
    assert.equal(captured?.svc_id, svc['order-auth']);
    assert.equal(captured?.eci, 'ECOMMERCE', 'a maintenance row shows the order’s eci');
    assert.equal(rows[6]?.card_number, undefined, 'an order never found has no card');
  });

  it('changed the orders exactly as single requests would, dated when processing fell due', async () => {
    const auth = await status(lb, 'order-auth');
    assert.equal(auth['transaction_code'], '20064');
    assert.equal(auth['captured_amount'], '100000');
    const paid = await status(lb, 'order-paid');
    assert.equal(paid['refunded_amount'], '50000');
    assert.equal((await status(lb, 'order-void'))['transaction_code'], '08000');
    assert.equal((await status(lb, 'order-paid-2'))['refunded_amount'], '0', 'a refused line changes nothing');
    assert.equal((await status(lb, 'order-paid-3'))['transaction_code'], '14000');
    const subscription = await status(lb, 'sub-1');
    assert.equal(subscription['transaction_code'], '14000');
    assert.equal(subscription['captured_amount'], '10000');
    assert.equal((await status(lb, 'sub-2'))['transaction_code'], '13001');
    assert.equal((await status(lb, 'sub-3'))['response_code'], '12001');
    const due = Date.parse('2026-03-10T09:00:00Z') + BATCH_VALIDATION_MS + BATCH_PROCESSING_MS;
    lb.clock.advance(60_000);
    assert.equal(lb.gateway.order({ merchantReference: 'order-auth' })?.operations.at(-1)?.at, due);
    assert.equal(lb.gateway.order({ merchantReference: 'sub-1' })?.details?.customer_email, 'subscriber@example.com');
  });

  it('answers the results as XML when asked, signed over the same fields', async () => {
    const signed = await signedBy(M, {
      service_command: 'GET_BATCH_RESULTS',
      batch_reference: batch['batch_reference'],
      batch_id: batch['batch_id'],
      language: 'ar',
      response_format: 'XML',
    });
    const response = await fetch(`${lb.origin}${batchPath(lb)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signed) });
    assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
    const xml = await response.text();
    assert.ok(!xml.includes('\r') && xml.includes('&#13;'), 'CR is a character reference, so an XML parser keeps the CSV text’s CRLF');
    const parsed = parseXml(xml);
    assert.ok(await verifies(parsed), 'the XML answer verifies');
    assert.equal(parsed['response_code'], '70000');
    const rows = parsed['rows'] as readonly Record<string, string>[];
    assert.equal(rows.length, 9);
    assert.equal(rows[0]?.['response_message'], 'تمت العملية بنجاح', 'messages in the language of the results request');
    assert.deepEqual(readBatchResults(String(parsed['batch_results'])), rows);
  });
});

describe('a batch validated with errors', () => {
  let lb: Loopback;
  let batch: Answer;

  before(async () => {
    lb = await startLoopback();
    await chargeCard(lb, 'PURCHASE', 'already-paid', 5000);
    const token = await tokenize(lb, 'tok');
    const file = buildBatchFile([
      { command: 'PURCHASE', merchant_reference: 'sub-ok', token_name: token, amount: '10000', currency: 'EGP' },
      { command: 'PURCHASE', merchant_reference: 'sub-bad', token_name: token, amount: '12.50', currency: 'EGP' },
      { command: 'PURCHASE', merchant_reference: 'already-paid', token_name: token, amount: '10000', currency: 'EGP' },
      { command: 'VOID_AUTHORIZATION', merchant_reference: 'sub-ok' },
      { command: 'REFUND', merchant_reference: 'x'.repeat(41), svc_id: '1', amount: '1', currency: 'EGP' },
    ]);
    batch = await uploaded(lb, 'batch-errors', file);
    lb.clock.advance(BATCH_VALIDATION_MS);
  });

  after(() => lb.close());

  it('lists every error with its line and field (70000, VALIDATED_WITH_ERRORS)', async () => {
    const answer = await results(lb, batch);
    assert.equal(answer['response_code'], '70000');
    assert.equal(answer['batch_status'], 'VALIDATED_WITH_ERRORS');
    assert.equal(answer['transactions_count'], '5');
    assert.ok(validate(batchResultsResponse, answer, 'en').ok);
    assert.deepEqual(answer['errors'], [
      { line_number: '3', field: 'amount', message: 'amount: may contain only digits 0-9' },
      { line_number: '4', field: 'merchant_reference', message: 'merchant_reference: Duplicate merchant reference' },
      { line_number: '5', field: 'merchant_reference', message: 'merchant_reference: is already used by line 2 of this file' },
      { line_number: '6', field: 'merchant_reference', message: 'merchant_reference: must be at most 40 characters' },
    ]);
  });

  it('gives the errors in the language the results are asked in', async () => {
    const answer = await results(lb, batch, { language: 'ar' });
    const errors = answer['errors'] as readonly Record<string, string>[];
    assert.equal(errors[3]?.['message'], 'merchant_reference: يجب ألا يزيد عن ٤٠ حرفًا');
  });

  it('refuses to process it (73002) and changes no order', async () => {
    const answer = await processBatch(lb, batch);
    assert.equal(answer['response_code'], '73002');
    assert.equal(answer['batch_status'], 'VALIDATED_WITH_ERRORS');
    lb.clock.advance(BATCH_PROCESSING_MS);
    assert.equal(lb.gateway.order({ merchantReference: 'sub-ok' }), undefined);
  });

  it('reports a file that is not a batch file as one error on its header', async () => {
    const other = await uploaded(lb, 'batch-columns', 'command,merchant_reference,colour\nVOID_AUTHORIZATION,a,blue\n');
    lb.clock.advance(BATCH_VALIDATION_MS);
    const answer = await results(lb, other);
    assert.equal(answer['batch_status'], 'VALIDATED_WITH_ERRORS');
    assert.deepEqual(answer['errors'], [{ line_number: '1', field: 'colour', message: 'colour: is not a column of a batch file' }]);
  });
});

describe('recurring lines and the status of their token', () => {
  let lb: Loopback;

  before(async () => {
    lb = await startLoopback();
  });

  after(() => lb.close());

  it('refuses a token made INACTIVE (00015) and a token the customer did not agree to keep (00016), as single requests would', async () => {
    const inactive = await tokenize(lb, 'tok-inactive');
    const update = await call(lb.origin, lb.gateway.paths.paymentApi, {
      service_command: 'UPDATE_TOKEN',
      merchant_reference: 'tok-update',
      token_name: inactive,
      token_status: 'INACTIVE',
      language: 'en',
    });
    assert.equal(update['response_code'], '58000', JSON.stringify(update));
    const temporary = await tokenize(lb, 'tok-temporary', 'success', false);
    const kept = await tokenize(lb, 'tok-kept');
    const batch = await uploaded(
      lb,
      'batch-token-status',
      buildBatchFile([
        { command: 'PURCHASE', merchant_reference: 'sub-inactive', token_name: inactive, amount: '10000', currency: 'EGP' },
        { command: 'PURCHASE', merchant_reference: 'sub-temporary', token_name: temporary, amount: '10000', currency: 'EGP' },
        { command: 'PURCHASE', merchant_reference: 'sub-kept', token_name: kept, amount: '10000', currency: 'EGP' },
      ]),
    );
    lb.clock.advance(BATCH_VALIDATION_MS);
    assert.equal((await processBatch(lb, batch))['response_code'], '72147');
    lb.clock.advance(BATCH_PROCESSING_MS + 1);
    const rows = readBatchResults(String((await results(lb, batch))['batch_results']));
    assert.deepEqual(
      rows.map((row) => [row.merchant_reference, row.response_code]),
      [
        ['sub-inactive', '00015'],
        ['sub-temporary', '00016'],
        ['sub-kept', '14000'],
      ],
    );
    assert.equal(lb.gateway.order({ merchantReference: 'sub-inactive' }), undefined, 'a refused line charges nothing');
  });
});

describe('refusals of the batch service', () => {
  let lb: Loopback;
  const file = 'command,merchant_reference\r\nVOID_AUTHORIZATION,order-1\r\n';

  before(async () => {
    lb = await startLoopback();
  });

  after(() => lb.close());

  it('refuses an upload whose signature does not cover its text fields (00008)', async () => {
    const signed = await signedBy(M, { service_command: 'UPLOAD_BATCH_FILE', language: 'en', batch_reference: 'b-sig' });
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...signed, batch_reference: 'b-other' })) form.set(name, String(value));
    form.set('file', new Blob([file]), 'batch.csv');
    const answer = (await (await fetch(`${lb.origin}${lb.gateway.paths.batchUpload}/`, { method: 'POST', body: form })).json()) as Answer;
    assert.equal(answer['response_code'], '00008');
  });

  it('refuses a file that does not match the signed file_digest (51003)', async () => {
    const { answer } = await upload(lb, { batch_reference: 'b-digest', file_digest: await fileDigest('something else', M.shaType) }, file);
    assert.equal(answer['response_code'], '51003');
    assert.equal(answer['status'], '51');
    assert.ok(await verifies(answer));
  });

  it('refuses a second upload with the same batch_reference (51002)', async () => {
    await uploaded(lb, 'b-twice', file);
    assert.equal((await upload(lb, { batch_reference: 'b-twice' }, file)).answer['response_code'], '51002');
  });

  it('refuses an upload without a file part (00001) or with file as a text field (00002)', async () => {
    const missing = await upload(lb, { batch_reference: 'b-nofile' }, undefined);
    assert.equal(missing.answer['response_code'], '00001');
    assert.equal(missing.answer['response_message'], 'Missing parameter: file: is required');
    const signed = await signedBy(M, { service_command: 'UPLOAD_BATCH_FILE', language: 'en', batch_reference: 'b-text' });
    const form = new FormData();
    for (const [name, value] of Object.entries(signed)) form.set(name, String(value));
    form.set('file', file);
    const answer = (await (await fetch(`${lb.origin}${lb.gateway.paths.batchUpload}`, { method: 'POST', body: form })).json()) as Answer;
    assert.equal(answer['response_code'], '00002');
  });

  it('refuses a file over 5 MiB (51001), and a body far beyond it with HTTP 413', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1).fill(0x61);
    const { answer } = await upload(lb, { batch_reference: 'b-big' }, big);
    assert.equal(answer['response_code'], '51001');
    const huge = await fetch(`${lb.origin}${lb.gateway.paths.batchUpload}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: new Uint8Array(6 * 1024 * 1024),
    });
    assert.equal(huge.status, 413);
  });

  it('refuses an upload that is not a multipart form with HTTP 415, unsigned', async () => {
    const response = await fetch(`${lb.origin}${lb.gateway.paths.batchUpload}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await signedBy(M, { service_command: 'UPLOAD_BATCH_FILE', language: 'en', batch_reference: 'b-json' })),
    });
    assert.equal(response.status, 415);
    const answer = (await response.json()) as Answer;
    assert.equal(answer['response_code'], '00002');
    assert.ok(!('signature' in answer));
  });

  it('answers 71001 / 73004 for a batch_id the merchant does not have, or another batch_reference', async () => {
    const batch = await uploaded(lb, 'b-known', file);
    assert.equal((await results(lb, { ...batch, batch_id: '123' }))['response_code'], '71001');
    assert.equal((await results(lb, { ...batch, batch_reference: 'b-other' }))['response_code'], '71001');
    assert.equal((await processBatch(lb, { ...batch, batch_id: '123' }))['response_code'], '73004');
  });

  it('answers a merchant without the batch service 00014 on every batch request', async () => {
    const { answer } = await upload(lb, { batch_reference: 'b-off' }, file, NO_BATCH_MERCHANT);
    assert.equal(answer['response_code'], '00014');
    assert.equal(answer['response_message'], 'Service not activated for this merchant');
    assert.ok(await verifies(answer, NO_BATCH_MERCHANT));
    const batch = { batch_reference: 'b-off', batch_id: '1' };
    assert.equal((await results(lb, batch, {}, NO_BATCH_MERCHANT))['response_code'], '00014');
    assert.equal((await processBatch(lb, batch, undefined, NO_BATCH_MERCHANT))['response_code'], '00014');
  });

  it('refuses an unknown service_command on batchApi (00002)', async () => {
    const answer = await call(lb.origin, batchPath(lb), { service_command: 'CANCEL_BATCH', batch_reference: 'b', batch_id: '1', language: 'en' });
    assert.equal(answer['response_code'], '00002');
    assert.match(String(answer['response_message']), /service_command: must be one of: GET_BATCH_RESULTS, PROCESS_BATCH/);
  });

  it('takes PROCESS_BATCH on {api_root}/batchApi/ too, as the live host does (the local sandbox stands for both)', async () => {
    const batch = await uploaded(lb, 'b-live-path', buildBatchFile([{ command: 'VOID_AUTHORIZATION', merchant_reference: 'live-path-1' }]));
    lb.clock.advance(BATCH_VALIDATION_MS);
    const answer = await processBatch(lb, { ...batch, batch_reference: 'b-live-path' }, batchPath(lb));
    assert.deepEqual([answer['response_code'], answer['batch_status']], ['72147', 'PROCESSING']);
  });

  it('serves the batch sandbox host path beside the rest, as `pg-checkout serve --sandbox` mounts it', () => {
    assert.ok(lb.gateway.handles(`${lb.origin}/integration-batch/batchApi/`));
    assert.ok(lb.gateway.handles(`${lb.origin}/FortAPI/upload/`));
    assert.ok(!lb.gateway.handles(`${lb.origin}/integration-batch/other`));
  });
});
