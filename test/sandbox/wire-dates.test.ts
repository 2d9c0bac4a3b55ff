/**
 * The date-time fields the sandbox reads (GENERATE_REPORT's from_date and to_date, GET_TOKENS's
 * from_date and to_date, BILL_PRESENTMENT's request_expiry_date). The specification gives one shape,
 * ISO 8601 with a time zone offset, `YYYY-MM-DDThh:mm:ss+hh:mm` (General rules 5): that shape only,
 * of a day that exists, and every date that breaks it is answered alike, 00002 naming the field and
 * the shape (docs/decisions.md, "Dates: Z and fractional seconds").
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatDateTimeWithOffset, parseDateTimeWithOffset } from '../../src/core/dates.ts';
import { field } from '../../src/core/schemas/index.ts';
import { SANDBOX_VOUCHER_PARTNER_CODE } from '../../src/sandbox/partners.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { api, FUTURE_EXPIRY, ORIGIN, rig, signed, type Answer, type Rig } from './support.ts';

type DateField = 'from_date' | 'to_date' | 'request_expiry_date';

let references = 0;
const nextReference = (): string => `date-${++references}`;

/**
 * A request that is right but for the one date field under test (the clock stands at 2026-03-10T09:00Z).
 * The window is the whole year, so that a date under test is never refused for ending it before it starts.
 */
