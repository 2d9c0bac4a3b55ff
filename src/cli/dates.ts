/** Dates as an operator types them: a day (2026-03-10, taken in UTC) or the gateway's ISO 8601 with an offset. */
import { field } from '../core/schemas/index.ts';
import { CliError } from './input.ts';

/** `2026-03-10` → its first (`start`) or last (`end`) second in UTC; a full date-time with offset as it is. */
export function dateOption(value: string, edge: 'start' | 'end', option: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${edge === 'start' ? '00:00:00' : '23:59:59'}+00:00` : value;
  if (!field('from_date').safeParse(day).success || Number.isNaN(Date.parse(day))) {
    throw new CliError(`${option} must be a date such as 2026-03-10 or a date and time with an offset such as 2026-03-10T00:00:00+02:00`);
  }
  return day;
}

/** A reference made of the time, for a report or a batch the operator did not name: `rep-20260310T090000`. */
export function timeReference(prefix: string, now: Date = new Date()): string {
  return `${prefix}-${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}`;
}
