/**
 * Installment plans (spec: "Installment objects" and "Installments plan formulas"): which plans an
 * order may use, what each costs per month, and which issuer a card number belongs to.
 *
 * Every amount here is an integer in minor units of the order currency. Every formula, PMT's
 * included, is evaluated exactly as a BigInt fraction: the total the customer pays is the formula's
 * exact total rounded once, and the monthly amounts are derived from that total so that they add up
 * to it exactly. Units and rounding are explained in docs/installments.md.
 */
import { AMOUNT_RULE_TEXT, AmountError, currencyExponent, parseWireAmount, toMinorUnits } from './amounts.ts';

// The plans-response types list every field of the spec. Fields that the endpoint's schema
// (endpoint-api.ts) allows to be missing are optional here, so a parsed response fits these types.

/** One entry of an issuer's `bins`: leading card digits that identify the issuer. */
export interface IssuerBin {
  readonly bin: string;
  readonly country_code?: string | undefined;
  readonly currency_code?: string | undefined;
  readonly card_brand_code?: string | undefined;
}

/** One entry of an issuer's `plan_details`, as the plans query returns it. */
export interface InstallmentPlan {
  readonly plan_code: string;
  readonly currency_code: string;
  readonly number_of_installment: number;
  /** Values: `Percentage` (seen) and `Fixed` (implied by the formulas). */
  readonly fees_type: string;
  /** A percentage for `Percentage` plans; minor units of `currency_code` for `Fixed` plans. */
  readonly fees_amount: number | string;
  readonly processing_fees_type?: string | null | undefined;
  readonly processing_fees_amount?: number | string | null | undefined;
  /** Values: `Flat` (seen) and `Reducing` (implied by the formulas). */
  readonly rate_type: string;
  readonly plan_merchant_type?: string | undefined;
  readonly plan_type?: string | undefined;
  readonly fee_display_value?: number | string | null | undefined;
  /** Smallest order amount, in minor units; `null` means no lower bound. */
  readonly minimum_amount: number | string | null;
  /** Largest order amount, in minor units; `null` means no upper bound. */
  readonly maximum_amount: number | string | null;
  /** The gateway's own monthly amount, a decimal in major units ("1033.33"). */
  readonly amountPerMonth?: string | null | undefined;
}

/** One entry of `installment_detail.issuer_detail` in the plans query response. */
export interface InstallmentIssuer {
  readonly issuer_code: string;
  readonly issuer_name_ar: string;
  readonly issuer_name_en: string;
  readonly terms_and_condition_ar?: string | null | undefined;
  readonly terms_and_condition_en?: string | null | undefined;
  readonly country_code?: string | undefined;
  readonly issuer_logo_ar?: string | null | undefined;
  readonly issuer_logo_en?: string | null | undefined;
  /** Values: `Non Islamic` (seen) and `Islamic` (implied by the formulas). */
  readonly banking_system: string;
  /**
   * The issuer's formula, as text. The kind is chosen from the plan's fees_type and rate_type; for
   * a non-Islamic flat plan this text names the variant when it holds one of the specification's
   * two flat formulas ({@link flatVariantOf}).
   */
  readonly formula?: string | null | undefined;
  readonly plan_details: readonly InstallmentPlan[];
  readonly bins: readonly IssuerBin[];
  readonly confirmation_message_ar?: string | null | undefined;
  readonly confirmation_message_en?: string | null | undefined;
  readonly disclaimer_message_ar?: string | null | undefined;
  readonly disclaimer_message_en?: string | null | undefined;
  readonly processing_fees_message_ar?: string | null | undefined;
  readonly processing_fees_message_en?: string | null | undefined;
}

/** Which row of the spec's formula table a plan uses. */
export type FormulaKind = 'percentage-flat' | 'percentage-flat-islamic' | 'fixed' | 'reducing';

