/**
 * How the client's methods take a request: by the gateway's wire names (the core's request types),
 * less what the client adds itself (identity, signature) and what the method fixes (the command),
 * with `language` optional (the client's default). Amounts are integer minor units.
 */
import type { Language } from '../core/language.ts';

/** Fields the client fills on every request. */
export type ClientSupplied = 'access_code' | 'merchant_identifier' | 'signature' | 'language';

export type ClientInput<R, Fixed extends PropertyKey = never> = Omit<R, Fixed | ClientSupplied> & {
  /** Language of the gateway's messages and of field errors (default: the client's `language`). */
  readonly language?: Language;
};

/** A request with an amount in minor units (the wire's digits are written by the client). */
export type WithAmount<R> = Omit<R, 'amount'> & {
  /** Integer minor units: 12.50 EGP is 1250. */
  readonly amount: number;
};
