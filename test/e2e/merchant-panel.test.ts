/**
 * The merchant panel end to end, in English and in Arabic: a customer pays with "hold the amount"
 * (an AUTHORIZATION through the hosted page); in the panel the merchant sees the order authorized,
 * captures part of it and refunds part of what was captured, each through the demo's own
 * back-office routes and the back-office client; the lifecycle shows the amounts and operations.
 * Then the day's report is downloaded, with the columns reconciling needs, and the panel fits a 375 px phone. axe, no CSP violation.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { DEFAULT_REPORT_COLUMNS, readReportFile } from '../../src/core/report-file.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { startDemoSession, type DemoSession } from './support/demo.ts';
import { assertAccessible, assertNoCspViolation, chooseCardMode, chooseMethod, expectResult, openCheckout, payOnHostedPage } from './support/flows.ts';

const PHONE = { width: 375, height: 812 };

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

/** A customer of the demo pays by card on the hosted page, the amount held (AUTHORIZATION). */
async function authorizeOrder(page: Page, language: 'en' | 'ar'): Promise<string> {
  const reference = await openCheckout(page);
  await chooseMethod(page, 'card');
  await chooseCardMode(page, 'redirect');
  await page.locator('input[name="charge-mode"][value="AUTHORIZATION"]').check();
  await page.locator('pg-checkout[command="AUTHORIZATION"]').waitFor();
  await page.locator('pg-checkout button.Pay').click();
  await payOnHostedPage(page, { number: testCard('success').number, language });
  const result = await expectResult(page, 'success');
  assert.equal(result.fields.response_code, '02000');
  return reference;
}

/** In the panel: an amount typed into an order's form, then one of its buttons. Waits for the redrawn row. */
async function act(page: Page, reference: string, button: string, amount: string): Promise<void> {
  const row = page.locator(`#orders tr[data-reference="${reference}"]`);
  await row.locator('input[name="amount"]').fill(amount);
  await row.locator(`button[value="${button}"]`).click();
  await page.locator(`#orders tr[data-reference="${reference}"][data-outcome="success"]`).waitFor();
}

async function amountShown(page: Page, reference: string, which: 'authorized' | 'captured' | 'refunded'): Promise<string> {
  return (await page.locator(`#orders tr[data-reference="${reference}"] dd[data-amount="${which}"]`).textContent()) ?? '';
}

async function assertFits(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `the merchant panel is ${width} px wide at ${PHONE.width} px`);
}

for (const language of ['en', 'ar'] as const) {
  describe(`the merchant panel in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('captures part of an authorization and refunds part of the capture, showing the lifecycle', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      const reference = await authorizeOrder(page, language);

      await page.goto(`${session.demo.url}merchant.html`);
      const row = page.locator(`#orders tr[data-reference="${reference}"]`);
      await row.locator('.state[data-state="authorized"]').waitFor();
      assert.equal(await page.locator('html').getAttribute('dir'), language === 'ar' ? 'rtl' : 'ltr');
      assert.match(await amountShown(page, reference, 'authorized'), /12[,٬]?848|١٢٬٨٤٨/);
      await assertAccessible(page, `merchant-authorized-${language}`);

      await act(page, reference, 'capture', '5000.00');
      await row.locator('.state[data-state="captured"]').waitFor();
      assert.match(await amountShown(page, reference, 'captured'), /5[,٬]?000|٥٬٠٠٠/);
      assert.equal(await row.locator('.operations li[data-operation="capture"][data-outcome="success"]').count(), 1);

      // Captured in part, the rest may still be captured; an amount beyond it is refused by the client, sending nothing.
      await row.locator('input[name="amount"]').fill('99999.00');
      await row.locator('button[value="capture"]').click();
      await page.locator(`#orders tr[data-reference="${reference}"][data-outcome="refused"]`).waitFor();
      assert.match((await row.locator('.action-message').textContent()) ?? '', language === 'en' ? /exceeds what the order allows/ : /يتجاوز/);

      await act(page, reference, 'refund', '1000.50');
      await row.locator('.state[data-state="partially_refunded"]').waitFor();
      assert.match(await amountShown(page, reference, 'refunded'), /1[,٬]?000[.٫]50|١٬٠٠٠٫٥٠/);
      assert.equal(await row.locator('.operations li').count(), 3, 'the capture, the refused capture, the refund');
      assert.ok(((await row.locator('.action-message').textContent()) ?? '').length > 0, 'the outcome is announced');
      await assertAccessible(page, `merchant-refunded-${language}`);

      await page.setViewportSize(PHONE);
      await page.reload();
      await row.locator('.state').waitFor();
      await assertFits(page);
      await assertAccessible(page, `merchant-narrow-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}

describe('the day’s report from the merchant panel', () => {
  it('downloads a verified CSV listing the orders and their operations', async () => {
    const observed = await session.newPage('en');
    const { page } = observed;
    const reference = await authorizeOrder(page, 'en');
    await page.goto(`${session.demo.url}merchant.html`);
    await page.locator(`#orders tr[data-reference="${reference}"] .state`).waitFor();
    await act(page, reference, 'capture', '');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-report').click()]);
    assert.match(download.suggestedFilename(), /^report-demo-rep-.+\.csv$/);
    const { columns, rows } = readReportFile('CSV', readFileSync(await download.path(), 'utf8'));
    const operations = rows.filter((line) => line['merchant_reference'] === reference).map((line) => line['operation']);
    assert.deepEqual(operations, ['AUTHORIZATION', 'CAPTURE']);
    // What reconciling needs: when, and how each operation ended, beside the references and the money.
    assert.deepEqual(columns, [...DEFAULT_REPORT_COLUMNS]);
    const outcomes = rows.filter((line) => line['merchant_reference'] === reference).map((line) => [line['response_code'], line['status']]);
    assert.deepEqual(outcomes, [['02000', '02'], ['20064', '04']]);
    await assertNoCspViolation(observed);
    await page.close();
  });
});
