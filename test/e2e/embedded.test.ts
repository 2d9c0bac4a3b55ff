/**
 * The card never touches the shop's page, and the customer never leaves it: the demo's third card
 * mode shows the sandbox's own card page in a frame inside pg-checkout, the return lands on the
 * endpoint inside that frame, and a 3-D Secure challenge opens in a dialog. The page's URL never
 * changes and its main frame never navigates. In English and Arabic, with axe and no CSP
 * violation. Also: the merchant page's challenge in the dialog, and a card saved without a charge,
 * charged later by the back office.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { testCard, type CardOutcome } from '../../src/sandbox/test-cards.ts';
import { startDemoSession, type DemoSession } from './support/demo.ts';
import {
  assertAccessible,
  assertNoCspViolation,
  chooseCardMode,
  chooseMethod,
  fillMerchantPageCard,
  openCheckout,
  payInElement,
} from './support/flows.ts';

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

const TEXT = {
  en: { paid: 'Payment successful', notPaid: 'Payment not completed', saved: 'Card saved', dialog: 'Confirm the payment with your bank' },
  ar: { paid: 'تم الدفع بنجاح', notPaid: 'لم يكتمل الدفع', saved: 'تم حفظ البطاقة', dialog: 'أكّد الدفع مع البنك' },
} as const;

/**
 * Records every navigation of the page's main frame from now on: a framed flow must cause none.
 * (The frames inside pg-checkout navigate; the shop's page does not.)
 */
function watchTopLevel(page: Page): { assertStayed(): void } {
  const url = page.url();
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  return {
    assertStayed() {
      assert.deepEqual(navigations, [], 'the main frame never navigated');
      assert.equal(page.url(), url, 'the page URL never changed');
    },
  };
}

/** The sandbox's card page inside pg-checkout's frame, in the page's language. */
async function gatewayFrame(page: Page, language: 'en' | 'ar'): Promise<FrameLocator> {
  const frame = page.frameLocator('pg-checkout iframe.payment-frame');
  await frame.locator('#card_number').waitFor();
  assert.equal(await frame.locator('html').getAttribute('lang'), language);
  assert.equal(await frame.locator('html').getAttribute('dir'), language === 'ar' ? 'rtl' : 'ltr');
  return frame;
}

async function typeCard(frame: FrameLocator, outcome: CardOutcome): Promise<void> {
  await frame.locator('#card_number').fill(testCard(outcome).number);
  await frame.locator('#expiry_date').fill('12/30');
  await frame.locator('#card_security_code').fill('123');
  await frame.locator('#card_holder_name').fill('Test Customer');
}

/** The outcome pg-checkout shows in place. */
async function outcomeTitle(page: Page, expected: string): Promise<void> {
  const title = page.locator('pg-checkout .outcome-title');
  await title.waitFor({ timeout: 20_000 });
  assert.equal((await title.textContent())?.trim(), expected);
}

/** The dialog opens with the bank's page; the customer approves (or fails) the check there. */
async function answerInDialog(page: Page, language: 'en' | 'ar', decision: 'approve' | 'fail', screen?: string): Promise<void> {
  const dialog = page.locator('pg-checkout dialog.challenge');
  await dialog.waitFor({ timeout: 20_000 });
  assert.equal(await dialog.evaluate((element) => (element as HTMLDialogElement).open && element.matches(':modal')), true);
  assert.equal((await page.locator('pg-checkout #challenge-title').textContent())?.trim(), TEXT[language].dialog);
  const bank = page.frameLocator('pg-checkout dialog iframe.challenge-frame');
  await bank.locator(`#${decision}`).waitFor();
  if (screen) await assertAccessible(page, screen);
  await bank.locator(`#${decision}`).click();
  await dialog.waitFor({ state: 'detached', timeout: 20_000 });
}

