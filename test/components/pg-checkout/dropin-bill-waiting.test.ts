import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import type { PgBillVoucher } from '../../../src/components/pg-bill-voucher/pg-bill-voucher.ts';
import { billMemoryKey } from '../../../src/components/pg-bill-voucher/bill-key.ts';
import { createManualClock, parseExpiry, type ManualClock } from '../../../src/core/voucher.ts';
import { assertFocused, choose, deepActiveElement, pressKey, recordEvents, settled, shadowQuery, shadowQueryAll, textOf } from '../support/dom.ts';
import { ENDPOINT, startNetwork, type TestNetwork } from '../support/network.ts';

const WAITING = {
  en: 'Your order is waiting for this cash bill to be paid; other methods return if it expires unpaid.',
  ar: 'طلبك بانتظار دفع هذه الفاتورة النقدية؛ تعود طرق الدفع الأخرى إذا انتهت صلاحيتها دون دفع.',
};
const EXPIRED = {
  en: 'The cash bill expired unpaid. Choose another payment method.',
  ar: 'انتهت صلاحية الفاتورة النقدية دون دفع. اختر طريقة دفع أخرى.',
};

describe('<pg-checkout mode="drop-in"> once a cash bill is issued for the order', () => {
  let network: TestNetwork;
  let orderCount = 0;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => {
    network.reset();
    sessionStorage.clear();
  });

  /** A fresh EGP order, so that each test issues its order's first bill. */
  function newOrder(): string {
    orderCount += 1;
    const reference = `dropin-bill-${Date.now()}-${orderCount}`;
    network.orders.add({ merchant_reference: reference, amount: 250_000, currency: 'EGP', description: 'Headphones' });
    return reference;
  }

  async function dropIn(options: { reference?: string; method?: string; language?: 'en' | 'ar' } = {}) {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout
        mode="drop-in"
        methods="card installments voucher financing"
        method=${options.method ?? 'voucher'}
        endpoint=${ENDPOINT}
        merchant-reference=${options.reference ?? newOrder()}
        language=${options.language ?? 'en'}
      ></pg-checkout>
    `);
    await settled(el);
    return el;
  }

  const voucherOf = (el: PgCheckout) => shadowQuery<PgBillVoucher>(el, 'pg-bill-voucher');
  const radio = (el: PgCheckout, method: string) => shadowQuery<HTMLInputElement>(el, `input[name="method"][value="${method}"]`);
  const offered = (el: PgCheckout) =>
    shadowQueryAll<HTMLInputElement>(el, 'input[name="method"]')
      .filter((input) => !input.disabled)
      .map((input) => input.value);
  const status = (el: PgCheckout) => textOf(shadowQuery(el, '.frame > [role="status"]'));

  /** The customer asks for a bill in the voucher method; the endpoint, the gateway and the voucher read `clock`. */
  async function issueBill(el: PgCheckout, clock: ManualClock = createManualClock(Date.now())) {
    network.setClock(() => new Date(clock.now()));
    const voucher = voucherOf(el);
    voucher.clock = clock;
    await settled(el);
    shadowQuery(voucher, 'button.issue').click();
    await settled(el);
    expect(voucher.issuedBill, 'the bill is issued').not.to.equal(undefined);
    return { voucher, clock, expiresAt: parseExpiry(voucher.issuedBill!.expires)! };
  }

  /**
   * The note the method choices are described by (aria-describedby), or null: every radio, the
   * focusable one (the bill's) included, names the same note.
   */
  function methodsNote(el: PgCheckout): HTMLElement | null {
    const ids = [...el.shadowRoot!.querySelectorAll('input[name="method"]')].map((input) => input.getAttribute('aria-describedby'));
    expect(new Set(ids).size, `one note for every method: ${ids.join(', ')}`).to.equal(1);
    return ids[0] ? el.shadowRoot!.getElementById(ids[0]) : null;
  }

  for (const language of ['en', 'ar'] as const) {
    it(`passes an accessibility check in ${language} while the bill waits and once it has expired`, async () => {
      const el = await dropIn({ language });
      const { clock, expiresAt } = await issueBill(el);
      await expect(el).to.be.accessible();
      clock.set(expiresAt);
      await settled(el);
      await expect(el).to.be.accessible();
    });
  }

  describe('while the bill waits to be paid', () => {
    it('keeps the bill in view and says the order is waiting for it, the reason tied to the methods', async () => {
      const el = await dropIn();
      const { voucher } = await issueBill(el);
      expect(textOf(shadowQuery(voucher, '.bill-number [aria-hidden="true"]'))).to.equal(voucher.issuedBill!.billNumber);
      expect(textOf(methodsNote(el))).to.equal(WAITING.en);
    });

    it('does not let the customer choose another method, so no card is refused for the waiting bill', async () => {
      const el = await dropIn();
      const { voucher } = await issueBill(el);
      expect(offered(el)).to.deep.equal(['voucher']);
      expect(radio(el, 'voucher').checked).to.equal(true);
      // Shown as unavailable, not only left unchecked.
      expect(shadowQueryAll(el, 'label.method.muted').map(textOf)).to.deep.equal(['Card', 'Installments', 'Consumer financing']);
      const changes = recordEvents(el, 'pg-method-change');
      shadowQuery(el, 'label.method').click(); // the card's label
      await settled(el);
      expect(changes).to.have.length(0);
      expect(el.shadowRoot!.querySelector('#card-number')).to.equal(null);
      expect(shadowQuery(el, '.method-panel pg-bill-voucher')).to.equal(voucher);
      expect(network.requestsTo('/merchant-page')).to.have.length(0);
    });

    it('keeps the bill in view when the page sets another method meanwhile', async () => {
      const el = await dropIn();
      const { voucher } = await issueBill(el);
      el.method = 'card';
      await settled(el);
      expect(el.shadowRoot!.querySelector('#card-number')).to.equal(null);
      expect(shadowQuery(el, '.method-panel pg-bill-voucher')).to.equal(voucher);
      expect(radio(el, 'voucher').checked).to.equal(true);
    });

    it('leaves focus on the bill, and the arrow keys in the methods stay on the cash bill', async () => {
      const el = await dropIn();
      const { voucher } = await issueBill(el);
      assertFocused(shadowQuery(voucher, '#bill-title'));
      // Back from the bill to the methods: the cash bill's choice, the only one left.
      await sendKeys({ down: 'Shift' });
      await pressKey('Tab');
      await sendKeys({ up: 'Shift' });
      assertFocused(radio(el, 'voucher'));
      for (const key of ['ArrowRight', 'ArrowLeft']) {
        await pressKey(key);
        await el.updateComplete;
        expect(el.method, key).to.equal('voucher');
        assertFocused(radio(el, 'voucher'));
      }
      expect(voucherOf(el)).to.equal(voucher);
    });

    it('says it in Arabic, right to left', async () => {
      const el = await dropIn({ language: 'ar' });
      await issueBill(el);
      expect(shadowQuery(el, '.frame').getAttribute('dir')).to.equal('rtl');
      expect(textOf(methodsNote(el))).to.equal(WAITING.ar);
      expect(offered(el)).to.deep.equal(['voucher']);
    });

    it('shows the bill again, with the other methods unavailable, when the page is loaded again in the same session', async () => {
      const reference = newOrder();
      const first = await dropIn({ reference });
      const { voucher } = await issueBill(first);
      const billNumber = voucher.issuedBill!.billNumber;
      first.remove();

      const el = await dropIn({ reference, method: 'card' });
      expect(voucherOf(el).issuedBill?.billNumber).to.equal(billNumber);
      expect(el.shadowRoot!.querySelector('#card-number')).to.equal(null);
      expect(offered(el)).to.deep.equal(['voucher']);
      expect(textOf(methodsNote(el))).to.equal(WAITING.en);
      expect(network.requestsTo('/bill')).to.have.length(1);
    });
  });

  // The drop-in no longer reads the expiry itself (its voucher does, with the core's parseExpiry, and asks the
  // endpoint once it has passed); this keeps a gateway's "+0200" from ever unlocking the other methods early.
  describe('a remembered bill whose expiry the gateway wrote with its offset\'s colon left out (+0200)', () => {
    it('still reads as waiting after a reload', async () => {
      const reference = newOrder();
      const first = await dropIn({ reference });
      await issueBill(first);
      first.remove();
      const key = billMemoryKey(reference);
      const kept = JSON.parse(sessionStorage.getItem(key)!) as Record<string, unknown>;
      // Two days on, as the gateway may write it: Cairo time, "+0200".
      const inCairo = new Date(Date.now() + 2 * 86_400_000 + 2 * 3_600_000).toISOString().slice(0, 19);
      sessionStorage.setItem(key, JSON.stringify({ ...kept, request_expiry_date: `${inCairo}+0200` }));

      const el = await dropIn({ reference, method: 'card' });
      expect(offered(el)).to.deep.equal(['voucher']);
      expect(textOf(methodsNote(el))).to.equal(WAITING.en);
    });
  });

  describe('once the bill has expired unpaid', () => {
    it('says so, and offers the other methods again', async () => {
      const el = await dropIn();
      const { voucher, clock, expiresAt } = await issueBill(el);
      clock.set(expiresAt);
      await settled(el);
      expect(voucher.matches(':state(expired)')).to.equal(true);
      expect(textOf(methodsNote(el))).to.equal(EXPIRED.en);
      expect(status(el)).to.equal(EXPIRED.en);
      expect(offered(el)).to.deep.equal(['card', 'installments', 'voucher', 'financing']);
      choose(radio(el, 'card'));
      await settled(el);
      expect(el.method).to.equal('card');
      expect(shadowQuery(el, '#card-number')).not.to.equal(null);
    });

    it('says so in Arabic', async () => {
      const el = await dropIn({ language: 'ar' });
      const { clock, expiresAt } = await issueBill(el);
      clock.set(expiresAt);
      await settled(el);
      expect(textOf(methodsNote(el))).to.equal(EXPIRED.ar);
      expect(status(el)).to.equal(EXPIRED.ar);
    });

    it('keeps focus on the expired bill', async () => {
      const el = await dropIn();
      const { voucher, clock, expiresAt } = await issueBill(el);
      clock.set(expiresAt);
      await settled(el);
      expect(deepActiveElement()).to.equal(shadowQuery(voucher, '#bill-title'));
    });

    it('says so, with every method offered, when the page is loaded again after the bill this session remembers expired', async () => {
      const reference = newOrder();
      const first = await dropIn({ reference });
      // Issued three days ago: its expiry has passed by now.
      await issueBill(first, createManualClock(Date.now() - 3 * 24 * 3600_000));
      first.remove();
      network.setClock(() => new Date());

      const el = await dropIn({ reference, method: 'card' });
      expect(shadowQuery(el, '#card-number')).not.to.equal(null);
      expect(offered(el)).to.deep.equal(['card', 'installments', 'voucher', 'financing']);
      expect(textOf(methodsNote(el))).to.equal(EXPIRED.en);
    });
  });
});
