/**
 * An order paid anew after its first payment's authorization was voided (by the merchant, or lapsed
 * at the end of its hold). The voided reference is the gateway's for good (a second payment under
 * it is refused 00005), so the endpoint signs the next attempt (`<order>.pg2`): a new payment, with a
 * new payment id, of the same order. Its capture is the order's news: the order is paid, wherever
 * the service says where the order stands (its result page, the store's furthest result, a shop
 * keeping results as `InMemoryOrderStore` does), while the voided payment itself never comes back.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KnownResponseCode } from '../../src/core/response.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { createResultPage } from '../../src/server/result-page.ts';
import { createResultProofs } from '../../src/server/result-proof.ts';
import { MERCHANT_IDENTIFIER, REQUEST_PHRASE } from './fake-gateway.ts';
import { ORDERS } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { reconcilerWorld } from './support/worlds.ts';

const DAY = 24 * 60 * 60_000;
const ORDER = 'order-2002';
const FIRST_SVC_ID = '1700000077';
const SECOND_SVC_ID = '1700000088';

interface Payment {
  readonly reference: string;
  readonly command: 'PURCHASE' | 'AUTHORIZATION';
  readonly svcId: string;
  readonly code: KnownResponseCode;
}

/** The gateway's signed return of a payment of order-2002 (SAR 199.00), as the customer's browser posts it. */
function signedReturn(payment: Payment): Promise<Record<string, string>> {
  return signedAnswer(payment.code, {
    merchant_reference: payment.reference,
    command: payment.command,
    amount: '19900',
    currency: 'SAR',
    svc_id: payment.svcId,
  });
}

/** The standalone service's parts on one clock: the endpoint, its store and reconciler, its result page; and a shop keeping every result it is handed. */
function world() {
  const shop = new InMemoryOrderStore(ORDERS);
  const delivered: VerifiedResult[] = [];
  const deliver = (result: VerifiedResult) => {
    delivered.push(result);
    shop.recordResult(result);
  };
  // The shop captures from its back office: the browser may ask for an authorization.
  const w = reconcilerWorld({ endpoint: { paymentCommands: ['PURCHASE', 'AUTHORIZATION'], onResult: deliver }, onReport: deliver });
  const proofs = createResultProofs({ requestPhrase: REQUEST_PHRASE, merchantIdentifier: MERCHANT_IDENTIFIER, now: w.now });
  const resultPage = createResultPage({ results: w.store.results, proofs, basePath: '', shopUrl: 'https://shop.example/' });
  return {
    ...w,
    shop,
    delivered,
    /** The service's result page for the order, as the browser the gateway returned (holding its proof) reads it. */
    async resultPageOutcome(): Promise<string | undefined> {
      const url = new URL('https://service.example/result');
      url.searchParams.set('merchant_reference', ORDER);
      url.searchParams.set('proof', await proofs.issue(ORDER));
      const page = await resultPage(new Request(url, { headers: { 'accept-language': 'en' } }));
      return (await page?.text())?.match(/<main data-outcome="([a-z]+)">/)?.[1];
    },
  };
}

type World = ReturnType<typeof world>;

/** The customer's authorization, voided at the end of its hold (the reconciler reports it), then the order signed again. */
async function authorizedThenVoided(w: World): Promise<string> {
  const first: Payment = { reference: ORDER, command: 'AUTHORIZATION', svcId: FIRST_SVC_ID, code: '02000' };
  w.harness.gateway.holds(ORDER, 'authorized', { svcId: FIRST_SVC_ID, amount: 19_900 });
  assert.equal((await w.harness.postReturn(await signedReturn(first))).status, 303);
  w.harness.gateway.holds(ORDER, 'voided', { svcId: FIRST_SVC_ID, amount: 19_900 });
  w.advance(7 * DAY + 2 * 60_000);
  await w.reconciler.runDue();
  assert.deepEqual(
    w.delivered.map((result) => [result.idempotency_key, result.order_state]),
    [
      [`${ORDER}:${FIRST_SVC_ID}:authorized`, 'authorized'],
      [`${ORDER}:${FIRST_SVC_ID}:voided`, 'voided'],
    ],
  );
  // Nothing is held: the customer may pay again, under the order's next attempt.
  const form = await w.harness.post('/hosted-page', { merchant_reference: ORDER, language: 'en', command: 'PURCHASE' });
  assert.equal(form.status, 200);
  return form.body.fields.merchant_reference;
}

