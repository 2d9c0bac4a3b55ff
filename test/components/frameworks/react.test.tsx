/**
 * The four elements rendered by React 19 (the npm packages, in Chromium), typed by
 * `pg-checkout/react` (this file is type-checked with the project). React sets a prop as the DOM
 * property when the element has one of that name (`methods`, `merchantReference`) and as an
 * attribute otherwise (`merchant-reference`), and turns `onpg-…` props into event listeners.
 */
import { expect } from '@open-wc/testing';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type { ReactNode } from 'react';
import '../../../src/define.ts';
import type {} from '../../../src/frameworks/react.ts';
import { createManualClock } from '../../../src/core/voucher.ts';
import type {
  PgBillIssueEvent,
  PgBillVoucher,
  PgCheckout,
  PgFinancingOtp,
  PgInstallments,
  PgPlansLoadEvent,
  PgRequestSuccessEvent,
} from '../../../src/index.ts';
import { settled, shadowQuery, shadowQueryAll, textOf } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

const PRODUCTS = [{ product_name: 'Television', product_price: '2500.00', product_category: 'electronics' }];

describe('the elements in React 19', () => {
  let network: TestNetwork;
  let host: HTMLElement;
  let root: Root;

  before(async () => {
    network = await startNetwork();
  });

  beforeEach(() => {
    sessionStorage.clear();
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });

  afterEach(() => {
    flushSync(() => root.unmount());
    host.remove();
    network.reset();
  });

  /** Renders synchronously and returns the element of `tag`, settled (its requests answered). */
  async function render<E extends HTMLElement & { updateComplete: Promise<boolean> }>(tag: string, tree: ReactNode): Promise<E> {
    flushSync(() => root.render(tree));
    const element = host.querySelector<E>(tag);
    if (!element) throw new Error(`React rendered no <${tag}>`);
    await settled(element);
    return element;
  }

  describe('<pg-checkout>', () => {
    it('takes string props, in Arabic, and passes an accessibility check', async () => {
      const loaded: string[] = [];
      const el = await render<PgCheckout>(
        'pg-checkout',
        <pg-checkout
          mode="drop-in"
          methods="card voucher"
          card-mode="redirect"
          endpoint={ENDPOINT}
          merchant-reference={ORDERS.egp.merchant_reference}
          language="ar"
          onpg-request-success={(event: PgRequestSuccessEvent) => loaded.push(event.route)}
        />,
      );
      // `methods` is a property of the element, so React set the property, with the text.
      expect(el.hasAttribute('methods')).to.equal(false);
      expect(el.methods).to.deep.equal(['card', 'voucher']);
      expect(shadowQueryAll<HTMLInputElement>(el, 'input[name="method"]').map((radio) => radio.value)).to.deep.equal(['card', 'voucher']);
      expect(shadowQuery(el, '[part~="frame"]').getAttribute('dir')).to.equal('rtl');
      expect(loaded).to.deep.equal(['order']);
      await expect(el).to.be.accessible();
    });

    it('takes non-string props as properties, and follows a re-render', async () => {
      const methodChanges: string[] = [];
      const checkout = (methods: readonly ('card' | 'voucher' | 'financing')[]) => (
        <pg-checkout
          mode="drop-in"
          methods={methods}
          hideRememberMe={true}
          endpoint={ENDPOINT}
          merchantReference={ORDERS.egp.merchant_reference}
          onpg-method-change={(event) => methodChanges.push(event.method)}
        />
      );
      const el = await render<PgCheckout>('pg-checkout', checkout(['voucher', 'card']));
      expect(el.methods).to.deep.equal(['voucher', 'card']);
      expect(el.hideRememberMe).to.equal(true);

      await render<PgCheckout>('pg-checkout', checkout(['card', 'financing']));
      expect(shadowQueryAll<HTMLInputElement>(el, 'input[name="method"]').map((radio) => radio.value)).to.deep.equal(['card', 'financing']);
      shadowQuery<HTMLInputElement>(el, 'input[value="financing"]').click();
      await settled(el);
      expect(methodChanges).to.deep.equal(['financing']);
    });
  });

  describe('<pg-installments>', () => {
    it('shows the plans table from string props and tells the handler that plans loaded', async () => {
      const loads: PgPlansLoadEvent[] = [];
      const el = await render<PgInstallments>(
        'pg-installments',
        <pg-installments
          plans-view="table"
          completion="none"
          endpoint={ENDPOINT}
          merchant-reference={ORDERS.egp.merchant_reference}
          onpg-plans-load={(event) => loads.push(event)}
        />,
      );
      expect(el.plansView).to.equal('table');
      expect(loads).to.have.length(1);
      expect(loads[0]!.plans).to.be.greaterThan(0);
      await expect(el).to.be.accessible();
    });

    it('follows a host card number and a required flag given as properties', async () => {
      const el = await render<PgInstallments>(
        'pg-installments',
        <pg-installments
          cardSource="host"
          cardPrefix="51234567"
          required={true}
          hideReceipt={true}
          endpoint={ENDPOINT}
          merchantReference={ORDERS.egp.merchant_reference}
        />,
      );
      expect(el.required).to.equal(true);
      expect(shadowQuery<HTMLInputElement>(el, 'input[name="issuer"]:checked').value).not.to.equal('');
      expect(el.checkValidity()).to.equal(false);
    });
  });

  describe('<pg-bill-voucher>', () => {
    it('shows a stored bill from a Date, a number given as text and a clock, with no request', async () => {
      const el = await render<PgBillVoucher>(
        'pg-bill-voucher',
        <pg-bill-voucher
          bill-number="12345678901234"
          expires={new Date(Date.UTC(2026, 11, 1, 16))}
          amount="150000"
          clock={createManualClock(Date.UTC(2026, 10, 1))}
          time-zone="Africa/Cairo"
        />,
      );
      expect(el.issuedBill).to.include({ amount: 150000, expires: '2026-12-01T16:00:00.000Z' });
      expect(textOf(shadowQuery(el, '[part~="amount"]'))).to.contain('1,500.00');
      expect(network.endpointRequests).to.have.length(0);
      await expect(el).to.be.accessible();
    });

    it('issues a bill on its own and hands it to the handler', async () => {
      const reference = 'order-react-bill';
      network.orders.add({ merchant_reference: reference, amount: 45_000, currency: 'EGP', description: 'Charger' });
      const issued: PgBillIssueEvent[] = [];
      const el = await render<PgBillVoucher>(
        'pg-bill-voucher',
        <pg-bill-voucher
          autoIssue={true}
          currency="EGP"
          endpoint={ENDPOINT}
          merchantReference={reference}
          onpg-bill-issue={(event) => issued.push(event)}
        />,
      );
      expect(issued).to.have.length(1);
      expect(issued[0]!.bill.merchantReference).to.equal(reference);
      expect(el.issuedBill?.billNumber).to.equal(issued[0]!.bill.billNumber);
    });
  });

  describe('<pg-financing-otp>', () => {
    it('takes products, numbers as text and numbers, and reports its requests to the handler', async () => {
      const routes: string[] = [];
      const el = await render<PgFinancingOtp>(
        'pg-financing-otp',
        <pg-financing-otp
          products={PRODUCTS}
          maxOtpAttempts="5"
          resendAfter={30}
          otp-length={6}
          endpoint={ENDPOINT}
          merchant-reference={ORDERS.egp.merchant_reference}
          language="ar"
          onpg-request-complete={(event) => routes.push(`${event.route} ${event.outcome}`)}
        />,
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
