/**
 * Bundle size: every element entry alone, all four together (`src/define.ts`, as the published
 * bundle), Adyen Web core + Card and Braintree Drop-in, each built by `buildEntry` in this run.
 * Sizes are summed over every JS chunk a build writes, so lazily loaded locales count too; CSS
 * is reported on its own (pg-checkout's styles live inside its JS).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { registersElement } from '../bundle-chunks.ts';
import { buildEntry, BENCH_DIR, entryPath, type BuildOptions, type BuiltEntry, type BuiltFile } from './build.ts';
import type { SectionResult, TargetRow } from './report.ts';
import { formatBytes, formatRatio } from './stats.ts';

export interface SizeEntry {
  readonly name: string;
  /** Shown in the table. */
  readonly label: string;
  readonly entry: string;
}

export interface Sizes {
  readonly minified: number;
  readonly gzip: number;
  readonly brotli: number;
}

export interface MeasuredEntry {
  readonly entry: SizeEntry;
  readonly built: BuiltEntry;
  readonly chunks: number;
  /** Every JS chunk the build wrote. */
  readonly js: Sizes;
  /** Every JS chunk but the Arabic catalogs: everything an English page could ever load. */
  readonly english: Sizes;
  /**
   * The same chunks joined into one file, compressed as one stream (gzip -9): what the English
   * page would weigh if no split cost anything, the floor of any grouping of its files.
   */
  readonly englishAsOneGzip: number;
  /** The entry and the chunks it imports statically: what a page downloads before anything loads on demand. */
  readonly initial: Sizes;
  /**
   * The initial load and the contract's schemas with what they import: what a page downloads
   * before the customer acts, since every element asks the endpoint something when it connects
   * (`<pg-checkout>` its order) and the schemas load with that first request.
   */
  readonly beforeAction: Sizes;
  /** The Arabic catalogs alone (loaded only by a page in Arabic). */
  readonly arabic: Sizes;
  /** Whether the initial load holds an Arabic catalog (it must not). */
  readonly initialHasArabic: boolean;
  /** The element views in the initial load (none: each loads when its element first shows). */
  readonly initialViews: readonly string[];
  /** The element views the build holds, in chunks of their own. */
  readonly views: readonly string[];
  readonly css: Sizes | undefined;
}

/** The chunks named and every chunk reached from them by static imports. */
function staticClosure(names: readonly string[], jsFiles: readonly BuiltFile[]): BuiltFile[] {
  const byName = new Map(jsFiles.map((file) => [file.name, file]));
  const reached = new Set<string>();
  const visit = (name: string): void => {
    const file = byName.get(name);
    if (!file || reached.has(name)) return;
    reached.add(name);
    for (const imported of file.imports) visit(imported);
  };
  for (const name of names) visit(name);
  return jsFiles.filter((file) => reached.has(file.name));
}

const ZERO: Sizes = { minified: 0, gzip: 0, brotli: 0 };

export function gzipBytes(contents: Buffer): number {
  return gzipSync(contents, { level: 9 }).length;
}

export function brotliBytes(contents: Buffer): number {
  return brotliCompressSync(contents, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: contents.length,
    },
  }).length;
}

/** Each file is compressed on its own, as a server sends it, and the sizes are summed. */
function sizesOf(files: readonly BuiltFile[]): Sizes {
  return files.reduce<Sizes>(
    (sum, file) => ({
      minified: sum.minified + file.contents.length,
      gzip: sum.gzip + gzipBytes(file.contents),
      brotli: sum.brotli + brotliBytes(file.contents),
    }),
    ZERO,
  );
}

function add(a: Sizes, b: Sizes | undefined): Sizes {
  if (!b) return a;
  return { minified: a.minified + b.minified, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli };
}

/** The four elements; each registers itself from `src/components/<tag>/define.ts`. */
export const ELEMENT_TAGS = ['pg-checkout', 'pg-installments', 'pg-bill-voucher', 'pg-financing-otp'] as const;

