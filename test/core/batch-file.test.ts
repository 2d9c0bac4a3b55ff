import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  BATCH_COMMANDS,
  batchColumns,
  buildBatchFile,
  MAX_BATCH_FILE_BYTES,
  MAX_BATCH_LINES,
  parseBatchFile,
  readBatchResults,
  validateBatchFile,
  validateBatchLine,
  writeBatchResults,
  BatchResultsError,
  type BatchLine,
  type BatchLineContext,
} from '../../src/core/batch-file.ts';
import { BATCH_RESULT_COLUMNS, type BatchResultEntry } from '../../src/core/schemas/index.ts';

const context: BatchLineContext = { access_code: 'zx0IPmPy5jp1vAz8Kpg7', merchant_identifier: 'CycHZxVj', language: 'en' };

const purchase: BatchLine = {
  command: 'PURCHASE',
  merchant_reference: 'sub-2026-03-1',
  amount: '10000',
  currency: 'EGP',
  token_name: 'TKsubscriber1',
  customer_email: 'buyer@example.com',
};
const capture: BatchLine = { command: 'CAPTURE', merchant_reference: 'order-1', svc_id: '1773133200000000001', amount: '2500', currency: 'EGP' };
const refund: BatchLine = { command: 'REFUND', merchant_reference: 'order-2', svc_id: '1773133200000000002', amount: '100', currency: 'EGP' };
const voidLine: BatchLine = { command: 'VOID_AUTHORIZATION', merchant_reference: 'order-3' };

describe('building a batch file', () => {
  it('writes a header row naming the columns the lines use, the leading ones first', () => {
    const text = buildBatchFile([purchase, capture]);
    const [header] = text.split('\r\n');
    assert.equal(header, 'command,merchant_reference,svc_id,token_name,amount,currency,customer_email');
  });

  it('leaves a field a line does not have empty, and quotes only what needs it', () => {
    const text = buildBatchFile([{ ...voidLine, order_description: 'Cancel "late", sorry' }]);
    assert.equal(text, 'command,merchant_reference,order_description\r\nVOID_AUTHORIZATION,order-3,"Cancel ""late"", sorry"\r\n');
  });
});

