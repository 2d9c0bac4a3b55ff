/**
 * Currency conversion arithmetic (the currency exchange service): a rate is a decimal string, an
 * amount is in minor units (spec, General rules 1), and every step is integer arithmetic, so a
 * merchant can redo the gateway's sum exactly from the `conversion_rate` it answers.
 *
 *   conversion_rate = rate(to) / rate(from), both quoted per one unit of a common currency,
 *                     rounded half up to RATE_DECIMALS places;
 *   converted_amount = amount × conversion_rate × 10^exponent(to) / 10^exponent(from),
 *                     rounded half up to a minor unit of the target currency.
 */
import { currencyExponent } from './amounts.ts';

/** Decimal places of a conversion rate. */
export const RATE_DECIMALS = 6;

const RATE = /^(\d+)(?:\.(\d+))?$/;
const TEN = BigInt(10);
const TWO = BigInt(2);

/** A decimal string as an integer count of 10^-RATE_DECIMALS, rounded half up past that. */
function scaled(rate: string): bigint {
  const match = RATE.exec(rate);
  if (!match) throw new RangeError(`rate "${rate}" is not a decimal number`);
  const [, whole = '0', fraction = ''] = match;
  const kept = fraction.slice(0, RATE_DECIMALS).padEnd(RATE_DECIMALS, '0');
  const value = BigInt(`${whole}${kept}`);
  return fraction.length > RATE_DECIMALS && Number(fraction[RATE_DECIMALS]) >= 5 ? value + BigInt(1) : value;
}

/** numerator / denominator, rounded half up (both positive). */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * TWO + denominator) / (denominator * TWO);
}

/** An integer count of 10^-RATE_DECIMALS as the decimal string, e.g. 20619n → "0.020619". */
function formatScaled(value: bigint): string {
  const digits = value.toString().padStart(RATE_DECIMALS + 1, '0');
  return `${digits.slice(0, -RATE_DECIMALS)}.${digits.slice(-RATE_DECIMALS)}`;
}

/**
 * One unit of `from` in units of `to`, from each currency's rate against a common currency:
 * `crossRate('48.50', '3.75')` (EGP and SAR per US dollar) → "0.077320" SAR per EGP.
 */
export function crossRate(fromRate: string, toRate: string): string {
  const from = scaled(fromRate);
  if (from <= BigInt(0)) throw new RangeError('a rate must be more than zero');
  return formatScaled(divideHalfUp(scaled(toRate) * TEN ** BigInt(RATE_DECIMALS), from));
}

/** `amount` minor units of `from` in minor units of `to` at `rate` (a decimal string), rounded half up. */
export function convertMinorUnits(amount: number, from: string, to: string, rate: string): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError('amount must be a whole number of minor units');
  const numerator = BigInt(amount) * scaled(rate) * TEN ** BigInt(currencyExponent(to));
  const denominator = TEN ** BigInt(RATE_DECIMALS + currencyExponent(from));
  return Number(divideHalfUp(numerator, denominator));
}
