/**
 * Consumer financing end to end: storefront → pg-checkout's "financing" method →
 * <pg-financing-otp>: the mobile number (CUSTOMER_VERIFY), the code sent at once (OTP_GENERATE:
 * down payment and tenures offered), the sandbox's OTP typed (OTP_VERIFY: the tenure table), a
 * tenure chosen, PURCHASE → `pg-financing-complete` leaves the shadow roots and the storefront
 * goes to the result page → the verified answer (14000) and CHECK_STATUS. In English and in
 * Arabic (the Arabic customer types Arabic-Indic digits), plus an unregistered number refused
 * with the localized message. Axe on every screen, no CSP violation.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMoney } from '../../src/core/amounts.ts';
import { financingOtpMessages } from '../../src/components/pg-financing-otp/messages.ts';
import {
  FINANCING_DOWN_PAYMENT_PERCENT,
  FINANCING_TENURES,
  REGISTERED_FINANCING_PHONE,
  SANDBOX_OTP,
  UNREGISTERED_FINANCING_PHONE,
} from '../../src/sandbox/test-cards.ts';
import { startDemoSession, type DemoSession } from './support/demo.ts';
import { assertAccessible, assertNoCspViolation, chooseMethod, expectResult, openCheckout } from './support/flows.ts';

/** The element's text in each language (Arabic is a module loaded on demand). */
const catalogs = { en: financingOtpMessages.en, ar: await financingOtpMessages.ar() };

/** The demo cart's total (one Nile X phone and one leather case), in piastres. */
const ORDER_AMOUNT = 1_284_850;
const DOWN_PAYMENT = Math.round((ORDER_AMOUNT * FINANCING_DOWN_PAYMENT_PERCENT) / 100);

/** The monthly instalment the sandbox computes (docs/sandbox.md, "Consumer financing"). */
function emi(months: number, interestRate: string): number {
  return Math.round(((ORDER_AMOUNT - DOWN_PAYMENT) * (100 + Number(interestRate))) / (100 * months));
}

/** What an Arabic-speaking customer may type: the same digits in Arabic-Indic numerals. */
const arabicIndic = (digits: string) => digits.replace(/\d/g, (digit) => String.fromCharCode(0x0660 + Number(digit)));

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

