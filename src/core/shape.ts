/**
 * Shapes: the checks of JSON the browser reads (the endpoint's answers, its framed pages'
 * messages, what an element kept in sessionStorage), small enough for a checkout page. A shape
 * is a function that returns the value it read, with only the fields it names (a loose object
 * keeps the others), or {@link FAIL}. They read as zod's object, array, record, literal, union,
 * optional and nullish do (test/core/shape.test.ts holds each to zod's verdict and output on any
 * value), without zod's messages, which no customer sees: zod stays where a refusal must name a
 * field to a person (the requests the endpoint parses, the gateway's field rules).
 *
 * The server reads its own answers with the same shapes before it sends them ({@link readAt}),
 * so the page and the endpoint hold one contract.
 */

/** What a shape returns for a value it refuses. */
export const FAIL: unique symbol = Symbol('fail');
export type Fail = typeof FAIL;

export type Shape<T> = (value: unknown) => T | Fail;

/** A shape whose key may be absent from an object. */
export type OptionalShape<T> = Shape<T | undefined> & { readonly optional: true };

/** What a shape reads. */
export type Infer<S> = S extends Shape<infer T> ? T : never;

export type AnyShape = Shape<unknown>;
type Flat<T> = { [K in keyof T]: T[K] } & {};
type ObjectOf<P extends Record<string, AnyShape>> = Flat<
  { [K in keyof P as P[K] extends { optional: true } ? never : K]: Infer<P[K]> } & {
    [K in keyof P as P[K] extends { optional: true } ? K : never]?: Infer<P[K]>;
  }
>;

/** Where the last refusal happened (keys from the outside in), for the server's log. */
let failedAt: (string | number)[] = [];

/** A refusal, at `at` within the value (a shape of shape-lists.ts or one built elsewhere returns it). */
export function fail(at?: string | number): Fail {
  if (at !== undefined) failedAt.unshift(at);
  return FAIL;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A shape of values that pass `test`, as they are. */
export function is<T>(test: (value: unknown) => value is T): Shape<T>;
export function is<T>(base: Shape<T>, test: (value: T) => boolean): Shape<T>;
/* @__NO_SIDE_EFFECTS__ */
export function is<T>(base: Shape<T> | ((value: unknown) => boolean), test?: (value: T) => boolean): Shape<T> {
  return test
    ? (value) => {
        const read = (base as Shape<T>)(value);
        return read !== FAIL && test(read) ? read : FAIL;
      }
    : (value) => ((base as (value: unknown) => boolean)(value) ? (value as T) : FAIL);
}

/** Forgets the refusal of an alternative that was tried (a union's). */
export function retry(): void {
  failedAt = [];
}

export const string: Shape<string> = is((value): value is string => typeof value === 'string');

/** One of `values`, compared with `===`. */
/* @__NO_SIDE_EFFECTS__ */
export function literal<const L extends readonly (string | number | boolean)[]>(...values: L): Shape<L[number]> {
  return is((value): value is L[number] => values.includes(value as L[number]));
}

/* @__NO_SIDE_EFFECTS__ */
export function optional<T>(shape: Shape<T>): OptionalShape<T> {
  return Object.assign((value: unknown) => (value === undefined ? undefined : shape(value)), { optional: true as const });
}

/**
 * An object with the named fields (an optional one may be absent); the others are dropped, or
 * kept when `loose` (as the gateway's entries are passed on).
 */
/* @__NO_SIDE_EFFECTS__ */
export function object<P extends Record<string, AnyShape>>(fields: P, loose?: boolean): Shape<ObjectOf<P>> {
  return (value) => {
    if (!isRecord(value)) return fail();
    const read: [string, unknown][] = loose ? Object.entries(value) : [];
    for (const key in fields) {
      const entry = fields[key]!(value[key]);
      if (entry === FAIL) return fail(key);
      if (entry !== undefined) read.push([key, entry]);
    }
    return Object.fromEntries(read) as ObjectOf<P>;
  };
}

/** What `shape` reads of `value`, or undefined when it refuses it. */
export function read<T>(shape: Shape<T>, value: unknown): T | undefined {
  const result = readAt(shape, value);
  return result.ok ? result.value : undefined;
}

/** What `shape` reads of `value`, or where it refused it (`issuer_detail.0.plan_code`). */
export function readAt<T>(shape: Shape<T>, value: unknown): { readonly ok: true; readonly value: T } | { readonly ok: false; readonly path: readonly (string | number)[] } {
  failedAt = [];
  const result = shape(value);
  return result === FAIL ? { ok: false, path: failedAt } : { ok: true, value: result };
}

/** What `shape` reads of `value`; throws, naming where, when it refuses it (tests, and callers that must not go on). */
export function parse<T>(shape: Shape<T>, value: unknown): T {
  const result = readAt(shape, value);
  if (!result.ok) throw new TypeError(`the value does not have the expected shape at ${result.path.join('.') || 'its top'}`);
  return result.value;
}
