/**
 * Debian's Chromium driven by playwright-core: never a downloaded browser build. Each launch gets a
 * fresh profile and the flags that keep Chromium off the closed network.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../chromium.mjs';

export interface LaunchedBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** `javaScript: false`: a browser that runs no script (the server-written first screen must still pay); `width`: the viewport's. */
export async function launchBrowser(options: { locale?: string; javaScript?: boolean; width?: number } = {}): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'pg-checkout-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs],
    locale: options.locale ?? 'en-US',
    viewport: { width: options.width ?? 1280, height: 900 },
    javaScriptEnabled: options.javaScript ?? true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
