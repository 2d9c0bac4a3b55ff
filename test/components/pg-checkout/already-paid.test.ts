/**
 * An order paid another way while the checkout was open (a card in another tab, a bill paid at the
 * counter): the endpoint refuses to sign a payment (`409 order_already_paid`), and `<pg-checkout>`
 * says so without a "Try again" that would only be refused again. A refusal that may pass (another
 * payment in progress) keeps it.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import { shadowQuery, textOf, typeCard } from '../support/dom.ts';

const ENDPOINT = '/already-paid';
const ORDER = { merchant_reference: 'order-paid-1', amount: 250_000, currency: 'EGP', description: 'Headphones' };

describe('<pg-checkout> when the order was paid another way', () => {
  let refusal = 'order_already_paid';
  const worker = setupWorker(
    http.post(`${ENDPOINT}/order`, () => HttpResponse.json(ORDER)),
    http.post(`${ENDPOINT}/merchant-page`, () => HttpResponse.json({ error: { code: refusal, message: refusal, field: 'merchant_reference' } }, { status: 409 })),
  );

  before(() => worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } }));
  after(() => worker.stop());

  async function payRefused(language: 'en' | 'ar'): Promise<PgCheckout> {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout mode="merchant-page" endpoint=${ENDPOINT} merchant-reference=${ORDER.merchant_reference} language=${language}></pg-checkout>
    `);
    await waitUntil(() => /2,500|٢٬٥٠٠/.test(el.shadowRoot?.querySelector('button.Pay')?.textContent ?? ''), 'the order\'s amount on the Pay button');
    typeCard(el, { number: '4111111111111111' });
    await el.updateComplete;
    const ended = oneEvent(el, 'pg-request-error');
    shadowQuery(el, 'button.Pay').click();
    await ended;
    await el.updateComplete;
    return el;
  }

  it('says the order is paid, in the page language, and offers no "Try again"', async () => {
    refusal = 'order_already_paid';
    const english = await payRefused('en');
    expect(textOf(shadowQuery(english, '.failure .error'))).to.contain('This order has already been paid.');
    expect(english.shadowRoot?.querySelector('button.retry')).to.equal(null);
    const arabic = await payRefused('ar');
    expect(textOf(shadowQuery(arabic, '.failure .error'))).to.contain('تم دفع هذا الطلب بالفعل');
    expect(arabic.shadowRoot?.querySelector('button.retry')).to.equal(null);
  });

  it('keeps "Try again" for a refusal that may pass (another payment of the order in progress)', async () => {
    refusal = 'order_in_progress';
    const el = await payRefused('en');
    expect(el.shadowRoot?.querySelector('button.retry')).to.not.equal(null);
  });
});
