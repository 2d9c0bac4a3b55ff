/**
 * One result per payment, however often a return is posted: every return is confirmed with
 * CHECK_STATUS before it is reported, `onResult` hears each idempotency key once, and a replay gets
 * the answer the first post got.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { signParams } from '../../src/core/signature.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { InMemoryResultLedger } from '../../src/server/result-ledger.ts';
import { ACCESS_CODE, GOOD_OTP, MERCHANT_IDENTIFIER, RESPONSE_PHRASE } from './fake-gateway.ts';
import { BASE_PATH, ORDERS, RETURN_URL, setup, SHOP_ORIGIN, type Harness } from './harness.ts';

const harness = setup();

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, []);
  harness.gateway.reset();
  harness.results.length = 0;
  harness.ledger.clear();
});

/** A return as the gateway signs it, for order-1001. */
async function signedReturn(code: KnownResponseCode, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return (await signParams(
    {
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      language: 'en',
      return_url: RETURN_URL,
      command: code === '02000' ? 'AUTHORIZATION' : 'PURCHASE',
      merchant_reference: 'order-1001',
      amount: '250000',
      currency: 'EGP',
      svc_id: '169999',
      ...extra,
      response_code: code,
      response_message: responseMessage(code, 'en'),
      status: expectedStatus(code),
    },
    RESPONSE_PHRASE,
    'sha256',
  )) as Record<string, string>;
}

async function postReturn(fields: Record<string, string>, on: Harness = harness) {
  const answer = await on.postReturn(fields);
  assert.equal(answer.status, 303);
  const location = new URL(answer.headers.get('location') ?? '');
  return { location: location.href, params: Object.fromEntries(location.searchParams) };
}

describe('when the same signed return is posted again', () => {
  it('reports it once, and answers every post with the same redirect', async () => {
    harness.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    const fields = await signedReturn('14000');
    const posts = [await postReturn(fields), await postReturn(fields), await postReturn(fields)];
    assert.equal(harness.results.length, 1);
    assert.equal(new Set(posts.map((post) => post.location)).size, 1);
    assert.deepEqual(posts[0]?.params, { merchant_reference: 'order-1001', outcome: 'success', response_code: '14000' });
    assert.match(posts.map((post) => post.location).join(), /outcome=success/);
  });

  it('gives the result a stable idempotency key: the payment and the state it reached', async () => {
    harness.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    await postReturn(await signedReturn('14000'));
    assert.equal(harness.results[0]?.idempotency_key, 'order-1001:169999:captured');
  });

  it('reports the payment again, under a new key, when the gateway says it moved on (authorized, then captured)', async () => {
    harness.gateway.holds('order-1001', 'authorized', { svcId: '169999' });
    const fields = await signedReturn('02000');
    await postReturn(fields);
    harness.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    await postReturn(fields);
    assert.deepEqual(
      harness.results.map((result) => [result.idempotency_key, result.order_state, result.outcome]),
      [
        ['order-1001:169999:authorized', 'authorized', 'success'],
        ['order-1001:169999:captured', 'captured', 'success'],
      ],
    );
  });
});

describe('when an old success return is replayed after the payment changed at the gateway', () => {
  it('reports a voided authorization as voided, never as paid', async () => {
    harness.gateway.holds('order-1001', 'authorized', { svcId: '169999' });
    const fields = await signedReturn('02000');
    await postReturn(fields);
    harness.gateway.holds('order-1001', 'voided', { svcId: '169999' });
    const replay = await postReturn(fields);
    assert.equal(replay.params['outcome'], 'failure');
    assert.equal(replay.params['response_code'], '08000');
    const last = harness.results.at(-1);
    assert.equal(last?.order_state, 'voided');
    assert.equal(last?.outcome, 'failure');
  });

  it('reports what the gateway says now, not what the return says', async () => {
    harness.gateway.holds('order-1001', 'declined', { svcId: '169999' });
    const replay = await postReturn(await signedReturn('14000'));
    assert.equal(replay.params['outcome'], 'failure');
    assert.equal(harness.results[0]?.outcome, 'failure');
    assert.equal(harness.results[0]?.response_code, '13001');
  });
});

