import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../../src/define.ts';
import type { PgCheckout, PgInstallments, PgMethodChangeEvent } from '../../../src/index.ts';
import { testCard } from '../../../src/sandbox/test-cards.ts';
import {
  assertFocused,
  captureSubmissions,
  choose,
  pressKey,
  settled,
  shadowQuery,
  shadowQueryAll,
  tabTo,
  textOf,
  typeInto,
  typeKeys,
} from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

const MASTERCARD = testCard('success', 'MASTERCARD').number; // BIN 512345: Sandbox Delta Bank (EGP)
const EXPIRY_YEAR = (new Date().getUTCFullYear() + 4) % 100;

describe('<pg-checkout mode="drop-in">', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  interface Options {
    methods?: string;
    method?: string;
    cardMode?: 'redirect' | 'merchant-page';
    language?: 'en' | 'ar';
    reference?: string;
    themeHref?: string;
  }

  async function dropIn(options: Options = {}) {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout
        mode="drop-in"
        methods=${options.methods ?? 'card installments voucher financing'}
        method=${options.method ?? 'card'}
        card-mode=${options.cardMode ?? 'merchant-page'}
        endpoint=${ENDPOINT}
        merchant-reference=${options.reference ?? ORDERS.egp.merchant_reference}
        language=${options.language ?? 'en'}
        theme-href=${options.themeHref ?? ''}
      ></pg-checkout>
    `);
    await settled(el);
    return el;
  }

  const methodRadio = (el: PgCheckout, method: string) => shadowQuery<HTMLInputElement>(el, `input[name="method"][value="${method}"]`);

  async function fillCard(el: PgCheckout) {
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-number'), MASTERCARD);
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-expiry'), `11/${EXPIRY_YEAR}`);
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-cvv'), '456');
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-holder'), 'Laila Nabil');
    await settled(el);
  }

  for (const language of ['en', 'ar'] as const) {
    it(`passes an accessibility check in ${language} with each method chosen`, async () => {
      const el = await dropIn({ language });
      for (const method of ['card', 'installments', 'voucher', 'financing']) {
        choose(methodRadio(el, method));
        await settled(el);
        await expect(el).to.be.accessible();
      }
    });
  }

  for (const language of ['en', 'ar'] as const) {
    it(`gives the method choices and "Remember this card" touch targets at least 44 px tall, on a phone and a tablet (${language})`, async () => {
      try {
        for (const width of [375, 1024]) {
          await setViewport({ width, height: 812 });
          const el = await dropIn({ language });
          const targets = shadowQueryAll(el, 'label.method, .remember label');
          expect(targets).to.have.length(5);
          const short = targets.filter((target) => target.getBoundingClientRect().height < 44).map((target) => `${width} px, ${textOf(target)}: ${target.getBoundingClientRect().height}`);
          expect(short).to.deep.equal([]);
        }
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    });
  }

  it('offers the methods the merchant enables, in the order given, as a radio group', async () => {
    const el = await dropIn({ methods: 'voucher, card bogus installments' });
    const offered = shadowQueryAll<HTMLInputElement>(el, 'input[name="method"]').map((input) => input.value);
    expect(offered).to.deep.equal(['voucher', 'card', 'installments']);
    expect(textOf(shadowQuery(el, '.methods legend'))).to.equal('Payment method');
    expect(shadowQueryAll(el, '.method').map(textOf)).to.deep.equal(['Cash at a payment outlet', 'Card', 'Installments']);
  });

  it('names the methods in Arabic on an Arabic page', async () => {
    const el = await dropIn({ language: 'ar' });
    expect(shadowQueryAll(el, '.method').map(textOf)).to.deep.equal(['بطاقة', 'التقسيط', 'نقدًا لدى منفذ دفع', 'التمويل الاستهلاكي']);
    expect(shadowQuery(el, '.frame').getAttribute('dir')).to.equal('rtl');
  });

  it('fires pg-method-change when the customer picks another method', async () => {
    const el = await dropIn();
    const changed = oneEvent(el, 'pg-method-change') as Promise<PgMethodChangeEvent>;
    choose(methodRadio(el, 'installments'));
    expect((await changed).method).to.equal('installments');
    expect(el.method).to.equal('installments');
  });

  describe('card', () => {
    it('shows the card form with card-mode="merchant-page"', async () => {
      const el = await dropIn();
      expect(shadowQuery(el, '.credit-card-container')).not.to.equal(null);
    });

    it('shows the hosted-page Pay button with card-mode="redirect"', async () => {
      const el = await dropIn({ cardMode: 'redirect' });
      expect(el.shadowRoot!.querySelector('.credit-card-container')).to.equal(null);
      const submissions = captureSubmissions(el);
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;
      expect(submissions[0]!.fields.command).to.equal('PURCHASE');
    });
  });

  describe('cash voucher and consumer financing', () => {
    it('hosts <pg-bill-voucher> with the checkout’s endpoint, order, language and theme', async () => {
      const el = await dropIn({ method: 'voucher', language: 'ar', themeHref: '/themes/dark.css' });
      const voucher = shadowQuery(el, 'pg-bill-voucher');
      expect(voucher.getAttribute('endpoint')).to.equal(ENDPOINT);
      expect(voucher.getAttribute('merchant-reference')).to.equal(ORDERS.egp.merchant_reference);
      expect(voucher.getAttribute('language')).to.equal('ar');
      expect(voucher.getAttribute('theme-href')).to.equal('/themes/dark.css');
      const defined = customElements.get('pg-bill-voucher');
      if (defined) {
        expect(voucher).to.be.instanceOf(defined);
        expect((voucher as HTMLElement & { merchantReference?: string }).merchantReference).to.equal(ORDERS.egp.merchant_reference);
      }
    });

    it('hosts <pg-financing-otp> with the checkout’s endpoint, order and language', async () => {
      const el = await dropIn({ method: 'financing' });
      const financing = shadowQuery(el, 'pg-financing-otp');
      expect(financing.getAttribute('endpoint')).to.equal(ENDPOINT);
      expect(financing.getAttribute('merchant-reference')).to.equal(ORDERS.egp.merchant_reference);
      expect(financing.getAttribute('language')).to.equal('en');
      expect(financing.hasAttribute('theme-href')).to.equal(false);
    });

    it('passes a language change on to the hosted element', async () => {
      const el = await dropIn({ method: 'voucher' });
      el.language = 'ar';
      await el.updateComplete;
      expect(shadowQuery(el, 'pg-bill-voucher').getAttribute('language')).to.equal('ar');
    });
  });

  describe('installments with the card form (installments YES through the endpoint)', () => {
    it('hosts <pg-installments> fed by the card form, and sends the chosen plan and issuer', async () => {
      const el = await dropIn({ method: 'installments' });
      const submissions = captureSubmissions(el);
      const installments = shadowQuery<PgInstallments>(el, 'pg-installments');
      expect(installments.cardSource).to.equal('host');
      expect(installments.shadowRoot!.querySelector('#card-prefix')).to.equal(null);
      await fillCard(el);
      expect(shadowQuery<HTMLInputElement>(installments, 'input[name="issuer"][value="EGMIX1"]').checked).to.equal(true);
      choose(shadowQuery<HTMLSelectElement>(installments, 'select#plan'), 'EGF06');
      await installments.updateComplete;
      choose(shadowQuery<HTMLInputElement>(installments, '#agree'));
      await installments.updateComplete;
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;

      expect(network.requestsTo('/merchant-page')[0]!.fields).to.deep.equal({
        merchant_reference: ORDERS.egp.merchant_reference,
        language: 'en',
        command: 'PURCHASE',
        amount: ORDERS.egp.amount,
        currency: ORDERS.egp.currency,
        framed: true,
        plan_code: 'EGF06',
        issuer_code: 'EGMIX1',
      });
      expect(submissions[0]!.fields).to.include({ card_number: MASTERCARD, card_security_code: '456', expiry_date: `${EXPIRY_YEAR}11` });
      for (const request of [...network.endpointRequests, ...network.gatewayRequests]) {
        expect(request.body).not.to.contain(MASTERCARD);
        expect(request.body).not.to.contain('456"');
      }
    });

    it('moves focus to the plan when the card is valid but no plan is chosen, and sends nothing', async () => {
      const el = await dropIn({ method: 'installments' });
      const submissions = captureSubmissions(el);
      await fillCard(el);
      shadowQuery(el, 'button.Pay').click();
      const installments = shadowQuery<PgInstallments>(el, 'pg-installments');
      await settled(el);
      assertFocused(shadowQuery(installments, 'select#plan'));
      expect(textOf(shadowQuery(installments, '#plan-error'))).to.equal('Choose an installment plan.');
      expect(network.requestsTo('/merchant-page')).to.have.length(0);
      expect(submissions).to.have.length(0);
    });

    it('switches to the card method when the customer chooses to pay in full', async () => {
      const el = await dropIn({ method: 'installments', reference: ORDERS.small.merchant_reference });
      const installments = shadowQuery<PgInstallments>(el, 'pg-installments');
      const changed = oneEvent(el, 'pg-method-change') as Promise<PgMethodChangeEvent>;
      shadowQuery(installments, 'button.pay-in-full').click();
      expect((await changed).method).to.equal('card');
      await settled(el);
      expect(el.shadowRoot!.querySelector('pg-installments')).to.equal(null);
      assertFocused(shadowQuery(el, '#card-number'));
      expect(textOf(shadowQuery(el, '[role="status"]'))).to.equal('Pay the full amount with your card.');
      // The customer's next choice makes it stale: the installments element speaks for itself from there.
      choose(methodRadio(el, 'installments'));
      await settled(el);
      expect(textOf(shadowQuery(el, '[role="status"]'))).to.equal('');
    });

    it('completes with the keyboard alone', async () => {
      const el = await dropIn({ method: 'card' });
      const submissions = captureSubmissions(el);
      await tabTo('input[name="method"]');
      await pressKey('ArrowRight');
      await settled(el);
      expect(el.method).to.equal('installments');
      await tabTo('#card-number');
      await typeKeys(MASTERCARD);
      await pressKey('Tab');
      await typeKeys(`11${EXPIRY_YEAR}`);
      await pressKey('Tab');
      await typeKeys('456');
      await pressKey('Tab');
      await typeKeys('Laila Nabil');
      await settled(el);
      await tabTo('select#plan');
      await pressKey('ArrowDown');
      await tabTo('#agree');
      await pressKey('Space');
      await tabTo('button.Pay');
      const submitted = oneEvent(el, 'pg-payment-submit');
      await pressKey('Enter');
      await submitted;
      expect(submissions[0]!.fields).to.include({ card_number: MASTERCARD, merchant_extra2: 'EGF06', merchant_extra3: 'EGMIX1' });
    });
  });

  describe('installments through the hosted page (card-mode="redirect")', () => {
    it('hosts a stand-alone <pg-installments> whose post goes through the checkout’s submitForm', async () => {
      const el = await dropIn({ method: 'installments', cardMode: 'redirect' });
      const submissions = captureSubmissions(el);
      const installments = shadowQuery<PgInstallments>(el, 'pg-installments');
      expect(installments.completion).to.equal('hosted-page');
      typeInto(shadowQuery<HTMLInputElement>(installments, '#card-prefix'), '411111');
      await installments.updateComplete;
      choose(shadowQuery<HTMLSelectElement>(installments, 'select#plan'), 'EGX12');
      await installments.updateComplete;
      choose(shadowQuery<HTMLInputElement>(installments, '#agree'));
      await installments.updateComplete;
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(installments, 'button.Pay').click();
      await submitted;
      expect(submissions).to.have.length(1);
      expect(submissions[0]!.fields.installments).to.equal('STANDALONE');
    });
  });
});
