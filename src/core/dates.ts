/**
 * Dates on the wire (spec, General rules 5): ISO 8601 with a time zone offset, shaped
 * `YYYY-MM-DDThh:mm:ss+hh:mm`, which is also the 25 characters `request_expiry_date` allows.
 * `formatDateTimeWithOffset` writes such a date and `parseDateTimeWithOffset` reads one as the
 * gateway takes it. (`parseExpiry` in voucher.ts is the widget's lenient reading of a bill's expiry
 * for display, not a rule of what the gateway takes.)
 */

/**
 * An instant (epoch ms) written in the zone `offsetMinutes` east of UTC, seconds precision:
 * `formatDateTimeWithOffset(Date.UTC(2026, 10, 24, 5, 0), 120)` → "2026-11-24T07:00:00+02:00".
 */
export function formatDateTimeWithOffset(instant: number, offsetMinutes = 0): string {
  if (!Number.isFinite(instant)) throw new RangeError('instant must be a finite number of milliseconds');
  if (!Number.isInteger(offsetMinutes) || Math.abs(offsetMinutes) > 23 * 60 + 59) {
    throw new RangeError('offsetMinutes must be a whole number of minutes within ±23:59');
  }
  const local = new Date(Math.floor(instant / 1000) * 1000 + offsetMinutes * 60_000);
  const two = (value: number): string => String(value).padStart(2, '0');
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = Math.abs(offsetMinutes);
  return (
    `${String(local.getUTCFullYear()).padStart(4, '0')}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())}` +
    `T${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}` +
    `${sign}${two(Math.floor(offset / 60))}:${two(offset % 60)}`
  );
}

/** A date-time read from the wire: the instant and the offset it was written with. */
export interface DateTimeWithOffset {
  /** Epoch milliseconds. */
  readonly instant: number;
  /** Minutes east of UTC as written: "+03:00" → 180, "-05:30" → -330. */
  readonly offsetMinutes: number;
}

const DATE_TIME_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;

/**
 * A date-time as the gateway takes it: exactly `YYYY-MM-DDThh:mm:ss±hh:mm` naming a day that exists,
 * hours 00–23, an offset within ±23:59; undefined for anything else, `Z` for UTC and fractional
 * seconds included (the specification shows no other shape, and the bill's date allows no `.`;
 * docs/decisions.md). The reader of what {@link formatDateTimeWithOffset} writes:
 * `parseDateTimeWithOffset("2026-11-24T07:00:00+02:00")` → `{ instant: Date.UTC(2026, 10, 24, 5), offsetMinutes: 120 }`.
 */
export function parseDateTimeWithOffset(text: string): DateTimeWithOffset | undefined {
  const match = DATE_TIME_WITH_OFFSET.exec(text);
  if (!match) return undefined;
  const part = (index: number): number => Number(match[index]);
  const [year, month, day, hour, minute, second] = [part(1), part(2), part(3), part(4), part(5), part(6)] as const;
  const [offsetHours, offsetRest] = [part(8), part(9)] as const;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetRest > 59) return undefined;
  // setUTCFullYear, unlike Date.UTC, keeps the years 0–99 as written; both roll 31 February over
  // into March, which the comparison below catches.
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, second, 0);
  if (wall.getUTCFullYear() !== year || wall.getUTCMonth() !== month - 1 || wall.getUTCDate() !== day) return undefined;
  const offsetMinutes = (match[7] === '-' ? -1 : 1) * (offsetHours * 60 + offsetRest);
  return { instant: wall.getTime() - offsetMinutes * 60_000, offsetMinutes };
}