/**
 * The spec gives two formulas for a non-Islamic flat percentage plan:
 * - `per-month`: `(amount + amount × fees% × months) / months`, the fee is charged for every month
 *   of the term. The spec's first formula, the usual meaning of a "flat rate", and algebraically
 *   the same as the spec's Islamic flat formula.
 * - `one-off`: `(amount + amount × fees%) / months`, the fee is charged once.
 * Which one a plan uses is {@link flatVariantOf}'s decision.
 */
export type FlatVariant = 'per-month' | 'one-off';

/** What decided a plan's flat variant; see {@link flatVariantOf}. */
export type FlatVariantSource = 'option' | 'formula' | 'amountPerMonth' | 'default';

export interface FlatVariantChoice {
  readonly variant: FlatVariant;
  readonly decidedBy: FlatVariantSource;
}

/**
 * The formulas as the gateway's specification writes them (amount, fees, months). An issuer whose
 * `formula` holds one of the two flat texts names its variant; the sandbox's issuers carry them.
 */
export const SPEC_FORMULAS = {
  flatPerMonth: '((amount + ((amount * (fees / 100)) * months))) / months',
  flatOneOff: '(amount + (amount * (fees / 100))) / months',
  flatIslamic: '(((months * (fees / 100)) + 1) * amount) / months',
  reducing: 'PMT(fees / 100 / 12, months, amount)',
  fixed: '(amount + fees) / months',
} as const;

export interface QuoteOptions {
  /** Forces the variant of a `percentage-flat` plan instead of {@link flatVariantOf}'s choice. */
  readonly flatVariant?: FlatVariant;
}

/** The gateway's `amountPerMonth` set beside the module's own figure. */
export interface GatewayMonthly {
  /** `amountPerMonth` exactly as received. */
  readonly text: string;
  /** That value in minor units (rounded half up if it had more decimals); undefined if unreadable. */
  readonly shown: number | undefined;
  /** Largest difference, in minor units, that is put down to rounding rather than reported. */
  readonly tolerance: number;
  /**
   * The formula's own monthly amount (its exact value rounded half up, which can be one minor unit
   * below {@link PlanQuote.monthly}) minus `shown`; present only when it exceeds `tolerance`.
   */
  readonly disagreement: number | undefined;
}

/**
 * What a plan costs the customer for one order; every amount is an integer in minor units. The
 * customer pays `monthly` for each of the first `months − 1` months and `lastMonthly` in the last,
 * so `monthly × (months − 1) + lastMonthly === totalPayable` and `0 ≤ monthly − lastMonthly < months`.
 */
export interface PlanQuote {
  readonly formulaKind: FormulaKind;
  readonly months: number;
  /** `totalPayable ÷ months` rounded up: what the customer pays each month except the last. */
  readonly monthly: number;
  /** `totalPayable − monthly × (months − 1)`: the last month's payment, from 0 up to `monthly`. */
  readonly lastMonthly: number;
  /**
   * The formula's exact total (amount plus fees) rounded half up once: what the customer pays in
   * all. Never below the amount when the fee is not negative.
   */
  readonly totalPayable: number;
  /** `totalPayable − amount`: what paying in instalments costs over paying in full. */
  readonly costOverFull: number;
  /** The fee the plan charges, equal to `costOverFull`. */
  readonly fees: number;
  /** Present when the plan carries `amountPerMonth`. */
  readonly gatewayMonthly?: GatewayMonthly;
  /** The variant a `percentage-flat` plan was quoted with, and what chose it; absent for other kinds. */
  readonly flatVariant?: FlatVariantChoice;
}

export type InstallmentRule =
  | 'unknown_value'
  | 'format'
  | 'negative'
  | 'currency_mismatch'
  | 'out_of_range';

/** A plan that cannot be quoted; `field` names the plan field, `rule` the broken rule. */
export class InstallmentError extends Error {
  readonly field: string;
  readonly rule: InstallmentRule;

  constructor(field: string, rule: InstallmentRule, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'InstallmentError';
    this.field = field;
    this.rule = rule;
  }
}