export const PG_ELEMENT_ENTRIES: readonly SizeEntry[] = ELEMENT_TAGS.map((tag) => ({
  name: tag,
  label: `\`<${tag}>\` alone`,
  entry: entryPath(`../src/components/${tag}/define.ts`),
}));
export const PG_ALL_ENTRY: SizeEntry = {
  name: 'pg-all',
  label: 'all four elements (`src/define.ts`)',
  entry: entryPath('../src/define.ts'),
};
/** The same entry split by Vite's defaults, as a shop that imports `pg-checkout/define` in its own build gets it. */
export const PG_BUNDLER_ENTRY: SizeEntry = {
  name: 'pg-all-bundler',
  label: 'all four elements, split by a bundler\'s defaults (Vite)',
  entry: entryPath('../src/define.ts'),
};
export const ADYEN_ENTRY: SizeEntry = { name: 'adyen-card', label: 'Adyen Web core + Card', entry: entryPath('entries/adyen-card.ts') };
export const BRAINTREE_ENTRY: SizeEntry = {
  name: 'braintree-dropin',
  label: 'Braintree Drop-in',
  entry: entryPath('entries/braintree-dropin.ts'),
};

export async function measureEntry(entry: SizeEntry, options: BuildOptions = {}): Promise<MeasuredEntry> {
  const built = await buildEntry(entry.name, entry.entry, options);
  const jsFiles = built.files.filter((file) => file.kind === 'js');
  const cssFiles = built.files.filter((file) => file.kind === 'css');
  const initial = staticClosure([built.entryFile], jsFiles);
  const contract = jsFiles.filter((file) => file.holdsContract).map((file) => file.name);
  return {
    entry,
    built,
    chunks: jsFiles.length,
    js: sizesOf(jsFiles),
    english: sizesOf(jsFiles.filter((file) => !file.arabicOnly)),
    englishAsOneGzip: gzipBytes(Buffer.concat(jsFiles.filter((file) => !file.arabicOnly).map((file) => file.contents))),
    initial: sizesOf(initial),
    beforeAction: sizesOf(staticClosure([built.entryFile, ...contract], jsFiles)),
    arabic: sizesOf(jsFiles.filter((file) => file.arabicOnly)),
    initialHasArabic: initial.some((file) => file.arabicOnly),
    initialViews: initial.flatMap((file) => file.views),
    views: jsFiles.flatMap((file) => file.views),
    css: cssFiles.length > 0 ? sizesOf(cssFiles) : undefined,
  };
}

/**
 * Tags the built JS does not register: no call of the form `(tag, Identifier)`, which is how
 * `defineElement("pg-checkout", PgCheckout)` reads once minified. A mention of the tag in a
 * template or a lookup table does not count.
 */
export function missingTags(measured: MeasuredEntry, tags: readonly string[]): string[] {
  const source = measured.built.files
    .filter((file) => file.kind === 'js')
    .map((file) => file.contents.toString('utf8'))
    .join('\n');
  return tags.filter((tag) => !registersElement(source, tag));
}

export interface SizeRun {
  readonly measured: readonly MeasuredEntry[];
  /** The entry the all-four figures are taken from (src/define.ts, or its kept-registrations build). */
  readonly all: MeasuredEntry | undefined;
  /** All four elements as a merchant's bundler splits `pg-checkout/define` with its default settings. */
  readonly bundler: MeasuredEntry | undefined;
  readonly notes: readonly string[];
}

