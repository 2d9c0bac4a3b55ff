/**
 * The embedded page's Pay button (issue 24) as an operator meets it: `pg-checkout serve --sandbox`
 * as a real process on loopback (SQLite under PG_DATA_DIR, the sandbox's state beside it), a
 * shop's webhook in this test process, and the test playing the browser and its frame.
 *
 * - `kill -9` between the gateway's confirmation of the charge and the shop's acknowledgement:
 *   after a restart the result reaches the shop under the key it had, once; the customer's Pay
 *   pressed again after the restart charges nothing more and delivers nothing again.
 * - The gateway answering the charge with 429: the charge is never sent again blindly; the
 *   customer's next press charges the order once, and the shop hears one paid result.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EMBEDDED_CONFIRM_ROUTE, ROUTES } from '../../src/core/endpoint-api.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { FUTURE_EXPIRY, formAction, hiddenFields, sessionOf } from '../sandbox/support.ts';
import { freePort, killAll, removeTempDirs, startServe, tempDir, until, type ServeProcess } from './support/processes.ts';
import { SHOP_SECRET, startShop, type TestShop } from './support/shop.ts';

let shop: TestShop;

before(async () => {
  shop = await startShop();
});
afterEach(async () => {
  await killAll();
  shop.reset();
});
after(async () => {
  await killAll();
  await shop.stop();
  removeTempDirs();
});

/** `serve --sandbox` on `dataDir` (the same folder after a restart), delivering to the shop. */
function serve(dataDir: string, port: number): Promise<ServeProcess> {
  return startServe({
    env: { PG_DATA_DIR: dataDir, PG_RESULT_WEBHOOK_URL: shop.webhookUrl, PG_HOOK_SECRET: SHOP_SECRET, PG_HOOK_TIMEOUT_MS: '2000' },
    port,
    sandbox: true,
  });
}

