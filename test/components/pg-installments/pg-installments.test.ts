import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../../src/define.ts';
import { formatMoney } from '../../../src/core/amounts.ts';
import { planQuote } from '../../../src/core/installments.ts';
import type { PgInstallments, PgPayInFullEvent, PgPlansLoadEvent } from '../../../src/index.ts';
import { INSTALLMENT_ISSUERS } from '../../../src/sandbox/installment-issuers.ts';
import { testCard } from '../../../src/sandbox/test-cards.ts';
import {
  captureSubmissions,
  choose,
  assertFocused,
  pressKey,
  recordEvents,
  settled,
  shadowQuery,
  shadowQueryAll,
  tabTo,
  textOf,
  typeInto,
  typeKeys,
} from '../support/dom.ts';
import { ENDPOINT, ORDERS, PAYMENT_PAGE_URL, startNetwork, type TestNetwork } from '../support/network.ts';

const NILE = INSTALLMENT_ISSUERS.find((issuer) => issuer.issuer_code === 'EGFIX1')!;
const DELTA = INSTALLMENT_ISSUERS.find((issuer) => issuer.issuer_code === 'EGMIX1')!;
const MASTERCARD = testCard('success', 'MASTERCARD').number; // BIN 512345: Sandbox Delta Bank
const EXPIRY_YEAR = (new Date().getUTCFullYear() + 3) % 100;

/** What the core formulas say a plan costs for the EGP test order. */
function expectedQuote(planCode: string) {
  const issuer = [NILE, DELTA].find((candidate) => candidate.plan_details.some((plan) => plan.plan_code === planCode))!;
  const plan = issuer.plan_details.find((candidate) => candidate.plan_code === planCode)!;
  return planQuote(plan, issuer, ORDERS.egp.amount, 'EGP');
}

/** An amount as the element shows it (textOf collapses the non-breaking spaces Intl uses). */
const money = (minor: number, currency: string, language: 'en' | 'ar' = 'en') =>
  formatMoney(minor, currency, language).replace(/\s+/g, ' ');
const egp = (minor: number, language: 'en' | 'ar' = 'en') => money(minor, 'EGP', language);
/** The "per month" cell: the monthly amount, and the last month's when it differs. */
const monthlyCell = (quote: { monthly: number; lastMonthly: number }) =>
  quote.lastMonthly === quote.monthly ? egp(quote.monthly) : `${egp(quote.monthly)} (last month ${egp(quote.lastMonthly)})`;