describe('when CHECK_STATUS cannot be reached', () => {
  it('shows the customer a pending result and tells onResult nothing', async () => {
    harness.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    harness.gateway.goOffline();
    const answer = await postReturn(await signedReturn('14000'));
    assert.deepEqual(answer.params, { merchant_reference: 'order-1001', outcome: 'pending', error: 'gateway_unreachable' });
    assert.equal(harness.results.length, 0);
    assert.equal(harness.ledger.size, 0, 'nothing is recorded, so the next post is confirmed again');
  });

  it('does the same when the CHECK_STATUS answer does not verify', async () => {
    harness.gateway.holds('order-1001', 'declined', { svcId: '169999' });
    harness.gateway.answer('CHECK_STATUS', () => ({ code: '12000', tamper: (signed) => ({ ...signed, transaction_code: '14000' }) }));
    const answer = await postReturn(await signedReturn('14000'));
    assert.equal(answer.params['outcome'], 'pending');
    assert.equal(harness.results.length, 0);
  });
});

describe('when the gateway answers a duplicate reference (00005)', () => {
  it('resolves the return from CHECK_STATUS and never records the paid order as failed', async () => {
    const store = new InMemoryOrderStore(ORDERS);
    const shop = setup({ resolveOrder: store.resolve, onResult: store.recordResult });
    shop.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    await postReturn(await signedReturn('14000'), shop);
    const { svc_id: _svc, ...duplicate } = await signedReturn('00005');
    const answer = await postReturn(await signParams(duplicate, RESPONSE_PHRASE, 'sha256') as Record<string, string>, shop);
    assert.equal(answer.params['outcome'], 'success');
    assert.equal(store.resultOf('order-1001')?.outcome, 'success');
  });

  it('answers a replayed financing purchase with the first result, never a failure', async () => {
    const order = { merchant_reference: 'order-1001', language: 'en' };
    const verified = await harness.post('/financing/verify-customer', { ...order, phone_number: '01012345678' });
    const sent = await harness.post('/financing/otp', { ...order, flow: verified.body.flow });
    const checked = await harness.post('/financing/verify-otp', { ...order, flow: sent.body.flow, otp: GOOD_OTP });
    const purchase = { ...order, flow: checked.body.flow, tenure: 6 };
    const first = await harness.post('/financing/purchase', purchase);
    const replay = await harness.post('/financing/purchase', purchase);
    assert.equal(first.body.outcome, 'success');
    assert.deepEqual(replay.body, first.body);
    assert.equal(harness.results.length, 1);
    assert.equal(harness.gateway.callsOf('FINANCING_PURCHASE').length, 1, 'the replay answered from the ledger: nothing sent again');
  });
});

describe('the result ledger', () => {
  it('reports a result again on the next post when onResult threw the first time', async () => {
    let calls = 0;
    const flaky = setup({
      onResult: () => {
        calls += 1;
        if (calls === 1) throw new Error('database down');
      },
    });
    flaky.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    const fields = await signedReturn('14000');
    const failed = await flaky.send(
      new Request(`${SHOP_ORIGIN}${BASE_PATH}/return`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    );
    assert.equal(failed.status, 500);
    await postReturn(fields, flaky);
    await postReturn(fields, flaky);
    assert.equal(calls, 2, 'reported again once, then never');
  });

  it('lets two endpoint instances share one ledger, so a return posted to each is reported once', async () => {
    const shared = new InMemoryResultLedger();
    const reported: VerifiedResult[] = [];
    const first = setup({ resultLedger: shared, onResult: (result) => void reported.push(result) });
    const second = setup({ resultLedger: shared, onResult: (result) => void reported.push(result) });
    for (const instance of [first, second]) instance.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    const fields = await signedReturn('14000');
    const answers = [await postReturn(fields, first), await postReturn(fields, second)];
    assert.equal(reported.length, 1);
    assert.equal(answers[0]?.location, answers[1]?.location);
  });
});

describe('a replayed financing purchase, once the merchant has recorded the order paid', () => {
  it('is still answered with the first result (the gateway refuses it as 00005)', async () => {
    const store = new InMemoryOrderStore(ORDERS);
    const shop = setup({ resolveOrder: store.resolve, onResult: store.recordResult });
    const order = { merchant_reference: 'order-1001', language: 'en' };
    const verified = await shop.post('/financing/verify-customer', { ...order, phone_number: '01012345678' });
    const sent = await shop.post('/financing/otp', { ...order, flow: verified.body.flow });
    const checked = await shop.post('/financing/verify-otp', { ...order, flow: sent.body.flow, otp: GOOD_OTP });
    const purchase = { ...order, flow: checked.body.flow, tenure: 6 };
    const first = await shop.post('/financing/purchase', purchase);
    assert.equal(store.resultOf('order-1001')?.outcome, 'success');
    const replay = await shop.post('/financing/purchase', purchase);
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body, first.body);
    assert.equal(store.resultOf('order-1001')?.outcome, 'success');
  });
});
