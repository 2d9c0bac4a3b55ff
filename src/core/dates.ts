/**
 * Dates on the wire (spec, General rules 5): ISO 8601 with a time zone offset, shaped
 * `YYYY-MM-DDThh:mm:ss+hh:mm`, which is also the 25 characters `request_expiry_date` allows.
 * Reading such a date is `parseExpiry` in voucher.ts.
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
