/**
 * The sandbox's installment issuers: two per installment country (United Arab Emirates, Saudi
 * Arabia, Egypt), between them every formula kind of the spec's table — percentage flat
 * non-Islamic in both variants (the fee for every month: Gulf Bank; the fee once: Delta Bank),
 * percentage flat Islamic, fixed fees and reducing rate. Each issuer's `formula` is the spec's
 * text of its plans' formulas (core `SPEC_FORMULAS`), which is what names a flat plan's variant
 * (core `flatVariantOf`). Amount bounds and fixed fees
 * are in minor units of the plan currency (as core/installments.ts reads them); percentage fees
 * are whole percents (the spec types fees_amount as an integer), reducing rates annual percents.
 *
 * The bins include the test cards' (411111 and 400000 for Visa, 512345 and 520000 for MasterCard)
 * so that a test card matches an issuer in every country.
 */
import { SPEC_FORMULAS, type InstallmentIssuer, type InstallmentPlan, type IssuerBin } from '../core/installments.ts';

type PlanSeed = Pick<InstallmentPlan, 'plan_code' | 'number_of_installment' | 'fees_type' | 'fees_amount' | 'rate_type'> & {
  readonly minimum_amount: number;
  readonly maximum_amount: number;
};

interface IssuerSeed {
  readonly issuer_code: string;
  readonly issuer_name_en: string;
  readonly issuer_name_ar: string;
  readonly country_code: string;
  readonly currency: string;
  readonly banking_system: 'Non Islamic' | 'Islamic';
  readonly formula: string;
  readonly bins: readonly (readonly [bin: string, brand: 'VISA' | 'MASTERCARD'])[];
  readonly plans: readonly PlanSeed[];
}

function feeDisplay(plan: PlanSeed, currency: string): string {
  return plan.fees_type === 'Fixed' ? `${plan.fees_amount} ${currency} (minor units)` : `${plan.fees_amount}%`;
}

function issuer(seed: IssuerSeed): InstallmentIssuer {
  const bins: IssuerBin[] = seed.bins.map(([bin, brand]) => ({
    bin,
    country_code: seed.country_code,
    currency_code: seed.currency,
    card_brand_code: brand,
  }));
  const plan_details: InstallmentPlan[] = seed.plans.map((plan) => ({
    ...plan,
    currency_code: seed.currency,
    processing_fees_type: null,
    processing_fees_amount: null,
    plan_merchant_type: 'Non Partner',
    plan_type: 'Cross-Border',
    fee_display_value: feeDisplay(plan, seed.currency),
    amountPerMonth: null,
  }));
  return {
    issuer_code: seed.issuer_code,
    issuer_name_en: seed.issuer_name_en,
    issuer_name_ar: seed.issuer_name_ar,
    terms_and_condition_en: `Sandbox terms of ${seed.issuer_name_en}: no real credit is extended.`,
    terms_and_condition_ar: `شروط تجريبية لدى ${seed.issuer_name_ar}: لا يُمنح أي ائتمان حقيقي.`,
    country_code: seed.country_code,
    issuer_logo_en: null,
    issuer_logo_ar: null,
    banking_system: seed.banking_system,
    formula: seed.formula,
    plan_details,
    bins,
    confirmation_message_en: `Your installments with ${seed.issuer_name_en} are confirmed.`,
    confirmation_message_ar: `تم تأكيد أقساطك مع ${seed.issuer_name_ar}.`,
    disclaimer_message_en: null,
    disclaimer_message_ar: null,
    processing_fees_message_en: null,
    processing_fees_message_ar: null,
  };
}

const percentFlat = (code: string, months: number, fees: number, min: number, max: number): PlanSeed => ({
  plan_code: code,
  number_of_installment: months,
  fees_type: 'Percentage',
  fees_amount: fees,
  rate_type: 'Flat',
  minimum_amount: min,
  maximum_amount: max,
});

const fixed = (code: string, months: number, fees: number, min: number, max: number): PlanSeed => ({
  plan_code: code,
  number_of_installment: months,
  fees_type: 'Fixed',
  fees_amount: fees,
  rate_type: 'Flat',
  minimum_amount: min,
  maximum_amount: max,
});

