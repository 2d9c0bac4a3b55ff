/**
 * `<pg-checkout>` written by the merchant's server with its first screen in a declarative shadow
 * root (a card form that posts to the gateway without script, as `renderFirstScreen` in
 * src/server/first-screen.ts writes it): when the element's script arrives it leaves that form
 * alone until it can show its own with the order's amount, then takes over what the customer typed
 * and where the focus was. A form already posted stays as it is. The order's answer is held
 * (`holdEndpoint`) to see the first screen while it waits.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../src/define.ts';
import { firstScreenExpiry } from '../../../src/components/pg-checkout/first-screen.ts';
import { checkoutMessages, type CheckoutMessages } from '../../../src/components/pg-checkout/messages.ts';
import type { Catalogs } from '../../../src/components/shared/localize.ts';
import type { PgCheckout } from '../../../src/index.ts';
import { testCard } from '../../../src/sandbox/test-cards.ts';
import { captureSubmissions, choose, deepActiveElement, leave, shadowQuery, shadowQueryAll, textOf, typeInto } from '../support/dom.ts';
import { ENDPOINT, ORDERS, PAYMENT_PAGE_URL, startNetwork, type TestNetwork } from '../support/network.ts';

const ORDER = ORDERS.egp;
const VISA = testCard('success', 'VISA').number;
/** December, three years ahead: as the server's field takes it (the gateway's YYMM) and as the element shows it (MM/YY). */
const YEAR = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
const YYMM = `${YEAR}12`;
const MM_YY = `12/${YEAR}`;
const CARD_IDS = ['card-number', 'card-expiry', 'card-cvv', 'card-holder'];

interface Page {
  readonly language?: 'en' | 'ar';
  /** The drop-in (`methods="card voucher"`) rather than the merchant page. */
  readonly dropIn?: boolean;
}

/** The drop-in's methods on the first screen: card chosen, the others wait for the element. */
const METHODS = `<fieldset class="methods" part="methods"><legend>Payment method</legend><div class="method-list">
  <label class="check method selected" part="method"><input type="radio" name="method" value="card" checked><span>Card</span></label>
  <label class="check method" part="method"><input type="radio" name="method" value="voucher" disabled><span>Cash at a payment outlet</span></label>
</div></fieldset>`;

/** The server's first screen as the contract writes it (a representative subset). */
function firstScreenMarkup({ language = 'en', dropIn = false }: Page): string {
  return `<template shadowrootmode="open">
    <style>.server-style {}</style>
    <link rel="stylesheet" href="/themes/default.css">
    <div class="frame" part="frame" dir="${language === 'ar' ? 'rtl' : 'ltr'}" lang="${language}" data-pg-first-screen>
      ${dropIn ? METHODS : ''}
      <div class="method-panel" part="method-panel">
        <form class="pay-form" method="post" action="${PAYMENT_PAGE_URL}" accept-charset="utf-8">
          <input type="hidden" name="service_command" value="TOKENIZATION">
          <input type="hidden" name="merchant_reference" value="${ORDER.merchant_reference}">
          <input type="hidden" name="signature" value="${'0'.repeat(64)}">
          <fieldset class="credit-card-container" part="credit-card-container">
            <legend>Card details</legend>
            <div class="floatl card-number" part="floatl">
              <label for="card-number">Card number</label>
              <div class="number-row"><input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" dir="ltr" spellcheck="false" required pattern="[0-9]{12,19}" maxlength="19" aria-describedby="card-number-hint card-brand"><span id="card-brand" class="brand" part="brand"></span></div>
              <span id="card-number-hint" class="hint">Digits only</span>
            </div>
            <div class="split">
              <div class="floatl half1" part="floatl half1"><label for="card-expiry">Expiry date</label>
                <input id="card-expiry" name="expiry_date" type="text" inputmode="numeric" autocomplete="off" dir="ltr" required pattern="[0-9]{2}(0[1-9]|1[0-2])" maxlength="4" placeholder="YYMM" aria-describedby="card-expiry-hint">
                <span id="card-expiry-hint" class="hint">As YYMM</span></div>
              <div class="floatl half2" part="floatl half2"><label for="card-cvv">Security code</label>
                <input id="card-cvv" name="card_security_code" type="text" inputmode="numeric" autocomplete="cc-csc" dir="ltr" required pattern="[0-9]{3,4}" maxlength="4" aria-describedby="card-cvv-hint">
                <span id="card-cvv-hint" class="hint">3 or 4 digits</span></div>
            </div>
            <div class="floatl" part="floatl"><label for="card-holder">Name on card</label>
              <input id="card-holder" name="card_holder_name" type="text" autocomplete="cc-name" spellcheck="false" required maxlength="50"></div>
            <div class="check remember"><input id="remember-me" name="remember_me" type="checkbox" value="YES"><label for="remember-me">Remember this card</label></div>
          </fieldset>
          <p class="note muted">Your card goes straight to the payment gateway.</p>
          <button type="submit" class="Pay" part="Pay">Pay EGP 2,500.00</button>
        </form>
      </div>
      <span class="status visually-hidden" part="status" role="status"></span>
    </div>
  </template>`;
}

