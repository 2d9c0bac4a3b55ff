/**
 * React 19 and Vue 3 in the browser tests, as their npm packages ship them.
 *
 * - React publishes CommonJS only. esbuild bundles react, its JSX runtime and react-dom into one
 *   ES module (so they share one React), and each specifier gets a small module re-exporting its
 *   names, read from the package itself (in a child Node: React's development build wraps the
 *   console, which the test runner's own console does not survive). Built once per run.
 * - Vue's default ES build is for bundlers (it reads `process.env`); the tests get its browser
 *   build, which also compiles templates, so a test writes a template as a Vue user does.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';

const REACT_SPECIFIERS = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client'];
const REACT_PREFIX = '/__react/';
const REACT_BUNDLE = `${REACT_PREFIX}bundle.js`;
const VUE_BROWSER_BUILD = '/node_modules/vue/dist/vue.esm-browser.js';

const identifier = /^[A-Za-z_$][\w$]*$/;

/** One ES module holding every React specifier's module namespace, `m0`…`m3`. */
async function bundleReact() {
  const result = await build({
    stdin: {
      contents: REACT_SPECIFIERS.map((specifier, index) => `export * as m${index} from '${specifier}';`).join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"development"' },
  });
  return result.outputFiles[0].text;
}

/** The names each React specifier exports, as Node's `require` sees them. */
function exportedNames() {
  const script = `console.log(JSON.stringify(${JSON.stringify(REACT_SPECIFIERS)}.map((s) => Object.keys(require(s)))))`;
  const names = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
  return new Map(REACT_SPECIFIERS.map((specifier, index) => [specifier, names[index]]));
}

/** `import { useState } from 'react'` and `import React from 'react'`, from the shared bundle. */
function reexport(specifier, allNames) {
  const index = REACT_SPECIFIERS.indexOf(specifier);
  const names = allNames.get(specifier).filter((name) => identifier.test(name) && name !== 'default');
  return [
    `import { m${index} as namespace } from '${REACT_BUNDLE}';`,
    'export default namespace.default;',
    names.length > 0 ? `export const { ${names.join(', ')} } = namespace;` : '',
  ].join('\n');
}

/** A @web/test-runner plugin serving React and Vue to the browser tests. */
export function frameworkModules() {
  let reactBundle;
  let reactNames;
  return {
    name: 'framework-modules',
    resolveImport({ source }) {
      if (REACT_SPECIFIERS.includes(source)) return `${REACT_PREFIX}${source}.js`;
      if (source === 'vue') return VUE_BROWSER_BUILD;
      return undefined;
    },
    async serve(context) {
      if (!context.path.startsWith(REACT_PREFIX)) return undefined;
      if (context.path === REACT_BUNDLE) {
        reactBundle ??= bundleReact();
        return { body: await reactBundle, type: 'js' };
      }
      const specifier = context.path.slice(REACT_PREFIX.length, -'.js'.length);
      if (!REACT_SPECIFIERS.includes(specifier)) return undefined;
      reactNames ??= exportedNames();
      return { body: reexport(specifier, reactNames), type: 'js' };
    },
  };
}
