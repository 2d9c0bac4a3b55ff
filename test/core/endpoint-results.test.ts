/**
 * The browser's half of the endpoint contract (src/core/endpoint-results.ts) refuses what it
 * refused when its checks were zod's built-in ones (`z.int()`, `z.nonnegative()`, `z.regex()`,
 * `z.minLength()`, `z.enum()`): each of its refinements is compared, value by value, with the
 * built-in check it replaced, and a malformed answer of each route is refused.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as z from 'zod/mini';
import {
  billCall,
  checkedFramedMessage,
  checkedRefusal,
  checkedResult,
  formPostResult,
  framedHeightMessage,
  framedResultMessage,
  framedThreeDsMessage,
  hostedPageCall,
  installmentPlansCall,
  minorUnits,
  orderCall,
  orderResult,
  paymentResult,
  statusCall,
} from '../../src/core/endpoint-results.ts';
import { FRAMED_MESSAGE_TYPES } from '../../src/core/endpoint-routes.ts';
import { read, type Shape } from '../../src/core/shape.ts';

/** Whether a shape of the contract, or the zod check it replaced, takes the value. */
const accepts = (schema: z.ZodMiniType | Shape<unknown>, value: unknown): boolean =>
  typeof schema === 'function' ? read(schema, value) !== undefined : z.safeParse(schema, value).success;

/** Numbers at every edge the int and nonnegative checks have, and values of other types. */
const NUMBER_EDGES: unknown[] = [
  0, -0, 1, -1, 0.5, -0.5, 1.5, 10_000, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, Number.MIN_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER - 1, 2 ** 60, -(2 ** 60), Number.EPSILON, Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity,
  '1', '', null, undefined, true, [], {}, 1n,
];
const anyNumber = fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger(), fc.constantFrom(...NUMBER_EDGES));

