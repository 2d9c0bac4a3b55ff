/**
 * Outcomes that arrive after the customer has left, end to end over loopback with `pg-checkout
 * serve --sandbox` as a real process (its store and the sandbox's state under a temporary
 * PG_DATA_DIR, PG_RECONCILE_INTERVAL_SECONDS=1) and a shop's webhook in this test process. No
 * browser: the test calls the endpoint as the elements do, and the sandbox's tools play the
 * customer at the partner's counter and the passing days.
 *
 * (a) a cash bill issued, the service killed (-9) and started again on the same folder, then the
 *     bill paid at the partner: the shop hears `captured` from the reconciler;
 * (b) a bill left unpaid past its expiry (the sandbox's clock moved 3 days): the shop hears `failed`;
 * (c) an authorization left past its hold (the sandbox's clock moved 8 days): the shop hears `voided`.
 * Each report arrives once per key, in order per order.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTES } from '../../src/core/endpoint-api.ts';
import { FUTURE_EXPIRY, formAction, hiddenFields, sessionOf } from '../sandbox/support.ts';
import { freePort, killAll, removeTempDirs, startServe, tempDir, until, type ServeProcess } from './support/processes.ts';
import { SHOP_SECRET, startShop, type Delivery, type TestShop } from './support/shop.ts';

let shop: TestShop;
let service: ServeProcess;
let settings: Record<string, string>;
let port: number;

/** How long a late outcome may take to reach the shop: reconciler polls every 5 s, questions back off from 1 s. */
const REPORT_WITHIN_MS = 25_000;

before(async () => {
  shop = await startShop();
  port = await freePort();
  settings = {
    PG_DATA_DIR: tempDir('pg-late-'),
    PG_RESULT_WEBHOOK_URL: shop.webhookUrl,
    PG_HOOK_SECRET: SHOP_SECRET,
    PG_RECONCILE_INTERVAL_SECONDS: '1',
    PG_HOOK_TIMEOUT_MS: '2000',
    // (c) asks for an authorization from the browser, as a shop that captures from its back office lets it.
    PG_PAYMENT_COMMANDS: 'PURCHASE,AUTHORIZATION',
  };
  service = await startServe({ env: settings, port, sandbox: true });
});

after(async () => {
  await killAll();
  await shop.stop();
  removeTempDirs();
});