const WINDOW = { from_date: '2026-01-01T00:00:00+02:00', to_date: '2026-12-31T23:59:59+02:00' };
const OPERATIONS: readonly { name: string; field: DateField; send: (r: Rig, date: string) => Promise<Answer> }[] = [
  ...(['from_date', 'to_date'] as const).map((name) => ({
    name: `GENERATE_REPORT ${name}`,
    field: name,
    send: async (r: Rig, date: string) => {
      const body = await signed({
        query_command: 'GENERATE_REPORT',
        merchant_reference: nextReference(),
        language: 'en',
        ...WINDOW,
        [name]: date,
      });
      const response = await r.gateway.handle(
        new Request(`${ORIGIN}${r.gateway.paths.reportingApi}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      );
      return (await response.json()) as Answer;
    },
  })),
  ...(['from_date', 'to_date'] as const).map((name) => ({
    name: `GET_TOKENS ${name}`,
    field: name,
    send: (r: Rig, date: string) =>
      api(r.gateway, { query_command: 'GET_TOKENS', language: 'en', ...WINDOW, [name]: date }),
  })),
  {
    name: 'BILL_PRESENTMENT request_expiry_date',
    field: 'request_expiry_date',
    send: (r: Rig, date: string) =>
      api(r.gateway, {
        service_command: 'BILL_PRESENTMENT',
        merchant_reference: nextReference(),
        amount: '150000',
        currency: 'EGP',
        language: 'en',
        request_expiry_date: date,
        payment_partner: SANDBOX_VOUCHER_PARTNER_CODE,
      }),
  },
];

/** Right dates, each shaped as the specification writes them, in the future of the clock. */
const RIGHT = { from_date: '2026-03-02T00:00:00+02:00', to_date: '2026-03-30T23:59:59-05:00', request_expiry_date: '2026-03-12T11:00:00+02:00' };

function assertRefusedAsMalformed(answer: Answer, name: DateField, what: string): void {
  assert.equal(answer['response_code'], '00002', `${what}: ${String(answer['response_message'])}`);
  assert.equal(answer['status'], '00');
  assert.match(
    String(answer['response_message']),
    new RegExp(`^Invalid parameter format: ${name}: must be a date and time with a time zone offset, such as 2025-01-31T23:59:59\\+03:00$`),
    what,
  );
}

describe('date-time fields the sandbox reads', () => {
  for (const operation of OPERATIONS) {
    describe(operation.name, () => {
      it('takes the specification’s shape', async () => {
        const answer = await operation.send(rig(), RIGHT[operation.field]);
        assert.match(String(answer['response_code']), /^(56000|54000|30000)$/, String(answer['response_message']));
      });

      it('refuses Z for UTC and fractional seconds as a malformed date (00002, the field and the shape named)', async () => {
        const r = rig();
        const day = RIGHT[operation.field].slice(0, 19);
        for (const date of [`${day}Z`, `${day}.123Z`, `${day}.5+02:00`, `${day}.123456+00:00`]) {
          // A bill's date holds at most 25 characters (the specification's Limits): a longer one is
          // refused for its length first (00003), as bill.test.ts shows.
          if (operation.field === 'request_expiry_date' && date.length > 25) continue;
          assertRefusedAsMalformed(await operation.send(r, date), operation.field, date);
        }
      });

      it('refuses a day that does not exist as a malformed date, not as anything else', async () => {
        const r = rig();
        for (const date of ['2026-02-29T10:00:00+02:00', '2026-04-31T10:00:00+02:00', '2026-02-31T10:00:00+02:00']) {
          assertRefusedAsMalformed(await operation.send(r, date), operation.field, date);
        }
      });
    });
  }

  it('counts GET_TOKENS to the end of to_date’s second, as reports do: a token is found by its own creation_date as either bound', async () => {
    const r = rig();
    r.clock.set('2026-03-10T09:00:00.500Z');
    const created = await api(r.gateway, {
      service_command: 'TOKENIZATION',
      merchant_reference: nextReference(),
      language: 'en',
      card_number: testCard('success').number,
      expiry_date: FUTURE_EXPIRY.yymm,
      card_security_code: '123',
    });
    assert.equal(created['response_code'], '18000');
    const listed = await api(r.gateway, { query_command: 'GET_TOKENS', language: 'en' });
    const creationDate = (listed['data_list'] as { creation_date: string }[])[0]?.creation_date ?? '';
    assert.equal(creationDate, '2026-03-10T09:00:00+00:00', 'written to the second');
    for (const bounds of [{ to_date: creationDate }, { from_date: creationDate }, { from_date: creationDate, to_date: creationDate }]) {
      const answer = await api(r.gateway, { query_command: 'GET_TOKENS', language: 'en', ...bounds });
      assert.equal(answer['response_code'], '54000');
      assert.equal(answer['data_count'], '1', JSON.stringify(bounds));
    }
  });

  it('keeps 55001 for a GET_TOKENS window that ends before it starts', async () => {
    const answer = await api(rig().gateway, {
      query_command: 'GET_TOKENS',
      language: 'en',
      from_date: '2026-03-10T12:00:00+02:00',
      to_date: '2026-03-10T11:59:59+02:00',
    });
    assert.equal(answer['response_code'], '55001');
  });
});

describe('parseDateTimeWithOffset, the rule those fields are read by', () => {
  it('reads back what formatDateTimeWithOffset writes: the second and the offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2099, 11, 31) }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        (instant, offset) => {
          const text = formatDateTimeWithOffset(instant, offset);
          assert.deepEqual(parseDateTimeWithOffset(text), { instant: Math.floor(instant / 1000) * 1000, offsetMinutes: offset });
        },
      ),
    );
  });

  it('refuses the same date with Z, fractional seconds, no seconds, no offset or a compact offset', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2099, 11, 31) }), (instant) => {
        const text = formatDateTimeWithOffset(instant);
        const day = text.slice(0, 19);
        for (const variant of [`${day}Z`, `${day}.000+00:00`, `${day}.1Z`, text.slice(0, 16) + '+00:00', day, `${day}+0000`, `${day}+00`]) {
          assert.equal(parseDateTimeWithOffset(variant), undefined, variant);
        }
      }),
    );
  });

  it('takes nothing the field rules refuse, and refuses of what they take only days that do not exist', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        two(19),
        two(39),
        two(29),
        two(69),
        two(69),
        fc.constantFrom('+', '-'),
        two(29),
        two(69),
        (year, month, day, hour, minute, second, sign, offsetHour, offsetMinute) => {
          const text = `${year}-${month}-${day}T${hour}:${minute}:${second}${sign}${offsetHour}:${offsetMinute}`;
          const read = parseDateTimeWithOffset(text);
          const ruled = field('from_date').safeParse(text).success;
          if (read !== undefined) assert.ok(ruled, `${text} is read but breaks the field rule`);
          else if (ruled) {
            const last = new Date(Date.UTC(2000, Number(month), 0)).getUTCDate();
            const leap = Number(year) % 4 === 0 && (Number(year) % 100 !== 0 || Number(year) % 400 === 0);
            const daysInMonth = Number(month) === 2 ? (leap ? 29 : 28) : last;
            assert.ok(Number(day) > daysInMonth, `${text} keeps the field rule and names a day that exists, yet is not read`);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
