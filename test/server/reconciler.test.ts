/**
 * The reconciler: payments that were not final when the customer left are watched in the store,
 * and a round asks CHECK_STATUS about the due ones and reports each change once, under the key of
 * the payment's new state. Against the fake gateway, with the endpoint and the reconciler on one
 * clock and one store.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createGatewayClient } from '../../src/gateway/client.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createReconciler } from '../../src/server/reconciler.ts';
import { recordAndReport } from '../../src/server/results.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { ACCESS_CODE, GATEWAY_ACCOUNT, MERCHANT_IDENTIFIER, RESPONSE_PHRASE } from './fake-gateway.ts';
import { RETURN_URL, setup, START, type Harness } from './harness.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { signParams } from '../../src/core/signature.ts';
import { signedTokenization } from './support/returns.ts';

/** The gateway's signed return for an order, posted by the customer's browser. */
async function postReturn(harness: Harness, reference: string, fields: Record<string, string> & { response_code: KnownResponseCode }) {
  const signed = (await signParams(
    {
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      language: 'en',
      return_url: RETURN_URL,
      merchant_reference: reference,
      ...fields,
      response_message: responseMessage(fields.response_code, 'en'),
      status: expectedStatus(fields.response_code),
    },
    RESPONSE_PHRASE,
    'sha256',
  )) as Record<string, string>;
  const answer = await harness.postReturn(signed);
  assert.equal(answer.status, 303);
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A gate on the endpoint's calls to the fake gateway: holds one chosen call until released. */
interface Gate {
  /** Settles when the held call has come (and, held `after`, the gateway has carried it out). */
  readonly arrived: Promise<void>;
  release(): void;
}

/**
 * The endpoint's way to the gateway, with gates: a call held `before` has not reached the gateway
 * until released; one held `after` was carried out at once, and its answer waits.
 */
function gatedGateway() {
  let gatewayFetch: typeof fetch | undefined;
  const calls = new Map<string, number>();
  const gates: { operation: string; nth: number; when: 'before' | 'after'; arrive: () => void; released: Promise<void> }[] = [];
  const fetchThrough: typeof fetch = async (input, init) => {
    const params = JSON.parse(String(init?.body)) as Record<string, string>;
    const operation = params['service_command'] ?? params['query_command'] ?? params['command'] ?? '';
    const nth = (calls.get(operation) ?? 0) + 1;
    calls.set(operation, nth);
    const gate = gates.find((held) => held.operation === operation && held.nth === nth);
    if (gate?.when === 'before') {
      gate.arrive();
      await gate.released;
    }
    const answer = await gatewayFetch!(input, init);
    if (gate?.when === 'after') {
      gate.arrive();
      await gate.released;
    }
    return answer;
  };
  return {
    fetch: fetchThrough,
    connect(to: typeof fetch) {
      gatewayFetch = to;
    },
    /** Holds the `nth` call of `operation` (counted from 1), `before` the gateway sees it or `after` it answered. */
    hold(operation: string, nth: number, when: 'before' | 'after'): Gate {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      gates.push({ operation, nth, when, arrive, released });
      return { arrived, release };
    },
  };
}

function world(options: { readonly gates?: ReturnType<typeof gatedGateway> } = {}) {
  let clock = START.getTime();
  const now = () => new Date(clock);
  const store = createMemoryStore();
  const reported: VerifiedResult[] = [];
  const harness = setup({
    store,
    resultLedger: undefined,
    now,
    // Authorizations are asked for from the browser here: the shop captures them.
    paymentCommands: ['PURCHASE', 'AUTHORIZATION'],
    onResult: (result) => void reported.push(result),
    ...(options.gates ? { fetch: options.gates.fetch } : {}),
  });
  options.gates?.connect(harness.gateway.fetch);
  const logs: string[] = [];
  const log = createJsonLogger((line) => logs.push(line));
  const gatewayState: {
    down: boolean;
    /** Requests answered 429 (all of them, or those `when` picks by their JSON body). */
    limited?: { readonly retryAfter?: string; readonly when?: (body: Record<string, unknown>) => boolean } | undefined;
  } = { down: false };
  const reconciler = createReconciler({
    store,
    gateway: createGatewayClient({
      ...GATEWAY_ACCOUNT,
      // The gateway as the reconciler reaches it: answering, down behind a proxy answering 503, or
      // limiting requests (429, an unsigned JSON body and, when given, Retry-After).
      fetch: (input, init) => {
        if (gatewayState.down) return Promise.resolve(new Response('<html>down</html>', { status: 503 }));
        const { limited } = gatewayState;
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
        if (limited && (limited.when?.(body) ?? true)) {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (limited.retryAfter !== undefined) headers['retry-after'] = limited.retryAfter;
          return Promise.resolve(new Response('{"error":"too_many_requests"}', { status: 429, headers }));
        }
        return harness.gateway.fetch(input, init);
      },
      retry: false,
      now,
    }),
    log,
    now,
    questionsPerMinute: 60_000,
    settings: { intervalSeconds: 60 },
    report: async (result) => void (await recordAndReport(result, { ledger: store.results, onResult: (r) => void reported.push(r), log, now })),
  });
  return {
    harness,
    store,
    reported,
    logs,
    reconciler,
    gatewayState,
    advance(ms: number) {
      clock += ms;
    },
  };
}

/** Orders authorized at the gateway, each watched and due this long after START. */
async function watchAuthorizations(w: ReturnType<typeof world>, due: Readonly<Record<string, number>>): Promise<void> {
  for (const [reference, after] of Object.entries(due)) {
    w.harness.gateway.holds(reference, 'authorized', { svcId: `17000001${reference.slice(-2)}` });
    await w.store.watches.watch(
      {
        merchant_reference: reference,
        kind: 'authorization',
        language: 'en',
        last_state: 'authorized',
        expires_at: new Date(START.getTime() + 9 * DAY).toISOString(),
        next_check_at: new Date(START.getTime() + after).toISOString(),
      },
      START,
    );
  }
}

/** The customer's browser asks the endpoint for order-1001's cash bill. */
const askBill = (w: ReturnType<typeof world>, language: 'en' | 'ar' = 'en') => w.harness.post('/bill', { merchant_reference: 'order-1001', language });

/** How many lines of the endpoint's log are `event`. */
const eventCount = (w: ReturnType<typeof world>, event: string) => w.harness.logs.filter((line) => JSON.parse(line).event === event).length;

describe('the reconciler', () => {
  it('reports a bill paid at the counter once, after it was issued and while nobody is on the page', async () => {
    const w = world();
    const issued = await w.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(issued.status, 200);
    const watch = await w.store.watches.get('order-1001');
    assert.equal(watch?.kind, 'bill');
    // The shop heard of the bill as the order's pending payment, with what the customer was shown.
    assert.deepEqual(
      w.reported.map((result) => [result.idempotency_key, result.source, result.outcome, result.order_state, result.bill?.bill_number, result.amount]),
      [[`order-1001:${issued.body.bill_number}:pending`, 'bill', 'pending', 'pending', issued.body.bill_number, 250_000]],
    );
    assert.deepEqual(w.reported[0]?.bill, {
      bill_number: issued.body.bill_number,
      payment_partner: issued.body.payment_partner,
      request_expiry_date: issued.body.request_expiry_date,
    });
    w.reported.length = 0;
    w.harness.gateway.holds('order-1001', 'bill_issued', { svcId: '1700000042' });

    w.advance(2 * MINUTE);
    assert.deepEqual(await w.reconciler.runDue(), { asked: 1, reported: 0, ended: 0, failed: 0 }, 'unpaid: nothing to report');

    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000042' });
    w.advance(10 * MINUTE);
    const round = await w.reconciler.runDue();
    assert.equal(round.reported, 1);
    const [paid] = w.reported;
    assert.equal(paid?.order_state, 'captured');
    assert.equal(paid?.outcome, 'success');
    assert.equal(paid?.source, 'reconcile');
    assert.equal(paid?.idempotency_key, 'order-1001:1700000042:captured');
    assert.equal(paid?.amount, 250_000);
    assert.equal(paid?.currency, 'EGP');
    assert.ok((await w.store.watches.get('order-1001'))?.ended_at, 'a paid bill is final');
    w.advance(DAY);
    assert.equal((await w.reconciler.runDue()).asked, 0, 'nothing left to ask');
    assert.equal(w.reported.length, 1);
  });

  it('shows the bill already issued to a second request for the order, even with the gateway unreachable, and issues none', async () => {
    const w = world();
    const first = await w.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(first.status, 200);
    const again = await w.harness.post('/bill', { merchant_reference: 'order-1001', language: 'ar' });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    w.harness.gateway.goOffline();
    const offline = await w.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(offline.status, 200);
    assert.equal(offline.body.bill_number, first.body.bill_number);
    assert.equal(w.harness.gateway.callsOf('BILL_PRESENTMENT').length, 1);
    assert.equal(w.harness.logs.filter((line) => JSON.parse(line).event === 'bill_shown_again').length, 2);
    assert.deepEqual(w.reported.map((result) => result.idempotency_key), [`order-1001:${first.body.bill_number}:pending`], 'the shop heard of the bill once');
  });

  it('shows the customer the bill even when the merchant\'s onResult fails on it, and logs that', async () => {
    const store = createMemoryStore();
    const harness = setup({
      store,
      resultLedger: undefined,
      onResult: () => {
        throw new Error('the shop is down');
      },
    });
    const issued = await harness.post('/bill', { merchant_reference: 'order-1001', language: 'ar' });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assert.match(String(issued.body.bill_number), /^\d+$/);
    assert.equal(harness.logs.filter((line) => JSON.parse(line).event === 'bill_report_failed').length, 1);
    assert.equal((await store.watches.get('order-1001'))?.kind, 'bill', 'watched all the same: its payment will be reported');
  });

  it('shows a second request the bill the first issued while it was asking, and keeps that bill', async () => {
    const gates = gatedGateway();
    const w = world({ gates });
    // The first request's BILL_PRESENTMENT waits before the gateway; the second's CHECK_STATUS is
    // answered "not found" meanwhile, and its answer waits until the first bill is issued and kept.
    const firstSent = gates.hold('BILL_PRESENTMENT', 1, 'before');
    const secondAsked = gates.hold('CHECK_STATUS', 2, 'after');
    const first = askBill(w);
    await firstSent.arrived;
    const second = askBill(w, 'ar');
    await secondAsked.arrived;
    w.advance(1000);
    firstSent.release();
    const issued = await first;
    assert.equal(issued.status, 200);
    secondAsked.release();
    const shown = await second;
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.equal(shown.body.bill_number, issued.body.bill_number);
    assert.equal(w.harness.gateway.callsOf('BILL_PRESENTMENT').length, 1, 'one bill, not a second sent and refused as a duplicate');
    const later = await askBill(w);
    assert.equal(later.body.bill_number, issued.body.bill_number, 'the bill is still kept for the next request');
    assert.equal(eventCount(w, 'order_raced'), 1);
  });

  it('tells a second request the order is in progress while the first is issuing its bill, and sends nothing', async () => {
    const gates = gatedGateway();
    const w = world({ gates });
    // Both requests read the order before either wrote a watch; the first then sends its bill.
    const firstAsked = gates.hold('CHECK_STATUS', 1, 'after');
    const secondAsked = gates.hold('CHECK_STATUS', 2, 'after');
    const firstSent = gates.hold('BILL_PRESENTMENT', 1, 'before');
    const first = askBill(w);
    await firstAsked.arrived;
    const second = askBill(w);
    await secondAsked.arrived;
    w.advance(1000);
    firstAsked.release();
    await firstSent.arrived;
    secondAsked.release();
    const refused = await second;
    assert.deepEqual([refused.status, refused.body.error?.code, refused.body.error?.field], [409, 'order_in_progress', 'merchant_reference']);
    firstSent.release();
    const issued = await first;
    assert.equal(issued.status, 200);
    assert.equal(w.harness.gateway.callsOf('BILL_PRESENTMENT').length, 1);
    const again = await askBill(w);
    assert.equal(again.body.bill_number, issued.body.bill_number);
    const watch = await w.store.watches.get('order-1001');
    assert.deepEqual([watch?.kind, watch?.ended_at], ['bill', undefined]);
  });

  it("never takes back another request's watch: a refused bill leaves the bill sent after it watched", async () => {
    const gates = gatedGateway();
    const w = world({ gates });
    let bills = 0;
    // The first bill is refused (its answer held back a while); the second is issued, but its answer is lost.
    w.harness.gateway.answer('BILL_PRESENTMENT', () =>
      ++bills === 1
        ? { code: '31002' }
        : { code: '30000', fields: { bill_number: '12345678901234' }, tamper: ({ signature: _dropped, ...unsigned }) => unsigned },
    );
    const refusedAnswer = gates.hold('BILL_PRESENTMENT', 1, 'after');
    const refused = askBill(w);
    await refusedAnswer.arrived;
    w.advance(1000);
    const lost = await askBill(w);
    assert.equal(lost.status, 502);
    refusedAnswer.release();
    assert.equal((await refused).body.error?.code, 'gateway_refused');
    const watch = await w.store.watches.get('order-1001');
    assert.deepEqual([watch?.kind, watch?.ended_at], ['bill', undefined], 'the issued bill is still watched');
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000042' });
    w.advance(2 * MINUTE);
    assert.equal((await w.reconciler.runDue()).reported, 1);
  });

  it('shows no bill again once it is paid, or past its expiry', async () => {
    const paid = world();
    assert.equal((await paid.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' })).status, 200);
    paid.harness.gateway.holds('order-1001', 'captured');
    const afterPayment = await paid.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(afterPayment.status, 409);
    assert.equal(afterPayment.body.error.code, 'order_already_paid');

    const lapsed = world();
    assert.equal((await lapsed.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' })).status, 200);
    lapsed.advance(3 * DAY);
    // Cancelled at its expiry: the order is payable again, with a new bill.
    lapsed.harness.gateway.holds('order-1001', 'declined');
    lapsed.harness.gateway.answer('BILL_PRESENTMENT', () => ({ code: '30000', fields: { bill_number: '22222222222222' } }));
    const renewed = await lapsed.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(renewed.status, 200);
    assert.equal(lapsed.harness.gateway.callsOf('BILL_PRESENTMENT').length, 2);
    const pending = lapsed.reported.filter((result) => result.source === 'bill').map((result) => result.bill?.bill_number);
    assert.equal(pending.length, 2, 'the new bill is a result of its own');
    assert.equal(pending[1], renewed.body.bill_number);
    assert.notEqual(pending[0], pending[1]);
  });

  it('watches a bill whose answer was lost, and reports it once when it is paid at the counter', async () => {
    const w = world();
    // The gateway issues the bill, but its answer cannot be verified: the endpoint never learns the number.
    w.harness.gateway.answer('BILL_PRESENTMENT', () => ({
      code: '30000',
      fields: { bill_number: '12345678901234' },
      tamper: ({ signature: _dropped, ...unsigned }) => unsigned,
    }));
    const lost = await w.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(lost.status, 502);
    assert.equal(JSON.stringify(lost.body).includes('12345678901234'), false);
    const watch = await w.store.watches.get('order-1001');
    assert.equal(watch?.kind, 'bill');
    assert.equal(watch?.ended_at, undefined);
    // No number to show again: the order waits for that bill.
    const again = await w.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(again.body.error?.code, 'order_in_progress');

    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000042' });
    w.advance(2 * MINUTE);
    assert.equal((await w.reconciler.runDue()).reported, 1);
    w.advance(DAY);
    await w.reconciler.runDue();
    assert.deepEqual(
      w.reported.map((result) => [result.idempotency_key, result.source, result.amount]),
      [['order-1001:1700000042:captured', 'reconcile', 250_000]],
    );
  });

  it('keeps the watch when the gateway refuses a bill as a duplicate reference: it holds something under it', async () => {
    const w = world();
    // A bill issued elsewhere (another instance, an answer lost long ago), and CHECK_STATUS down, so
    // the endpoint cannot see it before sending: the gateway refuses the new bill with 00005.
    w.harness.gateway.holds('order-1001', 'bill_issued');
    w.harness.gateway.answer('CHECK_STATUS', () => ({ code: '00001', tamper: ({ signature: _dropped, ...unsigned }) => unsigned }));
    const refused = await w.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.deepEqual([refused.status, refused.body.error?.response_code], [422, '00005']);
    const watch = await w.store.watches.get('order-1001');
    assert.deepEqual([watch?.kind, watch?.ended_at], ['bill', undefined], 'what the gateway holds under the reference is watched');
  });

  it('takes back the watch of a bill the gateway refused, putting back the order\'s earlier watch', async () => {
    const w = world();
    assert.equal((await w.harness.post('/hosted-page', { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' })).status, 200);
    const form = await w.store.watches.get('order-1001');
    assert.equal(form?.kind, 'in_progress');
    w.harness.gateway.answer('BILL_PRESENTMENT', () => ({ code: '31002' }));
    const refused = await w.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(refused.body.error?.code, 'gateway_refused');
    const back = await w.store.watches.get('order-1001');
    assert.equal(back?.kind, 'in_progress');
    assert.equal(back?.expires_at, form?.expires_at);

    const alone = world();
    alone.harness.gateway.answer('BILL_PRESENTMENT', () => ({ code: '31002' }));
    assert.equal((await alone.harness.post('/bill', { merchant_reference: 'order-1001', language: 'en' })).body.error?.code, 'gateway_refused');
    assert.equal((await alone.store.watches.get('order-1001'))?.end_reason, 'not_sent');
    alone.advance(DAY);
    assert.equal((await alone.reconciler.runDue()).asked, 0, 'nothing is asked about a bill that was never issued');
  });

  it('keeps a bill watched when an old declined return is posted again: shown again, and reported once paid at the counter a day later', async () => {
    const w = world();
    const declined = { command: 'PURCHASE', amount: '250000', currency: 'EGP', svc_id: '1700000001', response_code: '13001' } as const;
    w.harness.gateway.holds('order-1001', 'declined', { svcId: '1700000001' });
    await postReturn(w.harness, 'order-1001', declined);
    // The customer pays by cash bill instead, then the browser's back button posts the declined return again.
    const issued = await askBill(w);
    assert.equal(issued.status, 200);
    const billWatch = await w.store.watches.get('order-1001');
    w.advance(10 * MINUTE);
    await postReturn(w.harness, 'order-1001', declined);

    const kept = await w.store.watches.get('order-1001');
    assert.deepEqual([kept?.kind, kept?.expires_at, kept?.detail], [billWatch?.kind, billWatch?.expires_at, billWatch?.detail], 'the bill keeps its watch');
    const again = await askBill(w);
    assert.equal(again.status, 200);
    assert.equal(again.body.bill_number, issued.body.bill_number, 'the kept bill is shown again');
    assert.equal(w.harness.gateway.callsOf('BILL_PRESENTMENT').length, 1);

    // Paid at the counter 30 hours later, within the bill's 48.
    for (let step = 0; step < 30 * 6; step++) {
      w.advance(10 * MINUTE);
      await w.reconciler.runDue();
    }
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000009' });
    for (let step = 0; step < 2 * 6; step++) {
      w.advance(10 * MINUTE);
      await w.reconciler.runDue();
    }
    assert.deepEqual(
      w.reported.filter((result) => result.order_state === 'captured').map((result) => [result.source, result.idempotency_key]),
      [['reconcile', 'order-1001:1700000009:captured']],
    );
    assert.equal((await w.store.watches.get('order-1001'))?.end_reason, 'captured');
  });

  it('keeps an authorization watched when a return the gateway cannot confirm is posted for it', async () => {
    const w = world();
    w.harness.gateway.holds('order-2002', 'authorized', { svcId: '1700000077', amount: 19_900 });
    const authorized = { command: 'AUTHORIZATION', amount: '19900', currency: 'SAR', response_code: '02000', svc_id: '1700000077' } as const;
    await postReturn(w.harness, 'order-2002', authorized);
    const watched = await w.store.watches.get('order-2002');
    assert.equal(watched?.kind, 'authorization');
    w.harness.gateway.goOffline();
    await postReturn(w.harness, 'order-2002', { ...authorized, svc_id: '1700000078' });
    const kept = await w.store.watches.get('order-2002');
    assert.deepEqual([kept?.kind, kept?.expires_at], ['authorization', watched?.expires_at], 'watched until the hold ends, not for a day');
  });

  it("lets a stronger watch replace a weaker one: a signed form's watch becomes the authorization's, at the return or when the reconciler finds it", async () => {
    const w = world();
    for (const reference of ['order-2002', 'order-3003']) {
      const form = await w.harness.post('/hosted-page', { merchant_reference: reference, language: 'en', command: 'AUTHORIZATION' });
      assert.equal(form.status, 200);
      assert.equal((await w.store.watches.get(reference))?.kind, 'in_progress');
    }
    w.harness.gateway.holds('order-2002', 'authorized', { svcId: '1700000077', amount: 19_900 });
    await postReturn(w.harness, 'order-2002', { command: 'AUTHORIZATION', amount: '19900', currency: 'SAR', response_code: '02000', svc_id: '1700000077' });
    assert.equal((await w.store.watches.get('order-2002'))?.kind, 'authorization', 'at the return');

    // A bill's reference found authorized (a charge under it): watched on as an authorization too.
    assert.equal((await askBill(w)).status, 200);
    w.harness.gateway.holds('order-3003', 'authorized', { svcId: '1700000078' });
    w.harness.gateway.holds('order-1001', 'authorized', { svcId: '1700000079' });
    w.advance(2 * MINUTE);
    await w.reconciler.runDue();
    for (const reference of ['order-3003', 'order-1001']) {
      const found = await w.store.watches.get(reference);
      assert.deepEqual([found?.kind, found?.ended_at], ['authorization', undefined], `${reference} found by the reconciler`);
    }
  });

  it('reports an authorization voided at the end of its hold, asked soon after the hold ends', async () => {
    const w = world();
    w.harness.gateway.holds('order-2002', 'authorized', { svcId: '1700000077', amount: 19_900 });
    await postReturn(w.harness, 'order-2002', { command: 'AUTHORIZATION', amount: '19900', currency: 'SAR', response_code: '02000', svc_id: '1700000077' });
    assert.equal(w.reported[0]?.order_state, 'authorized');
    const watch = await w.store.watches.get('order-2002');
    assert.equal(watch?.kind, 'authorization');
    assert.equal(watch?.due_at, new Date(START.getTime() + 7 * DAY).toISOString());

    // Asked a few times with growing waits, then right after the hold ends.
    for (let step = 0; step < 12; step++) {
      w.advance(DAY);
      await w.reconciler.runDue();
      if (step === 6) w.harness.gateway.holds('order-2002', 'voided', { svcId: '1700000077', amount: 19_900 });
    }
    const voided = w.reported.filter((result) => result.order_state === 'voided');
    assert.equal(voided.length, 1);
    assert.equal(voided[0]?.idempotency_key, 'order-2002:1700000077:voided');
    assert.equal(voided[0]?.outcome, 'failure');
    assert.ok((await w.store.watches.get('order-2002'))?.ended_at);
  });

  it('never turns "order not found" into a result, and stops asking when the watch expires', async () => {
    const w = world();
    const form = await w.harness.post('/hosted-page', { merchant_reference: 'order-3003', language: 'en', command: 'PURCHASE' });
    assert.equal(form.status, 200);
    assert.equal((await w.store.watches.get('order-3003'))?.kind, 'in_progress');
    for (let step = 0; step < 30; step++) {
      w.advance(10 * MINUTE);
      await w.reconciler.runDue();
    }
    assert.deepEqual(w.reported, []);
    const ended = await w.store.watches.get('order-3003');
    assert.equal(ended?.end_reason, 'expired');
    assert.ok(w.logs.some((line) => JSON.parse(line).event === 'watch_expired'));
  });

  it('waits longer when the gateway does not answer, and pauses the round after two unanswered questions', async () => {
    const w = world();
    await watchAuthorizations(w, { 'order-1001': 0, 'order-2002': 0, 'order-3003': 0 });
    w.gatewayState.down = true;
    const round = await w.reconciler.runDue();
    assert.deepEqual([round.asked, round.failed], [2, 2], 'the third is handed back, not asked');
    assert.ok(w.logs.some((line) => JSON.parse(line).event === 'reconcile_paused'));
    const watches = await w.store.watches.list({ active: true, limit: 10 });
    const asked = watches.filter((watch) => watch.checks === 1);
    assert.equal(asked.length, 2);
    for (const watch of asked) {
      assert.equal(watch.last_error, 'http_error 503');
      assert.ok(Date.parse(watch.next_check_at) >= START.getTime() + 2 * MINUTE, 'backed off past one interval');
    }
  });

  it('stops a round after its current question when the service stops, the watches it did not ask about due again at once', async () => {
    const w = world();
    await watchAuthorizations(w, { 'order-1001': 0, 'order-2002': 0, 'order-3003': 0 });
    // The service is told to stop while the round asks its first question: the round reads it before the second.
    let reads = 0;
    const summary = await w.reconciler.runDue({
      get stopping() {
        reads += 1;
        return reads > 1;
      },
    });
    assert.equal(summary.asked, 1, 'the question under way is finished, no other is asked');
    const watches = await w.store.watches.list({ active: true, limit: 10 });
    assert.deepEqual(
      watches.map((watch) => [watch.checks, watch.next_check_at === START.toISOString()]),
      [
        [1, false],
        [0, true],
        [0, true],
      ],
      'the asked one is scheduled on; the other two are not held for the claim but due now, for another instance',
    );
    assert.ok(w.logs.some((line) => JSON.parse(line).event === 'reconcile_stopped' && JSON.parse(line).left === 2));
  });

  it('keeps the quiet a 429 asks for while it looks for a second payment of the order, and still reports the payment', async () => {
    const w = world();
    await watchAuthorizations(w, { 'order-1001': 0, 'order-2002': MINUTE });
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000101' });
    // The payment's own question is answered; the question about the order's next attempt is limited.
    w.gatewayState.limited = { retryAfter: '600', when: (body) => body['merchant_reference'] !== 'order-1001' };
    await w.reconciler.runDue();
    assert.deepEqual(
      w.reported.filter((result) => result.merchant_reference === 'order-1001').map((result) => [result.order_state, result.duplicate_of]),
      [['captured', undefined]],
    );
    const other = await w.store.watches.get('order-2002');
    assert.ok(Date.parse(other?.next_check_at ?? '') >= START.getTime() + 10 * MINUTE, 'no other payment is asked before Retry-After');
  });

  it('asks nothing before the Retry-After of a 429, about that payment or any other, and asks again after it', async () => {
    const w = world();
    await watchAuthorizations(w, { 'order-1001': 0, 'order-2002': 0, 'order-3003': 0, 'order-4004': MINUTE });
    w.gatewayState.limited = { retryAfter: '600' };
    const round = await w.reconciler.runDue();
    assert.deepEqual([round.asked, round.failed], [1, 1], 'one 429 is enough: the round stops at once');
    const paused = w.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line['event'] === 'reconcile_paused');
    assert.equal(paused?.['reason'], 'gateway_asked_to_wait');
    const quietUntil = START.getTime() + 10 * MINUTE;
    for (const watch of await w.store.watches.list({ active: true, limit: 10 })) {
      if (watch.merchant_reference === 'order-4004') continue;
      assert.ok(Date.parse(watch.next_check_at) >= quietUntil, `${watch.merchant_reference} is asked no sooner than Retry-After`);
    }
    const asked = await w.store.watches.get('order-1001');
    assert.deepEqual([asked?.checks, asked?.last_error], [1, 'rate_limited 429']);

    // The fourth payment falls due meanwhile, and the limit is lifted: still nothing is asked before then.
    w.gatewayState.limited = undefined;
    w.advance(5 * MINUTE);
    assert.deepEqual(await w.reconciler.runDue(), { asked: 0, reported: 0, ended: 0, failed: 0 });
    w.advance(5 * MINUTE);
    const after = await w.reconciler.runDue();
    assert.deepEqual([after.asked, after.failed], [4, 0], 'every payment asked once the wait is over');
  });

  it('confirms a saved card whose token list could not be read at the return, once GET_TOKENS answers', async () => {
    const w = world();
    const tokenization = await signedTokenization('order-1001', 'tok-saved', {
      return_url: RETURN_URL,
      merchant_extra1: 'SAVE_CARD',
      remember_me: 'YES',
      card_number: '411111******1111',
      expiry_date: '2812',
    });
    w.harness.gateway.failWith(503);
    const answer = await w.harness.postReturn(tokenization);
    assert.equal(answer.status, 303);
    assert.match(answer.headers.get('location') ?? '', /outcome=pending/);
    assert.equal(w.reported.length, 0, 'not confirmed: nothing reported yet');
    const watch = await w.store.watches.get('order-1001');
    assert.equal(watch?.kind, 'saved_card');

    w.advance(2 * MINUTE);
    assert.equal((await w.reconciler.runDue()).failed, 1, 'still unanswered: asked again later');
    w.harness.gateway.reset();
    w.harness.gateway.keepsToken('tok-saved');
    w.advance(10 * MINUTE);
    const round = await w.reconciler.runDue();
    assert.equal(round.reported, 1);
    const [saved] = w.reported;
    assert.equal(saved?.outcome, 'success');
    assert.equal(saved?.source, 'save-card');
    assert.equal(saved?.order_state, 'not_found', 'nothing was charged');
    assert.equal(saved?.saved_card?.token_name, 'tok-saved');
    assert.equal((await w.store.watches.get('order-1001'))?.end_reason, 'saved');
    w.advance(DAY);
    await w.reconciler.runDue();
    assert.equal(w.reported.length, 1, 'reported once');
  });
});
