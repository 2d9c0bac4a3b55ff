/**
 * The four elements rendered by Vue 3 (the npm package, in Chromium) from templates, as a Vue app
 * writes them. Vue sets a DOM property when the element has one of the prop's name
 * (`methods="card voucher"` arrives as text on `el.methods`, `:hideRememberMe="true"` as a boolean)
 * and an attribute otherwise (`merchant-reference`, and `:hide-receipt="false"`, which Vue writes as
 * the text "false"), and listens for `@pg-…` as DOM events.
 */
import { expect } from '@open-wc/testing';
import { createApp, nextTick, ref, type App } from 'vue';
import '../../../src/define.ts';
import { createManualClock } from '../../../src/core/voucher.ts';
import type { PgBillIssueEvent, PgBillVoucher, PgCheckout, PgFinancingOtp, PgInstallments, PgPlansLoadEvent } from '../../../src/index.ts';
import { settled, shadowQuery, shadowQueryAll, textOf } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

const PRODUCTS = [{ product_name: 'Television', product_price: '2500.00', product_category: 'electronics' }];

describe('the elements in Vue 3', () => {
  let network: TestNetwork;
  let host: HTMLElement;
  let app: App | undefined;

  before(async () => {
    network = await startNetwork();
  });

  beforeEach(() => {
    sessionStorage.clear();
    host = document.createElement('div');
    document.body.append(host);
  });

  afterEach(() => {
    app?.unmount();
    app = undefined;
    host.remove();
    network.reset();
  });

  /** Mounts a template with `setup`'s bindings and returns the element of `tag`, settled. */
  async function mount<E extends HTMLElement & { updateComplete: Promise<boolean> }>(
    tag: string,
    template: string,
    setup: () => Record<string, unknown> = () => ({}),
  ): Promise<E> {
    app = createApp({ template, setup: () => ({ ENDPOINT, ORDERS, ...setup() }) });
    app.config.compilerOptions.isCustomElement = (name) => name.startsWith('pg-');
    app.mount(host);
    const element = host.querySelector<E>(tag);
    if (!element) throw new Error(`Vue rendered no <${tag}>`);
    await settled(element);
    return element;
  }

  describe('<pg-checkout>', () => {
    it('takes static string props, in Arabic, and passes an accessibility check', async () => {
      const routes: string[] = [];
      const el = await mount<PgCheckout>(
        'pg-checkout',
        `<pg-checkout mode="drop-in" methods="card voucher" card-mode="redirect" :endpoint="ENDPOINT"
           :merchant-reference="ORDERS.egp.merchant_reference" language="ar"
           @pg-request-success="(event) => routes.push(event.route)"></pg-checkout>`,
        () => ({ routes }),
      );
      // `methods` is a property of the element, so Vue set the property, with the text.
      expect(el.hasAttribute('methods')).to.equal(false);
      expect(el.methods).to.deep.equal(['card', 'voucher']);
      expect(shadowQueryAll<HTMLInputElement>(el, 'input[name="method"]').map((radio) => radio.value)).to.deep.equal(['card', 'voucher']);
      expect(shadowQuery(el, '[part~="frame"]').getAttribute('dir')).to.equal('rtl');
      expect(routes).to.deep.equal(['order']);
      await expect(el).to.be.accessible();
    });

    it('takes bound non-string props as properties and follows reactive changes', async () => {
      const methods = ref<string[]>(['voucher', 'card']);
      const changes: string[] = [];
      const el = await mount<PgCheckout>(
        'pg-checkout',
        `<pg-checkout mode="drop-in" :methods="methods" :hideRememberMe="true" :endpoint="ENDPOINT"
           :merchantReference="ORDERS.egp.merchant_reference"
           @pg-method-change="(event) => changes.push(event.method)"></pg-checkout>`,
        () => ({ methods, changes }),
      );
      expect(el.methods).to.deep.equal(['voucher', 'card']);
      expect(el.hideRememberMe).to.equal(true);

      methods.value = ['card', 'financing'];
      await nextTick();
      await settled(el);
      expect(shadowQueryAll<HTMLInputElement>(el, 'input[name="method"]').map((radio) => radio.value)).to.deep.equal(['card', 'financing']);
      shadowQuery<HTMLInputElement>(el, 'input[value="financing"]').click();
      await settled(el);
      expect(changes).to.deep.equal(['financing']);
    });
  });

  describe('<pg-installments>', () => {
    it('shows the plans table and tells the handler that plans loaded, accessibly', async () => {
      const loads: PgPlansLoadEvent[] = [];
      const el = await mount<PgInstallments>(
        'pg-installments',
        `<pg-installments plans-view="table" completion="none" :endpoint="ENDPOINT"
           :merchant-reference="ORDERS.egp.merchant_reference" @pg-plans-load="(event) => loads.push(event)"></pg-installments>`,
        () => ({ loads }),
      );
      expect(el.plansView).to.equal('table');
      expect(loads).to.have.length(1);
      expect(loads[0]!.plans).to.be.greaterThan(0);
      await expect(el).to.be.accessible();
    });

    it('reads a flag bound to false as false, though Vue writes it as the attribute "false"', async () => {
      const el = await mount<PgInstallments>(
        'pg-installments',
        `<pg-installments :hide-receipt="false" :required="true" card-source="host" :cardPrefix="'51234567'"
           :endpoint="ENDPOINT" :merchant-reference="ORDERS.egp.merchant_reference"></pg-installments>`,
      );
      expect(el.getAttribute('hide-receipt')).to.equal('false');
      expect(el.hideReceipt).to.equal(false);
      expect(el.required).to.equal(true);
      expect(shadowQuery<HTMLInputElement>(el, 'input[name="issuer"]:checked').value).not.to.equal('');
    });
  });

  describe('<pg-bill-voucher>', () => {
    it('shows a stored bill from a Date, a number given as text and a clock, with no request', async () => {
      const el = await mount<PgBillVoucher>(
        'pg-bill-voucher',
        `<pg-bill-voucher bill-number="12345678901234" :expires="expires" amount="150000" :clock="clock"
           time-zone="Africa/Cairo"></pg-bill-voucher>`,
        () => ({ expires: new Date(Date.UTC(2026, 11, 1, 16)), clock: createManualClock(Date.UTC(2026, 10, 1)) }),
      );
      expect(el.issuedBill).to.include({ amount: 150000, expires: '2026-12-01T16:00:00.000Z' });
      expect(textOf(shadowQuery(el, '[part~="amount"]'))).to.contain('1,500.00');
      expect(network.endpointRequests).to.have.length(0);
      await expect(el).to.be.accessible();
    });

    it('issues a bill on its own and hands it to the handler', async () => {
      const reference = 'order-vue-bill';
      network.orders.add({ merchant_reference: reference, amount: 45_000, currency: 'EGP', description: 'Charger' });
      const issued: PgBillIssueEvent[] = [];
      const el = await mount<PgBillVoucher>(
        'pg-bill-voucher',
        `<pg-bill-voucher auto-issue currency="EGP" :endpoint="ENDPOINT" :merchantReference="reference"
           @pg-bill-issue="(event) => issued.push(event)"></pg-bill-voucher>`,
        () => ({ reference, issued }),
      );
      expect(el.autoIssue).to.equal(true);
      expect(issued).to.have.length(1);
      expect(issued[0]!.bill.merchantReference).to.equal(reference);
    });
  });

  describe('<pg-financing-otp>', () => {
    it('takes products, numbers as text and numbers, and reports its requests to the handler', async () => {
      const routes: string[] = [];
      const el = await mount<PgFinancingOtp>(
        'pg-financing-otp',
        `<pg-financing-otp :products="products" maxOtpAttempts="5" :resend-after="30" :endpoint="ENDPOINT"
           :merchant-reference="ORDERS.egp.merchant_reference" language="ar"
           @pg-request-complete="(event) => routes.push(event.route + ' ' + event.outcome)"></pg-financing-otp>`,
        () => ({ products: PRODUCTS, routes }),
      );
      expect(el.products).to.deep.equal(PRODUCTS);
      expect(el.maxOtpAttempts).to.equal(5);
      expect(el.resendAfter).to.equal(30);
      expect(routes).to.deep.equal(['order success']);
      expect(textOf(shadowQuery(el, 'form'))).to.contain('٢٬٥٠٠');
      await expect(el).to.be.accessible();
    });
  });
});