/**
 * The spreadsheet PMT (same arguments and sign convention as Excel and LibreOffice Calc): the
 * payment per period that pays off `pv` and leaves `fv` after `nper` periods at `rate` per period.
 * Money lent (`pv` > 0) gives a negative payment. `type` 1 means payments at the start of each
 * period. Where a spreadsheet shows an error (nper = 0), the result is not finite. Floating point, as
 * a spreadsheet's: {@link planQuote} prices a reducing plan with the same formula evaluated exactly.
 */
export function pmt(rate: number, nper: number, pv: number, fv = 0, type: 0 | 1 = 0): number {
  if (rate === 0) return -(pv + fv) / nper;
  // The same evaluation as LibreOffice: log1p/expm1 keep (1 + rate)^nper − 1 accurate for small rates.
  const growthLog = nper * Math.log1p(rate);
  const denominator =
    type === 1 ? Math.expm1((nper + 1) * Math.log1p(rate)) - rate : Math.expm1(growthLog);
  return -((fv + pv * Math.exp(growthLog)) * rate) / denominator;
}

type KindFields = Pick<InstallmentPlan, 'fees_type' | 'rate_type'>;

/**
 * The formula row for a plan: Fixed fees use the fixed formula whatever the rate type; Percentage
 * fees use PMT when the rate is Reducing, otherwise the flat formula of the issuer's banking system.
 */
export function formulaKindOf(
  plan: KindFields,
  issuer: Pick<InstallmentIssuer, 'banking_system'>,
): FormulaKind {
  const feesType = normalizedName(plan.fees_type);
  if (feesType === 'fixed') return 'fixed';
  if (feesType !== 'percentage') {
    throw new InstallmentError('fees_type', 'unknown_value', 'must be Percentage or Fixed');
  }
  const rateType = normalizedName(plan.rate_type);
  if (rateType === 'reducing') return 'reducing';
  if (rateType !== 'flat') {
    throw new InstallmentError('rate_type', 'unknown_value', 'must be Flat or Reducing');
  }
  const bankingSystem = normalizedName(issuer.banking_system);
  if (bankingSystem === 'islamic') return 'percentage-flat-islamic';
  if (bankingSystem === 'nonislamic') return 'percentage-flat';
  throw new InstallmentError('banking_system', 'unknown_value', 'must be Islamic or Non Islamic');
}

/** "Non Islamic", "non-islamic", "NON_ISLAMIC" → "nonislamic". */
function normalizedName(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase().replace(/[\s_-]+/g, '') : '';
}

type QuotedPlan = KindFields &
  Pick<InstallmentPlan, 'currency_code' | 'number_of_installment' | 'fees_amount' | 'amountPerMonth'>;

/** What the formulas need of an issuer: its banking system, and its formula text when it has one. */
type QuotedIssuer = Pick<InstallmentIssuer, 'banking_system'> & Partial<Pick<InstallmentIssuer, 'formula'>>;

/**
 * What `plan` costs for an order of `amountMinor` in `currency`. The total is the formula's exact
 * total rounded half up to the minor unit; `monthly` is that total divided by the months and rounded
 * up, and `lastMonthly` is what remains for the last month, so the payments add up to the total.
 * A non-Islamic flat plan uses the variant {@link flatVariantOf} chooses (or `options.flatVariant`).
 * Throws InstallmentError for a plan it cannot quote (including a total too small to split that way:
 * fewer minor units than about months × (months − 1)), AmountError for a bad amount or currency.
 */
export function planQuote(
  plan: QuotedPlan,
  issuer: QuotedIssuer,
  amountMinor: number,
  currency: string,
  options: QuoteOptions = {},
): PlanQuote {
  return quoteWith(plan, issuer, amountMinor, currency, (amount, months) =>
    options.flatVariant ? { variant: options.flatVariant, decidedBy: 'option' } : chooseFlatVariant(plan, issuer, amount, months, currency),
  );
}

