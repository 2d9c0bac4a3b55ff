import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AmountError, fromMinorUnits, toMinorUnits } from '../../src/core/amounts.ts';
import type { InstallmentPlansResult } from '../../src/core/endpoint-api.ts';
import type { installmentIssuerDetail } from '../../src/core/schemas/index.ts';
import type { Infer } from '../../src/core/shape.ts';
import {
  completionInstallments,
  eligiblePlans,
  filterPlans,
  flatVariantOf,
  formulaKindOf,
  InstallmentError,
  matchIssuerByBin,
  monthlyInstallment,
  planQuote,
  pmt,
  SPEC_FORMULAS,
  type InstallmentIssuer,
  type InstallmentPlan,
  type IssuerBin,
  type PlanQuote,
  type QuoteOptions,
} from '../../src/core/installments.ts';

// Compile-time checks: what the endpoint's and the gateway's schemas parse fits these types.
const _parsedIssuerFits = (issuer: InstallmentPlansResult['issuers'][number]): InstallmentIssuer => issuer;
const _gatewayIssuerFits = (issuer: Infer<typeof installmentIssuerDetail>): InstallmentIssuer => issuer;

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

/** A quote for 10,000.00 EGP on the default plan with `overrides`. */
function quoteTenThousand(
  overrides: Partial<InstallmentPlan>,
  bank: { banking_system: string } = nonIslamic,
  options?: QuoteOptions,
) {
  return planQuote(plan(overrides), bank, TEN_THOUSAND_EGP, 'EGP', options);
}

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
    const shouted = plan({ fees_type: 'PERCENTAGE', rate_type: 'flat' });
    assert.equal(formulaKindOf(shouted, { banking_system: 'NON_ISLAMIC' }), 'percentage-flat');
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
  it('by default charges the fee for every month: 10,000.00 EGP at 2% over 12 months costs 12,400.00', () => {
    // 1,000,000 + 1,000,000 × 2/100 × 12 = 1,240,000 in all; 1,240,000 / 12 = 103,333.33… → 103,334
    // for 11 months, and 1,240,000 − 11 × 103,334 = 103,326 in the last.
    const quote = quoteTenThousand({});
    assert.deepEqual(quote, {
      formulaKind: 'percentage-flat',
      months: 12,
      monthly: 103_334,
      lastMonthly: 103_326,
      totalPayable: 1_240_000,
      costOverFull: 240_000,
      fees: 240_000,
      flatVariant: { variant: 'per-month', decidedBy: 'default' },
    });
  });

  it('with the one-off variant charges the fee once: 10,000.00 EGP at 10% over 12 months costs 11,000.00', () => {
    // 1,000,000 + 1,000,000 × 10/100 = 1,100,000; / 12 = 91,666.67 → 91,667; last 1,100,000 − 11 × 91,667 = 91,663
    const quote = quoteTenThousand({ fees_amount: 10 }, nonIslamic, { flatVariant: 'one-off' });
    assert.equal(quote.totalPayable, 1_100_000);
    assert.equal(quote.monthly, 91_667);
    assert.equal(quote.lastMonthly, 91_663);
    assert.equal(quote.fees, 100_000);
  });

  it('accepts a decimal percentage: 1.5% a month on 10,000.00 EGP over 12 months costs 11,800.00', () => {
    // 1,000,000 + 1,000,000 × 1.5/100 × 12 = 1,180,000; / 12 = 98,333.33 → 98,334; last 98,326
    for (const fees_amount of ['1.5', 1.5]) {
      const quote = quoteTenThousand({ fees_amount });
      assert.equal(quote.totalPayable, 1_180_000);
      assert.equal(quote.monthly, 98_334);
      assert.equal(quote.lastMonthly, 98_326);
    }
  });

  it('with no fee, splits the amount evenly', () => {
    const quote = planQuote(plan({ fees_amount: 0 }), nonIslamic, 120_000, 'EGP');
    assert.equal(quote.monthly, 10_000);
    assert.equal(quote.lastMonthly, 10_000);
    assert.equal(quote.costOverFull, 0);
  });
});

