/**
 * A new merchant's setup mistakes, as the log shows them: each line names what is wrong and the
 * setting that fixes it, and carries no secret, signature or query string.
 *
 * - A page whose origin is not allowed: `origin_refused` names the origin and the setting
 *   (`PG_ALLOWED_ORIGINS` for `serve`, the `allowedOrigins` option for the handler), and `serve`'s
 *   `listening` line lists the allowed origins.
 * - An element pointed at a path the endpoint does not have: an allowed origin's preflight is
 *   answered, so the browser reads the real `404 not_found` instead of a network error, and the log
 *   names the path (never its query).
 * - A shop with another hook secret: its 401/403 is logged with a hint naming the causes, for the
 *   order lookup and for the result webhook.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createJsonLogger } from '../../src/log/logger.ts';
import { HOOK_TOLERANCE_SECONDS } from '../../src/server/hook-signature.ts';
import { createResultWebhook } from '../../src/server/result-webhook.ts';
import { serve, type RunningServer, type ServeOptions } from '../../src/server/serve.ts';
import { ShopAvailability } from '../../src/server/shop-client.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { resultOf } from '../store/store-contract.ts';
import { GATEWAY_ENV } from './fake-gateway.ts';
import { HOOK_SECRET, startFakeShop, type FakeShop } from './fake-shop.ts';
import { ELEMENTS_ORIGIN, setup } from './harness.ts';

/** The walkthrough's page, and the origin the merchant wrote into the setting instead. */
const PAGE_ORIGIN = 'http://127.0.0.1:8911';
const CONFIGURED_ORIGIN = 'http://localhost:8911';
const TOKEN = 'tok-3e8a1c5b7d9f0a2c';
/** The shop's own secret: not the service's. */
const SHOP_SECRET = 'the-shop-was-started-with-another-secret-00';

const SIGNATURE_HINT =
  "the shop refused the service's signature: PG_HOOK_SECRET differs between the two, their clocks are more than 5 minutes apart";

/** The parsed log lines of one event. */
function events(logs: readonly string[], event: string): Record<string, unknown>[] {
  return logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === event);
}

function assertOneLine(logs: readonly string[]): void {
  for (const line of logs) assert.ok(!line.includes('\n'), `one line: ${line}`);
}

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

async function startService(env: Record<string, string>, options: ServeOptions = {}) {
  const logs: string[] = [];
  const service = await serve(
    { ...GATEWAY_ENV, PG_PORT: '0', ...env },
    { logger: createJsonLogger((line) => logs.push(line)), store: createMemoryStore(), ...options },
  );
  running.push(service);
  return { service, logs };
}

const askOrder = (url: string, origin: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: JSON.stringify({ merchant_reference: 'demo-1001', language: 'en' }),
  });

const preflight = (url: string, origin: string) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });

describe('a page whose origin is not allowed', () => {
  it('serve logs the refused origin and names PG_ALLOWED_ORIGINS; its listening line lists the allowed origins', async () => {
    const { service, logs } = await startService({ PG_ALLOWED_ORIGINS: CONFIGURED_ORIGIN });
    const answer = await askOrder(`${service.endpointUrl}/order`, PAGE_ORIGIN);
    assert.equal(answer.status, 403);
    assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'origin_refused');

    const [refused, ...more] = events(logs, 'origin_refused');
    assert.equal(more.length, 0);
    assert.equal(refused?.['route'], 'order');
    assert.equal(refused?.['origin'], PAGE_ORIGIN);
    assert.match(String(refused?.['hint']), /PG_ALLOWED_ORIGINS/);
    assert.doesNotMatch(String(refused?.['hint']), /allowedOrigins/, 'serve is configured by its environment');

    assert.deepEqual(events(logs, 'listening')[0]?.['allowed_origins'], [CONFIGURED_ORIGIN]);
    assertOneLine(logs);
  });

  it('serve lists no allowed origin when PG_ALLOWED_ORIGINS is not set', async () => {
    const { logs } = await startService({});
    assert.deepEqual(events(logs, 'listening')[0]?.['allowed_origins'], []);
  });

  it('the handler names its allowedOrigins option, not an environment variable', async () => {
    const harness = setup();
    const answer = await harness.post('/order', { merchant_reference: 'order-1001', language: 'en' }, { origin: PAGE_ORIGIN });
    assert.equal(answer.status, 403);
    const [refused] = events(harness.logs, 'origin_refused');
    assert.equal(refused?.['origin'], PAGE_ORIGIN);
    assert.match(String(refused?.['hint']), /allowedOrigins/);
    assert.doesNotMatch(String(refused?.['hint']), /PG_ALLOWED_ORIGINS/);
    assertOneLine(harness.logs);
  });

  it('keeps a hostile Origin header to a short line', async () => {
    const harness = setup();
    const origin = `https://${'a'.repeat(5_000)}.example`;
    assert.equal((await harness.post('/order', { merchant_reference: 'order-1001', language: 'en' }, { origin })).status, 403);
    const [refused] = events(harness.logs, 'origin_refused');
    assert.ok(String(refused?.['origin']).length <= 300, 'cut short');
    assertOneLine(harness.logs);
  });
});