describe('an order paid by a new attempt after its authorization was voided', () => {
  it('is paid: the capture moves the order on from voided on the result page, in the store and for a shop keeping results forward only', async () => {
    const w = world();
    const attempt = await authorizedThenVoided(w);
    assert.equal(attempt, `${ORDER}.pg2`);
    w.harness.gateway.holds(attempt, 'captured', { svcId: SECOND_SVC_ID, amount: 19_900 });
    await w.harness.postReturn(await signedReturn({ reference: attempt, command: 'PURCHASE', svcId: SECOND_SVC_ID, code: '14000' }));

    const captured = w.delivered.at(-1);
    assert.deepEqual(
      [captured?.merchant_reference, captured?.payment_reference, captured?.order_state, captured?.outcome],
      [ORDER, attempt, 'captured', 'success'],
    );
    assert.equal((await w.store.results.latestFor(ORDER))?.idempotency_key, `${attempt}:${SECOND_SVC_ID}:captured`, "the store's furthest result");
    assert.equal(await w.resultPageOutcome(), 'success', 'the result page');
    assert.equal(w.shop.resultOf(ORDER)?.order_state, 'captured', "the shop's order");
    assert.equal(w.shop.resolve(ORDER)?.paid, true, 'answered paid, so no third payment is signed');
  });

  it(
    'holds the money again: a new attempt’s authorization moves the order on from voided',
    async () => {
      const w = world();
      const attempt = await authorizedThenVoided(w);
      w.harness.gateway.holds(attempt, 'authorized', { svcId: SECOND_SVC_ID, amount: 19_900 });
      await w.harness.postReturn(await signedReturn({ reference: attempt, command: 'AUTHORIZATION', svcId: SECOND_SVC_ID, code: '02000' }));
      assert.equal(w.delivered.at(-1)?.idempotency_key, `${attempt}:${SECOND_SVC_ID}:authorized`);
      assert.equal((await w.store.results.latestFor(ORDER))?.order_state, 'authorized', "the store's furthest result");
      assert.equal(await w.resultPageOutcome(), 'success', 'the result page');
      assert.equal(w.shop.resultOf(ORDER)?.order_state, 'authorized', "the shop's order");
    },
  );

  it('stays paid when the voided payment is heard of again, or the new payment is refunded later', async () => {
    const w = world();
    const attempt = await authorizedThenVoided(w);
    w.harness.gateway.holds(attempt, 'captured', { svcId: SECOND_SVC_ID, amount: 19_900 });
    await w.harness.postReturn(await signedReturn({ reference: attempt, command: 'PURCHASE', svcId: SECOND_SVC_ID, code: '14000' }));

    // The first payment's return posted again: the gateway still reads it voided; its key was reported already.
    await w.harness.postReturn(await signedReturn({ reference: ORDER, command: 'AUTHORIZATION', svcId: FIRST_SVC_ID, code: '02000' }));
    assert.equal(w.delivered.length, 3, 'nothing new delivered');
    assert.equal((await w.store.results.latestFor(ORDER))?.order_state, 'captured');
    assert.equal(await w.resultPageOutcome(), 'success');

    // The merchant refunds the new payment; its return posted again reads it refunded: the later move it is.
    w.harness.gateway.holds(attempt, 'refunded', { svcId: SECOND_SVC_ID, amount: 19_900 });
    await w.harness.postReturn(await signedReturn({ reference: attempt, command: 'PURCHASE', svcId: SECOND_SVC_ID, code: '14000' }));
    assert.equal((await w.store.results.latestFor(ORDER))?.order_state, 'refunded');
    assert.equal(w.shop.resultOf(ORDER)?.order_state, 'refunded');
  });
});
