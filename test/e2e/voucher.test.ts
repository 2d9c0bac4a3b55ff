/**
 * The cash bill end to end: storefront → pg-checkout's "voucher" method → <pg-bill-voucher> asks
 * the merchant endpoint for a bill (BILL_PRESENTMENT on the sandbox) and shows it: the 14-digit
 * bill number grouped for reading, the amount in EGP, the expiry and a live countdown, the copy
 * button. Then, as the shop sees it: the merchant panel lists the order with its bill awaiting
 * payment, the result page says so (CHECK_STATUS 30000), "Customer pays the bill" pays it through
 * the sandbox, and the panel and the result page then show it paid (CHECK_STATUS 14000, the
 * amount captured). In English and in Arabic, with axe on every screen and no CSP violation.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { formatMoney } from '../../src/core/amounts.ts';
import { billVoucherMessages } from '../../src/components/pg-bill-voucher/messages.ts';
import { MESSAGES } from '../../demo/i18n.ts';
import { startDemoSession, type DemoSession } from './support/demo.ts';
import { assertAccessible, assertNoCspViolation, chooseMethod, expectResult, openCheckout } from './support/flows.ts';

/** The element's text in each language (Arabic is a module loaded on demand). */
const catalogs = { en: billVoucherMessages.en, ar: await billVoucherMessages.ar() };

/** The demo cart's total (one Nile X phone and one leather case), in piastres. */
const ORDER_AMOUNT = 1_284_850;

const ARABIC_INDIC = /[٠-٩]/;

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
  // So that the copy button can use the Clipboard API and the test can read what it copied.
  await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(session.demo.url).origin,
  });
});
after(async () => {
  await session?.close();
});

/** The merchant panel's row of this order, once the panel has loaded. */
async function merchantRow(page: Page, reference: string) {
  await page.waitForURL(/\/merchant\.html/);
  const row = page.locator(`#orders tr[data-reference="${reference}"]`);
  await row.waitFor();
  return row;
}

