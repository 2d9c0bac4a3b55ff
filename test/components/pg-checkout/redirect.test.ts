import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import type { PgPaymentSubmitEvent, PgRequestErrorEvent } from '../../../src/components/shared/events.ts';
import {
  captureSubmissions,
  deepActiveElement,
  pressKey,
  recordEvents,
  settled,
  shadowQuery,
  tabTo,
  textOf,
} from '../support/dom.ts';
import { ENDPOINT, ORDERS, PAYMENT_PAGE_URL, UNKNOWN_ORDER, startNetwork, type TestNetwork } from '../support/network.ts';

describe('<pg-checkout mode="redirect">', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  async function checkout(language: 'en' | 'ar' = 'en', reference: string = ORDERS.egp.merchant_reference, command = 'PURCHASE') {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout
        mode="redirect"
        endpoint=${ENDPOINT}
        merchant-reference=${reference}
        language=${language}
        command=${command}
      ></pg-checkout>
    `);
    await settled(el);
    return el;
  }

  it('passes an accessibility check in English', async () => {
    const el = await checkout('en');
    await expect(el).to.be.accessible();
  });

  it('passes an accessibility check in Arabic', async () => {
    const el = await checkout('ar');
    await expect(el).to.be.accessible();
  });

  /** The order's amount reaches the Pay button from the frame after the first (shared/paint.ts). */
  const amountShown = (el: PgCheckout) =>
    waitUntil(() => el.shadowRoot?.querySelector('button.Pay bdi') !== null, 'the amount on the Pay button', { interval: 5, timeout: 2000 });

  it('shows the order amount on the Pay button, the amount as a left-to-right island', async () => {
    const el = await checkout('en');
    await amountShown(el);
    const pay = shadowQuery(el, 'button.Pay');
    expect(textOf(pay)).to.equal('Pay EGP 2,500.00');
    const island = shadowQuery(el, 'button.Pay bdi');
    expect(island.getAttribute('dir')).to.equal('ltr');
  });

  it('lays itself out right to left in Arabic, with its text from the Arabic catalog', async () => {
    const el = await checkout('ar');
    const frame = shadowQuery(el, '.frame');
    expect(frame.getAttribute('dir')).to.equal('rtl');
    expect(frame.getAttribute('lang')).to.equal('ar');
    await amountShown(el);
    expect(textOf(shadowQuery(el, 'button.Pay'))).to.match(/^ادفع /);
    expect(shadowQuery(el, 'button.Pay bdi').getAttribute('dir')).to.equal('ltr');
  });

  describe('when the customer presses Pay', () => {
    it('fires a cancelable pg-request-start, asks the endpoint for the signed fields and posts them to the hosted page', async () => {
      const el = await checkout();
      const submissions = captureSubmissions(el);
      const starts = recordEvents(el, 'pg-request-start');
      const submitted = oneEvent(el, 'pg-payment-submit') as Promise<PgPaymentSubmitEvent>;
      shadowQuery(el, 'button.Pay').click();
      const submitEvent = await submitted;

      expect(starts).to.have.length(1);
      expect(starts[0]!.cancelable).to.equal(true);
      expect(network.requestsTo('/hosted-page')).to.have.length(1);
      expect(submissions).to.have.length(1);
      const [post] = submissions;
      expect(post!.action).to.equal(PAYMENT_PAGE_URL);
      expect(post!.method).to.equal('post');
      expect(post!.fields).to.include({
        command: 'PURCHASE',
        merchant_reference: ORDERS.egp.merchant_reference,
        amount: String(ORDERS.egp.amount),
        currency: 'EGP',
        language: 'en',
      });
      expect(post!.fields.signature).to.match(/^[0-9a-f]{64}$/i);
      expect(post!.fields.access_code).to.be.a('string');
      expect(submitEvent.flow).to.equal('hosted-page');
      expect(submitEvent.action).to.equal(PAYMENT_PAGE_URL);
      expect(JSON.stringify({ ...submitEvent })).not.to.contain(post!.fields.signature);
    });

    it('asks for an AUTHORIZATION when configured so', async () => {
      const el = await checkout('en', ORDERS.egp.merchant_reference, 'AUTHORIZATION');
      const submissions = captureSubmissions(el);
      shadowQuery(el, 'button.Pay').click();
      await oneEvent(el, 'pg-payment-submit');
      expect(network.requestsTo('/hosted-page')[0]!.fields).to.include({ command: 'AUTHORIZATION' });
      expect(submissions[0]!.fields.command).to.equal('AUTHORIZATION');
    });

    it('sends nothing and posts nothing when a listener cancels pg-request-start', async () => {
      const el = await checkout();
      const submissions = captureSubmissions(el);
      el.addEventListener('pg-request-start', (event) => event.preventDefault());
      shadowQuery(el, 'button.Pay').click();
      await el.updateComplete;
      await settled(el);
      expect(network.requestsTo('/hosted-page')).to.have.length(0);
      expect(submissions).to.have.length(0);
    });

    it('posts once when Pay is pressed twice', async () => {
      const el = await checkout();
      const submissions = captureSubmissions(el);
      const release = network.holdEndpoint();
      const pay = shadowQuery(el, 'button.Pay');
      pay.click();
      pay.click();
      await el.updateComplete;
      pay.click();
      release();
      await oneEvent(el, 'pg-payment-submit');
      await settled(el);
      pay.click();
      await settled(el);
      expect(network.requestsTo('/hosted-page')).to.have.length(1);
      expect(submissions).to.have.length(1);
    });

    it('completes with the keyboard alone', async () => {
      const el = await checkout();
      const submissions = captureSubmissions(el);
      const submitted = oneEvent(el, 'pg-payment-submit');
      const pay = await tabTo('button.Pay');
      expect(pay).to.equal(shadowQuery(el, 'button.Pay'));
      await pressKey('Enter');
      await submitted;
      expect(submissions).to.have.length(1);
    });
  });

  describe('when the endpoint cannot be reached', () => {
    it('shows a clear message and a retry, and posts nothing', async () => {
      const el = await checkout();
      const submissions = captureSubmissions(el);
      network.endpointUnreachable();
      const failed = oneEvent(el, 'pg-request-error') as Promise<PgRequestErrorEvent>;
      shadowQuery(el, 'button.Pay').click();
      const error = await failed;
      await settled(el);

      expect(error.kind).to.equal('network');
      expect(textOf(shadowQuery(el, '.failure .error'))).to.equal(
        'We could not reach the payment service. Check your connection and try again.',
      );
      expect(textOf(shadowQuery(el, '[role="status"]'))).to.contain('could not reach');
      expect(shadowQuery(el, 'button.retry')).not.to.equal(null);
      expect(submissions).to.have.length(0);
      await expect(el).to.be.accessible();
    });

    it('shows the message in Arabic on an Arabic page', async () => {
      const el = await checkout('ar');
      network.endpointUnreachable();
      shadowQuery(el, 'button.Pay').click();
      await oneEvent(el, 'pg-request-error');
      await settled(el);
      expect(textOf(shadowQuery(el, '.failure .error'))).to.equal('تعذّر الوصول إلى خدمة الدفع. تحقّق من اتصالك وحاول مرة أخرى.');
      expect(textOf(shadowQuery(el, 'button.retry'))).to.equal('حاول مرة أخرى');
      await expect(el).to.be.accessible();
    });

    it('pays on retry once the endpoint is back', async () => {
      const el = await checkout();
      const submissions = captureSubmissions(el);
      network.endpointUnreachable();
      shadowQuery(el, 'button.Pay').click();
      await oneEvent(el, 'pg-request-error');
      await settled(el);
      network.reset();
      const submitted = oneEvent(el, 'pg-payment-submit');
      shadowQuery(el, 'button.retry').click();
      await submitted;
      expect(submissions).to.have.length(1);
      expect(shadowQuery(el, '.method-panel').querySelector('.failure')).to.equal(null);
    });
  });

  describe('when the endpoint refuses', () => {
    it('shows the refusal in the page language, offers a retry and posts nothing', async () => {
      const el = await checkout('en', UNKNOWN_ORDER);
      const submissions = captureSubmissions(el);
      expect(textOf(shadowQuery(el, '.failure .error'))).to.equal(
        'This order could not be found. Please go back to the store and try again.',
      );
      const failed = oneEvent(el, 'pg-request-error') as Promise<PgRequestErrorEvent>;
      shadowQuery(el, 'button.Pay').click();
      const error = await failed;
      await settled(el);
      expect(error.kind).to.equal('refused');
      expect(error.code).to.equal('unknown_order');
      expect(shadowQuery(el, 'button.retry')).not.to.equal(null);
      expect(submissions).to.have.length(0);
      expect(textOf(shadowQuery(el, 'button.Pay'))).to.equal('Pay');
      expect(deepActiveElement()).not.to.equal(null);
    });
  });
});
