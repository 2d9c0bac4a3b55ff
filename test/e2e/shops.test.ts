/**
 * The example shops as a shop developer runs them: `php -S` (examples/php-shop) or Hono on Node
 * (examples/node-shop) on one loopback port, `pg-checkout serve --sandbox` on another, and a
 * customer in Chromium paying by card on the sandbox's hosted page. The verified result reaches the
 * shop by its signed webhook and the shop shows it. Then the shop's own verifier is tried as an
 * attacker would: a replayed webhook, a result sent again under the same key, forged lookups. Last,
 * what a shop copied from them would do with each state a payment reaches: an authorization is not
 * a paid order, a saved card is not a payment, and a paid order stays paid through what follows.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../src/sandbox/test-cards.ts';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from '../../src/server/hook-signature.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';
import { freePort, saveScreenshot } from './support/demo.ts';
import { fillMerchantPageCard, payOnHostedPage } from './support/flows.ts';

const HOOK_SECRET = 'e2e-shop-hook-secret-8d0c5b7a2f1e4d3c';
const root = join(import.meta.dirname, '..', '..');
const logDir = join(root, 'test-results', 'shops');
const successCard = TEST_CARDS.find((card) => card.outcome === 'success' && card.brand === 'VISA')?.number ?? '';

interface Running {
  readonly process: ChildProcess;
  readonly url: string;
}

/** Starts a command with its output in test-results/shops/<name>.log, once `url` answers. */
async function start(name: string, command: string, args: string[], options: { cwd?: string; env: Record<string, string>; url: string }): Promise<Running> {
  mkdirSync(logDir, { recursive: true });
  const log = openSync(join(logDir, `${name}.log`), 'w');
  const child = spawn(command, args, { cwd: options.cwd ?? root, env: { ...process.env, ...options.env }, stdio: ['ignore', log, log] });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; see test-results/shops/${name}.log`);
    try {
      await fetch(options.url, { signal: AbortSignal.timeout(1_000) });
      return { process: child, url: options.url };
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} did not answer on ${options.url}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

async function stop(running: Running | undefined): Promise<void> {
  if (!running || running.process.exitCode !== null) return;
  const exited = new Promise((resolve) => running.process.once('exit', resolve));
  running.process.kill();
  await exited;
}

/** A signed POST to one of the shop's hooks, as pg-checkout serve sends it (or an attacker tries). */
async function postHook(url: string, value: unknown, options: { at?: Date; secret?: string } = {}) {
  const body = JSON.stringify(value);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [HOOK_SIGNATURE_HEADER]: await signHookBody(body, options.secret ?? HOOK_SECRET, options.at) },
    body,
  });
}

/** A payment_result webhook body for one state of one payment of the order, as the service sends it. */
function paymentResult(reference: string, state: string, svcId = '1700000001') {
  const outcome = ['authorized', 'captured', 'partially_refunded'].includes(state) ? 'success' : state === 'pending' ? 'pending' : 'failure';
  const code = { authorized: '02000', captured: '14000', partially_refunded: '06000', refunded: '06000', voided: '08000' }[state] ?? '13001';
  return {
    type: 'payment_result',
    result: {
      merchant_reference: reference, outcome, response_code: code, response_message: 'As the gateway said it', status: code.slice(0, 2),
      svc_id: svcId, amount: 250_000, currency: 'EGP', source: 'reconcile', kind: 'payment',
      idempotency_key: `${reference}:${svcId}:${state}`, order_state: state, gateway: {},
    },
  };
}

interface ShopUnderTest {
  readonly name: 'php' | 'node';
  /** Starts the shop on `port`, talking to the service at `serviceUrl`. */
  start(port: number, serviceUrl: string, dataDir: string): Promise<Running>;
}

const SHOPS: readonly ShopUnderTest[] = [
  {
    name: 'php',
    start: (port, serviceUrl, dataDir) =>
      start('php-shop', 'php', ['-S', `127.0.0.1:${port}`, 'index.php'], {
        cwd: join(root, 'examples', 'php-shop'),
        // Workers: the first screen's page asks the service, which asks the shop's order hook meanwhile.
        env: { PG_HOOK_SECRET: HOOK_SECRET, PG_SERVICE_URL: serviceUrl, SHOP_DATA_DIR: dataDir, PHP_CLI_SERVER_WORKERS: '4' },
        url: `http://127.0.0.1:${port}/`,
      }),
  },
  {
    name: 'node',
    start: (port, serviceUrl) =>
      start('node-shop', process.execPath, ['--import', 'tsx', 'examples/node-shop/shop.ts'], {
        env: { PG_HOOK_SECRET: HOOK_SECRET, PG_SERVICE_URL: serviceUrl, SHOP_PORT: String(port) },
        url: `http://127.0.0.1:${port}/`,
      }),
  },
];

