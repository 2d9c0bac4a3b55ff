/**
 * The result page as a customer of the demo shop reads it on a phone (375 px), in English and
 * Arabic: the outcome in their language with the amount as people write it and what to do next,
 * "Try another card" after a decline (and it works), a saved card that says nothing was charged,
 * and the developer details (gateway fields, CHECK_STATUS) behind a disclosure, where a URL or a
 * masked card number stays one left-to-right piece in Arabic. Also the sandbox's card page: its
 * test-card hint and its way back to the shop, which the shop hears as a cancelled payment.
 * Screenshots of each screen land in test-results/screenshots.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { formatMoney } from '../../src/core/amounts.ts';
import { OUTCOME_TEXT } from '../../src/core/customer-outcome.ts';
import { RESPONSE_CODES } from '../../src/core/response.ts';
import { PAGE_TEXT } from '../../src/sandbox/page-text.ts';
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

async function phonePage(language: 'en' | 'ar') {
  const observed = await session.newPage(language);
  await observed.page.setViewportSize(PHONE);
  return observed;
}

/** From the storefront to the gateway's hosted page, paying by card in redirect mode. */
async function toHostedPage(page: Page, intent: 'pay' | 'save-card' = 'pay'): Promise<string> {
  const reference = await openCheckout(page);
  if (intent === 'save-card') {
    await page.locator('input[name="intent"][value="save-card"]').check();
    await page.locator('pg-checkout[intent="save-card"]').waitFor();
  }
  // Saving a card offers no other method.
  if (intent === 'pay') await chooseMethod(page, 'card');
  await chooseCardMode(page, 'redirect');
  if (intent === 'save-card') await page.locator('pg-checkout #save-consent').check();
  await page.locator('pg-checkout button.Pay').click();
  await page.waitForURL(/\/FortAPI\/paymentPage/);
  return reference;
}

/** The order's amount, from the shop's back end, in minor units. */
function orderAmount(reference: string): { amount: number; currency: string } {
  const order = session.demo.state.orders.get(reference);
  assert.ok(order, `order ${reference}`);
  return { amount: order.amount, currency: order.currency };
}

/** The visible text of the customer's part of the page (the disclosure closed). */
async function customerText(page: Page): Promise<string> {
  return (await page.locator('#result-box').innerText()).replace(/\s+/g, ' ');
}

/** One line box: the value is not broken, and it reads left to right whatever the page's direction. */
async function assertOnePiece(value: Locator, what: string): Promise<void> {
  const layout = await value.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    const style = getComputedStyle(element);
    return { lines: lines.size, direction: style.direction, isolated: style.unicodeBidi, text: element.textContent };
  });
  assert.equal(layout.lines, 1, `${what} (${layout.text}) is on one line`);
  assert.equal(layout.direction, 'ltr', `${what} reads left to right`);
  assert.equal(layout.isolated, 'isolate', `${what} is isolated from the Arabic around it`);
}

/** The outcome box starts where the page's content starts: left in English, right in Arabic. */
async function assertStartAligned(page: Page, language: 'en' | 'ar'): Promise<void> {
  const { textAlign, boxStart, titleStart, mainStart } = await page.evaluate(() => {
    // No inner functions: the test's compiler would wrap them in a helper the page does not have.
    const rtl = getComputedStyle(document.documentElement).direction === 'rtl';
    const side = rtl ? 'right' : 'left';
    const main = document.querySelector('#main')!;
    const padding = parseFloat(getComputedStyle(main)[rtl ? 'paddingRight' : 'paddingLeft']);
    return {
      textAlign: getComputedStyle(document.querySelector('#outcome')!).textAlign,
      boxStart: document.querySelector('#result-box')!.getBoundingClientRect()[side],
      titleStart: document.querySelector('#outcome')!.getBoundingClientRect()[side],
      mainStart: main.getBoundingClientRect()[side] + (rtl ? -padding : padding),
    };
  });
  assert.ok(textAlign === 'start' || textAlign === (language === 'ar' ? 'right' : 'left'), `the title is start-aligned (${textAlign})`);
  assert.ok(Math.abs(boxStart - mainStart) < 1, `the box starts at the content's start (${boxStart} vs ${mainStart})`);
  const titleOffset = language === 'ar' ? boxStart - titleStart : titleStart - boxStart;
  assert.ok(titleOffset < 40, `the title starts at the box's start, not centred (${titleOffset} px in)`);
}

