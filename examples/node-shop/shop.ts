/**
 * The PHP example shop again, in Hono on Node: a product, an order per checkout with an opaque
 * token for its customer, <pg-checkout> from the bundle folder, the two signed hooks that
 * `pg-checkout serve` calls, and a result page that shows what the webhook stored.
 *
 *   PG_HOOK_SECRET=… npx tsx examples/node-shop/shop.ts      (see README.md)
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { HOOK_SIGNATURE_HEADER, resultWebhook, signHookBody, verifyHookSignature, type OrderLookupRequest } from 'pg-checkout/server';

interface Order {
  readonly merchant_reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly description: string;
  readonly session: string;
  readonly token: string;
}

export interface ShopOptions {
  /** The service's endpoint URL, as the elements are given it. */
  readonly serviceUrl: string;
  readonly hookSecret: string;
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function createShop({ serviceUrl, hookSecret }: ShopOptions): Hono {
  const orders = new Map<string, Order>();
  const results = new Map<string, Record<string, unknown>>(); // by idempotency key
  const files = createRequire(import.meta.url);
  const service = new URL(serviceUrl).origin;
  const app = new Hono();

  /** A signed JSON answer: the service refuses an unsigned one. */
  const signedJson = async (c: Context, status: 200 | 400 | 401 | 404, value: unknown) => {
    const body = JSON.stringify(value);
    return c.body(body, status, { 'content-type': 'application/json', [HOOK_SIGNATURE_HEADER]: await signHookBody(body, hookSecret) });
  };
  /** The body of a request signed with the shared secret in the last five minutes, else undefined. */
  const signedBody = async (c: Context) => {
    const body = await c.req.text();
    const verified = await verifyHookSignature(body, c.req.header(HOOK_SIGNATURE_HEADER), hookSecret);
    return verified.valid ? body : undefined;
  };
  const session = (c: Context) => {
    let id = getCookie(c, 'shop_session');
    if (!id) setCookie(c, 'shop_session', (id = randomBytes(18).toString('hex')), { httpOnly: true, sameSite: 'Lax', path: '/' });
    return id;
  };
  const page = (c: Context, title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>, refresh = false) => {
    c.header('content-security-policy', `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${service}; form-action 'self' ${service}; base-uri 'self'; frame-ancestors 'none'; object-src 'none'`);
    return c.html(html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>${refresh ? html`<meta http-equiv="refresh" content="2">` : ''}
<link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/default.css"><script type="module" src="/assets/pg-checkout/pg-checkout.js"></script></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`);
  };
  const ownOrder = (c: Context, reference: string) => {
    const order = orders.get(reference);
    return order && sameText(order.session, session(c)) ? order : undefined;
  };

  // The bundle folder: pg-checkout.js and the chunks it imports relatively (chunks/…), as files.
  const bundleDir = dirname(files.resolve('pg-checkout/bundle'));
  app.get('/assets/pg-checkout/*', async (c) => {
    const name = c.req.path.slice('/assets/pg-checkout/'.length);
    if (!/^(chunks\/)?[\w.-]+\.js$/.test(name)) return c.notFound();
    const contents = await readFile(join(bundleDir, name)).catch(() => undefined);
    return contents ? c.body(contents, 200, { 'content-type': 'text/javascript; charset=utf-8' }) : c.notFound();
  });
  app.get('/assets/default.css', async (c) =>
    c.body(await readFile(files.resolve('pg-checkout/themes/default.css')), 200, { 'content-type': 'text/css; charset=utf-8' }));

  app.get('/', (c) => page(c, 'Noise-cancelling headphones',
    html`<p>EGP 2,500.00</p><form method="post" action="/checkout"><button id="buy" type="submit">Check out</button></form>`));

  app.post('/checkout', (c) => {
    const reference = `node-${randomBytes(6).toString('hex')}`;
    orders.set(reference, {
      merchant_reference: reference, amount: 250_000, currency: 'EGP', description: 'Noise-cancelling headphones',
      session: session(c), token: randomBytes(24).toString('hex'),
    });
    return c.redirect(`/checkout?merchant_reference=${reference}`, 303);
  });

  app.get('/checkout', (c) => {
    const order = ownOrder(c, c.req.query('merchant_reference') ?? '');
    if (!order) return c.notFound();
    const reference = order.merchant_reference;
    // Cash: the service issues a bill the customer pays at an outlet; the webhook brings it here too.
    if (c.req.query('method') === 'cash') {
      return page(c, 'Pay in cash', html`<p>Order <span id="order-ref">${reference}</span></p>
<pg-bill-voucher language="en" endpoint="${serviceUrl}" merchant-reference="${reference}" order-token="${order.token}" currency="EGP" amount="${String(order.amount)}"></pg-bill-voucher>
<p><a id="order-page" href="/result?merchant_reference=${reference}">Your order</a></p>`);
    }
    return page(c, 'Checkout', html`<p>Order <span id="order-ref">${reference}</span></p>
<pg-checkout mode="redirect" language="en" endpoint="${serviceUrl}" merchant-reference="${reference}" order-token="${order.token}"></pg-checkout>
<p><a id="pay-cash" href="/checkout?merchant_reference=${reference}&amp;method=cash">Pay in cash at an outlet instead</a></p>`);
  });

  // PG_ORDER_URL: the order, for the customer holding its token (or for the gateway's verified return).
  app.post('/pg-hooks/order', async (c) => {
    const body = await signedBody(c);
    if (body === undefined) return signedJson(c, 401, { error: 'PG-Signature' });
    const lookup = JSON.parse(body) as OrderLookupRequest;
    const order = orders.get(lookup.merchant_reference);
    const owner = lookup.reference_source === 'gateway' || (order && sameText(order.token, lookup.headers['pg-order-token'] ?? ''));
    if (lookup.type !== 'order_lookup' || !order || !owner) return signedJson(c, 404, { error: 'unknown order' });
    const { merchant_reference, amount, currency, description } = order;
    const paid = [...results.values()].some((r) => r['merchant_reference'] === merchant_reference && r['outcome'] === 'success');
    return signedJson(c, 200, { merchant_reference, amount, currency, description, paid });
  });

  // PG_RESULT_WEBHOOK_URL: each verified result, stored once per idempotency key.
  app.post('/pg-hooks/result', async (c) => {
    const body = await signedBody(c);
    if (body === undefined) return signedJson(c, 401, { error: 'PG-Signature' });
    const message = resultWebhook.safeParse(JSON.parse(body));
    if (!message.success) return signedJson(c, 400, { error: 'not a result' });
    const { result } = message.data;
    // A saved card charged nothing: it never pays an order (a real shop keeps its token for the customer).
    if (message.data.type === 'payment_result' && !results.has(result.idempotency_key)) results.set(result.idempotency_key, result);
    return signedJson(c, 200, { stored: result.idempotency_key });
  });

  app.get('/result', (c) => {
    const reference = c.req.query('merchant_reference') ?? '';
    if (!ownOrder(c, reference)) return c.notFound();
    const result = [...results.values()].filter((r) => r['merchant_reference'] === reference).at(-1);
    if (!result) return page(c, 'Waiting for the payment result', html`<p id="outcome" data-outcome="waiting">This page refreshes by itself.</p>`, true);
    // A cash bill waiting to be paid: shown again from what the webhook stored, with no request.
    const bill = result['source'] === 'bill' && result['outcome'] === 'pending' ? (result['bill'] as Record<string, string> | undefined) : undefined;
    if (bill) {
      return page(c, 'Pay your bill', html`<p id="outcome" data-outcome="pending">Pay this bill at an outlet before it expires.</p>
<pg-bill-voucher language="en" bill-number="${bill['bill_number'] ?? ''}" expires="${bill['request_expiry_date'] ?? ''}" payment-partner="${bill['payment_partner'] ?? ''}" amount="${String(result['amount'] ?? '')}"></pg-bill-voucher>
<p><a href="/">Back to the shop</a></p>`);
    }
    return page(c, result['outcome'] === 'success' ? 'Thank you for your order' : 'Payment not completed',
      html`<p id="outcome" data-outcome="${String(result['outcome'])}">${String(result['response_message'])}</p>
<dl><dt>Order</dt><dd>${reference}</dd><dt>Gateway code</dt><dd id="response-code">${String(result['response_code'])}</dd>
<dt>Payment ID</dt><dd id="payment-id">${String(result['svc_id'] ?? '')}</dd></dl><p><a href="/">Back to the shop</a></p>`);
  });

  return app;
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const port = Number(process.env['SHOP_PORT'] ?? 8080);
  const hookSecret = process.env['PG_HOOK_SECRET'];
  if (!hookSecret) throw new Error('Set PG_HOOK_SECRET (see README.md).');
  serve({ fetch: createShop({ serviceUrl: process.env['PG_SERVICE_URL'] ?? 'http://127.0.0.1:8787', hookSecret }).fetch, port, hostname: '127.0.0.1' });
  console.log(`shop on http://127.0.0.1:${port}`);
}