describe('an element pointed at a path the endpoint does not have', () => {
  it('answers an allowed origin’s preflight, so the browser reads the 404; the log names the path without its query', async () => {
    const { service, logs } = await startService({ PG_ALLOWED_ORIGINS: CONFIGURED_ORIGIN });
    const wrong = `${service.url}/pg/order`;

    const asked = await preflight(`${wrong}?merchant_reference=demo-1001`, CONFIGURED_ORIGIN);
    assert.equal(asked.status, 204, 'a preflight must succeed for the browser to send the request');
    assert.equal(asked.headers.get('access-control-allow-origin'), CONFIGURED_ORIGIN);
    assert.match(asked.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(asked.headers.get('access-control-allow-headers') ?? '', /content-type/);

    const answer = await askOrder(`${wrong}?response_code=14000&signature=abc123`, CONFIGURED_ORIGIN);
    assert.equal(answer.status, 404);
    assert.equal(answer.headers.get('access-control-allow-origin'), CONFIGURED_ORIGIN, 'the element can read the refusal');
    assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'not_found');

    const notFound = events(logs, 'refused').filter((line) => line['code'] === 'not_found');
    assert.equal(notFound.length, 1, 'the preflight is answered, not refused');
    assert.equal(notFound[0]?.['path'], '/pg/order');
    const all = logs.join('\n');
    assert.ok(!all.includes('response_code') && !all.includes('abc123') && !all.includes('?'), 'never the query');
    assertOneLine(logs);
  });

  it('still refuses a disallowed origin’s preflight of an unknown path, without CORS headers', async () => {
    const { service } = await startService({ PG_ALLOWED_ORIGINS: CONFIGURED_ORIGIN });
    const asked = await preflight(`${service.url}/pg/order`, 'https://elsewhere.example');
    assert.equal(asked.status, 403);
    assert.equal(asked.headers.get('access-control-allow-origin'), null);
    assert.equal(asked.headers.get('access-control-allow-methods'), null);
  });

  it('the handler logs the path of a not_found too', async () => {
    const harness = setup();
    const answer = await harness.send(
      new Request(`https://shop.example/checkout/order?merchant_reference=order-1001`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ELEMENTS_ORIGIN },
        body: '{}',
      }),
    );
    assert.equal(answer.status, 404);
    const [refused] = events(harness.logs, 'refused');
    assert.equal(refused?.['code'], 'not_found');
    assert.equal(refused?.['path'], '/checkout/order');
    assert.ok(!harness.logs.join('\n').includes('order-1001'), 'never the query');
  });

  it('logs only the segments named as routes are: a phone number, a card in any digits, an address or a code typed into the path is a star', async () => {
    const harness = setup();
    const arabicCard = encodeURIComponent('٤١١١١١١١١١١١١١١١');
    for (const path of ['/pg/otp/%2B20%20100%20123%204567', '/pg/verify/482913', `/pg/${'x'.repeat(5_000)}`, `/pg/pay/${arabicCard}`, '/pg/u/jane.doe@example.com']) {
      assert.equal((await harness.send(new Request(`https://shop.example${path}`, { method: 'POST', body: '{}' }))).status, 404);
    }
    const paths = events(harness.logs, 'refused').map((line) => String(line['path']));
    assert.deepEqual([paths[0], paths[1], paths[3], paths[4]], ['/pg/otp/*', '/pg/verify/*', '/pg/pay/*', '/pg/u/*']);
    assert.ok((paths[2] ?? '').length <= 300);
    assert.ok(!harness.logs.join('\n').includes('4567') && !harness.logs.join('\n').includes('482913'));
  });
});

