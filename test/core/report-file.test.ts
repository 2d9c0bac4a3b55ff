import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  readReportFile,
  REPORT_FILE_FORMATS,
  REPORT_FILE_HEADERS,
  reportFileChunks,
  reportFileEnvelope,
  reportFileText,
  verifyReportFile,
  type ReportDownloadFields,
  type ReportFile,
} from '../../src/core/report-file.ts';
import { REPORT_COLUMNS, type ReportColumn } from '../../src/core/schemas/index.ts';
import { fileDigest, signParams } from '../../src/core/signature.ts';

const report: ReportFile = {
  merchant_reference: 'REP-1',
  from_date: '2026-03-01T00:00:00+02:00',
  to_date: '2026-03-31T23:59:59+02:00',
  columns: ['merchant_reference', 'amount', 'operation', 'order_description'],
  rows: [
    ['order-1', '250000', 'PURCHASE', 'Headphones, "wireless"'],
    ['order-1', '1000', 'REFUND', ''],
  ],
};

const asObjects = (file: ReportFile) =>
  file.rows.map((row) => Object.fromEntries(file.columns.map((column, index) => [column, row[index] ?? ''])));

describe('a report file', () => {
  it('as CSV: a header row of the columns, then a row per operation, every value quoted', () => {
    assert.equal(
      reportFileText('CSV', report),
      '"merchant_reference","amount","operation","order_description"\r\n' +
        '"order-1","250000","PURCHASE","Headphones, ""wireless"""\r\n' +
        '"order-1","1000","REFUND",""\r\n',
    );
  });

  it('names the gateway’s order reference column as the wire does', () => {
    const withReference: ReportFile = { ...report, columns: ['merchant_reference', 'svc_id'], rows: [['order-1', '17']] };
    assert.match(reportFileText('CSV', withReference), /^"merchant_reference","svc_id"\r\n/);
    assert.match(reportFileText('CSV', withReference, 'fort_id'), /^"merchant_reference","fort_id"\r\n/);
    assert.deepEqual(JSON.parse(reportFileText('JSON', withReference, 'fort_id')).rows, [{ merchant_reference: 'order-1', fort_id: '17' }]);
    assert.match(reportFileText('XML', withReference, 'fort_id'), /<item><merchant_reference>order-1<\/merchant_reference><fort_id>17<\/fort_id><\/item>/);
  });

  it('as JSON: the window, the count, the columns and the rows as objects', () => {
    assert.deepEqual(JSON.parse(reportFileText('JSON', report)), {
      merchant_reference: 'REP-1',
      from_date: report.from_date,
      to_date: report.to_date,
      transactions_count: '2',
      columns: report.columns,
      rows: asObjects(report),
    });
  });

  it('as XML: the same fields under the root response, rows as item nodes', () => {
    const xml = reportFileText('XML', report);
    assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?><response><merchant_reference>REP-1<\/merchant_reference>/);
    assert.match(xml, /<rows><item><merchant_reference>order-1<\/merchant_reference><amount>250000<\/amount>/);
  });

  for (const format of REPORT_FILE_FORMATS) {
    it(`as ${format}: comes in pieces that make the whole file, and reads back`, () => {
      const rows = Array.from({ length: 25 }, (_, index) => [`order-${index}`, String(index), 'CAPTURE', '']);
      const file = { ...report, rows };
      assert.equal([...reportFileChunks(format, file, 10)].join(''), reportFileText(format, file));
      assert.ok([...reportFileChunks(format, file, 10)].length > 3, 'streamed in several pieces');
      assert.deepEqual(readReportFile(format, reportFileText(format, file)), { columns: file.columns, rows: asObjects(file) });
    });

    it(`as ${format}: reads back any rows, an empty report included`, () => {
      const columns = fc.uniqueArray(fc.constantFrom(...REPORT_COLUMNS), { minLength: 1, maxLength: 5 });
      const file = columns.chain((names) =>
        fc.record({
          columns: fc.constant(names as ReportColumn[]),
          rows: fc.array(fc.array(fc.string({ unit: 'grapheme', maxLength: 10 }), { minLength: names.length, maxLength: names.length }), { maxLength: 5 }),
        }),
      );
      fc.assert(
        fc.property(file, ({ columns: names, rows }) => {
          const generated = { ...report, columns: names, rows };
          assert.deepEqual(readReportFile(format, reportFileText(format, generated)), { columns: names, rows: asObjects(generated) });
        }),
      );
    });
  }
});

describe('verifying a downloaded report', () => {
  const request: ReportDownloadFields = {
    query_command: 'DOWNLOAD_REPORT',
    access_code: 'zx0IPmPy5jp1vAz8Kpg7',
    merchant_identifier: 'CycHZxVj',
    merchant_reference: 'REP-1',
    file_format: 'CSV',
    language: 'en',
  };
  const phrase = 'response-phrase';
  const body = reportFileText('CSV', report);

  async function headersFor(text: string): Promise<Headers> {
    const digest = await fileDigest(text, 'sha256');
    const signed = await signParams(reportFileEnvelope(request, digest, 2), phrase, 'sha256');
    return new Headers({
      [REPORT_FILE_HEADERS.digest]: digest,
      [REPORT_FILE_HEADERS.transactionsCount]: '2',
      [REPORT_FILE_HEADERS.signature]: String(signed['signature']),
    });
  }

  it('accepts the file the gateway signed', async () => {
    assert.equal(await verifyReportFile(body, await headersFor(body), request, phrase, 'sha256'), true);
  });

  it('refuses a changed body, a changed count, another phrase or another request', async () => {
    const headers = await headersFor(body);
    assert.equal(await verifyReportFile(body.replace('250000', '250001'), headers, request, phrase, 'sha256'), false);
    const counted = new Headers(headers);
    counted.set(REPORT_FILE_HEADERS.transactionsCount, '3');
    assert.equal(await verifyReportFile(body, counted, request, phrase, 'sha256'), false);
    assert.equal(await verifyReportFile(body, headers, request, 'other-phrase', 'sha256'), false);
    assert.equal(await verifyReportFile(body, headers, { ...request, merchant_reference: 'REP-2' }, phrase, 'sha256'), false);
  });

  it('refuses a file without the headers', async () => {
    assert.equal(await verifyReportFile(body, new Headers(), request, phrase, 'sha256'), false);
  });
});
