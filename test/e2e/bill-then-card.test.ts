/**
 * A cash bill that expired unpaid, then a card that paid the order (under its next attempt,
 * `<order>.pg2`), then the checkout page loaded again with the bill still remembered: the voucher
 * says the order is paid and nothing is due on the bill, never that the bill was paid. In the demo,
 * at phone width, in English and Arabic. Each language has a demo of its own: the test moves the
 * sandbox's clock past the bill's expiry, and a sandbox clock only moves forward.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { billVoucherMessages } from '../../src/components/pg-bill-voucher/messages.ts';
import { parseExpiry } from '../../src/core/voucher.ts';
import { TEST_CARDS } from '../../src/sandbox/test-cards.ts';
import { saveScreenshot, startDemoSession } from './support/demo.ts';
import { assertAccessible, assertNoCspViolation, chooseCardMode, chooseMethod, fillMerchantPageCard, openCheckout } from './support/flows.ts';

const catalogs = { en: billVoucherMessages.en, ar: await billVoucherMessages.ar() };
const SUCCESS_CARD = TEST_CARDS.find((card) => card.outcome === 'success' && card.brand === 'VISA')?.number ?? '';


const enabledMethods = (page: Page) =>
  page
    .locator('pg-checkout input[name="method"]')
    .evaluateAll((inputs) => inputs.filter((input) => !(input as HTMLInputElement).disabled).map((input) => (input as HTMLInputElement).value));

/**
 * Moves the sandbox gateway's clock past `expiresAt` (epoch ms) by a minute, and the voucher's: its
 * `clock` property (what a test or a demo sets to move time) runs ahead of the page's by as much.
 */
async function passExpiry(page: Page, voucher: Locator, expiresAt: number): Promise<void> {
  const sandboxNow = await page.evaluate(async () => (await (await fetch('/sandbox-tools/clock')).json()) as { now: string });
  const seconds = Math.ceil((expiresAt - Date.parse(sandboxNow.now)) / 1000) + 60;
  const moved = await page.evaluate(
    async (body) => (await fetch('/sandbox-tools/advance-clock', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
    JSON.stringify({ seconds }),
  );
  assert.equal(moved, 200, 'the sandbox clock moved');
  await voucher.evaluate((element, ahead) => {
    // Built from entries: the test runner's transform names functions written as properties, with a helper the page lacks.
    (element as unknown as { clock: unknown }).clock = Object.fromEntries([
      ['now', () => Date.now() + ahead],
      ['schedule', (callback: () => void, ms: number) => ((handle) => () => clearTimeout(handle))(setTimeout(callback, ms))],
    ]);
  }, expiresAt + 60_000 - Date.now());
}

describe('an order paid by card after its cash bill expired unpaid', () => {
  for (const language of ['en', 'ar'] as const) {
    const m = catalogs[language];
    it(`says the order is paid, not the bill, when the page is loaded again (${language}, 375 px)`, async (t) => {
      const session = await startDemoSession();
      t.after(() => session.close());
      const observed = await session.newPage(language);
      const { page } = observed;
      await page.setViewportSize({ width: 375, height: 800 });
      const reference = await openCheckout(page);
      await chooseCardMode(page, 'merchant-page');
      await chooseMethod(page, 'voucher');
      const voucher = page.locator('pg-checkout pg-bill-voucher');
      await voucher.locator('button.issue').click();
      await voucher.locator('section.bill [part="countdown"]').waitFor();
      const expires = await voucher.evaluate((element) => (element as unknown as { issuedBill: { expires: string } }).issuedBill.expires);
      const expiresAt = parseExpiry(expires);
      assert.ok(expiresAt !== undefined, `an expiry the core reads: ${expires}`);

      await passExpiry(page, voucher, expiresAt);
      await voucher.locator('section[part~="expired"]').waitFor();
      assert.equal((await voucher.locator('#bill-title').textContent())?.trim(), m.expiredTitle);
      assert.deepEqual(await enabledMethods(page), ['card', 'installments', 'voucher', 'financing'], 'every method is offered again');

      await chooseMethod(page, 'card');
      await fillMerchantPageCard(page, { number: SUCCESS_CARD });
      await page.locator('pg-checkout button.Pay').click();
      await page.locator('pg-checkout .outcome.success').waitFor({ timeout: 20_000 });
      const attempts = await page.evaluate(async () => (await (await fetch('/sandbox-tools/orders')).json()) as unknown);
      assert.ok(JSON.stringify(attempts).includes(`"${reference}.pg2"`), 'paid under the next attempt');

      await page.reload();
      const notice = voucher.locator('section[part~="order-paid"]');
      await notice.waitFor();
      assert.equal((await voucher.locator('#bill-title').textContent())?.trim(), m.paidElsewhereTitle);
      assert.equal(await voucher.evaluate((element) => element.matches(':state(paid)')), false, 'the bill itself was not paid');
      assert.equal(await voucher.locator('button.reissue').count(), 0, 'no new bill for a paid order');
      assert.deepEqual(await enabledMethods(page), ['voucher'], 'a paid order offers no other method');
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375, 'nothing wider than the phone');
      await assertAccessible(page, `voucher-order-paid-by-card-${language}`);
      await voucher.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `voucher-order-paid-by-card-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });
  }
});
