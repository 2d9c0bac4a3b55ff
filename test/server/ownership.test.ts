/**
 * Order ownership: `resolveOrder` is told who asks (the request, the route, and whether the
 * reference came from the browser or from a verified gateway answer), so an order is found only
 * for the session that created it. The demo follows the pattern.
 */
import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectedStatus, responseMessage } from '../../src/core/response.ts';
import { signParams } from '../../src/core/signature.ts';
import { requestCookie } from '../../src/server/http.ts';
import { InMemoryOrderStore, type OrderLookup } from '../../src/server/orders.ts';
import { createDemoBackend, DEMO_SESSION_COOKIE } from '../../demo/backend.ts';
import { ACCESS_CODE, MERCHANT_IDENTIFIER, RESPONSE_PHRASE } from './fake-gateway.ts';
import { BASE_PATH, ORDERS, RETURN_URL, setup, SHOP_ORIGIN } from './harness.ts';

const OWNER = 'session=alice';
const STRANGER = 'session=mallory';

/** The pattern of docs/endpoint.md: the order is the session's that created it, or the gateway's word. */
const store = new InMemoryOrderStore(ORDERS);
const owners = new Map([['order-1001', 'alice']]);
const lookups: OrderLookup[] = [];
const shop = setup({
  resolveOrder: (reference, lookup) => {
    lookups.push(lookup);
    if (lookup.referenceSource === 'gateway') return store.resolve(reference);
    const session = requestCookie(lookup.request, 'session');
    return session !== undefined && owners.get(reference) === session ? store.resolve(reference) : undefined;
  },
});

afterEach(() => {
  shop.gateway.reset();
  shop.results.length = 0;
  shop.ledger.clear();
  lookups.length = 0;
});

const ORDER = { merchant_reference: 'order-1001', language: 'en' } as const;

describe('when another session names an order', () => {
  it('does not reveal its amount or description (/order answers unknown_order)', async () => {
    const answer = await shop.post('/order', ORDER, { headers: { cookie: STRANGER } });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error.code, 'unknown_order');
    assert.ok(!JSON.stringify(answer.body).includes('250000'));
  });

  it('cannot issue a cash bill for it', async () => {
    const answer = await shop.post('/bill', ORDER, { headers: { cookie: STRANGER } });
    assert.equal(answer.status, 404);
    assert.equal(shop.gateway.callsOf('BILL_PRESENTMENT').length, 0);
  });

  it('is refused with no session at all', async () => {
    assert.equal((await shop.post('/hosted-page', { ...ORDER, command: 'PURCHASE' })).status, 404);
  });
});

describe('when the session that created the order names it', () => {
  it('answers, and tells resolveOrder the request, the route and that the browser named the reference', async () => {
    const answer = await shop.post('/order', ORDER, { headers: { cookie: OWNER } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.amount, 250_000);
    const [lookup] = lookups;
    assert.equal(lookup?.route, 'order');
    assert.equal(lookup?.referenceSource, 'browser');
    assert.equal(lookup?.request.headers.get('cookie'), OWNER);
  });

  it('issues the bill', async () => {
    assert.equal((await shop.post('/bill', ORDER, { headers: { cookie: OWNER } })).status, 200);
  });
});

describe('on the return path', () => {
  it('resolves the order from the verified gateway answer without a session (the cross-site post carries no Lax cookie)', async () => {
    shop.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    const fields = await signParams(
      {
        access_code: ACCESS_CODE,
        merchant_identifier: MERCHANT_IDENTIFIER,
        command: 'PURCHASE',
        merchant_reference: 'order-1001',
        amount: '250000',
        currency: 'EGP',
        language: 'en',
        return_url: RETURN_URL,
        response_code: '14000',
        response_message: responseMessage('14000', 'en'),
        status: expectedStatus('14000'),
      },
      RESPONSE_PHRASE,
      'sha256',
    );
    const answer = await shop.send(
      new Request(`${SHOP_ORIGIN}${BASE_PATH}/return`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields as Record<string, string>).toString(),
      }),
    );
    assert.match(answer.headers.get('location') ?? '', /outcome=success/);
    assert.equal(shop.results[0]?.error, undefined, 'not unknown_order');
    assert.deepEqual(
      lookups.map((lookup) => [lookup.route, lookup.referenceSource]),
      [['gatewayReturn', 'gateway']],
    );
  });
});

describe('a resolver written for one argument', () => {
  it('keeps working', async () => {
    const legacy = setup({ resolveOrder: (reference: string) => store.get(reference) });
    assert.equal((await legacy.post('/order', ORDER)).status, 200);
  });
});

describe('the demo shop', () => {
  const origin = 'http://127.0.0.1:5999';
  const demo = createDemoBackend(origin);
  after(() => demo.gateway.reset());

  const call = (path: string, init: RequestInit = {}) => demo.handle(new Request(`${origin}${path}`, init));
  const createOrder = async (cookie?: string) => {
    const response = await call('/demo-api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ lines: [{ sku: 'buds', quantity: 1 }] }),
    });
    assert.equal(response.status, 201, await response.clone().text());
    const setCookie = response.headers.get('set-cookie') ?? '';
    const order = (await response.json()) as { merchant_reference: string };
    return { reference: order.merchant_reference, setCookie, cookie: cookie ?? setCookie.split(';')[0] ?? '' };
  };
  const orderRoute = (reference: string, cookie?: string) =>
    call('/pg/order', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ merchant_reference: reference, language: 'en' }),
    });

  it('opens an HttpOnly, SameSite=Lax session with the first order', async () => {
    const { setCookie } = await createOrder();
    assert.match(setCookie, new RegExp(`^${DEMO_SESSION_COOKIE}=[0-9a-f]{32};`));
    assert.match(setCookie, /; HttpOnly/);
    assert.match(setCookie, /; SameSite=Lax/);
  });

  it('resolves its orders for that session only', async () => {
    const alice = await createOrder();
    const mallory = await createOrder();
    assert.equal((await orderRoute(alice.reference, alice.cookie)).status, 200);
    assert.equal((await orderRoute(alice.reference, mallory.cookie)).status, 404);
    assert.equal((await orderRoute(alice.reference)).status, 404);
  });

  it('keeps one session for the orders a browser creates', async () => {
    const first = await createOrder();
    const second = await createOrder(first.cookie);
    assert.equal((await orderRoute(second.reference, first.cookie)).status, 200);
  });

  it('shows an order’s result page to its session only', async () => {
    const alice = await createOrder();
    const mallory = await createOrder();
    const own = await call(`/demo-api/orders/${alice.reference}`, { headers: { cookie: alice.cookie } });
    assert.equal(own.status, 200);
    // The status query is made on the owner's behalf (this test runs no gateway, so it cannot be answered).
    const view = (await own.json()) as { status: { error?: { code?: string } } };
    assert.notEqual(view.status.error?.code, 'unknown_order');
    assert.equal((await call(`/demo-api/orders/${alice.reference}`, { headers: { cookie: mallory.cookie } })).status, 404);
  });
});
