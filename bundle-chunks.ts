/**
 * How the bundle folder (`vite build --mode bundle`) splits its code into files; the benchmark
 * builds the elements the same way, so its figures are the folder's.
 *
 * Everything a page always loads (Lit, the elements' shared code: base class, endpoint client,
 * messages, styles, the card form; the four element classes and `<pg-checkout>`'s messages and
 * styles) goes into the entry file itself: the group holds the entry module (`src/define.ts`), so
 * the bundler makes the group the entry chunk. Automatic splitting makes several files (it splits
 * along what the on-demand views share), and the first grouping made one `base` chunk beside the
 * entry; but each file is compressed on its own (one file is about 1.5 kB gzip smaller than two),
 * and a file the entry imports is asked for only once the entry has arrived: on a 150 ms mobile
 * network one more round trip before the first paint (issue 25, `npm run bench`, phone section).
 * A module listed here that only a view used would move into the initial load (the other
 * elements' messages and styles stay with their views); the size test keeps that load within its
 * budget and checks that no view, catalog, schema or frame code is in it.
 */
export const bundleChunking: {
  readonly preserveEntrySignatures: 'allow-extension';
  readonly codeSplitting: { groups: { name: string; test: RegExp }[] };
} = {
  // The entry exports nothing a page uses, so chunks it always loads may merge into it.
  preserveEntrySignatures: 'allow-extension',
  codeSplitting: {
    groups: [
      {
        name: 'base',
        test: new RegExp(
          [
            String.raw`node_modules/(lit|lit-html|lit-element|@lit/reactive-element)/`,
            String.raw`src/core/(language|endpoint-routes|amounts|card-number)\.ts$`,
            String.raw`src/define\.ts$`,
            String.raw`src/components/pg-[\w-]+/(define|pg-[\w-]+|bill-key)\.ts$`,
            String.raw`src/components/pg-checkout/(messages|styles|events)\.ts$`,
            String.raw`src/components/shared/(pg-element|element-view|events|endpoint-client|endpoint-controller|localize|on-demand|property|property-readers|messages|styles|contract|card-form|card|gateway-form|define|framed-flow-loader|paint|live)\.ts$`,
          ].join('|'),
        ),
      },
    ],
  },
};

/**
 * Whether built code registers `tag`: `define('pg-x', Name)`, or with the class written into the
 * call itself (`define('pg-x', class extends …`), as the minifier writes a class used once. A bare
 * mention of the tag (a template, a lookup table) does not count. The size test and the benchmark
 * check with it that every element is registered.
 */
export function registersElement(source: string, tag: string): boolean {
  return new RegExp(`\\(\\s*[\`"']${tag}[\`"']\\s*,\\s*(?:[\\w$]+\\s*\\)|class\\b)`).test(source);
}
