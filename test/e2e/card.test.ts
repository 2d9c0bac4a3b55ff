/**
 * The card flows end to end, as a customer of the demo shop goes through them: storefront →
 * pg-checkout → the sandbox's hosted page (or the card form on the shop's page, which ends in
 * place with a link) → the merchant endpoint's verified return → the result page with the verified
 * response and CHECK_STATUS.
 * In English and in Arabic, with axe on every screen and no CSP violation.
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
  expectResultInPlace,
  fillMerchantPageCard,
  openCheckout,
  payOnHostedPage,
} from './support/flows.ts';

const card = (outcome: string) => {
  const found = TEST_CARDS.find((candidate) => candidate.outcome === outcome && candidate.brand === 'VISA');
  if (!found) throw new Error(`no ${outcome} test card`);
  return found.number;
};

/** From the storefront to the gateway's hosted page: the card method, redirected, Pay pressed. */
async function toHostedPage(page: Page): Promise<void> {
  await openCheckout(page);
  await chooseMethod(page, 'card');
  await chooseCardMode(page, 'redirect');
  await page.locator('pg-checkout button.Pay').click();
}

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

for (const language of ['en', 'ar'] as const) {
  describe(`card payments in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('completes a redirect PURCHASE through the hosted page and shows the verified success', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await assertAccessible(page, `storefront-${language}`);
      await openCheckout(page);
      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'redirect');
      await assertAccessible(page, `checkout-card-redirect-${language}`);
      await page.locator('pg-checkout button.Pay').click();
      await payOnHostedPage(page, { number: card('success'), language });
      const result = await expectResult(page, 'success');
      assert.equal(result.fields.response_code, '14000');
      assert.equal(result.fields.command, 'PURCHASE');
      assert.equal(result.status.transaction_status, '14');
      await assertAccessible(page, `result-success-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('on the hosted page, names a mistyped card number and starts the focus at the list of problems', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await toHostedPage(page);
      await payOnHostedPage(page, { number: '4111111111111112', language });
      await page.locator('.error-summary').waitFor();
      // The page with its problems is answered 422, which the browser logs.
      observed.expectConsoleError(/status of 422 .*\/paymentPage\/submit/);
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'error-summary', 'the focus is on the list of problems');
      assert.equal(await page.locator('#card_number').getAttribute('aria-invalid'), 'true');
      await page.locator('.error-summary a[href="#card_number"]').click();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'card_number', 'its link takes the customer to the field');
      await payOnHostedPage(page, { number: card('success'), language });
      assert.equal((await expectResult(page, 'success')).fields.response_code, '14000');
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('shows a declined card as not paid, with the gateway reason', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await toHostedPage(page);
      await payOnHostedPage(page, { number: card('decline'), language });
      const result = await expectResult(page, 'failure');
      assert.equal(result.fields.response_code, '13001');
      await assertAccessible(page, `result-declined-${language}`);
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('tokenizes on the merchant page and completes the payment server-to-server', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await openCheckout(page);
      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'merchant-page');
      await assertAccessible(page, `checkout-card-merchant-page-${language}`);
      await fillMerchantPageCard(page, { number: card('success') });
      const sentToEndpoint: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/pg/')) sentToEndpoint.push(request.postData() ?? '');
      });
      await page.locator('pg-checkout button.Pay').click();
      const result = await expectResultInPlace(page, 'success');
      assert.equal(result.fields.response_code, '14000');
      assert.match(String(result.fields.card_number), /^411111\*+1111$/);
      assert.ok(
        sentToEndpoint.every((body) => !body.includes(card('success')) && !body.includes('card_security_code')),
        'no card data reached the merchant endpoint',
      );
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}
