/**
 * The demo's language and theme switches change the live elements: no reload, the order and the
 * chosen method kept, every theme still passing axe.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoSession, type DemoSession } from './support/demo.ts';
import { assertAccessible, assertNoCspViolation, chooseCardMode, chooseMethod, openCheckout } from './support/flows.ts';

let session: DemoSession;
before(async () => {
  session = await startDemoSession();
});
after(async () => {
  await session?.close();
});

describe('the demo switches', () => {
  it('turn the live checkout to Arabic, right to left, and back, keeping the order', async () => {
    const observed = await session.newPage('en');
    const { page } = observed;
    const reference = await openCheckout(page);
    await chooseMethod(page, 'card');
    await chooseCardMode(page, 'merchant-page');
    const frame = page.locator('pg-checkout [part~="frame"]');
    assert.equal(await frame.getAttribute('dir'), 'ltr');

    await page.locator('#language-switch').selectOption('ar');
    await page.locator('pg-checkout[language="ar"]').waitFor();
    assert.equal(await frame.getAttribute('dir'), 'rtl');
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    assert.match((await page.locator('pg-checkout button.Pay').textContent()) ?? '', /ادفع/);
    assert.equal(await page.locator('#order-ref').textContent(), reference, 'the same order');
    await assertAccessible(page, 'switch-arabic');

    await page.locator('#language-switch').selectOption('en');
    await page.locator('pg-checkout[language="en"]').waitFor();
    assert.equal(await frame.getAttribute('dir'), 'ltr');
    await assertNoCspViolation(observed);
    await page.close();
  });

  it('apply the dark theme and the back-office theme file to the live elements', async () => {
    const observed = await session.newPage('en');
    const { page } = observed;
    await openCheckout(page);
    await chooseMethod(page, 'card');
    await chooseCardMode(page, 'merchant-page');
    const pay = page.locator('pg-checkout button.Pay');
    const background = () => pay.evaluate((button) => getComputedStyle(button).backgroundColor);
    const light = await background();

    await page.locator('#theme-switch').selectOption('dark');
    await page.waitForFunction(
      (before) => {
        const button = document.querySelector('pg-checkout')?.shadowRoot?.querySelector('button.Pay');
        return button !== null && button !== undefined && getComputedStyle(button).backgroundColor !== before;
      },
      light,
    );
    await assertAccessible(page, 'theme-dark');

    await page.locator('#theme-switch').selectOption('back-office');
    await page.locator('pg-checkout[theme-href="/themes/back-office-example.css"]').waitFor();
    // The back-office file targets the spec's class names from inside the shadow root.
    await page.waitForFunction(() => {
      const button = document.querySelector('pg-checkout')?.shadowRoot?.querySelector('button.Pay');
      return button !== null && button !== undefined && getComputedStyle(button).textTransform === 'uppercase';
    });
    await assertAccessible(page, 'theme-back-office');
    await assertNoCspViolation(observed);
    await page.close();
  });
});
