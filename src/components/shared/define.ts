/**
 * Guarded registration. An embeddable widget meets other copies of itself (two bundles, two
 * versions on one storefront): the first definition wins and later ones warn instead of throwing,
 * so one stale script never breaks the page.
 */

/** The outcome of {@link defineElement}, for callers and tests that care. */
export type DefineOutcome = 'defined' | 'already-defined' | 'conflict';

/**
 * Registers `constructor` as `tagName` unless the tag is taken. Returns `'already-defined'` when
 * this same class holds the tag and `'conflict'` (with a console warning) when another class does.
 */
export function defineElement(
  tagName: string,
  constructor: CustomElementConstructor,
  registry: CustomElementRegistry = customElements,
): DefineOutcome {
  const existing = registry.get(tagName);
  if (existing === constructor) return 'already-defined';
  if (existing) {
    console.warn(
      `pg-checkout: <${tagName}> is already defined (is the bundle loaded twice?); the first definition is kept.`,
    );
    return 'conflict';
  }
  registry.define(tagName, constructor);
  return 'defined';
}