describe('reading a batch file', () => {
  it('reads the lines built from typed lines back, numbered from 2 (the header is line 1)', () => {
    const reading = parseBatchFile(buildBatchFile([purchase, capture, refund, voidLine]), 'en');
    assert.deepEqual(reading.errors, []);
    assert.equal(reading.transactionsCount, 4);
    assert.deepEqual(
      reading.lines.map((line) => line.line),
      [2, 3, 4, 5],
    );
    assert.deepEqual(reading.lines[1]?.fields, capture);
  });

  it('takes the columns in the order the header names them', () => {
    const reading = parseBatchFile('currency,amount,merchant_reference,command,svc_id\nEGP,2500,order-1,CAPTURE,17\n', 'en');
    assert.deepEqual(reading.lines[0]?.fields, { currency: 'EGP', amount: '2500', merchant_reference: 'order-1', command: 'CAPTURE', svc_id: '17' });
  });

  it('tolerates a UTF-8 byte order mark and CRLF or LF line ends', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('command,merchant_reference\r\nVOID_AUTHORIZATION,a\nVOID_AUTHORIZATION,b\r\n')]);
    const reading = parseBatchFile(bytes, 'en');
    assert.deepEqual(reading.errors, []);
    assert.deepEqual(
      reading.lines.map((line) => line.fields['merchant_reference']),
      ['a', 'b'],
    );
  });

  it('reads a line whose quoted value spans lines, numbered by the line it starts on', () => {
    const reading = parseBatchFile('command,merchant_reference,order_description\n\nVOID_AUTHORIZATION,a,"two\nlines"\nVOID_AUTHORIZATION,b,x\n', 'en');
    assert.deepEqual(
      reading.lines.map((line) => [line.line, line.fields['order_description']]),
      [
        [3, 'two\nlines'],
        [5, 'x'],
      ],
    );
  });

  it('reads back any file it builds', () => {
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 15 });
    const line = fc.record(
      {
        command: fc.constantFrom(...BATCH_COMMANDS),
        merchant_reference: text,
        svc_id: text,
        amount: fc.stringMatching(/^\d{1,10}$/),
        order_description: text,
        merchant_extra3: text,
      },
      { requiredKeys: ['command'], noNullPrototype: true },
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const reading = parseBatchFile(buildBatchFile(lines as BatchLine[]), 'en');
        assert.deepEqual(reading.errors, []);
        assert.deepEqual(
          reading.lines.map((read) => read.fields),
          lines,
        );
      }),
    );
  });

  describe('when the file itself is wrong', () => {
    const only = (text: string | Uint8Array) => parseBatchFile(text, 'en').errors.map(({ line, field, message }) => ({ line, field, message }));

    it('refuses a file that is not UTF-8 text', () => {
      assert.deepEqual(only(new Uint8Array([0x63, 0xff, 0xfe])), [{ line: 0, field: '', message: 'the file is not UTF-8 text' }]);
    });

    it('refuses an empty file and a file with a header only', () => {
      assert.equal(only('')[0]?.message, 'the file is empty; it needs a header row and at least one line');
      assert.deepEqual(only('command,merchant_reference\r\n'), [{ line: 1, field: '', message: 'the file has a header row but no line' }]);
    });

    it('names each unknown, repeated or missing column on line 1', () => {
      assert.deepEqual(only('merchant_reference,access_code,amount,amount\nx,y,1,2'), [
        { line: 1, field: 'access_code', message: 'access_code: is not a column of a batch file' },
        { line: 1, field: 'amount', message: 'amount: appears twice in the header row' },
        { line: 1, field: 'command', message: 'command: is a column every batch file needs' },
      ]);
    });

    it('names the line of broken quoting', () => {
      assert.deepEqual(only('command,merchant_reference\nVOID_AUTHORIZATION,a"b'), [
        { line: 2, field: '', message: 'a double quote inside a value that is not quoted; quote the value and double the quote' },
      ]);
    });

    it('names a line with more or fewer values than columns, and reads the others', () => {
      const reading = parseBatchFile('command,merchant_reference\nVOID_AUTHORIZATION,a,extra\nVOID_AUTHORIZATION,b', 'en');
      assert.deepEqual(
        reading.errors.map((error) => [error.line, error.message]),
        [[2, 'the line has 3 values; the header row names 2 columns']],
      );
      assert.equal(reading.lines.length, 1);
    });

    it(`refuses more than ${MAX_BATCH_LINES} lines, naming the first line too many`, () => {
      const text = `command,merchant_reference\n${'VOID_AUTHORIZATION,a\n'.repeat(MAX_BATCH_LINES + 1)}`;
      assert.deepEqual(only(text), [{ line: MAX_BATCH_LINES + 2, field: '', message: `the file has more than ${MAX_BATCH_LINES} lines after the header row` }]);
      assert.deepEqual(only(`command,merchant_reference\n${'VOID_AUTHORIZATION,a\n'.repeat(MAX_BATCH_LINES)}`), []);
    });

    it(`refuses a file over ${MAX_BATCH_FILE_BYTES} bytes`, () => {
      assert.deepEqual(only(new Uint8Array(MAX_BATCH_FILE_BYTES + 1)), [
        { line: 0, field: '', message: `the file is larger than ${MAX_BATCH_FILE_BYTES} bytes` },
      ]);
    });

    it('says it in Arabic when the upload is in Arabic, counts in Arabic-Indic digits', () => {
      const [error] = parseBatchFile('command,merchant_reference\nVOID_AUTHORIZATION,a,extra', 'ar').errors;
      assert.equal(error?.message, 'عدد القيم في السطر ٣ وعدد الأعمدة في سطر العناوين ٢');
    });
  });
});