/**
 * The element as the page's parser makes it from the server's HTML: upgraded with the declarative
 * shadow root attached. `beforeFirstUpdate` may change it before it first renders.
 */
async function serverRendered(page: Page = {}, beforeFirstUpdate?: (el: PgCheckout) => void): Promise<PgCheckout> {
  const parent = await fixture<HTMLDivElement>(html`<div></div>`);
  const mode = page.dropIn ? 'mode="drop-in" methods="card voucher"' : 'mode="merchant-page"';
  parent.setHTMLUnsafe(
    `<pg-checkout ${mode} endpoint="${ENDPOINT}" merchant-reference="${ORDER.merchant_reference}" language="${page.language ?? 'en'}" theme-href="/themes/default.css">${firstScreenMarkup(page)}</pg-checkout>`,
  );
  const el = parent.querySelector('pg-checkout')!;
  beforeFirstUpdate?.(el);
  await el.updateComplete;
  return el;
}

const field = (el: PgCheckout, id: string) => shadowQuery<HTMLInputElement>(el, `#${id}`);
const onFirstScreen = (el: PgCheckout): boolean => el.shadowRoot?.querySelector('[data-pg-first-screen]') != null;
const takenOver = (el: PgCheckout) => waitUntil(() => !onFirstScreen(el), 'the first screen was never taken over', { interval: 5, timeout: 3000 });
/** Whether the element has the order's answer (private: nothing on screen tells it while the first screen stays). */
const orderAnswered = (el: PgCheckout): boolean => Reflect.get(el, 'order') !== undefined;

/**
 * Types a card into the first screen's fields as a customer would, the expiry as YYMM, and ticks
 * "remember this card"; focus ends on the holder's name.
 */
function typeIntoFirstScreen(el: PgCheckout): void {
  typeInto(field(el, 'card-number'), VISA);
  typeInto(field(el, 'card-expiry'), YYMM);
  typeInto(field(el, 'card-cvv'), '123');
  choose(field(el, 'remember-me'));
  typeInto(field(el, 'card-holder'), 'Amira Hassan');
}

/** Nothing but the server's nodes in the shadow root (and Lit's marker, a comment): its style, theme and frame. */
function expectFirstScreenAlone(el: PgCheckout): void {
  expect(onFirstScreen(el), 'the first screen').to.equal(true);
  expect([...el.shadowRoot!.children].map((child) => child.localName)).to.deep.equal(['style', 'link', 'div']);
  expect(shadowQueryAll(el, 'form'), 'one form').to.have.length(1);
  expect(textOf(shadowQuery(el, 'button.Pay'))).to.equal('Pay EGP 2,500.00');
}

