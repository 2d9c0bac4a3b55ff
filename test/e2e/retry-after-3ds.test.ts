/**
 * Issue 24: closing the 3-D Secure dialog leaves the customer free to pay again at once. In
 * Chromium, on the demo: the sandbox's 3-D Secure card opens the dialog, the customer closes it
 * (Escape, or the Close button), is told the payment was not completed, presses "Try again" and
 * pays with another card, on the gateway's page in the checkout (embedded) and on the shop's own
 * card form (merchant page). Pay is never refused, and "Try again" and "Pay" are never offered
 * together. The new attempt is paid under the order's next reference; the demo's order is paid.
 *
 * And on a phone (375 × 667), in English and Arabic: the dialog's Close button is on screen
 * without scrolling, and only the bank's frame scrolls.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { testCard, type CardOutcome } from '../../src/sandbox/test-cards.ts';
import { saveScreenshot, startDemoSession, type DemoSession } from './support/demo.ts';
import { assertNoCspViolation, chooseCardMode, chooseMethod, fillMerchantPageCard, openCheckout, payInElement } from './support/flows.ts';

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

const PAID = { en: 'Payment successful', ar: 'تم الدفع بنجاح' } as const;
const NOT_PAID = { en: 'Payment not completed', ar: 'لم يكتمل الدفع' } as const;

type Mode = 'embedded' | 'merchant-page';

/** Types a test card where this mode takes it, and presses that page's Pay. */
async function payWith(page: Page, mode: Mode, outcome: CardOutcome, language: 'en' | 'ar' = 'en'): Promise<void> {
  if (mode === 'merchant-page') {
    await fillMerchantPageCard(page, { number: testCard(outcome).number });
    await page.locator('pg-checkout button.Pay').click();
    return;
  }
  const frame = page.frameLocator('pg-checkout iframe.payment-frame');
  await frame.locator('#card_number').waitFor({ timeout: 20_000 });
  await frame.locator('#card_number').fill(testCard(outcome).number);
  await frame.locator('#expiry_date').fill('12/30');
  await frame.locator('#card_security_code').fill('123');
  await frame.locator('#card_holder_name').fill('Test Customer');
  await frame.locator('#pay').click();
  // The gateway's page only took the card: the element's Pay button, naming the amount, charges it.
  await payInElement(page, language);
}

/** The dialog is open with the bank's page in it. */
async function dialogOpen(page: Page): Promise<void> {
  await page.locator('pg-checkout dialog.challenge').waitFor({ timeout: 20_000 });
  await page.frameLocator('pg-checkout dialog iframe.challenge-frame').locator('#approve').waitFor();
}

/** How many of the checkout's Pay and "Try again" buttons are on screen. */
async function offered(page: Page): Promise<{ pay: number; tryAgain: number }> {
  return {
    pay: await page.locator('pg-checkout button.Pay:visible').count(),
    tryAgain: await page.locator('pg-checkout button.retry:visible').count(),
  };
}

const CASES = [
  { mode: 'embedded', close: 'Escape', language: 'en' },
  { mode: 'embedded', close: 'Close', language: 'ar' },
  { mode: 'merchant-page', close: 'Escape', language: 'ar' },
  { mode: 'merchant-page', close: 'Close', language: 'en' },
] as const;