interface JsonAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** What an element sends to the endpoint (same origin as the service). */
async function callEndpoint(route: string, body: Record<string, unknown>): Promise<JsonAnswer> {
  const response = await fetch(`${service.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: service.url },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function sandboxTool(tool: 'pay-bill' | 'advance-clock', body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.url}/sandbox-tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.equal(response.status, 200, `${tool}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** A browser's form post (redirects not followed). */
function submit(action: string, fields: Record<string, unknown>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, String(value));
  return fetch(action, { method: 'POST', body, redirect: 'manual' });
}

async function issueBill(reference: string): Promise<string> {
  const answer = await callEndpoint(ROUTES.bill, { merchant_reference: reference, language: 'en' });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const billNumber = String(answer.body['bill_number']);
  assert.match(billNumber, /^\d{14}$/);
  return billNumber;
}

const deliveriesOf = (reference: string): Delivery[] => shop.deliveries.filter((delivery) => delivery.merchantReference === reference);

/** Waits for a delivery of the order in this state, acknowledged by the shop. */
async function reported(reference: string, state: string): Promise<Delivery> {
  await until(
    () => deliveriesOf(reference).some((delivery) => delivery.orderState === state && shop.acknowledgedCount(delivery.key) > 0),
    () => `the shop to hear ${state} for ${reference} (heard: ${JSON.stringify(deliveriesOf(reference).map((d) => d.orderState))}; service log: ${service.logs.slice(-5).map((line) => line.event).join(', ')})`,
    REPORT_WITHIN_MS,
  );
  const delivery = deliveriesOf(reference).find((entry) => entry.orderState === state);
  assert.ok(delivery);
  return delivery;
}

/** Each key of the order reached the shop once, in the order given (states). */
function assertReportedOnceInOrder(reference: string, states: readonly string[]): void {
  const heard = deliveriesOf(reference);
  assert.deepEqual(heard.map((delivery) => delivery.orderState), states, `${reference}: each report once, in order`);
  assert.equal(new Set(heard.map((delivery) => delivery.key)).size, heard.length, 'one key per report');
  for (const delivery of heard) {
    assert.equal(delivery.valid, true);
    assert.equal(shop.acknowledgedCount(delivery.key), 1);
  }
}

describe('outcomes after the customer has left, reported to the shop by the reconciler', () => {
  it('(a) a bill issued, the service killed and restarted, then paid at the partner: the shop hears pending with the bill, then captured', async () => {
    const reference = 'demo-1004';
    const billNumber = await issueBill(reference);
    await service.kill('SIGKILL');
    service = await startServe({ env: settings, port, sandbox: true });
    // The bill reaches the shop, with what to tell the customer, whether or not it was delivered before the kill.
    const issued = await reported(reference, 'pending');
    assert.deepEqual([issued.source, issued.outcome, issued.key], ['bill', 'pending', `${reference}:${billNumber}:pending`]);
    const bill = shop.stored.get(issued.key)?.['bill'] as Record<string, unknown> | undefined;
    assert.equal(bill?.['bill_number'], billNumber);
    assert.match(String(bill?.['request_expiry_date']), /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(typeof bill?.['payment_partner'], 'string');
    const paid = await sandboxTool('pay-bill', { bill_number: billNumber });
    assert.ok(paid, 'the partner took the payment');
    const delivery = await reported(reference, 'captured');
    assert.equal(delivery.source, 'reconcile');
    assert.equal(delivery.outcome, 'success');
    assert.equal(shop.stored.get(delivery.key)?.['amount'], 4_500);
    assert.equal(shop.stored.get(delivery.key)?.['currency'], 'EGP');
    assertReportedOnceInOrder(reference, ['pending', 'captured']);
  });

  it('(b) a bill left unpaid past its expiry: the shop hears pending, then failed', async () => {
    const reference = 'demo-1001';
    await issueBill(reference);
    await sandboxTool('advance-clock', { seconds: 3 * 24 * 3600 });
    const delivery = await reported(reference, 'failed');
    assert.equal(delivery.source, 'reconcile');
    assert.equal(delivery.outcome, 'failure');
    assert.equal(shop.stored.get(delivery.key)?.['response_code'], '31001', 'the bill expired');
    assertReportedOnceInOrder(reference, ['pending', 'failed']);
  });

  it('(c) an authorization left past its hold: the shop hears authorized, then voided', async () => {
    const reference = 'demo-1002';
    const form = await callEndpoint(ROUTES.hostedPage, { merchant_reference: reference, language: 'en', command: 'AUTHORIZATION' });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    const page = await submit(String(form.body['action']), form.body['fields'] as Record<string, string>);
    assert.equal(page.status, 200);
    const html = await page.text();
    const cardAction = new URL(/<form class="credit-card-container" method="post" action="([^"]+)"/.exec(html)?.[1] ?? '', service.url);
    const paid = await submit(cardAction.href, {
      session: sessionOf(html),
      card_number: '4111111111111111',
      expiry_date: FUTURE_EXPIRY.typed,
      card_security_code: '123',
      card_holder_name: 'Test Buyer',
    });
    assert.equal(paid.status, 200);
    const returnPage = await paid.text();
    const back = await submit(formAction(returnPage), hiddenFields(returnPage));
    assert.equal(back.status, 303, 'the customer is sent to the result page');
    const authorized = await reported(reference, 'authorized');
    assert.equal(authorized.source, 'return');

    await sandboxTool('advance-clock', { seconds: 8 * 24 * 3600 });
    const voided = await reported(reference, 'voided');
    assert.equal(voided.source, 'reconcile');
    assertReportedOnceInOrder(reference, ['authorized', 'voided']);
  });

  it('reports nothing twice: after a quiet while every key was heard once, and the service logged no error', async () => {
    const before = shop.deliveries.length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(shop.deliveries.length, before);
    const keys = shop.deliveries.map((delivery) => delivery.key);
    assert.equal(new Set(keys).size, keys.length, 'every key delivered once');
    assert.deepEqual(service.errors(), []);
  });
});
