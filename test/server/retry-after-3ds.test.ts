/**
 * Paying again after closing the 3-D Secure dialog (issue 24), end to end over loopback with
 * `pg-checkout serve --sandbox` as a real process (its store and reconciler, PG_RECONCILE_INTERVAL_SECONDS=1)
 * and a shop's webhook in this test process. The test calls the endpoint as the merchant page does
 * and types the sandbox's test cards where the browser would.
 *
 * The abandoned check keeps the order's reference at the gateway; the new attempt goes under
 * `<order>.pg2`. Whichever attempt is paid, the shop hears it under the order's reference; when the
 * abandoned one is finished late as well, the shop hears that second payment marked `duplicate_of`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTES } from '../../src/core/endpoint-api.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { challengeOf, FUTURE_EXPIRY, formAction, hiddenFields } from '../sandbox/support.ts';
import { freePort, killAll, removeTempDirs, startServe, tempDir, until, type ServeProcess } from './support/processes.ts';
import { SHOP_SECRET, startShop, type Delivery, type TestShop } from './support/shop.ts';

let shop: TestShop;
let service: ServeProcess;

/** The reconciler polls every 5 s and asks a watched payment again within seconds. */
const REPORT_WITHIN_MS = 25_000;

before(async () => {
  shop = await startShop();
  service = await startServe({
    env: {
      PG_DATA_DIR: tempDir('pg-retry-'),
      PG_RESULT_WEBHOOK_URL: shop.webhookUrl,
      PG_HOOK_SECRET: SHOP_SECRET,
      PG_RECONCILE_INTERVAL_SECONDS: '1',
      PG_HOOK_TIMEOUT_MS: '2000',
    },
    port: await freePort(),
    sandbox: true,
  });
});

after(async () => {
  await killAll();
  await shop.stop();
  removeTempDirs();
});

/** A browser's form post (redirects not followed). */
function submit(action: string, fields: Record<string, unknown>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, String(value));
  return fetch(action, { method: 'POST', body, redirect: 'manual' });
}

/** The merchant page's Pay: the endpoint signs the TOKENIZATION (409 when it refuses). */
async function signMerchantPage(reference: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${service.url}${ROUTES.merchantPage}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: service.url },
    body: JSON.stringify({ merchant_reference: reference, language: 'en', command: 'PURCHASE' }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The signed form and the card typed in the browser go to the gateway; its return page is posted back to the endpoint. */
async function payOnMerchantPage(fields: Record<string, string>, action: string, card: string): Promise<Response> {
  const returned = await submit(action, { ...fields, card_number: card, expiry_date: FUTURE_EXPIRY.yymm, card_security_code: '123', card_holder_name: 'Test Buyer' });
  assert.equal(returned.status, 200);
  const html = await returned.text();
  return submit(formAction(html), hiddenFields(html));
}

/** The 3-D Secure card: the endpoint sends the customer to the bank's page; its address. */
async function startThreeDs(reference: string): Promise<string> {
  const form = await signMerchantPage(reference);
  assert.equal(form.status, 200, JSON.stringify(form.body));
  const fields = form.body['fields'] as Record<string, string>;
  const toBank = await payOnMerchantPage(fields, String(form.body['action']), testCard('3ds').number);
  assert.equal(toBank.status, 303, 'the endpoint sends the customer to the 3ds_url');
  return toBank.headers.get('location') ?? '';
}

/** The customer answers the bank's page (in the tab they left open); the bank's return page. */
async function approveChallenge(url: string): Promise<string> {
  const page = await fetch(url);
  assert.equal(page.status, 200, 'the abandoned check is still open at the bank');
  const answered = await submit(new URL('/FortAPI/3ds/challenge', url).href, { challenge: challengeOf(await page.text()), decision: 'approve' });
  assert.equal(answered.status, 200);
  return answered.text();
}

const capturedFor = (reference: string): Delivery[] =>
  shop.deliveries.filter((delivery) => delivery.merchantReference === reference && delivery.orderState === 'captured');

async function heardCaptured(reference: string, count: number): Promise<Record<string, unknown>[]> {
  await until(
    () => new Set(capturedFor(reference).map((delivery) => delivery.key)).size >= count,
    () => `the shop to hear ${count} captured payment(s) for ${reference} (heard ${JSON.stringify(shop.deliveries.map((d) => [d.merchantReference, d.orderState]))})`,
    REPORT_WITHIN_MS,
  );
  const keys = [...new Set(capturedFor(reference).map((delivery) => delivery.key))];
  return keys.map((key) => shop.stored.get(key) ?? {});
}

describe('a new attempt after the customer closed the 3-D Secure check', () => {
  it('is signed under the next reference, pays at once, and is reported under the order', async () => {
    const reference = 'demo-1002';
    await startThreeDs(reference);

    const again = await signMerchantPage(reference);
    assert.equal(again.status, 200, `Pay is not refused: ${JSON.stringify(again.body)}`);
    const fields = again.body['fields'] as Record<string, string>;
    assert.equal(fields['merchant_reference'], `${reference}.pg2`);
    const paid = await payOnMerchantPage(fields, String(again.body['action']), testCard('success').number);
    assert.equal(paid.status, 303);
    assert.match(paid.headers.get('location') ?? '', /outcome=success/);
    assert.match(paid.headers.get('location') ?? '', new RegExp(`merchant_reference=${reference}(&|$)`));

    const [result] = await heardCaptured(reference, 1);
    assert.equal(result?.['merchant_reference'], reference);
    assert.equal(result?.['payment_reference'], `${reference}.pg2`);
    assert.equal(result?.['amount'], 19_900, "the merchant's amount");
    assert.equal(result?.['duplicate_of'], undefined);

    const third = await signMerchantPage(reference);
    assert.equal(third.status, 409, 'the order is paid: no third attempt');
    assert.equal((third.body['error'] as Record<string, unknown>)['code'], 'order_already_paid');
  });

  it('tells the shop of a second payment when the abandoned check is finished late, found by the reconciler', async () => {
    const reference = 'demo-1003';
    const bank = await startThreeDs(reference);
    const again = await signMerchantPage(reference);
    const fields = again.body['fields'] as Record<string, string>;
    const paid = await payOnMerchantPage(fields, String(again.body['action']), testCard('success').number);
    assert.match(paid.headers.get('location') ?? '', /outcome=success/);
    await heardCaptured(reference, 1);

    // The other tab: the customer approves the check they had closed; its return never reaches the endpoint.
    await approveChallenge(bank);

    const results = await heardCaptured(reference, 2);
    const late = results.find((result) => result['payment_reference'] === undefined);
    assert.ok(late, 'the abandoned attempt, under the order reference itself');
    assert.equal(late['source'], 'reconcile');
    assert.equal(late['duplicate_of'], `${reference}.pg2`, 'the shop is told it is a second payment');
    assert.ok(service.logs.some((line) => line.event === 'duplicate_payment'));
  });
});
