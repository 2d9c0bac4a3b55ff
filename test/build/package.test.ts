/**
 * The package as a shop installs it: `npm pack`, then `npm install` of the tarball into an empty
 * project (lit and zod come from the registry or npm's cache, as for any user). Every entry of
 * `package.json` `exports` is tried, read from package.json so that a new entry is covered without
 * editing this test: JavaScript entries are imported in Node, and those that need a browser are
 * bundled with esbuild from the installed copy and run in Chromium; type-only entries must have
 * their declarations; the themes, custom-elements.json, the docs and .env.example must be there. The
 * CLI must run, and the bundle folder must load (its chunks too) under a strict
 * Content-Security-Policy. Runs after `npm run build`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../chromium.mjs';

const run = promisify(execFile);
const repository = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
};
const ELEMENT_TAGS = ['pg-checkout', 'pg-installments', 'pg-bill-voucher', 'pg-financing-otp'];
/** What the README's snippets load from the themes folder. */
const THEMES = ['default.css', 'dark.css', 'back-office-example.css'];
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'self'; object-src 'none'";
/** A global only a browser has: importing an element entry in Node stops on one of these. */
const BROWSER_ONLY = /ReferenceError: (HTMLElement|CSSStyleSheet|customElements|document|window|Document) is not defined/;

let project: string;
let installed: string;
let browser: Browser;
let server: Server;
let origin: string;

/** `npm` with the project's usual quiet flags; offline first, from npm's cache. */
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd, maxBuffer: 16 * 1024 * 1024 });

before(async () => {
  project = mkdtempSync(join(tmpdir(), 'pg-checkout-installed-'));
  const { stdout } = await npm(['pack', '--json', '--pack-destination', project], repository);
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'an-empty-shop', private: true, type: 'module' }));
  // msw is an optional peer dependency: the shop that imports pg-checkout/sandbox/msw installs it.
  await npm(['install', join(project, filename), 'msw'], project);
  installed = join(project, 'node_modules', manifest.name);

  // The installed project's files over loopback, every page under a strict policy.
  server = createServer((request, response) => {
    const path = normalize(join(project, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(project) || !existsSync(path)) return response.writeHead(404).end();
    const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }[extname(path)] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'content-security-policy': CSP }).end(readFileSync(path));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs] });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Opens a page of the project and collects what went wrong on it. */
