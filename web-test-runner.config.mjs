// Browser tests for the elements: Chromium from the system (never a downloaded build), TypeScript
// and TSX through esbuild with the project's tsconfig (class fields that leave Lit's accessors alone, React's JSX), React
// and Vue as ES modules (test/components/support/framework-modules.mjs), and msw's service worker
// served from the site root so its scope covers every test page.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { chromiumArgs, chromiumPath } from './test/chromium.mjs';
import { frameworkModules } from './test/components/support/framework-modules.mjs';

/**
 * A failed assertion whose value is an element (`expect(element).to.equal(…)`) reaches the runner
 * through `structuredClone`, which cannot clone a DOM node: the result would never arrive and the
 * run would wait out its 120 s. Each node travels as its HTML instead (@web/test-runner #2967).
 */
const CLONEABLE_FAILURES = `
  const clone = globalThis.structuredClone;
  const plain = (value, seen) => {
    if (value instanceof Node) return value.outerHTML ?? value.nodeName;
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return seen.get(value);
    const copy = Array.isArray(value) ? [] : {};
    seen.set(value, copy);
    if (value instanceof Error) Object.assign(copy, { name: value.name, message: value.message, stack: value.stack });
    for (const key of Object.keys(value)) copy[key] = plain(value[key], seen);
    return copy;
  };
  globalThis.structuredClone = (value, options) => {
    try {
      return clone(value, options);
    } catch (error) {
      if (error?.name !== 'DataCloneError') throw error;
      return clone(plain(value, new Map()), options);
    }
  };
`;

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  files: ['test/components/**/*.test.ts', 'test/components/**/*.test.tsx'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [frameworkModules(), esbuildPlugin({ ts: true, tsx: true, tsconfig: './tsconfig.json', target: 'auto' })],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: chromiumPath,
        headless: true,
        args: chromiumArgs,
      },
    }),
  ],
  middleware: [
    function serveMockServiceWorker(context, next) {
      if (context.path === '/mockServiceWorker.js') {
        context.path = '/node_modules/msw/lib/mockServiceWorker.js';
      }
      return next();
    },
  ],
  testFramework: { config: { timeout: 10000 } },
  testRunnerHtml: (testFramework) =>
    `<!DOCTYPE html><html><head><script>${CLONEABLE_FAILURES}</script></head><body><script type="module" src="${testFramework}"></script></body></html>`,
};
