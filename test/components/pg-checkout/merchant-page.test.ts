import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import { testCard } from '../../../src/sandbox/test-cards.ts';
import {
  captureSubmissions,
  assertFocused,
  leave,
  pressKey,
  recordEvents,
  settled,
  shadowQuery,
  tabTo,
  textOf,
  typeInto,
  typeKeys,
} from '../support/dom.ts';
import { ENDPOINT, ORDERS, PAYMENT_PAGE_URL, startNetwork, type TestNetwork } from '../support/network.ts';

const VISA = testCard('success', 'VISA').number;
const MASTERCARD = testCard('success', 'MASTERCARD').number;
const CVV = '123';
/** An expiry a few years ahead, typed as MM/YY, and the YYMM the gateway must receive. */
const EXPIRY_YEAR = (new Date().getUTCFullYear() + 3) % 100;
const EXPIRY = `08/${EXPIRY_YEAR}`;
const GATEWAY_EXPIRY = `${EXPIRY_YEAR}08`;

describe('<pg-checkout mode="merchant-page">', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  async function checkout(language: 'en' | 'ar' = 'en') {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout mode="merchant-page" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference} language=${language}></pg-checkout>
    `);
    await settled(el);
    // The order (its amount, whether the security code is optional) lands from the frame after the first.
    await waitUntil(() => el.shadowRoot?.querySelector('button.Pay bdi') !== null, 'the order on the Pay button', { interval: 5, timeout: 2000 });
    return el;
  }

  const field = (el: PgCheckout, id: string) => shadowQuery<HTMLInputElement>(el, `#${id}`);

  async function fillCard(el: PgCheckout, card = VISA) {
    typeInto(field(el, 'card-number'), card);
    typeInto(field(el, 'card-expiry'), EXPIRY);
    typeInto(field(el, 'card-cvv'), CVV);
    typeInto(field(el, 'card-holder'), 'Amira Hassan');
    await el.updateComplete;
  }

  it('passes an accessibility check in English', async () => {
    await expect(await checkout('en')).to.be.accessible();
  });

  it('passes an accessibility check in Arabic', async () => {
    await expect(await checkout('ar')).to.be.accessible();
  });

  it('passes an accessibility check with every field error showing, in both languages', async () => {
    for (const language of ['en', 'ar'] as const) {
      const el = await checkout(language);
      shadowQuery(el, 'button.Pay').click();
      await settled(el);
      expect(shadowQuery(el, '#card-number-error').textContent).not.to.equal('');
      await expect(el).to.be.accessible();
    }
  });

  describe('the card number', () => {
    it('is grouped by fours as it is typed', async () => {
      const el = await checkout();
      typeInto(field(el, 'card-number'), '41111111');
      await el.updateComplete;
      expect(field(el, 'card-number').value).to.equal('4111 1111');
    });

    it('applies the Visa brand class and part', async () => {
      const el = await checkout();
      typeInto(field(el, 'card-number'), '4111');
      await el.updateComplete;
      const container = shadowQuery(el, '.credit-card-container');
      expect(container.classList.contains('Visa')).to.equal(true);
      expect(container.part.contains('Visa')).to.equal(true);
      expect(textOf(shadowQuery(el, '#card-brand'))).to.contain('Visa');
    });

    it('applies the MasterCard brand class and part', async () => {
      const el = await checkout();
      typeInto(field(el, 'card-number'), MASTERCARD.slice(0, 6));
      await el.updateComplete;
      const container = shadowQuery(el, '.credit-card-container');
      expect(container.classList.contains('MasterCard')).to.equal(true);
      expect(container.classList.contains('Visa')).to.equal(false);
      expect(container.part.contains('MasterCard')).to.equal(true);
    });

    it('accepts Arabic-Indic digits and bidi marks, and validates the cleaned number', async () => {
      const el = await checkout('ar');
      const arabic = '\u200f٤١١١ ١١١١ ١١١١ ١١١١\u200e';
      typeInto(field(el, 'card-number'), arabic);
      await el.updateComplete;
      expect(field(el, 'card-number').value).to.equal('4111 1111 1111 1111');
      leave(field(el, 'card-number'));
      await el.updateComplete;
      expect(field(el, 'card-number').getAttribute('aria-invalid')).to.equal('false');
    });

    it('stays a left-to-right island on an Arabic page', async () => {
      const el = await checkout('ar');
      for (const id of ['card-number', 'card-expiry', 'card-cvv']) {
        expect(field(el, id).getAttribute('dir')).to.equal('ltr');
      }
    });

    it('shows no error before the customer has interacted', async () => {
      const el = await checkout();
      typeInto(field(el, 'card-number'), '4111 1111 1111 1112');
      await el.updateComplete;
      expect(shadowQuery(el, '#card-number-error').textContent).to.equal('');
      expect(field(el, 'card-number').getAttribute('aria-invalid')).to.equal('false');
    });

    it('shows the Luhn error once the customer leaves the field', async () => {
      const el = await checkout();
      typeInto(field(el, 'card-number'), '4111 1111 1111 1112');
      leave(field(el, 'card-number'));
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '#card-number-error'))).to.equal('This card number is not valid. Check it and try again.');
      expect(field(el, 'card-number').getAttribute('aria-invalid')).to.equal('true');
      expect(shadowQuery(el, '#card-number-error').classList.contains('error')).to.equal(true);
    });

    it('does not complain about an untouched field when another is left', async () => {
      const el = await checkout();
      typeInto(field(el, 'card-holder'), 'Amira');
      leave(field(el, 'card-holder'));
      await el.updateComplete;
      expect(shadowQuery(el, '#card-number-error').textContent).to.equal('');
    });
  });

  describe('the expiry date', () => {
    it('is typed as MM/YY with the slash added', async () => {
      const el = await checkout();
      typeInto(field(el, 'card-expiry'), `08${EXPIRY_YEAR}`);
      await el.updateComplete;
      expect(field(el, 'card-expiry').value).to.equal(EXPIRY);
    });

    it('reports a past date once left', async () => {
      const el = await checkout();
      typeInto(field(el, 'card-expiry'), '01/20');
      leave(field(el, 'card-expiry'));
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '#card-expiry-error'))).to.equal('This card has expired.');
    });
  });

  describe('on a failed submit', () => {
    it('moves focus to the first error and announces the number of fields to fix', async () => {
      const el = await checkout();
      typeInto(field(el, 'card-number'), VISA);
      shadowQuery(el, 'button.Pay').click();
      await settled(el);
      assertFocused(field(el, 'card-expiry'));
      expect(textOf(shadowQuery(el, '[role="status"]'))).to.equal('Please correct the 3 highlighted fields.');
      expect(network.endpointRequests.filter((request) => request.path !== `${ENDPOINT}/order`)).to.have.length(0);
    });

    it('counts the fields to fix in Arabic-Indic digits in Arabic', async () => {
      const el = await checkout('ar');
      typeInto(field(el, 'card-number'), VISA);
      shadowQuery(el, 'button.Pay').click();
      await settled(el);
      expect(textOf(shadowQuery(el, '[role="status"]'))).to.equal('يُرجى تصحيح الحقول المحددة (٣).');
    });
  });

  describe('when the card is valid and Pay is pressed', () => {
    it('posts the signed non-card fields with the card fields straight to the gateway', async () => {
      const el = await checkout();
      const submissions = captureSubmissions(el);
      await fillCard(el);
      choose(field(el, 'remember-me'));
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;

      expect(submissions).to.have.length(1);
      const { action, fields } = submissions[0]!;
      expect(action).to.equal(PAYMENT_PAGE_URL);
      expect(fields).to.include({
        service_command: 'TOKENIZATION',
        merchant_reference: ORDERS.egp.merchant_reference,
        language: 'en',
        card_number: VISA,
        expiry_date: GATEWAY_EXPIRY,
        card_security_code: CVV,
        card_holder_name: 'Amira Hassan',
        remember_me: 'YES',
      });
      expect(fields.signature).to.match(/^[0-9a-f]{64}$/i);
    });

    it('never sends card data to the merchant endpoint', async () => {
      const el = await checkout();
      captureSubmissions(el);
      const events = recordEvents(el, 'pg-request-start', 'pg-request-success', 'pg-request-complete', 'pg-payment-submit');
      await fillCard(el);
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;

      const merchantPage = network.requestsTo('/merchant-page');
      expect(merchantPage).to.have.length(1);
      expect(Object.keys(merchantPage[0]!.fields ?? {}).sort()).to.deep.equal(['amount', 'command', 'currency', 'framed', 'language', 'merchant_reference']);
      // The amount the Pay button names, for the endpoint to hold the charge to.
      expect(merchantPage[0]!.fields).to.include({ amount: ORDERS.egp.amount, currency: ORDERS.egp.currency });
      const crossed = [...network.endpointRequests, ...network.gatewayRequests];
      expect(crossed.length).to.be.greaterThan(0);
      for (const request of crossed) {
        expect(request.body).not.to.contain(VISA);
        expect(request.body).not.to.contain('4111 1111');
        expect(request.body).not.to.contain(GATEWAY_EXPIRY);
        expect(request.body).not.to.match(/card_number|card_security_code|expiry_date/);
      }
      for (const event of events) {
        expect(JSON.stringify({ ...event })).not.to.contain(VISA);
        expect(JSON.stringify({ ...event })).not.to.contain(CVV);
      }
    });

    describe('when the order’s amount changed since the Pay button named it', () => {
      const payButton = (el: PgCheckout) => el.shadowRoot?.querySelector('button.Pay')?.textContent ?? '';
      afterEach(() => network.orders.add(ORDERS.egp));

      it('charges nothing, says so, and names the new amount on the Pay button (refused as the form is signed)', async () => {
        const el = await checkout('ar');
        const submissions = captureSubmissions(el);
        await fillCard(el);
        expect(payButton(el)).to.contain('٢٬٥٠٠');
        network.orders.add({ ...ORDERS.egp, amount: 300_000 });
        shadowQuery(el, 'button.Pay').click();
        await waitUntil(() => el.shadowRoot?.querySelector('.failure') !== null, 'the failure', { interval: 5, timeout: 2000 });
        expect(textOf(shadowQuery(el, '.failure .error'))).to.equal('تغيّر مبلغ الطلب ولم يُخصم شيء. راجع المبلغ على زر الدفع ثم ادفع.');
        await waitUntil(() => payButton(el).includes('٣٬٠٠٠'), 'the new amount on the Pay button', { interval: 5, timeout: 2000 });
        expect(submissions).to.have.length(0);
        // Paying again charges the amount now shown.
        shadowQuery(el, 'button.Pay').click();
        await waitUntil(() => submissions.length === 1, 'the form posted', { interval: 5, timeout: 2000 });
        expect(network.requestsTo('/merchant-page').at(-1)!.fields).to.include({ amount: 300_000 });
      });

      it('charges nothing when it changed after the form was signed, and shows the new amount when the customer tries again', async () => {
        const el = await checkout();
        const submissions = captureSubmissions(el);
        await fillCard(el);
        shadowQuery(el, 'button.Pay').click();
        await waitUntil(() => submissions.length === 1, 'the form posted', { interval: 5, timeout: 2000 });
        network.orders.add({ ...ORDERS.egp, amount: 300_000 });
        // The frame's journey, played here: the gateway takes the card, its return reaches the endpoint.
        const { action, fields } = submissions[0]!;
        const gatewayPage = new DOMParser().parseFromString(
          await (await network.gateway.handle(new Request(action, { method: 'POST', body: new URLSearchParams(fields) }))).text(),
          'text/html',
        );
        const returnForm = gatewayPage.querySelector<HTMLFormElement>('#return-form')!;
        const framedPage = await (await fetch(returnForm.action, { method: 'POST', body: new URLSearchParams(Object.fromEntries(new FormData(returnForm)) as Record<string, string>) })).text();
        const message: unknown = JSON.parse(new DOMParser().parseFromString(framedPage, 'text/html').getElementById('pg-message')!.textContent!);
        expect(message).to.include({ outcome: 'failure', error: 'amount_mismatch' });
        expect(network.gatewayRequests.filter((request) => request.fields?.['command'] === 'PURCHASE')).to.have.length(0);
        const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame');
        window.dispatchEvent(new MessageEvent('message', { data: message, origin: location.origin, source: frame.contentWindow }));
        await el.updateComplete;
        expect(textOf(shadowQuery(el, '.outcome-message'))).to.equal(
          'The order’s amount has changed; nothing was charged. Check the amount on the Pay button, then pay.',
        );
        expect(textOf(shadowQuery(el, '.outcome'))).not.to.contain('Try another card', 'no card was refused');
        shadowQuery(el, '.outcome .retry').click();
        await waitUntil(() => payButton(el).includes('3,000.00'), 'the new amount on the Pay button', { interval: 5, timeout: 2000 });
      });
    });

    it('posts once when Pay is pressed twice', async () => {
      const el = await checkout();
      const submissions = captureSubmissions(el);
      await fillCard(el);
      const release = network.holdEndpoint();
      shadowQuery(el, 'button.Pay').click();
      shadowQuery(el, 'button.Pay').click();
      release();
      await oneEvent(el, 'pg-payment-submit');
      await settled(el);
      expect(network.requestsTo('/merchant-page')).to.have.length(1);
      expect(submissions).to.have.length(1);
    });
  });

  describe('the security code', () => {
    const hint = (el: PgCheckout) => textOf(shadowQuery(el, '#card-cvv-hint'));
    const label = (el: PgCheckout) => textOf(shadowQuery(el, 'label[for="card-cvv"]'));

    /** Types every card field but the security code. */
    async function fillCardWithoutCvv(el: PgCheckout) {
      typeInto(field(el, 'card-number'), VISA);
      typeInto(field(el, 'card-expiry'), EXPIRY);
      typeInto(field(el, 'card-holder'), 'Amira Hassan');
      await el.updateComplete;
    }

    describe('when the merchant’s account has CVV suppression (the endpoint says so)', () => {
      beforeEach(() => network.configureEndpoint({ cvvSuppression: true }));

      for (const [language, expected] of [
        ['en', { label: 'Security code', hint: 'Optional: 3 or 4 digits on the back of your card' }],
        ['ar', { label: 'رمز الأمان', hint: 'اختياري: ٣ أو ٤ أرقام على ظهر البطاقة' }],
      ] as const) {
        it(`says the field is optional, in a hint tied to it (${language})`, async () => {
          const el = await checkout(language);
          expect(label(el)).to.equal(expected.label);
          expect(hint(el)).to.equal(expected.hint);
          const cvv = field(el, 'card-cvv');
          expect(cvv.getAttribute('aria-describedby')?.split(' ')).to.include('card-cvv-hint');
          expect(cvv.required).to.equal(false);
          expect(cvv.getAttribute('aria-required')).not.to.equal('true');
          await expect(el).to.be.accessible();
        });
      }

      it('pays without a security code: the form goes to the gateway without one, and the sandbox takes the card', async () => {
        const el = await checkout();
        const submissions = captureSubmissions(el);
        await fillCardWithoutCvv(el);
        shadowQuery(el, 'button.Pay').click();
        await settled(el);
        await waitUntil(() => submissions.length === 1, 'the form is posted');
        const { action, fields } = submissions[0]!;
        expect(fields).to.include({ service_command: 'TOKENIZATION', card_number: VISA, expiry_date: GATEWAY_EXPIRY });
        expect(fields).not.to.have.property('card_security_code');
        expect(textOf(shadowQuery(el, '#card-cvv-error'))).to.equal('');

        // The frame's journey, played here: the gateway takes the card, its return goes to the endpoint,
        // which completes the payment and answers the page that tells the element.
        const gatewayPage = new DOMParser().parseFromString(
          await (await network.gateway.handle(new Request(action, { method: 'POST', body: new URLSearchParams(fields) }))).text(),
          'text/html',
        );
        const returnForm = gatewayPage.querySelector<HTMLFormElement>('#return-form')!;
        const returned = Object.fromEntries(new FormData(returnForm)) as Record<string, string>;
        expect(returned['response_code']).to.equal('18000');
        const framedPage = await (await fetch(returnForm.action, { method: 'POST', body: new URLSearchParams(returned) })).text();
        const message: unknown = JSON.parse(new DOMParser().parseFromString(framedPage, 'text/html').getElementById('pg-message')!.textContent!);
        expect(message).to.include({ outcome: 'success', response_code: '14000' });
        const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame');
        window.dispatchEvent(new MessageEvent('message', { data: message, origin: location.origin, source: frame.contentWindow }));
        await el.updateComplete;
        expect(textOf(shadowQuery(el, '.outcome-title'))).to.equal('Payment successful');
      });

      it('still checks a security code that is typed', async () => {
        const el = await checkout();
        const submissions = captureSubmissions(el);
        await fillCardWithoutCvv(el);
        typeInto(field(el, 'card-cvv'), '12');
        shadowQuery(el, 'button.Pay').click();
        await settled(el);
        expect(textOf(shadowQuery(el, '#card-cvv-error'))).to.equal('The security code has the wrong number of digits.');
        expect(submissions).to.have.length(0);
      });
    });

    describe('when it does not', () => {
      it('requires the security code, as before', async () => {
        const el = await checkout();
        const submissions = captureSubmissions(el);
        expect(label(el)).to.equal('Security code');
        expect(hint(el)).to.equal('3 or 4 digits on the back of your card');
        await fillCardWithoutCvv(el);
        shadowQuery(el, 'button.Pay').click();
        await settled(el);
        expect(textOf(shadowQuery(el, '#card-cvv-error'))).to.equal('Enter the security code.');
        expect(submissions).to.have.length(0);
        expect(network.requestsTo('/merchant-page')).to.have.length(0);
      });

      it('cannot be made optional by the page', async () => {
        const el = await fixture<PgCheckout>(html`
          <pg-checkout
            mode="merchant-page"
            endpoint=${ENDPOINT}
            merchant-reference=${ORDERS.egp.merchant_reference}
            cvv-optional
            cvv-suppression
            data-cvv-optional="true"
          ></pg-checkout>
        `);
        await settled(el);
        expect(label(el)).to.equal('Security code');
        await fillCardWithoutCvv(el);
        shadowQuery(el, 'button.Pay').click();
        await settled(el);
        expect(textOf(shadowQuery(el, '#card-cvv-error'))).to.equal('Enter the security code.');
      });
    });
  });

  it('completes with the keyboard alone', async () => {
    const el = await checkout();
    const submissions = captureSubmissions(el);
    await tabTo('#card-number');
    await typeKeys(VISA);
    await pressKey('Tab');
    assertFocused(field(el, 'card-expiry'));
    await typeKeys(`08${EXPIRY_YEAR}`);
    await pressKey('Tab');
    assertFocused(field(el, 'card-cvv'));
    await typeKeys(CVV);
    await pressKey('Tab');
    assertFocused(field(el, 'card-holder'));
    await typeKeys('Amira Hassan');
    await pressKey('Tab');
    assertFocused(field(el, 'remember-me'));
    await pressKey('Space');
    await tabTo('button.Pay');
    const submitted = oneEvent(el, 'pg-payment-submit');
    await pressKey('Enter');
    await submitted;
    expect(submissions[0]!.fields).to.include({
      card_number: VISA,
      expiry_date: GATEWAY_EXPIRY,
      card_security_code: CVV,
      card_holder_name: 'Amira Hassan',
      remember_me: 'YES',
    });
  });

  it('accepts Arabic-Indic digits typed on the keyboard', async () => {
    const el = await checkout('ar');
    await tabTo('#card-number');
    await typeKeys('٤١١١١١١١١١١١١١١١');
    await el.updateComplete;
    expect(field(el, 'card-number').value).to.equal('4111 1111 1111 1111');
  });
});

function choose(input: HTMLInputElement): void {
  input.click();
}
