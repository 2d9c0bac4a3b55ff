/**
 * Bad input, whatever it is: every browser route is sent its valid request with one field replaced
 * by any JSON value (or removed, or joined by one it does not know), and bodies that are not a
 * request at all. Property-based (fast-check), against the fake gateway and a memory store.
 *
 * What a merchant relies on, checked for each request:
 *  - the endpoint never fails inside (no 5xx but the gateway's own, which the fake never sends);
 *  - a refusal has a code and a message in the request's language (Arabic letters for `ar`, none
 *    for `en`), and never repeats what was sent;
 *  - a request refused as invalid names the field, and changes nothing: no call to the gateway,
 *    no watch, no result.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EMBEDDED_CONFIRM_ROUTE, ROUTES } from '../../src/core/endpoint-routes.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { GOOD_OTP } from './fake-gateway.ts';
import { BASE_PATH, setup, SHOP_ORIGIN, type Answer, type Harness } from './harness.ts';

const ORDER = { merchant_reference: 'order-1001' } as const;
const ARABIC = /[\u0600-\u06FF]/;

/** Refusals of the request itself: the field is named, and nothing was done. */
const INPUT_REFUSALS = new Set(['invalid_request', 'card_data_refused', 'command_refused']);

/** The fields each route takes besides `merchant_reference` and `language`, as a valid request sends them. */
async function validRequests(harness: Harness, order: { readonly merchant_reference: string } = ORDER): Promise<Record<string, Record<string, unknown>>> {
  const flowOf = async (route: string, body: Record<string, unknown>): Promise<string> => {
    const answer = await harness.post(route, { ...order, language: 'en', ...body });
    assert.equal(answer.status, 200, `${route}: ${JSON.stringify(answer.body)}`);
    return String((answer.body as { flow: string }).flow);
  };
  const verified = await flowOf(ROUTES.financingVerifyCustomer, { phone_number: '+201001234567' });
  const sent = await flowOf(ROUTES.financingOtp, { flow: verified });
  const checked = await flowOf(ROUTES.financingVerifyOtp, { flow: sent, otp: GOOD_OTP });
  return {
    [ROUTES.order]: { amount: 250_000, currency: 'EGP' },
    [ROUTES.hostedPage]: { command: 'PURCHASE', installments: 'STANDALONE', customer_email: 'buyer@example.com' },
    [ROUTES.merchantPage]: { command: 'AUTHORIZATION', plan_code: 'PLAN12', issuer_code: 'ISSUER1', framed: true },
    [ROUTES.saveCard]: { framed: true },
    [ROUTES.installmentPlans]: { amount: 250_000 },
    [ROUTES.bill]: { customer_name: 'Mona Adel', customer_email: 'buyer@example.com' },
    [ROUTES.financingVerifyCustomer]: { phone_number: '+201001234567' },
    [ROUTES.financingOtp]: { flow: verified },
    [ROUTES.financingVerifyOtp]: { flow: sent, otp: GOOD_OTP },
    [ROUTES.financingPurchase]: { flow: checked, tenure: 12, customer_email: 'buyer@example.com' },
    [ROUTES.status]: {},
  };
}

/** Values a browser, a proxy or an attacker might put in a field, beyond fast-check's JSON. */
const odd = fc.constantFrom<unknown>(
  '',
  ' ',
  'x'.repeat(5_000),
  '\u0000',
  '\u202e',
  '٠١٢٣',
  '4111111111111111',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  -1,
  0,
  1.5,
  2 ** 53 + 2,
  1e300,
  true,
  null,
  [],
  {},
  { card_number: '4111111111111111' },
  ['PURCHASE'],
  'order-1001.pg2',
);
const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), odd);

type Change =
  | { readonly kind: 'replace'; readonly field: string; readonly value: unknown }
  | { readonly kind: 'remove'; readonly field: string }
  | { readonly kind: 'add'; readonly field: string; readonly value: unknown };

