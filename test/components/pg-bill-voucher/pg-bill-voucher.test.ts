import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, setViewport } from '@web/test-runner-commands';
import { http, HttpResponse } from 'msw';
import '../../../src/components/pg-bill-voucher/define.ts';
import type { PgBillVoucher } from '../../../src/components/pg-bill-voucher/pg-bill-voucher.ts';
import type {
  PgBillCopyEvent,
  PgBillExpireEvent,
  PgBillIssueEvent,
  PgBillPaidEvent,
  PgBillReissueEvent,
} from '../../../src/components/pg-bill-voucher/events.ts';
import { formatMoney } from '../../../src/core/amounts.ts';
import { SANDBOX_VOUCHER_PARTNER_CODE as VOUCHER_PARTNER_CODE } from '../../../src/sandbox/partners.ts';
import { createManualClock, formatExpiry, parseExpiry, type ManualClock } from '../../../src/core/voucher.ts';
import {
  assertFocused,
  deepActiveElement,
  pressKey,
  recordEvents,
  settled,
  shadowQuery,
  shadowQueryAll,
  tabTo,
  textOf,
} from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

/** Text as a reader sees it: bidi marks dropped, spaces (no-break ones too) collapsed. */
const plain = (text: string) => text.replace(/[\u200e\u200f\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
const egp = (minor: number, language: 'en' | 'ar' = 'en') => plain(formatMoney(minor, 'EGP', language));

/** A stored bill for the rendering-without-request tests. */
const STORED = {
  billNumber: '12345678901234',
  expires: '2026-12-01T12:00:00+02:00',
  amount: 250_000,
};
const STORED_EXPIRY = parseExpiry(STORED.expires)!;

describe('<pg-bill-voucher>', () => {
  let network: TestNetwork;
  let orderCount = 0;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => {
    network.reset();
    sessionStorage.clear();
  });

  /** A fresh order of the endpoint, so each test issues the first bill of its order. */
  function newOrder(currency = 'EGP', amount = 250_000): string {
    orderCount += 1;
    const reference = `bill-test-${Date.now()}-${orderCount}`;
    network.orders.add({ merchant_reference: reference, amount, currency, description: 'Test order' });
    return reference;
  }

  interface Options {
    reference?: string;
    language?: 'en' | 'ar';
    currency?: string;
    clock?: ManualClock;
    allowReissue?: boolean;
  }

  async function voucher(options: Options = {}) {
    const clock = options.clock ?? createManualClock(Date.now());
    // The endpoint and the gateway read the same time as the element.
    network.setClock(() => new Date(clock.now()));
    const el = await fixture<PgBillVoucher>(html`
      <pg-bill-voucher
        endpoint=${ENDPOINT}
        merchant-reference=${options.reference ?? newOrder()}
        language=${options.language ?? 'en'}
        currency=${options.currency ?? ''}
        time-zone="Africa/Cairo"
        ?allow-reissue=${options.allowReissue ?? false}
        .clock=${clock}
      ></pg-bill-voucher>
    `);
    await settled(el);
    return el;
  }

  async function storedVoucher(
    options: { language?: 'en' | 'ar'; clock?: ManualClock; expires?: string; billNumber?: string; partner?: string } = {},
  ) {
    const el = await fixture<PgBillVoucher>(html`
      <pg-bill-voucher
        language=${options.language ?? 'en'}
        bill-number=${options.billNumber ?? STORED.billNumber}
        expires=${options.expires ?? STORED.expires}
        amount=${STORED.amount}
        payment-partner=${options.partner ?? VOUCHER_PARTNER_CODE}
        time-zone="Africa/Cairo"
        .clock=${options.clock ?? createManualClock(STORED_EXPIRY - 90_000)}
      ></pg-bill-voucher>
    `);
    await settled(el);
    return el;
  }

  async function issue(el: PgBillVoucher) {
    shadowQuery(el, 'button.issue').click();
    await settled(el);
  }

  const billNumberText = (el: PgBillVoucher) => textOf(shadowQuery(el, '.bill-number [aria-hidden="true"]'));
  const groups = (el: PgBillVoucher) => shadowQueryAll(el, '.bill-number .group').map((group) => group.textContent);
  const countdown = (el: PgBillVoucher) => textOf(shadowQuery(el, '[part~="countdown"]'));
  const status = (el: PgBillVoucher) => textOf(shadowQuery(el, '[role="status"]'));

  /** The customer presses "Try again" on a bill whose payment is not confirmed yet. */
  async function checkAgain(el: PgBillVoucher) {
    shadowQuery(el, '.unconfirmed button.retry').click();
    await settled(el);
  }

  /** The tab is shown (`visible`) or left (`hidden`), as the browser tells the page. */
  async function tabBecomes(state: DocumentVisibilityState, el: PgBillVoucher) {
    Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      await settled(el);
    } finally {
      delete (document as unknown as Record<string, unknown>)['visibilityState'];
    }
  }

  const title = (el: PgBillVoucher) => textOf(shadowQuery(el, '#bill-title'));

  /** axe finds nothing, and no inline style attribute would need 'unsafe-inline' under a strict CSP. */
  async function checkPage(el: PgBillVoucher) {
    await expect(el).to.be.accessible();
    expect(shadowQueryAll(el, '[style]')).to.have.length(0);
  }

  describe('accessibility', () => {
    it('gives each of the bill’s buttons and links a touch target at least 44 px tall on a phone (375 px)', async () => {
      await setViewport({ width: 375, height: 812 });
      try {
        const el = await storedVoucher({ language: 'ar' });
        const targets = shadowQueryAll(el, 'button, a');
        expect(targets.map((target) => target.className)).to.include('copy');
        const short = targets.filter((target) => target.getBoundingClientRect().height < 44).map((target) => `${target.className}: ${target.getBoundingClientRect().height}`);
        expect(short).to.deep.equal([]);
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    });

    for (const language of ['en', 'ar'] as const) {
      it(`passes an axe check in ${language} before, with and after the bill`, async () => {
        const clock = createManualClock(Date.now());
        const el = await voucher({ language, clock, allowReissue: true });
        await checkPage(el);
        await issue(el);
        await checkPage(el);
        clock.set(parseExpiry(el.issuedBill!.expires)!);
        await settled(el);
        await checkPage(el);
      });

      it(`passes an axe check in ${language} once the bill is paid, and when its payment is not confirmed yet`, async () => {
        const clock = createManualClock(Date.now());
        const el = await voucher({ language, clock });
        await issue(el);
        network.gateway.payBill(el.issuedBill!.billNumber);
        network.endpointUnreachable();
        clock.set(parseExpiry(el.issuedBill!.expires)!);
        await settled(el);
        expect(el.matches(':state(expired)')).to.equal(false);
        await checkPage(el);
        network.worker.resetHandlers();
        await checkAgain(el);
        expect(el.matches(':state(paid)')).to.equal(true);
        await checkPage(el);
      });

      it(`passes an axe check in ${language} when the currency is refused`, async () => {
        const el = await voucher({ language, currency: 'USD' });
        await checkPage(el);
      });
    }
  });

  describe('issuing the bill', () => {
    it('asks the endpoint for the bill of the order and shows it', async () => {
      const reference = newOrder();
      const el = await voucher({ reference });
      expect(plain(textOf(shadowQuery(el, '[part~="amount"]')))).to.equal(egp(250_000));
      await issue(el);

      const requests = network.requestsTo('/bill');
      expect(requests).to.have.length(1);
      expect(requests[0]!.fields).to.deep.equal({ merchant_reference: reference, language: 'en' });
      const bill = el.issuedBill!;
      expect(bill.billNumber).to.match(/^\d{1,14}$/);
      expect(billNumberText(el)).to.equal(bill.billNumber);
      expect(groups(el).join('')).to.equal(bill.billNumber);
      expect(groups(el)[0]).to.have.length(4);
      expect(plain(textOf(shadowQuery(el, '[part~="amount"]')))).to.equal(egp(250_000));
      // The partner by the name customers look for at the outlet, not its code.
      expect(textOf(shadowQuery(el, '[part~="partner"]'))).to.equal('Sandbox Cash Outlets');
      expect(textOf(shadowQuery(el, '[part~="instructions"]'))).to.include('Sandbox Cash Outlets');
      expect(textOf(shadowQuery(el, 'time[part~="expiry"]'))).to.equal(
        formatExpiry(parseExpiry(bill.expires)!, 'en', 'Africa/Cairo'),
      );
      expect(shadowQueryAll(el, '[part~="instructions"] li')).to.have.length(4);
    });

    it('reads the bill number out in its groups for screen readers', async () => {
      const el = await voucher();
      await issue(el);
      const spoken = textOf(shadowQuery(el, '.bill-number .spoken'));
      expect(spoken).to.equal(groups(el).join(' '));
    });

    it('fires pg-bill-issue with what a page needs to show the bill again', async () => {
      const reference = newOrder();
      const el = await voucher({ reference });
      const issued = oneEvent(el, 'pg-bill-issue') as Promise<PgBillIssueEvent>;
      shadowQuery(el, 'button.issue').click();
      const event = await issued;
      expect(event.bill.merchantReference).to.equal(reference);
      expect(event.bill.amount).to.equal(250_000);
      expect(event.bill.currency).to.equal('EGP');
      expect(event.bill.paymentPartner).to.equal(VOUCHER_PARTNER_CODE);
      expect(parseExpiry(event.bill.expires)).to.be.a('number');
    });

    it('shows that it is working while the endpoint issues the bill, and asks only once', async () => {
      const el = await voucher();
      const release = network.holdEndpoint();
      shadowQuery(el, 'button.issue').click();
      await el.updateComplete;
      const button = shadowQuery(el, 'button.issue');
      expect(textOf(button)).to.equal('Issuing your bill…');
      expect(button.getAttribute('aria-disabled')).to.equal('true');
      expect(el.matches(':state(pending)')).to.equal(true);
      button.click();
      release();
      await settled(el);
      expect(network.requestsTo('/bill')).to.have.length(1);
      expect(el.issuedBill?.billNumber).to.match(/^\d+$/);
    });

    it('sends nothing when a listener cancels pg-request-start', async () => {
      const el = await voucher();
      el.addEventListener('pg-request-start', (event) => event.preventDefault(), { once: true });
      await issue(el);
      expect(network.requestsTo('/bill')).to.have.length(0);
      expect(shadowQueryAll(el, 'button.issue')).to.have.length(1);
    });
  });

  describe('when the order is not in EGP', () => {
    it('refuses before any request when the page says the currency', async () => {
      const el = await voucher({ reference: ORDERS.usd.merchant_reference, currency: 'USD' });
      expect(textOf(shadowQuery(el, '.error'))).to.contain('only for orders in Egyptian pounds (EGP)');
      expect(textOf(shadowQuery(el, '.error'))).to.contain('USD');
      expect(shadowQueryAll(el, 'button.issue')).to.have.length(0);
      await el.issue();
      expect(network.endpointRequests).to.have.length(0);
    });

    it('reads the order and refuses before asking for a bill when the page does not say it', async () => {
      const el = await voucher({ reference: ORDERS.usd.merchant_reference });
      expect(network.requestsTo('/order')).to.have.length(1);
      expect(textOf(shadowQuery(el, '.error'))).to.contain('USD');
      await el.issue();
      expect(network.requestsTo('/bill')).to.have.length(0);
    });
  });

  describe('when a request fails', () => {
    it('explains that the endpoint is down and tries again on request', async () => {
      const el = await voucher();
      network.endpointUnreachable();
      await issue(el);
      expect(textOf(shadowQuery(el, '[part~="error"]'))).to.equal(
        'We could not reach the payment service. Check your connection and try again.',
      );
      network.worker.resetHandlers();
      shadowQuery(el, 'button.retry').click();
      await settled(el);
      expect(el.issuedBill?.billNumber).to.match(/^\d+$/);
    });

    it('says when the gateway is not responding', async () => {
      const el = await voucher();
      network.gatewayUnreachable();
      await issue(el);
      expect(textOf(shadowQuery(el, '[part~="error"]'))).to.contain('The payment gateway is not responding');
      expect(shadowQueryAll(el, 'button.retry')).to.have.length(1);
    });

    it('says when the gateway answers that the bill has expired', async () => {
      const el = await voucher();
      network.use(
        http.post(`${ENDPOINT}/bill`, () =>
          HttpResponse.json(
            { error: { code: 'gateway_refused', message: 'Bill expired', response_code: '31001' } },
            { status: 422 },
          ),
        ),
      );
      await issue(el);
      expect(textOf(shadowQuery(el, '[part~="error"]'))).to.equal('This bill has expired and can no longer be paid.');
      expect(shadowQueryAll(el, 'button.retry')).to.have.length(0);
    });
  });

  describe('copying the bill number', () => {
    let restore: () => void;
    afterEach(() => restore?.());

    function stubClipboard(write: (text: string) => Promise<void>) {
      const clipboard = navigator.clipboard;
      Object.defineProperty(clipboard, 'writeText', { value: write, configurable: true });
      restore = () => delete (clipboard as unknown as Record<string, unknown>)['writeText'];
    }

    it('copies the number exactly as issued and announces the copy', async () => {
      const copied: string[] = [];
      stubClipboard(async (text) => void copied.push(text));
      const el = await voucher();
      await issue(el);
      const event = oneEvent(el, 'pg-bill-copy') as Promise<PgBillCopyEvent>;
      shadowQuery(el, 'button.copy').click();
      expect((await event).billNumber).to.equal(el.issuedBill!.billNumber);
      await el.updateComplete;
      expect(copied).to.deep.equal([el.issuedBill!.billNumber]);
      expect(status(el)).to.equal('Bill number copied.');
      expect(textOf(shadowQuery(el, 'button.copy'))).to.equal('Copied');
    });

    it('puts the button back after a few seconds', async () => {
      stubClipboard(async () => {});
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      await el.copyBillNumber();
      await el.updateComplete;
      expect(textOf(shadowQuery(el, 'button.copy'))).to.equal('Copied');
      clock.advance(3000);
      await el.updateComplete;
      expect(textOf(shadowQuery(el, 'button.copy'))).to.equal('Copy');
    });

    it('selects the number and says so when copying is not allowed', async () => {
      stubClipboard(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
      const execCommand = document.execCommand;
      document.execCommand = () => false;
      try {
        const el = await voucher();
        await issue(el);
        expect(await el.copyBillNumber()).to.equal(false);
        await el.updateComplete;
        expect(status(el)).to.contain('Select the bill number');
        expect(getSelection()?.toString().replace(/\s/g, '')).to.contain(el.issuedBill!.billNumber);
      } finally {
        document.execCommand = execCommand;
      }
    });
  });

  describe('the countdown', () => {
    it('shows the time left and moves with the clock', async () => {
      const clock = createManualClock(STORED_EXPIRY - 90_000);
      const el = await storedVoucher({ clock });
      expect(countdown(el)).to.equal('1:30');
      clock.advance(1000);
      await el.updateComplete;
      expect(countdown(el)).to.equal('1:29');
      clock.advance(29_000);
      await el.updateComplete;
      expect(countdown(el)).to.equal('1:00');
    });

    it('counts days and hours when the expiry is far', async () => {
      const clock = createManualClock(STORED_EXPIRY - (2 * 86_400 + 3 * 3600 + 4 * 60 + 5) * 1000);
      const el = await storedVoucher({ clock });
      expect(countdown(el)).to.equal('2 days, 3:04:05');
    });

    it('is a timer labelled "Time left"', async () => {
      const el = await storedVoucher();
      const timer = shadowQuery(el, '[role="timer"]');
      const label = shadowQuery(el, `#${timer.getAttribute('aria-labelledby')}`);
      expect(textOf(label)).to.equal('Time left');
    });

    it('wakes only when the clock passes a second, never by itself', async () => {
      const clock = createManualClock(STORED_EXPIRY - 90_000);
      await storedVoucher({ clock });
      expect(clock.pending).to.equal(1);
    });
  });

  describe('when the expiry passes unpaid', () => {
    it('says the hold is cancelled and fires pg-bill-expire', async () => {
      const clock = createManualClock(STORED_EXPIRY - 2000);
      const el = await storedVoucher({ clock });
      const expired = oneEvent(el, 'pg-bill-expire') as Promise<PgBillExpireEvent>;
      clock.advance(2000);
      expect((await expired).billNumber).to.equal(STORED.billNumber);
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '.title'))).to.equal('This bill has expired');
      expect(textOf(shadowQuery(el, '.bill.expired'))).to.contain('The hold on your order is cancelled');
      expect(status(el)).to.equal('The bill has expired. The hold on your order is cancelled.');
      expect(el.matches(':state(expired)')).to.equal(true);
      expect(shadowQueryAll(el, 'button.copy, [part~="countdown"], a.calendar')).to.have.length(0);
      expect(clock.pending).to.equal(0);
    });

    it('expires an issued bill at the expiry the gateway gave', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      const expiresAt = parseExpiry(el.issuedBill!.expires)!;
      clock.set(expiresAt - 1);
      await el.updateComplete;
      expect(shadowQueryAll(el, '.bill.expired')).to.have.length(0);
      clock.set(expiresAt);
      await settled(el);
      expect(shadowQueryAll(el, '.bill.expired')).to.have.length(1);
      // The gateway agrees: the hold is cancelled and the bill can no longer be paid.
      expect(network.gateway.payBill(el.issuedBill!.billNumber)).to.deep.include({ ok: false, code: '31001' });
    });

    it('does not offer a new bill unless the merchant allows it', async () => {
      const el = await storedVoucher({ expires: '2020-01-01T00:00:00+02:00' });
      expect(shadowQueryAll(el, 'button.reissue')).to.have.length(0);
    });

    it('issues a new bill for the order the merchant names, when allowed', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock, allowReissue: true });
      await issue(el);
      const first = el.issuedBill!;
      clock.set(parseExpiry(first.expires)!);
      await settled(el);

      const replacement = newOrder();
      el.addEventListener('pg-bill-reissue', (event: PgBillReissueEvent) => {
        expect(event.expiredBillNumber).to.equal(first.billNumber);
        event.respondWith(Promise.resolve(replacement));
      });
      shadowQuery(el, 'button.reissue').click();
      await settled(el);
      await settled(el);
      const second = el.issuedBill!;
      expect(second.merchantReference).to.equal(replacement);
      expect(second.billNumber).to.not.equal(first.billNumber);
      expect(network.requestsTo('/bill').map((request) => request.fields?.['merchant_reference'])).to.deep.equal([
        first.merchantReference,
        replacement,
      ]);
      expect(billNumberText(el)).to.equal(second.billNumber);
      expect(shadowQueryAll(el, '.bill.expired')).to.have.length(0);
      // The expired bill is forgotten under its own order, the new one kept under the new order.
      expect(sessionStorage.getItem(`pg-bill-voucher:${first.merchantReference}`)).to.equal(null);
      expect(sessionStorage.getItem(`pg-bill-voucher:${replacement}`)).to.not.equal(null);
    });

    it('leaves a new bill to the merchant when the reissue event is cancelled', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock, allowReissue: true });
      await issue(el);
      clock.set(parseExpiry(el.issuedBill!.expires)!);
      await settled(el);
      el.addEventListener('pg-bill-reissue', (event) => event.preventDefault());
      shadowQuery(el, 'button.reissue').click();
      await settled(el);
      expect(network.requestsTo('/bill')).to.have.length(1);
      expect(shadowQueryAll(el, '.bill.expired')).to.have.length(1);
    });
  });

  describe('at the expiry, the endpoint is asked whether the bill was paid before anything is said', () => {
    it('says the bill is paid, and fires pg-bill-paid, when the customer paid it at the counter', async () => {
      const clock = createManualClock(Date.now());
      const reference = newOrder();
      const el = await voucher({ clock, reference });
      await issue(el);
      const { billNumber, expires } = el.issuedBill!;
      expect(network.gateway.payBill(billNumber)).to.deep.include({ ok: true });
      const events = recordEvents(el, 'pg-bill-paid', 'pg-bill-expire');
      clock.set(parseExpiry(expires)!);
      await settled(el);
      expect(events.map((event) => event.type)).to.deep.equal(['pg-bill-paid']);
      const paid = events[0] as PgBillPaidEvent;
      expect([paid.billNumber, paid.merchantReference]).to.deep.equal([billNumber, reference]);
      expect(title(el)).to.equal('This bill has been paid');
      expect(plain(textOf(shadowQuery(el, '[part~="paid"]')))).to.contain('has been paid. Thank you: your order is paid.');
      expect(status(el)).to.equal('This bill has been paid');
      expect(el.matches(':state(paid)')).to.equal(true);
      expect(el.matches(':state(expired)')).to.equal(false);
      expect(shadowQueryAll(el, '.bill.expired, button.copy, [part~="countdown"]')).to.have.length(0);
      expect(network.requestsTo('/status').map((request) => request.fields?.['merchant_reference'])).to.deep.equal([reference]);
    });

    it('says the order is paid, not the bill, when a card paid it under its next attempt after the bill expired', async () => {
      const clock = createManualClock(Date.now());
      const reference = newOrder();
      const el = await voucher({ clock, reference, allowReissue: true });
      await issue(el);
      // The status route names the attempt whose money it shows when it is not the order's own.
      network.transformAnswer('/status', (answer) => ({ ...answer, authorized_amount: 250_000, captured_amount: 250_000, payment_reference: `${reference}.pg2` }));
      const events = recordEvents(el, 'pg-bill-paid', 'pg-bill-expire');
      clock.set(parseExpiry(el.issuedBill!.expires)!);
      await settled(el);
      expect(events.map((event) => event.type)).to.deep.equal(['pg-bill-expire']);
      expect((events[0] as PgBillExpireEvent).orderPaid).to.equal(true);
      expect(title(el)).to.equal('Your order has been paid');
      expect(plain(textOf(shadowQuery(el, '[part~="order-paid"]')))).to.contain('It was paid another way.').and.to.contain('expired unpaid; nothing is due on it.');
      expect(status(el)).to.equal('Your order has been paid');
      expect(el.matches(':state(expired)')).to.equal(true);
      expect(el.matches(':state(paid)')).to.equal(false);
      expect(shadowQueryAll(el, 'button.reissue, button.copy, [part~="countdown"]')).to.have.length(0);
    });

    it('says so in Arabic', async () => {
      const clock = createManualClock(Date.now());
      const reference = newOrder();
      const el = await voucher({ clock, reference, language: 'ar' });
      await issue(el);
      network.transformAnswer('/status', (answer) => ({ ...answer, authorized_amount: 250_000, captured_amount: 250_000, payment_reference: `${reference}.pg2` }));
      clock.set(parseExpiry(el.issuedBill!.expires)!);
      await settled(el);
      expect(title(el)).to.equal('تم دفع طلبك');
      expect(plain(textOf(shadowQuery(el, '[part~="order-paid"]')))).to.contain('دُفع الطلب بطريقة أخرى');
    });

    it('says the bill expired, and fires pg-bill-expire, once the endpoint shows it unpaid', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      const events = recordEvents(el, 'pg-bill-paid', 'pg-bill-expire');
      clock.set(parseExpiry(el.issuedBill!.expires)!);
      await settled(el);
      expect(network.requestsTo('/status')).to.have.length(1);
      expect(events.map((event) => event.type)).to.deep.equal(['pg-bill-expire']);
      expect(title(el)).to.equal('This bill has expired');
      expect(el.matches(':state(expired)')).to.equal(true);
    });

    it('says checking in place of the countdown while the endpoint answers, and nothing else', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      const release = network.holdEndpoint();
      clock.set(parseExpiry(el.issuedBill!.expires)!);
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '[part~="countdown"]'))).to.equal('Checking whether the bill has been paid…');
      expect(shadowQueryAll(el, '.bill.expired')).to.have.length(0);
      expect(el.matches(':state(expired)')).to.equal(false);
      release();
      await settled(el);
      expect(el.matches(':state(expired)')).to.equal(true);
    });

    it('never says "expired unpaid" when the endpoint cannot be reached: the payment is not confirmed yet, with a retry', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      network.gateway.payBill(el.issuedBill!.billNumber);
      const events = recordEvents(el, 'pg-bill-paid', 'pg-bill-expire');
      network.endpointUnreachable();
      clock.set(parseExpiry(el.issuedBill!.expires)!);
      await settled(el);
      expect(events).to.have.length(0);
      expect(el.matches(':state(expired)')).to.equal(false);
      expect(shadowQueryAll(el, '.bill.expired')).to.have.length(0);
      expect(title(el)).to.equal('Payment not confirmed yet');
      expect(textOf(shadowQuery(el, '[part~="unconfirmed"]'))).to.contain(
        'We could not check whether this bill has been paid. If you paid it, keep your receipt.',
      );
      expect(textOf(shadowQuery(el, '[part~="error"]'))).to.equal('We could not reach the payment service. Check your connection and try again.');
      expect(status(el)).to.equal('We could not check whether this bill has been paid. If you paid it, keep your receipt.');

      network.worker.resetHandlers();
      await checkAgain(el);
      expect(events.map((event) => event.type)).to.deep.equal(['pg-bill-paid']);
      expect(title(el)).to.equal('This bill has been paid');
    });

    it('says expired after a retry when the endpoint, reachable again, shows the bill unpaid', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      network.endpointUnreachable();
      clock.set(parseExpiry(el.issuedBill!.expires)!);
      await settled(el);
      network.worker.resetHandlers();
      await checkAgain(el);
      expect(el.matches(':state(expired)')).to.equal(true);
    });

    it('asks before saying anything of a bill this session remembers, shown again after its expiry (a reload)', async () => {
      const clock = createManualClock(Date.now());
      const reference = newOrder();
      const first = await voucher({ clock, reference });
      await issue(first);
      const { billNumber, expires } = first.issuedBill!;
      network.gateway.payBill(billNumber);
      first.remove();
      clock.set(parseExpiry(expires)! + 3_600_000);

      const again = await voucher({ clock, reference });
      expect(again.issuedBill?.billNumber).to.equal(billNumber);
      expect(title(again)).to.equal('This bill has been paid');
      expect(again.matches(':state(expired)')).to.equal(false);
      expect(network.requestsTo('/bill')).to.have.length(1);
      expect(network.requestsTo('/status')).to.have.length(1);
      // Shown on load, not under the customer's hand: focus stays where the page has it.
      expect(document.activeElement).to.equal(document.body);
    });

    it('says a remembered bill shown again after its expiry has expired only once the endpoint shows it unpaid', async () => {
      const clock = createManualClock(Date.now());
      const reference = newOrder();
      const first = await voucher({ clock, reference });
      await issue(first);
      first.remove();
      clock.set(parseExpiry(first.issuedBill!.expires)! + 3_600_000);
      const again = await voucher({ clock, reference });
      expect(network.requestsTo('/status')).to.have.length(1);
      expect(title(again)).to.equal('This bill has expired');
    });

    it('says it in Arabic', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock, language: 'ar' });
      await issue(el);
      network.gateway.payBill(el.issuedBill!.billNumber);
      clock.set(parseExpiry(el.issuedBill!.expires)!);
      await settled(el);
      expect(title(el)).to.equal('تم دفع هذه الفاتورة');
      expect(status(el)).to.equal('تم دفع هذه الفاتورة');
    });
  });

  describe('when the customer comes back to the tab while the bill waits', () => {
    it('asks whether the bill was paid, and shows it paid', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      network.gateway.payBill(el.issuedBill!.billNumber);
      const paid = recordEvents(el, 'pg-bill-paid');
      await tabBecomes('visible', el);
      expect(network.requestsTo('/status')).to.have.length(1);
      expect(paid).to.have.length(1);
      expect(title(el)).to.equal('This bill has been paid');
      expect(el.matches(':state(paid)')).to.equal(true);
    });

    it('asks at most once in 30 seconds, never while the tab is hidden, and leaves an unpaid bill as it was', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      const asked = () => network.requestsTo('/status').length;
      await tabBecomes('visible', el);
      expect(asked()).to.equal(1);
      expect(shadowQueryAll(el, '[part~="countdown"]')).to.have.length(1);
      expect(el.matches(':state(expired)') || el.matches(':state(paid)')).to.equal(false);
      await tabBecomes('visible', el);
      clock.advance(29_999);
      await tabBecomes('visible', el);
      expect(asked()).to.equal(1);
      clock.advance(1);
      await tabBecomes('hidden', el);
      expect(asked()).to.equal(1);
      await tabBecomes('visible', el);
      expect(asked()).to.equal(2);
      expect(shadowQueryAll(el, '[part~="countdown"]')).to.have.length(1);
    });

    it('keeps the bill waiting, with nothing to say, when the endpoint cannot be reached', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      network.endpointUnreachable();
      await tabBecomes('visible', el);
      expect(shadowQueryAll(el, '[part~="countdown"]')).to.have.length(1);
      expect(shadowQueryAll(el, '[part~="error"], .unconfirmed')).to.have.length(0);
    });

    it('asks nothing for a stored bill the page gives without an endpoint', async () => {
      const el = await storedVoucher();
      await tabBecomes('visible', el);
      expect(network.endpointRequests).to.have.length(0);
    });
  });

  describe('a stored bill (order history, e-mail landing page)', () => {
    it('renders from its attributes without calling the endpoint', async () => {
      const el = await storedVoucher();
      expect(billNumberText(el)).to.equal(STORED.billNumber);
      expect(groups(el)).to.deep.equal(['1234', '5678', '9012', '34']);
      expect(plain(textOf(shadowQuery(el, '[part~="amount"]')))).to.equal(egp(STORED.amount));
      expect(textOf(shadowQuery(el, 'time'))).to.equal(formatExpiry(STORED_EXPIRY, 'en', 'Africa/Cairo'));
      expect(shadowQuery(el, 'time').getAttribute('datetime')).to.equal('2026-12-01T10:00:00.000Z');
      expect(network.endpointRequests).to.have.length(0);
    });

    it('keeps every detail within its own space at any width, the bill number included (English and Arabic)', async () => {
      for (const language of ['en', 'ar'] as const) {
        const el = await storedVoucher({ language });
        for (const width of [320, 600, 900, 1280]) {
          el.style.display = 'block';
          el.style.inlineSize = `${width}px`;
          await el.updateComplete;
          for (const row of shadowQueryAll(el, '.details > .row')) {
            expect(row.scrollWidth, `${language}, ${width} px: ${textOf(row)}`).to.be.at.most(row.clientWidth + 1);
          }
        }
      }
    });

    it('on an Arabic page names the partner and the viewer’s time zone in Arabic', async () => {
      const el = await fixture<PgBillVoucher>(html`
        <pg-bill-voucher
          language="ar"
          bill-number=${STORED.billNumber}
          expires=${STORED.expires}
          payment-partner=${VOUCHER_PARTNER_CODE}
          .clock=${createManualClock(STORED_EXPIRY - 90_000)}
        ></pg-bill-voucher>
      `);
      await settled(el);
      expect(textOf(shadowQuery(el, '[part~="partner"]'))).to.equal('منافذ الدفع التجريبية');
      // No time-zone attribute: the browser's zone, named in words of the page's language.
      const expiry = textOf(shadowQuery(el, 'time'));
      expect(expiry).to.match(/ديسمبر/);
      expect(expiry).not.to.match(/[A-Za-z]/);
    });

    it('renders an expired stored bill as expired, still without a request', async () => {
      const el = await storedVoucher({ clock: createManualClock(STORED_EXPIRY + 1) });
      expect(shadowQueryAll(el, '.bill.expired')).to.have.length(1);
      expect(network.endpointRequests).to.have.length(0);
    });

    it('says so when the stored bill is not valid', async () => {
      const el = await storedVoucher({ billNumber: '1234-5678' });
      expect(textOf(shadowQuery(el, '.error'))).to.contain('cannot be shown');
      expect(network.endpointRequests).to.have.length(0);
    });

    it('shows the same bill again after a refresh of checkout, without a second request', async () => {
      const reference = newOrder();
      const first = await voucher({ reference });
      await issue(first);
      const billNumber = first.issuedBill!.billNumber;
      first.remove();
      const again = await voucher({ reference });
      expect(again.issuedBill?.billNumber).to.equal(billNumber);
      expect(network.requestsTo('/bill')).to.have.length(1);
    });
  });

  describe('the calendar reminder and the print layout', () => {
    it('downloads an .ics reminder that ends at the expiry', async () => {
      const el = await storedVoucher();
      const link = shadowQuery<HTMLAnchorElement>(el, 'a.calendar');
      expect(link.download).to.equal(`bill-${STORED.billNumber}.ics`);
      expect(link.href.startsWith('data:text/calendar;charset=utf-8,')).to.equal(true);
      const text = decodeURIComponent(link.href.slice(link.href.indexOf(',') + 1));
      expect(text).to.contain('\r\nDTEND:20261201T100000Z\r\n');
      expect(text).to.contain(`UID:bill-${STORED.billNumber}@pg-checkout`);
      expect(text).to.contain('SUMMARY;LANGUAGE=en:Pay bill 1234 5678 9012 34 at Sandbox Cash Outlets');
    });

    it('writes the reminder in the page language', async () => {
      const el = await storedVoucher({ language: 'ar' });
      const link = shadowQuery<HTMLAnchorElement>(el, 'a.calendar');
      const text = decodeURIComponent(link.href.slice(link.href.indexOf(',') + 1));
      expect(text).to.contain('SUMMARY;LANGUAGE=ar:ادفع الفاتورة');
    });

    it('prints a plain slip: number, amount and expiry without buttons or countdown', async () => {
      const el = await storedVoucher();
      await emulateMedia({ media: 'print' });
      try {
        expect(getComputedStyle(shadowQuery(el, 'button.copy')).display).to.equal('none');
        expect(getComputedStyle(shadowQuery(el, 'a.calendar')).display).to.equal('none');
        expect(getComputedStyle(shadowQuery(el, '.time-left')).display).to.equal('none');
        expect(getComputedStyle(shadowQuery(el, '.bill-number')).display).to.not.equal('none');
        expect(getComputedStyle(shadowQuery(el, 'time')).display).to.not.equal('none');
      } finally {
        await emulateMedia({ media: 'screen' });
      }
    });

    it('prints the page from the print button', async () => {
      const el = await storedVoucher();
      let printed = 0;
      const print = window.print;
      window.print = () => void (printed += 1);
      try {
        shadowQuery(el, 'button.print').click();
      } finally {
        window.print = print;
      }
      expect(printed).to.equal(1);
    });
  });

  describe('in Arabic', () => {
    it('is right-to-left with the bill number, amount and countdown as left-to-right islands', async () => {
      const el = await storedVoucher({ language: 'ar' });
      expect(shadowQuery(el, '.frame').getAttribute('dir')).to.equal('rtl');
      expect(shadowQuery(el, '.bill-number').closest('bdi')?.getAttribute('dir')).to.equal('ltr');
      expect(shadowQuery(el, '[part~="amount"] bdi').getAttribute('dir')).to.equal('ltr');
      expect(shadowQuery(el, '[part~="countdown"] bdi').getAttribute('dir')).to.equal('ltr');
      expect(billNumberText(el)).to.equal(STORED.billNumber);
    });

    it('writes the expiry date and the countdown in Arabic', async () => {
      const el = await storedVoucher({ language: 'ar' });
      expect(textOf(shadowQuery(el, 'time'))).to.contain('ديسمبر');
      expect(countdown(el)).to.equal('١:٣٠');
      expect(plain(textOf(shadowQuery(el, '[part~="amount"]')))).to.equal(egp(STORED.amount, 'ar'));
    });

    it('tells where to pay in words that agree with the partner’s name, or with none', async () => {
      const firstStep = (el: PgBillVoucher) => textOf(shadowQuery(el, '[part~="instructions"] li'));
      const named = await storedVoucher({ language: 'ar' });
      expect(textOf(shadowQuery(named, '.instructions-title'))).to.equal('كيفية الدفع');
      expect(firstStep(named)).to.equal('توجّه إلى منافذ الدفع التجريبية أو أحد وكلائها.');
      const unnamed = await storedVoucher({ language: 'ar', partner: '' });
      expect(firstStep(unnamed)).to.equal('توجّه إلى منافذ الدفع أو أحد وكلائها.');
    });

    it('numbers the steps to pay in Arabic-Indic digits, as the amounts are', async () => {
      const arabic = await storedVoucher({ language: 'ar' });
      expect(getComputedStyle(shadowQuery(arabic, '.instructions')).listStyleType).to.equal('arabic-indic');
      const english = await storedVoucher({ language: 'en' });
      expect(getComputedStyle(shadowQuery(english, '.instructions')).listStyleType).to.equal('decimal');
    });
  });

  describe('keyboard', () => {
    it('moves focus to the bill’s title once it is issued, instead of losing it with the button', async () => {
      const el = await voucher();
      await tabTo('button.issue');
      await pressKey('Enter');
      await settled(el);
      expect(el.issuedBill).to.not.equal(undefined);
      assertFocused(shadowQuery(el, '#bill-title'));
      expect(shadowQuery(el, '#bill-title').tabIndex).to.equal(-1);
    });

    it('leaves focus and the page where they are when the page issues the bill itself (auto-issue)', async () => {
      const el = await fixture<PgBillVoucher>(html`
        <pg-bill-voucher endpoint=${ENDPOINT} merchant-reference=${newOrder()} language="en" time-zone="Africa/Cairo" auto-issue></pg-bill-voucher>
      `);
      await settled(el);
      await settled(el);
      expect(el.issuedBill).to.not.equal(undefined);
      expect(document.activeElement).to.equal(document.body);
    });

    it('moves focus to the expired notice when the bill expires under the customer’s focus', async () => {
      const clock = createManualClock(Date.now());
      const el = await voucher({ clock });
      await issue(el);
      await tabTo('button.copy');
      clock.set(parseExpiry(el.issuedBill!.expires)!);
      await settled(el);
      const title = shadowQuery(el, '#bill-title');
      expect(textOf(title)).to.equal('This bill has expired');
      assertFocused(title);
    });

    it('leaves focus where it is when the customer is elsewhere on the page at the expiry', async () => {
      const clock = createManualClock(STORED_EXPIRY - 1000);
      const el = await storedVoucher({ clock });
      const elsewhere = document.createElement('input');
      document.body.append(elsewhere);
      try {
        elsewhere.focus();
        clock.advance(1000);
        await el.updateComplete;
        expect(shadowQueryAll(el, '.bill.expired')).to.have.length(1);
        assertFocused(elsewhere);
      } finally {
        elsewhere.remove();
      }
    });

    it('issues and copies the bill with the keyboard only', async () => {
      const copied: string[] = [];
      const clipboard = navigator.clipboard;
      Object.defineProperty(clipboard, 'writeText', { value: async (text: string) => void copied.push(text), configurable: true });
      try {
        const el = await voucher();
        const events = recordEvents(el, 'pg-bill-issue', 'pg-bill-copy');
        await tabTo('button.issue');
        await pressKey('Enter');
        await settled(el);
        expect(el.issuedBill?.billNumber).to.match(/^\d+$/);
        await tabTo('button.copy');
        expect(deepActiveElement()?.matches('button.copy')).to.equal(true);
        await pressKey('Enter');
        await el.updateComplete;
        expect(copied).to.deep.equal([el.issuedBill!.billNumber]);
        expect(events.map((event) => event.type)).to.deep.equal(['pg-bill-issue', 'pg-bill-copy']);
        await tabTo('a.calendar');
        await tabTo('button.print');
      } finally {
        delete (clipboard as unknown as Record<string, unknown>)['writeText'];
      }
    });
  });
});