/** Builds and measures every entry; a missing element is noted, not fatal. */
export async function measureAll(): Promise<SizeRun> {
  const measured: MeasuredEntry[] = [];
  const notes: string[] = [];
  for (const entry of PG_ELEMENT_ENTRIES) {
    if (!existsSync(entry.entry)) {
      notes.push(`${entry.label}: not measured, \`${relative(join(BENCH_DIR, '..'), entry.entry)}\` does not exist yet.`);
      continue;
    }
    measured.push(await measureEntry(entry));
  }
  const published = await measureEntry(PG_ALL_ENTRY, { asBundleFolder: true });
  measured.push(published);
  let all: MeasuredEntry | undefined = published;
  const missing = missingTags(published, ELEMENT_TAGS);
  if (missing.length > 0) {
    notes.push(
      `**\`src/define.ts\` builds to ${formatBytes(published.js.minified)} minified without registering ${missing.map((t) => `\`<${t}>\``).join(', ')}.** ` +
        'Its registrations are side-effect-only imports of `src/components/<tag>/define.ts`, and package.json `sideEffects` ' +
        'lists only `./src/define.ts`, so the bundler drops them (the published `dist/bundle` is affected the same way).',
    );
    const kept = await measureEntry(
      { ...PG_ALL_ENTRY, name: 'pg-all-kept', label: 'all four elements (`src/define.ts`, define modules kept)' },
      { keepDefineModules: true, asBundleFolder: true },
    );
    measured.push(kept);
    const stillMissing = missingTags(kept, ELEMENT_TAGS);
    all = kept;
    notes.push(
      'The all-four figures of this section come from the same entry built with its `define.ts` modules marked as having side effects ' +
        '(what fixing `sideEffects` would give)' +
        (stillMissing.length > 0
          ? `; even so it registers no ${stillMissing.map((t) => `\`<${t}>\``).join(', ')} (\`src/define.ts\` does not import them).`
          : '.'),
    );
  }
  const bundler = await measureEntry(PG_BUNDLER_ENTRY);
  measured.push(bundler);
  measured.push(await measureEntry(ADYEN_ENTRY));
  measured.push(await measureEntry(BRAINTREE_ENTRY));
  return { measured, all, bundler, notes };
}

/** The targets, in kB of 1000 bytes as the issue states them. */
const GZIP_BUDGET = 30_000;
const INITIAL_BUDGET = 15_000;