/**
 * {@link planQuote} for a plan whose flat variant is already chosen: the element's, since the
 * endpoint chooses it (with {@link flatVariantOf}) and sends it as the plan's `flat_variant`. It
 * holds none of the choosing code, so a page does not download it.
 */
export function planQuoteAs(plan: QuotedPlan, issuer: QuotedIssuer, amountMinor: number, currency: string, variant: FlatVariant): PlanQuote {
  return quoteWith(plan, issuer, amountMinor, currency, () => ({ variant, decidedBy: 'option' }));
}

function quoteWith(
  plan: QuotedPlan,
  issuer: QuotedIssuer,
  amountMinor: number,
  currency: string,
  chooseVariant: (amount: number, months: number) => FlatVariantChoice,
): PlanQuote {
  const amount = parseWireAmount(amountMinor, 'amount');
  currencyExponent(currency); // refuses an unknown currency code
  if (!planHasCurrency(plan, currency)) {
    throw new InstallmentError('currency_code', 'currency_mismatch', `must be ${currency}`);
  }
  const months = planMonths(plan);
  const formulaKind = formulaKindOf(plan, issuer);
  const flatVariant = formulaKind === 'percentage-flat' ? chooseVariant(amount, months) : undefined;
  const { totalPayable, formulaMonthly } = exactInstallment(formulaKind, amount, months, plan.fees_amount, flatVariant?.variant);
  const { monthly, lastMonthly } = splitTotal(totalPayable, months);
  const costOverFull = totalPayable - amount;
  const quote: PlanQuote = {
    formulaKind,
    months,
    monthly,
    lastMonthly,
    totalPayable,
    costOverFull,
    fees: costOverFull,
    ...(flatVariant ? { flatVariant } : {}),
  };
  const gatewayText = plan.amountPerMonth?.trim();
  return gatewayText
    ? { ...quote, gatewayMonthly: compareWithGateway(gatewayText, formulaMonthly, currency) }
    : quote;
}

/**
 * Which of the spec's two flat formulas a non-Islamic flat percentage plan uses, and what decided:
 * 1. `formula`: the issuer's `formula` holds the text of exactly one of them (`SPEC_FORMULAS`,
 *    compared without regard to case, spaces or parentheses);
 * 2. `amountPerMonth`: else the gateway's own monthly amount for this order matches one of them
 *    (within its rounding tolerance; per-month first);
 * 3. `default`: else per-month, the spec's first formula.
 * The plans answer is unsigned as a whole, formula and amountPerMonth alike: this decides what the
 * customer is shown, never what is charged (the gateway charges its plan_code).
 */
export function flatVariantOf(
  plan: QuotedPlan,
  issuer: QuotedIssuer,
  amountMinor: number,
  currency: string,
): FlatVariantChoice {
  const amount = parseWireAmount(amountMinor, 'amount');
  currencyExponent(currency);
  const months = planMonths(plan);
  return chooseFlatVariant(plan, issuer, amount, months, currency);
}

function chooseFlatVariant(
  plan: QuotedPlan,
  issuer: QuotedIssuer,
  amount: number,
  months: number,
  currency: string,
): FlatVariantChoice {
  const named = variantNamedBy(issuer.formula);
  if (named) return { variant: named, decidedBy: 'formula' };
  const gatewayText = plan.amountPerMonth?.trim();
  if (gatewayText) {
    for (const variant of ['per-month', 'one-off'] as const) {
      const { formulaMonthly } = exactInstallment('percentage-flat', amount, months, plan.fees_amount, variant);
      const compared = compareWithGateway(gatewayText, formulaMonthly, currency);
      if (compared.shown !== undefined && compared.disagreement === undefined) return { variant, decidedBy: 'amountPerMonth' };
    }
  }
  return { variant: 'per-month', decidedBy: 'default' };
}

/**
 * A plan's months: a whole number from 1 to 99, as many as the 2 digits of the customer's
 * `number_of_installments` can say (a longer plan could not be chosen, and would cost PMT's exact
 * power for nothing).
 */
