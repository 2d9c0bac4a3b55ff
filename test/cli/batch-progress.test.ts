/** What `batch` shows while the gateway works, and the money of a batch's lines. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateBatchFile, buildBatchFile } from '../../src/core/batch-file.ts';
import { batchProgressText, batchTotals, processedTotals } from '../../src/cli/batch-command.ts';
import { progressBar } from '../../src/cli/progress.ts';
import type { Io } from '../../src/cli/command.ts';

function terminal(): { io: Io; written: string[] } {
  const written: string[] = [];
  const io = { stdin: process.stdin, stdout: { write: () => true }, stderr: { isTTY: true, columns: 80, write: (text: string) => written.push(text) }, env: {} };
  return { io, written };
}

describe('while the gateway processes a batch', () => {
  it('says processing and the time elapsed, with no percentage', () => {
    assert.equal(batchProgressText('PROCESSING', 42_300), 'processing… 42 s');
    const { io, written } = terminal();
    progressBar(io, 'batch').update(undefined, batchProgressText('PROCESSING', 3_000));
    assert.doesNotMatch(written.join(''), /%|\[[#.]/);
    assert.match(written.join(''), /batch: processing… 3 s/);
  });

  it('still draws a measured bar with its percentage', () => {
    const { io, written } = terminal();
    progressBar(io, 'report').update(0.5, '5/10 rows');
    assert.match(written.join(''), / 50% 5\/10 rows/);
  });
});

describe('the money of a batch’s lines', () => {
  it('adds up the file’s minor units per currency and command, in major units with the minor ones', () => {
    const file = buildBatchFile([
      { command: 'CAPTURE', merchant_reference: 'o-1', amount: '9000', currency: 'EGP' },
      { command: 'CAPTURE', merchant_reference: 'o-2', amount: '1050', currency: 'EGP' },
      { command: 'REFUND', merchant_reference: 'o-3', amount: '1500', currency: 'KWD' },
      { command: 'VOID_AUTHORIZATION', merchant_reference: 'o-4' },
    ]);
    const { lines, errors } = validateBatchFile(file, { access_code: 'zx0IPmPy5jp1vAz', merchant_identifier: 'abcdEFGH', language: 'en' });
    assert.deepEqual(errors, []);
    assert.deepEqual(batchTotals(lines), [
      'VOID_AUTHORIZATION: 1 line (each the authorization it holds)',
      'CAPTURE in EGP: 2 lines, EGP 100.50 (10050 minor units)',
      'REFUND in KWD: 1 line, KWD 1.500 (1500 minor units)',
    ]);
  });

  it('adds up lines whose total passes the 10 digits one amount may have (large or three-decimal amounts)', () => {
    const file = buildBatchFile([
      { command: 'CAPTURE', merchant_reference: 'o-1', amount: '5000000000', currency: 'EGP' },
      { command: 'CAPTURE', merchant_reference: 'o-2', amount: '5000000000', currency: 'EGP' },
    ]);
    const { lines, errors } = validateBatchFile(file, { access_code: 'zx0IPmPy5jp1vAz', merchant_identifier: 'abcdEFGH', language: 'en' });
    assert.deepEqual(errors, []);
    assert.deepEqual(batchTotals(lines), ['CAPTURE in EGP: 2 lines, EGP 100,000,000.00 (10000000000 minor units)']);
    const row = { response_code: '04000', response_message: 'Success', status: '04', currency: 'IQD', amount: '9999999999' };
    assert.deepEqual(processedTotals([{ ...row, Line_Number: '1' }, { ...row, Line_Number: '2' }] as never), ['IQD 19,999,999.998 in 2 lines']);
  });
});