/** Which part of the product (or which dependency) a bundled module belongs to. */
function partOf(id: string): string {
  const path = id.replace(/\\/g, '/');
  if (/\/node_modules\/(lit|lit-html|lit-element|@lit)\//.test(path)) return 'Lit';
  if (/\/node_modules\/zod\//.test(path)) return 'zod/mini';
  if (path.includes('/node_modules/')) return 'other dependencies';
  if (path.includes('/src/core/')) return 'core (src/core)';
  if (/\/src\/components\/[^/]+\/messages\.ts$/.test(path)) return 'locales (messages.ts, en + ar)';
  if (/\/src\/components\/[^/]+\/styles\.ts$/.test(path)) return 'styles (styles.ts)';
  const component = /\/src\/components\/([^/]+)\//.exec(path)?.[1];
  if (component) return component === 'shared' ? 'shared element code (src/components/shared)' : `\`<${component}>\``;
  return 'other';
}

/** Tree-shaken, not yet minified bytes by part, largest first, with each part's share. */
function composition(entry: MeasuredEntry): { part: string; length: number; share: number }[] {
  const byPart = new Map<string, number>();
  for (const module of entry.built.modules) byPart.set(partOf(module.id), (byPart.get(partOf(module.id)) ?? 0) + module.renderedLength);
  const total = [...byPart.values()].reduce((sum, length) => sum + length, 0);
  return [...byPart.entries()]
    .map(([part, length]) => ({ part, length, share: (100 * length) / total }))
    .sort((a, b) => b.length - a.length);
}

/** Where the bytes come from, as a table. */
function compositionTable(entry: MeasuredEntry) {
  return {
    caption: `Where the bytes of ${entry.entry.label} come from (tree-shaken code before minification)`,
    headers: ['Part', 'bytes', 'share'],
    rows: composition(entry).map(({ part, length, share }) => [part, formatBytes(length), `${share.toFixed(1)} %`]),
  };
}

/** The over-budget explanation: the largest element alone, and the largest parts of the bundle. */
function overBudgetDetail(measured: readonly MeasuredEntry[], all: MeasuredEntry): string {
  const elements = measured.filter((m) => (ELEMENT_TAGS as readonly string[]).includes(m.entry.name));
  const largest = [...elements].sort((a, b) => b.js.gzip - a.js.gzip)[0];
  const parts = composition(all)
    .slice(0, 4)
    .map(({ part, share }) => `${part} ${share.toFixed(0)} %`)
    .join(', ');
  return (
    (largest ? `; ${largest.entry.label} is ${formatBytes(largest.js.gzip)}` : '') +
    (parts ? `; the largest parts of the unminified code are ${parts} (see the composition table)` : '')
  );
}

export function sizeSection(run: SizeRun, versions: { adyen: string; braintree: string }): SectionResult {
  const { measured, all } = run;
  const adyen = measured.find((m) => m.entry.name === ADYEN_ENTRY.name);
  const targets: TargetRow[] = [];
  // A figure for fewer than four elements would flatter the budget: it is shown but not judged.
  const absent = all ? missingTags(all, ELEMENT_TAGS) : [...ELEMENT_TAGS];
  const incomplete =
    absent.length > 0 ? `the all-four build registers only ${4 - absent.length} of the four elements (${absent.join(', ')} missing)` : undefined;
  if (all) {
    const splits = [
      { label: 'bundle folder', entry: all },
      ...(run.bundler ? [{ label: 'a bundler\'s default split', entry: run.bundler }] : []),
    ];
    // Since issue 25 the drop-in reads its order's answer without the contract's schemas (src/core/order-answer.ts):
    // before the customer acts it downloads its initial load only (the phone section counts it on the wire).
    const worst = Math.max(...splits.map(({ entry }) => entry.initial.gzip));
    const schemas = all.beforeAction.gzip - all.initial.gzip;
    targets.push({
      figure:
        '`<pg-checkout mode="drop-in">` before the customer acts, English, gzip: the entry and its static imports (Lit, the card method, ' +
        'the other elements\' small classes, styles); the contract\'s schemas load with the customer\'s first request',
      measured: splits.map(({ label, entry }) => `${formatBytes(entry.initial.gzip)} (${label})`).join('; '),
      target: '≤ 15.0 kB',
      met: incomplete ? undefined : worst <= INITIAL_BUDGET,
      why:
        incomplete ??
        `${formatBytes(worst - INITIAL_BUDGET)} over: Lit alone is about 6 kB; the card form and the shared element code ` +
          '(base class, endpoint client, messages, styles) make most of the rest, because the drop-in opens on the card method, and the ' +
          `four elements' classes are registered up front. Not in it: the contract's shapes (${formatBytes(schemas)}; no zod in the page), which ` +
          'load with the customer\'s first request (the order\'s answer is read with its own shape, in the entry), and the payment frames and the 3-D Secure ' +
          'dialog, which load when the customer first works with the card form.',
    });
    targets.push({
      figure: 'All four elements on an English page (every chunk but the Arabic catalogs), gzip',
      measured: formatBytes(all.english.gzip),
      target: '≤ 30.0 kB',
      met: incomplete ? undefined : all.english.gzip <= GZIP_BUDGET,
      why:
        incomplete ??
        `${formatBytes(all.english.gzip - GZIP_BUDGET)} over the budget${overBudgetDetail(measured, all)}. ` +
          `Joined into one file and compressed as one stream, the same code would still be ${formatBytes(all.englishAsOneGzip)}: ` +
          'no grouping of the files reaches the budget, only less code.',
    });
    targets.push({
      figure: 'Arabic catalogs in the initial load of an English page',
      measured: all.initialHasArabic ? 'present' : `none (the ${formatBytes(all.arabic.gzip)} of Arabic catalogs load only on Arabic pages)`,
      target: 'none',
      met: !all.initialHasArabic,
      why: 'an Arabic catalog is imported statically by the entry.',
    });
    targets.push({
      figure: 'Installments, voucher and financing: their views in the initial load (each loads when the customer picks it or its element shows)',
      measured:
        all.initialViews.length > 0
          ? all.initialViews.join(', ')
          : `none (${all.views.join(', ')} load on demand; their pending state, retry and first content within one frame are checked by \`npm test\`)`,
      target: 'none',
      met: incomplete ? undefined : all.initialViews.length === 0 && all.views.length > 0,
      why: incomplete ?? (all.views.length === 0 ? 'the build holds no element view: the on-demand split is gone.' : 'a view is imported statically by the entry.'),
    });
  }
  if (all && adyen) {
    const ratio = all.english.gzip / adyen.js.gzip;
    targets.push({
      figure: 'All four elements (English page) / Adyen core + Card, gzip (Adyen JS only)',
      measured: `${formatRatio(ratio)} (${formatBytes(all.english.gzip)} / ${formatBytes(adyen.js.gzip)})`,
      target: '≤ 0.25×',
      met: incomplete ? undefined : ratio <= 0.25,
      why: incomplete ?? `pg-checkout is ${formatBytes(all.english.gzip - adyen.js.gzip / 4)} gzip above a quarter of Adyen.`,
    });
  }
  const row = (label: string, sizes: Sizes, chunks: string): string[] => [
    label,
    chunks,
    formatBytes(sizes.minified),
    formatBytes(sizes.gzip),
    formatBytes(sizes.brotli),
  ];
  const rows: string[][] = [];
  for (const m of measured) {
    rows.push(row(`${m.entry.label} — JS`, m.js, String(m.chunks)));
    if (m.arabic.gzip > 0) rows.push(row(`${m.entry.label} — JS, English page (no Arabic catalog)`, m.english, ''));
    if (m.initial.gzip !== m.js.gzip) rows.push(row(`${m.entry.label} — initial load (entry + static imports)`, m.initial, ''));
    if (m.beforeAction.gzip !== m.initial.gzip) rows.push(row(`${m.entry.label} — before the customer acts (+ the contract's schemas)`, m.beforeAction, ''));
    if (m.css) {
      rows.push(row(`${m.entry.label} — CSS`, m.css, '1'));
      rows.push(row(`${m.entry.label} — JS + CSS`, add(m.js, m.css), ''));
    }
  }
  const notes: string[] = [
    ...run.notes,
    'Each element alone is its `src/components/<tag>/define.ts` as the entry: the element, Lit, the core\'s shapes and its locales. ' +
      'Every entry is built by `bench/build.ts` in this run with the same settings: Vite library mode, ES format, ' +
      '`rolldownOptions.output.minify: true`, all dependencies bundled, `process.env.NODE_ENV = "production"`. ' +
      'All four elements are split into files as the published bundle folder is (`bundle-chunks.ts`: Lit, the shared code and the ' +
      'elements\' classes in the entry file; its templates without their source indentation, `bundle-templates.ts`); "split by a bundler\'s defaults" is the same code as Vite splits it unguided, and so is each element alone.',
    'gzip is level 9 and brotli quality 11, each file compressed on its own and summed over files; 1 kB is 1000 bytes, as the targets count (until issue 25 this section divided by 1024).',
    `Adyen is \`@adyen/adyen-web\` ${versions.adyen} (\`import { AdyenCheckout, Card }\` plus \`styles/adyen.css\`); ` +
      'the ratio is taken on its JS alone, which favours Adyen, because pg-checkout ships its styles inside its JS.',
    `Braintree is \`braintree-web-drop-in\` ${versions.braintree}; its npm package points browsers at a prebuilt bundle, ` +
      'which Vite re-minifies; it injects its own CSS at run time.',
  ];
  const braintree = measured.find((m) => m.entry.name === BRAINTREE_ENTRY.name);
  if (all && braintree) {
    notes.push(`All four elements / Braintree Drop-in: ${formatRatio(all.js.gzip / braintree.js.gzip)} (gzip).`);
  }
  if (all && adyen) {
    notes.push(
      `With Adyen's CSS counted the ratio is ${formatRatio(all.js.gzip / add(adyen.js, adyen.css).gzip)} (gzip) and ` +
        `${formatRatio(all.js.brotli / add(adyen.js, adyen.css).brotli)} (brotli); on JS alone with brotli it is ` +
        `${formatRatio(all.js.brotli / adyen.js.brotli)}.`,
    );
  }
  return {
    title: 'Bundle size',
    method: 'Minified, gzip and brotli bytes of each entry, built in this run.',
    tables: [
      { headers: ['Bundle', 'JS chunks', 'minified', 'gzip -9', 'brotli 11'], rows },
      ...(all && all.built.modules.length > 0 ? [compositionTable(all)] : []),
    ],
    targets,
    notes,
  };
}