describe('validating the lines', () => {
  it('types each line as the request it stands for; a PURCHASE is RECURRING unless it says otherwise', () => {
    const validation = validateBatchFile(buildBatchFile([purchase, capture, refund, voidLine]), context);
    assert.deepEqual(validation.errors, []);
    assert.deepEqual(
      validation.lines.map((line) => line.request),
      [{ ...purchase, eci: 'RECURRING' }, capture, refund, voidLine],
    );
  });

  it('knows the columns of the four requests, and none the upload carries', () => {
    for (const name of ['command', 'merchant_reference', 'svc_id', 'token_name', 'eci', 'amount', 'currency', 'customer_email', 'order_description']) {
      assert.ok(batchColumns().has(name), name);
    }
    for (const name of ['access_code', 'merchant_identifier', 'language', 'signature']) assert.ok(!batchColumns().has(name), name);
  });

  it('applies the single request’s field rules, naming the line and the field', () => {
    const file = buildBatchFile([
      { ...purchase, amount: '12.50' },
      { ...capture, currency: 'egp' },
      { ...refund, merchant_reference: 'x'.repeat(41) },
      { command: 'PURCHASE', merchant_reference: 'sub-2', amount: '100', currency: 'EGP' } as BatchLine,
    ]);
    const errors = validateBatchFile(file, context).errors;
    assert.deepEqual(
      errors.map(({ line, field }) => [line, field]),
      [
        [2, 'amount'],
        [3, 'currency'],
        [4, 'merchant_reference'],
        [5, 'token_name'],
      ],
    );
    assert.equal(errors[0]?.message, 'amount: may contain only digits 0-9');
    assert.equal(errors[2]?.message, 'merchant_reference: must be at most 40 characters');
    assert.equal(errors[3]?.message, 'token_name: is required');
  });

  it('refuses a command that is not a batch command, and an eci other than RECURRING', () => {
    const errors = validateBatchFile(
      buildBatchFile([{ ...purchase, command: 'AUTHORIZATION' } as unknown as BatchLine, { ...purchase, merchant_reference: 'b', eci: 'MOTO' } as unknown as BatchLine]),
      context,
    ).errors;
    assert.deepEqual(
      errors.map((error) => error.message),
      ['command: must be one of: PURCHASE, CAPTURE, REFUND, VOID_AUTHORIZATION', 'eci: must be RECURRING'],
    );
  });

  it('refuses a field that the line’s request does not have', () => {
    const result = validateBatchLine({ command: 'VOID_AUTHORIZATION', merchant_reference: 'a', amount: '100' }, context);
    assert.deepEqual(result.ok ? [] : result.errors.map((error) => error.message), ['amount: is not a field of this request']);
  });

  it('refuses a merchant_reference used by an earlier line of the file', () => {
    const validation = validateBatchFile(buildBatchFile([capture, { ...refund, merchant_reference: capture.merchant_reference as string }]), context);
    assert.deepEqual(validation.errors, [{ line: 3, field: 'merchant_reference', message: 'merchant_reference: is already used by line 2 of this file' }]);
    assert.equal(validation.lines.length, 1);
  });

  describe('for a gateway that names its order reference fort_id', () => {
    const live: BatchLineContext = { ...context, gatewayReferenceField: 'fort_id' };

    it('reads the fort_id column as the line’s svc_id', () => {
      const file = 'command,merchant_reference,fort_id,amount,currency\r\nCAPTURE,order-1,1773133200000000001,2500,EGP\r\n';
      const validation = validateBatchFile(file, live);
      assert.deepEqual(validation.errors, []);
      assert.deepEqual(validation.lines.map((line) => line.request), [capture]);
    });

    it('refuses an svc_id column there as unknown, and names fort_id in a line’s error', () => {
      const unknown = validateBatchFile(buildBatchFile([capture]), live).errors;
      assert.deepEqual(unknown, [{ line: 1, field: 'svc_id', message: 'svc_id: is not a column of a batch file' }]);
      const wrong = validateBatchFile('command,merchant_reference,fort_id,amount,currency\nCAPTURE,order-1,12ab,2500,EGP\n', live).errors;
      assert.deepEqual(wrong.map(({ line, field, message }) => [line, field, message]), [[2, 'fort_id', 'fort_id: may contain only digits 0-9']]);
    });
  });

  it('gives the field errors in Arabic for an Arabic upload', () => {
    const [error] = validateBatchFile(buildBatchFile([{ ...capture, merchant_reference: 'x'.repeat(41) }]), { ...context, language: 'ar' }).errors;
    assert.equal(error?.message, 'merchant_reference: يجب ألا يزيد عن ٤٠ حرفًا');
  });
});

describe('the results', () => {
  const row: BatchResultEntry = {
    Line_Number: '2',
    response_code: '14000',
    response_message: 'Success',
    status: '14',
    eci: 'RECURRING',
    svc_id: '1773133200000000007',
    merchant_reference: 'sub-1',
    amount: '10000',
    card_number: '411111******1111',
    expiry_date: '2908',
    currency: 'EGP',
  };

  it('are the spec’s columns in its order, every value quoted', () => {
    assert.equal(
      writeBatchResults([row]),
      'Line_Number,response_code,response_message,status,eci,svc_id,merchant_reference,amount,card_number,expiry_date,currency\r\n'.replace(/[^,\r\n]+/g, '"$&"') +
        '"2","14000","Success","14","RECURRING","1773133200000000007","sub-1","10000","411111******1111","2908","EGP"\r\n',
    );
  });

  it('write a value a line has not as empty, and read it back as absent', () => {
    const voided: BatchResultEntry = { Line_Number: '5', response_code: '08000', response_message: 'Success', status: '08', merchant_reference: 'order-3' };
    assert.match(writeBatchResults([voided]), /\r\n"5","08000","Success","08","","","order-3","","","",""\r\n$/);
    assert.deepEqual(readBatchResults(writeBatchResults([voided])), [voided]);
  });

  it('read back whatever rows they were written from', () => {
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
    const anyRow = fc.record(Object.fromEntries(BATCH_RESULT_COLUMNS.map((column) => [column, text])) as Record<(typeof BATCH_RESULT_COLUMNS)[number], fc.Arbitrary<string>>, {
      requiredKeys: ['Line_Number', 'response_code', 'response_message', 'status'],
      noNullPrototype: true,
    });
    fc.assert(
      fc.property(fc.array(anyRow, { maxLength: 6 }), (rows) => {
        assert.deepEqual(readBatchResults(writeBatchResults(rows as BatchResultEntry[])), rows);
      }),
    );
  });

  it('refuse a text whose header is not the spec’s', () => {
    assert.throws(() => readBatchResults('Line_Number,response_code\r\n"2","14000"\r\n'), BatchResultsError);
  });
});
