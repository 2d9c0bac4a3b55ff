/**
 * The embedded page in two steps, over real HTTP on loopback (the endpoint and the sandbox gateway
 * on one `node:http` server): the gateway's page only takes the card, the return tells the element
 * the card is ready (sealed, nothing charged), and the element's Pay button posts it to the
 * confirm route, which charges once. This test plays the browser and its frame.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EMBEDDED_CONFIRM_ROUTE, framedReadyMessage, framedResultMessage, ROUTES, type FramedReadyMessage, type FramedResultMessage } from '../../src/core/endpoint-api.ts';
import { createMerchantEndpoint, type MerchantEndpoint } from '../../src/server/endpoint.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { toNodeListener } from '../../src/server/node.ts';
import { InMemoryOrderStore, type MerchantOrder } from '../../src/server/orders.ts';
import { READY_CARD_SECONDS } from '../../src/server/route.ts';
import { createSandboxClock } from '../../src/sandbox/clock.ts';
import { createSandboxGateway } from '../../src/sandbox/gateway.ts';
import { endpointCredentials } from '../../src/sandbox/merchants.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { FUTURE_EXPIRY, START, formAction, hiddenFields, sessionOf } from '../sandbox/support.ts';
import { parse } from '../../src/core/shape.ts';

const BASE_PATH = '/pg';
const clock = createSandboxClock(START);
const gateway = createSandboxGateway({ now: clock.now });
const store = new InMemoryOrderStore();
const results: VerifiedResult[] = [];
/** Every PURCHASE the gateway received, by merchant_reference. */
const purchases: string[] = [];
let server: Server;
let origin = '';
let endpoint: MerchantEndpoint;
let orderCount = 0;