for (const language of ['en', 'ar'] as const) {
  const m = catalogs[language];
  const typed = (digits: string) => (language === 'ar' ? arabicIndic(digits) : digits);

  describe(`consumer financing in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('verifies the customer and the OTP, chooses a tenure and completes the PURCHASE', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      const reference = await openCheckout(page);
      await chooseMethod(page, 'financing');
      const financing = page.locator('pg-checkout pg-financing-otp');
      const phone = financing.locator('input#phone');
      await phone.waitFor();
      assert.equal(await phone.getAttribute('type'), 'tel');
      assert.equal(await phone.getAttribute('dir'), 'ltr');
      await assertAccessible(page, `financing-phone-${language}`);

      // CUSTOMER_VERIFY, then OTP_GENERATE at once.
      await phone.fill(typed(REGISTERED_FINANCING_PHONE));
      await financing.locator('button.Pay').click();
      const otp = financing.locator('input#otp');
      await otp.waitFor();
      assert.equal(await otp.getAttribute('autocomplete'), 'one-time-code');
      assert.equal(await otp.getAttribute('inputmode'), 'numeric');
      const summary = financing.locator('dl.summary');
      const offer = (await summary.textContent()) ?? '';
      assert.ok(offer.includes(m.otp.downPayment), offer);
      assert.ok(offer.includes(formatMoney(DOWN_PAYMENT, 'EGP', language)), `down payment shown: ${offer}`);
      for (const { months } of FINANCING_TENURES) {
        assert.ok(offer.includes(m.months(months)), `tenure of ${months} months offered: ${offer}`);
      }
      // The masked number the code went to, and the resend countdown.
      assert.doesNotMatch((await financing.locator('form.step > p').first().textContent()) ?? '', /12345678/);
      await financing.locator('[part="countdown"][role="timer"]').waitFor();
      await assertAccessible(page, `financing-otp-${language}`);

      // OTP_VERIFY: the tenure table.
      await otp.fill(typed(SANDBOX_OTP));
      assert.equal(await otp.inputValue(), SANDBOX_OTP, 'Arabic-Indic digits become ASCII as typed');
      await financing.locator('button.Pay').click();
      const rows = financing.locator('tr[part="tenure-row"]');
      await rows.first().waitFor();
      assert.equal(await rows.count(), FINANCING_TENURES.length);
      for (const [index, option] of FINANCING_TENURES.entries()) {
        const row = rows.nth(index);
        assert.equal(await row.locator('input[name="tenure"]').getAttribute('value'), String(option.months));
        const text = (await row.textContent()) ?? '';
        assert.ok(text.includes(formatMoney(emi(option.months, option.interestRate), 'EGP', language)), text);
        assert.ok(text.includes(m.tenure.ratePercent(option.interestRate)), text);
      }
      await assertAccessible(page, `financing-tenures-${language}`);

      // PURCHASE with the chosen tenure; pg-financing-complete takes the storefront to the result.
      const chosen = FINANCING_TENURES[1] ?? FINANCING_TENURES[0];
      assert.ok(chosen);
      await financing.locator(`input[name="tenure"][value="${chosen.months}"]`).check();
      await financing.locator('button.Pay').click();
      const result = await expectResult(page, 'success');
      assert.match(page.url(), new RegExp(`merchant_reference=${reference}`));
      assert.equal(result.fields.merchant_reference, reference);
      assert.equal(result.fields.response_code, '14000');
      assert.equal(result.fields.command, 'PURCHASE');
      assert.equal(result.fields.payment_option, 'FINCO');
      assert.equal(result.fields.tenure, String(chosen.months));
      assert.equal(result.fields.amount, String(ORDER_AMOUNT));
      assert.equal(result.fields.currency, 'EGP');
      assert.ok(result.fields.svc_id, 'the gateway reference');
      assert.equal(result.status.merchant_reference, reference);
      assert.equal(result.status.transaction_status, '14');
      assert.equal(result.status.transaction_code, '14000');
      assert.equal(result.status.captured_amount, String(ORDER_AMOUNT));
      await assertAccessible(page, `result-financing-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}

describe('consumer financing refusals', () => {
  it('says in Arabic that an unregistered number is not known to the partner', async () => {
    const language = 'ar';
    const observed = await session.newPage(language);
    const { page } = observed;
    await openCheckout(page);
    await chooseMethod(page, 'financing');
    const financing = page.locator('pg-checkout pg-financing-otp');
    const phone = financing.locator('input#phone');
    await phone.fill(UNREGISTERED_FINANCING_PHONE);
    await financing.locator('button.Pay').click();
    const error = financing.locator('#phone-error');
    await error.waitFor();
    assert.equal((await error.textContent())?.trim(), catalogs.ar.phone.notRegistered);
    // Numbers in Arabic text use the Arabic-Indic digits of the amounts.
    assert.equal((await financing.locator('[part~="progress"]').textContent())?.trim(), 'الخطوة ١ من ٣');
    assert.equal(await phone.getAttribute('aria-invalid'), 'true');
    assert.match((await phone.getAttribute('aria-describedby')) ?? '', /phone-error/);
    // Still on the first step: no code was sent.
    assert.equal(await financing.locator('input#otp').count(), 0);
    assert.equal(await financing.evaluate((node) => (node as HTMLElement & { step: string }).step), 'phone');
    await assertAccessible(page, `financing-not-registered-${language}`);
    // The endpoint's refusal is a 422 answer, which Chromium reports in the console.
    observed.expectConsoleError(/status of 422 .*\/pg\/financing\/verify-customer/);
    await assertNoCspViolation(observed);
    await page.close();
  });
});
