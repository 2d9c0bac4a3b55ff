/**
 * Headless Chromium for the benchmark: Debian's binary (never a download), the quiet flags of
 * `shared/toolchain.md`, external host names resolved to nothing so that a widget reaching for the
 * internet fails fast instead of waiting on DNS, and one fresh browser context per page load.
 */
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../test/chromium.mjs';

export const CHROMIUM_PATH = chromiumPath;

export const CHROMIUM_ARGS = [
  ...chromiumArgs,
  // Loopback only: every other host name fails to resolve at once.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** `chromium.launch` gives every browser a fresh temporary profile. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export interface PageLoad<T> {
  readonly result: T;
  /** URLs of requests the page made to hosts other than the loopback server. */
  readonly externalRequests: readonly string[];
}

function isLoopback(url: string): boolean {
  try {
    const { hostname, protocol } = new URL(url);
    return hostname === '127.0.0.1' || protocol === 'data:' || protocol === 'blob:' || protocol === 'about:';
  } catch {
    return true;
  }
}

/**
 * Loads `url` cold in a new browser context (empty cache, new renderer process) and waits, at most
 * `timeoutMs`, for the page to leave its outcome on `window.__benchResult`.
 */
export async function loadCold<T>(browser: Browser, url: string, timeoutMs: number): Promise<PageLoad<T>> {
  const context = await browser.newContext();
  const externalRequests: string[] = [];
  try {
    const page = await context.newPage();
    page.on('request', (request) => {
      if (!isLoopback(request.url())) externalRequests.push(request.url());
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    const handle = await page
      .waitForFunction(() => (window as { __benchResult?: unknown }).__benchResult, undefined, { timeout: timeoutMs, polling: 50 })
      .catch((error: unknown) => {
        throw new Error(`${url}: no result within ${timeoutMs} ms (${pageErrors.join('; ') || String(error)})`);
      });
    const result = (await handle.jsonValue()) as T;
    return { result, externalRequests };
  } finally {
    await context.close();
  }
}
