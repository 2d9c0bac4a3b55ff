import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import type { PgBillVoucher } from '../../../src/components/pg-bill-voucher/pg-bill-voucher.ts';
import { createManualClock, parseExpiry } from '../../../src/core/voucher.ts';
import { FINANCING_TENURES, REGISTERED_FINANCING_PHONE, SANDBOX_OTP } from '../../../src/sandbox/test-cards.ts';
import { choose, settled, shadowQuery, textOf, typeInto } from '../support/dom.ts';
import { ENDPOINT, startNetwork, type TestNetwork } from '../support/network.ts';

type FinancingElement = HTMLElement & { updateComplete: Promise<boolean> };

describe('<pg-checkout mode="drop-in"> consumer financing after the cash bill expired unpaid', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => {
    network.reset();
    sessionStorage.clear();
  });

  /** A drop-in whose cash bill was issued and has just expired unpaid, with financing chosen. */
  async function financingAfterExpiredBill(): Promise<{ el: PgCheckout; financing: FinancingElement }> {
    const reference = `dropin-bill-financing-${Date.now()}`;
    network.orders.add({ merchant_reference: reference, amount: 250_000, currency: 'EGP', description: 'Headphones' });
    const clock = createManualClock(Date.now());
    network.setClock(() => new Date(clock.now()));
    const el = await fixture<PgCheckout>(html`<pg-checkout mode="drop-in" methods="card installments voucher financing" method="voucher" endpoint=${ENDPOINT} merchant-reference=${reference}></pg-checkout>`);
    await settled(el);
    const voucher = shadowQuery<PgBillVoucher>(el, 'pg-bill-voucher');
    voucher.clock = clock;
    await settled(el);
    shadowQuery(voucher, 'button.issue').click();
    await settled(el);
    clock.set(parseExpiry(voucher.issuedBill!.expires)!);
    await settled(el);
    choose(shadowQuery<HTMLInputElement>(el, 'input[name="method"][value="financing"]'));
    await settled(el);
    return { el, financing: shadowQuery<FinancingElement>(el, 'pg-financing-otp') };
  }

  async function press(el: PgCheckout, financing: FinancingElement): Promise<void> {
    await financing.updateComplete;
    shadowQuery(financing, 'button.Pay').click();
    await settled(el);
  }

  it('passes an axe check once financing is offered again', async () => {
    const { el } = await financingAfterExpiredBill();
    await expect(el).to.be.accessible();
  });

  it('sends the code and completes the purchase, as for an order that never had a bill', async () => {
    const { el, financing } = await financingAfterExpiredBill();
    typeInto(shadowQuery<HTMLInputElement>(financing, '#phone'), REGISTERED_FINANCING_PHONE);
    await press(el, financing);
    await press(el, financing); // "Send the code"
    expect(textOf(financing.shadowRoot!.querySelector('.frame'))).not.to.contain('refused');
    typeInto(shadowQuery<HTMLInputElement>(financing, '#otp'), SANDBOX_OTP);
    await press(el, financing);
    shadowQuery<HTMLInputElement>(financing, `input[name="tenure"][value="${FINANCING_TENURES[0]!.months}"]`).click();
    await press(el, financing);
    expect(textOf(shadowQuery(financing, '.result .title'))).to.equal('Your purchase is complete.');
  });
});
