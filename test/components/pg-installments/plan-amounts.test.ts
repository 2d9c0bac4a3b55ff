/**
 * `<pg-installments>` with amounts the formulas alone never give: the gateway's own monthly
 * amount rounded down (`monthly-source="gateway"`), and a plan's total past the 10 digits of one
 * wire amount. Each used to throw inside render() and leave the element empty.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/define.ts';
import { formatMoney } from '../../../src/core/amounts.ts';
import type { PgInstallments } from '../../../src/index.ts';
import { choose, settled, shadowQuery, shadowQueryAll, textOf, typeInto } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

/** An amount as the element shows it (textOf collapses the non-breaking spaces Intl uses). */
const egp = (minor: number) => formatMoney(minor, 'EGP', 'en').replace(/\s+/g, ' ');

type Answer = Record<string, unknown>;

/** The plans answer with Sandbox Nile Bank's 6-month plan (EGX06) changed by `change`, and the answer by `answer`. */
const withSixMonthPlan = (change: Answer, answer: Answer = {}) => (original: Answer) => ({
  ...original,
  ...answer,
  issuers: (original.issuers as Answer[]).map((issuer) => ({
    ...issuer,
    plan_details: (issuer.plan_details as Answer[]).map((plan) => (plan.plan_code === 'EGX06' ? { ...plan, ...change } : plan)),
  })),
});

/** EGP 2,500.00 over 6 months at no cost, which the gateway rounds down to 416.66 a month (2,499.96 in all). */
const ROUNDED_DOWN = { fees_amount: 0, amountPerMonth: '416.66' };

describe('<pg-installments> amounts past what the formulas give', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  async function installments(options: { view: 'dropdown' | 'table'; monthlySource: 'formula' | 'gateway' }) {
    const el = await fixture<PgInstallments>(html`
      <pg-installments
        endpoint=${ENDPOINT}
        merchant-reference=${ORDERS.egp.merchant_reference}
        plans-view=${options.view}
        monthly-source=${options.monthlySource}
      ></pg-installments>
    `);
    await settled(el);
    typeInto(shadowQuery<HTMLInputElement>(el, '#card-prefix'), '411111');
    await el.updateComplete;
    return el;
  }

  const receiptRows = (el: PgInstallments) =>
    shadowQueryAll(el, '.receipt-container dl > div').map((row) => [textOf(row.querySelector('dt')), textOf(row.querySelector('dd'))]);

  it('passes an axe check with the gateway’s rounded-down monthly amount in the table and the receipt', async () => {
    network.transformAnswer('/installment-plans', withSixMonthPlan(ROUNDED_DOWN));
    const el = await installments({ view: 'table', monthlySource: 'gateway' });
    choose(shadowQuery<HTMLInputElement>(el, 'input[name="plan"][value="EGX06"]'));
    await el.updateComplete;
    await expect(el).to.be.accessible();
  });

  describe('when the gateway rounds a no-cost plan’s monthly amount down (monthly-source="gateway")', () => {
    it('shows its monthly amount, the rest of the order in the last month, and no fee in the table view', async () => {
      network.transformAnswer('/installment-plans', withSixMonthPlan(ROUNDED_DOWN));
      const el = await installments({ view: 'table', monthlySource: 'gateway' });
      const firstRow = [...shadowQuery(el, 'tbody tr').children].map(textOf);
      expect(firstRow).to.deep.equal([
        '6 months',
        `${egp(41_666)} (last month ${egp(41_670)})`,
        egp(0),
        egp(250_000),
        egp(0),
      ]);
    });

    it('shows a receipt whose payments add up to the order amount in the dropdown view', async () => {
      network.transformAnswer('/installment-plans', withSixMonthPlan(ROUNDED_DOWN));
      const el = await installments({ view: 'dropdown', monthlySource: 'gateway' });
      choose(shadowQuery<HTMLSelectElement>(el, 'select#plan'), 'EGX06');
      await el.updateComplete;
      expect(textOf(shadowQuery<HTMLSelectElement>(el, 'select#plan').selectedOptions[0])).to.equal(
        `6 months: ${egp(41_666)} a month, ${egp(250_000)} in total`,
      );
      expect(receiptRows(el)).to.deep.equal([
        ['Order amount', egp(250_000)],
        ['Plan', '6 months'],
        ['Per month', egp(41_666)],
        ['Last month', egp(41_670)],
        ['Fees', egp(0)],
        ['Total payable', egp(250_000)],
        ['Extra cost over paying in full', egp(0)],
      ]);
    });
  });

  describe('when a plan’s total with its fee passes the 10 digits of one wire amount', () => {
    it('shows it in full: EGP 99,999,999.99 plus a fee of 100.00 over 6 months', async () => {
      network.transformAnswer('/installment-plans', withSixMonthPlan({ maximum_amount: '9999999999' }, { amount: 9_999_999_999 }));
      const el = await installments({ view: 'table', monthlySource: 'formula' });
      // 10,000,009,999 in all: 1,666,668,334 for 5 months, 1,666,668,329 in the last.
      const firstRow = [...shadowQuery(el, 'tbody tr').children].map(textOf);
      expect(firstRow).to.deep.equal([
        '6 months',
        `${egp(1_666_668_334)} (last month ${egp(1_666_668_329)})`,
        egp(10_000),
        'EGP 100,000,099.99',
        egp(10_000),
      ]);
    });
  });
});