/** A browser's form post from the service's own pages (redirects not followed). */
function submit(service: ServeProcess, action: string, fields: Record<string, string>): Promise<Response> {
  return fetch(action, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual', headers: { origin: service.url } });
}

/** What the endpoint's framed page tells the element. */
async function framedMessage(response: Response): Promise<{ type?: string; outcome?: string; order_state?: string }> {
  const html = await response.text();
  const json = /<script type="application\/json" id="pg-message">([^<]*)<\/script>/.exec(html)?.[1];
  assert.ok(json, `a framed page (${response.status}): ${html.slice(0, 200)}`);
  return JSON.parse(json) as { type?: string; outcome?: string; order_state?: string };
}

/** The element signs the embedded page, the customer takes the card on the gateway's page: the ready page's confirm form. */
async function readyCard(service: ServeProcess, reference: string): Promise<{ action: string; fields: Record<string, string> }> {
  const signed = await fetch(`${service.url}${ROUTES.merchantPage}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: service.url },
    body: JSON.stringify({ merchant_reference: reference, language: 'en', command: 'PURCHASE', framed: true, embedded: true }),
  });
  assert.equal(signed.status, 200, await signed.clone().text());
  const post = (await signed.json()) as { action: string; fields: Record<string, string> };
  const page = await (await submit(service, post.action, post.fields)).text();
  const cardAction = new URL(/<form class="credit-card-container" method="post" action="([^"]+)"/.exec(page)?.[1] ?? '', service.url).href;
  const returned = await (
    await submit(service, cardAction, {
      session: sessionOf(page),
      card_number: testCard('success').number,
      expiry_date: FUTURE_EXPIRY.typed,
      card_security_code: '123',
      card_holder_name: 'Test Buyer',
    })
  ).text();
  const ready = await submit(service, formAction(returned), hiddenFields(returned));
  const html = await ready.text();
  assert.match(html, /id="pg-confirm"/, 'the ready page holds the confirm form: nothing charged yet');
  const form = { action: formAction(html, 'pg-confirm'), fields: hiddenFields(html, 'pg-confirm') };
  assert.equal(new URL(form.action).pathname, EMBEDDED_CONFIRM_ROUTE);
  return form;
}

/** The sandbox's own record of the order: how much it captured, and how many PURCHASEs it took. */
async function atGateway(service: ServeProcess, reference: string): Promise<{ captured: number; purchases: number }> {
  const orders = (await (await fetch(`${service.url}/sandbox-tools/orders`)).json()) as {
    merchantReference: string;
    capturedAmount: number;
    operations: { operation: string }[];
  }[];
  const order = orders.find((candidate) => candidate.merchantReference === reference);
  return { captured: order?.capturedAmount ?? 0, purchases: order?.operations.filter((operation) => operation.operation === 'PURCHASE').length ?? 0 };
}

const keysOf = (reference: string) => [...new Set(shop.deliveries.filter((delivery) => delivery.merchantReference === reference).map((delivery) => delivery.key))];

describe('the embedded Pay button, with the service killed and the gateway limiting requests', () => {
  it('kill -9 after the charge, before the shop acknowledged it: delivered after the restart under its key, once; Pay again charges nothing', async () => {
    const dataDir = tempDir('pg-confirm-crash-');
    const port = await freePort();
    let service = await serve(dataDir, port);
    const reference = 'demo-1001';
    const ready = await readyCard(service, reference);

    shop.mode = 'refuse';
    const answer = await framedMessage(await submit(service, ready.action, ready.fields));
    assert.equal(answer.outcome, 'success');
    await until(() => keysOf(reference).length > 0, 'the shop to be offered the result (and refuse it)');
    const [key] = keysOf(reference);
    await service.kill('SIGKILL');

    shop.mode = 'ok';
    service = await serve(dataDir, port);
    await until(() => shop.acknowledgedCount(key!) > 0, `the restarted service to deliver ${key}`);

    // The customer presses Pay again (the ready page was still open): nothing more is charged or delivered.
    const again = await framedMessage(await submit(service, ready.action, ready.fields));
    assert.equal(again.outcome, 'success');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.deepEqual(keysOf(reference), [key], 'one key, before and after the crash');
    assert.equal(shop.acknowledgedCount(key!), 1, 'acknowledged once, never delivered again');
    assert.equal(shop.stored.size, 1);
    assert.deepEqual(await atGateway(service, reference), { captured: 250_000, purchases: 1 });
    assert.deepEqual(service.errors(), []);
  });

  it('the gateway answers the charge 429: settled, never resent blindly; the next press charges once and the shop hears one paid result', async () => {
    const service = await serve(tempDir('pg-confirm-429-'), await freePort());
    const reference = 'demo-1004';
    const ready = await readyCard(service, reference);

    const plan = await fetch(`${service.url}/sandbox-tools/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 429, count: 1, retry_after: 1, operation: 'PURCHASE' }),
    });
    assert.equal(plan.status, 200);
    const limited = await framedMessage(await submit(service, ready.action, ready.fields));
    assert.notEqual(limited.outcome, 'success', 'the gateway did nothing: the element is not told it is paid');
    assert.deepEqual(await atGateway(service, reference), { captured: 0, purchases: 0 }, 'nothing was charged, and the PURCHASE was not sent again');

    const paid = await framedMessage(await submit(service, ready.action, ready.fields));
    assert.equal(paid.outcome, 'success');
    await until(() => shop.deliveries.some((delivery) => delivery.merchantReference === reference && delivery.orderState === 'captured'), 'the shop to hear the paid result');
    const captured = shop.deliveries.filter((delivery) => delivery.merchantReference === reference && delivery.orderState === 'captured');
    assert.equal(new Set(captured.map((delivery) => delivery.key)).size, 1, 'one paid result, under one key');
    assert.deepEqual(await atGateway(service, reference), { captured: 4_500, purchases: 1 });
  });
});