describe('which flat variant a non-Islamic flat plan uses (flatVariantOf)', () => {
  const withFormula = (formula: string | null) => ({ banking_system: 'Non Islamic', formula });

  it('takes the one-off variant from an issuer whose formula is the spec’s second flat formula', () => {
    // 1,000,000 + 1,000,000 × 2/100 = 1,020,000 in all; / 12 = 85,000 a month.
    const quote = planQuote(plan(), withFormula(SPEC_FORMULAS.flatOneOff), TEN_THOUSAND_EGP, 'EGP');
    assert.deepEqual(quote.flatVariant, { variant: 'one-off', decidedBy: 'formula' });
    assert.equal(quote.totalPayable, 1_020_000);
    assert.equal(quote.monthly, 85_000);
    assert.equal(quote.fees, 20_000);
  });

  it('takes the per-month variant from an issuer whose formula is the spec’s first flat formula', () => {
    const quote = planQuote(plan(), withFormula(SPEC_FORMULAS.flatPerMonth), TEN_THOUSAND_EGP, 'EGP');
    assert.deepEqual(quote.flatVariant, { variant: 'per-month', decidedBy: 'formula' });
    assert.equal(quote.totalPayable, 1_240_000);
  });

  it('reads the formula without regard to case, spaces or redundant parentheses', () => {
    for (const formula of ['(AMOUNT+(AMOUNT*(FEES/100)))/MONTHS', 'amount + amount * fees / 100 / months', 'Flat: (amount + (amount × (fees ÷ 100))) / months']) {
      assert.equal(flatVariantOf(plan(), withFormula(formula), TEN_THOUSAND_EGP, 'EGP').variant, 'one-off', formula);
    }
    assert.equal(flatVariantOf(plan(), withFormula('(amount + amount * fees / 100 * months) / months'), TEN_THOUSAND_EGP, 'EGP').variant, 'per-month');
  });

  it('lets a formula that names a flat variant beside other kinds’ formulas decide', () => {
    const formula = `${SPEC_FORMULAS.flatOneOff}; ${SPEC_FORMULAS.reducing}`;
    assert.deepEqual(flatVariantOf(plan(), withFormula(formula), TEN_THOUSAND_EGP, 'EGP'), { variant: 'one-off', decidedBy: 'formula' });
  });

  it('when the formula names neither variant, or both, takes the one the gateway’s amountPerMonth shows', () => {
    for (const formula of [null, 'Percentage fees, flat rate', `${SPEC_FORMULAS.flatPerMonth} or ${SPEC_FORMULAS.flatOneOff}`]) {
      const oneOff = planQuote(plan({ amountPerMonth: '850.00' }), withFormula(formula), TEN_THOUSAND_EGP, 'EGP');
      assert.deepEqual(oneOff.flatVariant, { variant: 'one-off', decidedBy: 'amountPerMonth' }, String(formula));
      assert.equal(oneOff.monthly, 85_000);
      assert.equal(oneOff.gatewayMonthly?.disagreement, undefined);
      const perMonth = planQuote(plan({ amountPerMonth: '1033.33' }), withFormula(formula), TEN_THOUSAND_EGP, 'EGP');
      assert.deepEqual(perMonth.flatVariant, { variant: 'per-month', decidedBy: 'amountPerMonth' });
    }
  });

  it('keeps the formula’s variant when the gateway’s amountPerMonth shows the other, and reports the difference', () => {
    const quote = planQuote(plan({ amountPerMonth: '850.00' }), withFormula(SPEC_FORMULAS.flatPerMonth), TEN_THOUSAND_EGP, 'EGP');
    assert.equal(quote.flatVariant?.variant, 'per-month');
    assert.equal(quote.gatewayMonthly?.disagreement, 103_333 - 85_000);
  });

  it('falls back to per-month when nothing names a variant, or the gateway’s figure fits neither', () => {
    assert.deepEqual(flatVariantOf(plan(), withFormula(null), TEN_THOUSAND_EGP, 'EGP'), { variant: 'per-month', decidedBy: 'default' });
    assert.deepEqual(flatVariantOf(plan({ amountPerMonth: '700.00' }), withFormula(null), TEN_THOUSAND_EGP, 'EGP'), { variant: 'per-month', decidedBy: 'default' });
  });

  it('leaves Islamic, fixed and reducing plans without a flat variant, whatever the formula says', () => {
    const oneOff = SPEC_FORMULAS.flatOneOff;
    assert.equal(planQuote(plan(), { banking_system: 'Islamic', formula: oneOff }, TEN_THOUSAND_EGP, 'EGP').totalPayable, 1_240_000);
    assert.equal('flatVariant' in planQuote(plan(), { banking_system: 'Islamic', formula: oneOff }, TEN_THOUSAND_EGP, 'EGP'), false);
    assert.equal('flatVariant' in planQuote(plan({ fees_type: 'Fixed', fees_amount: 500 }), withFormula(oneOff), TEN_THOUSAND_EGP, 'EGP'), false);
  });

  it('gives way to an explicit flatVariant option', () => {
    const quote = planQuote(plan(), withFormula(SPEC_FORMULAS.flatOneOff), TEN_THOUSAND_EGP, 'EGP', { flatVariant: 'per-month' });
    assert.deepEqual(quote.flatVariant, { variant: 'per-month', decidedBy: 'option' });
  });
});

