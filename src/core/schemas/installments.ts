/** Installments: the plans query (GET_INSTALLMENTS_PLANS) and installments by direct operation (installments YES). */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { apiOptions, cardOrToken, directOperationShape, identity, installmentsResult, operationResult, outcome, wireAmount } from './shared.ts';

/** GET_INSTALLMENTS_PLANS. Amount, currency, language and issuer_code narrow the answer (ours: the spec lists only identification). */
export const installmentsPlansRequest = pure(() => z.strictObject({
  query_command: z.literal('GET_INSTALLMENTS_PLANS'),
  ...identity,
  signature: field('signature'),
  language: z.optional(field('language')),
  amount: z.optional(wireAmount),
  currency: z.optional(field('currency')),
  issuer_code: z.optional(field('issuer_code')),
  ...apiOptions,
}));

const nullableText = z.nullish(z.string());
const numberOrText = z.union([z.number(), z.string()]);

/**
 * The issuer and plan shapes, built for a kind of whole number: the endpoint's JSON to the browser
 * carries numbers; the gateway's answer may be XML (response_format XML), which writes every value
 * as text, so there the whole numbers are also read from digits (kept out of the browser bundle).
 * Either way a null may be left out (XML writes none).
 */
/* @__NO_SIDE_EFFECTS__ */
function planShapes(wholeNumber: z.ZodMiniType<number, number> | z.ZodMiniType<number, number | string>) {
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

const jsonShapes = pure(() => planShapes(z.int()));
/** The gateway's answer: a whole number, or its digits as XML writes them, read as the number. */
const answerShapes = pure(() =>
  planShapes(z.union([z.int(), z.pipe(z.string().check(z.regex(/^\d{1,9}$/)), z.transform((digits: string) => Number(digits)))])),
);

/** One plan of an issuer (the endpoint's JSON). */
export const installmentPlanDetail = jsonShapes.plan;
/** A BIN range of an issuer's cards. */
export const installmentBin = jsonShapes.bin;
/** One issuer with its plans and BINs (the endpoint's JSON). The message fields may be null or absent. */
export const installmentIssuerDetail = jsonShapes.issuer;

/** GET_INSTALLMENTS_PLANS answer; `installment_detail` is absent when the query fails. */
export const installmentsPlansResponse = pure(() => z.looseObject({
  query_command: z.literal('GET_INSTALLMENTS_PLANS'),
  ...identity,
  signature: field('signature'),
  ...outcome,
  issuer_code: z.optional(field('issuer_code')),
  installment_detail: z.optional(z.looseObject({ issuer_detail: z.array(answerShapes.issuer) })),
}));

const installmentsDirectShape = pure(() => ({
  ...directOperationShape,
  // YES after the standard merchant page; HOSTED, what the official SDKs send after merchant page 2.0: the same here.
  installments: z.enum(['YES', 'HOSTED']),
  plan_code: field('plan_code'),
  issuer_code: field('issuer_code'),
}));

/** Installments by direct operation: an operation plus installments YES (or HOSTED), plan_code and issuer_code. */
export const installmentsDirectRequest = pure(() => z.strictObject(installmentsDirectShape).check(cardOrToken));

/** Installments by direct operation answer: adds number_of_installments. */
export const installmentsDirectResponse = pure(() => z.looseObject({
  ...installmentsDirectShape,
  ...outcome,
  ...operationResult,
  ...installmentsResult,
  plan_code: field('plan_code'),
  issuer_code: field('issuer_code'),
}));

// ---- Types ----

export type InstallmentsPlansRequest = z.infer<typeof installmentsPlansRequest>;
export type InstallmentsPlansResponse = z.infer<typeof installmentsPlansResponse>;
export type InstallmentPlanDetail = z.infer<typeof installmentPlanDetail>;
export type InstallmentBin = z.infer<typeof installmentBin>;
export type InstallmentIssuerDetail = z.infer<typeof installmentIssuerDetail>;
export type InstallmentsDirectRequest = z.infer<typeof installmentsDirectRequest>;
export type InstallmentsDirectResponse = z.infer<typeof installmentsDirectResponse>;
