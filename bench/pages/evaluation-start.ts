/**
 * Imported first by every benchmark page, so that this mark is set as the page's module graph
 * starts evaluating, before the widget's code (bundlers keep import evaluation order). The mark is
 * exported and read by `probe.ts`: the package's `sideEffects` list would let the bundler drop a
 * module that only has a side effect.
 */
export const evaluationStartMark: PerformanceMark = performance.mark('bench:evaluation-start');
