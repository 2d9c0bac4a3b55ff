/**
 * The PHP example shop again, in Hono on Node: a product, an order per checkout with an opaque
 * token for its customer, <pg-checkout> from the bundle folder, the two signed hooks that
 * `pg-checkout serve` calls, and a result page that shows what the webhook stored.
 *
 *   PG_HOOK_SECRET=… npx tsx examples/node-shop/shop.ts      (see README.md)
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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
  /** The gateway's `order_state` as the payment results moved it, forward only (`movesForward`). */
  state?: string;
  /** The idempotency key of the result that set `state`: the one the result page shows. */
  stateKey?: string;
  /** Money taken (captured): ship it. Set by a capture, never taken back; a later refund shows in `state`. */
  paid: boolean;
}

/** A `payment_result` webhook's result, as the `resultWebhook` schema checked it. */
type PaymentResult = Extract<ReturnType<typeof resultWebhook.parse>, { type: 'payment_result' }>['result'];

export interface ShopOptions {
  /** The service's endpoint URL, as the elements are given it. */
  readonly serviceUrl: string;
  readonly hookSecret: string;
}

/** Constant-time equality of any two strings: their SHA-256 digests always have the same length. */
const digest = (text: string) => createHash('sha256').update(text).digest();
const sameText = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * Where an order may still go once money is held or taken (the gateway's lifecycle): a capture, a
 * refund or a void is a later move; a failure, a pending attempt or a replay never takes it back.
 * From any other state (none yet, pending, failed, voided: nothing held) every move is allowed, so
 * the customer may pay again after a decline or an authorization released.
 */
const FORWARD_MOVES: ReadonlyMap<string, readonly string[]> = new Map([
  ['authorized', ['captured', 'partially_refunded', 'refunded', 'voided']],
  ['captured', ['partially_refunded', 'refunded']],
  ['partially_refunded', ['refunded']],
  ['refunded', []],
]);
/** States in which money has been taken: a refund only ever follows a capture. An authorization is only a hold. */
const CAPTURED_STATES: readonly string[] = ['captured', 'partially_refunded', 'refunded'];

const movesForward = (from: string | undefined, to: string) => {
  const forward = from === undefined ? undefined : FORWARD_MOVES.get(from);
  return forward === undefined || from === to || forward.includes(to);
};

/** Moves the order by one payment result: forward only, and paid only once the money is captured. */
function applyPaymentResult(order: Order, result: PaymentResult): void {
  if (!movesForward(order.state, result.order_state)) return;
  order.state = result.order_state;
  order.stateKey = result.idempotency_key;
  if (CAPTURED_STATES.includes(result.order_state)) order.paid = true;
}

/** True while an authorization holds the money, or once it was taken: the service must sign no second payment. */
const holdsPayment = (order: Order) => order.paid || order.state === 'authorized';

/** What the result page says for each state an order can reach: [title, what it means for the customer]. */
const ORDER_PAGES: ReadonlyMap<string, readonly [string, string]> = new Map([
  ['captured', ['Thank you for your order', 'Your payment has been taken.']],
  ['partially_refunded', ['Thank you for your order', 'Your payment has been taken; part of it has been refunded.']],
  ['refunded', ['Order refunded', 'Your payment was taken, then refunded in full.']],
  // Money held, not taken: the merchant captures it before shipping, or the gateway voids it after the hold.
  ['authorized', ['Payment authorized', 'Authorized, capture before shipping: the amount is held on your card, not yet charged.']],
  ['voided', ['Payment not completed', 'The authorization was released: nothing was charged.']],
]);

export function createShop({ serviceUrl, hookSecret }: ShopOptions): Hono {
  const orders = new Map<string, Order>();
  const results = new Map<string, PaymentResult>(); // payment results only, by idempotency key
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
    // Secure over https (behind a proxy that ends TLS, X-Forwarded-Proto says so); plain http still works locally.
    const secure = new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto')?.toLowerCase() === 'https';
    if (!id) setCookie(c, 'shop_session', (id = randomBytes(18).toString('hex')), { httpOnly: true, sameSite: 'Lax', path: '/', secure });
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
      session: session(c), token: randomBytes(24).toString('hex'), paid: false,
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
    const owner = lookup.reference_source === 'gateway' || (order && sameText(order.token, lookup.headers?.['pg-order-token'] ?? ''));
    if (lookup.type !== 'order_lookup' || !order || !owner) return signedJson(c, 404, { error: 'unknown order' });
    const { merchant_reference, amount, currency, description } = order;
    // "Sign nothing more": true while an authorization holds the money, as once it is captured.
    return signedJson(c, 200, { merchant_reference, amount, currency, description, paid: holdsPayment(order) });
  });

  // PG_RESULT_WEBHOOK_URL: each verified result, stored once per idempotency key.
  app.post('/pg-hooks/result', async (c) => {
    const body = await signedBody(c);
    if (body === undefined) return signedJson(c, 401, { error: 'PG-Signature' });
    const message = resultWebhook.safeParse(JSON.parse(body));
    if (!message.success) return signedJson(c, 400, { error: 'not a result' });
    const { data } = message;
    // A saved card charged nothing: it never pays an order (a real shop keeps its token for the customer).
    if (data.type === 'payment_result' && !results.has(data.result.idempotency_key)) {
      results.set(data.result.idempotency_key, data.result);
      const order = orders.get(data.result.merchant_reference);
      // Paid only once the money is captured: an authorization is a hold, voided unless captured.
      if (order) applyPaymentResult(order, data.result);
    }
    return signedJson(c, 200, { stored: data.result.idempotency_key });
  });

  app.get('/result', (c) => {
    const order = ownOrder(c, c.req.query('merchant_reference') ?? '');
    if (!order) return c.notFound();
    // What the order's payment results made of it (a saved card is never one of them), not the last message.
    const result = order.stateKey === undefined ? undefined : results.get(order.stateKey);
    const state = order.state ?? '';
    if (!result) return page(c, 'Waiting for the payment result', html`<p id="outcome" data-outcome="waiting">This page refreshes by itself.</p>`, true);
    // A cash bill waiting to be paid: shown again from what the webhook stored, with no request.
    const bill = state === 'pending' && result['source'] === 'bill' ? (result['bill'] as Record<string, string> | undefined) : undefined;
    if (bill) {
      return page(c, 'Pay your bill', html`<p id="outcome" data-outcome="pending" data-state="pending">Pay this bill at an outlet before it expires.</p>
<pg-bill-voucher language="en" bill-number="${bill['bill_number'] ?? ''}" expires="${bill['request_expiry_date'] ?? ''}" payment-partner="${bill['payment_partner'] ?? ''}" amount="${String(result.amount ?? '')}"></pg-bill-voucher>
<p><a href="/">Back to the shop</a></p>`);
    }
    const waiting = state === 'pending' || state === 'unknown';
    const [title, meaning] = ORDER_PAGES.get(state) ?? [waiting ? 'Payment being confirmed' : 'Payment not completed', result.response_message];
    return page(c, title,
      html`<p id="outcome" data-outcome="${result.outcome}" data-state="${state}">${meaning}</p>
<dl><dt>Order</dt><dd>${order.merchant_reference}</dd><dt>Gateway code</dt><dd id="response-code">${result.response_code}</dd>
<dt>Payment ID</dt><dd id="payment-id">${String(result['svc_id'] ?? '')}</dd><dt>State</dt><dd id="order-state">${state}</dd></dl>
<p><a href="/">Back to the shop</a></p>`, waiting);
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
