/**
 * Runs `build` at once. Bundlers take the call as pure, so a bundle drops every schema it does not
 * use: a bare object spread or `.check()` at module level would be kept as a possible side effect.
 */
/* @__NO_SIDE_EFFECTS__ */
export function pure<T>(build: () => T): T {
  return build();
}

