import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { csvRecord, csvValue, parseCsv, writeCsv } from '../../src/core/csv.ts';

function records(text: string): string[][] {
  const reading = parseCsv(text);
  assert.ok(reading.ok, `expected ${JSON.stringify(text)} to be read`);
  return reading.records.map((record) => [...record.values]);
}

describe('reading CSV (RFC 4180)', () => {
  it('splits records on CRLF or LF and values on commas', () => {
    assert.deepEqual(records('a,b\r\nc,d\ne,f'), [
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
  });

  it('reads a quoted value with commas, doubled quotes and line breaks', () => {
    assert.deepEqual(records('"a,1","say ""hi""","two\r\nlines"\r\n'), [['a,1', 'say "hi"', 'two\r\nlines']]);
  });

  it('keeps empty values, first and last', () => {
    assert.deepEqual(records(',x,\n""'), [['', 'x', ''], ['']]);
  });

  it('drops a byte order mark and skips blank lines', () => {
    assert.deepEqual(records('\ufeffa\n\n\r\nb\n'), [['a'], ['b']]);
  });

  it('numbers each record by the line it starts on', () => {
    const reading = parseCsv('h\n"x\ny"\n\nz');
    assert.ok(reading.ok);
    assert.deepEqual(
      reading.records.map((record) => record.line),
      [1, 2, 5],
    );
  });

  it('refuses a quote that is never closed, with the line the value starts on', () => {
    assert.deepEqual(parseCsv('a\n"b\nc'), { ok: false, problem: 'unterminated_quote', line: 2 });
  });

  it('refuses a quote inside an unquoted value', () => {
    assert.deepEqual(parseCsv('a\nb"c'), { ok: false, problem: 'stray_quote', line: 2 });
  });

  it('refuses text after a closing quote', () => {
    assert.deepEqual(parseCsv('"a"b'), { ok: false, problem: 'text_after_quote', line: 1 });
  });
});

describe('writing CSV', () => {
  it('quotes only what needs it, or everything when asked', () => {
    assert.equal(csvValue('plain'), 'plain');
    assert.equal(csvValue('a,b'), '"a,b"');
    assert.equal(csvValue('say "hi"'), '"say ""hi"""');
    assert.equal(csvValue('plain', 'always'), '"plain"');
  });

  it('writes a lone empty value quoted, so that it is not a blank line', () => {
    assert.equal(csvRecord(['']), '""');
  });

  it('ends every record with CRLF', () => {
    assert.equal(writeCsv([['a', 'b'], ['c', 'd']]), 'a,b\r\nc,d\r\n');
  });

  it('reads back exactly what it wrote, whatever the values', () => {
    const value = fc.string({ unit: 'grapheme', maxLength: 12 });
    const table = fc.integer({ min: 1, max: 5 }).chain((width) => fc.array(fc.array(value, { minLength: width, maxLength: width }), { maxLength: 6 }));
    fc.assert(
      fc.property(table, fc.constantFrom('always' as const, 'needed' as const), (rows, quoting) => {
        assert.deepEqual(records(writeCsv(rows, quoting)), rows);
      }),
    );
  });
});
