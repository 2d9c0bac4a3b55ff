import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import type { PgBillVoucher } from '../../../src/components/pg-bill-voucher/pg-bill-voucher.ts';
import { createManualClock, parseExpiry, type ManualClock } from '../../../src/core/voucher.ts';
import { recordEvents, settled, shadowQuery, shadowQueryAll, textOf } from '../support/dom.ts';
import { ENDPOINT, startNetwork, type TestNetwork } from '../support/network.ts';

describe('<pg-checkout mode="drop-in"> once the cash bill is paid at the counter', () => {
  let network: TestNetwork;
  let orderCount = 0;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => {
    network.reset();
    sessionStorage.clear();
  });

  function newOrder(): string {
    orderCount += 1;
    const reference = `dropin-bill-paid-${Date.now()}-${orderCount}`;
    network.orders.add({ merchant_reference: reference, amount: 250_000, currency: 'EGP', description: 'Headphones' });
    return reference;
  }

  async function dropIn(reference: string, clock: ManualClock, method = 'voucher') {
    network.setClock(() => new Date(clock.now()));
    const el = await fixture<PgCheckout>(html`
      <pg-checkout
        mode="drop-in"
        methods="card installments voucher financing"
        method=${method}
        endpoint=${ENDPOINT}
        merchant-reference=${reference}
        language="en"
      ></pg-checkout>
    `);
    const voucher = el.shadowRoot?.querySelector<PgBillVoucher>('pg-bill-voucher');
    if (voucher) voucher.clock = clock;
    await settled(el);
    return el;
  }

  const voucherOf = (el: PgCheckout) => shadowQuery<PgBillVoucher>(el, 'pg-bill-voucher');
  const offered = (el: PgCheckout) =>
    shadowQueryAll<HTMLInputElement>(el, 'input[name="method"]')
      .filter((input) => !input.disabled)
      .map((input) => input.value);

  /** Issues the order's bill in the voucher method and pays it at the counter (the sandbox), before its expiry. */
  async function issueAndPay(el: PgCheckout) {
    const voucher = voucherOf(el);
    shadowQuery(voucher, 'button.issue').click();
    await settled(el);
    const bill = voucher.issuedBill!;
    expect(network.gateway.payBill(bill.billNumber)).to.deep.include({ ok: true });
    return { voucher, expiresAt: parseExpiry(bill.expires)! };
  }

  /** A bill issued for a new order and never paid; the page closed, and the clock an hour past its expiry. */
  async function billLeftUnpaidPastExpiry() {
    const reference = newOrder();
    const clock = createManualClock(Date.now());
    const first = await dropIn(reference, clock);
    shadowQuery(voucherOf(first), 'button.issue').click();
    await settled(first);
    const expiresAt = parseExpiry(voucherOf(first).issuedBill!.expires)!;
    first.remove();
    clock.set(expiresAt + 3_600_000);
    return { reference, clock };
  }

  it('keeps the bill in view, paid, and the other methods away without saying they return, when the expiry comes', async () => {
    const clock = createManualClock(Date.now());
    const el = await dropIn(newOrder(), clock);
    const { voucher, expiresAt } = await issueAndPay(el);
    const events = recordEvents(el, 'pg-bill-paid', 'pg-bill-expire');
    clock.set(expiresAt);
    await settled(el);
    expect(events.map((event) => event.type)).to.deep.equal(['pg-bill-paid']);
    expect(voucher.matches(':state(paid)')).to.equal(true);
    expect(shadowQuery(el, '.method-panel pg-bill-voucher')).to.equal(voucher);
    expect(offered(el)).to.deep.equal(['voucher']);
    expect(el.shadowRoot!.querySelector('[part~="bill-note"]')).to.equal(null);
    expect(textOf(shadowQuery(el, '.frame > [role="status"]'))).not.to.contain('expired');
    await expect(el).to.be.accessible();
  });

  it('shows the bill paid, the other methods still away, when the page is loaded again after its expiry', async () => {
    const reference = newOrder();
    const clock = createManualClock(Date.now());
    const first = await dropIn(reference, clock);
    const { expiresAt } = await issueAndPay(first);
    first.remove();
    clock.set(expiresAt + 3_600_000);

    const el = await dropIn(reference, clock, 'card');
    expect(voucherOf(el).matches(':state(paid)')).to.equal(true);
    expect(el.shadowRoot!.querySelector('#card-number')).to.equal(null);
    expect(offered(el)).to.deep.equal(['voucher']);
    expect(el.shadowRoot!.querySelector('[part~="bill-note"]')).to.equal(null);
  });

  it('keeps the other methods away, saying the order is paid, when a card paid it after the bill expired unpaid (a reload)', async () => {
    const { reference, clock } = await billLeftUnpaidPastExpiry();
    // Paid by card under the order's next attempt: the status route names that attempt with the money.
    network.transformAnswer('/status', (answer) => ({ ...answer, authorized_amount: 250_000, captured_amount: 250_000, payment_reference: `${reference}.pg2` }));

    const el = await dropIn(reference, clock, 'card');
    const voucher = voucherOf(el);
    expect(textOf(shadowQuery(voucher, '#bill-title'))).to.equal('Your order has been paid');
    expect(voucher.matches(':state(paid)')).to.equal(false, 'the bill itself was not paid');
    expect(offered(el)).to.deep.equal(['voucher']);
    expect(el.shadowRoot!.querySelector('[part~="bill-note"]')).to.equal(null);
    expect(textOf(shadowQuery(el, '.frame > [role="status"]'))).not.to.contain('Choose another payment method');
  });

  it('offers the other methods again after such a reload only once the endpoint shows the bill unpaid', async () => {
    const { reference, clock } = await billLeftUnpaidPastExpiry();

    const el = await dropIn(reference, clock, 'card');
    expect(network.requestsTo('/status')).to.have.length(1);
    expect(offered(el)).to.deep.equal(['card', 'installments', 'voucher', 'financing']);
    expect(textOf(shadowQuery(el, '[part~="bill-note"]'))).to.equal('The cash bill expired unpaid. Choose another payment method.');
  });
});
