/**
 * Installments end to end, as a customer of the demo shop goes through them: storefront →
 * pg-checkout's "installments" method → <pg-installments> loads the order's plans through the
 * merchant endpoint, picks the issuer from the card's first digits, the customer chooses a plan
 * and agrees to the bank's terms → the sandbox's hosted page with installments STANDALONE (the
 * drop-in's default, `card-mode="redirect"`) → the merchant endpoint's verified return → the
 * result page with the installment fields and CHECK_STATUS. Also the drop-in's other completion:
 * the card form on the shop's page with the plan sent to the endpoint (installments YES).
 * In English and in Arabic, with axe on every screen and no CSP violation.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { INSTALLMENT_ISSUERS } from '../../src/sandbox/installment-issuers.ts';
import { startDemoSession, type DemoSession } from './support/demo.ts';
import {
  assertAccessible,
  assertNoCspViolation,
  chooseCardMode,
  chooseMethod,
  expectResult,
  expectResultInPlace,
  fillMerchantPageCard,
  openCheckout,
  payOnHostedPageWithPlan,
} from './support/flows.ts';

type Language = 'en' | 'ar';

/** Each language pays with another brand, so both EGP issuers (and their plan kinds) are covered. */
const CASES = {
  // Visa → Sandbox Nile Bank (fixed fees); the BIN typed with Latin digits.
  en: { card: testCard('success', 'VISA').number, typedBin: '411111', issuer: 'EGFIX1', plan: 'EGX12', months: 12 },
  // MasterCard → Sandbox Delta Bank (percentage, flat); the BIN typed with Arabic-Indic digits.
  ar: { card: testCard('success', 'MASTERCARD').number, typedBin: '٥١٢٣٤٥', issuer: 'EGMIX1', plan: 'EGF06', months: 6 },
} as const;

function issuerName(code: string, language: Language): string {
  const issuer = INSTALLMENT_ISSUERS.find((candidate) => candidate.issuer_code === code);
  if (!issuer) throw new Error(`no issuer ${code}`);
  return language === 'ar' ? issuer.issuer_name_ar : issuer.issuer_name_en;
}

/** In <pg-installments>: the issuer the card's digits chose, the plan, the terms accepted. */
async function choosePlan(page: Page, language: Language, expected: { issuer: string; plan: string }): Promise<void> {
  const element = page.locator('pg-checkout pg-installments');
  await element.locator(`input[name="issuer"][value="${expected.issuer}"]:checked`).waitFor();
  // The card's issuer is chosen and the other EGP issuer cannot be.
  const others = element.locator(`input[name="issuer"]:not([value="${expected.issuer}"])`);
  assert.ok((await others.count()) > 0, 'the other issuers stay visible');
  for (const other of await others.all()) assert.equal(await other.isDisabled(), true);

  const bank = element.locator('section.bank');
  await bank.waitFor();
  assert.match((await bank.textContent()) ?? '', new RegExp(issuerName(expected.issuer, language)));
  const agree = bank.locator('#agree');
  assert.equal(await agree.getAttribute('aria-required'), 'true');

  const select = element.locator('select#plan');
  await select.selectOption(expected.plan);
  await element.locator('.receipt-container').waitFor();

  // Paying without the agreement is refused on the element, with the error on the checkbox.
  assert.equal(await element.evaluate((node) => (node as HTMLElement & { checkValidity(): boolean }).checkValidity()), false);
  await agree.check();
  assert.equal(await element.evaluate((node) => (node as HTMLElement & { checkValidity(): boolean }).checkValidity()), true);
}

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

for (const language of ['en', 'ar'] as const) {
  const chosen = CASES[language];

  describe(`installments in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('chooses a plan in the drop-in and pays it on the hosted page (installments STANDALONE)', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      const reference = await openCheckout(page);
      await chooseMethod(page, 'installments');
      const element = page.locator('pg-checkout pg-installments');
      assert.equal(await element.getAttribute('completion'), 'hosted-page');
      // The plans load; nothing is chosen before the card's digits are typed.
      await element.locator('input[name="issuer"]').first().waitFor();
      await assertAccessible(page, `installments-plans-${language}`);

      await element.locator('#card-prefix').fill(chosen.typedBin);
      await choosePlan(page, language, chosen);
      await assertAccessible(page, `installments-plan-chosen-${language}`);

      await element.locator('button.Pay').click();
      await payOnHostedPageWithPlan(page, { number: chosen.card, language, plan: `${chosen.issuer}:${chosen.plan}` });
      const result = await expectResult(page, 'success');
      assert.equal(result.fields.merchant_reference, reference);
      assert.equal(result.fields.response_code, '14000');
      assert.equal(result.fields.command, 'PURCHASE');
      assert.equal(result.fields.installments, 'STANDALONE');
      assert.equal(result.fields.number_of_installments, String(chosen.months));
      // A redirection's answer names the months, not the plan's or the issuer's code (as the specification lists it).
      assert.equal(result.fields.plan_code, undefined);
      assert.equal(result.status.merchant_reference, reference);
      assert.equal(result.status.transaction_status, '14');
      assert.equal(result.status.transaction_code, '14000');
      await assertAccessible(page, `result-installments-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('sends the chosen plan with the card form on the shop page (hosted checkout, installments HOSTED)', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      const reference = await openCheckout(page);
      await chooseMethod(page, 'installments');
      await chooseCardMode(page, 'merchant-page');
      const element = page.locator('pg-checkout pg-installments');
      await element.locator('input[name="issuer"]').first().waitFor();
      assert.equal(await element.getAttribute('card-source'), 'host');
      await fillMerchantPageCard(page, { number: chosen.card });
      await choosePlan(page, language, chosen);
      await assertAccessible(page, `installments-merchant-page-${language}`);

      await page.locator('pg-checkout button.Pay').last().click();
      const result = await expectResultInPlace(page, 'success');
      assert.equal(result.fields.merchant_reference, reference);
      assert.equal(result.fields.response_code, '14000');
      assert.equal(result.fields.installments, 'HOSTED');
      assert.equal(result.fields.plan_code, chosen.plan);
      assert.equal(result.fields.issuer_code, chosen.issuer);
      assert.equal(result.status.transaction_code, '14000');
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}