describe('<pg-checkout> taking over the server-rendered first screen', () => {
  let network: TestNetwork;
  let release: (() => void) | undefined;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => {
    release?.();
    release = undefined;
    network.reset();
  });

  it('passes an accessibility check once it has taken over', async () => {
    const el = await serverRendered();
    await takenOver(el);
    await expect(el).to.be.accessible();
  });

  describe('while the order has not answered', () => {
    it('shows the server\'s form alone, and it can be typed into', async () => {
      release = network.holdEndpoint();
      const el = await serverRendered();
      await waitUntil(() => network.requestsTo('/order').length === 1, 'the order was asked for');
      await el.updateComplete;
      expectFirstScreenAlone(el);
      typeIntoFirstScreen(el);
      await el.updateComplete;
      expectFirstScreenAlone(el);
      expect(CARD_IDS.map((id) => field(el, id).value)).to.deep.equal([VISA, YYMM, '123', 'Amira Hassan']);
    });
  });

  describe('once the order has answered', () => {
    async function typedThenAnswered(focus = '#card-holder', page: Page = {}): Promise<PgCheckout> {
      release = network.holdEndpoint();
      const el = await serverRendered(page);
      typeIntoFirstScreen(el);
      shadowQuery(el, focus).focus();
      release();
      await takenOver(el);
      await el.updateComplete;
      return el;
    }

    it('shows its own form in place of the server\'s, with the order\'s amount', async () => {
      const el = await typedThenAnswered();
      expect(shadowQueryAll(el, 'form')).to.have.length(1);
      for (const id of [...CARD_IDS, 'remember-me']) expect(shadowQueryAll(el, `[id="${id}"]`), id).to.have.length(1);
      // The server's style, theme link and frame left; the element's own sheets and one theme link remain.
      expect(shadowQueryAll(el, 'style')).to.have.length(0);
      expect(shadowQueryAll(el, 'link')).to.have.length(1);
      expect(shadowQueryAll(el, '.frame')).to.have.length(1);
      expect(el.shadowRoot!.adoptedStyleSheets.length).to.be.greaterThan(0);
      expect(getComputedStyle(shadowQuery(el, '.credit-card-container')).borderInlineStartWidth).to.equal('4px');
      expect(textOf(shadowQuery(el, 'button.Pay'))).to.equal('Pay EGP 2,500.00');
    });

    it('carries what was typed, the expiry turned from YYMM into MM/YY, and "remember this card"', async () => {
      const el = await typedThenAnswered();
      expect(CARD_IDS.map((id) => field(el, id).value)).to.deep.equal(['4111 1111 1111 1111', MM_YY, '123', 'Amira Hassan']);
      expect(field(el, 'remember-me').checked).to.equal(true);
      expect(shadowQuery(el, '.credit-card-container').classList.contains('Visa')).to.equal(true);
    });

    it('keeps the focus in the same field, with the caret at the end', async () => {
      const el = await typedThenAnswered('#card-number');
      const number = field(el, 'card-number');
      expect(deepActiveElement()).to.equal(number);
      expect([number.selectionStart, number.selectionEnd]).to.deep.equal([number.value.length, number.value.length]);
    });

    it('keeps the focus on the Pay button, and on the drop-in\'s chosen method', async () => {
      const onPay = await typedThenAnswered('button.Pay');
      expect(deepActiveElement()).to.equal(shadowQuery(onPay, 'button.Pay'));
      const onMethod = await typedThenAnswered('[name=method][value=card]', { dropIn: true });
      expect(shadowQueryAll(onMethod, '[name=method]')).to.have.length(2);
      expect(deepActiveElement()).to.equal(shadowQuery(onMethod, '[name=method][value=card]'));
    });

    it('moves no focus when none was in the server\'s form', async () => {
      release = network.holdEndpoint();
      const el = await serverRendered();
      typeIntoFirstScreen(el);
      field(el, 'card-holder').blur();
      release();
      await takenOver(el);
      await el.updateComplete;
      expect(deepActiveElement()).to.equal(document.body);
    });

    it('shows a carried field\'s problem once the customer leaves it, as if typed here', async () => {
      release = network.holdEndpoint();
      const el = await serverRendered();
      typeInto(field(el, 'card-number'), '4111111111111112');
      release();
      await takenOver(el);
      await el.updateComplete;
      leave(field(el, 'card-number'));
      await el.updateComplete;
      expect(field(el, 'card-number').getAttribute('aria-invalid')).to.equal('true');
      expect(textOf(shadowQuery(el, '#card-number-error'))).to.equal('This card number is not valid. Check it and try again.');
      // Fields left empty on the first screen say nothing until touched.
      expect(shadowQuery(el, '#card-cvv-error').textContent).to.equal('');
    });

    it('pays with its own form: signed by the endpoint, the carried card posted to the gateway', async () => {
      const el = await typedThenAnswered();
      const submissions = captureSubmissions(el);
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;
      expect(network.requestsTo('/merchant-page')).to.have.length(1);
      expect(submissions).to.have.length(1);
      expect(submissions[0]!.action).to.equal(PAYMENT_PAGE_URL);
      expect(submissions[0]!.fields).to.include({
        merchant_reference: ORDER.merchant_reference,
        card_number: VISA,
        expiry_date: YYMM,
        card_security_code: '123',
        card_holder_name: 'Amira Hassan',
        remember_me: 'YES',
      });
    });
  });

  describe('when the order cannot be loaded', () => {
    it('takes over to say so, with a way to try again, and keeps what was typed', async () => {
      release = network.holdEndpoint();
      network.endpointUnreachable();
      const el = await serverRendered();
      typeIntoFirstScreen(el);
      release();
      await takenOver(el);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('.failure button.retry')).not.to.equal(null);
      expect(CARD_IDS.map((id) => field(el, id).value)).to.deep.equal(['4111 1111 1111 1111', MM_YY, '123', 'Amira Hassan']);
    });
  });

  describe('when the customer already posted the server\'s form', () => {
    it('leaves it in place, with what it posts', async () => {
      release = network.holdEndpoint();
      const el = await serverRendered();
      typeIntoFirstScreen(el);
      const form = shadowQuery<HTMLFormElement>(el, 'form');
      // The page would leave for the gateway; the test stays.
      form.addEventListener('submit', (event) => event.preventDefault());
      const posted = oneEvent(form, 'submit');
      form.requestSubmit();
      await posted;
      release();
      await waitUntil(() => orderAnswered(el), 'the order never answered');
      await el.updateComplete;
      expectFirstScreenAlone(el);
      expect(shadowQuery(el, 'form')).to.equal(form);
      expect(Object.fromEntries(new FormData(form))).to.include({ card_number: VISA, expiry_date: YYMM, card_security_code: '123', remember_me: 'YES' });
    });
  });

  describe('on an Arabic page', () => {
    it('keeps the server\'s form until the Arabic text has loaded, then carries what was typed', async () => {
      // The Arabic text arrives when the test says, as a slow network would bring its module.
      let loadArabic = (): void => {};
      const arabicLoads = new Promise<void>((resolve) => (loadArabic = resolve));
      const heldCatalogs: Catalogs<CheckoutMessages> = { en: checkoutMessages.en, ar: () => arabicLoads.then(checkoutMessages.ar) };
      const el = await serverRendered({ language: 'ar' }, (element) => Reflect.set(element, 'catalogs', heldCatalogs));
      typeIntoFirstScreen(el);
      await waitUntil(() => orderAnswered(el), 'the order never answered');
      await el.updateComplete;
      expect(el.matches(':state(loading)'), 'the Arabic text is still loading').to.equal(true);
      expectFirstScreenAlone(el);

      loadArabic();
      await takenOver(el);
      await el.updateComplete;
      expect(shadowQuery(el, '.frame').getAttribute('dir')).to.equal('rtl');
      expect(CARD_IDS.map((id) => field(el, id).value)).to.deep.equal(['4111 1111 1111 1111', MM_YY, '123', 'Amira Hassan']);
      expect(deepActiveElement()).to.equal(field(el, 'card-holder'));
    });
  });

  describe('the expiry typed into the server\'s field', () => {
    it('reads 4 digits as the gateway\'s YYMM', () => {
      expect(firstScreenExpiry('2712')).to.equal('12/27');
      expect(firstScreenExpiry('٢٧١٢')).to.equal('12/27');
    });

    it('formats anything else as if typed into the element', () => {
      expect(firstScreenExpiry('122')).to.equal('12/2');
      expect(firstScreenExpiry('12/2')).to.equal('12/2');
      expect(firstScreenExpiry('')).to.equal('');
      // No YYMM (month 27): the customer typed the card's MMYY, and the form shows it as printed.
      expect(firstScreenExpiry('1227')).to.equal('12/27');
    });
  });
});
