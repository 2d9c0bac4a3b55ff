/**
 * What `<pg-installments>` shows, as pure functions of the plans answer: for each issuer, the
 * plans the order may use, each quoted by the core formulas (src/core/installments.ts). No DOM.
 */
import { parseWireAmount, toMinorUnits } from '../../core/amounts.ts';
import type { InstallmentPlansResult } from '../../core/endpoint-results.ts';
import { InstallmentError, eligiblePlans, matchIssuerByBin, planHasCurrency, planQuoteAs } from '../../core/installments.ts';
import type { Language } from '../../core/language.ts';

export type Issuer = InstallmentPlansResult['issuers'][number];
export type Plan = Issuer['plan_details'][number];

/** Where the monthly amount comes from: the core formula, or the gateway's `amountPerMonth`. */
export type MonthlySource = 'formula' | 'gateway';

/** One plan as the customer sees it; every amount in minor units of the order currency. */
export interface PlanOffer {
  readonly plan: Plan;
  readonly months: number;
  /** What the customer pays each month (the last month may be less: see `lastMonthly`). */
  readonly monthly: number;
  /** The last month's payment, which takes the rounding rest. */
  readonly lastMonthly: number;
  /** The fee the plan charges. */
  readonly fees: number;
  readonly totalPayable: number;
  /** What the customer pays over paying in full. */
  readonly costOverFull: number;
  readonly source: MonthlySource;
}

export interface IssuerOffer {
  readonly issuer: Issuer;
  readonly plans: readonly PlanOffer[];
}

/** Why no plan can be offered, when none can. */
export type Unavailability = 'no-plans' | 'out-of-range';

/**
 * The issuers that have at least one plan for this order, with their plans quoted and sorted by
 * months. `monthlySource: 'gateway'` shows the gateway's `amountPerMonth` where it is readable.
 */
export function issuerOffers(result: InstallmentPlansResult, monthlySource: MonthlySource = 'formula'): IssuerOffer[] {
  const offers: IssuerOffer[] = [];
  for (const issuer of result.issuers) {
    const plans = eligiblePlans(issuer, result.amount, result.currency)
      .map((plan) => quote(plan, issuer, result, monthlySource))
      .filter((offer): offer is PlanOffer => offer !== undefined)
      .sort((a, b) => a.months - b.months);
    if (plans.length > 0) offers.push({ issuer, plans });
  }
  return offers;
}

function quote(plan: Plan, issuer: Issuer, result: InstallmentPlansResult, monthlySource: MonthlySource): PlanOffer | undefined {
  const months = plan.number_of_installment;
  try {
    // The endpoint chose the flat variant (core flatVariantOf) and says which; anything else reads as per month.
    const variant = (plan as { flat_variant?: unknown }).flat_variant === 'one-off' ? 'one-off' : 'per-month';
    const quoted = planQuoteAs(plan, issuer, result.amount, result.currency, variant);
    const gatewayMonthly = quoted.gatewayMonthly?.shown;
    if (monthlySource === 'gateway' && gatewayMonthly !== undefined) {
      return fromMonthly(plan, months, gatewayMonthly, result.amount);
    }
    return {
      plan,
      months,
      monthly: quoted.monthly,
      lastMonthly: quoted.lastMonthly,
      fees: quoted.fees,
      totalPayable: quoted.totalPayable,
      costOverFull: quoted.costOverFull,
      source: 'formula',
    };
  } catch (error) {
    if (!(error instanceof InstallmentError)) throw error;
    // A plan the formulas cannot quote is still shown when the gateway gave its own monthly amount.
    const gatewayMonthly = readGatewayMonthly(plan, result.currency);
    if (gatewayMonthly === undefined || !Number.isSafeInteger(months) || months < 1) return undefined;
    return fromMonthly(plan, months, gatewayMonthly, result.amount);
  }
}

