/** Installments: the plans query (GET_INSTALLMENTS_PLANS) and installments by direct operation (installments YES). */
import * as z from 'zod/mini';
import { valueAt } from '../field-errors.ts';
import { field, pure } from './fields.ts';
import { planShapes } from './installment-shapes.ts';
import { is, readAt, type Shape } from '../shape.ts';
import { number } from '../shape-lists.ts';
import { apiOptions, cardOrToken, directOperationShape, identity, installmentsResult, operationResult, outcome, wireAmount } from './shared.ts';

export * from './installment-shapes.ts';

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

/** The gateway's answer: a whole number, or its digits as XML writes them, read as the number. */
const wholeNumberOrDigits: Shape<number> = (value) =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : is(number, Number.isSafeInteger)(value);

const answerShapes = pure(() => planShapes(wholeNumberOrDigits));

/**
 * A zod schema that reads with a shape (the issuer entries are shapes, which the browser reads
 * too); a refusal is an issue at the path where the shape refused: "is required" when nothing is
 * there, else "is not valid" (a shape does not say what it expected).
 */
function shaped<T>(shape: Shape<T>) {
  return z.pipe(
    z.unknown(),
    z.transform((value, payload): T => {
      const read = readAt(shape, value);
      if (read.ok) return read.value;
      payload.issues.push(
        valueAt(value, read.path) === undefined
          ? { code: 'invalid_type', expected: 'nonoptional', message: 'Required', input: undefined, path: [...read.path] }
          : { code: 'custom', message: 'Invalid input', input: value, path: [...read.path] },
      );
      return z.NEVER;
    }),
  );
}


/** GET_INSTALLMENTS_PLANS answer; `installment_detail` is absent when the query fails. */
export const installmentsPlansResponse = pure(() => z.looseObject({
  query_command: z.literal('GET_INSTALLMENTS_PLANS'),
  ...identity,
  signature: field('signature'),
  ...outcome,
  issuer_code: z.optional(field('issuer_code')),
  installment_detail: z.optional(z.looseObject({ issuer_detail: z.array(shaped(answerShapes.issuer)) })),
}));

const installmentsDirectShape = pure(() => ({
  ...directOperationShape,
  // YES (direct operation) completes a plan the gateway's page returned; HOSTED (hosted checkout) a
  // plan chosen on the merchant's page, paid with the token of a merchant page 2.0 form (core completionInstallments).
  installments: z.enum(['YES', 'HOSTED']),
  plan_code: field('plan_code'),
  issuer_code: field('issuer_code'),
}));

/**
 * Hosted checkout pays with the token of the card the customer typed on the merchant's page (the
 * SDKs send HOSTED only after their merchant page 2.0 tokenization): never with clear card data.
 */
const hostedPaysWithToken = z.check<{ readonly installments?: unknown; readonly token_name?: unknown }>(
  (payload) => {
    if (payload.value.installments !== 'HOSTED' || payload.value.token_name !== undefined) return;
    payload.issues.push({ code: 'invalid_type', expected: 'string', path: ['token_name'], input: undefined });
  },
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
);

/** Installments by direct operation: an operation plus installments YES (or HOSTED, with a token), plan_code and issuer_code. */
export const installmentsDirectRequest = pure(() => z.strictObject(installmentsDirectShape).check(cardOrToken, hostedPaysWithToken));

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
export type InstallmentsDirectRequest = z.infer<typeof installmentsDirectRequest>;
export type InstallmentsDirectResponse = z.infer<typeof installmentsDirectResponse>;