describe('<pg-installments>', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  interface Options {
    language?: 'en' | 'ar';
    reference?: string;
    view?: 'dropdown' | 'table';
    completion?: 'hosted-page' | 'hosted-checkout' | 'direct' | 'none';
    hideReceipt?: boolean;
  }

  async function installments(options: Options = {}) {
    const el = await fixture<PgInstallments>(html`
      <pg-installments
        endpoint=${ENDPOINT}
        merchant-reference=${options.reference ?? ORDERS.egp.merchant_reference}
        language=${options.language ?? 'en'}
        plans-view=${options.view ?? 'dropdown'}
        completion=${options.completion ?? 'hosted-page'}
        ?hide-receipt=${options.hideReceipt ?? false}
      ></pg-installments>
    `);
    await settled(el);
    return el;
  }

  const binInput = (el: PgInstallments) => shadowQuery<HTMLInputElement>(el, '#card-prefix');
  const issuerRadio = (el: PgInstallments, code: string) => shadowQuery<HTMLInputElement>(el, `input[name="issuer"][value="${code}"]`);

  async function chooseNilePlan(el: PgInstallments, plan = 'EGX06') {
    typeInto(binInput(el), '411111');
    await el.updateComplete;
    choose(shadowQuery<HTMLSelectElement>(el, 'select#plan'), plan);
    await el.updateComplete;
  }

  describe('accessibility', () => {
    for (const language of ['en', 'ar'] as const) {
      it(`gives the banks and the "I agree" checkbox touch targets at least 44 px tall, on a phone and a tablet (${language})`, async () => {
        try {
          for (const width of [375, 1024]) {
            await setViewport({ width, height: 812 });
            const el = await installments({ language });
            await chooseNilePlan(el);
            const targets = shadowQueryAll(el, 'label.issuer, .agree label');
            expect(targets).to.have.length.above(2);
            const short = targets.filter((target) => target.getBoundingClientRect().height < 44).map((target) => `${width} px, ${textOf(target)}: ${target.getBoundingClientRect().height}`);
            expect(short).to.deep.equal([]);
          }
        } finally {
          await setViewport({ width: 800, height: 600 });
        }
      });

      it(`passes an axe check in ${language}, before and after a plan is chosen`, async () => {
        const el = await installments({ language });
        await expect(el).to.be.accessible();
        await chooseNilePlan(el);
        await expect(el).to.be.accessible();
      });

      it(`passes an axe check in ${language} in the table view with errors showing`, async () => {
        const el = await installments({ language, view: 'table' });
        typeInto(binInput(el), '411111');
        await el.updateComplete;
        shadowQuery(el, 'button.Pay').click();
        await settled(el);
        await expect(el).to.be.accessible();
      });

      it(`passes an axe check in ${language} when no plan can be offered`, async () => {
        const el = await installments({ language, reference: ORDERS.small.merchant_reference });
        await expect(el).to.be.accessible();
      });
    }
  });

  describe('loading the plans', () => {
    it('asks the endpoint for the plans of the order and reports what it found', async () => {
      const loaded = new Promise<PgPlansLoadEvent>((resolve) =>
        document.addEventListener('pg-plans-load', resolve as EventListener, { once: true }),
      );
      await installments();
      const event = await loaded;
      const requests = network.requestsTo('/installment-plans');
      expect(requests).to.have.length(1);
      expect(requests[0]!.fields).to.deep.equal({ merchant_reference: ORDERS.egp.merchant_reference, language: 'en' });
      expect(event.issuers).to.equal(2);
      expect(event.plans).to.equal(4);
    });

    it('sends nothing when a listener cancels pg-request-start', async () => {
      const cancel = (event: Event) => event.preventDefault();
      document.addEventListener('pg-request-start', cancel);
      try {
        const el = await installments();
        expect(network.requestsTo('/installment-plans')).to.have.length(0);
        expect(shadowQuery(el, 'button.pay-in-full')).not.to.equal(null);
      } finally {
        document.removeEventListener('pg-request-start', cancel);
      }
    });

    it('shows the issuers of the order currency with their names in English', async () => {
      const el = await installments();
      const names = shadowQueryAll(el, '.issuer span').map(textOf);
      expect(names).to.deep.equal([NILE.issuer_name_en, DELTA.issuer_name_en]);
    });

    it('shows the issuers with their names in Arabic on an Arabic page', async () => {
      const el = await installments({ language: 'ar' });
      const names = shadowQueryAll(el, '.issuer span').map(textOf);
      expect(names).to.deep.equal([NILE.issuer_name_ar, DELTA.issuer_name_ar]);
    });

    it('shows each issuer’s logo in the page language', async () => {
      const logo = (text: string) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg"><title>${text}</title></svg>`)}`;
      for (const language of ['en', 'ar'] as const) {
        network.transformAnswer('/installment-plans', (answer) => ({
          ...answer,
          issuers: (answer.issuers as Record<string, unknown>[]).map((issuer) => ({
            ...issuer,
            issuer_logo_en: logo(`${issuer.issuer_code}-en`),
            issuer_logo_ar: logo(`${issuer.issuer_code}-ar`),
          })),
        }));
        const el = await installments({ language });
        const logos = shadowQueryAll<HTMLImageElement>(el, 'img.issuer-logo');
        expect(logos).to.have.length(2);
        expect(decodeURIComponent(logos[0]!.src)).to.contain(`EGFIX1-${language}`);
        expect(logos[0]!.alt).to.equal('');
        await expect(el).to.be.accessible();
        network.reset();
      }
    });
  });

  describe('picking the issuer from the card BIN', () => {
    it('selects the issuer whose BIN the typed digits start with, and fires change', async () => {
      const el = await installments();
      const changes = recordEvents(el, 'change');
      typeInto(binInput(el), '4111');
      await el.updateComplete;
      expect(issuerRadio(el, 'EGFIX1').checked).to.equal(false);
      typeInto(binInput(el), '411111');
      await el.updateComplete;
      expect(issuerRadio(el, 'EGFIX1').checked).to.equal(true);
      expect(issuerRadio(el, 'EGMIX1').disabled).to.equal(true);
      expect(changes).to.have.length(1);
      expect(textOf(shadowQuery(el, '[role="status"]'))).to.equal(`Plans from ${NILE.issuer_name_en}.`);
    });

    for (const [language, reason] of [
      ['en', 'Not your card’s bank'],
      ['ar', 'ليس البنك الذي أصدر بطاقتك'],
    ] as const) {
      it(`says under a bank that cannot be chosen why, tied to its radio, which stays on the bank's line (${language})`, async () => {
        const el = await installments({ language });
        typeInto(binInput(el), '411111');
        await el.updateComplete;
        const radio = issuerRadio(el, 'EGMIX1');
        expect(radio.disabled).to.equal(true);
        const described = (radio.getAttribute('aria-describedby') ?? '').split(' ').map((id) => el.shadowRoot!.getElementById(id));
        expect(described.map((node) => textOf(node))).to.include(reason);
        const shown = described.find((node) => textOf(node) === reason)!;
        expect(shown.getBoundingClientRect().height).to.be.greaterThan(0);
        // The radio sits beside the bank's name, not above it.
        const name = radio.closest('label')!.querySelector('span')!.getBoundingClientRect();
        const box = radio.getBoundingClientRect();
        expect(box.top).to.be.lessThan(name.bottom);
        expect(box.bottom).to.be.greaterThan(name.top);
        // The bank the card belongs to has no such note.
        expect(issuerRadio(el, 'EGFIX1').getAttribute('aria-describedby')).to.equal('issuer-error');
        await expect(el).to.be.accessible();
      });
    }

    it('reads Arabic-Indic digits and bidi marks', async () => {
      const el = await installments({ language: 'ar' });
      typeInto(binInput(el), '\u200f٥١٢٣٤٥');
      await el.updateComplete;
      expect(binInput(el).value).to.equal('512345');
      expect(issuerRadio(el, 'EGMIX1').checked).to.equal(true);
    });

    it('says the card is not eligible, and offers to pay in full, when the BIN matches no issuer', async () => {
      const el = await installments();
      typeInto(binInput(el), '999999');
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '.unavailable'))).to.contain('Your card’s bank does not offer installments for this order.');
      expect(shadowQuery(el, 'button.pay-in-full')).not.to.equal(null);
    });

    it('follows the card number of a host (card-source="host")', async () => {
      const el = await fixture<PgInstallments>(html`
        <pg-installments card-source="host" completion="none" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-installments>
      `);
      await settled(el);
      expect(el.shadowRoot!.querySelector('#card-prefix')).to.equal(null);
      expect(el.shadowRoot!.querySelector('button.Pay')).to.equal(null);
      el.cardPrefix = '512345';
      await el.updateComplete;
      expect(issuerRadio(el, 'EGMIX1').checked).to.equal(true);
    });
  });

  describe('the plans of the chosen issuer', () => {
    it('lists each eligible plan in a full-width dropdown with its months, monthly amount and total', async () => {
      const el = await installments();
      typeInto(binInput(el), '411111');
      await el.updateComplete;
      const select = shadowQuery<HTMLSelectElement>(el, 'select.full-width');
      expect(select.part.contains('full-width')).to.equal(true);
      const options = [...select.options].slice(1).map(textOf);
      const six = expectedQuote('EGX06');
      const twelve = expectedQuote('EGX12');
      expect(options).to.deep.equal([
        `6 months: ${egp(six.monthly)} a month, ${egp(six.totalPayable)} in total`,
        `12 months: ${egp(twelve.monthly)} a month, ${egp(twelve.totalPayable)} in total`,
      ]);
    });

    it('shows months, per-month amount, fees, total payable and extra cost in the table view', async () => {
      const el = await installments({ view: 'table' });
      typeInto(binInput(el), '512345');
      await el.updateComplete;
      const table = shadowQuery(el, 'table.full-width');
      expect(table.part.contains('full-width')).to.equal(true);
      const rows = shadowQueryAll(el, 'tbody tr').map((row) => [...row.children].map(textOf));
      const flat = expectedQuote('EGF06');
      const reducing = expectedQuote('EGR12');
      expect(rows).to.deep.equal([
        ['6 months', monthlyCell(flat), egp(flat.fees), egp(flat.totalPayable), egp(flat.costOverFull)],
        ['12 months', monthlyCell(reducing), egp(reducing.fees), egp(reducing.totalPayable), egp(reducing.costOverFull)],
      ]);
    });

    it('shows the gateway’s amountPerMonth with monthly-source="gateway"', async () => {
      network.transformAnswer('/installment-plans', (answer) => ({
        ...answer,
        issuers: (answer.issuers as Record<string, unknown>[]).map((issuer) => ({
          ...issuer,
          plan_details: (issuer.plan_details as Record<string, unknown>[]).map((plan) =>
            plan.plan_code === 'EGX06' ? { ...plan, amountPerMonth: '433.34' } : plan,
          ),
        })),
      }));
      const el = await fixture<PgInstallments>(html`
        <pg-installments monthly-source="gateway" plans-view="table" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-installments>
      `);
      await settled(el);
      typeInto(binInput(el), '411111');
      await el.updateComplete;
      const firstRow = [...shadowQuery(el, 'tbody tr').children].map(textOf);
      expect(firstRow[1]).to.equal(egp(43_334));
      expect(firstRow[3]).to.equal(egp(43_334 * 6));
    });

    it('keeps amounts as left-to-right islands in Arabic', async () => {
      const el = await installments({ language: 'ar', view: 'table' });
      typeInto(binInput(el), '411111');
      await el.updateComplete;
      const islands = shadowQueryAll(el, 'tbody td > bdi');
      expect(islands.length).to.equal(8);
      for (const island of islands) expect(island.getAttribute('dir')).to.equal('ltr');
      expect(textOf(islands[0])).to.equal(egp(expectedQuote('EGX06').monthly, 'ar'));
    });

    it('writes months and the card-prefix length in Arabic-Indic digits, as the amounts are', async () => {
      const el = await installments({ language: 'ar', view: 'table' });
      expect(textOf(shadowQuery(el, 'label[for="card-prefix"]'))).to.equal('أول ٦ أرقام من بطاقتك');
      typeInto(binInput(el), '411111');
      await el.updateComplete;
      expect(shadowQueryAll(el, 'tbody th label').map(textOf)).to.deep.equal(['٦ أشهر', '١٢ شهرًا']);
    });

    it('writes the months of each plan option in Arabic-Indic digits in Arabic', async () => {
      const el = await installments({ language: 'ar' });
      typeInto(binInput(el), '411111');
      await el.updateComplete;
      const options = [...shadowQuery<HTMLSelectElement>(el, 'select.full-width').options].slice(1).map(textOf);
      const six = expectedQuote('EGX06');
      const twelve = expectedQuote('EGX12');
      expect(options).to.deep.equal([
        `٦ أشهر: ${egp(six.monthly, 'ar')} شهريًا، ${egp(six.totalPayable, 'ar')} إجمالًا`,
        `١٢ شهرًا: ${egp(twelve.monthly, 'ar')} شهريًا، ${egp(twelve.totalPayable, 'ar')} إجمالًا`,
      ]);
    });
  });

  describe('when a flat plan charges its fee for every month, or once', () => {
    // Sandbox Gulf Bank's formula charges the fee for every month; Sandbox Delta Bank's once.
    const AED_ORDER = { merchant_reference: 'order-aed-1200', amount: 120_000, currency: 'AED', description: 'Watch' };
    const aed = (minor: number) => money(minor, 'AED');

    async function planRows(reference: string, bin: string) {
      const el = await installments({ reference, view: 'table' });
      typeInto(binInput(el), bin);
      await el.updateComplete;
      return shadowQueryAll(el, 'tbody tr').map((row) => [...row.children].map(textOf));
    }

    it('shows the fee charged every month for the issuer whose formula says so', async () => {
      network.orders.add(AED_ORDER);
      // 1,200.00 AED at 1% a month: 3 months 1,236.00, 6 months 1,272.00, 12 months 1,344.00.
      expect(await planRows(AED_ORDER.merchant_reference, '411111')).to.deep.equal([
        ['3 months', aed(41_200), aed(3_600), aed(123_600), aed(3_600)],
        ['6 months', aed(21_200), aed(7_200), aed(127_200), aed(7_200)],
        ['12 months', aed(11_200), aed(14_400), aed(134_400), aed(14_400)],
      ]);
    });

    it('shows the fee charged once for the issuer whose formula says so', async () => {
      // 2,500.00 EGP at 2% once over 6 months: 2,550.00 in all, 425.00 a month (not 2,800.00 and 466.67).
      const [flat] = await planRows(ORDERS.egp.merchant_reference, '512345');
      expect(flat).to.deep.equal(['6 months', egp(42_500), egp(5_000), egp(255_000), egp(5_000)]);
    });
  });

  describe('the bank section and the summary', () => {
    it('shows the issuer’s terms in the page language and a required agreement checkbox in the bank section', async () => {
      for (const language of ['en', 'ar'] as const) {
        const el = await installments({ language });
        typeInto(binInput(el), '411111');
        await el.updateComplete;
        const bank = shadowQuery(el, '.bank');
        expect(bank.part.contains('bank')).to.equal(true);
        expect(textOf(bank.querySelector('.terms'))).to.equal(language === 'en' ? NILE.terms_and_condition_en : NILE.terms_and_condition_ar);
        const agree = bank.querySelector<HTMLInputElement>('input#agree')!;
        expect(agree.getAttribute('aria-required')).to.equal('true');
      }
    });

    for (const [language, chosen] of [
      ['en', 'You chose 6 months with Sandbox Nile Bank. Accept the terms and pay to confirm it.'],
      ['ar', 'اخترت ٦ أشهر مع بنك النيل التجريبي. وافق على الشروط وادفع لتأكيد اختيارك.'],
    ] as const) {
      it(`says which plan is chosen and what happens next, never "confirmed" before the customer agreed and paid (${language})`, async () => {
        const el = await installments({ language });
        await chooseNilePlan(el);
        const bank = textOf(shadowQuery(el, '.bank'));
        expect(bank).not.to.include(language === 'en' ? NILE.confirmation_message_en : NILE.confirmation_message_ar);
        expect(textOf(shadowQuery(el, '.bank .chosen'))).to.equal(chosen);
      });
    }

    it('shows the disclaimer and processing-fee messages in the page language', async () => {
      network.transformAnswer('/installment-plans', (answer) => ({
        ...answer,
        issuers: (answer.issuers as Record<string, unknown>[]).map((issuer) => ({
          ...issuer,
          disclaimer_message_en: 'Rates are indicative.',
          disclaimer_message_ar: 'الأسعار استرشادية.',
          processing_fees_message_en: 'A processing fee may apply.',
          processing_fees_message_ar: 'قد تُطبّق رسوم معالجة.',
        })),
      }));
      const el = await installments({ language: 'ar' });
      await chooseNilePlan(el);
      expect(textOf(shadowQuery(el, '.bank .disclaimer'))).to.equal('الأسعار استرشادية.');
      expect(textOf(shadowQuery(el, '.bank .processing-fees'))).to.equal('قد تُطبّق رسوم معالجة.');
    });

    it('summarizes the chosen plan in the receipt container', async () => {
      const el = await installments();
      await chooseNilePlan(el, 'EGX12');
      const receipt = shadowQuery(el, '.receipt-container');
      expect(receipt.part.contains('receipt-container')).to.equal(true);
      const quote = expectedQuote('EGX12');
      const values = [...receipt.querySelectorAll('dd')].map(textOf);
      expect(values).to.deep.equal([
        egp(ORDERS.egp.amount),
        '12 months',
        egp(quote.monthly),
        ...(quote.lastMonthly === quote.monthly ? [] : [egp(quote.lastMonthly)]),
        egp(quote.fees),
        egp(quote.totalPayable),
        egp(quote.costOverFull),
      ]);
    });

    it('says under the summary that the card is charged the order amount, not the total payable', async () => {
      const el = await installments();
      await chooseNilePlan(el, 'EGX12');
      const quote = expectedQuote('EGX12');
      expect(quote.totalPayable, 'this plan has fees').to.be.greaterThan(ORDERS.egp.amount);
      const note = textOf(shadowQuery(el, '.receipt-container .receipt-note'));
      expect(note).to.equal(`Your card is charged the order amount, ${egp(ORDERS.egp.amount)}. Your bank then collects it in the monthly payments above, its fees included.`);
    });

    it('says it in Arabic, the amount inside the sentence so that its symbol\'s full stop ends nothing', async () => {
      const el = await installments({ language: 'ar' });
      await chooseNilePlan(el, 'EGX12');
      const note = textOf(shadowQuery(el, '.receipt-container .receipt-note'));
      expect(note).to.equal(`يُخصم مبلغ الطلب ${egp(ORDERS.egp.amount, 'ar')} من بطاقتك، ثم يحصّله بنكك على الدفعات الشهرية الموضحة أعلاه شاملةً رسومه.`);
    });

    it('hides the summary with hide-receipt', async () => {
      const el = await installments({ hideReceipt: true });
      await chooseNilePlan(el);
      expect(el.shadowRoot!.querySelector('.receipt-container')).to.equal(null);
    });
  });

  describe('as a form control', () => {
    async function inForm() {
      const form = await fixture<HTMLFormElement>(html`
        <form>
          <pg-installments completion="none" required endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-installments>
        </form>
      `);
      const el = form.querySelector('pg-installments')!;
      await settled(el);
      return { form, el };
    }

    it('puts the chosen plan and issuer into the form value once the terms are accepted', async () => {
      const { form, el } = await inForm();
      expect(form.checkValidity()).to.equal(false);
      await chooseNilePlan(el, 'EGX12');
      expect(form.checkValidity()).to.equal(false);
      expect(el.validationMessage).to.equal('Accept the bank’s terms and conditions to continue.');
      choose(shadowQuery<HTMLInputElement>(el, '#agree'));
      await el.updateComplete;
      expect(form.checkValidity()).to.equal(true);
      expect(Object.fromEntries(new FormData(form))).to.deep.equal({
        // A plan chosen on the merchant's page is completed as hosted checkout.
        installments: 'HOSTED',
        issuer_code: 'EGFIX1',
        plan_code: 'EGX12',
        number_of_installments: '12',
      });
    });

    it('clears its value when the form is reset', async () => {
      const { form, el } = await inForm();
      await chooseNilePlan(el);
      choose(shadowQuery<HTMLInputElement>(el, '#agree'));
      await el.updateComplete;
      form.reset();
      await el.updateComplete;
      expect([...new FormData(form)]).to.deep.equal([]);
      expect(el.selection).to.equal(undefined);
    });

    it('reportValidity shows the problem and moves focus to it', async () => {
      const { el } = await inForm();
      await chooseNilePlan(el);
      expect(el.reportValidity()).to.equal(false);
      await settled(el);
      assertFocused(shadowQuery(el, '#agree'));
      expect(textOf(shadowQuery(el, '#agree-error'))).to.equal('Accept the bank’s terms and conditions to continue.');
    });
  });

  describe('completing through the hosted page (installments STANDALONE)', () => {
    it('asks for a hosted page with installments STANDALONE and posts it', async () => {
      const el = await installments();
      const submissions = captureSubmissions(el);
      await chooseNilePlan(el);
      choose(shadowQuery<HTMLInputElement>(el, '#agree'));
      await el.updateComplete;
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;
      expect(network.requestsTo('/hosted-page')[0]!.fields).to.deep.equal({
        merchant_reference: ORDERS.egp.merchant_reference,
        language: 'en',
        command: 'PURCHASE',
        amount: ORDERS.egp.amount,
        currency: ORDERS.egp.currency,
        installments: 'STANDALONE',
      });
      expect(submissions).to.have.length(1);
      expect(submissions[0]!.action).to.equal(PAYMENT_PAGE_URL);
      expect(submissions[0]!.fields).to.include({ installments: 'STANDALONE', amount: String(ORDERS.egp.amount), currency: 'EGP' });
    });

    it('posts once when Pay is pressed twice', async () => {
      const el = await installments();
      const submissions = captureSubmissions(el);
      await chooseNilePlan(el);
      choose(shadowQuery<HTMLInputElement>(el, '#agree'));
      await el.updateComplete;
      const release = network.holdEndpoint();
      shadowQuery(el, 'button.Pay').click();
      shadowQuery(el, 'button.Pay').click();
      release();
      await oneEvent(el, 'pg-payment-submit');
      await settled(el);
      expect(network.requestsTo('/hosted-page')).to.have.length(1);
      expect(submissions).to.have.length(1);
    });

    it('on a failed submit moves focus to the first error', async () => {
      const el = await installments();
      typeInto(binInput(el), '411111');
      await el.updateComplete;
      shadowQuery(el, 'button.Pay').click();
      await settled(el);
      assertFocused(shadowQuery(el, 'select#plan'));
      expect(textOf(shadowQuery(el, '#plan-error'))).to.equal('Choose an installment plan.');
      expect(network.requestsTo('/hosted-page')).to.have.length(0);
    });

    it('completes with the keyboard alone (dropdown)', async () => {
      const el = await installments();
      const submissions = captureSubmissions(el);
      await tabTo('#card-prefix');
      await typeKeys('411111');
      await el.updateComplete;
      await tabTo('select#plan');
      await pressKey('ArrowDown');
      await tabTo('#agree');
      await pressKey('Space');
      await tabTo('button.Pay');
      const submitted = oneEvent(el, 'pg-payment-submit');
      await pressKey('Enter');
      await submitted;
      expect(el.selection).to.deep.equal({ issuerCode: 'EGFIX1', planCode: 'EGX06', months: 6 });
      expect(submissions).to.have.length(1);
    });

    it('completes with the keyboard alone (table, issuer chosen by hand)', async () => {
      const el = await installments({ view: 'table' });
      captureSubmissions(el);
      await tabTo('input[name="issuer"]');
      await pressKey('ArrowRight');
      await el.updateComplete;
      expect(issuerRadio(el, 'EGMIX1').checked).to.equal(true);
      await tabTo('input[name="plan"]');
      await pressKey('Space');
      await tabTo('#agree');
      await pressKey('Space');
      await tabTo('button.Pay');
      const submitted = oneEvent(el, 'pg-payment-submit');
      await pressKey('Enter');
      await submitted;
      expect(el.selection).to.deep.equal({ issuerCode: 'EGMIX1', planCode: 'EGF06', months: 6 });
    });
  });

  /** Types the customer's MasterCard into the element's own card form (hosted checkout). */
  async function typeCard(el: PgInstallments) {
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-number'), MASTERCARD);
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-expiry'), `12/${EXPIRY_YEAR}`);
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-cvv'), '321');
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-holder'), 'Omar Farouk');
    await el.updateComplete;
  }

  describe('completing by hosted checkout (installments HOSTED)', () => {
    it('takes the card, picks the issuer from it and posts the card straight to the gateway', async () => {
      const el = await installments({ completion: 'hosted-checkout' });
      const submissions = captureSubmissions(el);
      await typeCard(el);
      expect(issuerRadio(el, 'EGMIX1').checked).to.equal(true);
      choose(shadowQuery<HTMLSelectElement>(el, 'select#plan'), 'EGR12');
      await el.updateComplete;
      choose(shadowQuery<HTMLInputElement>(el, '#agree'));
      await el.updateComplete;
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;

      const merchantPage = network.requestsTo('/merchant-page');
      expect(merchantPage[0]!.fields).to.deep.equal({
        merchant_reference: ORDERS.egp.merchant_reference,
        language: 'en',
        command: 'PURCHASE',
        amount: ORDERS.egp.amount,
        currency: ORDERS.egp.currency,
        plan_code: 'EGR12',
        issuer_code: 'EGMIX1',
      });
      expect(submissions[0]!.fields).to.include({
        service_command: 'TOKENIZATION',
        card_number: MASTERCARD,
        expiry_date: `${EXPIRY_YEAR}12`,
        card_security_code: '321',
      });
      for (const request of [...network.endpointRequests, ...network.gatewayRequests]) {
        expect(request.body).not.to.contain(MASTERCARD);
        expect(request.body).not.to.contain('321"');
      }
    });

    it('leaves no card in the page, and may pay again, when the customer comes back from the gateway with Back', async () => {
      const el = await installments({ completion: 'hosted-checkout' });
      const submissions = captureSubmissions(el);
      await typeCard(el);
      choose(shadowQuery<HTMLSelectElement>(el, 'select#plan'), 'EGR12');
      choose(shadowQuery<HTMLInputElement>(el, '#agree'));
      await el.updateComplete;
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;
      expect(JSON.stringify(submissions[0])).to.contain(MASTERCARD, 'the card went with the post');
      // The posted form, card fields and all, leaves the page as soon as it is submitted.
      expect(el.shadowRoot!.querySelector('form.gateway-form')).to.equal(null);
      expect(el.shadowRoot!.innerHTML).not.to.contain(MASTERCARD);
      // The browser restores the page from its back-forward cache.
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      await el.updateComplete;
      shadowQuery(el, 'button.Pay').click();
      await waitUntil(() => submissions.length === 2, 'a second post', { interval: 5, timeout: 2000 });
    });
  });

  describe('hosted checkout, through the endpoint, to the sandbox', () => {
    it('has the endpoint charge the plan chosen here with installments HOSTED and the token of the card typed here', async () => {
      const el = await installments({ completion: 'hosted-checkout' });
      const submissions = captureSubmissions(el);
      await typeCard(el);
      choose(shadowQuery<HTMLSelectElement>(el, 'select#plan'), 'EGF06');
      await el.updateComplete;
      choose(shadowQuery<HTMLInputElement>(el, '#agree'));
      await el.updateComplete;
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;

      // The browser posts the form to the gateway; the gateway's signed answer returns to the endpoint.
      const form = submissions[0]!;
      const tokenized = await fetch(form.action, { method: 'POST', body: new URLSearchParams(form.fields as Record<string, string>) });
      const html = await tokenized.text();
      const back = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]));
      const action = /<form id="return-form" method="post" action="([^"]*)"/.exec(html)?.[1] ?? '';
      await fetch(action.replace(/&amp;/g, '&'), { method: 'POST', body: new URLSearchParams(back), redirect: 'manual' });

      const charge = network.gatewayRequests.find((request) => request.fields?.['plan_code'] === 'EGF06');
      expect(charge?.fields).to.include({ installments: 'HOSTED', plan_code: 'EGF06', issuer_code: 'EGMIX1', command: 'PURCHASE' });
      expect(charge?.fields?.['token_name']).to.be.a('string');
      expect(network.gateway.order({ merchantReference: ORDERS.egp.merchant_reference })?.installments).to.deep.equal({
        issuerCode: 'EGMIX1',
        planCode: 'EGF06',
        months: 6,
      });
    });
  });

  describe('when no plan can be offered', () => {
    it('says so for a currency without plans, and offers to pay in full', async () => {
      const el = await installments({ reference: ORDERS.usd.merchant_reference });
      expect(textOf(shadowQuery(el, '.unavailable .notice'))).to.equal(
        `Installments are not available for an order of ${money(ORDERS.usd.amount, 'USD')}.`,
      );
      const payInFull = oneEvent(el, 'pg-pay-in-full') as Promise<PgPayInFullEvent>;
      shadowQuery(el, 'button.pay-in-full').click();
      const event = await payInFull;
      expect(event.reason).to.equal('no-plans');
      expect(event.cancelable).to.equal(true);
      await el.updateComplete;
      expect(el.payInFull).to.equal(true);
      expect(textOf(shadowQuery(el, 'button.Pay'))).to.equal(`Pay ${money(ORDERS.usd.amount, 'USD')}`);
    });

    it('says so for an amount outside every plan’s range', async () => {
      const el = await installments({ reference: ORDERS.small.merchant_reference });
      expect(textOf(shadowQuery(el, '.unavailable .notice'))).to.equal('Installments are not available for an order of EGP 45.00.');
      expect(shadowQuery(el, '.unavailable bdi').getAttribute('dir')).to.equal('ltr');
      expect(shadowQuery(el, 'button.pay-in-full')).not.to.equal(null);
    });

    it('names the amounts the plans cover when the answer lists plans outside the amount', async () => {
      // An endpoint that passes the gateway's whole list on (this project's filters by amount).
      network.transformAnswer('/installment-plans', (answer) => ({ ...answer, issuers: [NILE] }));
      const el = await installments({ reference: ORDERS.small.merchant_reference });
      expect(textOf(shadowQuery(el, '.unavailable .notice'))).to.equal(
        `Installments are not available for an order of EGP 45.00. The plans cover orders from ${egp(100_000)} to ${egp(50_000_000)}.`,
      );
    });

    it('pays in full through the hosted page, without installments', async () => {
      const el = await installments({ reference: ORDERS.small.merchant_reference });
      const submissions = captureSubmissions(el);
      shadowQuery(el, 'button.pay-in-full').click();
      await el.updateComplete;
      assertFocused(shadowQuery(el, 'button.Pay'));
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.Pay').click();
      await submitted;
      expect(network.requestsTo('/hosted-page')[0]!.fields).not.to.have.property('installments');
      expect(submissions[0]!.fields).not.to.have.property('installments');
    });

    it('says so when the plans request fails, and offers a retry and paying in full', async () => {
      network.gatewayUnreachable();
      const el = await installments();
      expect(textOf(shadowQuery(el, '.unavailable .error'))).to.equal(
        'Installment plans could not be loaded. The payment gateway is not responding. Nothing was charged; please try again.',
      );
      expect(shadowQuery(el, 'button.pay-in-full')).not.to.equal(null);
      network.reset();
      shadowQuery(el, 'button.retry').click();
      await settled(el);
      expect(shadowQueryAll(el, '.issuer')).to.have.length(2);
    });

    it('says so in Arabic on an Arabic page', async () => {
      const el = await installments({ language: 'ar', reference: ORDERS.small.merchant_reference });
      expect(textOf(shadowQuery(el, '.unavailable .notice'))).to.equal(`التقسيط غير متاح لطلب بقيمة ${egp(ORDERS.small.amount, 'ar')}.`);
      expect(textOf(shadowQuery(el, 'button.pay-in-full'))).to.equal('ادفع المبلغ كاملًا بدلًا من ذلك');
    });
  });

  describe('on a phone (375 px wide)', () => {
    const PHONE = { width: 375, height: 812 };

    beforeEach(() => setViewport(PHONE));
    afterEach(() => setViewport({ width: 800, height: 600 }));

    /** Whether every box of `elements` lies within the screen (in Arabic a table too wide spills to the left, where nothing scrolls). */
    const offScreen = (elements: Element[]) =>
      elements.filter((element) => {
        const box = element.getBoundingClientRect();
        return box.left < 0 || box.right > PHONE.width;
      }).map((element) => `${element.localName} "${textOf(element)}"`);

    for (const language of ['en', 'ar'] as const) {
      it(`shows each plan of the table view as a block of labelled figures, within the screen (${language})`, async () => {
        const el = await installments({ language, view: 'table' });
        typeInto(binInput(el), '411111');
        await el.updateComplete;
        expect(document.documentElement.scrollWidth).to.be.at.most(PHONE.width);
        expect(offScreen(shadowQueryAll(el, 'table, tbody th, tbody td'))).to.deep.equal([]);
        const labels = shadowQueryAll(el, 'thead th').slice(1).map((header) => `"${textOf(header)}"`);
        for (const row of shadowQueryAll(el, 'tbody tr')) {
          const cells = [...row.querySelectorAll('td')];
          expect(cells.map((cell) => getComputedStyle(cell, '::before').content)).to.deep.equal(labels);
          expect(cells.map((cell) => getComputedStyle(cell).display)).to.deep.equal(cells.map(() => 'block'));
        }
      });

      it(`keeps the open plan dropdown within the screen, its options wrapped (${language})`, async () => {
        const el = await installments({ language });
        typeInto(binInput(el), '411111');
        await el.updateComplete;
        const select = shadowQuery<HTMLSelectElement>(el, 'select#plan');
        select.focus();
        await pressKey('Enter');
        try {
          await waitUntil(() => select.matches(':open'), 'the plan dropdown does not open');
          const options = [...select.options];
          expect(offScreen(options)).to.deep.equal([]);
          for (const option of options) expect(option.scrollWidth, textOf(option)).to.be.at.most(option.clientWidth);
        } finally {
          await pressKey('Escape');
        }
      });
    }

    it('keeps the plans a table with its header row on a wide screen', async () => {
      await setViewport({ width: 1280, height: 800 });
      const el = await installments({ view: 'table' });
      typeInto(binInput(el), '411111');
      await el.updateComplete;
      expect(getComputedStyle(shadowQuery(el, 'thead')).display).to.equal('table-header-group');
      expect(shadowQueryAll(el, 'tbody td').map((cell) => getComputedStyle(cell).display)).to.include.members(['table-cell']).and.not.include('block');
      expect(getComputedStyle(shadowQuery(el, 'tbody td'), '::before').content).to.equal('none');
    });
  });
});