describe('the contract’s refinements refuse what zod’s built-in checks refused', () => {
  it('minor units: a safe, non-negative integer (z.int() and z.nonnegative())', () => {
    const builtIn = z.number().check(z.int(), z.nonnegative());
    for (const value of NUMBER_EDGES) assert.equal(accepts(minorUnits, value), accepts(builtIn, value), String(value));
    fc.assert(fc.property(anyNumber, (value) => accepts(minorUnits, value) === accepts(builtIn, value)));
  });

  it('an installment plan’s whole numbers (z.int())', () => {
    const builtIn = z.int();
    const plan = (count: unknown) => ({
      merchant_reference: 'o-1',
      amount: 100,
      currency: 'EGP',
      issuers: [
        {
          issuer_code: 'BANK',
          issuer_name_ar: 'بنك',
          issuer_name_en: 'Bank',
          country_code: 'EGY',
          banking_system: 'Non Islamic',
          bins: [],
          plan_details: [
            {
              plan_code: 'P6',
              currency_code: 'EGP',
              number_of_installment: count,
              fees_type: 'Percentage',
              fees_amount: 0,
              rate_type: 'Flat',
              plan_merchant_type: 'x',
              plan_type: 'y',
              fee_display_value: 0,
              minimum_amount: 0,
              maximum_amount: 1,
            },
          ],
        },
      ],
    });
    const check = (value: unknown) => checkedResult(installmentPlansCall, plan(value)) !== undefined;
    for (const value of NUMBER_EDGES) assert.equal(check(value), accepts(builtIn, value), String(value));
    fc.assert(fc.property(anyNumber, (value) => check(value) === accepts(builtIn, value)));
  });

  it('a frame’s height (z.nonnegative())', () => {
    const builtIn = z.number().check(z.nonnegative());
    const check = (height: unknown) => accepts(framedHeightMessage, { type: FRAMED_MESSAGE_TYPES.height, height });
    for (const value of NUMBER_EDGES) assert.equal(check(value), accepts(builtIn, value), String(value));
    fc.assert(fc.property(anyNumber, (value) => check(value) === accepts(builtIn, value)));
  });

  const strings = (...edges: string[]) => fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom(...edges));

  it('a currency code (z.regex(/^[A-Z]{3}$/))', () => {
    const builtIn = z.string().check(z.regex(/^[A-Z]{3}$/));
    const check = (currency: unknown) => accepts(orderResult, { merchant_reference: 'o-1', amount: 100, currency });
    const edges = ['EGP', 'egp', 'EG', 'EGPP', 'EGP\n', ' EGP', 'ÉGP', '', '123'];
    for (const value of [...edges, 1, null]) assert.equal(check(value), accepts(builtIn, value), String(value));
    fc.assert(fc.property(strings(...edges), (value) => check(value) === accepts(builtIn, value)));
  });

  it('a form’s action (z.minLength(1))', () => {
    const builtIn = z.string().check(z.minLength(1));
    const check = (action: unknown) => accepts(formPostResult, { action, method: 'POST', fields: {} });
    const edges = ['', ' ', '\n', '/pay', '\u{1F600}'];
    for (const value of [...edges, 1, null]) assert.equal(check(value), accepts(builtIn, value), String(value));
    fc.assert(fc.property(strings(...edges), (value) => check(value) === accepts(builtIn, value)));
  });

  it('a card’s last four digits (z.regex(/^\\d{4}$/)) and a 3-D Secure URL (z.regex(/^https?:\\/\\//))', () => {
    const lastFour = z.string().check(z.regex(/^\d{4}$/));
    const url = z.string().check(z.regex(/^https?:\/\//));
    const result = (last_four: unknown) =>
      accepts(framedResultMessage, {
        type: FRAMED_MESSAGE_TYPES.result,
        intent: 'save-card',
        outcome: 'success',
        message: 'Saved',
        card: { brand: 'VISA', last_four },
      });
    const threeDs = (value: unknown) =>
      accepts(framedThreeDsMessage, { type: FRAMED_MESSAGE_TYPES.threeDs, merchant_reference: 'o-1', url: value });
    const digits = ['1234', '123', '12345', '１２３４', '12a4', '1234\n', ''];
    const urls = ['https://bank.test/acs', 'http://x', 'HTTPS://x', 'javascript:alert(1)', ' https://x', 'https:/x', ''];
    for (const value of [...digits, 1234, null]) assert.equal(result(value), accepts(lastFour, value), String(value));
    for (const value of [...urls, null]) assert.equal(threeDs(value), accepts(url, value), String(value));
    fc.assert(fc.property(strings(...digits), (value) => result(value) === accepts(lastFour, value)));
    fc.assert(fc.property(strings(...urls), (value) => threeDs(value) === accepts(url, value)));
  });

  it('an outcome and an intent (z.enum())', () => {
    const outcome = z.enum(['success', 'pending', 'failure']);
    const intent = z.enum(['pay', 'save-card']);
    const payment = (value: unknown) =>
      accepts(paymentResult, { merchant_reference: 'o-1', outcome: value, response_code: '14000', response_message: 'ok', status: '14' });
    const framed = (value: unknown) =>
      accepts(framedResultMessage, { type: FRAMED_MESSAGE_TYPES.result, intent: value, outcome: 'success', message: 'ok' });
    for (const value of ['success', 'pending', 'failure', 'Success', 'succes', '', 'pay', 'save-card', 'save_card', null, 1, ['pay']]) {
      assert.equal(payment(value), accepts(outcome, value), String(value));
      assert.equal(framed(value), accepts(intent, value), String(value));
    }
  });
});

describe('a malformed answer is refused', () => {
  const order = { merchant_reference: 'o-1', amount: 10_000, currency: 'EGP', description: 'Shoes' };

  it('takes a well-formed answer and drops what the contract does not name', () => {
    assert.deepEqual(checkedResult(orderCall, { ...order, card_number: '4005550000000001' }), order);
  });

  for (const [what, answer] of [
    ['a fractional amount', { ...order, amount: 100.5 }],
    ['a negative amount', { ...order, amount: -1 }],
    ['an amount as text', { ...order, amount: '100' }],
    ['an unsafe amount', { ...order, amount: 2 ** 53 }],
    ['a lower-case currency', { ...order, currency: 'egp' }],
    ['no merchant reference', { amount: 1, currency: 'EGP' }],
    ['a number as description', { ...order, description: 1 }],
    ['no object', 'o-1'],
  ] as const) {
    it(`the order with ${what}`, () => assert.equal(checkedResult(orderCall, answer), undefined));
  }

  it('a form post with an empty action, another method or a field that is not text', () => {
    const form = { action: 'https://gateway.test/pay', method: 'POST', fields: { amount: '10000' } };
    assert.deepEqual(checkedResult(hostedPageCall, form), form);
    assert.equal(checkedResult(hostedPageCall, { ...form, action: '' }), undefined);
    assert.equal(checkedResult(hostedPageCall, { ...form, method: 'GET' }), undefined);
    assert.equal(checkedResult(hostedPageCall, { ...form, fields: { amount: 10_000 } }), undefined);
    assert.equal(checkedResult(hostedPageCall, { ...form, fields: ['a'] }), undefined);
  });

  it('a bill in another currency than EGP, and a status with a fractional amount', () => {
    const bill = { merchant_reference: 'o-1', bill_number: 'B1', amount: 100, currency: 'EGP', payment_partner: 'p', request_expiry_date: 'd' };
    assert.deepEqual(checkedResult(billCall, bill), bill);
    assert.equal(checkedResult(billCall, { ...bill, currency: 'USD' }), undefined);
    assert.equal(checkedResult(statusCall, { merchant_reference: 'o-1', captured_amount: 1.5 }), undefined);
  });

  it('a refusal without its code, and a framed message of an unknown type or with a negative height', () => {
    assert.deepEqual(checkedRefusal({ error: { code: 'unknown_order', message: 'No such order' } }), { code: 'unknown_order', message: 'No such order' });
    assert.equal(checkedRefusal({ error: { message: 'No such order' } }), undefined);
    assert.equal(checkedFramedMessage({ type: 'pg-checkout:other', height: 10 }), undefined);
    assert.equal(checkedFramedMessage({ type: FRAMED_MESSAGE_TYPES.height, height: -1 }), undefined);
    assert.deepEqual(checkedFramedMessage({ type: FRAMED_MESSAGE_TYPES.height, height: 10 }), { type: FRAMED_MESSAGE_TYPES.height, height: 10 });
  });
});
