/**
 * The first screen the shop's server writes (the demo's `/quick-checkout`): a card form in
 * `<pg-checkout>`'s declarative shadow root, usable before the element's script arrives and
 * payable with no script at all; then, with the script, taken over by the element with what the
 * customer typed kept. At phone width, in English and Arabic, with axe and no CSP violation.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startDemo, type RunningDemo } from '../../demo/server.ts';
import { TEST_CARDS } from '../../src/sandbox/test-cards.ts';
import { launchBrowser, type LaunchedBrowser } from './support/browser.ts';
import { freePort, startDemoSession, type DemoSession } from './support/demo.ts';
import { assertAccessible, assertNoCspViolation, expectResultInPlace } from './support/flows.ts';

const SUCCESS_CARD = TEST_CARDS.find((card) => card.outcome === 'success' && card.brand === 'VISA')?.number ?? '';

async function noHorizontalScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `no sideways scroll at 375 px (scrollWidth ${width})`);
}

describe('the first screen with no script', () => {
  let demo: RunningDemo;
  let browser: LaunchedBrowser;
  before(async () => {
    demo = await startDemo({ port: await freePort() });
    browser = await launchBrowser({ javaScript: false, width: 375 });
  });
  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  for (const language of ['en', 'ar'] as const) {
    it(`pays in ${language === 'en' ? 'English' : 'Arabic'}: the card goes to the gateway, the return completes the payment`, async () => {
      const page = await browser.context.newPage();
      await page.goto(`${demo.url}quick-checkout?lang=${language}`);
      const checkout = page.locator('pg-checkout');
      assert.equal(await checkout.getAttribute('language'), language);
      assert.equal(await page.locator('pg-checkout .frame').getAttribute('dir'), language === 'ar' ? 'rtl' : 'ltr');
      assert.match((await page.locator('pg-checkout button.Pay').textContent()) ?? '', language === 'en' ? /^Pay EGP\s1,899\.00$/ : /^ادفع /);
      await noHorizontalScroll(page);

      // Without a script the browser's own checks hold a wrong entry back: nothing is posted.
      await page.locator('pg-checkout #card-number').fill('4111 1111');
      await page.locator('pg-checkout button.Pay').click();
      assert.match(page.url(), /quick-checkout/, 'an invalid card number is not posted');

      await page.locator('pg-checkout #card-number').fill(SUCCESS_CARD);
      await page.locator('pg-checkout #card-expiry').fill('3012');
      await page.locator('pg-checkout #card-cvv').fill('123');
      await page.locator('pg-checkout #card-holder').fill('Mona Hassan');
      await Promise.all([page.waitForURL(/\/FortAPI\/paymentPage/), page.locator('pg-checkout button.Pay').click()]);
      // The sandbox's return page posts itself with a script; without one the customer presses its button.
      await Promise.all([page.waitForURL(/\/result\.html/), page.locator('#return-form [type="submit"]').click()]);
      const landed = new URL(page.url());
      assert.equal(landed.searchParams.get('outcome'), 'success');
      const reference = landed.searchParams.get('merchant_reference') ?? '';
      assert.equal(demo.gateway.order({ merchantReference: reference })?.capturedAmount, 189_900, 'the order\'s amount, charged once');
      // The result page, still without a script: the outcome, the amount and the order, in the payment's language.
      assert.equal(await page.locator('html').getAttribute('lang'), language);
      assert.equal(await page.locator('html').getAttribute('dir'), language === 'ar' ? 'rtl' : 'ltr');
      assert.equal(await page.locator('#outcome').textContent(), language === 'en' ? 'Payment successful' : 'تم الدفع بنجاح');
      assert.equal(await page.locator('[data-summary="order"]').textContent(), reference);
      assert.match((await page.locator('[data-summary="amount"]').textContent()) ?? '', language === 'en' ? /^EGP\s1,899\.00$/ : /ج\.م/);
      assert.equal(await page.locator('.brand').first().textContent(), language === 'en' ? 'Nile Gadgets' : 'نايل جادجتس');
      await noHorizontalScroll(page);
      await page.close();
    });
  }
});

describe('the first screen taken over by the element', () => {
  let session: DemoSession;
  before(async () => {
    session = await startDemoSession();
  });
  after(async () => {
    await session?.close();
  });

  for (const language of ['en', 'ar'] as const) {
    it(`keeps what was typed before the script arrived, then pays in place (${language})`, async () => {
      // The storefront last seen in English: the quick checkout's language is the page's own.
      const observed = await session.newPage('en');
      const { page } = observed;
      await page.setViewportSize({ width: 375, height: 800 });
      // The element's script is held back, as on a slow network, until the customer has typed.
      let release = (): void => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/quick-checkout.ts', async (route) => {
        await held;
        await route.continue();
      });
      // Not until DOMContentLoaded: a module script, held here, delays it.
      await page.goto(`${session.demo.url}quick-checkout?lang=${language}`, { waitUntil: 'commit' });
      const number = page.locator('pg-checkout #card-number');
      await number.waitFor();
      await number.fill(SUCCESS_CARD);
      await page.locator('pg-checkout #card-expiry').fill('3012');
      await page.locator('pg-checkout #card-cvv').fill('123');
      await page.locator('pg-checkout #card-holder').fill('Mona Hassan');
      await number.focus();
      assert.equal(await page.locator('pg-checkout [data-pg-first-screen]').count(), 1, 'the server\'s form, before any script');

      release();
      await page.locator('pg-checkout [data-pg-first-screen]').waitFor({ state: 'detached', timeout: 20_000 });
      assert.equal(await page.locator('pg-checkout #card-number').count(), 1, 'one card form, the element\'s');
      assert.equal(await number.inputValue(), SUCCESS_CARD.replace(/(\d{4})(?=\d)/g, '$1 '), 'the number, grouped as the element shows it');
      assert.equal(await page.locator('pg-checkout #card-expiry').inputValue(), '12/30', 'the gateway\'s YYMM shown as MM/YY');
      assert.equal(await page.locator('pg-checkout #card-cvv').inputValue(), '123');
      assert.equal(await page.locator('pg-checkout #card-holder').inputValue(), 'Mona Hassan');
      assert.equal(await page.evaluate(() => document.querySelector('pg-checkout')?.shadowRoot?.activeElement?.id), 'card-number', 'focus stays in the card number');
      await noHorizontalScroll(page);
      await assertAccessible(page, `first-screen-taken-over-${language}`);

      await page.locator('pg-checkout button.Pay').click();
      const result = await expectResultInPlace(page, 'success');
      assert.equal(result.fields.response_code, '14000');
      assert.equal(await page.locator('html').getAttribute('lang'), language, 'the result page in the payment\'s language');
      await assertNoCspViolation(observed);
      await page.close();
    });
  }
});
