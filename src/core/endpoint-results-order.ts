/**
 * The part of the endpoint contract (endpoint-results.ts) that an element's first request needs:
 * the order's answer (every element loads its order on connect) and the endpoint's refusal, with
 * the shapes the other answers share. A module of its own so that a page checks its order with
 * this alone; most of it is zod/mini itself, which the rest of the contract then shares
 * (bench/schema-cost.ts). Its checks are refinements: one check class for all of them, where
 * `z.int()`, `z.nonnegative()`, `z.regex()` or `z.minLength()` would each bring their own.
 */
import * as z from 'zod/mini';
import type { ClientRouteName, EndpointCall } from './endpoint-routes.ts';
import { pure } from './schemas/pure.ts';

/**
 * Integer minor units, as the merchant's order holds them: a safe, non-negative integer, which is
 * what `z.int()` with `z.nonnegative()` accepts (z.number() already refuses NaN and infinities).
 * The endpoint parses requests with its own (endpoint-api.ts), whose issues name the field error.
 */
export const minorUnits = pure(() => z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= 0)));

export const text = z.string();
/** An ISO 4217 code as the elements format money with it. */
export const currencyCode = pure(() => z.string().check(z.refine((s) => /^[A-Z]{3}$/.test(s))));

/** What the browser may know of the order: its identity and what it costs. */
export const orderResult = pure(() => z.object({
  merchant_reference: text,
  amount: minorUnits,
  currency: currencyCode,
  description: z.optional(text),
}));

/** Every refusal: a 4xx with a stable code, the field when one is at fault, and a localized message. */
export const endpointError = pure(() => z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
    /** The gateway's five-digit response_code when the gateway refused (`gateway_refused`). */
    response_code: z.optional(z.string()),
  }),
}));

/**
 * The answer of `call` if it is the order's and passes {@link orderResult}, else undefined: the
 * elements' client reads the order's answer with this alone (shared/contract.ts `loadChecks`), and
 * every other answer with endpoint-results.ts `checkedResult`.
 */
export function checkedResult<Result>(call: EndpointCall<ClientRouteName, unknown, Result>, payload: unknown): Result | undefined {
  const checked = call.result === 'orderResult' ? z.safeParse(orderResult, payload) : undefined;
  return checked?.success ? (checked.data as Result) : undefined;
}

/** The refusal in a 4xx answer, if it has the endpoint's error shape. */
export function checkedRefusal(payload: unknown): EndpointError['error'] | undefined {
  const checked = z.safeParse(endpointError, payload);
  return checked.success ? checked.data.error : undefined;
}

export type OrderResult = z.infer<typeof orderResult>;
export type EndpointError = z.infer<typeof endpointError>;
