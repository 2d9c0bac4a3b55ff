import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AmountError, toMinorUnits } from '../../src/core/amounts.ts';
import type { InstallmentPlansResult } from '../../src/core/endpoint-api.ts';
import {
  eligiblePlans,
  filterPlans,
  formulaKindOf,
  InstallmentError,
  matchIssuerByBin,
  monthlyInstallment,
  planQuote,
  pmt,
  type InstallmentIssuer,
  type InstallmentPlan,
  type IssuerBin,
} from '../../src/core/installments.ts';

// Compile-time check: what the endpoint's schema parses fits the types these functions take.
const _parsedIssuerFits = (issuer: InstallmentPlansResult['issuers'][number]): InstallmentIssuer => issuer;

function plan(overrides: Partial<InstallmentPlan> = {}): InstallmentPlan {
  return {
    plan_code: 'EG12',
    currency_code: 'EGP',
    number_of_installment: 12,
    fees_type: 'Percentage',
    fees_amount: 2,
    processing_fees_type: null,
    processing_fees_amount: null,
    rate_type: 'Flat',
    plan_merchant_type: 'Non Partner',
    plan_type: 'Cross-Border',
    fee_display_value: 2,
    minimum_amount: 100_000,
    maximum_amount: 5_000_000,
    ...overrides,
  };
}

function bin(digits: string): IssuerBin {
  return { bin: digits, country_code: 'EGY', currency_code: 'EGP', card_brand_code: 'VISA' };
}

function issuer(overrides: Partial<InstallmentIssuer> = {}): InstallmentIssuer {
  return {
    issuer_code: 'NBE',
    issuer_name_ar: 'البنك',
    issuer_name_en: 'The Bank',
    terms_and_condition_ar: null,
    terms_and_condition_en: null,
    country_code: 'EGY',
    issuer_logo_ar: null,
    issuer_logo_en: null,
    banking_system: 'Non Islamic',
    formula: null,
    plan_details: [plan()],
    bins: [bin('411111')],
    confirmation_message_ar: null,
    confirmation_message_en: null,
    disclaimer_message_ar: null,
    disclaimer_message_en: null,
    processing_fees_message_ar: null,
    processing_fees_message_en: null,
    ...overrides,
  };
}

const nonIslamic = { banking_system: 'Non Islamic' };
const islamic = { banking_system: 'Islamic' };
/** 10,000.00 EGP. */
const TEN_THOUSAND_EGP = 1_000_000;

function assertClose(actual: number, expected: number, tolerance = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);
}

describe('pmt, the spreadsheet payment function', () => {
  // Closed form: PMT = -rate × (pv × g + fv) / ((1 + rate × type) × (g − 1)), g = (1 + rate)^nper.
  // For rate 0.01, nper 12: g = 1.01^12 = 1.126825030131969720661201 (exact, 24 decimals).

  it('when 10,000 is borrowed at 1% a period over 12 periods, pays 888.4878867834… a period', () => {
    // -0.01 × 10000 × g / (g − 1) = -112.6825030131969720661201 / 0.126825030131969720661201
    assertClose(pmt(0.01, 12, 10_000), -888.487886783417);
  });

  it('when payments fall at the start of each period, divides the payment by 1 + rate', () => {
    // -888.4878867834170734 / 1.01
    assertClose(pmt(0.01, 12, 10_000, 0, 1), -879.690977013284);
  });

  it('when only a future value is to be saved, pays rate × fv / (g − 1)', () => {
    // -0.01 × 10000 / 0.126825030131969720661201
    assertClose(pmt(0.01, 12, 0, 10_000), -788.487886783417);
  });

  it('when both a present and a future value are given, pays the sum of both payments', () => {
    // -(888.4878867834170734 + 788.4878867834170734)
    assertClose(pmt(0.01, 12, 10_000, 10_000), -1676.975773566834);
  });

  it('when money is lent rather than borrowed (negative pv), the payment is positive', () => {
    assertClose(pmt(0.01, 12, -10_000), 888.487886783417);
  });

  it('when the rate is zero, pays -(pv + fv) / nper', () => {
    assert.equal(pmt(0, 12, 1200), -100);
    assert.equal(pmt(0, 12, 1200, 1200), -200);
  });

  it('when the rate is zero, the payment timing makes no difference', () => {
    assert.equal(pmt(0, 12, 1200, 0, 1), -100);
  });

  it('matches the worked examples of spreadsheet documentation to the cent', () => {
    // A loan of 10,000 at 8% a year over 10 months; saving 50,000 over 18 years at 6% a year.
    assert.equal(pmt(0.08 / 12, 10, 10_000).toFixed(2), '-1037.03');
    assert.equal(pmt(0.06 / 12, 18 * 12, 0, 50_000).toFixed(2), '-129.08');
  });

  it('when there are no periods, gives no finite payment (a spreadsheet shows an error)', () => {
    assert.equal(Number.isFinite(pmt(0.01, 0, 10_000)), false);
    assert.equal(Number.isFinite(pmt(0, 0, 10_000)), false);
  });
});