for (const language of ['en', 'ar'] as const) {
  const m = catalogs[language];
  const words = MESSAGES[language];

  describe(`cash bill in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('issues a bill, shows it, and shows it paid once the customer pays it at the partner', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      const reference = await openCheckout(page);
      await chooseMethod(page, 'voucher');
      const voucher = page.locator('pg-checkout pg-bill-voucher');
      const issue = voucher.locator('button.issue');
      await issue.waitFor();
      // The order's amount is shown before the bill is asked for.
      await voucher.locator('[part="amount"]').waitFor();
      await assertAccessible(page, `voucher-offer-${language}`);

      await issue.click();
      const bill = voucher.locator('section.bill');
      await bill.waitFor();

      // The bill number: 14 digits, shown in groups of four, a left-to-right island.
      const number = bill.locator('.bill-number');
      assert.equal(await number.getAttribute('dir'), 'ltr');
      const groups = await number.locator('.group').allTextContents();
      assert.deepEqual(
        groups.map((group) => group.length),
        [4, 4, 4, 2],
        `grouped for reading: ${groups.join(' ')}`,
      );
      const billNumber = groups.join('');
      assert.match(billNumber, /^\d{14}$/);
      assert.equal((await number.locator('.spoken').textContent())?.trim(), groups.join(' '));

      // The amount in EGP, in the page's numerals.
      assert.equal(
        (await bill.locator('[part="amount"]').textContent())?.trim(),
        formatMoney(ORDER_AMOUNT, 'EGP', language),
      );

      // The expiry: a date in the future, in the page language.
      const expiry = bill.locator('time[part="expiry"]');
      const expiresAt = Date.parse((await expiry.getAttribute('datetime')) ?? '');
      assert.ok(expiresAt > Date.now(), 'the bill expires in the future');
      assert.ok(((await expiry.textContent()) ?? '').trim().length > 0);
      if (language === 'ar') assert.match((await expiry.textContent()) ?? '', ARABIC_INDIC);

      // The countdown is a live timer: it changes as time passes (one wake-up a second).
      const countdown = bill.locator('[part="countdown"][role="timer"]');
      const before = ((await countdown.textContent()) ?? '').trim();
      assert.ok(before.length > 0);
      if (language === 'ar') assert.match(before, ARABIC_INDIC);
      await page.waitForFunction(
        ([text]) =>
          document
            .querySelector('pg-checkout')
            ?.shadowRoot?.querySelector('pg-bill-voucher')
            ?.shadowRoot?.querySelector('[part="countdown"]')
            ?.textContent?.trim() !== text,
        [before],
        { timeout: 5_000 },
      );

      await assertAccessible(page, `voucher-bill-${language}`);

      // Copy: the number exactly as issued, with no group spacing.
      const copy = bill.locator('button.copy');
      assert.equal((await copy.textContent())?.trim(), m.copy);
      await copy.click();
      await bill.locator('button.copy', { hasText: m.copied }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), billNumber);

      // Another tab of the same order keeps no bill of its own (the element's memory is per tab): asked
      // again, the endpoint shows the bill it issued, not a refusal, and issues no second one.
      // (The page is loaded again without the bill's memory: while the bill waits, the drop-in offers no other method to switch to.)
      await page.evaluate((key) => sessionStorage.removeItem(key), `pg-bill-voucher:${reference}`);
      await page.reload();
      await chooseMethod(page, 'voucher');
      const again = page.locator('pg-checkout pg-bill-voucher');
      await again.locator('button.issue').click();
      const shownAgain = again.locator('section.bill .bill-number .group');
      await shownAgain.first().waitFor();
      assert.equal((await shownAgain.allTextContents()).join(''), billNumber, 'the same bill, shown again');

      // The shop's side: the merchant panel lists the order, its bill not paid yet.
      await page.locator('a[href="/merchant.html"]').click();
      let row = await merchantRow(page, reference);
      assert.equal((await row.locator('td').nth(2).textContent())?.trim(), words.bill_awaiting);
      await assertAccessible(page, `merchant-bill-awaiting-${language}`);

      // The result page: the signed bill answer and CHECK_STATUS, still waiting for the payment.
      await row.locator('a').click();
      const waiting = await expectResult(page, 'pending');
      assert.equal(waiting.fields.bill_number, billNumber);
      assert.equal(waiting.fields.response_code, '30000');
      assert.equal(waiting.fields.service_command, 'BILL_PRESENTMENT');
      assert.equal(waiting.fields.amount, String(ORDER_AMOUNT));
      assert.equal(waiting.fields.currency, 'EGP');
      assert.equal(waiting.status.transaction_code, '30000');
      assert.equal(waiting.status.captured_amount, '0');
      assert.equal((await page.locator('#outcome').textContent())?.trim(), words.bill_awaiting);

      // The customer pays the bill at an outlet (the sandbox's pay-bill tool).
      await page.locator('a[href="/merchant.html"]').click();
      row = await merchantRow(page, reference);
      await row.locator('button', { hasText: words.payBill }).click();
      await row.locator('td', { hasText: words.bill_paid }).waitFor();
      assert.equal(await row.locator('button', { hasText: words.payBill }).count(), 0, 'a paid bill cannot be paid again');
      await assertAccessible(page, `merchant-bill-paid-${language}`);

      await row.locator('a').click();
      const paid = await expectResult(page, 'success');
      assert.equal(paid.fields.bill_number, billNumber);
      assert.equal(paid.status.merchant_reference, reference);
      assert.equal(paid.status.transaction_status, '14');
      assert.equal(paid.status.transaction_code, '14000');
      assert.equal(paid.status.captured_amount, String(ORDER_AMOUNT));
      assert.equal((await page.locator('#outcome').textContent())?.trim(), words.bill_paid);
      await assertAccessible(page, `result-bill-paid-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}

describe('a cash bill paid at the counter while the checkout tab waits', () => {
  it('reads paid when the customer comes back to the tab, the other methods still away', async () => {
    const m = catalogs.en;
    const observed = await session.newPage('en');
    const { page } = observed;
    const reference = await openCheckout(page);
    await chooseMethod(page, 'voucher');
    const voucher = page.locator('pg-checkout pg-bill-voucher');
    await voucher.locator('button.issue').click();
    await voucher.locator('section.bill [part="countdown"]').waitFor();

    // The customer pays at an outlet (the sandbox, as the merchant panel's "Customer pays the bill"
    // does), then comes back to the checkout's tab.
    const paid = await page.evaluate(
      async (order) => (await fetch(`/demo-api/orders/${encodeURIComponent(order)}/pay-bill`, { method: 'POST' })).json(),
      reference,
    );
    assert.deepEqual(paid, { ok: true, code: '14000' });
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));

    const notice = voucher.locator('section[part~="paid"]');
    await notice.waitFor();
    assert.equal((await notice.locator('.title').textContent())?.trim(), m.paidTitle);
    assert.equal(await voucher.evaluate((element) => element.matches(':state(paid)')), true);
    const enabled = await page
      .locator('pg-checkout input[name="method"]')
      .evaluateAll((inputs) => inputs.filter((input) => !(input as HTMLInputElement).disabled).map((input) => (input as HTMLInputElement).value));
    assert.deepEqual(enabled, ['voucher'], 'a paid order offers no other method');
    await assertAccessible(page, 'voucher-bill-paid-en');
    await assertNoCspViolation(observed);
    await page.close();
  });
});
