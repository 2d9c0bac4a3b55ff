/**
 * A merchant-page (or embedded) card's TOKENIZATION return posted to the endpoint again (the back
 * button, a refresh, a replay) after its charge was recorded. The gateway would refuse a second
 * charge as a duplicate reference (00005): the endpoint answers the customer with the recorded
 * result, the same page as the first time, sends nothing to the gateway and leaves nothing for the
 * reconciler to ask. A return whose charge the endpoint never recorded (the first answer was lost)
 * still asks the gateway, and a declined reference still takes a new card.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EMBEDDED_CONFIRM_ROUTE, framedResultMessage, type FramedResultMessage } from '../../src/core/endpoint-api.ts';
import { parse } from '../../src/core/shape.ts';
import { THREE_DS_TOKEN, THREE_DS_URL } from './fake-gateway.ts';
import { BASE_PATH, SHOP_ORIGIN, type Answer, type Harness } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { events, reconcilerWorld } from './support/worlds.ts';
import { formAction, hiddenFields } from '../sandbox/support.ts';

const REFERENCE = 'order-1001';

/** The gateway's signed answer to the merchant page's TOKENIZATION: card `token` taken, to be charged (PURCHASE unless told). */
function tokenization(token = 'tok-1', fields: Record<string, string> = {}): Promise<Record<string, string>> {
  return signedAnswer('18000', { service_command: 'TOKENIZATION', merchant_reference: REFERENCE, token_name: token, merchant_extra1: 'PURCHASE', ...fields });
}