function planMonths(plan: Pick<InstallmentPlan, 'number_of_installment'>): number {
  const months = plan.number_of_installment;
  if (!Number.isInteger(months) || months < 1 || months > 99) {
    throw new InstallmentError('number_of_installment', 'out_of_range', 'must be a whole number from 1 to 99');
  }
  return months;
}

/** "((amount + …)) / months" → "amount+…/months": the formula's words and operators, in order. */
function formulaShape(text: string): string {
  return text.toLowerCase().replace(/×/g, '*').replace(/÷/g, '/').replace(/[\s()]/g, '');
}

/** The flat variant an issuer's formula text names: exactly one of the two, else none. */
function variantNamedBy(formula: string | null | undefined): FlatVariant | undefined {
  if (typeof formula !== 'string') return undefined;
  const shape = formulaShape(formula);
  // Made here, not at load: a page that only quotes (planQuoteAs) then drops the texts altogether.
  const shapes: readonly (readonly [FlatVariant, string])[] = [
    ['per-month', formulaShape(SPEC_FORMULAS.flatPerMonth)],
    ['one-off', formulaShape(SPEC_FORMULAS.flatOneOff)],
  ];
  const named = shapes.filter(([, variantShape]) => shape.includes(variantShape));
  return named.length === 1 ? named[0]?.[0] : undefined;
}

/**
 * `total` as `months − 1` payments of `monthly` (the total divided by the months, rounded up) and a
 * last payment of what remains. When the total is so small that the rounded-up payments alone would
 * exceed it (5 over 4 months: 2 + 2 + 2 is already 6), no such split exists and the plan is refused.
 */
function splitTotal(total: number, months: number): { monthly: number; lastMonthly: number } {
  const t = BigInt(total);
  const n = BigInt(months);
  const monthly = (t + n - 1n) / n;
  const lastMonthly = t - monthly * (n - 1n);
  if (lastMonthly < 0n) {
    throw new InstallmentError(
      'number_of_installment',
      'out_of_range',
      `is too many to split a total of ${total} minor units into equal payments and a smaller last one`,
    );
  }
  return { monthly: Number(monthly), lastMonthly: Number(lastMonthly) };
}

/** The monthly amount, in minor units, that {@link planQuote} gives. */
export function monthlyInstallment(
  plan: QuotedPlan,
  issuer: QuotedIssuer,
  amountMinor: number,
  currency: string,
  options: QuoteOptions = {},
): number {
  return planQuote(plan, issuer, amountMinor, currency, options).monthly;
}

/** A non-negative exact decimal: `units / 10^scale` ("2.5" is 25 over 10^1). */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: bigint;
}

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** A percentage such as 2, "2" or "1.75"; exponent notation is refused. */
export function parsePercentage(value: number | string): ExactDecimal {
  const text = String(value).trim();
  if (text.startsWith('-')) {
    throw new InstallmentError('fees_amount', 'negative', 'must not be negative');
  }
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) {
    throw new InstallmentError('fees_amount', 'format', 'must be a decimal percentage such as 2 or 1.75');
  }
  const fraction = match[2] ?? '';
  return { units: BigInt((match[1] ?? '') + fraction), scale: BigInt(fraction.length) };
}

/** A formula's result for one order, in minor units. */
interface FormulaResult {
  /** The exact total (amount plus fees) rounded half up to the minor unit. */
  readonly totalPayable: number;
  /** The exact monthly amount rounded half up: what the gateway's `amountPerMonth` is checked against. */
  readonly formulaMonthly: number;
}

/**
 * The formula's exact total as a fraction, rounded half up once; its monthly amount likewise. A
 * reducing plan's PMT is exact too: at the monthly rate r = units / d (d = 1200 × 10^scale, the
 * annual percentage over 12 months), g = (1 + r)^months = growth / d^months, and the months'
 * payments of amount × r × g / (g − 1) come to months × amount × units × growth / (d × (growth − d^months)).
 */