for (const language of ['en', 'ar'] as const) {
  describe(`embedded card payments in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
    it('pays on the gateway’s page inside the checkout, and shows the verified success in place', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      const reference = await openCheckout(page);
      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'embedded');
      const top = watchTopLevel(page);
      const frame = await gatewayFrame(page, language);
      await assertAccessible(page, `checkout-card-embedded-${language}`);
      const sentToEndpoint: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/pg/') && request.frame() === page.mainFrame()) {
          sentToEndpoint.push(request.postData() ?? '');
        }
      });
      await typeCard(frame, 'success');
      await frame.locator('#pay').click();
      // The gateway's button took the card; nothing is charged before the element's Pay button.
      await page.locator('pg-checkout button.Pay').waitFor({ timeout: 20_000 });
      assert.equal(session.demo.gateway.order({ merchantReference: reference }), undefined, 'nothing charged yet');
      await payInElement(page, language);
      await outcomeTitle(page, TEXT[language].paid);
      const link = page.locator('pg-checkout a.see-order');
      assert.match((await link.getAttribute('href')) ?? '', new RegExp(`/result\\.html\\?merchant_reference=${reference}&outcome=success`));
      await assertAccessible(page, `embedded-success-${language}`);
      top.assertStayed();
      assert.ok(sentToEndpoint.every((body) => !body.includes(testCard('success').number)), 'no card data reached the endpoint from the page');
      assert.equal(session.demo.gateway.order({ merchantReference: reference })?.state, 'captured');
      assert.equal(session.demo.state.results.get(reference)?.order_state, 'captured');
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('shows a declined card as not paid, in place, and offers to try again', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      await openCheckout(page);
      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'embedded');
      const top = watchTopLevel(page);
      const frame = await gatewayFrame(page, language);
      await typeCard(frame, 'decline');
      await frame.locator('#pay').click();
      await payInElement(page, language);
      await outcomeTitle(page, TEXT[language].notPaid);
      await assertAccessible(page, `embedded-declined-${language}`);
      await page.locator('pg-checkout .outcome .retry').click();
      await gatewayFrame(page, language);
      top.assertStayed();
      await assertNoCspViolation(observed);
      await page.close();
    });

    it('opens the 3-D Secure challenge in a dialog and ends in place', async () => {
      const observed = await session.newPage(language);
      const { page } = observed;
      const reference = await openCheckout(page);
      await chooseMethod(page, 'card');
      await chooseCardMode(page, 'embedded');
      const top = watchTopLevel(page);
      const frame = await gatewayFrame(page, language);
      await typeCard(frame, '3ds');
      await frame.locator('#pay').click();
      await payInElement(page, language);
      await answerInDialog(page, language, 'approve', `embedded-3ds-dialog-${language}`);
      await outcomeTitle(page, TEXT[language].paid);
      top.assertStayed();
      assert.equal(session.demo.gateway.order({ merchantReference: reference })?.state, 'captured');
      await assertNoCspViolation(observed);
      await page.close();
    });
  });
}

describe('with the keyboard alone', () => {
  /** Presses Tab until `isThere` says focus arrived; fails after `limit` presses. */
  async function tabUntil(page: Page, isThere: () => Promise<boolean>, limit = 40): Promise<void> {
    for (let presses = 0; presses < limit; presses += 1) {
      if (await isThere()) return;
      await page.keyboard.press('Tab');
    }
    assert.fail('the control is not reachable with Tab');
  }

  const focusedId = (frame: Frame | null) => async () =>
    (await frame?.evaluate(() => (document.hasFocus() ? document.activeElement?.id : undefined))) ?? undefined;

  it('pays on the embedded page and passes 3-D Secure in the dialog using only the keyboard', async () => {
    const observed = await session.newPage('en');
    const { page } = observed;
    await openCheckout(page);
    await chooseMethod(page, 'card');
    await chooseCardMode(page, 'embedded');
    const top = watchTopLevel(page);
    await gatewayFrame(page, 'en');
    const cardPage = page.frames().find((frame) => frame.url().includes('/FortAPI/paymentPage')) ?? null;
    await tabUntil(page, async () => (await focusedId(cardPage)()) === 'card_number');
    await page.keyboard.type(testCard('3ds').number);
    await page.keyboard.press('Tab');
    await page.keyboard.type('12/30');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    // The card is ready: Tab leaves the frame's short page for the element's Pay button.
    await page.locator('pg-checkout button.Pay').waitFor({ timeout: 20_000 });
    await tabUntil(page, () => page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.classList.contains('Pay') === true));
    await page.keyboard.press('Enter');

    const dialog = page.locator('pg-checkout dialog.challenge');
    await dialog.waitFor({ timeout: 20_000 });
    await page.frameLocator('pg-checkout dialog iframe.challenge-frame').locator('#approve').waitFor();
    const bankPage = page.frames().find((frame) => frame.url().includes('/3ds/challenge')) ?? null;
    await tabUntil(page, async () => (await focusedId(bankPage)()) === 'approve');
    await page.keyboard.press('Enter');
    await outcomeTitle(page, TEXT.en.paid);
    top.assertStayed();
    await assertNoCspViolation(observed);
    await page.close();
  });
});

describe('the merchant page and the dialog', () => {
  it('opens a merchant-page payment’s 3-D Secure challenge in the dialog, never leaving the page', async () => {
    const observed = await session.newPage('en');
    const { page } = observed;
    const reference = await openCheckout(page);
    await chooseMethod(page, 'card');
    await chooseCardMode(page, 'merchant-page');
    const top = watchTopLevel(page);
    await fillMerchantPageCard(page, { number: testCard('3ds').number });
    await page.locator('pg-checkout button.Pay').click();
    await answerInDialog(page, 'en', 'approve');
    await outcomeTitle(page, TEXT.en.paid);
    top.assertStayed();
    assert.equal(session.demo.gateway.order({ merchantReference: reference })?.state, 'captured');
    await assertNoCspViolation(observed);
    await page.close();
  });

  it('says the payment was not completed when the customer closes the dialog with Escape', async () => {
    const observed = await session.newPage('ar');
    const { page } = observed;
    await openCheckout(page);
    await chooseMethod(page, 'card');
    await chooseCardMode(page, 'merchant-page');
    const top = watchTopLevel(page);
    await fillMerchantPageCard(page, { number: testCard('3ds').number });
    await page.locator('pg-checkout button.Pay').click();
    const dialog = page.locator('pg-checkout dialog.challenge');
    await dialog.waitFor();
    await page.frameLocator('pg-checkout dialog iframe.challenge-frame').locator('#approve').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await outcomeTitle(page, TEXT.ar.notPaid);
    assert.equal(
      (await page.locator('pg-checkout .outcome-message').textContent())?.trim(),
      'أُغلقت نافذة تحقق البنك، فلم تكتمل عملية الدفع.',
    );
    top.assertStayed();
    await assertNoCspViolation(observed);
    await page.close();
  });
});

describe('saving a card without paying', () => {
  it('saves the card with no charge at the gateway, and the back office charges its token later', async () => {
    const observed = await session.newPage('en');
    const { page } = observed;
    const reference = await openCheckout(page);
    await page.locator('input[name="intent"][value="save-card"]').check();
    await page.locator('pg-checkout[intent="save-card"]').waitFor();
    await chooseCardMode(page, 'embedded');
    const top = watchTopLevel(page);
    await assertAccessible(page, 'checkout-save-card-en');
    await page.locator('pg-checkout #save-consent').check();
    await page.locator('pg-checkout button.Pay').click();
    const frame = await gatewayFrame(page, 'en');
    await typeCard(frame, 'success');
    await frame.locator('#pay').click();
    await outcomeTitle(page, TEXT.en.saved);
    assert.match((await page.locator('pg-checkout .outcome').textContent()) ?? '', /Visa ending in\s+1111/);
    top.assertStayed();

    const { gateway, state } = session.demo;
    assert.equal(gateway.order({ merchantReference: reference }), undefined, 'the sandbox charged nothing');
    const saved = state.results.get(reference)?.saved_card;
    assert.ok(saved?.token_name, 'onResult received the token');
    assert.equal(saved.card_number, '411111******1111');
    const token = gateway.tokens().find((candidate) => candidate.tokenName === saved.token_name);
    assert.equal(token?.temporary, false);
    assert.equal(token?.status, 'ACTIVE');
    const pageText = await page.content();
    assert.ok(!pageText.includes(saved.token_name), 'the token never reached the browser');

    // Later, the back office charges the saved card: a recurring PURCHASE with the token.
    const charge = await state.client.recurringPurchase({
      merchant_reference: `${reference}-R1`,
      amount: 150_000,
      currency: 'EGP',
      token_name: saved.token_name,
      customer_email: 'customer@example.com',
    });
    assert.equal(charge.outcome, 'success');
    assert.equal(charge.response_code, '14000');
    assert.equal(gateway.order({ merchantReference: `${reference}-R1` })?.state, 'captured');
    await assertNoCspViolation(observed);
    await page.close();
  });
});
