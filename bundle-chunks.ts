/**
 * How the bundle folder (`vite build --mode bundle`) splits its code into files; the benchmark
 * builds the elements the same way, so its figures are the folder's.
 *
 * Everything a page always loads with the entry (Lit and the elements' shared code: base class,
 * endpoint client, messages, styles, the card form) goes into one `base` chunk instead of the
 * several that automatic splitting makes (it splits along what the on-demand views share), because
 * each file is compressed on its own: one file is about 1.5 kB gzip smaller than five. A module
 * listed here that only a view used would move into the initial load; the size test keeps that
 * load within its budget and checks that no view, catalog, schema or frame code is in it.
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
            String.raw`src/components/shared/(pg-element|element-view|events|endpoint-client|endpoint-controller|localize|on-demand|property|property-readers|messages|styles|contract|card-form|card|gateway-form)\.ts$`,
          ].join('|'),
        ),
      },
    ],
  },
};