before(async () => {
  server = createServer(
    toNodeListener(async (request, context) => {
      if (!gateway.handles(request.url)) return endpoint(request, context);
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/paymentApi')) {
        const body = JSON.parse(await request.clone().text()) as Record<string, unknown>;
        if (body['command'] === 'PURCHASE') purchases.push(String(body['merchant_reference']));
      }
      return gateway.handle(request);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint = createMerchantEndpoint({
    ...endpointCredentials(),
    gatewayBaseUrl: origin,
    checkoutUrl: origin,
    apiRoot: 'FortAPI',
    publicUrl: origin,
    basePath: BASE_PATH,
    resolveOrder: store.resolve,
    onResult: (result) => {
      results.push(result);
      store.recordResult(result);
    },
    now: clock.now,
  });
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function newOrder(overrides: Partial<MerchantOrder> = {}): MerchantOrder {
  orderCount += 1;
  return store.add({ merchant_reference: `emb-${orderCount}`, amount: 1_284_850, currency: 'EGP', customer_email: 'buyer@example.com', ...overrides });
}

async function submit(action: string, fields: Record<string, string>): Promise<Response> {
  return fetch(action, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual', headers: { origin } });
}

/** The JSON the endpoint's framed page posts to the element. */
async function framedMessageOf(response: Response): Promise<{ message: unknown; html: string }> {
  assert.equal(response.status, 200);
  const html = await response.text();
  const match = /<script type="application\/json" id="pg-message">([^<]*)<\/script>/.exec(html);
  assert.ok(match, 'a framed page');
  return { message: JSON.parse(match[1] ?? 'null'), html };
}

/**
 * The element signs the embedded page, the customer types the card on the gateway's page and
 * presses its button; the gateway's return lands in the frame. Answers what the frame tells the element.
 */
async function cardReady(
  order: MerchantOrder,
  language: 'en' | 'ar' = 'en',
  card = testCard('success').number,
  options: { readonly shown?: MerchantOrder; readonly embedded?: boolean; readonly whileTyping?: () => void } = {},
) {
  const shown = options.shown ? { amount: options.shown.amount, currency: options.shown.currency } : {};
  const signed = await fetch(`${origin}${BASE_PATH}${ROUTES.merchantPage}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ merchant_reference: order.merchant_reference, language, command: 'PURCHASE', ...shown, framed: true, ...(options.embedded === false ? {} : { embedded: true }) }),
  });
  assert.equal(signed.status, 200);
  const post = (await signed.json()) as { action: string; fields: Record<string, string> };
  const page = await (await submit(post.action, post.fields)).text();
  options.whileTyping?.();
  const cardAction = new URL(/<form class="credit-card-container" method="post" action="([^"]+)"/.exec(page)?.[1] ?? '', origin);
  const returned = await (
    await submit(cardAction.href, {
      session: sessionOf(page),
      card_number: card,
      expiry_date: FUTURE_EXPIRY.typed,
      card_security_code: '123',
      card_holder_name: 'Test Buyer',
    })
  ).text();
  const tokenization = hiddenFields(returned);
  const { message, html } = await framedMessageOf(await submit(formAction(returned), tokenization));
  // The ready page's own form, which it posts to the confirm route when the element's Pay button asks.
  const confirmForm = /id="pg-confirm"/.test(html) ? { action: formAction(html, 'pg-confirm'), fields: hiddenFields(html, 'pg-confirm') } : undefined;
  return { tokenization, message, html, confirmForm, signedFields: post.fields };
}

/** The card is ready: the ready page's confirm form, checked. */
async function readyForm(order: MerchantOrder, language: 'en' | 'ar' = 'en', card = testCard('success').number) {
  const { message, confirmForm } = await cardReady(order, language, card);
  assert.deepEqual(parse(framedReadyMessage, message), { type: 'pg-checkout:ready', merchant_reference: order.merchant_reference });
  assert.ok(confirmForm, 'the ready page holds the confirm form');
  assert.equal(confirmForm.action, `${origin}${BASE_PATH}${EMBEDDED_CONFIRM_ROUTE}`);
  return confirmForm.fields as { card: string; merchant_reference: string; language: string };
}

function confirm(fields: Record<string, string>): Promise<Response> {
  return submit(`${origin}${BASE_PATH}${EMBEDDED_CONFIRM_ROUTE}`, fields);
}

async function confirmed(fields: Record<string, string>): Promise<FramedResultMessage> {
  return parse(framedResultMessage, (await framedMessageOf(await confirm(fields))).message);
}

describe('the embedded page, confirmed by the element’s Pay button', () => {
  it('charges nothing when the gateway’s page takes the card, and tells the element the card is ready, sealed', async () => {
    const order = newOrder();
    const { tokenization, message, html, confirmForm } = await cardReady(order);
    assert.equal(tokenization['response_code'], '18000');
    const ready: FramedReadyMessage = parse(framedReadyMessage, message);
    assert.equal(ready.merchant_reference, order.merchant_reference);
    assert.deepEqual(Object.keys(ready).sort(), ['merchant_reference', 'type'], 'the element is told nothing of the card');
    assert.deepEqual(Object.keys(confirmForm?.fields ?? {}).sort(), ['card', 'language', 'merchant_reference']);
    const token = tokenization['token_name'] ?? '';
    assert.ok(token.length > 0);
    assert.doesNotMatch(html, new RegExp(token), 'the token never reaches the browser readable');
    assert.doesNotMatch(html, /411111|signature/);
    assert.deepEqual(purchases.filter((reference) => reference === order.merchant_reference), []);
    assert.equal(gateway.order({ merchantReference: order.merchant_reference }), undefined, 'nothing is charged');
    assert.equal(results.filter((result) => result.merchant_reference === order.merchant_reference).length, 0);
  });

  it('charges the order’s amount once when the Pay button posts the ready card, and a replay charges nothing more', async () => {
    const order = newOrder();
    const fields = await readyForm(order);
    const first = await confirmed(fields);
    assert.equal(first.outcome, 'success');
    assert.equal(first.response_code, '14000');
    assert.equal(gateway.order({ merchantReference: order.merchant_reference })?.amount, 1_284_850);

    const replay = await confirmed(fields);
    assert.equal(replay.outcome, 'success', 'the replay is told the first outcome');
    const status = await fetch(`${origin}${BASE_PATH}${ROUTES.status}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ merchant_reference: order.merchant_reference, language: 'en' }),
    });
    assert.equal(((await status.json()) as Record<string, unknown>)['captured_amount'], 1_284_850, 'charged once, not twice');
    assert.equal(results.filter((result) => result.merchant_reference === order.merchant_reference).length, 1, 'reported once');
  });

  it('refuses an altered ready card with a clear error, in the customer’s language, and charges nothing', async () => {
    const order = newOrder();
    const ready = await readyForm(order, 'ar');
    assert.equal(ready.language, 'ar');
    const middle = Math.floor(ready.card.length / 2);
    const altered = `${ready.card.slice(0, middle)}${ready.card[middle] === 'A' ? 'B' : 'A'}${ready.card.slice(middle + 1)}`;
    const refused = await confirmed({ ...ready, card: altered });
    assert.equal(refused.outcome, 'failure');
    assert.equal(refused.error, 'card_not_ready');
    assert.equal(refused.message, 'انتهت صلاحية بيانات بطاقتك أو أنها تخص طلبًا آخر؛ لم يتم خصم أي مبلغ. أدخل بطاقتك مرة أخرى.');
    assert.deepEqual(purchases.filter((reference) => reference === order.merchant_reference), []);
  });

  it('refuses another order’s ready card', async () => {
    const mine = newOrder();
    const other = newOrder();
    const ready = await readyForm(other);
    const refused = await confirmed({ ...ready, merchant_reference: mine.merchant_reference });
    assert.equal(refused.outcome, 'failure');
    assert.equal(refused.error, 'card_not_ready');
    assert.equal(refused.message, 'Your card details expired or belong to another order; nothing was charged. Enter your card again.');
    assert.deepEqual(purchases.filter((reference) => reference === mine.merchant_reference || reference === other.merchant_reference), []);
  });

  it('refuses a ready card once it expired', async () => {
    const order = newOrder();
    const ready = await readyForm(order);
    clock.advance((READY_CARD_SECONDS + 1) * 1000);
    const refused = await confirmed(ready);
    assert.equal(refused.error, 'card_not_ready');
    assert.equal(gateway.order({ merchantReference: order.merchant_reference }), undefined);
  });

  it('refuses a ready card when the order’s amount changed since the Pay button showed it', async () => {
    const order = newOrder();
    const ready = await readyForm(order);
    store.add({ ...order, amount: 1_500_000 });
    const refused = await confirmed(ready);
    assert.equal(refused.outcome, 'failure');
    assert.equal(refused.error, 'amount_mismatch');
    assert.equal(gateway.order({ merchantReference: order.merchant_reference }), undefined);
  });

  it('signs the amount the Pay button shows into the form, and charges it while the order still costs it', async () => {
    const order = newOrder();
    const { message, confirmForm, signedFields } = await cardReady(order, 'en', testCard('success').number, { shown: order });
    assert.equal(signedFields['merchant_extra5'], '1284850 EGP', 'the shown amount, signed into the form');
    assert.equal((message as { type: string }).type, 'pg-checkout:ready');
    assert.ok(confirmForm);
    const paid = await confirmed(confirmForm.fields);
    assert.equal(paid.outcome, 'success');
    assert.equal(gateway.order({ merchantReference: order.merchant_reference })?.amount, 1_284_850);
  });

  for (const embedded of [true, false]) {
    it(`refuses the card at its return, charging nothing, when the order changed after the element signed the amount it shows (${embedded ? 'embedded page' : 'merchant page'})`, async () => {
      const order = newOrder();
      const { message } = await cardReady(order, 'ar', testCard('success').number, {
        shown: order,
        embedded,
        whileTyping: () => store.add({ ...order, amount: 1_500_000 }),
      });
      const refused = parse(framedResultMessage, message);
      assert.deepEqual([refused.outcome, refused.error, refused.merchant_reference], ['failure', 'amount_mismatch', order.merchant_reference]);
      assert.match(refused.message, /[\u0600-\u06ff]/, 'in the customer’s language');
      assert.equal(gateway.order({ merchantReference: order.merchant_reference }), undefined, 'nothing charged');
    });
  }

  it('refuses the card at its return when the order’s currency changed', async () => {
    const order = newOrder();
    const { message } = await cardReady(order, 'en', testCard('success').number, {
      shown: order,
      whileTyping: () => store.add({ ...order, currency: 'SAR' }),
    });
    assert.equal(parse(framedResultMessage, message).error, 'currency_mismatch');
    assert.equal(gateway.order({ merchantReference: order.merchant_reference }), undefined);
  });

  it('never charges the card at a return outside the element’s frame: the Pay step cannot be skipped', async () => {
    const order = newOrder();
    const { tokenization } = await cardReady(order);
    // The same signed return, posted to the top-level return route (no frame parameter).
    const answer = await submit(`${origin}${BASE_PATH}${ROUTES.gatewayReturn}`, tokenization);
    assert.equal(answer.status, 400);
    assert.match(await answer.text(), /"card_not_ready"/);
    assert.deepEqual(purchases.filter((reference) => reference === order.merchant_reference), []);
    assert.equal(gateway.order({ merchantReference: order.merchant_reference }), undefined, 'nothing is charged');
  });

  it('answers a 3-D Secure card’s confirmation with the challenge address for the element’s dialog', async () => {
    const order = newOrder();
    const ready = await readyForm(order, 'en', testCard('3ds').number);
    const { message } = await framedMessageOf(await confirm(ready));
    assert.equal((message as { type: string }).type, 'pg-checkout:3ds');
  });

  it('keeps charging at once for an element that does not ask for the Pay button (older elements, merchant page)', async () => {
    const order = newOrder();
    const signed = await fetch(`${origin}${BASE_PATH}${ROUTES.merchantPage}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ merchant_reference: order.merchant_reference, language: 'en', command: 'PURCHASE', framed: true }),
    });
    const post = (await signed.json()) as { fields: Record<string, string> };
    assert.equal(post.fields['merchant_extra4'], undefined);
    assert.equal(post.fields['merchant_extra5'], undefined, 'no amount bound when the element names none');
  });
});
