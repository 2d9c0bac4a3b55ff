import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as z from 'zod/mini';
import * as endpointApi from '../../src/core/endpoint-api.ts';
import { validate } from '../../src/core/field-errors.ts';
import * as schemas from '../../src/core/schemas/index.ts';
import { compiled, isCompiled } from '../../src/gateway/compiled.ts';

/** Every zod schema of the core's gateway messages and of the endpoint contract, by export name. */
const ALL_SCHEMAS = Object.entries<unknown>({ ...schemas, ...endpointApi }).filter(
  (entry): entry is [string, z.ZodMiniType] => typeof entry[1] === 'object' && entry[1] !== null && '_zod' in entry[1],
);

const identity = { access_code: 'zx0IPmPy5jp1vAz8Kpg7', merchant_identifier: 'CycHZxVj' };
const signature = 'a'.repeat(64);

/** What the endpoint checks for `POST /hosted-page`, each valid as it is. */
const HOT_PATH: ReadonlyArray<readonly [string, z.ZodMiniType, Record<string, unknown>]> = [
  ['the browser’s hosted-page request', endpointApi.hostedPageRequest, { merchant_reference: 'BENCH-0001', language: 'en', command: 'PURCHASE' }],
  [
    'the CHECK_STATUS answer',
    schemas.checkStatusResponse,
    {
      query_command: 'CHECK_STATUS',
      ...identity,
      merchant_reference: 'BENCH-0001',
      language: 'en',
      response_code: '12001',
      response_message: 'Order not found',
      status: '12',
      signature,
    },
  ],
  [
    'the signed PURCHASE form',
    schemas.hostedPaymentRequest,
    {
      command: 'PURCHASE',
      ...identity,
      merchant_reference: 'BENCH-0001',
      amount: '10000',
      currency: 'AED',
      language: 'en',
      customer_email: 'customer@example.com',
      order_description: 'Benchmark order',
      return_url: 'http://127.0.0.1:9/return',
      signature,
    },
  ],
];

/** Values that fit some fields and break others: empty, too long, wrong type, other scripts. */
const VALUES: readonly unknown[] = [
  '',
  'PURCHASE',
  'AUTHORIZATION',
  'CHECK_STATUS',
  'en',
  'ar',
  'fr',
  '10000',
  '-5',
  '1.5',
  'AED',
  'aed',
  'BENCH-0001',
  'customer@example.com',
  'not an email',
  'http://127.0.0.1:9/return',
  '12001',
  '14000',
  '14',
  signature,
  'x'.repeat(300),
  'مرحبا',
  '١٢٣',
  10000,
  -1,
  1.5,
  true,
  null,
  [],
  ['a'],
  {},
  { name: 'x' },
];

/** The same outcome, whichever parser answered: accepted with equal data, or refused with equal issues. */
function assertSameParse(schema: z.ZodMiniType, input: unknown): void {
  const expected = schema.safeParse(input);
  const actual = compiled(schema).safeParse(input);
  assert.equal(actual.success, expected.success, `accept/refuse of ${JSON.stringify(input)}`);
  if (expected.success && actual.success) assert.deepEqual(actual.data, expected.data);
  if (!expected.success && !actual.success) assert.deepEqual(actual.error.issues, expected.error.issues);
  for (const language of ['en', 'ar'] as const) {
    assert.deepEqual(validate(compiled(schema), input, language), validate(schema, input, language));
  }
}

/** An object with some of the schema's own keys (and perhaps one it does not know), each set to one of VALUES. */
function messagesFor(schema: z.ZodMiniType): fc.Arbitrary<Record<string, unknown>> {
  const shape = (schema._zod.def as { shape?: Record<string, unknown> }).shape ?? {};
  const keys = [...Object.keys(shape), 'unknown_field'];
  return fc.dictionary(fc.constantFrom(...keys), fc.constantFrom(...VALUES), { maxKeys: keys.length });
}

describe('compiled schemas', () => {
  it('compiles the schemas the hosted-page route parses on every request', () => {
    for (const [name, schema] of HOT_PATH) assert.ok(isCompiled(schema), name);
  });

  it('keeps zod’s interpreter for a schema with a check of its own `when` (CHECK_STATUS’s request)', () => {
    assert.equal(compiled(schemas.checkStatusRequest), schemas.checkStatusRequest);
  });

  it('compiles each schema once', () => {
    assert.equal(compiled(schemas.hostedPaymentRequest), compiled(schemas.hostedPaymentRequest));
  });

  it('keeps the interpreter when zod is configured jitless', () => {
    const schema = z.object({ name: z.string() });
    z.config({ jitless: true });
    try {
      assert.equal(compiled(schema), schema);
    } finally {
      z.config({ jitless: false });
    }
  });

  it('keeps the interpreter in a browser page, whose CSP may forbid generated code', () => {
    const schema = z.object({ name: z.string() });
    const global = globalThis as { document?: unknown };
    global.document = {};
    try {
      assert.equal(compiled(schema), schema);
    } finally {
      delete global.document;
    }
    assert.ok(isCompiled(z.object({ name: z.string() })), 'compiled outside a page');
  });

  describe('accept and refuse exactly as the interpreter does', () => {
    for (const [name, schema, valid] of HOT_PATH) {
      it(`${name}: the valid message and each field dropped, emptied, retyped or added`, () => {
        assert.equal(schema.safeParse(valid).success, true, 'the sample is valid');
        assertSameParse(schema, valid);
        for (const key of Object.keys(valid)) {
          const { [key]: _dropped, ...without } = valid;
          assertSameParse(schema, without);
          for (const value of VALUES) assertSameParse(schema, { ...valid, [key]: value });
        }
        assertSameParse(schema, { ...valid, unknown_field: 'x' });
      });
    }

    describe('every schema of the core and the contract, on generated messages and on non-objects', () => {
      for (const [name, schema] of ALL_SCHEMAS) {
        it(name, () => {
          for (const value of VALUES) assertSameParse(schema, value);
          fc.assert(
            fc.property(messagesFor(schema), (message) => assertSameParse(schema, message)),
            { numRuns: 40, seed: 14 },
          );
        });
      }
    });
  });
});
