/**
 * The gateway's answer, broken or forged in any way on its way back: one field changed, dropped or
 * added after signing, the signature removed, the text cut short, HTML or an empty body instead of
 * JSON, another content type. Property-based (fast-check), the fake gateway's real signed answers
 * mutated before the endpoint reads them.
 *
 * What a merchant relies on: the endpoint never fails inside (no 500), tells the customer in their
 * language, and uses nothing it could not verify: a bill is shown only with the number the gateway
 * signed, and a financing purchase is reported paid only when the gateway's signed answer says so.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ROUTES } from '../../src/core/endpoint-routes.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { GOOD_OTP } from './fake-gateway.ts';
import { setup, type Harness } from './harness.ts';

const ARABIC = /[\u0600-\u06FF]/;

type Mutation =
  | { readonly kind: 'change'; readonly pick: number; readonly value: unknown }
  | { readonly kind: 'drop'; readonly pick: number }
  | { readonly kind: 'add'; readonly name: string; readonly value: unknown }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'cut'; readonly keep: number }
  | { readonly kind: 'content-type'; readonly type: string };

const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom<unknown>('', '14000', '00000', '99999999999999', -1, 1e21, null));
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('change' as const), pick: fc.nat(), value }),
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), name: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('bill_number', 'status', 'response_code')), value }),
  fc.record({ kind: fc.constant('text' as const), text: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('', '<html>ok</html>', 'null', '[]', '{}', '"14000"')) }),
  fc.record({ kind: fc.constant('cut' as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant('content-type' as const), type: fc.constantFrom('text/html', 'text/plain', 'application/xml') }),
);

/** The answer's text after `mutation`, and whether what it says is still the gateway's signed word. */
function mutated(text: string, change: Mutation): { readonly text: string; readonly intact: boolean; readonly contentType?: string } {
  if (change.kind === 'text') return { text: change.text, intact: false };
  if (change.kind === 'cut') return { text: text.slice(0, change.keep % Math.max(1, text.length)), intact: false };
  if (change.kind === 'content-type') return { text, intact: true, contentType: change.type };
  const signed = JSON.parse(text) as Record<string, unknown>;
  const names = Object.keys(signed);
  if (change.kind === 'add') {
    // A field the gateway did not sign, or one it did, given again with another value. A new field
    // that is null says nothing: null means "not sent", on the wire as in the signature.
    const same = change.name in signed ? JSON.stringify(signed[change.name]) === JSON.stringify(change.value) : change.value === null;
    return { text: JSON.stringify({ ...signed, [change.name]: change.value }), intact: same };
  }
  const name = names[change.pick % names.length]!;
  if (change.kind === 'drop') {
    const { [name]: _dropped, ...rest } = signed;
    return { text: JSON.stringify(rest), intact: false };
  }
  const same = JSON.stringify(signed[name]) === JSON.stringify(change.value);
  return { text: JSON.stringify({ ...signed, [name]: change.value }), intact: same };
}

/** The fake gateway, with the answer to `operation` passed through `current.change` first. */
function mutatingGateway(operation: string) {
  const current: { change?: Mutation; intact: boolean; original?: Record<string, unknown> } = { intact: true };
  let harness!: Harness;
  const fetchThrough: typeof fetch = async (input, init) => {
    const answer = await harness.gateway.fetch(input, init);
    const params = JSON.parse(String(init?.body)) as Record<string, string>;
    const asked = params['service_command'] ?? params['query_command'] ?? params['command'];
    if (asked !== operation || !current.change) return answer;
    const text = await answer.text();
    current.original = JSON.parse(text) as Record<string, unknown>;
    const changed = mutated(text, current.change);
    current.intact = changed.intact;
    return new Response(changed.text, { status: answer.status, headers: { 'content-type': changed.contentType ?? 'application/json; charset=utf-8' } });
  };
  return {
    current,
    fetch: fetchThrough,
    connect(to: Harness) {
      harness = to;
    },
  };
}

/** The endpoint on a memory store, its answers to `operation` mutated, and a new EGP order for each run. */
function mutatedWorld(operation: string) {
  const gateway = mutatingGateway(operation);
  const harness = setup({ store: createMemoryStore(), resultLedger: undefined, fetch: gateway.fetch });
  gateway.connect(harness);
  let orders = 0;
  // A new order each time: what one answer left behind does not decide the next.
  const newOrder = (prefix: string): string => harness.orders.add({ merchant_reference: `${prefix}-${++orders}`, amount: 250_000, currency: 'EGP' }).merchant_reference;
  return { gateway, harness, newOrder };
}

function checkRefusal(status: number, body: unknown, language: 'en' | 'ar') {
  assert.notEqual(status, 500, `failed inside: ${JSON.stringify(body)}`);
  if (status === 200) return;
  const message = String((body as { error?: { message?: unknown } }).error?.message ?? '');
  assert.ok(message.length > 0, JSON.stringify(body));
  if (language === 'ar') assert.match(message, ARABIC);
  else assert.doesNotMatch(message, ARABIC);
}

describe("the gateway's answer, broken or forged on its way back", () => {
  it('never shows a bill number the gateway did not sign, and never fails inside', async () => {
    const { gateway, harness, newOrder } = mutatedWorld('BILL_PRESENTMENT');
    await fc.assert(
      fc.asyncProperty(mutation, fc.constantFrom('en' as const, 'ar' as const), async (change, language) => {
        gateway.current.change = change;
        const merchant_reference = newOrder('bad-bill');
        const { status, body } = await harness.post(ROUTES.bill, { merchant_reference, language });
        checkRefusal(status, body, language);
        if (status === 200) {
          assert.ok(gateway.current.intact, `a bill shown from an answer that was not the gateway's own: ${JSON.stringify(change)}`);
          assert.equal((body as { bill_number: string }).bill_number, gateway.current.original?.['bill_number']);
        }
      }),
      { numRuns: 200, seed: 250_2026, endOnFailure: true },
    );
  });

  it('reports a financing purchase paid only from the gateway\'s signed answer, and never fails inside', async () => {
    const { gateway, harness, newOrder } = mutatedWorld('PURCHASE');
    await fc.assert(
      fc.asyncProperty(mutation, fc.constantFrom('en' as const, 'ar' as const), async (change, language) => {
        const merchant_reference = newOrder('bad-purchase');
        const order = { merchant_reference, language };
        const step = async (route: string, extra: Record<string, unknown>) => {
          const answer = await harness.post(route, { ...order, ...extra });
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          return String((answer.body as { flow: string }).flow);
        };
        const verified = await step(ROUTES.financingVerifyCustomer, { phone_number: '+201001234567' });
        const sent = await step(ROUTES.financingOtp, { flow: verified });
        const checked = await step(ROUTES.financingVerifyOtp, { flow: sent, otp: GOOD_OTP });
        gateway.current.change = change;
        const reported = harness.results.length;
        const { status, body } = await harness.post(ROUTES.financingPurchase, { ...order, flow: checked, tenure: 12 });
        gateway.current.change = undefined;
        checkRefusal(status, body, language);
        const paid = harness.results.slice(reported).filter((result) => result.outcome === 'success');
        if (!gateway.current.intact) assert.deepEqual(paid, [], `paid from an answer that was not the gateway's own: ${JSON.stringify(change)}`);
        // Each run is its own customer's hour: the OTP limits do not carry over.
        harness.advance(61 * 60_000);
      }),
      { numRuns: 120, seed: 250_2026, endOnFailure: true },
    );
  });
});
