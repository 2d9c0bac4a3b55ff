/**
 * The storefront's own controls as a merchant walking the demo meets them (issue 24): one
 * "Payment" heading; only the choices that change something for the method on screen; after a
 * payment the cart is the order's, and a new order starts only on purpose, never one per click;
 * and the pages run Lit's production build (no "Lit is in dev mode" warning). At 375 px in English
 * and Arabic, with screenshots.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { startDemoSession, type DemoSession } from './support/demo.ts';
import { assertAccessible, assertNoCspViolation, chooseCardMode, chooseMethod, fillMerchantPageCard, openCheckout } from './support/flows.ts';

const PHONE = { width: 375, height: 812 };

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

/** Which of the storefront's choices are on screen: the intent, the card modes, charge now or hold. */
async function visibleControls(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const group of ['intent', 'card-mode', 'charge-mode']) {
    if (await page.locator(`#checkout-host fieldset[data-group="${group}"]`).isVisible()) names.push(group);
  }
  return names;
}

describe('the demo runs Lit’s production build', () => {
  it('writes no console warning on the storefront, the merchant panel or the result page', async () => {
    const observed = await session.newPage('en');
    const { page } = observed;
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(`${message.text()} (${page.url()})`);
    });
    await page.reload();
    await openCheckout(page);
    await page.goto(`${session.demo.url}merchant.html`);
    await page.locator('#orders tr').first().waitFor();
    // Module scripts run before the load event, which goto waits for: Lit's warning comes then.
    await page.goto(`${session.demo.url}result.html?merchant_reference=none`);
    assert.deepEqual(warnings, []);
    await page.close();
  });
});

for (const language of ['en', 'ar'] as const) {
  describe(`the storefront’s controls in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('has one "Payment" heading and shows only the choices that apply to the method on screen', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await page.setViewportSize(PHONE);
      await openCheckout(page);
      const payment = language === 'en' ? 'Payment' : 'الدفع';
      const headings = await page.locator('h1, h2, h3, legend').evaluateAll((nodes) => nodes.map((node) => node.textContent?.trim()));
      assert.equal(headings.filter((text) => text === payment).length, 1, `headings: ${JSON.stringify(headings)}`);

      await chooseMethod(page, 'card');
      assert.deepEqual(await visibleControls(page), ['intent', 'card-mode', 'charge-mode']);
      await assertAccessible(page, `demo-controls-card-${language}`);
      await chooseMethod(page, 'installments');
      assert.deepEqual(await visibleControls(page), ['intent', 'card-mode', 'charge-mode']);
      await chooseMethod(page, 'voucher');
      assert.deepEqual(await visibleControls(page), ['intent']);
      await assertAccessible(page, `demo-controls-voucher-${language}`);
      await chooseMethod(page, 'financing');
      assert.deepEqual(await visibleControls(page), ['intent']);
      // Saving a card charges nothing: the card modes apply, charge now or hold does not.
      await page.locator('input[name="intent"][value="save-card"]').check();
      await page.locator('pg-checkout[intent="save-card"]').waitFor();
      assert.deepEqual(await visibleControls(page), ['intent', 'card-mode']);
      await assertAccessible(page, `demo-controls-save-card-${language}`);

      // A changed cart is a new order, which opens on the card again, with the card's choices.
      await page.locator('input[name="intent"][value="pay"]').check();
      await chooseMethod(page, 'financing');
      assert.deepEqual(await visibleControls(page), ['intent']);
      await page.locator('#cart-lines input').first().fill('2');
      await page.locator('#cart-lines input').first().dispatchEvent('change');
      await openCheckout(page);
      assert.deepEqual(await visibleControls(page), ['intent', 'card-mode', 'charge-mode']);
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('keeps the paid order’s cart and starts a new order only on purpose, never one per click', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await page.setViewportSize(PHONE);
      const before = session.demo.state.orders.list().length;
      const reference = await openCheckout(page);
      await page.locator('#start-checkout').click();
      assert.equal(await page.locator('#order-ref').textContent(), reference, 'the open order is shown again');
      assert.equal(session.demo.state.orders.list().length, before + 1, 'one order for two clicks');

      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'merchant-page');
      await fillMerchantPageCard(page, { number: testCard('success').number });
      await page.locator('pg-checkout button.Pay').click();
      await page.locator('pg-checkout .outcome.success').waitFor({ timeout: 20_000 });

      await page.locator('#new-order').waitFor();
      assert.equal(await page.locator('#start-checkout').isVisible(), false, 'no "Go to checkout" for a paid order');
      assert.equal(await page.locator('#cart-lines input').first().isDisabled(), true, 'the paid cart cannot be changed');
      assert.equal(await page.locator('#checkout-host fieldset[data-group="card-mode"] input').first().isDisabled(), true, 'nor the way it was paid');
      await assertAccessible(page, `demo-paid-${language}`);
      assert.equal(session.demo.state.orders.list().length, before + 1, 'nothing more was created');

      await page.locator('#new-order').click();
      assert.equal(await page.locator('#checkout-section').isVisible(), false);
      assert.equal(await page.locator('#cart-lines input').first().isDisabled(), false);
      assert.equal(session.demo.state.orders.list().length, before + 1, 'a new order is made at checkout, not before');
      const next = await openCheckout(page);
      assert.notEqual(next, reference);
      assert.equal(session.demo.state.orders.list().length, before + 2);
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}