describe('when an Islamic flat percentage plan is quoted', () => {
  it('costs 12,400.00 for 10,000.00 EGP at 2% over 12 months', () => {
    // ((12 × 2/100) + 1) × 1,000,000 = 1,240,000 in all; 103,334 for 11 months and 103,326 in the last
    const quote = quoteTenThousand({}, islamic);
    assert.equal(quote.formulaKind, 'percentage-flat-islamic');
    assert.equal(quote.totalPayable, 1_240_000);
    assert.equal(quote.monthly, 103_334);
    assert.equal(quote.lastMonthly, 103_326);
    assert.equal(quote.fees, 240_000);
  });

  it('ignores the one-off variant, which only concerns non-Islamic plans', () => {
    const quote = quoteTenThousand({}, islamic, { flatVariant: 'one-off' });
    assert.equal(quote.totalPayable, 1_240_000);
  });
});

describe('when a fixed-fee plan is quoted', () => {
  it('adds the fee in minor units: 10,000.00 EGP plus 500.00 over 12 months is 875.00 a month', () => {
    // (1,000,000 + 50,000) / 12 = 87,500
    const quote = quoteTenThousand({ fees_type: 'Fixed', fees_amount: 50_000 });
    assert.deepEqual(quote, {
      formulaKind: 'fixed',
      months: 12,
      monthly: 87_500,
      lastMonthly: 87_500,
      totalPayable: 1_050_000,
      costOverFull: 50_000,
      fees: 50_000,
    });
  });

  it('accepts the fee as a string of digits', () => {
    const quote = quoteTenThousand({ fees_type: 'Fixed', fees_amount: '50000' });
    assert.equal(quote.monthly, 87_500);
  });

  it('refuses a decimal fee, since the fee is in minor units', () => {
    assert.throws(
      () => quoteTenThousand({ fees_type: 'Fixed', fees_amount: '500.00' }),
      (error) => error instanceof InstallmentError && error.field === 'fees_amount' && error.rule === 'format',
    );
  });

  it('refuses a negative fee, or one of more than 10 digits, as a plan it cannot quote, not as a bad order amount', () => {
    // Callers leave out a plan that throws InstallmentError; an AmountError would fail the whole plans answer.
    for (const [fees_amount, rule] of [[-500, 'negative'], ['-500', 'negative'], [12_345_678_901, 'out_of_range'], ['12345678901', 'out_of_range']] as const) {
      assert.throws(
        () => quoteTenThousand({ fees_type: 'Fixed', fees_amount }),
        (error) => error instanceof InstallmentError && error.field === 'fees_amount' && error.rule === rule,
        `${fees_amount}`,
      );
    }
  });
});

