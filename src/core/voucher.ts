/**
 * Cash (voucher) bills as the customer sees them (spec: "Bill" and "Cash bill"): the bill number
 * grouped for reading, the expiry read from `request_expiry_date`, the time left before the hold
 * is cancelled, and an iCalendar reminder for the expiry. Also the clock every countdown runs on,
 * injectable so that tests move time instead of sleeping.
 */
import type { Language } from './language.ts';

// ---- Bill number ----

/** A bill number as the gateway issues it: digits only, at most 14 (spec, Limits). */
export function isBillNumber(value: string): boolean {
  return /^\d{1,14}$/.test(value);
}

/**
 * "12345678901234" → ["1234", "5678", "9012", "34"]: groups of `size` digits from the start, for
 * reading aloud or copying by hand. Only the display is grouped; the copy is the number as issued.
 */
export function groupBillNumber(billNumber: string, size = 4): string[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('group size must be a positive integer');
  const groups: string[] = [];
  for (let start = 0; start < billNumber.length; start += size) {
    groups.push(billNumber.slice(start, start + size));
  }
  return groups;
}

// ---- Expiry ----

// ISO 8601 with a time zone offset (spec, General rules 5), as `request_expiry_date` carries it.
const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The instant of a `request_expiry_date` in epoch milliseconds, or undefined when the text is not
 * an ISO 8601 date-time with an offset (a date without one would be read in the viewer's zone,
 * which is not the instant the merchant meant) or names a day that does not exist.
 */
export function parseExpiry(text: string): number | undefined {
  const match = ISO_WITH_OFFSET.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '0', zone = 'Z'] = match;
  const utc = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.padEnd(3, '0')),
  );
  const probe = new Date(utc);
  // Date.UTC rolls 31 February over into March; such a date is not one the gateway sent.
  if (
    probe.getUTCFullYear() !== Number(year) ||
    probe.getUTCMonth() !== Number(month) - 1 ||
    probe.getUTCDate() !== Number(day) ||
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 59
  ) {
    return undefined;
  }
  return utc - offsetMinutes(zone) * 60_000;
}

function offsetMinutes(zone: string): number {
  if (zone === 'Z') return 0;
  const digits = zone.replace(':', '');
  const sign = digits.startsWith('-') ? -1 : 1;
  return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
}

/**
 * The expiry as a date people read, in the page language and the viewer's time zone (or
 * `timeZone`), with the zone named in full, in the page's language, so that no one misreads the
 * deadline (an abbreviation such as "UTC" stays Latin on an Arabic page): "Sunday, 22 November
 * 2026 at 07:07 Eastern European Standard Time" / "الأحد، ٢٢ نوفمبر ٢٠٢٦ في ٧:٠٧ ص توقيت شرق أوروبا الرسمي".
 */
export function formatExpiry(instant: number, language: Language, timeZone?: string): string {
  return new Intl.DateTimeFormat(language === 'ar' ? 'ar-EG' : 'en-GB', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'long',
    ...(timeZone ? { timeZone } : {}),
  }).format(instant);
}

/** What a countdown shows: whole units left, rounded up so that 0:00:00 is the moment of expiry. */
export interface TimeLeft {
  readonly expired: boolean;
  /** Whole seconds left, rounded up; 0 once expired. */
  readonly totalSeconds: number;
  readonly days: number;
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
}