function changeOf(fields: readonly string[]): fc.Arbitrary<Change> {
  const field = fc.constantFrom(...fields);
  return fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), field, value: anyValue }),
    fc.record({ kind: fc.constant('remove' as const), field }),
    fc.record({
      kind: fc.constant('add' as const),
      field: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('signature', 'access_code', 'card_security_code', '__proto__', 'constructor')),
      value: anyValue,
    }),
  );
}

function applied(body: Readonly<Record<string, unknown>>, change: Change): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body };
  if (change.kind === 'remove') delete copy[change.field];
  else Object.defineProperty(copy, change.field, { value: change.value, enumerable: true, writable: true, configurable: true });
  return copy;
}

interface Before {
  readonly calls: number;
  readonly watches: string;
  readonly results: number;
}

async function snapshot(harness: Harness, store: ReturnType<typeof createMemoryStore>): Promise<Before> {
  return {
    calls: harness.gateway.calls.length,
    watches: JSON.stringify(await store.watches.list({ limit: 1000 })),
    results: harness.results.length,
  };
}

/** What every answer must be, and, for a refused input, that nothing changed. */
async function checkAnswer(answer: Answer, language: unknown, sent: string, before: Before, harness: Harness, store: ReturnType<typeof createMemoryStore>) {
  assert.ok(answer.status < 500, `${answer.status}: ${JSON.stringify(answer.body)}`);
  if (answer.status === 200) return;
  const error = (answer.body as { error?: { code?: unknown; message?: unknown; field?: unknown } }).error;
  assert.equal(typeof error?.code, 'string', JSON.stringify(answer.body));
  assert.equal(typeof error?.message, 'string');
  const message = String(error?.message);
  assert.ok(message.length > 0);
  if (language === 'ar') assert.match(message, ARABIC, `not in Arabic: ${message}`);
  if (language === 'en') assert.doesNotMatch(message, ARABIC, `not in English: ${message}`);
  // Never repeats a long value that was sent (a card number, a script, a field's text).
  for (const echoed of sent.match(/[^"{}[\]:,]{12,}/g) ?? []) {
    if (/^[a-z_]+$/.test(echoed)) continue; // a field's own name
    assert.equal(message.includes(echoed), false, `the message repeats ${echoed}`);
  }
  if (INPUT_REFUSALS.has(String(error?.code))) {
    assert.equal(typeof error?.field, 'string', `a refused input names its field: ${JSON.stringify(answer.body)}`);
    assert.ok(String(error?.field).length > 0);
    assert.deepEqual(await snapshot(harness, store), before, 'a refused input changes nothing');
  }
}

describe('bad input, whatever it is', () => {
  it('gets a clear refusal in the request\'s language from every route, naming the field, and changes nothing', async () => {
    const store = createMemoryStore();
    // The merchant page's valid request asks for an AUTHORIZATION, which this shop allows.
    const harness = setup({ store, resultLedger: undefined, paymentCommands: ['PURCHASE', 'AUTHORIZATION'] });
    let orders = 0;
    for (const [route, first] of Object.entries(await validRequests(harness))) {
      const fields = ['merchant_reference', 'language', 'amount', 'currency', ...Object.keys(first)];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('en', 'ar'), changeOf([...new Set(fields)]), async (language, change) => {
          // A financing step gets a new order and flow for each run: a spent or expired flow, or an
          // order another run left a bill on, would refuse every change alike.
          const financing = route.startsWith('/financing/');
          const order = financing ? harness.orders.add({ merchant_reference: `fuzz-${++orders}`, amount: 250_000, currency: 'EGP' }) : ORDER;
          const extra = financing ? (await validRequests(harness, order))[route]! : first;
          const body = applied({ merchant_reference: order.merchant_reference, language, ...extra }, change);
          const sent = JSON.stringify(body);
          const before = await snapshot(harness, store);
          const answer = await harness.post(route, sent);
          const named = typeof body['language'] === 'string' && ['en', 'ar'].includes(body['language']) ? body['language'] : undefined;
          await checkAnswer(answer, named, sent, before, harness, store);
          // Keep each run's OTP and bill limits and orders apart from the next.
          harness.advance(61 * 60_000);
        }),
        { numRuns: 120, seed: 250_2026, endOnFailure: true },
      );
    }
  });

  it('refuses what is not a request at all, in the language the browser asks for, and changes nothing', async () => {
    const store = createMemoryStore();
    const harness = setup({ store, resultLedger: undefined });
    const notRequests = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).filter((value) => value === null || typeof value !== 'object' || Array.isArray(value)).map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 200 }),
      fc.constantFrom('', '{', '{"merchant_reference":', '\u0000', '[{}]', '{"a":' + '['.repeat(5_000) + ']'.repeat(5_000) + '}', 'null'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.values(ROUTES).filter((route) => route !== ROUTES.gatewayReturn)), fc.constantFrom('en', 'ar'), notRequests, async (route, language, text) => {
        const before = await snapshot(harness, store);
        const answer = await harness.post(route, text, { headers: { 'accept-language': language } });
        assert.equal(answer.status, 400, `${route} ${JSON.stringify(text).slice(0, 80)}: ${answer.status} ${JSON.stringify(answer.body)}`);
        await checkAnswer(answer, language, text, before, harness, store);
      }),
      { numRuns: 300, seed: 250_2026, endOnFailure: true },
    );
  });

  it('takes no forged or broken return from the gateway: nothing is recorded or reported, and nothing fails inside', async () => {
    const store = createMemoryStore();
    const harness = setup({ store, resultLedger: undefined });
    const field = fc.oneof(
      fc.constantFrom('merchant_reference', 'response_code', 'status', 'signature', 'amount', 'currency', 'svc_id', 'command', 'language', 'merchant_extra4', 'token_name'),
      fc.string({ maxLength: 12 }),
    );
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('order-1001', '14000', '02000', '00005', 'f'.repeat(64), '250000', 'EGP', 'ELEMENT', ''));
    const form = fc.dictionary(field, value, { maxKeys: 12 });
    await fc.assert(
      fc.asyncProperty(form, fc.boolean(), async (fields, asQuery) => {
        const before = await snapshot(harness, store);
        const text = new URLSearchParams(fields).toString();
        const url = `${SHOP_ORIGIN}${BASE_PATH}${ROUTES.gatewayReturn}${asQuery ? `?${text}` : ''}`;
        const request = asQuery
          ? new Request(url)
          : new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: text });
        const answer = await harness.send(request);
        assert.ok(answer.status < 500, `${answer.status}: ${String(answer.body).slice(0, 200)}`);
        assert.equal(harness.results.length, before.results, 'nothing reported');
        assert.equal((await store.results.list({ state: 'all', limit: 10 })).length, 0, 'nothing recorded');
      }),
      { numRuns: 300, seed: 250_2026, endOnFailure: true },
    );
  });

  it('charges nothing for a forged or broken embedded confirmation: no call to the gateway, nothing recorded', async () => {
    const store = createMemoryStore();
    const harness = setup({ store, resultLedger: undefined });
    const field = fc.oneof(fc.constantFrom('merchant_reference', 'card', 'language'), fc.string({ maxLength: 12 }));
    const value = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('order-1001', 'ar', 'v1.' + 'A'.repeat(80), ''), fc.base64String({ maxLength: 200 }));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(field, value, { maxKeys: 6 }), async (fields) => {
        const before = await snapshot(harness, store);
        const answer = await harness.send(
          new Request(`${SHOP_ORIGIN}${BASE_PATH}${EMBEDDED_CONFIRM_ROUTE}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(fields).toString(),
          }),
        );
        assert.ok(answer.status < 500, `${answer.status}: ${String(answer.body).slice(0, 200)}`);
        assert.deepEqual(await snapshot(harness, store), before, 'nothing sent, watched or reported');
      }),
      { numRuns: 200, seed: 250_2026, endOnFailure: true },
    );
  });
});