describe('when the formula kind is chosen from the plan and the issuer', () => {
  it('uses the flat formula for Percentage fees at a Flat rate from a non-Islamic bank', () => {
    assert.equal(formulaKindOf(plan(), nonIslamic), 'percentage-flat');
  });

  it('uses the Islamic flat formula for Percentage fees at a Flat rate from an Islamic bank', () => {
    assert.equal(formulaKindOf(plan(), islamic), 'percentage-flat-islamic');
  });

  it('uses PMT for a Reducing rate, whatever the banking system', () => {
    assert.equal(formulaKindOf(plan({ rate_type: 'Reducing' }), nonIslamic), 'reducing');
    assert.equal(formulaKindOf(plan({ rate_type: 'Reducing' }), islamic), 'reducing');
  });

  it('uses the fixed formula for Fixed fees, whatever the rate type', () => {
    assert.equal(formulaKindOf(plan({ fees_type: 'Fixed' }), nonIslamic), 'fixed');
    assert.equal(formulaKindOf(plan({ fees_type: 'Fixed', rate_type: 'Reducing' }), islamic), 'fixed');
  });

  it('reads the values regardless of letter case, spaces, hyphens and underscores', () => {
    assert.equal(formulaKindOf(plan({ fees_type: 'PERCENTAGE', rate_type: 'flat' }), { banking_system: 'NON_ISLAMIC' }), 'percentage-flat');
    assert.equal(formulaKindOf(plan(), { banking_system: 'non-islamic' }), 'percentage-flat');
  });

  it('refuses a fees type it does not know, naming the field', () => {
    assert.throws(
      () => formulaKindOf(plan({ fees_type: 'Tiered' }), nonIslamic),
      (error) => error instanceof InstallmentError && error.field === 'fees_type' && error.rule === 'unknown_value',
    );
  });

  it('refuses a rate type it does not know, naming the field', () => {
    assert.throws(
      () => formulaKindOf(plan({ rate_type: 'Balloon' }), nonIslamic),
      (error) => error instanceof InstallmentError && error.field === 'rate_type',
    );
  });

  it('refuses a banking system it does not know, naming the field', () => {
    assert.throws(
      () => formulaKindOf(plan(), { banking_system: 'Cooperative' }),
      (error) => error instanceof InstallmentError && error.field === 'banking_system',
    );
  });
});