/** Time left until `deadline` (epoch ms) at `now` (epoch ms). */
export function timeLeft(deadline: number, now: number): TimeLeft {
  const totalSeconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  return {
    expired: now >= deadline,
    totalSeconds,
    days: Math.floor(totalSeconds / 86_400),
    hours: Math.floor((totalSeconds % 86_400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
  };
}

/**
 * Milliseconds until the countdown to `deadline` next shows a different value (the next whole
 * second boundary, counted from the deadline), so a ticking display wakes once per change.
 */
export function msUntilNextTick(deadline: number, now: number): number {
  const remaining = deadline - now;
  if (remaining <= 0) return 0;
  const intoSecond = remaining % 1000;
  return intoSecond === 0 ? 1000 : intoSecond;
}

/**
 * "1:02:03" style digits for a countdown: hours only when there are any (days are counted
 * separately), in Arabic-Indic numerals for Arabic as the rest of an Arabic page writes numbers.
 */
export function countdownDigits(left: TimeLeft, language: Language = 'en'): string {
  const two = (value: number): string => String(value).padStart(2, '0');
  const digits =
    left.hours > 0 || left.days > 0
      ? `${left.hours}:${two(left.minutes)}:${two(left.seconds)}`
      : `${left.minutes}:${two(left.seconds)}`;
  return language === 'ar' ? digits.replace(/\d/g, (digit) => String.fromCharCode(0x0660 + Number(digit))) : digits;
}

// ---- Clock (core/clock.ts, kept apart so that an element's small class loads none of the rest) ----

export * from './clock.ts';

// ---- Calendar reminder ----

/** One event of an iCalendar (RFC 5545) file. Text is already in the page language. */
export interface CalendarEvent {
  /** Globally unique and stable, so a second download updates the same event. */
  readonly uid: string;
  /** When the file was made (DTSTAMP), epoch ms. */
  readonly stamp: number;
  readonly start: number;
  readonly end: number;
  readonly summary: string;
  readonly description?: string;
  /** A display alarm this many minutes before the end of the event (the deadline). */
  readonly alarmMinutesBeforeEnd?: number;
  /** RFC 5646 language tag of the text, e.g. "ar". */
  readonly language?: string;
}

/** 2026-11-22T05:07:00Z as iCalendar's UTC form: 20261122T050700Z. */
export function icsDateTime(instant: number): string {
  return new Date(instant).toISOString().replace(/\.\d{3}/, '').replace(/[-:]/g, '');
}

/** RFC 5545 TEXT escaping: backslash, semicolon, comma and line breaks. */
export function escapeIcsText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * RFC 5545 line folding: content lines longer than 75 octets of UTF-8 continue on the next line
 * after CRLF and a space. A character is never split between lines.
 */
export function foldIcsLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  // The first line may hold 75 octets; a continuation holds 74 after its leading space.
  let limit = 75;
  for (const character of line) {
    const size = encoder.encode(character).length;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = 74;
    }
    current += character;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** A whole iCalendar file with one event, CRLF line endings, ready to download as text/calendar. */
export function calendarFile(event: CalendarEvent): string {
  const language = event.language ? `;LANGUAGE=${event.language}` : '';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//pg-checkout//Bill reminder//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${escapeIcsText(event.uid)}`,
    `DTSTAMP:${icsDateTime(event.stamp)}`,
    `DTSTART:${icsDateTime(event.start)}`,
    `DTEND:${icsDateTime(event.end)}`,
    `SUMMARY${language}:${escapeIcsText(event.summary)}`,
  ];
  if (event.description) lines.push(`DESCRIPTION${language}:${escapeIcsText(event.description)}`);
  if (event.alarmMinutesBeforeEnd !== undefined) {
    lines.push(
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      `DESCRIPTION${language}:${escapeIcsText(event.summary)}`,
      `TRIGGER;RELATED=END:-PT${Math.max(0, Math.round(event.alarmMinutesBeforeEnd))}M`,
      'END:VALARM',
    );
  }
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return lines.map(foldIcsLine).join('\r\n') + '\r\n';
}

/** The event's length before the bill expires: an hour to go and pay. */
export const BILL_REMINDER_SLOT_MINUTES = 60;
/** The reminder pops up this long before the bill expires. */
export const BILL_REMINDER_ALARM_MINUTES = 120;

/**
 * The calendar reminder for a bill: an hour-long slot ending at the expiry, an alarm two hours
 * before it, and a UID derived from the bill number so that downloading again updates the event.
 */
export function billReminder(options: {
  readonly billNumber: string;
  readonly expiresAt: number;
  readonly now: number;
  readonly summary: string;
  readonly description: string;
  readonly language?: string;
}): string {
  return calendarFile({
    uid: `bill-${options.billNumber}@pg-checkout`,
    stamp: options.now,
    start: options.expiresAt - BILL_REMINDER_SLOT_MINUTES * 60_000,
    end: options.expiresAt,
    summary: options.summary,
    description: options.description,
    alarmMinutesBeforeEnd: BILL_REMINDER_ALARM_MINUTES,
    ...(options.language ? { language: options.language } : {}),
  });
}

/** The download name of a bill's reminder. */
export function billReminderFileName(billNumber: string): string {
  return `bill-${billNumber}.ics`;
}
