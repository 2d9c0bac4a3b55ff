// Browser tests for the elements: Chromium from the system (never a downloaded build), TypeScript
// through esbuild with the project's tsconfig (experimental decorators), and msw's service worker
// served from the site root so its scope covers every test page.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { chromiumArgs, chromiumPath } from './test/chromium.mjs';


/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  files: ['test/components/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'auto' })],
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
