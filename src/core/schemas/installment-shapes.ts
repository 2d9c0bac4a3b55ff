/**
 * The installment plans' issuer, plan and BIN shapes, with nothing of the field rules: the
 * gateway's plans answer (schemas/installments.ts) and the endpoint's JSON to the browser
 * (endpoint-results.ts) are both read with them. Shapes (../shape.ts), not zod: the browser
 * reads them.
 */
import { is, object, string, type Infer, type Shape } from '../shape.ts';
import { array, nullish, number, union } from '../shape-lists.ts';

const nullableText = nullish(string);
const numberOrText = union(number, string);

/**
 * The issuer and plan shapes, built for a kind of whole number: the endpoint's JSON to the browser
 * carries numbers; the gateway's answer may be XML (response_format XML), which writes every value
 * as text, so there the whole numbers are also read from digits (kept out of the browser bundle).
 * Either way a null may be left out (XML writes none). Each entry keeps the fields it does not name.
 */
/* @__NO_SIDE_EFFECTS__ */
export function planShapes(wholeNumber: Shape<number>) {
  /** One plan of an issuer. Values the spec shows: fees_type Percentage (Fixed implied), rate_type Flat (Reducing implied). */
  const plan = object(
    {
      plan_code: string,
      currency_code: string,
      number_of_installment: wholeNumber,
      fees_type: string,
      fees_amount: wholeNumber,
      processing_fees_type: nullableText,
      processing_fees_amount: nullish(numberOrText),
      rate_type: string,
      plan_merchant_type: string,
      plan_type: string,
      fee_display_value: numberOrText,
      minimum_amount: numberOrText,
      maximum_amount: numberOrText,
      /** A decimal string, e.g. "350.50"; absent or null when the gateway does not compute it. */
      amountPerMonth: nullableText,
    },
    true,
  );

  /** A BIN range of an issuer's cards. */
  const bin = object({ bin: string, country_code: string, currency_code: string, card_brand_code: string }, true);

  /** One issuer of the plans answer, with its plans and BINs. The message fields may be null. */
  const issuer = object(
    {
      issuer_code: string,
      issuer_name_ar: string,
      issuer_name_en: string,
      terms_and_condition_ar: nullableText,
      terms_and_condition_en: nullableText,
      country_code: string,
      issuer_logo_ar: nullableText,
      issuer_logo_en: nullableText,
      /** Value seen: "Non Islamic"; the Islamic variant's spelling is not shown. */
      banking_system: string,
      formula: nullableText,
      plan_details: array(plan),
      bins: array(bin),
      confirmation_message_ar: nullableText,
      confirmation_message_en: nullableText,
      disclaimer_message_ar: nullableText,
      disclaimer_message_en: nullableText,
      processing_fees_message_ar: nullableText,
      processing_fees_message_en: nullableText,
    },
    true,
  );
  return { plan, bin, issuer };
}

/** A whole number as `z.int()` accepts it: a safe integer. */
const jsonShapes = planShapes(is(number, Number.isSafeInteger));

/** One plan of an issuer (the endpoint's JSON). */
export const installmentPlanDetail = jsonShapes.plan;
/** A BIN range of an issuer's cards. */
export const installmentBin = jsonShapes.bin;
/** One issuer with its plans and BINs (the endpoint's JSON). The message fields may be null or absent. */
export const installmentIssuerDetail = jsonShapes.issuer;

export type InstallmentPlanDetail = Infer<typeof installmentPlanDetail>;
export type InstallmentBin = Infer<typeof installmentBin>;
export type InstallmentIssuerDetail = Infer<typeof installmentIssuerDetail>;
