/**
 * Two builds:
 * - default: the package's entry points as ES modules, dependencies left external
 *   (`pg-checkout`, `/define`, `/core`, `/server`, `/gateway`, `/sandbox`, `/sandbox/msw`, the CLI);
 * - `--mode bundle`: the bundle folder for a plain `<script type="module">` with no build step:
 *   `pg-checkout.js` (Lit, the shared code, the elements' classes and `<pg-checkout>`'s card form, in
 *   one file), and the chunks it imports relatively when they are needed (`chunks/`: the other elements'
 *   views, the payment frames, the contract's schemas, the Arabic catalogs); see bundle-chunks.ts.
 *   The elements' templates lose their source indentation (bundle-templates.ts).
 */
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { bundleChunking } from './bundle-chunks.ts';
import { collapseTemplateWhitespace } from './bundle-templates.ts';

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

const libraryEntries = {
  index: path('src/index.ts'),
  define: path('src/define.ts'),
  core: path('src/core/index.ts'),
  server: path('src/server/index.ts'),
  gateway: path('src/gateway/index.ts'),
  sandbox: path('src/sandbox/index.ts'),
  'sandbox-msw': path('src/sandbox/msw.ts'),
  cli: path('src/cli/bin.ts'),
};

export default defineConfig(({ mode }) => {
  if (mode === 'bundle') {
    return {
      // The templates' source indentation, which the minifier keeps (bundle-templates.ts).
      plugins: [collapseTemplateWhitespace],
      build: {
        outDir: 'dist/bundle',
        emptyOutDir: true,
        target: 'es2022',
        lib: { entry: path('src/define.ts'), formats: ['es'], fileName: () => 'pg-checkout.js' },
        rolldownOptions: {
          preserveEntrySignatures: bundleChunking.preserveEntrySignatures,
          output: {
            minify: true,
            // Annotations steer tree-shaking; this bundle is final (it exports nothing), so they are dead weight.
            comments: { annotation: false },
            chunkFileNames: 'chunks/[name]-[hash].js',
            codeSplitting: bundleChunking.codeSplitting,
          },
        },
      },
    };
  }
  return {
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      lib: { entry: libraryEntries, formats: ['es'], fileName: (_format, name) => `${name}.js` },
      rolldownOptions: {
        // The store's drivers are optional dependencies, loaded only when a store of theirs is opened.
        external: [/^node:/, /^lit(\/|$)/, /^@lit\//, /^zod(\/|$)/, /^msw(\/|$)/, /^libsql(\/|$)/, /^pg(\/|$)/],
      },
    },
  };
});
