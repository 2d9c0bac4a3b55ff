/**
 * How an element property reads what it is given. An attribute gives text (or null once removed);
 * React 19 and Vue 3 set the DOM property of the same name whenever the element has one, so that
 * same text also arrives as a property, beside the richer type a script sets. A reader turns any of
 * these into the property's own type: `methods="card voucher"`, `el.methods = 'card voucher'` and
 * `el.methods = ['card', 'voucher']` are one thing, and an invalid value set as a property reads
 * as the same invalid attribute does.
 *
 * A reader is the property's Lit `converter` (so attributes use it) with `fromValue` added, which
 * the elements' `@property()` (property.ts) runs on every property set. Pure functions: no DOM, no
 * Lit runtime.
 */
import type { ComplexAttributeConverter } from 'lit';
import { isLanguage, normalizeDigits, type Language } from '../../core/language.ts';
import { systemClock, type Clock } from '../../core/clock.ts';

export interface PropertyReader<T> extends ComplexAttributeConverter<T> {
  fromAttribute(value: string | null): T;
  /** Reads a value set as a property: the attribute's text, the property's own type, or anything else. */
  fromValue(value: unknown): T;
}

/** A reader that reads attributes and property values alike. */
export function propertyReader<T>(read: (value: unknown) => T): PropertyReader<T> {
  return { fromAttribute: read, fromValue: read };
}

/** Text; a removed attribute, `null` or `undefined` (a framework dropping the prop) is `''`. */
export const textReader: PropertyReader<string> = propertyReader((value) => (value == null ? '' : String(value)));

/** The operation a payment runs. */
export type PaymentCommand = 'AUTHORIZATION' | 'PURCHASE';

/**
 * `command`: `PURCHASE` when removed. Unlike the other lists, an unknown command is kept as given:
 * the element then refuses to send it (`invalid_request`, no request made) rather than reading a
 * typo of AUTHORIZATION as the default PURCHASE and charging the customer at once.
 */
export const commandReader: PropertyReader<PaymentCommand> = propertyReader((value) =>
  value == null ? 'PURCHASE' : (String(value) as PaymentCommand),
);

/**
 * A boolean attribute: present is true, absent false. The text `"false"` is false too, because Vue
 * writes `:hide-receipt="false"` as that attribute and a page author who writes it means false.
 */
export const flagReader: PropertyReader<boolean> = propertyReader((value) =>
  typeof value === 'string' ? value.trim().toLowerCase() !== 'false' : Boolean(value),
);

/** One of `values`, exactly spelt; anything else is `fallback` (HTML's "invalid value default"). */
export function oneOfReader<const T extends string, F extends T | undefined>(
  values: readonly T[],
  fallback: F,
): PropertyReader<T | F> {
  return propertyReader((value) => ((values as readonly unknown[]).includes(value) ? (value as T) : fallback));
}

/**
 * A whole number of at least `min`, from a number or its text (Arabic-Indic digits read); anything
 * else, an empty attribute included, is `fallback`.
 */
export function wholeNumberReader<F extends number | undefined>(min: number, fallback: F): PropertyReader<number | F> {
  return propertyReader((value) => {
    const text = typeof value === 'string' ? normalizeDigits(value).trim() : undefined;
    const number = typeof value === 'number' ? value : text !== undefined && /^-?\d+$/.test(text) ? Number(text) : NaN;
    return Number.isSafeInteger(number) && number >= min ? number : fallback;
  });
}

/** `en` or `ar`; anything else reads as `en`. */
export const languageReader: PropertyReader<Language> = propertyReader((value) => (isLanguage(value) ? value : 'en'));

/** An amount in minor units, when the page gives one: a whole number of at least 0, else none. */
export const amountReader: PropertyReader<number | undefined> = wholeNumberReader(0, undefined);

/** `clock`: anything with `now()` and `schedule()`; anything else, a removed prop included, is the system clock. */
export const clockReader: PropertyReader<Clock> = propertyReader((value) => {
  const clock = value as Partial<Clock> | null | undefined;
  return typeof clock?.now === 'function' && typeof clock.schedule === 'function' ? (clock as Clock) : systemClock;
});
