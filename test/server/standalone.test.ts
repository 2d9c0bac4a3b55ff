/**
 * `pg-checkout serve` as a standalone service beside a shop's own back end, over real loopback
 * HTTP: orders come from the shop's signed order lookup, results go to its webhook once per
 * idempotency key (kept and sent again while the shop is down), the shop can list and acknowledge
 * results itself, and the customer lands on the service's own result page when the shop has none.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { orderResult } from '../../src/core/endpoint-api.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { signParams } from '../../src/core/signature.ts';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from '../../src/server/hook-signature.ts';
import { createJsonLogger, silentLogger } from '../../src/log/logger.ts';
import { createHttpOrderSource } from '../../src/server/order-source.ts';
import { ShopAvailability } from '../../src/server/shop-client.ts';
import { InMemoryRateLimiter } from '../../src/server/rate-limit.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { serve, type RunningServer, type ServeOptions } from '../../src/server/serve.ts';
import { ACCESS_CODE, createFakeGateway, type FakeGateway, GATEWAY_BASE_URL, GATEWAY_ENV, MERCHANT_IDENTIFIER, RESPONSE_PHRASE } from './fake-gateway.ts';
import { HOOK_SECRET, startFakeShop, type FakeShop } from './fake-shop.ts';
import { parse } from '../../src/core/shape.ts';
import { signedTokenization } from './support/returns.ts';

const TOKEN = 'tok-7b1e2f9c0d3a4e5f';
const SHOP_ORIGIN = 'http://127.0.0.1:9';

let shop: FakeShop;
before(async () => {
  shop = await startFakeShop([
    { merchant_reference: 'shop-2001', amount: 250_000, currency: 'EGP', description: 'Headphones', token: TOKEN },
    { merchant_reference: 'shop-2002', amount: 19_900, currency: 'SAR', token: 'tok-other' },
    // A pre-order: the shop authorizes it, and captures it when it ships.
    { merchant_reference: 'shop-2003', amount: 99_900, currency: 'EGP', command: 'AUTHORIZATION', token: TOKEN },
  ]);
});
after(() => shop.stop());

interface Started {
  readonly service: RunningServer;
  readonly gateway: FakeGateway;
  readonly logs: string[];
}

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
  shop.fault = 'none';
  shop.webhookStatus = undefined;
  shop.lookups.length = 0;
  shop.deliveries.length = 0;
  shop.results.clear();
  await shop.start().catch(() => {}); // a test that stopped the shop leaves it stopped
});

async function startService(extra: Record<string, string> = {}, options: ServeOptions = {}): Promise<Started> {
  const gateway = createFakeGateway();
  const logs: string[] = [];
  const service = await serve(
    {
      ...GATEWAY_ENV,
      PG_PORT: '0',
      PG_ALLOWED_ORIGINS: SHOP_ORIGIN,
      PG_ORDER_URL: shop.orderUrl,
      PG_RESULT_WEBHOOK_URL: shop.webhookUrl,
      PG_HOOK_SECRET: HOOK_SECRET,
      PG_SHOP_URL: `${SHOP_ORIGIN}/`,
      PG_HOOK_TIMEOUT_MS: '1000',
      ...extra,
    },
    {
      logger: createJsonLogger((line) => logs.push(line)),
      fetch: (input, init) =>
        String(input instanceof Request ? input.url : input).startsWith(GATEWAY_BASE_URL)
          ? gateway.fetch(input, init)
          : globalThis.fetch(input, init),
      webhookRetry: { firstRetryMs: 50, maxRetryMs: 200, pollIntervalMs: 25 },
      orderLookupRetry: { retries: 2, retryDelayMs: 10 },
      store: createMemoryStore(),
      ...options,
    },
  );
  running.push(service);
  return { service, gateway, logs };
}

const askOrder = (service: RunningServer, reference: string, headers: Record<string, string> = {}) =>
  fetch(`${service.endpointUrl}/order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, ...headers },
    body: JSON.stringify({ merchant_reference: reference, language: 'en' }),
  });

/** What the gateway posts back to the service's return URL after a card payment. */
async function postReturn(service: RunningServer, reference: string, code: KnownResponseCode = '14000', language = 'en') {
  const fields = (await signParams(
    {
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      language,
      command: 'PURCHASE',
      merchant_reference: reference,
      amount: '250000',
      currency: 'EGP',
      svc_id: '1700000001',
      response_code: code,
      response_message: responseMessage(code, 'en'),
      status: expectedStatus(code),
    },
    RESPONSE_PHRASE,
    'sha256',
  )) as Record<string, string>;
  return postReturnFields(service, fields);
}

