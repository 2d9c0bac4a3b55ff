/**
 * The merchant panel's words for an order (issue 24), in English and Arabic: an order captured in
 * part reads partly captured, with what is left to capture; once part of it is refunded, the panel
 * says why the rest of the authorization can no longer be captured or voided. The amount field's
 * hint and the references fit at 1280 px, the amount label is in one script, and the panel is
 * shot at 375 px.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { startDemoSession, type DemoSession } from './support/demo.ts';
import { assertAccessible, assertNoCspViolation, authorizeOnHostedPage } from './support/flows.ts';

const PHONE = { width: 375, height: 812 };

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

async function act(page: Page, reference: string, button: string, amount: string): Promise<void> {
  const row = page.locator(`#orders tr[data-reference="${reference}"]`);
  await row.locator('input[name="amount"]').fill(amount);
  await row.locator(`button[value="${button}"]`).click();
  await page.locator(`#orders tr[data-reference="${reference}"][data-outcome="success"]`).waitFor();
}

/** The room the amount field gives its hint, the width the hint needs, and the lines its reference takes. */
async function fitOf(page: Page, reference: string): Promise<{ hint: number; room: number; lines: number }> {
  return page.locator(`#orders tr[data-reference="${reference}"]`).evaluate((tr) => {
    const input = tr.querySelector('input[name="amount"]') as HTMLInputElement;
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const room = input.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
    // Lines, not rects: a reference in a right-to-left page may be several runs on one line.
    const lines = new Set([...tr.querySelector('td a')!.getClientRects()].map((rect) => Math.round(rect.top))).size;
    return { hint: context.measureText(input.placeholder).width, room, lines };
  });
}

const WORDS = {
  en: { partly: 'Partly captured', why: 'A refunded order cannot be captured or voided.' },
  ar: { partly: 'محصل جزئيًا', why: 'لا يمكن تحصيل أو إلغاء طلب تم استرداده.' },
} as const;

for (const language of ['en', 'ar'] as const) {
  describe(`the merchant panel’s order states in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('says partly captured with what is left, then why a refunded order’s rest cannot move', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      const reference = await authorizeOnHostedPage(page, { number: testCard('success').number, language });
      await page.goto(`${session.demo.url}merchant.html`);
      const row = page.locator(`#orders tr[data-reference="${reference}"]`);
      await row.locator('.state[data-state="authorized"]').waitFor();

      // At 1280 px: the whole hint shows in the amount field, and a reference is one line.
      const fit = await fitOf(page, reference);
      assert.ok(fit.hint <= fit.room, `the hint needs ${fit.hint} px and has ${fit.room} px`);
      assert.equal(fit.lines, 1, 'the reference wraps');
      const label = (await row.locator('.amount-field span').textContent()) ?? '';
      if (language === 'ar') assert.doesNotMatch(label, /[A-Za-z]/, `the Arabic label mixes scripts: ${label}`);
      else assert.match(label, /Amount \(EGP\)/);

      await act(page, reference, 'capture', '5000.00');
      await row.locator('.state[data-standing="partially_captured"]').waitFor();
      assert.equal(await row.locator('.state').textContent(), WORDS[language].partly);
      assert.match((await row.locator('dd[data-amount="left-to-capture"]').textContent()) ?? '', /7[,٬]?848[.٫]50|٧٬٨٤٨٫٥٠/);
      assert.equal(await row.locator('button[value="capture"]').count(), 1, 'the rest may still be captured');
      await assertAccessible(page, `merchant-partly-captured-${language}`);

      await act(page, reference, 'refund', '1000.50');
      await row.locator('.state[data-state="partially_refunded"]').waitFor();
      assert.equal(await row.locator('.uncapturable').textContent(), WORDS[language].why);
      assert.match((await row.locator('dd[data-amount="not-capturable"]').textContent()) ?? '', /7[,٬]?848[.٫]50|٧٬٨٤٨٫٥٠/);
      assert.equal(await row.locator('button[value="capture"], button[value="void"]').count(), 0);
      const squeezed = await fitOf(page, reference);
      assert.ok(squeezed.hint <= squeezed.room, `beside the operations the hint needs ${squeezed.hint} px and has ${squeezed.room} px`);
      assert.equal(squeezed.lines, 1, 'the reference wraps beside the operations');
      await assertAccessible(page, `merchant-refund-closes-capture-${language}`);

      await page.setViewportSize(PHONE);
      await page.reload();
      await row.locator('.uncapturable').waitFor();
      const narrow = await fitOf(page, reference);
      assert.ok(narrow.hint <= narrow.room, `at ${PHONE.width} px the hint needs ${narrow.hint} px and has ${narrow.room} px`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= PHONE.width, `the panel is ${width} px wide at ${PHONE.width} px`);
      // Lines, not rects: a right-to-left amount is several runs on one line.
      const amountLines = await row
        .locator('dd[data-amount] bdi')
        .evaluateAll((nodes) => nodes.map((node) => new Set([...node.getClientRects()].map((rect) => Math.round(rect.top))).size));
      assert.deepEqual(amountLines, amountLines.map(() => 1), 'each amount reads on one line');
      await assertAccessible(page, `merchant-refund-closes-capture-narrow-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}