describe('a shop started with another PG_HOOK_SECRET', () => {
  let shop: FakeShop;
  before(async () => {
    shop = await startFakeShop([{ merchant_reference: 'demo-1001', amount: 250_000, currency: 'EGP', token: TOKEN }], SHOP_SECRET);
  });
  after(() => shop.stop());

  it('logs the order lookup’s 401 with a hint naming the secret, the clocks and PG_ORDER_URL', async () => {
    const { service, logs } = await startService({
      PG_ALLOWED_ORIGINS: CONFIGURED_ORIGIN,
      PG_ORDER_URL: shop.orderUrl,
      PG_HOOK_SECRET: HOOK_SECRET,
    });
    const answer = await askOrder(`${service.endpointUrl}/order`, CONFIGURED_ORIGIN, { 'pg-order-token': TOKEN });
    assert.equal(answer.status, 502);
    const [refused] = events(logs, 'order_lookup_refused');
    assert.equal(refused?.['status'], 401);
    assert.equal(refused?.['hint'], `${SIGNATURE_HINT}, or PG_ORDER_URL points at another app`);
    const all = logs.join('\n');
    assert.ok(!all.includes(HOOK_SECRET) && !all.includes(SHOP_SECRET) && !all.includes(TOKEN), 'no secret, no token');
    assertOneLine(logs);
  });

  /** One result delivered at once to a shop that answers `status` with `body`: whether it was taken, and the log. */
  async function deliverToShopAnswering(status: number, body: string): Promise<{ delivered: boolean; logs: string[] }> {
    const store = createMemoryStore();
    const logs: string[] = [];
    const log = createJsonLogger((line) => logs.push(line));
    const webhook = createResultWebhook({
      url: 'https://shop.example/pg-hooks/result',
      secret: HOOK_SECRET,
      timeoutMs: 1000,
      now: () => new Date('2026-11-26T10:00:00Z'),
      fetch: async () => new Response(body, { status }),
      results: store.results,
      log,
      availability: new ShopAvailability(log),
    });
    const result = resultOf('order-1', 'captured');
    await store.results.record(result, new Date('2026-11-26T09:59:00Z'));
    return { delivered: await webhook.deliverNow(result.idempotency_key), logs };
  }

  it('logs each refused webhook delivery (401 and 403) with the same hint naming PG_RESULT_WEBHOOK_URL', async () => {
    for (const status of [401, 403]) {
      const { delivered, logs } = await deliverToShopAnswering(status, '{"error":"mismatch"}');
      assert.equal(delivered, false);
      const [refused] = events(logs, 'result_refused_by_shop');
      assert.equal(refused?.['status'], status);
      assert.equal(refused?.['hint'], `${SIGNATURE_HINT}, or PG_RESULT_WEBHOOK_URL points at another app`);
      assert.ok(!logs.join('\n').includes(HOOK_SECRET));
      assertOneLine(logs);
    }
  });

  it('gives no such hint for a refusal that is not about the signature', async () => {
    const { logs } = await deliverToShopAnswering(400, '{}');
    const [refused] = events(logs, 'result_refused_by_shop');
    assert.equal(refused?.['status'], 400);
    assert.equal(refused?.['hint'], undefined);
  });

  it('names the tolerance the signatures are checked with', () => {
    assert.equal(HOOK_TOLERANCE_SECONDS, 5 * 60, 'the hint says 5 minutes');
  });
});
