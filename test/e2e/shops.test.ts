/**
 * The example shops as a shop developer runs them: `php -S` (examples/php-shop) or Hono on Node
 * (examples/node-shop) on one loopback port, `pg-checkout serve --sandbox` on another, and a
 * customer in Chromium paying by card on the sandbox's hosted page. The verified result reaches the
 * shop by its signed webhook and the shop shows it. Then the shop's own verifier is tried as an
 * attacker would: a replayed webhook, a result sent again under the same key, forged lookups.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../src/sandbox/test-cards.ts';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from '../../src/server/hook-signature.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';
import { freePort, saveScreenshot } from './support/demo.ts';
import { payOnHostedPage } from './support/flows.ts';

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
        env: { PG_HOOK_SECRET: HOOK_SECRET, PG_SERVICE_URL: serviceUrl, SHOP_DATA_DIR: dataDir },
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
