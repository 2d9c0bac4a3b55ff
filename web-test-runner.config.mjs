// Browser tests for the elements: Chromium from the system (never a downloaded build), TypeScript
// and TSX through esbuild with the project's tsconfig (experimental decorators, React's JSX), React
// and Vue as ES modules (test/components/support/framework-modules.mjs), and msw's service worker
// served from the site root so its scope covers every test page.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { chromiumArgs, chromiumPath } from './test/chromium.mjs';
import { frameworkModules } from './test/components/support/framework-modules.mjs';


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
};