describe('when a reducing-rate plan is quoted', () => {
  it('uses PMT at fees/12 % a month: 10,000.00 EGP at 12% a year over 12 months costs 10,661.85', () => {
    // PMT(0.01, 12, 1,000,000) = -88,848.7886783417…; 12 × 88,848.7886783417 = 1,066,185.464… → 1,066,185
    // in all; 1,066,185 / 12 = 88,848.75 → 88,849 for 11 months, 1,066,185 − 977,339 = 88,846 in the last.
    const quote = quoteTenThousand({ rate_type: 'Reducing', fees_amount: 12 });
    assert.deepEqual(quote, {
      formulaKind: 'reducing',
      months: 12,
      monthly: 88_849,
      lastMonthly: 88_846,
      totalPayable: 1_066_185,
      costOverFull: 66_185,
      fees: 66_185,
    });
  });

  it('with a zero rate, costs exactly the amount', () => {
    // 1,000,000 / 12 = 83,333.33 → 83,334 for 11 months, 1,000,000 − 916,674 = 83,326 in the last
    const quote = quoteTenThousand({ rate_type: 'Reducing', fees_amount: 0 });
    assert.equal(quote.totalPayable, TEN_THOUSAND_EGP);
    assert.equal(quote.monthly, 83_334);
    assert.equal(quote.lastMonthly, 83_326);
    assert.equal(quote.fees, 0);
  });

  it('rounds an exact half of the total up: EGP 1.00 at 6% a year over 1 month costs 1.01', () => {
    // 100 × (1 + 6/1200) = 100.5 → 101; 300 × 1.005 = 301.5 → 302. A double PMT gives 100.4999… and 301.4999….
    const oneMonth = (amount: number) =>
      planQuote(plan({ rate_type: 'Reducing', fees_amount: 6, number_of_installment: 1 }), nonIslamic, amount, 'EGP');
    assert.deepEqual([oneMonth(100).totalPayable, oneMonth(100).monthly, oneMonth(100).fees], [101, 101, 1]);
    assert.deepEqual([oneMonth(300).totalPayable, oneMonth(300).fees], [302, 2]);
  });

  it('rounds the exact PMT total, not a floating-point one: EGP 862.75 at 36% over 2 months costs 901.77', () => {
    // r = 3%: 2 × 86,275 × 0.03 × 1.0609 / 0.0609 = 90,176.5 exactly → 90,177; 45,089 then 45,088.
    const quote = planQuote(plan({ rate_type: 'Reducing', fees_amount: 36, number_of_installment: 2 }), nonIslamic, 86_275, 'EGP');
    assert.deepEqual([quote.totalPayable, quote.monthly, quote.lastMonthly, quote.fees], [90_177, 45_089, 45_088, 3_902]);
  });

  it('reads a decimal annual rate exactly: 10,000.00 EGP at 12.5% a year over 6 months', () => {
    // r = 12.5/1200 = 1/96; total = 6 × 1,000,000 × (97/96)^6 / (96 × ((97/96)^6 − 1)) = 1,036,773.15… → 1,036,773.
    const quote = quoteTenThousand({ rate_type: 'Reducing', fees_amount: '12.5', number_of_installment: 6 });
    assert.equal(quote.totalPayable, 1_036_773);
  });

  it('compares the gateway’s amountPerMonth with the exact monthly payment rounded half up', () => {
    // EGP 1.00 at 6% over 1 month pays exactly 1.005 → 1.01, two minor units above the gateway’s 0.99.
    const quote = planQuote(
      plan({ rate_type: 'Reducing', fees_amount: 6, number_of_installment: 1, amountPerMonth: '0.99' }),
      nonIslamic,
      100,
      'EGP',
    );
    assert.equal(quote.gatewayMonthly?.disagreement, 2);
  });

  it('costs less than the flat plan at the same yearly rate', () => {
    // Flat 1% a month over 12 months = 12% a year on the whole amount: 1,120,000 in all.
    const flat = quoteTenThousand({ fees_amount: 1 });
    const reducing = quoteTenThousand({ rate_type: 'Reducing', fees_amount: 12 });
    assert.equal(flat.totalPayable, 1_120_000);
    assert.ok(reducing.totalPayable < flat.totalPayable);
  });
});

