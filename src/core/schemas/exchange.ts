/** Currency exchange: CURRENCY_CONVERSION on paymentApi (an open point of the spec; docs/decisions.md). */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { apiOptions, identity, outcome, wireAmount } from './shared.ts';

const conversionShape = pure(() => ({
  service_command: z.literal('CURRENCY_CONVERSION'),
  ...identity,
  amount: wireAmount,
  currency: field('currency'),
  converted_currency: field('converted_currency'),
  language: field('language'),
  signature: field('signature'),
  ...apiOptions,
}));

/** CURRENCY_CONVERSION: an amount in minor units of `currency`, to be converted into `converted_currency`. */
export const currencyConversionRequest = pure(() => z.strictObject(conversionShape));

/**
 * CURRENCY_CONVERSION answer (42000, status 42): `converted_amount` in minor units of the target
 * currency and the `conversion_rate` used, a decimal string (one unit of `currency` in `converted_currency`).
 */
export const currencyConversionResponse = pure(() => z.looseObject({
  ...conversionShape,
  ...outcome,
  converted_amount: z.optional(z.union([field('converted_amount'), z.number()])),
  conversion_rate: z.optional(field('conversion_rate')),
}));

// ---- Types ----

export type CurrencyConversionRequest = z.infer<typeof currencyConversionRequest>;
export type CurrencyConversionResponse = z.infer<typeof currencyConversionResponse>;