/** Posts signed return fields as the customer's browser does; the redirect's location. */
async function postReturnFields(service: RunningServer, fields: Record<string, string>): Promise<URL> {
  const response = await fetch(`${service.endpointUrl}/return`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  assert.equal(response.status, 303);
  return new URL(response.headers.get('location') ?? '');
}

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Failed deliveries of the one result the shop has not acknowledged. */
const attemptsOf = async (service: RunningServer): Promise<number> =>
  (await service.store.results.list({ limit: 1 }))[0]?.attempts ?? 0;

const pending = (service: RunningServer) => service.store.results.list({ state: 'pending', limit: 10 });

const events = (logs: readonly string[], event: string) => logs.filter((line) => JSON.parse(line).event === event);

/** A signed request to one of the service's results routes, as the shop's back end sends it. */
async function resultsRoute(service: RunningServer, route: 'pending' | 'acknowledge', body: unknown, options: { secret?: string; at?: Date; language?: string } = {}) {
  const text = JSON.stringify(body);
  return fetch(`${service.endpointUrl}/results/${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'accept-language': options.language ?? 'en',
      [HOOK_SIGNATURE_HEADER]: await signHookBody(text, options.secret ?? HOOK_SECRET, options.at),
    },
    body: text,
  });
}

describe('the order lookup (PG_ORDER_URL)', () => {
  it('asks the shop, signed, passing on the order token, and answers the shop’s order', async () => {
    const { service, logs } = await startService();
    const response = await askOrder(service, 'shop-2001', { 'pg-order-token': TOKEN });
    assert.equal(response.status, 200);
    assert.deepEqual(parse(orderResult, await response.json()), {
      merchant_reference: 'shop-2001',
      amount: 250_000,
      currency: 'EGP',
      description: 'Headphones',
    });
    assert.deepEqual(shop.lookups, [
      { type: 'order_lookup', merchant_reference: 'shop-2001', route: 'order', reference_source: 'browser', headers: { 'pg-order-token': TOKEN } },
    ]);
    assert.match(events(logs, 'listening')[0] ?? '', /"orders":"PG_ORDER_URL"/);
  });

  it('answers unknown_order when the shop says the order is not the caller’s', async () => {
    const { service } = await startService();
    const response = await askOrder(service, 'shop-2001', { 'pg-order-token': 'tok-someone-else' });
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'unknown_order');
  });

  it('passes on only the headers it is told to', async () => {
    const { service } = await startService({ PG_ORDER_FORWARD_HEADERS: 'cookie' });
    await askOrder(service, 'shop-2001', { 'pg-order-token': TOKEN, cookie: 'shop_session=abc', 'x-other': '1' });
    assert.deepEqual(shop.lookups[0]?.headers, { cookie: 'shop_session=abc' });
  });

  for (const [fault, logged] of [
    ['forged', 'order_lookup_signature_invalid'],
    ['unsigned', 'order_lookup_signature_invalid'],
    ['malformed', 'order_lookup_invalid'],
    ['other-order', 'order_lookup_invalid'],
  ] as const) {
    it(`refuses a ${fault} answer with 502 order_lookup_failed, and signs nothing`, async () => {
      const { service, gateway, logs } = await startService();
      shop.fault = fault;
      const response = await fetch(`${service.endpointUrl}/hosted-page`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, 'pg-order-token': TOKEN, 'accept-language': 'ar' },
        body: JSON.stringify({ merchant_reference: 'shop-2001', language: 'ar', command: 'PURCHASE' }),
      });
      assert.equal(response.status, 502);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(error.code, 'order_lookup_failed');
      assert.match(error.message, /المتجر/, 'in the request’s language');
      assert.equal(events(logs, logged).length, 1);
      assert.equal(gateway.calls.length, 0, 'nothing reached the gateway');
      assert.equal(shop.lookups.length, 1, 'a forged or malformed answer is not asked again');
    });
  }

  it('names the fields of a malformed answer in its log line, never their values', async () => {
    const { service, logs } = await startService();
    shop.fault = 'malformed';
    await askOrder(service, 'shop-2001', { 'pg-order-token': TOKEN });
    const line = JSON.parse(events(logs, 'order_lookup_invalid')[0] ?? '{}') as { fields?: string[] };
    assert.deepEqual(line.fields, ['amount']);
    assert.ok(!logs.join('\n').includes('2500.00'));
  });

  it('gives up on a slow shop after its time limit and a few retries, with one log line', async () => {
    const { service, logs } = await startService({ PG_HOOK_TIMEOUT_MS: '200' });
    shop.fault = 'slow';
    shop.slowMs = 1_000;
    const started = Date.now();
    const first = await askOrder(service, 'shop-2001', { 'pg-order-token': TOKEN });
    const second = await askOrder(service, 'shop-2001', { 'pg-order-token': TOKEN });
    assert.equal(first.status, 502);
    assert.equal(second.status, 502);
    assert.ok(Date.now() - started < 3_000, 'three attempts of 200 ms each, twice');
    assert.equal(shop.lookups.length, 6, 'the first attempt and two retries, each time');
    assert.equal(events(logs, 'shop_unreachable').length, 1, 'one line while the shop stays down');
    shop.fault = 'none';
    assert.equal((await askOrder(service, 'shop-2001', { 'pg-order-token': TOKEN })).status, 200);
    assert.equal(events(logs, 'shop_reachable').length, 1);
  });

  it('serves its demo orders when PG_ORDER_URL is not set, and says so', async () => {
    const { service, logs } = await startService({ PG_ORDER_URL: '', PG_RESULT_WEBHOOK_URL: '', PG_HOOK_SECRET: '' });
    assert.equal((await askOrder(service, 'demo-1001')).status, 200);
    assert.match(events(logs, 'listening')[0] ?? '', /demo orders in memory \(4\); set PG_ORDER_URL/);
    assert.ok(service.orders);
  });
});

describe('what the browser may ask the service to sign (PG_PAYMENT_COMMANDS, the order’s command)', () => {
  const askHostedPage = (service: RunningServer, reference: string, command: string, language = 'en') =>
    fetch(`${service.endpointUrl}/hosted-page`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, 'pg-order-token': TOKEN },
      body: JSON.stringify({ merchant_reference: reference, language, command }),
    });

  it('refuses an AUTHORIZATION by default, in English and Arabic, and signs nothing', async () => {
    const { service, gateway } = await startService();
    for (const [language, message] of [
      ['en', 'This operation cannot be requested from the browser.'],
      ['ar', 'لا يمكن طلب هذه العملية من المتصفح.'],
    ] as const) {
      const response = await askHostedPage(service, 'shop-2001', 'AUTHORIZATION', language);
      assert.equal(response.status, 403);
      assert.deepEqual(await response.json(), { error: { code: 'command_refused', message, field: 'command' } });
    }
    assert.equal(gateway.calls.length, 0, 'nothing reached the gateway');
  });

  it('signs an AUTHORIZATION when PG_PAYMENT_COMMANDS allows it', async () => {
    const { service } = await startService({ PG_PAYMENT_COMMANDS: 'PURCHASE,AUTHORIZATION' });
    const response = await askHostedPage(service, 'shop-2001', 'AUTHORIZATION');
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { fields: Record<string, string> }).fields['command'], 'AUTHORIZATION');
  });

  it('takes the order’s command from the shop’s answer: the only one signed for that order', async () => {
    const { service, gateway } = await startService();
    const authorized = await askHostedPage(service, 'shop-2003', 'AUTHORIZATION');
    assert.equal(authorized.status, 200);
    assert.equal(((await authorized.json()) as { fields: Record<string, string> }).fields['command'], 'AUTHORIZATION');
    gateway.calls.length = 0;
    const purchase = await askHostedPage(service, 'shop-2003', 'PURCHASE');
    assert.equal(purchase.status, 403);
    assert.equal(((await purchase.json()) as { error: { code: string } }).error.code, 'command_refused');
    assert.equal(gateway.calls.length, 0);
  });

  it('refuses a shop’s answer whose command is neither PURCHASE nor AUTHORIZATION, naming the field', async () => {
    const logs: string[] = [];
    const resolve = createHttpOrderSource({
      url: 'https://shop.example/pg-hooks/order',
      secret: HOOK_SECRET,
      timeoutMs: 1_000,
      now: () => new Date(),
      fetch: async () => {
        const text = JSON.stringify({ merchant_reference: 'shop-2001', amount: 250_000, currency: 'EGP', command: 'CAPTURE' });
        return new Response(text, { headers: { [HOOK_SIGNATURE_HEADER]: await signHookBody(text, HOOK_SECRET) } });
      },
      orderMemory: createMemoryStore().orders,
      log: createJsonLogger((line) => logs.push(line)),
      availability: new ShopAvailability(silentLogger),
    });
    const request = new Request('https://pay.example/hosted-page', { method: 'POST' });
    await assert.rejects(async () => resolve('shop-2001', { request, route: 'hostedPage', referenceSource: 'browser' }), /order_lookup_failed/);
    assert.deepEqual((JSON.parse(events(logs, 'order_lookup_invalid')[0] ?? '{}') as { fields?: string[] }).fields, ['command']);
  });

  it('asks the shop about the order with the command the browser asks for', async () => {
    const { service } = await startService();
    await askHostedPage(service, 'shop-2003', 'AUTHORIZATION');
    await askOrder(service, 'shop-2003', { 'pg-order-token': TOKEN });
    assert.deepEqual(
      shop.lookups.map((lookup) => [lookup.route, lookup.command]),
      [
        ['hostedPage', 'AUTHORIZATION'],
        ['order', undefined],
      ],
    );
  });

  it('tells the shop which command the browser asks for in the lookup, and nothing when it asks for none', async () => {
    const resolve = createHttpOrderSource({
      url: shop.orderUrl,
      secret: HOOK_SECRET,
      timeoutMs: 1_000,
      now: () => new Date(),
      fetch: globalThis.fetch,
      forwardHeaders: ['pg-order-token'],
      orderMemory: createMemoryStore().orders,
      log: silentLogger,
      availability: new ShopAvailability(silentLogger),
    });
    const request = new Request('https://pay.example/hosted-page', { method: 'POST', headers: { 'pg-order-token': TOKEN } });
    const order = await resolve('shop-2003', { request, route: 'hostedPage', referenceSource: 'browser', command: 'PURCHASE' });
    assert.equal(order?.command, 'AUTHORIZATION', 'the shop’s own command, for the endpoint to hold the browser to');
    await resolve('shop-2001', { request, route: 'merchantPage', referenceSource: 'browser' });
    assert.deepEqual(
      shop.lookups.map((lookup) => [lookup.route, lookup.command]),
      [
        ['hostedPage', 'PURCHASE'],
        ['merchantPage', undefined],
      ],
    );
    assert.ok(!('command' in (shop.lookups[1] ?? {})), 'no command field at all');
  });
});

describe('the result webhook (PG_RESULT_WEBHOOK_URL)', () => {
  it('posts each verified result once, signed, before the customer is redirected', async () => {
    const { service, gateway } = await startService();
    gateway.holds('shop-2001', 'captured');
    await postReturn(service, 'shop-2001');
    await postReturn(service, 'shop-2001'); // the customer's browser posts the return again
    assert.equal(shop.deliveries.length, 1);
    const [delivery] = shop.deliveries;
    const verified = await verifyHookSignature(delivery?.body ?? '', delivery?.signature, HOOK_SECRET);
    assert.equal(verified.valid, true);
    const result = shop.results.get('shop-2001:1700000001:captured');
    assert.equal(result?.['outcome'], 'success');
    assert.equal(result?.['amount'], 250_000);
    assert.deepEqual(await pending(service), [], 'acknowledged by the shop’s 2xx');
  });

  it('keeps a result while the shop is down and delivers it once when it is back, logging one line', async () => {
    const { service, gateway, logs } = await startService();
    // The customer opened the checkout while the shop was up…
    assert.equal((await askOrder(service, 'shop-2001', { 'pg-order-token': TOKEN })).status, 200);
    await shop.stop();
    gateway.holds('shop-2001', 'captured');
    // …and comes back from the payment page while it is down: the result is confirmed all the same.
    const landing = await postReturn(service, 'shop-2001');
    assert.equal(landing.searchParams.get('outcome'), 'success');
    await until(async () => events(logs, 'result_delivered').length === 0 && shop.deliveries.length === 0 && (await attemptsOf(service)) >= 3, 'failed retries');
    const [waiting] = await pending(service);
    assert.equal(waiting?.result.idempotency_key, 'shop-2001:1700000001:captured');
    assert.equal(waiting?.last_error, 'network');
    assert.equal(events(logs, 'shop_unreachable').filter((line) => line.includes('result_webhook')).length, 1);
    await shop.start();
    await until(() => shop.results.size === 1, 'the delivery after the shop came back');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(shop.deliveries.length, 1, 'delivered once');
    assert.deepEqual(await pending(service), []);
    assert.equal(events(logs, 'shop_reachable').filter((line) => line.includes('result_webhook')).length, 1);
  });

  it('sends a result the shop refuses again, naming the status each time', async () => {
    const { service, gateway, logs } = await startService();
    shop.webhookStatus = 422;
    gateway.holds('shop-2001', 'captured');
    await postReturn(service, 'shop-2001');
    await until(() => events(logs, 'result_refused_by_shop').length >= 2, 'a second refused delivery');
    assert.equal(shop.results.size, 0);
    assert.equal(events(logs, 'shop_unreachable').length, 0, 'the shop answers: it is not down');
    assert.equal((await pending(service)).length, 1, 'still waiting for the shop');
  });
});

describe('the results routes', () => {
  it('lists the results the shop has not acknowledged, signed, and acknowledges one', async () => {
    const { service, gateway } = await startService({ PG_RESULT_WEBHOOK_URL: '' });
    gateway.holds('shop-2001', 'captured');
    await postReturn(service, 'shop-2001');
    const listed = await resultsRoute(service, 'pending', {});
    assert.equal(listed.status, 200);
    const text = await listed.text();
    assert.equal((await verifyHookSignature(text, listed.headers.get(HOOK_SIGNATURE_HEADER), HOOK_SECRET)).valid, true);
    const { results } = JSON.parse(text) as { results: { result: { idempotency_key: string }; attempts: number }[] };
    assert.deepEqual(results.map((entry) => entry.result.idempotency_key), ['shop-2001:1700000001:captured']);
    const acknowledged = await resultsRoute(service, 'acknowledge', { idempotency_key: 'shop-2001:1700000001:captured' });
    assert.equal(acknowledged.status, 200);
    assert.deepEqual(await acknowledged.json(), { acknowledged: 'shop-2001:1700000001:captured' });
    const again = await resultsRoute(service, 'acknowledge', { idempotency_key: 'shop-2001:1700000001:captured' });
    assert.equal(again.status, 404);
    assert.equal(((await again.json()) as { error: { code: string; field: string } }).error.field, 'idempotency_key');
    assert.deepEqual(((await (await resultsRoute(service, 'pending', {})).json()) as { results: unknown[] }).results, []);
  });

  it('refuses a request signed with another secret, or outside the five-minute window', async () => {
    const { service, logs } = await startService();
    for (const options of [{ secret: 'x'.repeat(40) }, { at: new Date(Date.now() - 6 * 60_000) }, { at: new Date(Date.now() + 6 * 60_000) }]) {
      const response = await resultsRoute(service, 'pending', {}, options);
      assert.equal(response.status, 401);
      const { error } = (await response.json()) as { error: { code: string; field: string } };
      assert.deepEqual([error.code, error.field], ['hook_signature_invalid', 'pg-signature']);
    }
    assert.deepEqual(events(logs, 'results_signature_invalid').map((line) => JSON.parse(line).reason), ['mismatch', 'expired', 'expired']);
    assert.ok(!logs.join('\n').includes(HOOK_SECRET));
  });

  it('names the field at fault in the request’s language', async () => {
    const { service } = await startService();
    const response = await resultsRoute(service, 'pending', { limit: 0 }, { language: 'ar' });
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as { error: { code: string; field: string; message: string } };
    assert.equal(error.field, 'limit');
    assert.match(error.message, /^limit: .*[\u0600-\u06ff]/);
  });

  it('does not exist without PG_HOOK_SECRET', async () => {
    const { service } = await startService({ PG_ORDER_URL: '', PG_RESULT_WEBHOOK_URL: '', PG_HOOK_SECRET: '' });
    assert.equal((await resultsRoute(service, 'pending', {})).status, 404);
  });
});

describe('the service’s own result page (no PG_RESULT_URL)', () => {
  it('sends the customer to a plain page in the payment’s language, right to left in Arabic', async () => {
    const { service, gateway } = await startService();
    gateway.holds('shop-2001', 'captured');
    const landing = await postReturn(service, 'shop-2001', '14000', 'ar');
    assert.equal(landing.pathname, '/result');
    const page = await fetch(landing);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-security-policy'), "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    const html = await page.text();
    assert.match(html, /<html lang="ar" dir="rtl">/);
    assert.match(html, /<main data-outcome="success">/);
    assert.match(html, /<h1>تم الدفع بنجاح<\/h1>/);
    assert.match(html, new RegExp(`<a href="${SHOP_ORIGIN}/">العودة إلى المتجر</a>`));
    assert.ok(!/<script|\sstyle=|\son[a-z]+=/i.test(html), 'no script, no inline style or handler');
    const styles = await fetch(new URL('/result.css', landing));
    assert.match(styles.headers.get('content-type') ?? '', /^text\/css/);
  });

  it('does not believe a typed ?outcome=success: without the return’s proof it shows nothing of the order', async () => {
    const { service } = await startService();
    const html = await (await fetch(`${service.endpointUrl}/result?merchant_reference=shop-2002&outcome=success`, { headers: { 'accept-language': 'en' } })).text();
    assert.match(html, /<main data-outcome="private">/);
    assert.ok(!html.includes('Payment successful') && !html.includes('shop-2002'));
    assert.ok(!html.includes('http-equiv="refresh"'));
  });

  it('shows an order’s outcome only to the browser the gateway returned, never to someone who knows the reference', async () => {
    const { service, gateway } = await startService();
    gateway.holds('shop-2001', 'declined');
    const landing = await postReturn(service, 'shop-2001', '13001');
    assert.match(landing.searchParams.get('proof') ?? '', /^\d+\.[A-Za-z0-9_-]{43}$/, 'the return signs a proof into its redirect');
    const own = await (await fetch(landing, { headers: { 'accept-language': 'en' } })).text();
    assert.match(own, /<main data-outcome="failure">/);
    assert.match(own, /shop-2001/);
    const pages = [
      `${service.endpointUrl}/result?merchant_reference=shop-2001`,
      `${service.endpointUrl}/result?merchant_reference=shop-2001&outcome=failure`,
      // A proof of another order, and an altered one.
      `${service.endpointUrl}/result?merchant_reference=shop-2002&proof=${landing.searchParams.get('proof')}`,
      `${service.endpointUrl}/result?merchant_reference=shop-2001&proof=${(landing.searchParams.get('proof') ?? '').replace(/\.(.)/, (_, c: string) => (c === 'A' ? '.B' : '.A'))}`,
    ];
    for (const page of pages) {
      const html = await (await fetch(page, { headers: { 'accept-language': 'en' } })).text();
      assert.match(html, /<main data-outcome="private">/, page);
      assert.ok(!/Payment not completed|declined|shop-2001|shop-2002/i.test(html), `nothing of the order: ${page}`);
    }
  });

  it('gives a return whose signature does not verify no proof: its redirect shows nothing of the order it names', async () => {
    const { service, gateway } = await startService();
    gateway.holds('shop-2001', 'captured');
    await postReturn(service, 'shop-2001', '14000');
    // Anyone can post a return naming a reference they know, with a signature of their own making.
    const forged = await postReturnFields(service, { merchant_reference: 'shop-2001', response_code: '14000', signature: 'f'.repeat(64) });
    assert.equal(forged.searchParams.get('error'), 'gateway_signature_invalid');
    assert.equal(forged.searchParams.get('proof'), null);
    const html = await (await fetch(forged, { headers: { 'accept-language': 'en' } })).text();
    assert.match(html, /<main data-outcome="private">/);
    assert.ok(!/Payment successful|2,500|400555|shop-2001/.test(html), 'nothing of the paid order');
  });

  it('says why a card past the order’s limit was not charged, not the order’s earlier decline', async () => {
    const { service, gateway } = await startService({ PG_CARD_ATTEMPTS_PER_HOUR: '1' });
    gateway.answer('TOKEN_PAYMENT', () => ({ code: '13001' }));
    const withCard = async (token: string) =>
      (await fetch(await postReturnFields(service, await signedTokenization('shop-2001', token, { language: 'ar' })))).text();
    assert.match(await withCard('tok-stolen-1'), /<h1>تم رفض الدفع<\/h1>/, 'the first card is charged and declined');
    const refused = await withCard('tok-stolen-2');
    assert.equal(gateway.callsOf('TOKEN_PAYMENT').length, 1, 'the second card is not charged');
    assert.match(refused, /<html lang="ar" dir="rtl">/);
    assert.match(refused, /<p class="reason">جُرّبت بطاقات كثيرة لهذا الطلب/);
    assert.ok(!refused.includes('تم رفض'), 'not the first card’s decline');
  });
});

describe('several instances behind a load balancer', () => {
  it('share one store: a result is reported and delivered once, and any instance lists it', async () => {
    const store = createMemoryStore();
    const limiter = new InMemoryRateLimiter({ limit: 5, windowSeconds: 900 });
    const first = await startService({ PG_RESULT_WEBHOOK_URL: '' }, { store, otpSendLimiter: limiter });
    const second = await startService({ PG_RESULT_WEBHOOK_URL: '' }, { store, otpSendLimiter: limiter });
    first.gateway.holds('shop-2001', 'captured');
    second.gateway.holds('shop-2001', 'captured');
    await postReturn(first.service, 'shop-2001');
    await postReturn(second.service, 'shop-2001'); // the same return, answered by the other instance
    assert.equal(events(first.logs, 'payment_result').length, 1);
    assert.equal(events(second.logs, 'payment_result_replayed').length, 1);
    const listed = (await (await resultsRoute(second.service, 'pending', {})).json()) as { results: unknown[] };
    assert.equal(listed.results.length, 1);
  });
});

describe('what the service logs', () => {
  it('never logs the hook secret, a signature, the order token or a cookie', async () => {
    const { service, gateway, logs } = await startService({ PG_ORDER_FORWARD_HEADERS: 'pg-order-token,cookie' });
    await askOrder(service, 'shop-2001', { 'pg-order-token': TOKEN, cookie: 'shop_session=s3cr3t-session' });
    gateway.holds('shop-2001', 'captured');
    await postReturn(service, 'shop-2001');
    await shop.stop();
    await askOrder(service, 'shop-2001', { 'pg-order-token': TOKEN, cookie: 'shop_session=s3cr3t-session' });
    const all = logs.join('\n');
    for (const secret of [HOOK_SECRET, TOKEN, 's3cr3t-session', 'v1=']) assert.ok(!all.includes(secret), secret);
  });
});