async function openPage(name: string, html: string): Promise<{ page: Page; problems: string[] }> {
  writeFileSync(join(project, name), html);
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`error: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  await page.goto(`${origin}/${name}`);
  return { page, problems };
}

async function definedTags(page: Page): Promise<string[]> {
  return page.evaluate((tags) => tags.filter((tag) => customElements.get(tag) !== undefined), ELEMENT_TAGS);
}

const specifierOf = (entry: string) => (entry === '.' ? manifest.name : `${manifest.name}/${entry.slice(2)}`);
const entries = Object.entries(manifest.exports);
const isTypesOnly = (target: string | Record<string, string>) => typeof target === 'object' && Object.keys(target).every((key) => key === 'types');
const isWildcard = (entry: string) => entry.includes('*');
const isJavaScript = (entry: string, target: string | Record<string, string>) =>
  !isWildcard(entry) && !isTypesOnly(target) && !(typeof target === 'string' && target.endsWith('.json'));

describe('the packed package, installed into an empty project', () => {
  it('holds no file its package.json does not need, and every file its exports name', () => {
    for (const [entry, target] of entries) {
      for (const file of typeof target === 'string' ? [target] : Object.values(target)) {
        if (isWildcard(entry)) assert.ok(existsSync(join(installed, file.split('*')[0] ?? '')), `${entry}: ${file}`);
        else assert.ok(existsSync(join(installed, file)), `${entry}: ${file} is in the tarball`);
      }
    }
    assert.deepEqual(readdirSync(installed).sort(), ['.env.example', 'README.md', 'custom-elements.json', 'dist', 'docs', 'package.json', 'themes']);
    // What the README sends an installer to: the guides and the variables' list.
    assert.ok(readdirSync(join(installed, 'docs')).includes('endpoint.md'), 'docs/*.md are in the tarball');
  });

  const browserEntries: string[] = [];
  for (const [entry, target] of entries.filter(([name, value]) => isJavaScript(name, value))) {
    it(`imports ${specifierOf(entry)}`, async () => {
      try {
        await run(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(specifierOf(entry))});`], { cwd: project });
      } catch (error) {
        const stderr = (error as { stderr?: string }).stderr ?? String(error);
        // Elements need a DOM: they are tried in Chromium below.
        assert.match(stderr, BROWSER_ONLY, `${specifierOf(entry)} (${JSON.stringify(target)}) fails in Node:\n${stderr.slice(0, 2000)}`);
        browserEntries.push(entry);
      }
    });
  }

  it('runs the browser-only entries in Chromium, bundled as a shop’s bundler would', async () => {
    assert.ok(browserEntries.length > 0, 'the element entries need a browser');
    const scripts: string[] = [];
    for (const [index, entry] of browserEntries.entries()) {
      const outfile = join(project, 'www', `entry-${index}.js`);
      mkdirSync(join(project, 'www'), { recursive: true });
      await build({
        stdin: { contents: `import ${JSON.stringify(specifierOf(entry))};`, resolveDir: project, loader: 'js' },
        bundle: true,
        format: 'esm',
        platform: 'browser',
        outfile,
        logLevel: 'silent',
      });
      scripts.push(`<script type="module" src="/www/entry-${index}.js"></script>`);
    }
    const { page, problems } = await openPage('entries.html', `<!doctype html><html lang="en"><head><title>entries</title><link rel="icon" href="data:,">${scripts.join('')}</head><body></body></html>`);
    await page.waitForFunction(() => document.readyState === 'complete');
    if (browserEntries.some((entry) => specifierOf(entry).endsWith('/define'))) assert.deepEqual(await definedTags(page), ELEMENT_TAGS);
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const [entry, target] of entries.filter(([, value]) => isTypesOnly(value))) {
    it(`has the declarations of ${specifierOf(entry)}`, () => {
      assert.ok(existsSync(join(installed, (target as { types: string }).types)));
    });
  }

  it('has the themes and a custom-elements.json documenting the four elements', () => {
    for (const theme of THEMES) assert.ok(existsSync(join(installed, 'themes', theme)), theme);
    const elements = JSON.parse(readFileSync(join(installed, 'custom-elements.json'), 'utf8')) as { modules: { declarations?: { tagName?: string }[] }[] };
    const tags = elements.modules.flatMap((module) => module.declarations ?? []).flatMap((declaration) => declaration.tagName ?? []);
    for (const tag of ELEMENT_TAGS) assert.ok(tags.includes(tag), tag);
  });

  it('runs the CLI: npx pg-checkout --help', async () => {
    for (const name of Object.keys(manifest.bin)) {
      const { stdout } = await run('npx', ['--no-install', name, '--help'], { cwd: project });
      assert.match(stdout, /^Usage:/);
      assert.match(stdout, /^ {2}serve +run the merchant endpoint/m);
    }
  });

  it('loads the bundle folder from a deep path with a theme in Chromium under a strict Content-Security-Policy, chunks and the Arabic catalog included', async () => {
    const bundle = typeof manifest.exports['./bundle'] === 'string' ? manifest.exports['./bundle'] : '';
    const base = `/node_modules/${manifest.name}`;
    const { page, problems } = await openPage(
      'bundle.html',
      `<!doctype html><html lang="ar" dir="rtl"><head><title>bundle</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/themes/default.css">
<script type="module" src="${base}/${bundle.replace(/^\.\//, '')}"></script></head>
<body><pg-checkout mode="redirect" language="ar"></pg-checkout><pg-installments language="ar"></pg-installments></body></html>`,
    );
    await page.waitForFunction(() => customElements.get('pg-checkout') !== undefined);
    assert.deepEqual(await definedTags(page), ELEMENT_TAGS);
    // The installments view and both Arabic catalogs are chunks beside the entry, imported relatively.
    await page.waitForFunction(() => ['pg-checkout', 'pg-installments'].every((tag) => {
      const element = document.querySelector(tag);
      return element?.shadowRoot?.querySelector('[part="frame"]') && !element.matches(':state(loading)') && !element.shadowRoot.querySelector('[part="failure"]');
    }));
    const title = await page.evaluate(() => document.querySelector('pg-installments')?.shadowRoot?.textContent ?? '');
    assert.match(title, /[\u0600-\u06FF]/, 'the installments element speaks Arabic');
    assert.equal(await page.evaluate(() => document.querySelector('pg-checkout')?.shadowRoot?.querySelector('[part="frame"]')?.getAttribute('dir')), 'rtl');
    const themed = await page.evaluate(() => [...document.styleSheets].some((sheet) => sheet.href?.endsWith('/themes/default.css') && sheet.cssRules.length > 0));
    assert.ok(themed, 'the theme loaded');
    assert.deepEqual(problems, [], 'no error and no Content-Security-Policy violation');
    await page.close();
  });
});