describe('when the amounts are rounded to the minor unit', () => {
  const fixedFree = plan({ fees_type: 'Fixed', fees_amount: 0 });
  const freeOver = (months: number, amount: number) =>
    planQuote({ ...fixedFree, number_of_installment: months }, nonIslamic, amount, 'EGP');

  it('with no fee, never shows the customer paying less than the amount: 10.00 over 3 months', () => {
    // 1000 / 3 = 333.33 → 334 for 2 months, 1000 − 668 = 332 in the last; 1000 in all, no cost.
    assert.deepEqual(freeOver(3, 1000), {
      formulaKind: 'fixed',
      months: 3,
      monthly: 334,
      lastMonthly: 332,
      totalPayable: 1000,
      costOverFull: 0,
      fees: 0,
    });
  });

  it('rounds the monthly amount up even past a half, and takes the excess off the last month', () => {
    // 1000 / 6 = 166.67 → 167 for 5 months, 1000 − 835 = 165 in the last.
    const quote = freeOver(6, 1000);
    assert.equal(quote.monthly, 167);
    assert.equal(quote.lastMonthly, 165);
    assert.equal(quote.totalPayable, 1000);
    assert.equal(quote.costOverFull, 0);
  });

  it('rounds an exact half up too: 10.01 over 2 months is 5.01 then 5.00', () => {
    const quote = freeOver(2, 1001);
    assert.equal(quote.monthly, 501);
    assert.equal(quote.lastMonthly, 500);
  });

  it('rounds the exact total once, half up, and derives the monthly amounts from it', () => {
    // 333 + 333 × 2/100 × 12 = 412.92 → 413 in all, 80 in fees; 413 / 12 = 34.42 → 35 for 11 months,
    // 413 − 385 = 28 in the last.
    const quote = planQuote(plan(), nonIslamic, 333, 'EGP');
    assert.equal(quote.totalPayable, 413);
    assert.equal(quote.fees, 80);
    assert.equal(quote.costOverFull, 80);
    assert.equal(quote.monthly, 35);
    assert.equal(quote.lastMonthly, 28);
  });

  it('rounds an exact half of the total up', () => {
    // 50 + 50 × 1/100 × 1 = 50.5 → 51.
    const quote = planQuote(plan({ fees_amount: 1, number_of_installment: 1 }), nonIslamic, 50, 'EGP');
    assert.equal(quote.totalPayable, 51);
    assert.equal(quote.monthly, 51);
    assert.equal(quote.lastMonthly, 51);
  });

  it('refuses a total too small to split into equal payments and a smaller last one', () => {
    // 0.05 over 4 months: 5 / 4 → 2, but 3 × 2 = 6 is already more than 5.
    assert.throws(
      () => freeOver(4, 5),
      (error) =>
        error instanceof InstallmentError && error.field === 'number_of_installment' && error.rule === 'out_of_range',
    );
    assert.deepEqual([freeOver(4, 4).monthly, freeOver(4, 4).lastMonthly], [1, 1]);
    assert.deepEqual([freeOver(4, 0).monthly, freeOver(4, 0).lastMonthly], [0, 0]);
  });
});

