/** The CLI's dates and the references it makes of the time when the operator names none. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { field } from '../../src/core/schemas/index.ts';
import { timeReference } from '../../src/cli/dates.ts';

describe('timeReference, when the operator names no reference', () => {
  const now = new Date('2026-03-10T09:00:00.123Z');

  it('gives runs in the same millisecond different references, but for a rare collision of the random tail', () => {
    // A batch_reference has room for 3 random characters after the time (36³ = 46,656 values): 50
    // runs in one millisecond collide once in about 40 tries, so the test allows a few; all of them
    // alike would mean no randomness at all. (It demanded 50 of 50 and failed about once in 40 runs.)
    const made = new Set(Array.from({ length: 50 }, () => timeReference('b', 'batch_reference', now)));
    assert.ok(made.size >= 45, `${made.size} different references of 50`);
  });

  it('keeps a batch_reference within its 20 characters and its character rules, the time to the millisecond', () => {
    const reference = timeReference('b', 'batch_reference', now);
    assert.match(reference, /^b-260310090000123[a-z0-9]{3}$/);
    assert.ok(field('batch_reference').safeParse(reference).success, reference);
  });

  it('keeps a report merchant_reference within its rules', () => {
    const reference = timeReference('rep', 'merchant_reference', now);
    assert.match(reference, /^rep-260310090000123[a-z0-9]{6}$/);
    assert.ok(field('merchant_reference').safeParse(reference).success, reference);
  });
});
