/**
 * A synthetic installment-plans answer of the benchmark's size: 50 issuers of 10 plans each, all
 * eligible for the order, every issuer with its own 6-digit BIN so that each BIN change picks a
 * different issuer. Shaped by the contract's `installmentPlansResult` schema.
 */
import type { InstallmentPlansResult } from '../src/core/endpoint-api.ts';

export const ISSUER_COUNT = 50;
export const PLANS_PER_ISSUER = 10;
export const PLANS_ORDER = { merchant_reference: 'BENCH-0001', amount: 1_500_000, currency: 'AED' } as const;

/** The BIN of issuer `index`: `4` + three digits of the index + `11`, never a prefix of another. */
export function issuerBin(index: number): string {
  return `4${String(index).padStart(3, '0')}11`;
}

export function issuerCode(index: number): string {
  return `BNK${String(index).padStart(3, '0')}`;
}

export function syntheticPlans(): InstallmentPlansResult {
  const issuers = Array.from({ length: ISSUER_COUNT }, (_, index) => {
    const code = issuerCode(index);
    const reducing = index % 3 === 2;
    return {
      issuer_code: code,
      issuer_name_en: `Benchmark Bank ${index + 1}`,
      issuer_name_ar: `بنك القياس ${index + 1}`,
      terms_and_condition_en: `Terms of Benchmark Bank ${index + 1}: installments are billed monthly to the card.`,
      terms_and_condition_ar: `شروط بنك القياس ${index + 1}: تُقيد الأقساط شهرياً على البطاقة.`,
      country_code: 'ARE',
      issuer_logo_en: null,
      issuer_logo_ar: null,
      banking_system: index % 2 === 0 ? 'Non Islamic' : 'Islamic',
      formula: null,
      plan_details: Array.from({ length: PLANS_PER_ISSUER }, (_, planIndex) => {
        const months = 3 * (planIndex + 1);
        return {
          plan_code: `P${String(index).padStart(3, '0')}${String(months).padStart(2, '0')}`,
          currency_code: 'AED',
          number_of_installment: months,
          fees_type: 'Percentage',
          fees_amount: reducing ? 12 : 1 + (planIndex % 3),
          processing_fees_type: null,
          processing_fees_amount: null,
          rate_type: reducing ? 'Reducing' : 'Flat',
          plan_merchant_type: 'Non Partner',
          plan_type: 'Local',
          fee_display_value: reducing ? '12%' : `${1 + (planIndex % 3)}%`,
          minimum_amount: 10_000,
          maximum_amount: 100_000_000,
          amountPerMonth: null,
        };
      }),
      bins: [{ bin: issuerBin(index), country_code: 'ARE', currency_code: 'AED', card_brand_code: 'VISA' }],
      confirmation_message_en: `Your installments with Benchmark Bank ${index + 1} are confirmed.`,
      confirmation_message_ar: `تم تأكيد أقساطك مع بنك القياس ${index + 1}.`,
      disclaimer_message_en: null,
      disclaimer_message_ar: null,
      processing_fees_message_en: null,
      processing_fees_message_ar: null,
    };
  });
  return { ...PLANS_ORDER, issuers };
}