for (const shopUnderTest of SHOPS) {
  describe(`the ${shopUnderTest.name === 'php' ? 'PHP' : 'Node (Hono)'} example shop beside pg-checkout serve --sandbox`, () => {
    let shop: Running | undefined;
    let service: Running | undefined;
    let browser: LaunchedBrowser;
    let dataDir: string;
    let shopUrl: string;
    let paid: { reference: string; key: string } | undefined;

    before(async () => {
      const [shopPort, servicePort] = [await freePort(), await freePort()];
      shopUrl = `http://127.0.0.1:${shopPort}`;
      const serviceUrl = `http://127.0.0.1:${servicePort}`;
      dataDir = mkdtempSync(join(tmpdir(), 'pg-shop-'));
      service = await start(`${shopUnderTest.name}-service`, process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'serve', '--sandbox'], {
        env: {
          PG_PORT: String(servicePort),
          PG_ALLOWED_ORIGINS: shopUrl,
          PG_ORDER_URL: `${shopUrl}/pg-hooks/order`,
          PG_RESULT_WEBHOOK_URL: `${shopUrl}/pg-hooks/result`,
          PG_RESULT_URL: `${shopUrl}/result`,
          PG_SHOP_URL: `${shopUrl}/`,
          PG_HOOK_SECRET: HOOK_SECRET,
          // The service's store and the sandbox's state, in the test's own folder.
          PG_DATA_DIR: join(dataDir, 'service'),
        },
        url: `${serviceUrl}/result.css`,
      });
      shop = await shopUnderTest.start(shopPort, serviceUrl, dataDir);
      browser = await launchBrowser();
    });

    after(async () => {
      await browser?.close();
      await stop(shop);
      await stop(service);
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** A new page, with every page error, console error and CSP violation collected in `problems`. */
    async function checkoutPage(): Promise<{ page: Page; problems: string[] }> {
      const page: Page = await browser.context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      return { page, problems };
    }

    it('takes a card payment: the webhook delivers the verified result and the shop shows it', async () => {
      const { page, problems } = await checkoutPage();
      const scripts: string[] = [];
      page.on('request', (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname));
      await page.goto(`${shopUrl}/`);
      await page.locator('#buy').click();
      await page.waitForURL(/\/checkout\?merchant_reference=/);
      const reference = (await page.locator('#order-ref').textContent()) ?? '';
      await page.locator('pg-checkout button.Pay').waitFor();
      // The bundle's chunks come from the shop; an English redirect checkout needs no other element's view and no Arabic text.
      assert.ok(scripts.includes('/assets/pg-checkout/pg-checkout.js'), `scripts: ${scripts.join(', ')}`);
      assert.deepEqual(scripts.filter((path) => /\/(messages\.ar|installments-view|bill-voucher-view|financing-otp-view)-/.test(path)), []);
      await page.locator('pg-checkout button.Pay').click();
      await payOnHostedPage(page, { number: successCard, language: 'en' });
      // The contract's schemas come from the shop's chunks folder with the customer's first request.
      assert.ok(scripts.some((path) => path.startsWith('/assets/pg-checkout/chunks/')), `scripts: ${scripts.join(', ')}`);
      await page.waitForURL(new RegExp(`^${shopUrl}/result\\?merchant_reference=${reference}`), { timeout: 20_000 });
      await page.locator('#outcome[data-outcome="success"]').waitFor({ timeout: 10_000 });
      assert.equal(await page.locator('#response-code').textContent(), '14000');
      const paymentId = (await page.locator('#payment-id').textContent()) ?? '';
      assert.match(paymentId, /^\d+$/);
      await saveScreenshot(page, `shop-${shopUnderTest.name}-result`);
      assert.deepEqual(problems, [], 'no console error and no CSP violation on the shop’s pages');

      const serviceLog = readFileSync(join(logDir, `${shopUnderTest.name}-service.log`), 'utf8');
      const delivered = serviceLog.split('\n').filter((line) => line.includes('"event":"result_delivered"'));
      assert.equal(delivered.length, 1, 'delivered once');
      assert.match(delivered[0] ?? '', new RegExp(`"merchant_reference":"${reference}"`));
      assert.ok(!serviceLog.includes(HOOK_SECRET) && !serviceLog.includes(successCard), 'no secret or card number in the log');
      paid = { reference, key: `${reference}:${paymentId}:captured` };
      await page.close();
    });

    if (shopUnderTest.name === 'php') {
      it('takes a card on its own page, from the first screen the service wrote into it', async () => {
        const { page, problems } = await checkoutPage();
        await page.goto(`${shopUrl}/`);
        await page.locator('#buy').click();
        await page.waitForURL(/\/checkout\?merchant_reference=/);
        const reference = (await page.locator('#order-ref').textContent()) ?? '';
        const [written] = await Promise.all([
          page.waitForResponse((response) => response.url().includes('method=card-here')),
          page.locator('#pay-here').click(),
        ]);
        const html = await written.text();
        assert.match(html, /<pg-checkout mode="merchant-page" endpoint="[^"]+" merchant-reference="[^"]+" language="en" order-token="[0-9a-f]+"><template shadowrootmode="open"><style nonce=/);
        assert.match(html, /<button type="submit" class="Pay" part="Pay">Pay <bdi dir="ltr" class="ltr">EGP\s2,500\.00<\/bdi><\/button>/);
        await page.locator('pg-checkout [data-pg-first-screen]').waitFor({ state: 'detached', timeout: 20_000 });
        await fillMerchantPageCard(page, { number: successCard });
        await page.locator('pg-checkout button.Pay').click();
        await page.locator('pg-checkout .outcome.success').waitFor({ timeout: 20_000 });
        await page.goto(`${shopUrl}/result?merchant_reference=${reference}`);
        await page.locator('#outcome[data-outcome="success"]').waitFor({ timeout: 10_000 });
        assert.deepEqual(problems, [], 'no console error and no CSP violation on the shop’s pages');
        await page.close();
      });
    }

    it('issues a cash bill: the webhook brings its number, and the order page shows the voucher again without asking', async () => {
      const { page, problems } = await checkoutPage();
      const billRequests: string[] = [];
      page.on('request', (request) => new URL(request.url()).pathname.endsWith('/bill') && billRequests.push(request.url()));
      await page.goto(`${shopUrl}/`);
      await page.locator('#buy').click();
      await page.waitForURL(/\/checkout\?merchant_reference=/);
      await page.locator('#pay-cash').click();
      const voucher = page.locator('pg-bill-voucher');
      await voucher.locator('button.issue').click();
      const issued = voucher.locator('section.bill .bill-number .group');
      await issued.first().waitFor();
      const billNumber = (await issued.allTextContents()).join('');
      assert.match(billNumber, /^\d{14}$/);
      // The shop's own order page: the bill as the webhook stored it (it refreshes until it has come).
      await page.locator('#order-page').click();
      await page.locator('#outcome[data-outcome="pending"]').waitFor({ timeout: 20_000 });
      const shown = page.locator('pg-bill-voucher section.bill .bill-number .group');
      await shown.first().waitFor();
      assert.equal((await shown.allTextContents()).join(''), billNumber);
      assert.equal(billRequests.length, 1, 'the order page shows the stored bill and asks for none');
      await saveScreenshot(page, `shop-${shopUnderTest.name}-bill`);
      assert.deepEqual(problems, [], 'no console error and no CSP violation on the shop’s pages');
      await page.close();
    });

    it('refuses a webhook replayed outside the five-minute window', async () => {
      const replay = await postHook(
        `${shopUrl}/pg-hooks/result`,
        { type: 'payment_result', result: { idempotency_key: `${paid?.reference}:1:voided`, merchant_reference: paid?.reference, outcome: 'failure', order_state: 'voided', response_code: '08000', response_message: 'Voided' } },
        { at: new Date(Date.now() - 6 * 60_000) },
      );
      assert.equal(replay.status, 401);
    });

    it('keeps the first result when the same idempotency key arrives again', async () => {
      const again = await postHook(`${shopUrl}/pg-hooks/result`, {
        type: 'payment_result',
        result: { idempotency_key: paid?.key, merchant_reference: paid?.reference, outcome: 'failure', order_state: 'failed', response_code: '13001', response_message: 'Declined' },
      });
      assert.equal(again.status, 200);
      if (shopUnderTest.name === 'php') {
        const store = JSON.parse(readFileSync(join(dataDir, 'store.json'), 'utf8')) as { results: Record<string, { outcome: string }> };
        assert.deepEqual(Object.keys(store.results).filter((key) => key.startsWith(`${paid?.reference}:`)), [paid?.key]);
        assert.equal(store.results[paid?.key ?? '']?.outcome, 'success');
      }
    });

    /** A new order of a new customer, as the shop's checkout creates it: its reference, session cookie and token. */
    async function newOrder(headers: Record<string, string> = {}) {
      const created = await fetch(`${shopUrl}/checkout`, { method: 'POST', redirect: 'manual', headers });
      const setCookie = created.headers.get('set-cookie') ?? '';
      const cookie = setCookie.split(';')[0] ?? '';
      const reference = new URL(created.headers.get('location') ?? '', shopUrl).searchParams.get('merchant_reference') ?? '';
      const page = await (await fetch(`${shopUrl}/checkout?merchant_reference=${reference}`, { headers: { cookie } })).text();
      const token = /order-token="([0-9a-f]+)"/.exec(page)?.[1] ?? '';
      return { reference, cookie, token, setCookie };
    }

    /** What the shop's result page tells its customer: the title and the outcome paragraph's state. */
    async function resultPage(order: { reference: string; cookie: string }) {
      const text = await (await fetch(`${shopUrl}/result?merchant_reference=${order.reference}`, { headers: { cookie: order.cookie } })).text();
      return { title: /<h1>(.*?)<\/h1>/.exec(text)?.[1], state: /data-state="([a-z_]*)"/.exec(text)?.[1], text };
    }

    /** The result page's title and the order's state on it. */
    async function shown(order: { reference: string; cookie: string }) {
      const { title, state } = await resultPage(order);
      return [title, state];
    }

    /** The shop's signed answer to the service's lookup, for the order's own customer. */
    async function lookup(order: { reference: string; token: string }) {
      const answer = await postHook(`${shopUrl}/pg-hooks/order`, {
        type: 'order_lookup', merchant_reference: order.reference, route: 'hostedPage', reference_source: 'browser', headers: { 'pg-order-token': order.token },
      });
      return (await answer.json()) as { paid: boolean };
    }

    async function deliver(value: unknown) {
      assert.equal((await postHook(`${shopUrl}/pg-hooks/result`, value)).status, 200);
    }

    describe('when a payment is authorized and never captured', () => {
      it('shows it as authorized, to be captured before shipping, never as a paid order', async () => {
        const order = await newOrder();
        await deliver(paymentResult(order.reference, 'authorized'));
        const page = await resultPage(order);
        assert.equal(page.title, 'Payment authorized');
        assert.equal(page.state, 'authorized');
        assert.match(page.text, /capture before shipping/);
        assert.doesNotMatch(page.text, /Thank you/);
        assert.equal((await lookup(order)).paid, true, 'while the money is held, the service signs no second payment');
      });

      it('records the void at the end of the hold as a later move: nothing charged, and the order may be paid again', async () => {
        const order = await newOrder();
        await deliver(paymentResult(order.reference, 'authorized'));
        await deliver(paymentResult(order.reference, 'voided'));
        const voided = await resultPage(order);
        assert.deepEqual([voided.title, voided.state], ['Payment not completed', 'voided']);
        assert.match(voided.text, /nothing was charged/);
        assert.equal((await lookup(order)).paid, false);
        await deliver(paymentResult(order.reference, 'captured', '1700000002'));
        const paidAgain = await resultPage(order);
        assert.deepEqual([paidAgain.title, paidAgain.state], ['Thank you for your order', 'captured']);
      });

      it('becomes a paid order once the authorization is captured', async () => {
        const order = await newOrder();
        await deliver(paymentResult(order.reference, 'authorized'));
        await deliver(paymentResult(order.reference, 'captured'));
        assert.deepEqual(await shown(order), ['Thank you for your order', 'captured']);
      });
    });

    describe('when a paid order is declined, refunded or replayed afterwards', () => {
      it('stays paid through a later failure, and shows a refund as a later move', async () => {
        const order = await newOrder();
        await deliver(paymentResult(order.reference, 'captured'));
        await deliver(paymentResult(order.reference, 'failed', '1700000009'));
        assert.deepEqual(await shown(order), ['Thank you for your order', 'captured']);
        await deliver(paymentResult(order.reference, 'partially_refunded'));
        const partly = await resultPage(order);
        assert.deepEqual([partly.title, partly.state], ['Thank you for your order', 'partially_refunded']);
        assert.match(partly.text, /part of it has been refunded/);
        await deliver(paymentResult(order.reference, 'refunded'));
        assert.deepEqual(await shown(order), ['Order refunded', 'refunded']);
        assert.equal((await lookup(order)).paid, true, 'a refunded order is not paid for again');
      });
    });

    describe('when a card is saved under the order’s reference', () => {
      it('never shows it as the order’s payment, nor answers the order paid', async () => {
        const order = await newOrder();
        await deliver({
          type: 'saved_card',
          result: {
            merchant_reference: order.reference, outcome: 'success', response_code: '18000', response_message: 'Success', status: '18',
            source: 'save-card', kind: 'saved_card', idempotency_key: `${order.reference}:card_saved:abc`, order_state: 'not_found',
            command: 'TOKENIZATION', saved_card: { token_name: 'tok', confirmed: true }, gateway: {},
          },
        });
        const page = await resultPage(order);
        assert.equal(page.title, 'Waiting for the payment result');
        assert.equal((await lookup(order)).paid, false);
      });

      it('refuses a saved card passed off as a payment result', async () => {
        const order = await newOrder();
        const forged = paymentResult(order.reference, 'captured');
        const refused = await postHook(`${shopUrl}/pg-hooks/result`, { ...forged, result: { ...forged.result, kind: 'saved_card' } });
        assert.equal(refused.status, 400);
        assert.equal((await resultPage(order)).title, 'Waiting for the payment result');
      });
    });

    it('answers a lookup whose order token is not ASCII 404, like any wrong token, never 500', async () => {
      const order = await newOrder();
      // As long as the token in characters, longer in bytes: what a header of UTF-8 bytes read as latin1 becomes.
      const answer = await postHook(`${shopUrl}/pg-hooks/order`, {
        type: 'order_lookup', merchant_reference: order.reference, route: 'hostedPage', reference_source: 'browser', headers: { 'pg-order-token': 'é'.repeat(order.token.length) },
      });
      assert.equal(answer.status, 404);
    });

    it('marks the session cookie Secure when the shop is reached over https, and not on plain http', async () => {
      assert.doesNotMatch((await newOrder()).setCookie, /;\s*secure/i);
      assert.match((await newOrder({ 'x-forwarded-proto': 'https' })).setCookie, /;\s*secure/i);
    });

    if (shopUnderTest.name === 'php') {
      it('replaces its store file whole on each change, and leaves it untouched when a page only reads it', async () => {
        const storeFile = join(dataDir, 'store.json');
        const order = await newOrder();
        const created = statSync(storeFile);
        await resultPage(order);
        const read = statSync(storeFile);
        assert.deepEqual([read.ino, read.mtimeMs], [created.ino, created.mtimeMs], 'a read writes nothing');
        await deliver(paymentResult(order.reference, 'captured'));
        // A new file renamed over the old: a crash mid-write leaves the previous store whole.
        assert.notEqual(statSync(storeFile).ino, created.ino);
        const store = JSON.parse(readFileSync(storeFile, 'utf8')) as { orders: Record<string, { paid?: boolean; state?: string }> };
        assert.deepEqual([store.orders[order.reference]?.paid, store.orders[order.reference]?.state], [true, 'captured']);
      });
    }

    it('answers the order lookup signed, only to the service’s signature and only for the token’s holder', async () => {
      const lookup = { type: 'order_lookup', merchant_reference: paid?.reference, route: 'order', reference_source: 'browser', headers: {} };
      assert.equal((await postHook(`${shopUrl}/pg-hooks/order`, lookup, { secret: 'not-the-shared-secret-0123456789abcdef' })).status, 401);
      assert.equal((await postHook(`${shopUrl}/pg-hooks/order`, lookup)).status, 404, 'no token, no order');
      const fromGateway = await postHook(`${shopUrl}/pg-hooks/order`, { ...lookup, route: 'gatewayReturn', reference_source: 'gateway' });
      assert.equal(fromGateway.status, 200);
      const text = await fromGateway.text();
      assert.equal((await verifyHookSignature(text, fromGateway.headers.get(HOOK_SIGNATURE_HEADER), HOOK_SECRET)).valid, true);
      assert.deepEqual(JSON.parse(text), {
        merchant_reference: paid?.reference,
        amount: 250_000,
        currency: 'EGP',
        description: 'Noise-cancelling headphones',
        paid: true,
      });
    });
  });
}
