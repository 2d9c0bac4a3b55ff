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
import { TEST_CARDS, testCard } from '../../src/sandbox/test-cards.ts';
import { saveScreenshot, startDemoSession, type DemoSession } from './support/demo.ts';
import {
  assertAccessible,
  assertNoCspViolation,
  chooseCardMode,
  chooseMethod,
  expectResult,
  openCheckout,
  payInElement,
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

/** Where the first and last characters of each element's text sit on screen (its box may be wider than its words). */
async function textEdges(page: Page, selector: string): Promise<{ left: number; right: number }[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const { left, right } = range.getBoundingClientRect();
      return { left: Math.round(left), right: Math.round(right) };
    }),
  );
}

const ISSUE_24 = {
  en: { reason: 'Not your card’s bank', hint: 'Try another card, or call your bank.', partner: 'Sandbox Cash Outlets' },
  ar: { reason: 'ليس البنك الذي أصدر بطاقتك', hint: 'جرّب بطاقة أخرى، أو اتصل بالبنك.', partner: 'منافذ الدفع التجريبية' },
} as const;

for (const language of ['en', 'ar'] as const) {
  describe(`the elements' rough edges at ${PHONE.width} px in ${language === 'en' ? 'English' : 'Arabic'} (issue 24)`, () => {
    it('shows a plan whole, a bank that cannot be chosen with its reason, a decline that says what to do, and a bill by names', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await page.setViewportSize(PHONE);
      await page.reload();
      await openCheckout(page);

      // Installments: the card's digits pick Sandbox Nile Bank; the other bank says why it cannot be chosen.
      await chooseCardMode(page, 'redirect');
      await chooseMethod(page, 'installments');
      const installments = page.locator('pg-checkout pg-installments');
      await installments.locator('#card-prefix').fill('411111');
      const select = installments.locator('select#plan');
      await select.waitFor();
      const plans = await select.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value).filter(Boolean));
      await select.selectOption(plans[plans.length - 1]!);
      await installments.locator('.receipt-container').waitFor();
      // The select is tall enough for its text at its width: the plan wraps instead of being cut off.
      const fit = await select.evaluate((element) => {
        const chosen = (element as HTMLSelectElement).selectedOptions[0]!.text;
        const style = getComputedStyle(element);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = style.font;
        const room = element.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd) - 24;
        const lines = Math.ceil(context.measureText(chosen).width / room);
        return { lines, height: element.clientHeight, lineHeight: parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2 };
      });
      assert.ok(fit.lines > 1, 'the plan is longer than one line at this width (the case the test is about)');
      assert.ok(fit.height >= fit.lines * fit.lineHeight, `the plan's ${fit.lines} lines fit in ${fit.height} px`);
      const locked = installments.locator('input[name="issuer"][value="EGMIX1"]');
      assert.equal(await locked.isDisabled(), true);
      const [radio, name] = await Promise.all([locked.boundingBox(), installments.locator('label.issuer.unavailable > span').first().boundingBox()]);
      assert.ok(radio && name && radio.y < name.y + name.height && radio.y + radio.height > name.y, 'the radio sits on its name’s line');
      const reasonId = ((await locked.getAttribute('aria-describedby')) ?? '').split(' ').find((id) => id.endsWith('-reason'));
      const reason = installments.locator(`#${reasonId}`);
      assert.equal((await reason.textContent())?.trim(), ISSUE_24[language].reason);
      assert.equal(await reason.isVisible(), true);
      await assertFits(page, 'installments with a plan chosen');
      await installments.locator('.issuer-list').scrollIntoViewIfNeeded();
      await saveScreenshot(page, `narrow-installments-${language}`);

      // A bill: the partner by its name, the expiry's time zone named in the page's language.
      await chooseMethod(page, 'voucher');
      const voucher = page.locator('pg-checkout pg-bill-voucher');
      await voucher.locator('button.issue').click();
      await voucher.locator('[part~="bill-number"]').waitFor();
      assert.equal((await voucher.locator('[part~="partner"]').textContent())?.trim(), ISSUE_24[language].partner);
      const expiry = (await voucher.locator('time[part~="expiry"]').textContent()) ?? '';
      assert.doesNotMatch(expiry, /\bUTC\b|\bGMT\b/);
      if (language === 'ar') assert.doesNotMatch(expiry, /[A-Za-z]/);
      await saveScreenshot(page, `narrow-bill-${language}`);

      // A declined card on the gateway's page in the frame: what to do next, aligned to the start like every outcome.
      await page.goto(`${session.demo.url}?lang=${language}`);
      await openCheckout(page);
      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'embedded');
      const frame = page.frameLocator('pg-checkout iframe.payment-frame');
      await frame.locator('#card_number').fill(testCard('decline').number);
      await frame.locator('#expiry_date').fill('12/30');
      await frame.locator('#card_security_code').fill('123');
      await frame.locator('#card_holder_name').fill('Test Customer');
      await frame.locator('#pay').click();
      // The gateway's page took the card; the element's own Pay button names the amount (issue 24, point 2).
      await page.locator('pg-checkout button.Pay').waitFor({ timeout: 20_000 });
      await assertFits(page, 'embedded card ready');
      const frameBox = await page.locator('pg-checkout iframe.payment-frame').boundingBox();
      const payBox = await page.locator('pg-checkout button.Pay').boundingBox();
      assert.ok(frameBox && payBox && payBox.y >= frameBox.y + frameBox.height + 4, 'the Pay button keeps its distance from the frame');
      await assertAccessible(page, `narrow-embedded-ready-${language}`);
      await payInElement(page, language);
      const outcome = page.locator('pg-checkout .outcome');
      await outcome.waitFor({ timeout: 20_000 });
      assert.match((await outcome.textContent()) ?? '', new RegExp(ISSUE_24[language].hint));
      const edges = await textEdges(page, 'pg-checkout .outcome > h3, pg-checkout .outcome > p');
      const side = language === 'en' ? 'left' : 'right';
      assert.deepEqual(edges.map((edge) => edge[side]), edges.map(() => edges[0]![side]), `every line of the outcome starts at the ${side}`);
      await assertFits(page, 'declined outcome');
      await assertAccessible(page, `narrow-declined-${language}`);

      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}
