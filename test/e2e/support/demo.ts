/**
 * The demo as a merchant developer meets it: `startDemo()` from demo/server.ts on a free loopback
 * port, and a Chromium page that records Content-Security-Policy violations, uncaught errors and
 * console errors (a missing favicon or a failed request shows there).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startDemo, type RunningDemo } from '../../../demo/server.ts';
import { launchBrowser, type LaunchedBrowser } from './browser.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address() as { port: number };
      probe.close(() => resolve(address.port));
    });
  });
}

export interface DemoSession {
  readonly demo: RunningDemo;
  readonly browser: LaunchedBrowser;
  /** A fresh page that records CSP violations, uncaught errors and console errors. */
  newPage(language?: 'en' | 'ar'): Promise<ObservedPage>;
  close(): Promise<void>;
}

export interface ObservedPage {
  readonly page: Page;
  readonly cspViolations: () => Promise<string[]>;
  /** Uncaught errors and console errors, each with the page it came from. */
  readonly errors: string[];
  /**
   * Takes out of `errors` the console lines a test expects, such as the one Chromium writes for
   * every 4xx answer when the endpoint refuses a request on purpose; fails when none matches.
   */
  expectConsoleError(pattern: RegExp): void;
}

/**
 * Chromium's console line for a CSP refusal. Those are recorded as violations already, where the
 * ones axe's own probes cause are told apart (see axeViolations).
 */
const CSP_REFUSAL = /violates the following Content Security Policy directive/;

export async function startDemoSession(): Promise<DemoSession> {
  const demo = await startDemo({ port: await freePort() });
  const browser = await launchBrowser();
  return {
    demo,
    browser,
    async newPage(language = 'en') {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`${error.message} (${page.url()})`));
      page.on('console', (message) => {
        if (message.type() === 'error' && !CSP_REFUSAL.test(message.text())) {
          errors.push(`console: ${message.text()} (${message.location().url || page.url()})`);
        }
      });
      await page.addInitScript(() => {
        const violations: string[] = [];
        (window as unknown as { __cspViolations: string[] }).__cspViolations = violations;
        document.addEventListener('securitypolicyviolation', (event) => {
          violations.push(`${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      await page.goto(`${demo.url}?lang=${language}`);
      return {
        page,
        errors,
        expectConsoleError(pattern) {
          const expected = errors.filter((error) => error.startsWith('console: ') && pattern.test(error));
          assert.ok(expected.length > 0, `a console error matching ${pattern} (errors: ${JSON.stringify(errors)})`);
          errors.splice(0, errors.length, ...errors.filter((error) => !expected.includes(error)));
        },
        cspViolations: () => page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []),
      };
    },
    async close() {
      await browser.close();
      await demo.close();
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/** Runs axe-core on the page as it is now (open shadow roots included). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, so the page's strict CSP does not block it. axe's
  // own probes (an inline <style> for its colour checks) are refused by that CSP; those reports
  // are the test tool's, not the page's, so they are dropped from the page's record.
  const recorded = await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations?.length ?? 0);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => JSON.stringify(node.target)),
    }));
  });
  await page.evaluate((length) => {
    (window as unknown as { __cspViolations?: string[] }).__cspViolations?.splice(length);
  }, recorded);
  return violations;
}

const screenshotDir = join(process.cwd(), 'test-results', 'screenshots');

/** Saves a screenshot under test-results/screenshots (kept by CI as an artefact of the run). */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
