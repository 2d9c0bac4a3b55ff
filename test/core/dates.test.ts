import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatDateTimeWithOffset } from '../../src/core/dates.ts';
import { field } from '../../src/core/schemas/index.ts';
import { parseExpiry } from '../../src/core/voucher.ts';

describe('formatDateTimeWithOffset', () => {
  it('writes UTC as +00:00, to the second', () => {
    assert.equal(formatDateTimeWithOffset(Date.UTC(2026, 10, 24, 5, 0, 0, 999)), '2026-11-24T05:00:00+00:00');
  });

  it('writes the wall time of the zone with its offset', () => {
    assert.equal(formatDateTimeWithOffset(Date.UTC(2026, 10, 24, 23, 30), 120), '2026-11-25T01:30:00+02:00');
    assert.equal(formatDateTimeWithOffset(Date.UTC(2026, 0, 1, 2, 0), -330), '2025-12-31T20:30:00-05:30');
  });

  it('refuses an offset beyond ±23:59 or a fraction of a minute', () => {
    assert.throws(() => formatDateTimeWithOffset(0, 24 * 60), RangeError);
    assert.throws(() => formatDateTimeWithOffset(0, 1.5), RangeError);
    assert.throws(() => formatDateTimeWithOffset(Number.NaN), RangeError);
  });

  it('is read back to the same second by parseExpiry and fits request_expiry_date', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        (instant, offset) => {
          const text = formatDateTimeWithOffset(instant, offset);
          assert.equal(parseExpiry(text), Math.floor(instant / 1000) * 1000);
          assert.ok(field('request_expiry_date').safeParse(text).success, text);
        },
      ),
    );
  });
});
