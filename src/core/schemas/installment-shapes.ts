/**
 * The installment plans' issuer, plan and BIN shapes, with nothing of the field rules: the
 * gateway's plans answer (schemas/installments.ts) and the endpoint's JSON to the browser
 * (endpoint-results.ts) are both read with them.
 */
import * as z from 'zod/mini';
import { pure } from './pure.ts';

const nullableText = z.nullish(z.string());
const numberOrText = z.union([z.number(), z.string()]);

/**
 * The issuer and plan shapes, built for a kind of whole number: the endpoint's JSON to the browser
 * carries numbers; the gateway's answer may be XML (response_format XML), which writes every value
 * as text, so there the whole numbers are also read from digits (kept out of the browser bundle).
 * Either way a null may be left out (XML writes none).
 */
/* @__NO_SIDE_EFFECTS__ */
export function planShapes(wholeNumber: z.ZodMiniType<number, number> | z.ZodMiniType<number, number | string>) {
  /** One plan of an issuer. Values the spec shows: fees_type Percentage (Fixed implied), rate_type Flat (Reducing implied). */
  const plan = z.looseObject({
    plan_code: z.string(),
    currency_code: z.string(),
    number_of_installment: wholeNumber,
    fees_type: z.string(),
    fees_amount: wholeNumber,
    processing_fees_type: nullableText,
    processing_fees_amount: z.nullish(numberOrText),
    rate_type: z.string(),
    plan_merchant_type: z.string(),
    plan_type: z.string(),
    fee_display_value: numberOrText,
    minimum_amount: numberOrText,
    maximum_amount: numberOrText,
    /** A decimal string, e.g. "350.50"; absent or null when the gateway does not compute it. */
    amountPerMonth: z.nullish(z.string()),
  });

  /** A BIN range of an issuer's cards. */
  const bin = z.looseObject({
    bin: z.string(),
    country_code: z.string(),
    currency_code: z.string(),
    card_brand_code: z.string(),
  });

  /** One issuer of the plans answer, with its plans and BINs. The message fields may be null. */
  const issuer = z.looseObject({
    issuer_code: z.string(),
    issuer_name_ar: z.string(),
    issuer_name_en: z.string(),
    terms_and_condition_ar: nullableText,
    terms_and_condition_en: nullableText,
    country_code: z.string(),
    issuer_logo_ar: nullableText,
    issuer_logo_en: nullableText,
    /** Value seen: "Non Islamic"; the Islamic variant's spelling is not shown. */
    banking_system: z.string(),
    formula: nullableText,
    plan_details: z.array(plan),
    bins: z.array(bin),
    confirmation_message_ar: nullableText,
    confirmation_message_en: nullableText,
    disclaimer_message_ar: nullableText,
    disclaimer_message_en: nullableText,
    processing_fees_message_ar: nullableText,
    processing_fees_message_en: nullableText,
  });
  return { plan, bin, issuer };
}

// A whole number as `z.int()` accepts it (a safe integer), as one refinement: the endpoint-results
// checks are all refinements, one check class in the page instead of one per kind (bench/schema-cost.ts).
const jsonShapes = pure(() => planShapes(z.number().check(z.refine((n) => Number.isSafeInteger(n)))));

/** One plan of an issuer (the endpoint's JSON). */
export const installmentPlanDetail = pure(() => jsonShapes.plan);
/** A BIN range of an issuer's cards. */
export const installmentBin = pure(() => jsonShapes.bin);
/** One issuer with its plans and BINs (the endpoint's JSON). The message fields may be null or absent. */
export const installmentIssuerDetail = pure(() => jsonShapes.issuer);

export type InstallmentPlanDetail = z.infer<typeof installmentPlanDetail>;
export type InstallmentBin = z.infer<typeof installmentBin>;
export type InstallmentIssuerDetail = z.infer<typeof installmentIssuerDetail>;