describe('paying again after closing the 3-D Secure dialog', () => {
  for (const { mode, close, language } of CASES) {
    it(`${mode}, closed with ${close} (${language}): "Try again" then pays at once`, async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      const reference = await openCheckout(page);
      await chooseMethod(page, 'card');
      await chooseCardMode(page, mode);

      await payWith(page, mode, '3ds', language);
      await dialogOpen(page);
      if (close === 'Escape') await page.keyboard.press('Escape');
      else await page.locator('pg-checkout dialog.challenge button.close').click();
      await page.locator('pg-checkout dialog.challenge').waitFor({ state: 'detached' });

      const outcome = page.locator('pg-checkout .outcome-title');
      await outcome.waitFor();
      assert.equal((await outcome.textContent())?.trim(), NOT_PAID[language]);
      assert.deepEqual(await offered(page), { pay: 0, tryAgain: 1 }, 'only "Try again" is offered');
      await page.locator('pg-checkout .outcome button.retry').click();

      if (mode === 'merchant-page') {
        await page.locator('pg-checkout button.Pay').waitFor();
        assert.deepEqual(await offered(page), { pay: 1, tryAgain: 0 }, 'only Pay is offered');
      }
      await payWith(page, mode, 'success', language);
      await page.locator('pg-checkout .outcome.success').waitFor({ timeout: 20_000 });
      assert.equal((await outcome.textContent())?.trim(), PAID[language]);
      assert.equal(await page.locator('pg-checkout [part~="failure"]').count(), 0, 'Pay was not refused');
      await saveScreenshot(page, `retry-after-3ds-${mode}-${close.toLowerCase()}-${language}`);

      const { gateway, state } = session.demo;
      assert.equal(gateway.order({ merchantReference: reference })?.state, 'pending_3ds', 'the closed check is left at the bank');
      assert.equal(gateway.order({ merchantReference: `${reference}.pg2` })?.state, 'captured', 'the new attempt is paid');
      const result = state.results.get(reference);
      assert.equal(result?.order_state, 'captured', 'the shop’s order is paid');
      assert.equal(result?.payment_reference, `${reference}.pg2`);
      // The merchant panel reads the order's payment where it lives: the new attempt, not the closed check.
      const views = (await (await page.request.get(new URL('demo-api/back-office/orders?lang=en', session.demo.url).href)).json()) as {
        order: { merchant_reference: string };
        lifecycle: { state: string } | null;
      }[];
      assert.equal(views.find((view) => view.order.merchant_reference === reference)?.lifecycle?.state, 'captured', 'the panel shows the order paid');
      await assertNoCspViolation(observed);
      await page.close();
    });
  }
});

const PHONE = { width: 375, height: 667 };

for (const language of ['en', 'ar'] as const) {
  describe(`the 3-D Secure dialog on a ${PHONE.width} × ${PHONE.height} phone in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('shows the Close button without scrolling; only the bank’s frame scrolls', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await page.setViewportSize(PHONE);
      await page.reload();
      await openCheckout(page);
      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'merchant-page');
      await payWith(page, 'merchant-page', '3ds');
      await dialogOpen(page);
      assert.equal(await page.locator('html').getAttribute('dir'), language === 'ar' ? 'rtl' : 'ltr');

      const close = page.locator('pg-checkout dialog.challenge button.close');
      const box = await close.boundingBox();
      assert.ok(box, 'the Close button is laid out');
      assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `the Close button is on screen: ${JSON.stringify(box)}`);
      assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `the Close button is within the width: ${JSON.stringify(box)}`);
      const dialog = await page.locator('pg-checkout dialog.challenge').evaluate((element) => ({
        scrolls: element.scrollHeight > element.clientHeight + 1,
        bottom: element.getBoundingClientRect().bottom,
      }));
      assert.equal(dialog.scrolls, false, 'the dialog itself does not scroll');
      assert.ok(dialog.bottom <= PHONE.height, `the dialog fits the screen (bottom ${dialog.bottom})`);
      const frame = await page.locator('pg-checkout dialog iframe.challenge-frame').boundingBox();
      assert.ok(frame && frame.height >= 96, `the bank's frame keeps room for its page: ${JSON.stringify(frame)}`);
      // The bank's page: the masked card on one line, and no shop reference (it would name the attempt, ".pg2").
      const bankPage = page.frameLocator('pg-checkout dialog iframe.challenge-frame');
      const values = await bankPage.locator('dl.summary dd').evaluateAll((cells) =>
        cells.map((cell) => ({ text: cell.textContent ?? '', lines: cell.firstElementChild?.getClientRects().length ?? cell.getClientRects().length })),
      );
      const card = values.find((value) => value.text.includes('*'));
      assert.ok(card, `the bank's page shows the masked card: ${JSON.stringify(values)}`);
      assert.equal(card.lines, 1, `the masked card is not broken over lines: ${card.text}`);
      assert.ok(!values.some((value) => value.text.includes('.pg') || value.text.startsWith('demo-')), `no shop reference: ${JSON.stringify(values)}`);
      // What the phone shows, not the whole page: the dialog over the screen the customer sees.
      await page.screenshot({ path: await saveScreenshot(page, `narrow-3ds-dialog-${language}`) });

      await close.click();
      await page.locator('pg-checkout dialog.challenge').waitFor({ state: 'detached' });
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}
