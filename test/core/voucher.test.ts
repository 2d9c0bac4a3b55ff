import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  billReminder,
  billReminderFileName,
  calendarFile,
  countdownDigits,
  createManualClock,
  escapeIcsText,
  foldIcsLine,
  formatExpiry,
  groupBillNumber,
  icsDateTime,
  isBillNumber,
  msUntilNextTick,
  parseExpiry,
  timeLeft,
} from '../../src/core/voucher.ts';

describe('groupBillNumber', () => {
  it('groups a 14-digit bill number in fours from the start', () => {
    assert.deepEqual(groupBillNumber('12345678901234'), ['1234', '5678', '9012', '34']);
  });

  it('keeps leading zeros, which are part of the number as issued', () => {
    assert.deepEqual(groupBillNumber('0012345'), ['0012', '345']);
  });

  it('joins back to exactly the number as issued', () => {
    assert.equal(groupBillNumber('98765432109876', 3).join(''), '98765432109876');
  });

  it('refuses a group size that is not a positive integer', () => {
    assert.throws(() => groupBillNumber('1234', 0), RangeError);
  });
});

describe('isBillNumber', () => {
  it('accepts up to 14 digits and nothing else', () => {
    assert.equal(isBillNumber('12345678901234'), true);
    assert.equal(isBillNumber('123456789012345'), false);
    assert.equal(isBillNumber('1234 5678'), false);
    assert.equal(isBillNumber(''), false);
  });
});

describe('parseExpiry', () => {
  it('reads an ISO 8601 date-time with an offset as the instant it names', () => {
    assert.equal(parseExpiry('2026-11-22T07:00:00+02:00'), Date.UTC(2026, 10, 22, 5, 0, 0));
    assert.equal(parseExpiry('2026-11-22T05:00:00Z'), Date.UTC(2026, 10, 22, 5, 0, 0));
    assert.equal(parseExpiry('2026-11-22T01:30:00-03:30'), Date.UTC(2026, 10, 22, 5, 0, 0));
  });

  it('accepts fractional seconds and a compact offset', () => {
    assert.equal(parseExpiry('2026-11-22T07:00:00.250+0200'), Date.UTC(2026, 10, 22, 5, 0, 0, 250));
  });

  it('refuses a date-time without an offset, which would be read in the viewer zone', () => {
    assert.equal(parseExpiry('2026-11-22T07:00:00'), undefined);
  });

  it('refuses days and times that do not exist', () => {
    assert.equal(parseExpiry('2026-02-31T07:00:00+02:00'), undefined);
    assert.equal(parseExpiry('2026-11-22T24:00:00+02:00'), undefined);
    assert.equal(parseExpiry('tomorrow'), undefined);
  });
});

describe('formatExpiry', () => {
  const instant = Date.UTC(2026, 10, 22, 5, 7, 0);

  it('writes the date in English with the zone named', () => {
    const text = formatExpiry(instant, 'en', 'Africa/Cairo');
    assert.match(text, /22 November 2026/);
    assert.match(text, /07:07|7:07/);
  });

  it('writes the date in Arabic with Arabic month names', () => {
    const text = formatExpiry(instant, 'ar', 'Africa/Cairo');
    assert.match(text, /نوفمبر/);
  });

  it('names the time zone in full in the page language, never by a Latin abbreviation on an Arabic page', () => {
    assert.match(formatExpiry(instant, 'en', 'Africa/Cairo'), /Eastern European/);
    assert.match(formatExpiry(instant, 'en', 'UTC'), /Coordinated Universal Time/);
    assert.match(formatExpiry(instant, 'ar', 'Africa/Cairo'), /توقيت شرق أوروبا/);
    assert.doesNotMatch(formatExpiry(instant, 'ar', 'UTC'), /[A-Za-z]/);
  });
});

describe('timeLeft', () => {
  const deadline = Date.UTC(2026, 10, 22, 5, 0, 0);

  it('splits the time left into days, hours, minutes and seconds', () => {
    const left = timeLeft(deadline, deadline - (2 * 86_400 + 3 * 3600 + 4 * 60 + 5) * 1000);
    assert.deepEqual(left, { expired: false, totalSeconds: 183_845, days: 2, hours: 3, minutes: 4, seconds: 5 });
  });

  it('rounds a part second up, so zero is shown only at the deadline', () => {
    assert.equal(timeLeft(deadline, deadline - 400).totalSeconds, 1);
    assert.equal(timeLeft(deadline, deadline - 400).expired, false);
  });

  it('is expired at the deadline and after it, with nothing left', () => {
    assert.equal(timeLeft(deadline, deadline).expired, true);
    assert.equal(timeLeft(deadline, deadline + 5000).totalSeconds, 0);
  });
});

describe('msUntilNextTick', () => {
  it('wakes at the next whole second counted from the deadline', () => {
    assert.equal(msUntilNextTick(10_000, 0), 1000);
    assert.equal(msUntilNextTick(10_000, 250), 750);
    assert.equal(msUntilNextTick(10_000, 9_900), 100);
  });

  it('is zero once the deadline has passed', () => {
    assert.equal(msUntilNextTick(10_000, 10_000), 0);
  });
});

