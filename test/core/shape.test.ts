/**
 * Shapes (src/core/shape.ts, shape-lists.ts), which the page reads the endpoint's answers with, read as the zod
 * schemas they replaced: each combinator is held to its zod twin's verdict and output on chosen
 * edges and on any value (a property). Outputs are compared as JSON, which is what the page got.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as z from 'zod/mini';
import * as base from '../../src/core/shape.ts';
import * as lists from '../../src/core/shape-lists.ts';
import { parse, read, readAt, type Shape } from '../../src/core/shape.ts';

import { installmentsPlansResponse } from '../../src/core/schemas/installments.ts';

const shape = { ...base, ...lists };

/** As JSON carries it; a big integer a loose object passes on (both sides alike) is written as `1n`. */
const asJson = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value, (_key, entry: unknown) => (typeof entry === 'bigint' ? `${entry}n` : entry)));
const zodReads = (schema: z.ZodMiniType, value: unknown): unknown => {
  const parsed = z.safeParse(schema, value);
  return parsed.success ? asJson(parsed.data) : undefined;
};

/** Values of every JSON kind and the edges numbers and text have. */
const EDGES: unknown[] = [
  0, -0, 1, -1, 0.5, 2 ** 53, NaN, Infinity, -Infinity, '', 'a', 'EGP', '1', true, false, null, undefined, [], [1], {}, { a: 1 }, 1n,
];
const anyValue = fc.oneof(fc.anything(), fc.constantFrom(...EDGES), fc.double(), fc.string());

/**
 * An object with an own key `__proto__` is the one value they read apart: the shapes keep it as a
 * key, where zod's record assigns it and sets the copy's prototype (tested below on its own).
 */
const hasProtoKey = (value: unknown): boolean => typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__');

function agree<T>(ours: Shape<T>, theirs: z.ZodMiniType, values: fc.Arbitrary<unknown>): void {
  for (const value of EDGES) assert.deepEqual(asJson(read(ours, value)), zodReads(theirs, value), String(value));
  const comparable = values.filter((value) => !hasProtoKey(value));
  fc.assert(fc.property(comparable, (value) => assert.deepEqual(asJson(read(ours, value)), zodReads(theirs, value))));
}

describe('shapes read as zod does', () => {
  it('string, number (finite only), boolean', () => {
    agree(shape.string, z.string(), anyValue);
    agree(shape.number, z.number(), anyValue);
    agree(shape.boolean, z.boolean(), anyValue);
  });

  it('literal and a refined value', () => {
    agree(shape.literal('pay', 'save-card'), z.literal(['pay', 'save-card']), fc.oneof(anyValue, fc.constantFrom('pay', 'save-card', 'Pay')));
    agree(shape.literal(true), z.literal(true), anyValue);
    agree(shape.is(shape.number, (n) => n >= 0), z.number().check(z.nonnegative()), anyValue);
  });

  it('an object keeps only its fields, a loose one all; optional and nullish fields may be absent', () => {
    const fields = { a: shape.string, b: shape.optional(shape.number), c: shape.nullish(shape.string) };
    const zodFields = { a: z.string(), b: z.optional(z.number()), c: z.nullish(z.string()) };
    const objects = fc.oneof(
      anyValue,
      fc.record({ a: fc.oneof(fc.string(), anyValue), b: fc.oneof(fc.integer(), anyValue), c: fc.oneof(fc.string(), fc.constant(null), anyValue), d: anyValue }, { requiredKeys: [] }),
    );
    agree(shape.object(fields), z.object(zodFields), objects);
    agree(shape.object(fields, true), z.looseObject(zodFields), objects);
  });

  it('array, record and union', () => {
    agree(shape.array(shape.number), z.array(z.number()), fc.oneof(anyValue, fc.array(fc.oneof(fc.integer(), anyValue))));
    agree(shape.record(shape.string), z.record(z.string(), z.string()), fc.oneof(anyValue, fc.dictionary(fc.string(), fc.oneof(fc.string(), anyValue))));
    agree(shape.union(shape.number, shape.string), z.union([z.number(), z.string()]), anyValue);
  });

  it('a key named __proto__ stays a key and never becomes the prototype', () => {
    const fields = read(shape.record(shape.string), JSON.parse('{"__proto__":"x","a":"b"}'));
    assert.equal(Object.getPrototypeOf(fields), Object.prototype);
    assert.deepEqual(Object.keys(fields ?? {}), ['__proto__', 'a']);
  });
});

describe('where a shape refuses', () => {
  const answer = shape.object({ items: shape.array(shape.object({ code: shape.string })) });

  it('names the path from the outside in, for the server\'s log and parse()', () => {
    assert.deepEqual(readAt(answer, { items: [{ code: 'a' }, { code: 7 }] }), { ok: false, path: ['items', 1, 'code'] });
    assert.deepEqual(readAt(answer, { items: [{ code: 'a' }] }), { ok: true, value: { items: [{ code: 'a' }] } });
    assert.throws(() => parse(answer, { items: 'no' }), /at items/);
  });

  it('the gateway\'s plans answer refuses a malformed issuer at its path, through zod', () => {
    const parsed = z.safeParse(installmentsPlansResponse, {
      query_command: 'GET_INSTALLMENTS_PLANS',
      access_code: 'zx0IPmPy5jp1vAz8Kpg7',
      merchant_identifier: 'CycHZxVj',
      signature: 'a'.repeat(64),
      response_code: '62000',
      response_message: 'Success',
      status: '62',
      installment_detail: { issuer_detail: [{ issuer_code: 7 }] },
    });
    assert.equal(parsed.success, false);
    assert.deepEqual(parsed.error?.issues.map((issue) => issue.path.join('.')), ['installment_detail.issuer_detail.0.issuer_code']);
  });
});
