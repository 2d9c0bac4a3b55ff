/**
 * The sandbox's outage tool: `POST sandbox-tools/faults` makes the next N server-to-server requests
 * answer HTTP 429 (a JSON body that is not the gateway's) or 503 (an HTML page), with Retry-After,
 * before the gateway looks at them, so that nothing they ask is done. Over loopback HTTP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callApi, signedAs, startLoopback, type LoopbackGateway } from './loopback.ts';
import { SANDBOX_MERCHANT } from '../../src/sandbox/merchants.ts';

let lb: LoopbackGateway;
before(async () => {
  lb = await startLoopback();
});
after(() => lb.close());

const tool = (method: string, body?: unknown) =>
  fetch(`${lb.origin}${lb.gateway.paths.tools}/faults`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

async function post(path: string, params: Record<string, unknown>): Promise<Response> {
  return fetch(`${lb.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await signedAs(SANDBOX_MERCHANT, params)),
  });
}

/** A server-to-server AUTHORIZATION of EGP 100.00 with the sandbox's approved Visa. */
const authorizationOf = (reference: string) => ({
  command: 'AUTHORIZATION',
  merchant_reference: reference,
  amount: '10000',
  currency: 'EGP',
  language: 'en',
  eci: 'ECOMMERCE',
  customer_email: 'buyer@example.com',
  card_number: '4111111111111111',
  expiry_date: '2908',
  card_security_code: '123',
});

const status = (reference: string) => ({ query_command: 'CHECK_STATUS', merchant_reference: reference, language: 'en' });

describe('POST sandbox-tools/faults', () => {
  it('answers the next N paymentApi requests 429 with Retry-After and an unsigned JSON body, then the gateway again', async () => {
    const planned = await tool('POST', { status: 429, count: 2, retry_after: 2 });
    assert.equal(planned.status, 200);
    assert.deepEqual(await planned.json(), { status: 429, count: 2, retry_after: 2 });
    for (let n = 0; n < 2; n++) {
      const answer = await post(lb.gateway.paths.paymentApi, status('nothing-here'));
      assert.equal(answer.status, 429);
      assert.equal(answer.headers.get('retry-after'), '2');
      const body = (await answer.json()) as Record<string, unknown>;
      assert.equal(body['signature'], undefined, 'not an answer of the gateway');
    }
    assert.deepEqual(await (await tool('GET')).json(), { count: 0 });
    assert.equal((await callApi(lb, status('nothing-here')))['response_code'], '12001', 'the gateway answers again');
  });

  it('answers 503 with an HTML page on the batch and reporting paths too', async () => {
    await tool('POST', { status: 503, count: 3, retry_after: 30 });
    for (const path of [lb.gateway.paths.reportingApi, lb.gateway.paths.batchApi, lb.gateway.paths.batchSandboxApi]) {
      const answer = await post(path, { query_command: 'GENERATE_REPORT', language: 'en' });
      assert.equal(answer.status, 503, path);
      assert.match(answer.headers.get('content-type') ?? '', /text\/html/);
      assert.equal(answer.headers.get('retry-after'), '30');
      assert.match(await answer.text(), /Service Unavailable/);
    }
  });

  it('fails only the operation it names, and what it fails is not done', async () => {
    const reference = `fault-capture-${Date.now()}`;
    const charged = await callApi(lb, authorizationOf(reference));
    assert.equal(charged['response_code'], '02000');
    await tool('POST', { status: 503, count: 1, operation: 'CAPTURE' });
    assert.equal((await callApi(lb, status(reference)))['authorized_amount'], '10000', 'another operation passes');
    const capture = { command: 'CAPTURE', merchant_reference: reference, amount: '10000', currency: 'EGP', language: 'en' };
    assert.equal((await post(lb.gateway.paths.paymentApi, capture)).status, 503);
    assert.equal(lb.gateway.order({ merchantReference: reference })?.capturedAmount, 0, 'the failed capture was not carried out');
    assert.equal((await callApi(lb, capture))['response_code'], '20064');
  });

  it('fails only the requests about the merchant_reference it names, the others passing through', async () => {
    const reference = `fault-one-${Date.now()}`;
    await callApi(lb, authorizationOf(reference));
    const planned = await tool('POST', { status: 503, count: 1, operation: 'CHECK_STATUS', merchant_reference: `${reference}.pg2` });
    assert.deepEqual(await planned.json(), { status: 503, count: 1, operation: 'CHECK_STATUS', merchant_reference: `${reference}.pg2` });
    assert.equal((await callApi(lb, status(reference)))['authorized_amount'], '10000', 'the order\'s own reference is answered');
    assert.equal((await post(lb.gateway.paths.paymentApi, status(`${reference}.pg2`))).status, 503);
    assert.deepEqual(await (await tool('GET')).json(), { count: 0 }, 'spent by the request it named');
  });

  it('answers late when asked for a slow gateway, having done what the request asked at once', async () => {
    const reference = `fault-slow-${Date.now()}`;
    const planned = await tool('POST', { delay_ms: 1_500, count: 1, operation: 'AUTHORIZATION' });
    assert.deepEqual(await planned.json(), { delay_ms: 1_500, count: 1, operation: 'AUTHORIZATION' });
    const authorization = authorizationOf(reference);
    // The caller gives up before the answer leaves: the authorization is held all the same.
    const asked = await fetch(`${lb.origin}${lb.gateway.paths.paymentApi}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await signedAs(SANDBOX_MERCHANT, authorization)),
      signal: AbortSignal.timeout(300),
    }).then(
      () => 'answered',
      () => 'gave up',
    );
    assert.equal(asked, 'gave up');
    assert.equal(lb.gateway.order({ merchantReference: reference })?.authorizedAmount, 10_000, 'done before the answer left');
    assert.equal((await callApi(lb, status(reference)))['authorized_amount'], '10000', 'the plan is spent: the next question is answered as usual');
    assert.deepEqual(await (await tool('GET')).json(), { count: 0 });
  });

  it('leaves the pages a browser opens alone', async () => {
    await tool('POST', { status: 503, count: 1 });
    const page = await fetch(`${lb.origin}${lb.gateway.paths.paymentPage}`, { method: 'POST', body: new URLSearchParams({ language: 'en' }) });
    assert.notEqual(page.status, 503);
    assert.deepEqual(await (await tool('DELETE')).json(), { count: 0 }, 'DELETE clears the plan');
  });

  it('refuses a plan out of bounds with 400 faults_invalid', async () => {
    for (const body of [{ status: 500, count: 1 }, { status: 429, count: 0 }, { status: 429, count: 1, retry_after: -1 }, { status: 429, count: 1, operation: 'capture' }, { status: 503, count: 1, merchant_reference: 'has space' }, { status: 503, count: 1, merchant_reference: 'x'.repeat(41) }, { count: 1 }, { delay_ms: 0, count: 1 }, { delay_ms: 200_000, count: 1 }]) {
      const answer = await tool('POST', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.deepEqual(await answer.json(), { error: 'faults_invalid' });
    }
    assert.throws(() => lb.gateway.injectFaults({ status: 429, count: 5_000 }), RangeError);
  });
});
