/** The one page template every benchmark case is mounted in, written next to the built bundles. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OUT_DIR, type BuiltEntry } from './build.ts';

export interface PageCase {
  /** File name of the page, without `.html`. */
  readonly name: string;
  readonly built: BuiltEntry;
  /** Markup inside `#app` before any script runs (a custom element tag, or nothing). */
  readonly markup: string;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Every chunk the entry imports statically, directly or not (not the entry itself). */
function staticImportsOf(built: BuiltEntry): string[] {
  const byName = new Map(built.files.map((file) => [file.name, file]));
  const reached = new Set<string>();
  const visit = (name: string): void => {
    for (const imported of byName.get(name)?.imports ?? []) {
      if (reached.has(imported)) continue;
      reached.add(imported);
      visit(imported);
    }
  };
  visit(built.entryFile);
  reached.delete(built.entryFile);
  return [...reached];
}

/**
 * Writes `<OUT_DIR>/pages/<name>.html` and returns its path from the server root. The entry's
 * static imports are announced with `<link rel="modulepreload">`, as a bundler writes them into
 * the page it builds (Vite's `build.modulePreload`): the browser fetches them with the entry
 * instead of after parsing it. A one-file entry (the bundle folder's, Adyen's) has none.
 */
export async function writePage(page: PageCase): Promise<string> {
  const base = `/build/${page.built.name}`;
  const preloads = staticImportsOf(page.built)
    .map((name) => `<link rel="modulepreload" href="${base}/${name}">`)
    .join('\n    ');
  const stylesheets = page.built.files
    .filter((file) => file.kind === 'css')
    .map((file) => `<link rel="stylesheet" href="${base}/${file.name}">`)
    .join('\n    ');
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Checkout — ${escapeHtml(page.name)}</title>
    ${stylesheets}
    ${preloads}
    <style>body { font-family: system-ui, sans-serif; margin: 2rem auto; max-inline-size: 32rem; }</style>
  </head>
  <body>
    <main>
      <h1>Checkout</h1>
      <p>Order BENCH-0001 — AED 100.00</p>
      <div id="app">${page.markup}</div>
    </main>
    <script>performance.mark('bench:evaluation-start');</script>
    <script type="module" src="${base}/${page.built.entryFile}"></script>
  </body>
</html>
`;
  const dir = join(OUT_DIR, 'pages');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${page.name}.html`), html);
  return `/pages/${page.name}.html`;
}