describe('when a plan cannot be quoted for the order', () => {
  it('refuses a plan in another currency', () => {
    assert.throws(
      () => quoteTenThousand({ currency_code: 'SAR' }),
      (error) => error instanceof InstallmentError && error.rule === 'currency_mismatch',
    );
  });

  it('refuses a plan of zero months', () => {
    assert.throws(
      () => quoteTenThousand({ number_of_installment: 0 }),
      (error) => error instanceof InstallmentError && error.field === 'number_of_installment',
    );
  });

  it('refuses a plan of more than 99 months, more than the customer’s 2-digit number_of_installments can name', () => {
    assert.equal(quoteTenThousand({ number_of_installment: 99, fees_amount: 0 }).months, 99);
    for (const months of [100, 1e9, 1.5, Number.NaN]) {
      assert.throws(
        () => quoteTenThousand({ rate_type: 'Reducing', number_of_installment: months }),
        (error) => error instanceof InstallmentError && error.field === 'number_of_installment' && error.rule === 'out_of_range',
        `${months}`,
      );
    }
  });

  it('refuses a negative fee', () => {
    assert.throws(
      () => quoteTenThousand({ fees_amount: -2 }),
      (error) => error instanceof InstallmentError && error.field === 'fees_amount' && error.rule === 'negative',
    );
  });

  it('refuses a fee percentage that is not a plain decimal', () => {
    assert.throws(
      () => quoteTenThousand({ fees_amount: '2%' }),
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
  const quoteWith = (amountPerMonth: string | null | undefined) => quoteTenThousand({ amountPerMonth });

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

  it('compares with the formula\'s monthly amount rounded half up, not the rounded-up monthly payment', () => {
    // The formula's monthly is 103,333.33 → 103,333; the customer pays 103,334 for 11 months.
    const quote = quoteWith('1033.32');
    assert.equal(quote.monthly, 103_334);
    assert.equal(quote.gatewayMonthly?.disagreement, undefined);
    assert.equal(quoteWith('1033.31').gatewayMonthly?.disagreement, 2);
    assert.equal(quoteWith('1033.35').gatewayMonthly?.disagreement, -2);
  });

  it('reports a larger difference as formula minus gateway, in minor units', () => {
    // The gateway's 916.67 would be the one-off variant at 10%; the formula says 1,033.33.
    const quote = quoteWith('916.67');
    assert.equal(quote.gatewayMonthly?.disagreement, 103_333 - 91_667);
  });

  it('keeps its own amounts when the gateway disagrees', () => {
    const quote = quoteWith('916.67');
    assert.equal(quote.monthly, 103_334);
    assert.equal(quote.totalPayable, 1_240_000);
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
    assert.equal(quote.monthly, 103_334);
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
    assert.equal(monthlyInstallment(plan(), nonIslamic, TEN_THOUSAND_EGP, 'EGP'), 103_334);
    const oneOff = { flatVariant: 'one-off' } as const;
    assert.equal(monthlyInstallment(plan({ fees_amount: 10 }), nonIslamic, TEN_THOUSAND_EGP, 'EGP', oneOff), 91_667);
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

  it('with an order currency, skips bins of issuers in another currency', () => {
    const inDirhams = issuer({ issuer_code: 'AED', bins: [{ ...bin('411111'), currency_code: 'AED' }] });
    const inPounds = issuer({ issuer_code: 'EGP', bins: [bin('411111')] });
    assert.equal(matchIssuerByBin([inDirhams, inPounds], '411111', { currency: 'EGP' })?.issuer.issuer_code, 'EGP');
    assert.equal(matchIssuerByBin([inDirhams, inPounds], '411111')?.issuer.issuer_code, 'AED');
  });

  it('with an order currency, still matches a bin that names no currency', () => {
    const unnamed = issuer({ bins: [{ bin: '411111' }] });
    assert.equal(matchIssuerByBin([unnamed], '411111', { currency: 'EGP' })?.issuer, unnamed);
  });

  it('picks the issuer listed first when two list the same bin', () => {
    const twin = issuer({ issuer_code: 'TWIN', bins: [bin('520000')] });
    assert.equal(matchIssuerByBin([first, twin], '520000')?.issuer.issuer_code, 'FIRST');
  });
});

describe('whatever the plan and amount', () => {
  // Small amounts are drawn often, to reach totals too small to split over many months.
  const amounts = fc.oneof(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 9_999_999_999 }));
  const terms = (feesType: string, rateType: string, maxFee: number) =>
    fc.record({
      fees_type: fc.constant(feesType),
      rate_type: fc.constant(rateType),
      fees_amount: fc.integer({ min: 0, max: maxFee }),
    });
  const months = fc.integer({ min: 1, max: 60 });
  const anyPlan = fc.oneof(
    terms('Percentage', 'Flat', 50),
    terms('Percentage', 'Reducing', 60),
    terms('Fixed', 'Flat', 1_000_000),
  );
  const banking = fc.constantFrom(nonIslamic, islamic);
  const variant = fc.constantFrom('per-month' as const, 'one-off' as const);

  /** The quote, or undefined when the total is too small to split over the months. */
  function quoteOrRefusal(...args: Parameters<typeof planQuote>): PlanQuote | undefined {
    try {
      return planQuote(...args);
    } catch (error) {
      const refused =
        error instanceof InstallmentError && error.field === 'number_of_installment' && error.rule === 'out_of_range';
      if (!refused) throw error;
      return undefined;
    }
  }

  it('gives whole minor units whose payments add up exactly to totalPayable', () => {
    fc.assert(
      fc.property(amounts, months, anyPlan, banking, variant, (amount, n, chosen, bank, flatVariant) => {
        const quote = quoteOrRefusal(plan({ ...chosen, number_of_installment: n }), bank, amount, 'EGP', {
          flatVariant,
        });
        if (quote === undefined) return;
        for (const value of [quote.monthly, quote.lastMonthly, quote.totalPayable, quote.costOverFull, quote.fees]) {
          assert.ok(Number.isSafeInteger(value), `${value} is not a safe integer`);
        }
        assert.equal(quote.monthly * (n - 1) + quote.lastMonthly, quote.totalPayable);
        assert.ok(quote.lastMonthly >= 0, `last month ${quote.lastMonthly}`);
        const difference = quote.monthly - quote.lastMonthly;
        assert.ok(difference >= 0 && difference < n, `monthly ${quote.monthly}, last ${quote.lastMonthly}, ${n} months`);
        assert.equal(quote.costOverFull, quote.totalPayable - amount);
        assert.equal(quote.fees, quote.costOverFull);
      }),
    );
  });

  it('never shows the customer paying less than the amount', () => {
    fc.assert(
      fc.property(amounts, months, anyPlan, banking, variant, (amount, n, chosen, bank, flatVariant) => {
        const quote = quoteOrRefusal(plan({ ...chosen, number_of_installment: n }), bank, amount, 'EGP', {
          flatVariant,
        });
        if (quote === undefined) return;
        assert.ok(quote.totalPayable >= amount, `${quote.totalPayable} for ${amount} over ${n}`);
        assert.ok(quote.costOverFull >= 0);
      }),
    );
  });

  it('refuses a split only when the amount is below months × (months − 1) minor units', () => {
    fc.assert(
      fc.property(amounts, months, anyPlan, banking, variant, (amount, n, chosen, bank, flatVariant) => {
        const quote = quoteOrRefusal(plan({ ...chosen, number_of_installment: n }), bank, amount, 'EGP', {
          flatVariant,
        });
        assert.ok(quote !== undefined || amount < n * (n - 1), `${amount} over ${n} was refused`);
      }),
    );
  });

  it('rounds the exact flat total half up, once, to the minor unit', () => {
    // With fee f (integer percent): exact total = amount × (100 + f × n) / 100, so
    // −1/2 < total − exact ≤ 1/2 is −100 < 200 × total − 2 × amount × (100 + f × n) ≤ 100.
    fc.assert(
      fc.property(amounts, months, fc.integer({ min: 0, max: 50 }), (amount, n, f) => {
        const quote = quoteOrRefusal(plan({ fees_amount: f, number_of_installment: n }), nonIslamic, amount, 'EGP');
        if (quote === undefined) return;
        const difference = 200n * BigInt(quote.totalPayable) - 2n * BigInt(amount) * (100n + BigInt(f * n));
        assert.ok(difference <= 100n && difference > -100n, `${quote.totalPayable} for ${amount} at ${f}% over ${n}`);
      }),
    );
  });

  it('rounds the exact reducing total half up, once, to the minor unit', () => {
    // An independent statement of PMT: the n payments P, each discounted by (1 + r)^k, repay the amount,
    // so P = amount / Σ (1 + r)^−k. With r = p / q: P = amount × (q + p)^n / Σ q^k × (q + p)^(n − k).
    const rates = fc.record({ units: fc.integer({ min: 0, max: 600_000 }), scale: fc.integer({ min: 0, max: 4 }) });
    fc.assert(
      fc.property(amounts, months, rates, (amount, n, { units, scale }) => {
        const fee = scale === 0 ? String(units) : `${Math.trunc(units / 10 ** scale)}.${String(units % 10 ** scale).padStart(scale, '0')}`;
        const quote = quoteOrRefusal(plan({ rate_type: 'Reducing', fees_amount: fee, number_of_installment: n }), nonIslamic, amount, 'EGP');
        const p = BigInt(units);
        const q = 1200n * 10n ** BigInt(scale);
        let discounted = 0n;
        for (let k = 1; k <= n; k++) discounted += q ** BigInt(k) * (q + p) ** BigInt(n - k);
        const totalNumerator = BigInt(n) * BigInt(amount) * (q + p) ** BigInt(n);
        const expected = (2n * totalNumerator + discounted) / (2n * discounted);
        if (quote === undefined) {
          // Refused only when the rounded-up monthly payments leave nothing for the last month.
          const monthly = (expected + BigInt(n) - 1n) / BigInt(n);
          assert.ok(monthly * BigInt(n - 1) > expected, `${amount} at ${fee}% over ${n} was refused`);
          return;
        }
        assert.equal(BigInt(quote.totalPayable), expected, `${amount} at ${fee}% over ${n}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('adds a fixed fee to the amount exactly', () => {
    fc.assert(
      fc.property(amounts, months, fc.integer({ min: 0, max: 1_000_000 }), (amount, n, fee) => {
        const fixed = plan({ fees_type: 'Fixed', fees_amount: fee, number_of_installment: n });
        const quote = quoteOrRefusal(fixed, nonIslamic, amount, 'EGP');
        if (quote === undefined) return;
        assert.equal(quote.totalPayable, amount + fee);
        assert.equal(quote.fees, fee);
      }),
    );
  });

  it('gives the same flat quote for Islamic and non-Islamic banks under the default variant', () => {
    fc.assert(
      fc.property(amounts, months, fc.integer({ min: 0, max: 50 }), (amount, n, f) => {
        const flat = plan({ fees_amount: f, number_of_installment: n });
        const conventional = quoteOrRefusal(flat, nonIslamic, amount, 'EGP');
        const islamicQuote = quoteOrRefusal(flat, islamic, amount, 'EGP');
        assert.deepEqual(
          islamicQuote && { ...islamicQuote, formulaKind: undefined, flatVariant: undefined },
          conventional && { ...conventional, formulaKind: undefined, flatVariant: undefined },
        );
      }),
    );
  });

  it('never lowers the total or the monthly amount when the fee rises', () => {
    fc.assert(
      fc.property(amounts, months, anyPlan, fc.integer({ min: 0, max: 1000 }), (amount, n, chosen, rise) => {
        const lower = quoteOrRefusal(plan({ ...chosen, number_of_installment: n }), nonIslamic, amount, 'EGP');
        const dearer = plan({ ...chosen, fees_amount: chosen.fees_amount + rise, number_of_installment: n });
        const higher = quoteOrRefusal(dearer, nonIslamic, amount, 'EGP');
        if (lower === undefined || higher === undefined) return;
        assert.ok(higher.totalPayable >= lower.totalPayable);
        assert.ok(higher.monthly >= lower.monthly);
      }),
    );
  });

  it('sees no disagreement when the gateway sends back the quote\'s own monthly amount', () => {
    // The monthly payment is rounded up from the total and the formula's monthly is rounded half up
    // on its own, so they differ by at most one minor unit, within the tolerance.
    fc.assert(
      fc.property(amounts, months, anyPlan, banking, (amount, n, chosen, bank) => {
        const quoted = plan({ ...chosen, number_of_installment: n });
        const quote = quoteOrRefusal(quoted, bank, amount, 'EGP');
        // Wire amounts have at most 10 digits in minor units; a larger monthly cannot be sent back.
        if (quote === undefined || quote.monthly > 9_999_999_999) return;
        const amountPerMonth = fromMinorUnits(quote.monthly, 'EGP');
        const echoed = planQuote({ ...quoted, amountPerMonth }, bank, amount, 'EGP').gatewayMonthly;
        assert.equal(echoed?.shown, quote.monthly);
        assert.ok(echoed.disagreement === undefined, `${amountPerMonth} against ${quote.monthly}`);
      }),
    );
  });
});

describe('the installments value of a completion (completionInstallments)', () => {
  it('is YES (direct operation) for a plan the gateway’s page returned', () => {
    assert.equal(completionInstallments('gateway-page'), 'YES');
  });

  it('is HOSTED (hosted checkout) for a plan chosen on the merchant’s page', () => {
    assert.equal(completionInstallments('merchant-page'), 'HOSTED');
  });
});
