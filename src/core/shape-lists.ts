/**
 * The shapes of numbers, lists, records, alternatives and what may be null (shape.ts has the
 * others): apart, so that a page's first screen, which reads only the order's answer, loads none
 * of them.
 */
import { FAIL, fail, is, isRecord, retry, type AnyShape, type Infer, type OptionalShape, type Shape } from './shape.ts';

/** A finite number, as zod's `z.number()` (no NaN, no infinity). */
export const number: Shape<number> = is((value): value is number => Number.isFinite(value));
export const boolean: Shape<boolean> = is((value): value is boolean => typeof value === 'boolean');

/** Absent, undefined, null or the shape's value. */
/* @__NO_SIDE_EFFECTS__ */
export function nullish<T>(shape: Shape<T>): OptionalShape<T | null> {
  return Object.assign((value: unknown) => (value == null ? value : shape(value)), { optional: true as const }) as OptionalShape<T | null>;
}

/* @__NO_SIDE_EFFECTS__ */
export function array<T>(item: Shape<T>): Shape<T[]> {
  return (value) => {
    if (!Array.isArray(value)) return fail();
    const read: T[] = [];
    for (let index = 0; index < value.length; index++) {
      const entry = item(value[index]);
      if (entry === FAIL) return fail(index);
      read.push(entry);
    }
    return read;
  };
}

/** An object of text keys; `Object.fromEntries`, so a key `__proto__` stays a key. */
/* @__NO_SIDE_EFFECTS__ */
export function record<T>(item: Shape<T>): Shape<Record<string, T>> {
  return (value) => {
    if (!isRecord(value)) return fail();
    const read: [string, T][] = [];
    for (const key of Object.keys(value)) {
      const entry = item(value[key]);
      if (entry === FAIL) return fail(key);
      read.push([key, entry]);
    }
    return Object.fromEntries(read);
  };
}

/** The first of `shapes` that reads the value. */
/* @__NO_SIDE_EFFECTS__ */
export function union<S extends readonly AnyShape[]>(...shapes: S): Shape<Infer<S[number]>> {
  return (value) => {
    for (const shape of shapes) {
      retry(); // a refusal names where the last alternative failed
      const read = shape(value);
      if (read !== FAIL) return read as Infer<S[number]>;
    }
    return fail();
  };
}
