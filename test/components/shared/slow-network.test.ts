/**
 * A customer's action that waits on a slow network: after a moment the element says it is
 * processing, visibly under the button, in its polite live region, in the page's language. The
 * endpoint is held (a promise the test releases), so nothing here depends on how fast the machine is.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgBillVoucher, PgCheckout, PgFinancingOtp, PgInstallments } from '../../../src/index.ts';
import { REGISTERED_FINANCING_PHONE } from '../../../src/sandbox/index.ts';
import { captureSubmissions, choose, settled, shadowQuery, textOf, typeInto } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

const PROCESSING = { en: 'Processing…', ar: 'جارٍ المعالجة…' } as const;

describe('a customer action on a slow network', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  const status = (el: Element) => textOf(shadowQuery(el, '[role="status"]'));

  /**
   * Presses `button` with the endpoint held: nothing is said at once, then "Processing…" in the
   * live region, visible right under the button; once the answer is in, it is no longer said.
   */
  async function pressAndWait(el: HTMLElement & { updateComplete: Promise<boolean> }, button: () => HTMLElement, language: 'en' | 'ar') {
    const release = network.holdEndpoint();
    button().click();
    await el.updateComplete;
    // A quick answer would not need it: nothing is said the moment the customer presses.
    expect(status(el)).not.to.equal(PROCESSING[language]);
    await waitUntil(() => status(el) === PROCESSING[language], 'the live region says it is processing', { timeout: 3000 });
    const region = shadowQuery(el, '[role="status"]').getBoundingClientRect();
    const pressed = button().getBoundingClientRect();
    expect(region.height).to.be.greaterThan(0);
    expect(region.top).to.be.at.least(pressed.bottom);
    expect(region.top - pressed.bottom).to.be.lessThan(100);
    release();
    await settled(el);
    expect(status(el)).not.to.equal(PROCESSING[language]);
  }

  for (const language of ['en', 'ar'] as const) {
    it(`says so under the Pay button of <pg-checkout> and tells screen readers (${language})`, async () => {
      const el = await fixture<PgCheckout>(html`
        <pg-checkout endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference} language=${language}></pg-checkout>
      `);
      await settled(el);
      await waitUntil(() => el.shadowRoot?.querySelector('button.Pay bdi') !== null, 'the order on the Pay button');
      const submissions = captureSubmissions(el);
      await pressAndWait(el, () => shadowQuery(el, 'button.Pay'), language);
      expect(submissions).to.have.length(1);
    });
  }

  it('says so under the Pay button of <pg-installments>', async () => {
    const el = await fixture<PgInstallments>(html`
      <pg-installments endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference} language="ar"></pg-installments>
    `);
    await settled(el);
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-prefix'), '411111');
    await el.updateComplete;
    choose(shadowQuery<HTMLSelectElement>(el, 'select#plan'), 'EGX06');
    await el.updateComplete;
    choose(shadowQuery<HTMLInputElement>(el, '#agree'));
    await el.updateComplete;
    captureSubmissions(el);
    await pressAndWait(el, () => shadowQuery(el, 'button.Pay'), 'ar');
  });

  it('says so under the button while a bill is being issued', async () => {
    const el = await fixture<PgBillVoucher>(html`
      <pg-bill-voucher endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-bill-voucher>
    `);
    await settled(el);
    await pressAndWait(el, () => shadowQuery(el, 'button.issue'), 'en');
    expect(el.shadowRoot?.querySelector('.bill-number')).not.to.equal(null);
  });

  it('says so under the button while a financing step waits', async () => {
    const el = await fixture<PgFinancingOtp>(html`
      <pg-financing-otp endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference} language="ar"></pg-financing-otp>
    `);
    await settled(el);
    typeInto(shadowQuery<HTMLInputElement>(el, '#phone'), REGISTERED_FINANCING_PHONE);
    await el.updateComplete;
    await pressAndWait(el, () => shadowQuery(el, 'button.Pay'), 'ar');
  });
});