function exactInstallment(
  kind: FormulaKind,
  amount: number,
  months: number,
  feesAmount: number | string,
  flatVariant: FlatVariant | undefined,
): FormulaResult {
  const a = BigInt(amount);
  const n = BigInt(months);
  let numerator = a;
  let denominator = 1n;
  if (kind === 'fixed') {
    numerator += fixedFee(feesAmount);
  } else {
    const { units, scale } = parsePercentage(feesAmount);
    if (kind !== 'reducing') {
      // amount + fees% of amount for each month the fee is charged; the Islamic formula
      // ((months × fees% + 1) × amount) / months expands to this same sum.
      denominator = 100n * 10n ** scale;
      numerator = a * (denominator + units * (flatVariant === 'one-off' ? 1n : n));
    } else if (units > 0n) {
      const d = 1200n * 10n ** scale;
      const growth = (d + units) ** n;
      numerator = n * a * units * growth;
      denominator = d * (growth - d ** n);
    }
  }
  return {
    totalPayable: toSafeNumber(roundHalfUp(numerator, denominator)),
    formulaMonthly: toSafeNumber(roundHalfUp(numerator, denominator * n)),
  };
}

/** A Fixed plan's fee: whole minor units, as every amount on the wire. */
function fixedFee(value: number | string): bigint {
  try {
    return BigInt(parseWireAmount(value, 'fees_amount'));
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    // The plan cannot be quoted; the plans answer that carries it can still be used.
    const rule = error.rule === 'negative' ? 'negative' : error.rule === 'too_long' ? 'out_of_range' : 'format';
    throw new InstallmentError('fees_amount', rule, AMOUNT_RULE_TEXT[error.rule](error.limit));
  }
}

/** numerator / denominator rounded to the nearest integer, halves upwards; numerator ≥ 0, denominator > 0. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InstallmentError('fees_amount', 'out_of_range', 'gives an amount too large to represent');
  }
  return Number(value);
}

/**
 * Reads the gateway's decimal and compares. The tolerance is one minor unit (both sides may round a
 * half), or one unit of the gateway's last printed digit when it printed fewer decimals than the
 * currency has ("83.33" for KWD can be 9 fils away from the exact amount).
 */
function compareWithGateway(text: string, formulaMonthly: number, currency: string): GatewayMonthly {
  const exponent = currencyExponent(currency);
  const printedDecimals = PLAIN_DECIMAL.exec(text)?.[2]?.length ?? 0;
  const tolerance = printedDecimals >= exponent ? 1 : 10 ** (exponent - printedDecimals);
  const shown = gatewayMinorUnits(text, currency, exponent);
  const difference = shown === undefined ? undefined : formulaMonthly - shown;
  const disagreement =
    difference !== undefined && Math.abs(difference) > tolerance ? difference : undefined;
  return { text, shown, tolerance, disagreement };
}

/** A decimal in major units to minor units, rounding half up any digits beyond the currency's. */
function gatewayMinorUnits(text: string, currency: string, exponent: number): number | undefined {
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return undefined;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  const kept = exponent === 0 ? whole : `${whole}.${fraction.slice(0, exponent)}`;
  const carry = (fraction[exponent] ?? '0') >= '5' ? 1 : 0;
  try {
    return toMinorUnits(fraction.length > exponent ? kept : text, currency, 'amountPerMonth') + carry;
  } catch (error) {
    if (error instanceof AmountError) return undefined;
    throw error;
  }
}

type RangedPlan = Pick<InstallmentPlan, 'currency_code' | 'minimum_amount' | 'maximum_amount'>;

/** Whether a plan is in `currency` (its code read as the gateway writes it: any case, spaces around). */
export function planHasCurrency(plan: Pick<InstallmentPlan, 'currency_code'>, currency: string): boolean {
  const code = typeof plan.currency_code === 'string' ? plan.currency_code.trim().toUpperCase() : '';
  return code === currency.toUpperCase();
}

