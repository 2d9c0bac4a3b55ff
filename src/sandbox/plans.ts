/**
 * Installments in the sandbox: which fixture plans an order may use (core `eligiblePlans`), which
 * issuer a card belongs to (core `matchIssuerByBin`), what a plan costs a month (core
 * `monthlyInstallment`), and the plans query answer.
 */
import { formatMoney, fromMinorUnits } from '../core/amounts.ts';
import {
  eligiblePlans,
  matchIssuerByBin,
  monthlyInstallment,
  type InstallmentIssuer,
  type InstallmentPlan,
} from '../core/installments.ts';
import type { Language } from '../core/language.ts';
import { INSTALLMENT_ISSUERS } from './installment-issuers.ts';
import { PAGE_TEXT } from './page-text.ts';
import type { PlanGroup } from './pages.ts';

/** An issuer with the plans one order may use. */
export interface PlanOffer {
  readonly issuer: InstallmentIssuer;
  readonly plans: readonly InstallmentPlan[];
}

export interface ChosenPlan {
  readonly issuer: InstallmentIssuer;
  readonly plan: InstallmentPlan;
}

/** Issuers (of one country when given) with at least one plan for this amount and currency. */
export function offersFor(amount: number, currency: string, countryCode?: string): PlanOffer[] {
  return INSTALLMENT_ISSUERS.filter((issuer) => !countryCode || issuer.country_code === countryCode)
    .map((issuer) => ({ issuer, plans: eligiblePlans(issuer, amount, currency) }))
    .filter((offer) => offer.plans.length > 0);
}

/** The offers a known card can use: only its issuer's, by BIN. */
export function offersForCard(offers: readonly PlanOffer[], cardNumber: string): PlanOffer[] {
  const match = matchIssuerByBin(
    offers.map((offer) => offer.issuer),
    cardNumber,
  );
  return match ? offers.filter((offer) => offer.issuer === match.issuer) : [];
}

/** The page's option value for a plan. */
export function planValue(issuer: InstallmentIssuer, plan: InstallmentPlan): string {
  return `${issuer.issuer_code}:${plan.plan_code}`;
}

/** The plan an option value names, if it is among the offers. */
export function planFromValue(offers: readonly PlanOffer[], value: string): ChosenPlan | undefined {
  for (const offer of offers) {
    for (const plan of offer.plans) {
      if (planValue(offer.issuer, plan) === value) return { issuer: offer.issuer, plan };
    }
  }
  return undefined;
}

/** A plan named by codes (installments YES), if it serves this amount and currency. */
export function findPlan(issuerCode: string, planCode: string, amount: number, currency: string): ChosenPlan | undefined {
  const issuer = INSTALLMENT_ISSUERS.find((candidate) => candidate.issuer_code === issuerCode);
  if (!issuer) return undefined;
  const plan = eligiblePlans(issuer, amount, currency).find((candidate) => candidate.plan_code === planCode);
  return plan ? { issuer, plan } : undefined;
}

/** True when the card's BIN belongs to the chosen plan's issuer. */
export function cardBelongsTo(issuer: InstallmentIssuer, cardNumber: string): boolean {
  return matchIssuerByBin([issuer], cardNumber) !== undefined;
}

/** The issuer a card belongs to among the offers, for the page's error message. */
export function issuerOfCard(offers: readonly PlanOffer[], cardNumber: string): InstallmentIssuer | undefined {
  return matchIssuerByBin(
    offers.map((offer) => offer.issuer),
    cardNumber,
  )?.issuer;
}

export function issuerName(issuer: InstallmentIssuer, language: Language): string {
  return language === 'ar' ? issuer.issuer_name_ar : issuer.issuer_name_en;
}

/** The plan select's groups: one per issuer, each plan with its monthly amount in the page language. */
export function planGroups(offers: readonly PlanOffer[], amount: number, currency: string, language: Language): PlanGroup[] {
  return offers.map((offer) => ({
    issuerName: issuerName(offer.issuer, language),
    options: offer.plans.map((plan) => ({
      value: planValue(offer.issuer, plan),
      label: PAGE_TEXT[language].planOption(
        plan.number_of_installment,
        formatMoney(monthlyInstallment(plan, offer.issuer, amount, currency), currency, language),
      ),
    })),
  }));
}

export interface PlansQuery {
  readonly amount?: number;
  readonly currency?: string;
  readonly issuerCode?: string;
}

/**
 * The issuers of the plans query. With amount and currency, only the plans that serve them and
 * their monthly amount for that order; with a currency alone, that currency's plans; otherwise all.
 * Without an amount, `amountPerMonth` is the monthly amount at the plan's minimum amount.
 */
export function plansQueryIssuers(query: PlansQuery): InstallmentIssuer[] {
  return INSTALLMENT_ISSUERS.filter((issuer) => !query.issuerCode || issuer.issuer_code === query.issuerCode)
    .map((issuer) => {
      const plans = issuer.plan_details.filter((plan) =>
        query.amount !== undefined && query.currency
          ? eligiblePlans({ plan_details: [plan] }, query.amount, query.currency).length > 0
          : !query.currency || plan.currency_code === query.currency,
      );
      const priced = plans.map((plan) => {
        const amount = query.amount ?? Number(plan.minimum_amount ?? 0);
        const monthly = monthlyInstallment(plan, issuer, amount, plan.currency_code);
        return { ...plan, amountPerMonth: fromMinorUnits(monthly, plan.currency_code) };
      });
      return { ...issuer, plan_details: priced };
    })
    .filter((issuer) => issuer.plan_details.length > 0);
}