const reducing = (code: string, months: number, annualRate: number, min: number, max: number): PlanSeed => ({
  plan_code: code,
  number_of_installment: months,
  fees_type: 'Percentage',
  fees_amount: annualRate,
  rate_type: 'Reducing',
  minimum_amount: min,
  maximum_amount: max,
});

/** Every issuer the plans query can return, in a stable order. */
export const INSTALLMENT_ISSUERS: readonly InstallmentIssuer[] = [
  issuer({
    issuer_code: 'AEFLAT1',
    issuer_name_en: 'Sandbox Gulf Bank',
    issuer_name_ar: 'بنك الخليج التجريبي',
    country_code: 'ARE',
    currency: 'AED',
    banking_system: 'Non Islamic',
    formula: SPEC_FORMULAS.flatPerMonth,
    bins: [['411111', 'VISA'], ['400000', 'VISA']],
    plans: [
      percentFlat('AEF03', 3, 1, 50_000, 5_000_000),
      percentFlat('AEF06', 6, 1, 50_000, 5_000_000),
      percentFlat('AEF12', 12, 1, 100_000, 10_000_000),
    ],
  }),
  issuer({
    issuer_code: 'AEISLM1',
    issuer_name_en: 'Sandbox Emirates Islamic Bank',
    issuer_name_ar: 'مصرف الإمارات الإسلامي التجريبي',
    country_code: 'ARE',
    currency: 'AED',
    banking_system: 'Islamic',
    formula: SPEC_FORMULAS.flatIslamic,
    bins: [['512345', 'MASTERCARD'], ['520000', 'MASTERCARD']],
    plans: [
      percentFlat('AEI06', 6, 1, 50_000, 5_000_000),
      percentFlat('AEI12', 12, 1, 100_000, 10_000_000),
    ],
  }),
  issuer({
    issuer_code: 'SAREDU1',
    issuer_name_en: 'Sandbox Riyadh Bank',
    issuer_name_ar: 'بنك الرياض التجريبي',
    country_code: 'SAU',
    currency: 'SAR',
    banking_system: 'Non Islamic',
    formula: SPEC_FORMULAS.reducing,
    bins: [['411111', 'VISA'], ['400000', 'VISA']],
    plans: [
      reducing('SAR06', 6, 12, 50_000, 5_000_000),
      reducing('SAR12', 12, 12, 100_000, 10_000_000),
    ],
  }),
  issuer({
    issuer_code: 'SAISLM1',
    issuer_name_en: 'Sandbox Al Madina Islamic Bank',
    issuer_name_ar: 'مصرف المدينة الإسلامي التجريبي',
    country_code: 'SAU',
    currency: 'SAR',
    banking_system: 'Islamic',
    formula: `${SPEC_FORMULAS.flatIslamic}; ${SPEC_FORMULAS.fixed}`,
    bins: [['512345', 'MASTERCARD'], ['520000', 'MASTERCARD']],
    plans: [
      percentFlat('SAI03', 3, 2, 50_000, 5_000_000),
      fixed('SAX06', 6, 5_000, 50_000, 5_000_000),
    ],
  }),
  issuer({
    issuer_code: 'EGFIX1',
    issuer_name_en: 'Sandbox Nile Bank',
    issuer_name_ar: 'بنك النيل التجريبي',
    country_code: 'EGY',
    currency: 'EGP',
    banking_system: 'Non Islamic',
    formula: SPEC_FORMULAS.fixed,
    bins: [['411111', 'VISA'], ['400000', 'VISA']],
    plans: [
      fixed('EGX06', 6, 10_000, 100_000, 20_000_000),
      fixed('EGX12', 12, 20_000, 200_000, 50_000_000),
    ],
  }),
  issuer({
    issuer_code: 'EGMIX1',
    issuer_name_en: 'Sandbox Delta Bank',
    issuer_name_ar: 'بنك الدلتا التجريبي',
    country_code: 'EGY',
    currency: 'EGP',
    banking_system: 'Non Islamic',
    formula: `${SPEC_FORMULAS.flatOneOff}; ${SPEC_FORMULAS.reducing}`,
    bins: [['512345', 'MASTERCARD'], ['520000', 'MASTERCARD']],
    plans: [
      percentFlat('EGF06', 6, 2, 100_000, 20_000_000),
      reducing('EGR12', 12, 18, 200_000, 50_000_000),
    ],
  }),
];
