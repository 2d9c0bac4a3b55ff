/**
 * Reporting over loopback HTTP: GENERATE_REPORT lists the gateway's real orders (one row per
 * operation in the date window, filtered), answers in JSON or XML, and DOWNLOAD_REPORT streams the
 * report as CSV, JSON or XML with headers that prove it came from the gateway.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '../../src/core/field-errors.ts';
import {
  MAX_REPORT_TRANSACTIONS,
  readReportFile,
  REPORT_FILE_HEADERS,
  verifyReportFile,
  type ReportDownloadFields,
} from '../../src/core/report-file.ts';
import { downloadReportResponse, generateReportResponse, REPORT_SPEC_COLUMNS, type ReportFileFormat } from '../../src/core/schemas/index.ts';
import { parseXml } from '../../src/core/xml.ts';
import type { SandboxOrder } from '../../src/sandbox/orders.ts';
import { selectReportRows } from '../../src/sandbox/reports.ts';
import { call, chargeCard, M, signedBy, startLoopback, verifies, type Answer, type Loopback } from './batch-report-support.ts';

const HOUR = 3_600_000;
const WINDOW = { from_date: '2026-03-11T00:00:00+02:00', to_date: '2026-03-11T23:59:59+02:00' };
const COLUMNS = ['merchant_reference', 'operation', 'amount', 'currency', 'payment_option', 'eci', 'transaction_date', 'response_code'];

function generate(lb: Loopback, merchantReference: string, overrides: Record<string, unknown> = {}): Promise<Answer> {
  return call(lb.origin, lb.gateway.paths.reportingApi, {
    query_command: 'GENERATE_REPORT',
    merchant_reference: merchantReference,
    ...WINDOW,
    response_format: 'JSON',
    language: 'en',
    columns: COLUMNS,
    filters: [
      { key: 'currency', value: 'EGP' },
      { key: 'payment_option', value: 'VISA' },
    ],
    ...overrides,
  });
}

const downloadFields = (merchantReference: string, format: ReportFileFormat): ReportDownloadFields => ({
  query_command: 'DOWNLOAD_REPORT',
  access_code: M.accessCode,
  merchant_identifier: M.merchantIdentifier,
  merchant_reference: merchantReference,
  file_format: format,
  language: 'en',
});

async function download(lb: Loopback, merchantReference: string, format: ReportFileFormat): Promise<{ response: Response; body: string }> {
  const response = await fetch(`${lb.origin}${lb.gateway.paths.reportingApi}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await signedBy(M, downloadFields(merchantReference, format))),
  });
  assert.equal(response.status, 200);
  return { response, body: await response.text() };
}

describe('reports of the real orders', () => {
  let lb: Loopback;

  before(async () => {
    lb = await startLoopback();
    await chargeCard(lb, 'PURCHASE', 'early-1', 5_000);
    lb.clock.advance(24 * HOUR); // 2026-03-11T09:00:00Z, 11:00 in +02:00
    const auth = await chargeCard(lb, 'AUTHORIZATION', 'r-auth', 250_000);
    lb.clock.advance(HOUR);
    const maintenance = { merchant_reference: 'r-auth', svc_id: auth['svc_id'], currency: 'EGP', language: 'en' };
    assert.equal((await call(lb.origin, lb.gateway.paths.paymentApi, { command: 'CAPTURE', amount: '100000', ...maintenance }))['response_code'], '20064');
    lb.clock.advance(HOUR);
    assert.equal((await call(lb.origin, lb.gateway.paths.paymentApi, { command: 'REFUND', amount: '40000', ...maintenance }))['response_code'], '20064');
    await chargeCard(lb, 'PURCHASE', 'r-mc', 70_000, 'EGP', 'success', 'MASTERCARD');
    await chargeCard(lb, 'PURCHASE', 'r-usd', 3_000, 'USD');
    await chargeCard(lb, 'PURCHASE', 'r-declined', 8_000, 'EGP', 'decline');
    lb.clock.advance(24 * HOUR);
    await chargeCard(lb, 'PURCHASE', 'late-1', 6_000);
  });

  after(() => lb.close());

  it('GENERATE_REPORT answers 56000 / status 56, echoing the request (columns and filters as lists), signed', async () => {
    const answer = await generate(lb, 'rep-json');
    assert.equal(answer['response_code'], '56000');
    assert.equal(answer['status'], '56');
    assert.equal(answer['response_message'], 'Success');
    assert.deepEqual(answer['columns'], COLUMNS);
    assert.deepEqual(answer['filters'], [
      { key: 'currency', value: 'EGP' },
      { key: 'payment_option', value: 'VISA' },
    ]);
    assert.equal(answer['transactions_count'], '4');
    assert.ok(validate(generateReportResponse, answer, 'en').ok);
  });

  it('answers as XML when asked: root response, lists as item nodes, parsed back and verified', async () => {
    const signed = await signedBy(M, {
      query_command: 'GENERATE_REPORT',
      merchant_reference: 'rep-xml',
      ...WINDOW,
      response_format: 'XML',
      language: 'ar',
      columns: COLUMNS,
      filters: [{ key: 'currency', value: 'EGP' }],
    });
    const response = await fetch(`${lb.origin}${lb.gateway.paths.reportingApi}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signed) });
    const xml = await response.text();
    assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
    assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?><response>/);
    assert.match(xml, /<filters><item><key>currency<\/key><value>EGP<\/value><\/item><\/filters>/);
    const parsed = parseXml(xml);
    assert.ok(await verifies(parsed), 'the XML answer verifies with the response phrase');
    assert.equal(parsed['response_code'], '56000');
    assert.equal(parsed['response_message'], 'تمت العملية بنجاح');
    assert.deepEqual(parsed['columns'], COLUMNS);
  });

  it('downloads as CSV: the gateway’s file, one row per operation in the window matching the filters, oldest first', async () => {
    const { response, body } = await download(lb, 'rep-json', 'CSV');
    assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="report-rep-json.csv"');
    assert.ok(await verifyReportFile(body, response.headers, downloadFields('rep-json', 'CSV'), M.responsePhrase, M.shaType));
    assert.equal(response.headers.get(REPORT_FILE_HEADERS.transactionsCount), '4');
    const file = readReportFile('CSV', body);
    assert.deepEqual(file.columns, COLUMNS);
    assert.deepEqual(file.rows, [
      { merchant_reference: 'r-auth', operation: 'AUTHORIZATION', amount: '250000', currency: 'EGP', payment_option: 'VISA', eci: 'ECOMMERCE', transaction_date: '2026-03-11T11:00:00+02:00', response_code: '02000' },
      { merchant_reference: 'r-auth', operation: 'CAPTURE', amount: '100000', currency: 'EGP', payment_option: 'VISA', eci: 'ECOMMERCE', transaction_date: '2026-03-11T12:00:00+02:00', response_code: '20064' },
      { merchant_reference: 'r-auth', operation: 'REFUND', amount: '40000', currency: 'EGP', payment_option: 'VISA', eci: 'ECOMMERCE', transaction_date: '2026-03-11T13:00:00+02:00', response_code: '20064' },
      { merchant_reference: 'r-declined', operation: 'PURCHASE', amount: '8000', currency: 'EGP', payment_option: 'VISA', eci: 'ECOMMERCE', transaction_date: '2026-03-11T13:00:00+02:00', response_code: '13001' },
    ]);
  });

  it('streams the file (no content-length: chunked as it is written)', async () => {
    const { response } = await download(lb, 'rep-json', 'JSON');
    assert.equal(response.headers.get('content-length'), null);
    assert.equal(response.headers.get('transfer-encoding'), 'chunked');
  });

  for (const format of ['JSON', 'XML'] as const) {
    it(`downloads as ${format}: the same table, verified the same way`, async () => {
      const csv = readReportFile('CSV', (await download(lb, 'rep-json', 'CSV')).body);
      const { response, body } = await download(lb, 'rep-json', format);
      assert.ok(await verifyReportFile(body, response.headers, downloadFields('rep-json', format), M.responsePhrase, M.shaType));
      assert.deepEqual(readReportFile(format, body), csv);
    });
  }

  it('a download altered on the way, or claimed for another report, does not verify', async () => {
    const { response, body } = await download(lb, 'rep-json', 'CSV');
    assert.equal(await verifyReportFile(body.replace('250000', '25000'), response.headers, downloadFields('rep-json', 'CSV'), M.responsePhrase, M.shaType), false);
    assert.equal(await verifyReportFile(body, response.headers, downloadFields('rep-xml', 'CSV'), M.responsePhrase, M.shaType), false);
  });

  it('without columns or filters: the spec’s columns in its order, every operation of the window', async () => {
    await generate(lb, 'rep-all', { columns: undefined, filters: undefined });
    const { body } = await download(lb, 'rep-all', 'JSON');
    const file = readReportFile('JSON', body);
    assert.deepEqual(file.columns, REPORT_SPEC_COLUMNS);
    assert.deepEqual(
      file.rows.map((row) => [row['merchant_reference'], row['operation'], row['payment_option'], row['currency']]),
      [
        ['r-auth', 'AUTHORIZATION', 'VISA', 'EGP'],
        ['r-auth', 'CAPTURE', 'VISA', 'EGP'],
        ['r-auth', 'REFUND', 'VISA', 'EGP'],
        ['r-mc', 'PURCHASE', 'MASTERCARD', 'EGP'],
        ['r-usd', 'PURCHASE', 'VISA', 'USD'],
        ['r-declined', 'PURCHASE', 'VISA', 'EGP'],
      ],
    );
    assert.equal(file.rows[0]?.['svc_id'], lb.gateway.order({ merchantReference: 'r-auth' })?.svcId);
    assert.equal(file.rows[0]?.['card_holder_name'], 'Test Buyer');
    assert.equal(file.rows[0]?.['customer_email'], 'buyer@shop.test', 'a charge through paymentApi keeps its customer for reports');
  });

  it('repeats a filter key to accept any of its values', async () => {
    const answer = await generate(lb, 'rep-or', {
      filters: [
        { key: 'payment_option', value: 'VISA' },
        { key: 'payment_option', value: 'MASTERCARD' },
        { key: 'operation', value: 'PURCHASE' },
      ],
    });
    assert.equal(answer['transactions_count'], '3');
  });

  describe('refusals', () => {
    it('answers 57002 to the download of a report never generated, as a signed JSON answer', async () => {
      const answer = await call(lb.origin, lb.gateway.paths.reportingApi, downloadFields('rep-none', 'CSV'));
      assert.equal(answer['response_code'], '57002');
      assert.equal(answer['status'], '57');
      assert.ok(validate(downloadReportResponse, answer, 'en').ok);
    });

    it('refuses a second report under the same merchant_reference (00005)', async () => {
      assert.equal((await generate(lb, 'rep-json'))['response_code'], '00005');
    });

    it('refuses a column the report does not have, and a window that ends before it starts (00002)', async () => {
      const column = await generate(lb, 'rep-bad-1', { columns: ['merchant_reference', 'colour'] });
      assert.equal(column['response_code'], '00002');
      assert.match(String(column['response_message']), /^Invalid parameter format: columns\[1\]: must be one of: order_description/);
      const window = await generate(lb, 'rep-bad-2', { from_date: WINDOW.to_date, to_date: WINDOW.from_date });
      assert.equal(window['response_code'], '00002');
      assert.equal(window['response_message'], 'Invalid parameter format: to_date: is not valid');
    });

    it('refuses a download format other than CSV, JSON or XML (00002)', async () => {
      const answer = await call(lb.origin, lb.gateway.paths.reportingApi, { ...downloadFields('rep-json', 'CSV'), file_format: 'PDF' });
      assert.equal(answer['response_code'], '00002');
    });

    it('refuses a request signed with another phrase (00008)', async () => {
      const signed = await signedBy({ ...M, requestPhrase: 'not-the-phrase' }, { query_command: 'GENERATE_REPORT', merchant_reference: 'rep-sig', ...WINDOW, language: 'en' });
      const response = await fetch(`${lb.origin}${lb.gateway.paths.reportingApi}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signed) });
      assert.equal(((await response.json()) as Answer)['response_code'], '00008');
    });
  });
});

describe('the limit of a report', () => {
  let lb: Loopback;

  before(async () => {
    lb = await startLoopback({ reportMaxTransactions: 3 });
    for (const reference of ['a', 'b', 'c', 'd']) await chargeCard(lb, 'PURCHASE', `lim-${reference}`, 1_000);
  });

  after(() => lb.close());

  const today = { from_date: '2026-03-10T00:00:00+00:00', to_date: '2026-03-10T23:59:59+00:00', language: 'en' };

  it('answers 57001 when more operations match than a report may hold (a gateway option)', async () => {
    const answer = await call(lb.origin, lb.gateway.paths.reportingApi, { query_command: 'GENERATE_REPORT', merchant_reference: 'lim-all', ...today });
    assert.equal(answer['response_code'], '57001');
    assert.equal(answer['status'], '57');
    assert.equal(answer['response_message'], 'Report exceeds the maximum number of transactions: 3');
  });

  it('accepts a report at the limit', async () => {
    const answer = await call(lb.origin, lb.gateway.paths.reportingApi, {
      query_command: 'GENERATE_REPORT',
      merchant_reference: 'lim-three',
      ...today,
      filters: ['lim-a', 'lim-b', 'lim-c'].map((value) => ({ key: 'merchant_reference', value })),
    });
    assert.equal(answer['response_code'], '56000');
    assert.equal(answer['transactions_count'], '3');
  });

  it(`holds ${MAX_REPORT_TRANSACTIONS} operations by default, and refuses one more`, () => {
    const operations = (count: number): SandboxOrder => ({
      merchantIdentifier: M.merchantIdentifier,
      merchantReference: 'many',
      svcId: '1',
      command: 'AUTHORIZATION',
      channel: 'card',
      amount: 1,
      currency: 'EGP',
      state: 'captured',
      authorizedAmount: count,
      capturedAmount: count,
      refundedAmount: 0,
      createdAt: 0,
      operations: Array.from({ length: count }, (_, index) => ({ operation: 'CAPTURE' as const, code: '20064' as const, amount: 1, at: index })),
    });
    const query = { merchantIdentifier: M.merchantIdentifier, from: 0, to: Number.MAX_SAFE_INTEGER, columns: ['operation'] as const, filters: [], language: 'en' as const, offsetMinutes: 0 };
    const full = selectReportRows([operations(MAX_REPORT_TRANSACTIONS)], query);
    assert.ok(full.ok && full.rows.length === MAX_REPORT_TRANSACTIONS);
    assert.deepEqual(selectReportRows([operations(MAX_REPORT_TRANSACTIONS + 1)], query), { ok: false, reason: 'too_many' });
  });
});