/**
 * A plan priced by the gateway's monthly amount: every month the same, the fee what it adds up to.
 * Never less than the amount: where the gateway rounded its figure down (10.00 over 3 months at 0 %
 * is "3.33"), the last month pays what is still owed (3.34), as a bank's last instalment does.
 */
function fromMonthly(plan: Plan, months: number, monthly: number, amount: number): PlanOffer {
  const totalPayable = Math.max(monthly * months, amount);
  const costOverFull = totalPayable - amount;
  return { plan, months, monthly, lastMonthly: totalPayable - monthly * (months - 1), totalPayable, costOverFull, fees: costOverFull, source: 'gateway' };
}

function readGatewayMonthly(plan: Plan, currency: string): number | undefined {
  const text = plan.amountPerMonth?.trim();
  if (!text) return undefined;
  try {
    return toMinorUnits(text, currency, 'amountPerMonth');
  } catch {
    return undefined;
  }
}

/**
 * Why nothing can be offered: no plan in the order's currency at all, or plans whose ranges all
 * miss the amount. An endpoint that filters plans by amount (this project's does) always gives
 * the first; the second needs the gateway's full list.
 */
export function unavailability(result: InstallmentPlansResult, offers: readonly IssuerOffer[]): Unavailability | undefined {
  if (offers.length > 0) return undefined;
  const anyPlanInCurrency = result.issuers.some((issuer) => issuer.plan_details.some((plan) => planHasCurrency(plan, result.currency)));
  return anyPlanInCurrency ? 'out-of-range' : 'no-plans';
}

/** The amounts the plans in the order's currency cover, from the lowest minimum to the highest maximum. */
export function planRange(result: InstallmentPlansResult): { readonly min: number; readonly max: number } | undefined {
  const plans = result.issuers
    .flatMap((issuer) => issuer.plan_details)
    .filter((plan) => planHasCurrency(plan, result.currency));
  const mins = plans.map((plan) => boundOf(plan.minimum_amount)).filter((bound) => bound !== undefined);
  const maxes = plans.map((plan) => boundOf(plan.maximum_amount)).filter((bound) => bound !== undefined);
  if (mins.length === 0 || maxes.length === 0) return undefined;
  return { min: Math.min(...mins), max: Math.max(...maxes) };
}

function boundOf(value: number | string): number | undefined {
  try {
    return parseWireAmount(typeof value === 'string' ? value.trim() : value);
  } catch {
    return undefined;
  }
}

/** Digits needed before a card that matches no issuer is reported as not eligible. */
export const BIN_DIGITS = 6;

/** What the card's first digits say: no digits yet, an issuer with plans, or not eligible. */
export type CardMatch =
  | { readonly kind: 'none' }
  | { readonly kind: 'issuer'; readonly issuerCode: string }
  | { readonly kind: 'not-eligible' };

export function matchCard(result: InstallmentPlansResult, offers: readonly IssuerOffer[], digits: string): CardMatch {
  if (digits.length === 0) return { kind: 'none' };
  const match = matchIssuerByBin(result.issuers, digits);
  if (match && offers.some((offer) => offer.issuer.issuer_code === match.issuer.issuer_code)) {
    return { kind: 'issuer', issuerCode: match.issuer.issuer_code };
  }
  // A shorter prefix may still grow into a match; only a full BIN decides "not eligible".
  return digits.length >= BIN_DIGITS ? { kind: 'not-eligible' } : { kind: 'none' };
}

/** The issuer's text in the page language (`issuer_name_en` / `issuer_name_ar` and so on). */
export function issuerText(
  issuer: Issuer,
  field: 'issuer_name' | 'terms_and_condition' | 'issuer_logo' | 'confirmation_message' | 'disclaimer_message' | 'processing_fees_message',
  language: Language,
): string | undefined {
  const value = issuer[`${field}_${language}`] ?? issuer[`${field}_en`];
  return value ?? undefined;
}
