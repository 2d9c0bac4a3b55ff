/**
 * The order's answer (src/core/order-answer.ts), which `<pg-checkout>` reads before the customer
 * acts: it takes what the zod schema the contract used to hold takes, and refuses what it refuses,
 * on chosen cases and on any payload (a property), and hands on only the contract's fields.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as z from 'zod/mini';
import { readOrderAnswer } from '../../src/core/order-answer.ts';

/** The order's answer as the contract's zod schema read it, before the page read it with shapes. */
const orderResult = z.object({
  merchant_reference: z.string(),
  amount: z.number().check(z.int(), z.nonnegative()),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/)),
  description: z.optional(z.string()),
  cvv_optional: z.optional(z.literal(true)),
});

const ORDER = { merchant_reference: 'ORD-1001', amount: 150_000, currency: 'EGP' };

/** zod's output without its `undefined` optional keys, to compare with the reader's. */
function zodReads(payload: unknown): unknown {
  const parsed = z.safeParse(orderResult, payload);
  return parsed.success ? JSON.parse(JSON.stringify(parsed.data)) : undefined;
}

describe('reading the order\'s answer', () => {
  it('takes the contract\'s order and hands on only its fields', () => {
    assert.deepEqual(readOrderAnswer({ ...ORDER, description: 'Two mugs', cvv_optional: true, card_number: '4111111111111111' }), {
      ...ORDER,
      description: 'Two mugs',
      cvv_optional: true,
    });
    assert.deepEqual(readOrderAnswer(ORDER), ORDER);
  });

  it('reads JSON\'s -0 as the amount 0 (never a "minus zero" on the Pay button)', () => {
    assert.ok(Object.is(readOrderAnswer(JSON.parse('{"merchant_reference":"o-1","amount":-0,"currency":"EGP"}'))?.amount, 0));
  });

  for (const [what, payload] of [
    ['an amount with a fraction (money is integer minor units)', { ...ORDER, amount: 1500.5 }],
    ['a negative amount', { ...ORDER, amount: -1 }],
    ['an amount as text', { ...ORDER, amount: '150000' }],
    ['an amount beyond safe integers', { ...ORDER, amount: 2 ** 53 }],
    ['a currency in small letters', { ...ORDER, currency: 'egp' }],
    ['a currency of four letters', { ...ORDER, currency: 'EGPX' }],
    ['no merchant reference', { amount: 1, currency: 'EGP' }],
    ['cvv_optional false (only ever true)', { ...ORDER, cvv_optional: false }],
    ['a description that is not text', { ...ORDER, description: 7 }],
    ['a list', [ORDER]],
    ['nothing', null],
  ] as const) {
    it(`refuses ${what}, as the contract's schema does`, () => {
      assert.equal(readOrderAnswer(payload), undefined);
      assert.equal(z.safeParse(orderResult, payload).success, false, 'the zod schema refuses it too');
    });
  }

  it('gives the zod schema\'s verdict and output on any payload', () => {
    const value = fc.oneof(
      fc.anything(),
      fc.constant(undefined),
      fc.integer({ min: -5, max: 2 ** 31 }),
      fc.double(),
      fc.constantFrom('EGP', 'egp', 'AED', 'KWDX', '', 'ORD-1'),
      fc.boolean(),
    );
    const payload = fc.oneof(
      fc.anything(),
      fc.record(
        {
          merchant_reference: fc.oneof(fc.string(), value),
          amount: fc.oneof(fc.nat(), value),
          currency: fc.oneof(fc.constantFrom('EGP', 'AED', 'KWD'), value),
          description: fc.oneof(fc.string(), value),
          cvv_optional: fc.oneof(fc.constant(true), value),
          extra: value,
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(payload, (candidate) => {
        assert.deepEqual(readOrderAnswer(candidate), zodReads(candidate));
      }),
      { numRuns: 3000 },
    );
  });
});
