/**
 * zod's compiled parsers for the schemas that check every server-to-server call and every request
 * the endpoint accepts. `z.compile` generates a parser once per schema; it answers an input the
 * schema accepts several times faster than zod's interpreter and hands every other input to the
 * interpreter, so a refusal carries the same issues, paths and messages as before. A schema the
 * compiler cannot express (a check with its own `when`, such as `requiredWithout`) keeps the
 * interpreter, as does a runtime where zod is told to stay `jitless` (no `new Function`), and a
 * browser page: the sandbox and an integration's tests can run the endpoint in one, where a strict
 * CSP forbids generated code and reports even an attempt that zod catches.
 *
 * Server side only: the compiler is one of zod's largest modules.
 */
import * as z from 'zod/mini';

const compiledSchemas = new WeakMap<z.ZodMiniType, z.ZodMiniType>();

function mayGenerateCode(): boolean {
  return !z.config().jitless && typeof globalThis.document === 'undefined';
}

/** The compiled twin of `schema`, made on first use and kept; `schema` itself when it cannot be compiled. */
export function compiled<S extends z.ZodMiniType>(schema: S): S {
  let twin = compiledSchemas.get(schema);
  if (!twin) {
    twin = mayGenerateCode() ? z.compile(schema) : schema;
    compiledSchemas.set(schema, twin);
  }
  return twin as S;
}

/** True when `schema` has a compiled parser (for tests and the benchmark's explanation). */
export function isCompiled(schema: z.ZodMiniType): boolean {
  return compiled(schema) !== schema;
}
