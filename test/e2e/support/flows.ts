/** Steps a customer takes in the demo, written once for every end-to-end flow. */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeViolations, saveScreenshot, type ObservedPage } from './demo.ts';

/** axe-core finds nothing on the screen as it is, and a screenshot of it is kept. */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  await saveScreenshot(page, screen);
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `axe violations on ${screen}: ${JSON.stringify(violations, null, 2)}`);
}

export async function assertNoCspViolation(observed: ObservedPage): Promise<void> {
  assert.deepEqual(await observed.cspViolations(), [], 'Content-Security-Policy violations');
  assert.deepEqual(observed.errors, [], 'uncaught errors or console errors');
}

/** From the storefront: create the order and wait for the drop-in. */
export async function openCheckout(page: Page): Promise<string> {
  await page.locator('#start-checkout').click();
  await page.locator('pg-checkout').waitFor();
  await page.locator('pg-checkout input[name="method"]').first().waitFor();
  return (await page.locator('#order-ref').textContent()) ?? '';
}

export async function chooseMethod(page: Page, method: 'card' | 'installments' | 'voucher' | 'financing'): Promise<void> {
  await page.locator(`pg-checkout input[name="method"][value="${method}"]`).check();
}

export async function chooseCardMode(page: Page, mode: 'redirect' | 'merchant-page' | 'embedded'): Promise<void> {
  await page.locator(`input[name="card-mode"][value="${mode}"]`).check();
  await page.locator(`pg-checkout[card-mode="${mode}"]`).waitFor();
}

export interface CardEntry {
  readonly number: string;
  readonly expiry?: string;
  readonly cvv?: string;
  readonly holder?: string;
}

/** On the sandbox's hosted page: type the card and pay. */
export async function payOnHostedPage(
  page: Page,
  card: CardEntry & { readonly language: 'en' | 'ar'; readonly plan?: boolean },
): Promise<void> {
  await page.waitForURL(/\/FortAPI\/paymentPage/);
  assert.equal(await page.locator('html').getAttribute('lang'), card.language);
  await page.locator('#card_number').fill(card.number);
  await page.locator('#expiry_date').fill(card.expiry ?? '12/30');
  await page.locator('#card_security_code').fill(card.cvv ?? '123');
  await page.locator('#card_holder_name').fill(card.holder ?? 'Test Customer');
  if (card.plan) {
    const select = page.locator('#installment_plan');
    const values = await select.locator('option').evaluateAll((options) =>
      options.map((option) => (option as HTMLOptionElement).value).filter(Boolean),
    );
    assert.ok(values.length > 0, 'the hosted page offers installment plans');
    await select.selectOption(values[0] ?? '');
  }
  await page.locator('#pay').click();
}

/**
 * The embedded page took the card (its own button only does that): nothing is charged until the
 * customer presses the element's own Pay button, which names the order's amount. Presses it.
 */
export async function payInElement(page: Page, language: 'en' | 'ar'): Promise<void> {
  const pay = page.locator('pg-checkout button.Pay');
  await pay.waitFor({ timeout: 20_000 });
  assert.match((await pay.textContent())?.trim() ?? '', language === 'en' ? /^Pay [A-Z]{3}\s[\d,]+\.\d{2}$/ : /^ادفع \S/);
  await pay.click();
}

/** In pg-checkout's own card form (merchant page 2.0). */
export async function fillMerchantPageCard(page: Page, card: CardEntry): Promise<void> {
  const form = page.locator('pg-checkout');
  await form.locator('input[autocomplete="cc-number"]').fill(card.number);
  await form.locator('input[autocomplete="cc-exp"]').fill(card.expiry ?? '12/30');
  await form.locator('input[autocomplete="cc-csc"]').fill(card.cvv ?? '123');
  await form.locator('input[autocomplete="cc-name"]').fill(card.holder ?? 'Test Customer');
}

export interface ResultPage {
  readonly outcome: string;
  readonly fields: Record<string, string>;
  readonly status: Record<string, string>;
}

async function readFields(page: Page, container: string): Promise<Record<string, string>> {
  return page.locator(`${container} [data-field]`).evaluateAll((nodes) =>
    Object.fromEntries(nodes.map((node) => [(node as HTMLElement).dataset.field ?? '', node.textContent ?? ''])),
  );
}

/** The result page: the outcome shown, the verified gateway fields and the CHECK_STATUS fields (in its disclosure for developers). */
export async function expectResult(page: Page, outcome: 'success' | 'pending' | 'failure'): Promise<ResultPage> {
  await page.waitForURL(/\/result\.html/, { timeout: 20_000 });
  await page.locator(`#outcome[data-outcome="${outcome}"]`).waitFor({ timeout: 10_000 });
  // The fields are in the developers' disclosure, closed: there, not visible.
  await page.locator('#status [data-field]').first().waitFor({ state: 'attached' });
  return {
    outcome,
    fields: await readFields(page, '#verified'),
    status: await readFields(page, '#status'),
  };
}

/**
 * A payment on the shop's page (merchant page, embedded page) ends in place: the element shows the
 * outcome, without the page navigating. Then the customer follows its link to the order's result
 * page, which shows the verified fields and CHECK_STATUS.
 */
export async function expectResultInPlace(page: Page, outcome: 'success' | 'pending' | 'failure'): Promise<ResultPage> {
  const start = page.url();
  const shown = page.locator(`pg-checkout .outcome.${outcome}`);
  await shown.waitFor({ timeout: 20_000 });
  assert.equal(page.url(), start, 'the payment ended on the shop’s page');
  await page.locator('pg-checkout a.see-order').click();
  return expectResult(page, outcome);
}

/**
 * On the sandbox's hosted page with installments STANDALONE: type the card, choose this plan
 * (`ISSUER:PLAN`, the page's option value, e.g. `EGFIX1:EGX12`) and pay.
 */
export async function payOnHostedPageWithPlan(
  page: Page,
  card: CardEntry & { readonly language: 'en' | 'ar'; readonly plan: string },
): Promise<void> {
  await page.waitForURL(/\/FortAPI\/paymentPage/);
  assert.equal(await page.locator('html').getAttribute('lang'), card.language);
  const select = page.locator('#installment_plan');
  const values = await select.locator('option').evaluateAll((options) =>
    options.map((option) => (option as HTMLOptionElement).value),
  );
  assert.ok(values.includes(card.plan), `the hosted page offers ${card.plan} (it offers ${values.join(', ')})`);
  await page.locator('#card_number').fill(card.number);
  await page.locator('#expiry_date').fill(card.expiry ?? '12/30');
  await page.locator('#card_security_code').fill(card.cvv ?? '123');
  await page.locator('#card_holder_name').fill(card.holder ?? 'Test Customer');
  await select.selectOption(card.plan);
  await page.locator('#pay').click();
}

/** From the storefront: a card payment on the hosted page with the amount held (AUTHORIZATION); the order's reference. */
export async function authorizeOnHostedPage(page: Page, card: CardEntry & { readonly language: 'en' | 'ar' }): Promise<string> {
  const reference = await openCheckout(page);
  await chooseMethod(page, 'card');
  await chooseCardMode(page, 'redirect');
  await page.locator('input[name="charge-mode"][value="AUTHORIZATION"]').check();
  await page.locator('pg-checkout[command="AUTHORIZATION"]').waitFor();
  await page.locator('pg-checkout button.Pay').click();
  await payOnHostedPage(page, card);
  const result = await expectResult(page, 'success');
  assert.equal(result.fields.response_code, '02000');
  return reference;
}
