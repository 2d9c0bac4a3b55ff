/**
 * Comma-separated values per RFC 4180: the format of the batch file, of the batch results and of
 * the report download (docs/decisions.md). Reading is lenient where the RFC is silent in practice
 * (LF as well as CRLF, a UTF-8 byte order mark, blank lines skipped) and strict where a lenient
 * reader would guess (a quote inside an unquoted value, text after a closing quote, a quote never
 * closed). Writing always ends records with CRLF, as the RFC says.
 */

/** What makes a text unreadable as CSV. */
export type CsvProblem = 'unterminated_quote' | 'stray_quote' | 'text_after_quote';

export interface CsvRecord {
  /** The 1-based line of the text the record starts on (a quoted line break does not start a record). */
  readonly line: number;
  readonly values: readonly string[];
}

export type CsvReading =
  | { readonly ok: true; readonly records: readonly CsvRecord[] }
  | { readonly ok: false; readonly problem: CsvProblem; readonly line: number };

const BOM = '\ufeff';

function lineBreakAt(text: string, index: number): number {
  if (text[index] === '\n') return 1;
  if (text[index] === '\r' && text[index + 1] === '\n') return 2;
  return 0;
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/** Reads every record of a CSV text; a blank line is no record. */
export function parseCsv(input: string): CsvReading {
  const text = input.startsWith(BOM) ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let line = 1;
  let index = 0;
  while (index < text.length) {
    const blank = lineBreakAt(text, index);
    if (blank > 0) {
      index += blank;
      line += 1;
      continue;
    }
    const start = line;
    const values: string[] = [];
    for (;;) {
      let value = '';
      if (text[index] === '"') {
        index += 1;
        for (;;) {
          const close = text.indexOf('"', index);
          if (close < 0) return { ok: false, problem: 'unterminated_quote', line: start };
          const chunk = text.slice(index, close);
          value += chunk;
          line += countLineBreaks(chunk);
          if (text[close + 1] === '"') {
            value += '"';
            index = close + 2;
            continue;
          }
          index = close + 1;
          break;
        }
        if (index < text.length && text[index] !== ',' && lineBreakAt(text, index) === 0) {
          return { ok: false, problem: 'text_after_quote', line };
        }
      } else {
        let end = index;
        while (end < text.length && text[end] !== ',' && lineBreakAt(text, end) === 0) {
          if (text[end] === '"') return { ok: false, problem: 'stray_quote', line };
          end += 1;
        }
        value = text.slice(index, end);
        index = end;
      }
      values.push(value);
      if (index >= text.length) break;
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      index += lineBreakAt(text, index);
      line += 1;
      break;
    }
    records.push({ line: start, values });
  }
  return { ok: true, records };
}

/** `always` quotes every value (the results and the report); `needed` only those that must be. */
export type CsvQuoting = 'always' | 'needed';

/**
 * One value as written: double-quoted, its quotes doubled, when it holds a comma, a quote or a
 * line break (or starts with a byte order mark, which a reader would drop).
 */
export function csvValue(value: string, quoting: CsvQuoting = 'needed'): string {
  if (quoting === 'needed' && !/^\ufeff|[",\r\n]/.test(value)) return value;
  return `"${value.replace(/"/g, '""')}"`;
}

/** One record without its line break. A lone empty value is quoted, so that it is not a blank line. */
export function csvRecord(values: readonly string[], quoting: CsvQuoting = 'needed'): string {
  if (values.length === 1 && values[0] === '') return '""';
  return values.map((value) => csvValue(value, quoting)).join(',');
}

/** Records as a CSV text, each ended by CRLF. */
export function writeCsv(records: readonly (readonly string[])[], quoting: CsvQuoting = 'needed'): string {
  return records.map((values) => `${csvRecord(values, quoting)}\r\n`).join('');
}