/**
 * The plans an order may use: same currency, and minimum_amount ≤ amount ≤ maximum_amount, both
 * bounds in minor units and inclusive. A null bound is open; an unreadable bound excludes the plan.
 */
export function filterPlans<P extends RangedPlan>(
  plans: readonly P[],
  amountMinor: number,
  currency: string,
): P[] {
  const amount = parseWireAmount(amountMinor, 'amount');
  return plans.filter(
    (plan) =>
      planHasCurrency(plan, currency) &&
      isWithinBound(plan.minimum_amount, (bound) => bound <= amount) &&
      isWithinBound(plan.maximum_amount, (bound) => amount <= bound),
  );
}

/** {@link filterPlans} over one issuer's `plan_details`. */
export function eligiblePlans<P extends RangedPlan>(
  issuer: { readonly plan_details: readonly P[] },
  amountMinor: number,
  currency: string,
): P[] {
  return filterPlans(issuer.plan_details, amountMinor, currency);
}

function isWithinBound(
  bound: number | string | null | undefined,
  holds: (boundMinor: number) => boolean,
): boolean {
  if (bound === null || bound === undefined) return true;
  try {
    return holds(parseWireAmount(typeof bound === 'string' ? bound.trim() : bound, 'amount_bound'));
  } catch (error) {
    if (error instanceof AmountError) return false;
    throw error;
  }
}

/**
 * Where the customer chose the plan that a completion charges: on the gateway's own page (the
 * merchant page's TOKENIZATION with installments STANDALONE returned it), or on the merchant's
 * page (plans from GET_INSTALLMENTS_PLANS beside a merchant page 2.0 card form: hosted checkout).
 */
export type PlanChosenOn = 'gateway-page' | 'merchant-page';

/**
 * The `installments` value of the API AUTHORIZATION / PURCHASE that completes a tokenization with
 * a plan: `YES` (direct operation) for a plan the gateway's page returned, `HOSTED` (hosted
 * checkout) for a plan chosen on the merchant's page, as the official SDK and plugins send them
 * (docs/decisions.md, installments modes).
 */
export function completionInstallments(chosenOn: PlanChosenOn): 'YES' | 'HOSTED' {
  return chosenOn === 'gateway-page' ? 'YES' : 'HOSTED';
}

/** The issuer a card belongs to, and the bin that decided it. */
export interface BinMatch<I extends BinnedIssuer> {
  readonly issuer: I;
  readonly bin: I['bins'][number];
}

type BinnedIssuer = { readonly bins: readonly Pick<IssuerBin, 'bin' | 'currency_code'>[] };

export interface BinMatchOptions {
  /** Skip bins whose currency_code names another currency (the same bin can serve several countries). */
  readonly currency?: string;
}

/**
 * The issuer whose bin is a prefix of the digits typed so far; the longest bin wins, and on a tie
 * the issuer listed first. Spaces and hyphens are ignored; any other non-digit means no match. A
 * bin only matches once all its digits are typed, so 6-digit bins need 6 digits and a shorter bin
 * matches sooner. The answer can change while the customer types more digits.
 */
export function matchIssuerByBin<I extends BinnedIssuer>(
  issuers: readonly I[],
  cardNumberOrPrefix: string,
  options: BinMatchOptions = {},
): BinMatch<I> | undefined {
  const digits = cardNumberOrPrefix.replace(/[\s-]+/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  const currency = options.currency?.toUpperCase();
  let best: BinMatch<I> | undefined;
  let bestLength = 0;
  for (const issuer of issuers) {
    for (const entry of issuer.bins) {
      const bin = typeof entry.bin === 'string' ? entry.bin.replace(/[\s-]+/g, '') : '';
      const binCurrency = entry.currency_code?.trim().toUpperCase();
      if (currency && binCurrency && binCurrency !== currency) continue;
      if (/^\d+$/.test(bin) && bin.length > bestLength && digits.startsWith(bin)) {
        best = { issuer, bin: entry };
        bestLength = bin.length;
      }
    }
  }
  return best;
}