for (const language of ['en', 'ar'] as const) {
  const words = OUTCOME_TEXT[language];
  describe(`the result page at ${PHONE.width} px in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('shows a success with the amount formatted for the customer, and the developer fields tucked away', async () => {
      const observed = await phonePage(language);
      const { page } = observed;
      const reference = await toHostedPage(page);
      await payOnHostedPage(page, { number: testCard('success').number, language });
      const result = await expectResult(page, 'success');
      assert.equal(result.fields.response_code, '14000');
      assert.equal((await page.locator('#outcome').textContent())?.trim(), words.paid.title);
      const { amount, currency } = orderAmount(reference);
      const text = await customerText(page);
      assert.ok(text.includes(formatMoney(amount, currency, language).replace(/\s+/g, ' ')), `the amount in ${language}: ${text}`);
      assert.ok(!text.includes(String(amount)), 'no minor units');
      assert.ok(!/response_code|CHECK_STATUS|[{}]/.test(await page.locator('body').innerText()), 'no field names or JSON in sight');
      assert.equal(await page.locator('#developer-details').getAttribute('open'), null, 'the developer details are closed');
      assert.equal(await page.locator('#try-another-card').isVisible(), false);
      await assertStartAligned(page, language);
      await assertAccessible(page, `result-page-success-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('after a decline says why in the customer’s language, what to do, and lets them try another card', async () => {
      const observed = await phonePage(language);
      const { page } = observed;
      const reference = await toHostedPage(page);
      await payOnHostedPage(page, { number: testCard('decline').number, language });
      const result = await expectResult(page, 'failure');
      assert.equal(result.fields.response_code, '13001');
      assert.equal((await page.locator('#outcome').textContent())?.trim(), words.declined.title);
      assert.equal((await page.locator('#outcome-reason').textContent())?.trim(), RESPONSE_CODES['13001'][language]);
      assert.equal((await page.locator('#outcome-next').textContent())?.trim(), words.declined.next);
      if (language === 'ar') assert.ok(!(await customerText(page)).includes('Transaction declined'), 'the gateway’s English stays in the details');
      const tryAnother = page.locator('#try-another-card');
      const back = page.locator('#back-to-shop');
      assert.equal((await tryAnother.textContent())?.trim(), words.actions.tryAnotherCard);
      assert.equal((await back.textContent())?.trim(), words.actions.backToShop);
      await assertAccessible(page, `result-page-declined-${language}`);
      const [tryBox, backBox] = [await tryAnother.boundingBox(), await back.boundingBox()];
      // Side by side where they fit, one right under the other on a phone: together either way.
      const together =
        tryBox !== null &&
        backBox !== null &&
        (Math.abs(tryBox.y + tryBox.height / 2 - (backBox.y + backBox.height / 2)) < 4 || backBox.y - (tryBox.y + tryBox.height) < 24);
      assert.ok(together, `the two actions together (${JSON.stringify([tryBox, backBox])})`);
      await assertStartAligned(page, language);

      // Another card, for the same order: the gateway's page again, and the payment goes through.
      await tryAnother.click();
      await page.locator('#retry pg-checkout button.Pay').click();
      await payOnHostedPage(page, { number: testCard('success').number, language });
      await expectResult(page, 'success');
      assert.equal(new URL(page.url()).searchParams.get('merchant_reference'), reference);
      assert.equal((await page.locator('#outcome').textContent())?.trim(), words.paid.title);
      assert.equal(session.demo.gateway.order({ merchantReference: reference })?.state, 'captured');
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('says a saved card was saved and nothing was charged, with no raw status', async () => {
      const observed = await phonePage(language);
      const { page } = observed;
      const reference = await toHostedPage(page, 'save-card');
      await payOnHostedPage(page, { number: testCard('success').number, language });
      await expectResult(page, 'success');
      assert.equal((await page.locator('#outcome').textContent())?.trim(), words.card_saved.title);
      const body = await page.locator('body').innerText();
      assert.ok(!/[{}]|gateway_refused|Order not found/.test(body), `no raw JSON or status: ${body}`);
      assert.ok(!(await customerText(page)).includes(formatMoney(orderAmount(reference).amount, 'EGP', language)), 'no amount: nothing was charged');
      assert.equal(session.demo.gateway.order({ merchantReference: reference }), undefined, 'nothing was charged');
      await assertAccessible(page, `result-page-saved-card-${language}`);
      await page.locator('#developer-summary').click();
      assert.ok(!(await page.locator('#developer-details').innerText()).includes('{'), 'no JSON in the details either');
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('keeps the masked card number and URLs in one left-to-right piece in the developer details', async () => {
      const observed = await phonePage(language);
      const { page } = observed;
      await toHostedPage(page);
      await payOnHostedPage(page, { number: testCard('success').number, language });
      await expectResult(page, 'success');
      await assertOnePiece(page.locator('#summary [data-summary="card"]'), 'the card number in the summary');
      await assertOnePiece(page.locator('#summary [data-summary="order"]'), 'the order reference in the summary');
      await page.locator('#developer-summary').click();
      for (const field of ['card_number', 'return_url', 'merchant_reference']) {
        await assertOnePiece(page.locator(`#verified [data-field="${field}"]`), field);
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `the open details fit the phone (${width} px)`);
      await assertAccessible(page, `result-page-details-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('on the sandbox’s card page, hints at the test cards and goes back to the shop as a cancelled payment', async () => {
      const observed = await phonePage(language);
      const { page } = observed;
      const reference = await toHostedPage(page);
      const text = PAGE_TEXT[language];
      await page.locator('#test-cards summary').click();
      const hint = page.locator('#test-cards');
      assert.ok((await hint.innerText()).includes(text.testCardOutcomes.decline));
      await assertOnePiece(hint.locator('.number').first(), 'a test card number');
      assert.equal((await hint.locator('.number').first().textContent())?.trim(), '4111 1111 1111 1111');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `the card page fits the phone (${width} px)`);
      await assertAccessible(page, `sandbox-card-page-${language}`);

      await page.locator('#back-to-shop').click();
      const result = await expectResult(page, 'failure');
      assert.equal(result.fields.response_code, '00072');
      assert.equal(new URL(page.url()).searchParams.get('merchant_reference'), reference);
      assert.equal((await page.locator('#outcome').textContent())?.trim(), words.cancelled.title);
      assert.equal(session.demo.gateway.order({ merchantReference: reference }), undefined, 'nothing was charged');
      await assertAccessible(page, `result-page-cancelled-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}
