/** Dates as an operator types them: a day (2026-03-10, taken in UTC) or the gateway's ISO 8601 with an offset. */
import { randomBytes } from 'node:crypto';
import { field, FIELD_RULES } from '../core/schemas/index.ts';
import { CliError } from './input.ts';

/** `2026-03-10` → its first (`start`) or last (`end`) second in UTC; a full date-time with offset as it is. */
export function dateOption(value: string, edge: 'start' | 'end', option: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${edge === 'start' ? '00:00:00' : '23:59:59'}+00:00` : value;
  if (!field('from_date').safeParse(day).success || Number.isNaN(Date.parse(day))) {
    throw new CliError(`${option} must be a date such as 2026-03-10 or a date and time with an offset such as 2026-03-10T00:00:00+02:00`);
  }
  return day;
}

/** Characters of the random tail: ASCII letters and digits pass every reference field's class. */
const TAIL_CHARACTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A reference for a report or a batch the operator did not name: the time to the millisecond and
 * a random tail, `rep-260310090000123k7q2xa`, so that two runs in the same second (or the same
 * millisecond, from two terminals) do not collide on the gateway's 00005. It fills the field's
 * length (a batch_reference holds 20 characters) and uses only characters every reference allows.
 */
export function timeReference(prefix: string, fieldName: 'merchant_reference' | 'batch_reference', now: Date = new Date()): string {
  const time = now.toISOString().replace(/\D/g, '').slice(2, 17);
  const head = `${prefix}-${time}`;
  const tailLength = Math.max(0, Math.min(6, (FIELD_RULES[fieldName].maxLength ?? 40) - head.length));
  const bytes = randomBytes(tailLength);
  const tail = Array.from(bytes, (byte) => TAIL_CHARACTERS[byte % TAIL_CHARACTERS.length]).join('');
  return `${head}${tail}`;
}
