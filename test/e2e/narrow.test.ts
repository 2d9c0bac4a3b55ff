/**
 * The demo on a phone, 375 px wide: every page fits with no horizontal scroll, in English and in
 * Arabic: the storefront with each method and card mode of the checkout, an issued bill, the
 * result page of a payment, and the merchant panel with its orders. The embedded card mode too: the
 * gateway's page in its frame fits. axe on the main screens, no
 * CSP violation, no error in the console.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { TEST_CARDS } from '../../src/sandbox/test-cards.ts';
import { startDemoSession, type DemoSession } from './support/demo.ts';
import {
  assertAccessible,
  assertNoCspViolation,
  chooseCardMode,
  chooseMethod,
  expectResult,
  openCheckout,
  payOnHostedPage,
} from './support/flows.ts';

const PHONE = { width: 375, height: 812 };
const SUCCESS_CARD = TEST_CARDS.find((card) => card.outcome === 'success' && card.brand === 'VISA')!.number;

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

/** The page scrolls no wider than the phone; otherwise names what sticks out. */
async function assertFits(page: Page, screen: string): Promise<void> {
  const { scrollWidth, wide } = await page.evaluate((width) => {
    const wide = [...document.querySelectorAll('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.right > width + 0.5 || box.left < -0.5;
      })
      .slice(0, 5)
      .map((element) => `<${element.localName}${element.id ? ` id=${element.id}` : ''} class="${element.getAttribute('class') ?? ''}">`);
    return { scrollWidth: document.documentElement.scrollWidth, wide };
  }, PHONE.width);
  assert.ok(scrollWidth <= PHONE.width, `${screen}: the page is ${scrollWidth} px wide (${wide.join(', ')})`);
}

for (const language of ['en', 'ar'] as const) {
  describe(`the demo at ${PHONE.width} px in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('fits every page: storefront, checkout, bill, result and merchant panel', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await page.setViewportSize(PHONE);
      await page.reload();

      await assertFits(page, 'storefront');
      await assertAccessible(page, `narrow-storefront-${language}`);

      const reference = await openCheckout(page);
      for (const mode of ['merchant-page', 'embedded', 'redirect'] as const) {
        await chooseMethod(page, 'card');
        await chooseCardMode(page, mode);
        for (const method of ['card', 'installments', 'voucher', 'financing'] as const) {
          await chooseMethod(page, method);
          await page.locator(`pg-checkout [part~="method-panel"] > *`).first().waitFor();
          await assertFits(page, `checkout, ${method} (${mode})`);
        }
      }

      // The card modes show for a card only: the method first.
      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'merchant-page');
      await assertAccessible(page, `narrow-checkout-card-form-${language}`);

      // A bill issued for this order, to show it and to list it in the merchant panel.
      await chooseMethod(page, 'voucher');
      await page.locator('pg-checkout pg-bill-voucher button.issue').click();
      await page.locator('pg-checkout pg-bill-voucher [part~="bill-number"]').waitFor();
      await assertFits(page, 'issued bill');

      // A card payment through the hosted page, for the result page (a new order: this one holds the bill).
      await page.goto(`${session.demo.url}?lang=${language}`);
      const paid = await openCheckout(page);
      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'redirect');
      await page.locator('pg-checkout button.Pay').click();
      await payOnHostedPage(page, { number: SUCCESS_CARD, language });
      await expectResult(page, 'success');
      await assertFits(page, 'result page');
      await assertAccessible(page, `narrow-result-${language}`);

      await page.goto(`${session.demo.url}merchant.html`);
      await page.locator(`#orders tr[data-reference="${paid}"]`).waitFor();
      await page.locator(`#orders tr[data-reference="${reference}"] button.pay-bill`).waitFor();
      await assertFits(page, 'merchant panel');
      await assertAccessible(page, `narrow-merchant-${language}`);

      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}