/** The customer's browser posts the gateway's answer to the return route: at the top level, or in the element's frame. */
function postReturn(h: Harness, fields: Record<string, string>, framed = false): Promise<Answer> {
  return h.send(
    new Request(`${SHOP_ORIGIN}${BASE_PATH}/return${framed ? '?pg_frame=1' : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** What a framed page tells the element. */
function framedMessage(answer: Answer): FramedResultMessage {
  const match = /<script type="application\/json" id="pg-message">([^<]*)<\/script>/.exec(String(answer.body));
  assert.ok(match, 'a framed page');
  return parse(framedResultMessage, JSON.parse(match[1] ?? 'null'));
}

/** Charges sent to the gateway (a merchant-page completion, with or without a plan). */
function charges(h: Harness): number {
  return h.gateway.callsOf('TOKEN_PAYMENT').length + h.gateway.callsOf('INSTALLMENTS_PAYMENT').length;
}

for (const variant of [
  { name: 'with a store', endpointStore: true },
  { name: 'with the ledger in memory', endpointStore: false },
] as const) {
  describe(`a merchant-page return posted again after its charge was recorded (${variant.name})`, () => {
    it('shows the customer the recorded result again and sends nothing to the gateway', async () => {
      const w = reconcilerWorld({ endpointStore: variant.endpointStore });
      const fields = await tokenization();
      const first = await postReturn(w.harness, fields);
      assert.equal(first.status, 303);
      assert.match(first.headers.get('location') ?? '', /outcome=success/);
      assert.equal(charges(w.harness), 1);
      const callsBefore = w.harness.gateway.calls.length;

      const again = await postReturn(w.harness, fields);
      const third = await postReturn(w.harness, fields);

      assert.equal(again.status, 303);
      assert.equal(again.headers.get('location'), first.headers.get('location'), 'the same result page as the first time');
      assert.equal(third.headers.get('location'), first.headers.get('location'));
      assert.deepEqual(w.harness.gateway.calls.slice(callsBefore).map((call) => call.operation), [], 'nothing sent to the gateway: no second charge, no 00005');
      assert.equal(w.harness.results.length, 1, 'the shop was told once');
      assert.equal(events(w.harness.logs, 'duplicate_completion').length, 2, 'each replay is logged');
    });

    if (variant.endpointStore) {
      it('leaves no watch, so the reconciler asks the gateway nothing more about the paid order', async () => {
        const w = reconcilerWorld();
        const fields = await tokenization();
        await postReturn(w.harness, fields);
        await postReturn(w.harness, fields);
        const statusBefore = w.harness.gateway.callsOf('CHECK_STATUS').length;
        await w.round();
        assert.equal(w.harness.gateway.callsOf('CHECK_STATUS').length, statusBefore, 'no CHECK_STATUS for an order already reported paid');
        assert.deepEqual(w.reported, [], 'the reconciler reports nothing');
        assert.equal(await w.store.watches.countActive(), 0, 'no watch open');
      });
    }
  });
}

describe('a merchant-page return posted again, other recorded payments', () => {
  it('keeps watching a hold: an authorization answered from the ledger leaves its watch as it was', async () => {
    const w = reconcilerWorld();
    const fields = await tokenization('tok-1', { merchant_extra1: 'AUTHORIZATION' });
    const first = await postReturn(w.harness, fields);
    assert.match(first.headers.get('location') ?? '', /outcome=success/);
    const watched = await w.store.watches.get(REFERENCE);
    assert.equal(watched?.kind, 'authorization');
    const callsBefore = w.harness.gateway.calls.length;
    const again = await postReturn(w.harness, fields);
    assert.equal(again.headers.get('location'), first.headers.get('location'));
    assert.equal(w.harness.gateway.calls.length, callsBefore, 'nothing sent to the gateway');
    assert.deepEqual(await w.store.watches.get(REFERENCE), watched, 'the hold’s watch unchanged');
  });

  it('shows the payment finished after 3-D Secure when the card’s return is posted again (the back button)', async () => {
    const w = reconcilerWorld();
    const card = await tokenization(THREE_DS_TOKEN);
    const challenge = await postReturn(w.harness, card);
    assert.equal(challenge.headers.get('location'), THREE_DS_URL);
    // The customer passes the check; the gateway's final return lands on the return route.
    w.harness.gateway.holds(REFERENCE, 'captured', { svcId: '1700000003' });
    const final = await postReturn(
      w.harness,
      await signedAnswer('14000', { command: 'PURCHASE', merchant_reference: REFERENCE, amount: '250000', currency: 'EGP', svc_id: '1700000003' }),
    );
    assert.match(final.headers.get('location') ?? '', /outcome=success/);
    const callsBefore = w.harness.gateway.calls.length;
    const back = await postReturn(w.harness, card);
    assert.equal(back.headers.get('location'), final.headers.get('location'), 'the paid result, not a second charge');
    assert.equal(w.harness.gateway.calls.length, callsBefore, 'nothing sent to the gateway');
    assert.equal(w.harness.results.length, 1);
  });
});

describe('a merchant page in the element’s frame, its return posted again', () => {
  it('tells the element the recorded outcome again and sends nothing to the gateway', async () => {
    const w = reconcilerWorld();
    const fields = await tokenization();
    const first = framedMessage(await postReturn(w.harness, fields, true));
    assert.equal(first.outcome, 'success');
    const callsBefore = w.harness.gateway.calls.length;
    const again = await postReturn(w.harness, fields, true);
    assert.deepEqual(framedMessage(again), first);
    assert.equal(w.harness.gateway.calls.length, callsBefore, 'nothing sent to the gateway');
    assert.equal(w.harness.results.length, 1);
  });
});

describe('the embedded page, after its Pay button charged the card', () => {
  /** The embedded page's return (card taken, nothing charged), then the element's Pay button. */
  async function paid(h: Harness) {
    const fields = await tokenization('tok-1', { merchant_extra4: 'ELEMENT' });
    const ready = String((await postReturn(h, fields, true)).body);
    const confirm = () =>
      h.send(
        new Request(new URL(formAction(ready, 'pg-confirm'), SHOP_ORIGIN), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SHOP_ORIGIN },
          body: new URLSearchParams(hiddenFields(ready, 'pg-confirm')).toString(),
        }),
      );
    assert.equal(new URL(formAction(ready, 'pg-confirm'), SHOP_ORIGIN).pathname, `${BASE_PATH}${EMBEDDED_CONFIRM_ROUTE}`);
    const result = framedMessage(await confirm());
    assert.equal(result.outcome, 'success');
    assert.equal(charges(h), 1);
    return { fields, confirm, result };
  }

  it('answers the Pay button posted again with the recorded outcome, charging nothing', async () => {
    const w = reconcilerWorld();
    const { confirm, result } = await paid(w.harness);
    const callsBefore = w.harness.gateway.calls.length;
    assert.deepEqual(framedMessage(await confirm()), result);
    assert.equal(w.harness.gateway.calls.length, callsBefore, 'nothing sent to the gateway');
    assert.equal(w.harness.results.length, 1);
    assert.equal(await w.store.watches.countActive(), 0, 'no watch left open');
  });

  it('tells the element the order is paid, not that a card is ready to pay again, when the embedded page’s return is posted again', async () => {
    const w = reconcilerWorld();
    const { fields, result } = await paid(w.harness);
    const callsBefore = w.harness.gateway.calls.length;
    const again = await postReturn(w.harness, fields, true);
    assert.doesNotMatch(String(again.body), /id="pg-confirm"/, 'no Pay button for a paid order');
    assert.deepEqual(framedMessage(again), result);
    assert.equal(w.harness.gateway.calls.length, callsBefore);
  });
});

describe('a merchant-page return whose earlier charge the endpoint did not record', () => {
  it('still asks the gateway, and reports what it holds once (the first answer was lost)', async () => {
    const w = reconcilerWorld();
    // The first charge went through at the gateway, but its answer never reached the ledger.
    w.harness.gateway.holds(REFERENCE, 'captured', { svcId: '1700000004' });
    const answer = await postReturn(w.harness, await tokenization());
    assert.equal(answer.status, 303);
    assert.match(answer.headers.get('location') ?? '', /outcome=success/);
    assert.equal(charges(w.harness), 1, 'the completion is sent, as before');
    assert.ok(w.harness.gateway.callsOf('CHECK_STATUS').length >= 1, 'its 00005 is settled by CHECK_STATUS');
    assert.deepEqual(
      w.harness.results.map((result) => result.idempotency_key),
      [`${REFERENCE}:1700000004:captured`],
      'the shop hears of the payment',
    );
  });

  it('still charges a new card under a reference whose last card was declined', async () => {
    const w = reconcilerWorld();
    w.harness.gateway.answer('TOKEN_PAYMENT', (request) =>
      request['token_name'] === 'tok-declined' ? { code: '13001', fields: { svc_id: '1700000011' } } : { code: '14000', fields: { svc_id: '1700000012' } },
    );
    const declined = await postReturn(w.harness, await tokenization('tok-declined'));
    assert.match(declined.headers.get('location') ?? '', /outcome=failure/);
    const paid = await postReturn(w.harness, await tokenization('tok-2'));
    assert.match(paid.headers.get('location') ?? '', /outcome=success/);
    assert.equal(charges(w.harness), 2, 'the second card is charged');
  });

  it('charges nothing when an earlier attempt\'s declined card comes back after another attempt paid the order', async () => {
    const w = reconcilerWorld();
    w.harness.gateway.answer('TOKEN_PAYMENT', (request) =>
      request['token_name'] === 'tok-declined' ? { code: '13001', fields: { svc_id: '1700000021' } } : { code: '14000', fields: { svc_id: '1700000022' } },
    );
    const declined = await tokenization('tok-declined');
    assert.match((await postReturn(w.harness, declined)).headers.get('location') ?? '', /outcome=failure/);
    const paid = await signedAnswer('18000', {
      service_command: 'TOKENIZATION',
      merchant_reference: `${REFERENCE}.pg2`,
      token_name: 'tok-2',
      merchant_extra1: 'PURCHASE',
    });
    assert.match((await postReturn(w.harness, paid)).headers.get('location') ?? '', /outcome=success/);
    assert.equal(charges(w.harness), 2);

    const stale = await postReturn(w.harness, declined);

    assert.equal(charges(w.harness), 2, 'the declined card is not charged again on a paid order');
    assert.match(stale.headers.get('location') ?? '', /error=order_already_paid/);
    assert.equal(w.harness.results.length, 2, 'nothing new reported to the shop');
    assert.equal((await w.store.results.latestFor(REFERENCE))?.order_state, 'captured', 'the order stays paid');
  });
});