describe('when a non-Islamic flat percentage plan is quoted', () => {
  it('by default charges the fee for every month: 10,000.00 EGP at 2% over 12 months is 1,033.33 a month', () => {
    // (1,000,000 + 1,000,000 × 2/100 × 12) / 12 = 1,240,000 / 12 = 103,333.33… → 103,333
    const quote = planQuote(plan(), nonIslamic, TEN_THOUSAND_EGP, 'EGP');
    assert.deepEqual(quote, {
      formulaKind: 'percentage-flat',
      months: 12,
      monthly: 103_333,
      totalPayable: 1_239_996,
      costOverFull: 239_996,
      fees: 240_000,
    });
  });

  it('with the one-off variant charges the fee once: 10,000.00 EGP at 10% over 12 months is 916.67 a month', () => {
    // (1,000,000 + 1,000,000 × 10/100) / 12 = 1,100,000 / 12 = 91,666.67 → 91,667
    const quote = planQuote(plan({ fees_amount: 10 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP', { flatVariant: 'one-off' });
    assert.equal(quote.monthly, 91_667);
    assert.equal(quote.totalPayable, 1_100_004);
    assert.equal(quote.fees, 100_000);
  });

  it('accepts a decimal percentage: 1.5% a month on 10,000.00 EGP over 12 months is 983.33 a month', () => {
    // (1,000,000 + 1,000,000 × 1.5/100 × 12) / 12 = 1,180,000 / 12 = 98,333.33 → 98,333
    assert.equal(planQuote(plan({ fees_amount: '1.5' }), nonIslamic, TEN_THOUSAND_EGP, 'EGP').monthly, 98_333);
    assert.equal(planQuote(plan({ fees_amount: 1.5 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP').monthly, 98_333);
  });

  it('with no fee, splits the amount evenly', () => {
    assert.equal(planQuote(plan({ fees_amount: 0 }), nonIslamic, 120_000, 'EGP').monthly, 10_000);
  });
});

describe('when an Islamic flat percentage plan is quoted', () => {
  it('gives 1,033.33 a month for 10,000.00 EGP at 2% over 12 months', () => {
    // (((12 × 2/100) + 1) × 1,000,000) / 12 = 1.24 × 1,000,000 / 12 = 103,333.33… → 103,333
    const quote = planQuote(plan(), islamic, TEN_THOUSAND_EGP, 'EGP');
    assert.equal(quote.formulaKind, 'percentage-flat-islamic');
    assert.equal(quote.monthly, 103_333);
    assert.equal(quote.fees, 240_000);
  });

  it('ignores the one-off variant, which only concerns non-Islamic plans', () => {
    const quote = planQuote(plan(), islamic, TEN_THOUSAND_EGP, 'EGP', { flatVariant: 'one-off' });
    assert.equal(quote.monthly, 103_333);
  });
});

describe('when a fixed-fee plan is quoted', () => {
  it('adds the fee in minor units: 10,000.00 EGP plus 500.00 over 12 months is 875.00 a month', () => {
    // (1,000,000 + 50,000) / 12 = 87,500
    const quote = planQuote(plan({ fees_type: 'Fixed', fees_amount: 50_000 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP');
    assert.deepEqual(quote, {
      formulaKind: 'fixed',
      months: 12,
      monthly: 87_500,
      totalPayable: 1_050_000,
      costOverFull: 50_000,
      fees: 50_000,
    });
  });

  it('accepts the fee as a string of digits', () => {
    const quote = planQuote(plan({ fees_type: 'Fixed', fees_amount: '50000' }), nonIslamic, TEN_THOUSAND_EGP, 'EGP');
    assert.equal(quote.monthly, 87_500);
  });

  it('refuses a decimal fee, since the fee is in minor units', () => {
    assert.throws(
      () => planQuote(plan({ fees_type: 'Fixed', fees_amount: '500.00' }), nonIslamic, TEN_THOUSAND_EGP, 'EGP'),
      (error) => error instanceof AmountError && error.field === 'fees_amount',
    );
  });
});

describe('when a reducing-rate plan is quoted', () => {
  it('uses PMT at fees/12 % a month: 10,000.00 EGP at 12% a year over 12 months is 888.49 a month', () => {
    // PMT(0.01, 12, 1,000,000) = -88,848.7886783417… → 88,849; interest 12 × 88,848.7886783417 − 1,000,000
    // = 66,185.464… → 66,185
    const quote = planQuote(plan({ rate_type: 'Reducing', fees_amount: 12 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP');
    assert.deepEqual(quote, {
      formulaKind: 'reducing',
      months: 12,
      monthly: 88_849,
      totalPayable: 1_066_188,
      costOverFull: 66_188,
      fees: 66_185,
    });
  });

  it('with a zero rate, splits the amount evenly', () => {
    // 1,000,000 / 12 = 83,333.33 → 83,333
    const quote = planQuote(plan({ rate_type: 'Reducing', fees_amount: 0 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP');
    assert.equal(quote.monthly, 83_333);
    assert.equal(quote.fees, 0);
  });

  it('costs less than the flat plan at the same yearly rate', () => {
    // Flat 1% a month over 12 months = 12% a year on the whole amount: 1,120,000 / 12 = 93,333.
    const flat = planQuote(plan({ fees_amount: 1 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP');
    const reducing = planQuote(plan({ rate_type: 'Reducing', fees_amount: 12 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP');
    assert.equal(flat.monthly, 93_333);
    assert.ok(reducing.totalPayable < flat.totalPayable);
  });
});

describe('when the monthly amount is rounded to the minor unit', () => {
  const fixedFree = plan({ fees_type: 'Fixed', fees_amount: 0 });

  it('rounds an exact half up: 10.01 over 2 months is 5.01 a month', () => {
    assert.equal(planQuote({ ...fixedFree, number_of_installment: 2 }, nonIslamic, 1001, 'EGP').monthly, 501);
  });

  it('rounds less than a half down, so the customer may pay slightly less than the amount', () => {
    // 1000 / 3 = 333.33 → 333; the customer pays 3 × 333 = 999.
    const quote = planQuote({ ...fixedFree, number_of_installment: 3 }, nonIslamic, 1000, 'EGP');
    assert.equal(quote.monthly, 333);
    assert.equal(quote.totalPayable, 999);
    assert.equal(quote.costOverFull, -1);
  });

  it('rounds more than a half up, and the total is what the customer pays', () => {
    // 1000 / 6 = 166.67 → 167; 6 × 167 = 1002.
    const quote = planQuote({ ...fixedFree, number_of_installment: 6 }, nonIslamic, 1000, 'EGP');
    assert.equal(quote.monthly, 167);
    assert.equal(quote.totalPayable, 1002);
    assert.equal(quote.costOverFull, 2);
  });

  it('rounds the percentage fee on its own the same way', () => {
    // 333 × 2/100 × 12 = 79.92 → 80 as the fee; (333 + 79.92) / 12 = 34.41 → 34 a month.
    const quote = planQuote(plan(), nonIslamic, 333, 'EGP');
    assert.equal(quote.fees, 80);
    assert.equal(quote.monthly, 34);
  });
});

describe('when a plan cannot be quoted for the order', () => {
  it('refuses a plan in another currency', () => {
    assert.throws(
      () => planQuote(plan({ currency_code: 'SAR' }), nonIslamic, TEN_THOUSAND_EGP, 'EGP'),
      (error) => error instanceof InstallmentError && error.rule === 'currency_mismatch',
    );
  });

  it('refuses a plan of zero months', () => {
    assert.throws(
      () => planQuote(plan({ number_of_installment: 0 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP'),
      (error) => error instanceof InstallmentError && error.field === 'number_of_installment',
    );
  });

  it('refuses a negative fee', () => {
    assert.throws(
      () => planQuote(plan({ fees_amount: -2 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP'),
      (error) => error instanceof InstallmentError && error.field === 'fees_amount' && error.rule === 'negative',
    );
  });

  it('refuses a fee percentage that is not a plain decimal', () => {
    assert.throws(
      () => planQuote(plan({ fees_amount: '2%' }), nonIslamic, TEN_THOUSAND_EGP, 'EGP'),
      (error) => error instanceof InstallmentError && error.rule === 'format',
    );
  });

  it('refuses an amount that is not whole minor units', () => {
    assert.throws(() => planQuote(plan(), nonIslamic, 100.5, 'EGP'), AmountError);
  });

  it('refuses an unknown currency', () => {
    assert.throws(() => planQuote(plan({ currency_code: 'XYZ' }), nonIslamic, TEN_THOUSAND_EGP, 'XYZ'), AmountError);
  });
});

describe('when the gateway sends its own amountPerMonth', () => {
  const quoteWith = (amountPerMonth: string | null | undefined, currency = 'EGP', overrides: Partial<InstallmentPlan> = {}) =>
    planQuote(plan({ amountPerMonth, currency_code: currency, ...overrides }), nonIslamic, TEN_THOUSAND_EGP, currency);

  it('shows the gateway value beside the formula and reports no disagreement when they are equal', () => {
    assert.deepEqual(quoteWith('1033.33').gatewayMonthly, {
      text: '1033.33',
      shown: 103_333,
      tolerance: 1,
      disagreement: undefined,
    });
  });

  it('puts a difference of one minor unit down to rounding', () => {
    const gateway = quoteWith('1033.34').gatewayMonthly;
    assert.equal(gateway?.shown, 103_334);
    assert.equal(gateway?.disagreement, undefined);
  });

  it('reports a larger difference as formula minus gateway, in minor units', () => {
    // The gateway's 916.67 would be the one-off variant at 10%; the formula says 1,033.33.
    const quote = quoteWith('916.67');
    assert.equal(quote.gatewayMonthly?.disagreement, 103_333 - 91_667);
  });

  it('keeps its own formula value as the monthly amount when the gateway disagrees', () => {
    assert.equal(quoteWith('916.67').monthly, 103_333);
  });

  it('rounds a gateway value with more decimals than the currency half up', () => {
    assert.equal(quoteWith('1033.3333333').gatewayMonthly?.shown, 103_333);
    assert.equal(quoteWith('1033.335').gatewayMonthly?.shown, 103_334);
  });

  it('widens the tolerance when the gateway prints fewer decimals than the currency has', () => {
    // 1,000.000 KWD over 12 months with no fee: 83.333 KWD (83,333 fils); the gateway prints 83.33.
    const gateway = planQuote(
      plan({ currency_code: 'KWD', fees_type: 'Fixed', fees_amount: 0, amountPerMonth: '83.33' }),
      nonIslamic,
      toMinorUnits('1000', 'KWD'),
      'KWD',
    ).gatewayMonthly;
    assert.equal(gateway?.shown, 83_330);
    assert.equal(gateway?.tolerance, 10);
    assert.equal(gateway?.disagreement, undefined);
  });

  it('reports an unreadable value as not shown, without failing the quote', () => {
    const quote = quoteWith('N/A');
    assert.equal(quote.monthly, 103_333);
    assert.equal(quote.gatewayMonthly?.text, 'N/A');
    assert.equal(quote.gatewayMonthly?.shown, undefined);
  });

  it('leaves gatewayMonthly out when the plan has no amountPerMonth', () => {
    assert.equal('gatewayMonthly' in quoteWith(undefined), false);
    assert.equal('gatewayMonthly' in quoteWith(null), false);
    assert.equal('gatewayMonthly' in quoteWith(' '), false);
  });
});

describe('monthlyInstallment', () => {
  it('gives the monthly amount of the quote', () => {
    assert.equal(monthlyInstallment(plan(), nonIslamic, TEN_THOUSAND_EGP, 'EGP'), 103_333);
    assert.equal(monthlyInstallment(plan({ fees_amount: 10 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP', { flatVariant: 'one-off' }), 91_667);
  });
});

describe('when plans are filtered for an order', () => {
  const plans = [
    plan({ plan_code: 'LOW', minimum_amount: 100_000, maximum_amount: 500_000 }),
    plan({ plan_code: 'HIGH', minimum_amount: 500_000, maximum_amount: 5_000_000 }),
    plan({ plan_code: 'SAR', currency_code: 'SAR', minimum_amount: 0, maximum_amount: 9_999_999 }),
  ];
  const codes = (found: readonly InstallmentPlan[]) => found.map((p) => p.plan_code);

  it('keeps the plans of the order currency whose range holds the amount', () => {
    assert.deepEqual(codes(filterPlans(plans, 300_000, 'EGP')), ['LOW']);
  });

  it('includes both ends of the range', () => {
    assert.deepEqual(codes(filterPlans(plans, 500_000, 'EGP')), ['LOW', 'HIGH']);
    assert.deepEqual(codes(filterPlans(plans, 100_000, 'EGP')), ['LOW']);
    assert.deepEqual(codes(filterPlans(plans, 5_000_000, 'EGP')), ['HIGH']);
  });

  it('drops every plan when the amount is below the smallest minimum or above the largest maximum', () => {
    assert.deepEqual(filterPlans(plans, 99_999, 'EGP'), []);
    assert.deepEqual(filterPlans(plans, 5_000_001, 'EGP'), []);
  });

  it('keeps only plans in the order currency', () => {
    assert.deepEqual(codes(filterPlans(plans, 300_000, 'SAR')), ['SAR']);
  });

  it('reads bounds sent as strings of digits', () => {
    const stringBounds = [plan({ minimum_amount: '100000', maximum_amount: '500000' })];
    assert.equal(filterPlans(stringBounds, 300_000, 'EGP').length, 1);
    assert.equal(filterPlans(stringBounds, 600_000, 'EGP').length, 0);
  });

  it('treats a null bound as open', () => {
    assert.equal(filterPlans([plan({ minimum_amount: null, maximum_amount: null })], 9_999_999_999, 'EGP').length, 1);
  });

  it('drops a plan whose bound cannot be read as minor units', () => {
    assert.deepEqual(filterPlans([plan({ minimum_amount: '1000.50' })], 300_000, 'EGP'), []);
  });

  it('filters an issuer\'s plan_details with eligiblePlans', () => {
    assert.deepEqual(codes(eligiblePlans(issuer({ plan_details: plans }), 300_000, 'EGP')), ['LOW']);
  });
});

describe('when a card number is matched to an issuer by BIN', () => {
  const first = issuer({ issuer_code: 'FIRST', bins: [bin('411111'), bin('520000')] });
  const longer = issuer({ issuer_code: 'LONGER', bins: [bin('41111122')] });
  const short = issuer({ issuer_code: 'SHORT', bins: [bin('6011')] });
  const issuers = [first, longer, short];

  it('finds the issuer of a full card number typed with spaces, with the bin that matched', () => {
    const match = matchIssuerByBin(issuers, '5200 0000 0000 0007');
    assert.equal(match?.issuer.issuer_code, 'FIRST');
    assert.equal(match?.bin.bin, '520000');
  });

  it('prefers the longest matching bin', () => {
    assert.equal(matchIssuerByBin(issuers, '4111 1122 3333 4444')?.issuer.issuer_code, 'LONGER');
  });

  it('uses the shorter bin while the digits typed do not yet cover the longer one', () => {
    assert.equal(matchIssuerByBin(issuers, '4111 112')?.issuer.issuer_code, 'FIRST');
  });

  it('finds nothing for a card whose BIN matches no issuer', () => {
    assert.equal(matchIssuerByBin(issuers, '3700 0000 0000 002'), undefined);
  });

  it('finds nothing with fewer digits than a 6-digit bin', () => {
    assert.equal(matchIssuerByBin(issuers, '41111'), undefined);
  });

  it('matches a bin shorter than 6 digits as soon as it is typed', () => {
    assert.equal(matchIssuerByBin(issuers, '6011')?.issuer.issuer_code, 'SHORT');
  });

  it('finds nothing for input with characters other than digits, spaces and hyphens', () => {
    assert.equal(matchIssuerByBin(issuers, '4111x11'), undefined);
    assert.equal(matchIssuerByBin(issuers, ''), undefined);
  });

  it('ignores an empty bin rather than matching every card', () => {
    assert.equal(matchIssuerByBin([issuer({ bins: [bin('')] })], '4111111111111111'), undefined);
  });

  it('picks the issuer listed first when two list the same bin', () => {
    const twin = issuer({ issuer_code: 'TWIN', bins: [bin('520000')] });
    assert.equal(matchIssuerByBin([first, twin], '520000')?.issuer.issuer_code, 'FIRST');
  });
});

describe('whatever the plan and amount', () => {
  const amounts = fc.integer({ min: 0, max: 9_999_999_999 });
  const months = fc.integer({ min: 1, max: 60 });
  const anyPlan = fc.oneof(
    fc.record({ fees_type: fc.constant('Percentage'), rate_type: fc.constant('Flat'), fees_amount: fc.integer({ min: 0, max: 50 }) }),
    fc.record({ fees_type: fc.constant('Percentage'), rate_type: fc.constant('Reducing'), fees_amount: fc.integer({ min: 0, max: 60 }) }),
    fc.record({ fees_type: fc.constant('Fixed'), rate_type: fc.constant('Flat'), fees_amount: fc.integer({ min: 0, max: 1_000_000 }) }),
  );
  const banking = fc.constantFrom(nonIslamic, islamic);
  const variant = fc.constantFrom('per-month' as const, 'one-off' as const);

  it('gives whole minor units, with totalPayable = monthly × months and costOverFull = totalPayable − amount', () => {
    fc.assert(
      fc.property(amounts, months, anyPlan, banking, variant, (amount, n, terms, bank, flatVariant) => {
        const quote = planQuote(plan({ ...terms, number_of_installment: n }), bank, amount, 'EGP', { flatVariant });
        for (const value of [quote.monthly, quote.totalPayable, quote.costOverFull, quote.fees]) {
          assert.ok(Number.isSafeInteger(value), `${value} is not a safe integer`);
        }
        assert.equal(quote.totalPayable, quote.monthly * n);
        assert.equal(quote.costOverFull, quote.totalPayable - amount);
      }),
    );
  });

  it('never lets the customer pay less than the amount by more than half a minor unit a month', () => {
    fc.assert(
      fc.property(amounts, months, anyPlan, banking, variant, (amount, n, terms, bank, flatVariant) => {
        const quote = planQuote(plan({ ...terms, number_of_installment: n }), bank, amount, 'EGP', { flatVariant });
        assert.ok(2 * quote.totalPayable >= 2 * amount - n, `${quote.totalPayable} for ${amount} over ${n}`);
      }),
    );
  });

  it('rounds the flat monthly amount to the nearest minor unit of the spec formula', () => {
    // With fee f (integer percent): exact monthly = amount × (100 + f × n) / (100 × n), so
    // |monthly − exact| ≤ 1/2 is |200 × n × monthly − 2 × amount × (100 + f × n)| ≤ 100 × n.
    fc.assert(
      fc.property(amounts, months, fc.integer({ min: 0, max: 50 }), (amount, n, f) => {
        const monthly = BigInt(monthlyInstallment(plan({ fees_amount: f, number_of_installment: n }), nonIslamic, amount, 'EGP'));
        const exactTimes200n = 2n * BigInt(amount) * (100n + BigInt(f * n));
        const difference = 200n * BigInt(n) * monthly - exactTimes200n;
        assert.ok(difference <= 100n * BigInt(n) && -difference <= 100n * BigInt(n));
      }),
    );
  });

  it('gives the same flat quote for Islamic and non-Islamic banks under the default variant', () => {
    fc.assert(
      fc.property(amounts, months, fc.integer({ min: 0, max: 50 }), (amount, n, f) => {
        const flat = plan({ fees_amount: f, number_of_installment: n });
        const { formulaKind: _a, ...conventional } = planQuote(flat, nonIslamic, amount, 'EGP');
        const { formulaKind: _b, ...islamicQuote } = planQuote(flat, islamic, amount, 'EGP');
        assert.deepEqual(islamicQuote, conventional);
      }),
    );
  });

  it('never lowers the monthly amount when the fee rises', () => {
    fc.assert(
      fc.property(amounts, months, anyPlan, fc.integer({ min: 0, max: 1000 }), (amount, n, terms, rise) => {
        const lower = planQuote(plan({ ...terms, number_of_installment: n }), nonIslamic, amount, 'EGP');
        const higher = planQuote(plan({ ...terms, fees_amount: terms.fees_amount + rise, number_of_installment: n }), nonIslamic, amount, 'EGP');
        assert.ok(higher.monthly >= lower.monthly);
      }),
    );
  });
});
