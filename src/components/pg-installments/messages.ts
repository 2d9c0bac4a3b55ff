/** Text of `<pg-installments>` in English and Arabic. */
import { html } from 'lit';
import type { Catalogs, Renderable } from '../shared/localize.ts';
import { sharedEn, type SharedMessages } from '../shared/messages.ts';

export interface InstallmentsMessages extends SharedMessages {
  readonly title: string;
  readonly loadingPlans: string;
  readonly plansReady: (plans: number) => string;
  readonly binLabel: string;
  readonly binHint: string;
  readonly issuersLegend: string;
  readonly issuerMatched: (issuer: string) => string;
  /** Under a bank that cannot be chosen: the card's first digits belong to another bank. */
  readonly otherBank: string;
  readonly plansLabel: string;
  readonly plansCaption: string;
  readonly choosePlan: string;
  /** Text of a plan in the dropdown; amounts arrive already formatted and isolated. */
  readonly planOption: (months: string, monthly: string, total: string) => string;
  /** Beside the monthly amount when the last month differs (it takes the rounding rest). */
  readonly lastMonth: (amount: Renderable) => Renderable;
  readonly columns: {
    readonly plan: string;
    readonly monthly: string;
    readonly fees: string;
    readonly total: string;
    readonly extra: string;
  };
  readonly receipt: {
    readonly title: string;
    readonly orderAmount: string;
    readonly plan: string;
    readonly monthly: string;
    readonly lastMonthly: string;
    readonly fees: string;
    readonly total: string;
    readonly extra: string;
    /** Under the summary: why the card is charged less than the total payable. */
    readonly charged: (amount: Renderable) => Renderable;
  };
  readonly bankTitle: (issuer: string) => string;
  readonly noTerms: string;
  /**
   * The plan chosen and what happens next. Never "confirmed" (the issuer's own confirmation
   * message): nothing is confirmed until the customer has agreed and paid.
   */
  readonly chosenPlan: (months: string, issuer: string) => string;
  readonly agree: (issuer: string) => string;
  readonly agreeRequired: string;
  readonly issuerRequired: string;
  readonly planRequired: string;
  readonly payInstallments: string;
  readonly unavailable: {
    readonly failed: string;
    readonly notForAmount: (amount: Renderable) => Renderable;
    readonly range: (min: Renderable, max: Renderable) => Renderable;
    readonly cardNotEligible: string;
  };
  readonly payInFull: string;
  readonly payInFullHint: string;
  readonly payingInFull: string;
}

export const installmentsMessages: Catalogs<InstallmentsMessages> = {
  en: {
    ...sharedEn,
    title: 'Pay in installments',
    loadingPlans: 'Loading installment plans…',
    plansReady: (plans) => (plans === 1 ? '1 installment plan is available.' : `${plans} installment plans are available.`),
    binLabel: 'First 6 digits of your card',
    binHint: 'We use them to find your bank and its plans.',
    issuersLegend: 'Your bank',
    issuerMatched: (issuer) => `Plans from ${issuer}.`,
    otherBank: 'Not your card’s bank',
    plansLabel: 'Installment plan',
    plansCaption: 'Installment plans',
    choosePlan: 'Choose a plan',
    planOption: (months, monthly, total) => `${months}: ${monthly} a month, ${total} in total`,
    lastMonth: (amount) => html`(last month ${amount})`,
    columns: {
      plan: 'Plan',
      monthly: 'Per month',
      fees: 'Fees',
      total: 'Total payable',
      extra: 'Extra cost',
    },
    receipt: {
      title: 'Summary',
      orderAmount: 'Order amount',
      plan: 'Plan',
      monthly: 'Per month',
      lastMonthly: 'Last month',
      fees: 'Fees',
      total: 'Total payable',
      extra: 'Extra cost over paying in full',
      charged: (amount) => html`Your card is charged the order amount, ${amount}. Your bank then collects it in the monthly payments above, its fees included.`,
    },
    bankTitle: (issuer) => `Terms of ${issuer}`,
    noTerms: 'The bank states no additional terms.',
    chosenPlan: (months, issuer) => `You chose ${months} with ${issuer}. Accept the terms and pay to confirm it.`,
    agree: (issuer) => `I agree to the terms and conditions of ${issuer}`,
    agreeRequired: 'Accept the bank’s terms and conditions to continue.',
    issuerRequired: 'Choose your bank.',
    planRequired: 'Choose an installment plan.',
    payInstallments: 'Pay in installments',
    unavailable: {
      failed: 'Installment plans could not be loaded.',
      notForAmount: (amount) => html`Installments are not available for an order of ${amount}.`,
      range: (min, max) => html`The plans cover orders from ${min} to ${max}.`,
      cardNotEligible: 'Your card’s bank does not offer installments for this order.',
    },
    payInFull: 'Pay in full instead',
    payInFullHint: 'You can still pay the full amount now.',
    payingInFull: 'You will pay the full amount.',
  },
  ar: () => import('./messages.ar.ts').then((module) => module.installmentsAr),
};