describe('countdownDigits', () => {
  it('shows minutes and seconds under an hour', () => {
    assert.equal(countdownDigits(timeLeft(65_000, 0)), '1:05');
  });

  it('adds hours when there are any', () => {
    assert.equal(countdownDigits(timeLeft((3600 + 65) * 1000, 0)), '1:01:05');
  });

  it('keeps the hours place when only days are left', () => {
    assert.equal(countdownDigits(timeLeft((86_400 + 5) * 1000, 0)), '0:00:05');
  });

  it('writes Arabic-Indic digits for Arabic', () => {
    assert.equal(countdownDigits(timeLeft(65_000, 0), 'ar'), '١:٠٥');
  });
});

describe('createManualClock', () => {
  it('reads the time it was set to and moves only when advanced', () => {
    const clock = createManualClock(1000);
    assert.equal(clock.now(), 1000);
    clock.advance(500);
    assert.equal(clock.now(), 1500);
  });

  it('runs scheduled callbacks in time order, each seeing its own due time', () => {
    const clock = createManualClock(0);
    const seen: string[] = [];
    clock.schedule(() => seen.push(`b@${clock.now()}`), 200);
    clock.schedule(() => seen.push(`a@${clock.now()}`), 100);
    clock.advance(1000);
    assert.deepEqual(seen, ['a@100', 'b@200']);
    assert.equal(clock.now(), 1000);
  });

  it('runs callbacks scheduled by callbacks when they fall within the advance', () => {
    const clock = createManualClock(0);
    let ticks = 0;
    const tick = (): void => {
      ticks += 1;
      clock.schedule(tick, 1000);
    };
    clock.schedule(tick, 1000);
    clock.advance(5000);
    assert.equal(ticks, 5);
    assert.equal(clock.pending, 1);
  });

  it('does not run a cancelled callback', () => {
    const clock = createManualClock(0);
    let ran = false;
    const cancel = clock.schedule(() => (ran = true), 10);
    cancel();
    clock.advance(100);
    assert.equal(ran, false);
  });
});

describe('iCalendar text', () => {
  it('writes UTC date-times in the basic form', () => {
    assert.equal(icsDateTime(Date.UTC(2026, 10, 22, 5, 7, 9)), '20261122T050709Z');
  });

  it('escapes backslashes, semicolons, commas and line breaks', () => {
    assert.equal(escapeIcsText('a\\b;c,d\ne'), 'a\\\\b\\;c\\,d\\ne');
  });

  it('folds lines over 75 octets without splitting a character', () => {
    const folded = foldIcsLine(`SUMMARY:${'ب'.repeat(60)}`);
    const lines = folded.split('\r\n');
    assert.ok(lines.length > 1);
    for (const line of lines) assert.ok(new TextEncoder().encode(line).length <= 75);
    assert.equal(lines.map((line, index) => (index === 0 ? line : line.slice(1))).join(''), `SUMMARY:${'ب'.repeat(60)}`);
  });

  it('makes a calendar with one event and CRLF line endings', () => {
    const text = calendarFile({
      uid: 'x@y',
      stamp: Date.UTC(2026, 0, 1),
      start: Date.UTC(2026, 0, 2),
      end: Date.UTC(2026, 0, 2, 1),
      summary: 'Pay, now',
    });
    assert.match(text, /^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/);
    assert.match(text, /\r\nSUMMARY:Pay\\, now\r\n/);
    assert.match(text, /END:VEVENT\r\nEND:VCALENDAR\r\n$/);
    assert.doesNotMatch(text.replace(/\r\n/g, ''), /\n/);
  });
});

describe('billReminder', () => {
  const expiresAt = Date.UTC(2026, 10, 24, 22, 0, 0);
  const text = billReminder({
    billNumber: '12345678901234',
    expiresAt,
    now: Date.UTC(2026, 10, 22, 5, 0, 0),
    summary: 'Pay bill 1234 5678 9012 34',
    description: 'Amount: EGP 250.00\nThe hold is cancelled if unpaid.',
    language: 'en',
  });

  it('ends the event at the expiry and starts it an hour before', () => {
    assert.match(text, /\r\nDTSTART:20261124T210000Z\r\n/);
    assert.match(text, /\r\nDTEND:20261124T220000Z\r\n/);
  });

  it('alarms two hours before the expiry', () => {
    assert.match(text, /\r\nTRIGGER;RELATED=END:-PT120M\r\n/);
  });

  it('uses a UID from the bill number, so a second download updates the same event', () => {
    assert.match(text, /\r\nUID:bill-12345678901234@pg-checkout\r\n/);
  });

  it('keeps the text in its language', () => {
    assert.match(text, /\r\nSUMMARY;LANGUAGE=en:Pay bill 1234 5678 9012 34\r\n/);
    assert.match(text, /DESCRIPTION;LANGUAGE=en:Amount: EGP 250\.00\\nThe hold/);
  });

  it('is named for the bill', () => {
    assert.equal(billReminderFileName('12345678901234'), 'bill-12345678901234.ics');
  });
});
