/**
 * What `<pg-installments>` offers, as the pure functions of plan-offers.ts give it: amounts the
 * customer is shown must add up, and never show a plan costing less than the order.
 */
import { expect } from '@open-wc/testing';
import { issuerOffers, type Issuer, type Plan, type PlanOffer } from '../../../src/components/pg-installments/plan-offers.ts';
import type { InstallmentPlansResult } from '../../../src/core/endpoint-results.ts';

function plan(overrides: Partial<Plan> = {}): Plan {
  return {
    plan_code: 'P3',
    currency_code: 'EGP',
    number_of_installment: 3,
    fees_type: 'Percentage',
    fees_amount: 0,
    processing_fees_type: null,
    processing_fees_amount: null,
    rate_type: 'Flat',
    plan_merchant_type: 'Non Partner',
    plan_type: 'Cross-Border',
    fee_display_value: '0',
    minimum_amount: 0,
    maximum_amount: 9_999_999_999,
    ...overrides,
  };
}

function plansAnswer(amount: number, currency: string, plans: readonly Plan[]): InstallmentPlansResult {
  const issuer: Issuer = {
    issuer_code: 'BANK1',
    issuer_name_ar: 'البنك',
    issuer_name_en: 'The Bank',
    country_code: 'EGY',
    banking_system: 'Non Islamic',
    formula: null,
    plan_details: [...plans],
    bins: [{ bin: '411111', country_code: 'EGY', currency_code: currency, card_brand_code: 'VISA' }],
  };
  return { merchant_reference: 'order-1', amount, currency, issuers: [issuer] };
}

/** The offers of the one issuer, by what the customer is shown. */
function offered(answer: InstallmentPlansResult, source: 'formula' | 'gateway') {
  return issuerOffers(answer, source).flatMap((offer) => offer.plans).map(shown);
}

const shown = ({ plan: { plan_code }, monthly, lastMonthly, totalPayable, fees, costOverFull, source }: PlanOffer) =>
  ({ plan_code, monthly, lastMonthly, totalPayable, fees, costOverFull, source });

describe('plan offers with the gateway’s monthly amount (monthlySource "gateway")', () => {
  it('when the gateway rounds a 0 % plan’s monthly amount down, the last month pays what the order still owes', () => {
    // EGP 10.00 over 3 months at 0 %: the gateway says 3.33, which would come to 9.99 and a fee of −0.01.
    const answer = plansAnswer(1000, 'EGP', [plan({ amountPerMonth: '3.33' })]);
    expect(offered(answer, 'gateway')).to.deep.equal([
      { plan_code: 'P3', monthly: 333, lastMonthly: 334, totalPayable: 1000, fees: 0, costOverFull: 0, source: 'gateway' },
    ]);
  });

  it('does the same when the gateway prints fewer decimals than the currency has', () => {
    // KWD 10.000 over 3 months, "3.33": 3.330, 3.330, then 3.340.
    const answer = plansAnswer(10_000, 'KWD', [plan({ currency_code: 'KWD', amountPerMonth: '3.33' })]);
    expect(offered(answer, 'gateway')[0]).to.include({ monthly: 3330, lastMonthly: 3340, totalPayable: 10_000, fees: 0 });
  });

  it('keeps every month the gateway’s figure when they come to more than the amount', () => {
    // EGP 2,500.00 plus a fee of 100.00 over 6 months; the gateway says 433.34, 2,600.04 in all.
    const answer = plansAnswer(250_000, 'EGP', [
      plan({ number_of_installment: 6, fees_type: 'Fixed', fees_amount: 10_000, amountPerMonth: '433.34' }),
    ]);
    expect(offered(answer, 'gateway')[0]).to.include({ monthly: 43_334, lastMonthly: 43_334, totalPayable: 260_004, fees: 10_004 });
  });

  it('shows the formula’s amounts without the option, whatever the gateway says', () => {
    const answer = plansAnswer(1000, 'EGP', [plan({ amountPerMonth: '3.33' })]);
    expect(offered(answer, 'formula')).to.deep.equal([
      { plan_code: 'P3', monthly: 334, lastMonthly: 332, totalPayable: 1000, fees: 0, costOverFull: 0, source: 'formula' },
    ]);
  });

  it('whatever the gateway’s figure, shows payments that add up to a total no lower than the amount, and nothing negative', () => {
    for (const amount of [1, 999, 1000, 1001, 250_000, 9_999_999_999]) {
      for (const months of [1, 2, 3, 7, 12, 24]) {
        const exact = amount / months;
        for (const figure of [0, 1, Math.floor(exact) - 1, Math.floor(exact), Math.ceil(exact), Math.ceil(exact) + 1]) {
          if (figure < 0) continue;
          const gatewayText = `${Math.trunc(figure / 100)}.${String(figure % 100).padStart(2, '0')}`;
          const answer = plansAnswer(amount, 'EGP', [plan({ number_of_installment: months, amountPerMonth: gatewayText })]);
          for (const offer of issuerOffers(answer, 'gateway').flatMap((issuer) => issuer.plans)) {
            const what = `${amount} over ${months} at ${gatewayText}`;
            expect(offer.monthly * (months - 1) + offer.lastMonthly, what).to.equal(offer.totalPayable);
            expect(offer.totalPayable, what).to.be.at.least(amount);
            expect(offer.fees, what).to.equal(offer.totalPayable - amount);
            for (const value of [offer.monthly, offer.lastMonthly, offer.fees, offer.costOverFull]) expect(value, what).to.be.at.least(0);
          }
        }
      }
    }
  });
});

describe('plan offers when one plan cannot be quoted', () => {
  it('leaves out a Fixed plan whose fee cannot be read, and keeps the issuer’s other plans', () => {
    const answer = plansAnswer(250_000, 'EGP', [
      plan({ plan_code: 'NEG', fees_type: 'Fixed', fees_amount: -500 }),
      plan({ plan_code: 'LONG', fees_type: 'Fixed', fees_amount: 12_345_678_901 }),
      plan({ plan_code: 'GOOD', number_of_installment: 6 }),
    ]);
    expect(offered(answer, 'formula').map((offer) => offer.plan_code)).to.deep.equal(['GOOD']);
  });

  it('still shows it with the gateway’s monthly amount where the gateway gave one, never below the amount', () => {
    const answer = plansAnswer(1000, 'EGP', [plan({ plan_code: 'NEG', fees_type: 'Fixed', fees_amount: -500, amountPerMonth: '3.33' })]);
    expect(offered(answer, 'formula')).to.deep.equal([
      { plan_code: 'NEG', monthly: 333, lastMonthly: 334, totalPayable: 1000, fees: 0, costOverFull: 0, source: 'gateway' },
    ]);
  });
});
