/**
 * The page template sets `bench:evaluation-start` in a classic script just before the page's module
 * script, so that fetching, compiling and evaluating the whole module graph (every chunk a split
 * bundle imports included) counts, the same way for every case: a mark inside the bundle cannot be
 * made to run first once the bundle is split into chunks. Every benchmark page imports this module
 * first; it reads that mark (or sets it, for a page without the template). The mark is exported and
 * read by `probe.ts`: the package's `sideEffects` list would let the bundler drop a module that only
 * has a side effect.
 */
export const evaluationStartMark: PerformanceMark =
  (performance.getEntriesByName('bench:evaluation-start', 'mark')[0] as PerformanceMark | undefined) ??
  performance.mark('bench:evaluation-start');
