/**
 * What each shape of the endpoint contract costs in the browser (src/core/shape.ts, which replaced
 * zod/mini in the page; zod/mini's fixed cost is measured beside it for comparison). Tiny entries,
 * each built on its own by Vite's JS API with the settings of `bench/build.ts` (library mode, ES,
 * minified by rolldown, `process.env.NODE_ENV = "production"`) and, as the published bundle,
 * without the tree-shaking annotations (`comments: { annotation: false }`):
 * - the shapes' fixed cost: one `string` read; zod/mini's: one `z.string()` parsed;
 * - each shape `src/core/endpoint-results.ts` exports, alone, read with `read`;
 * - the whole contract (`checkedResult`, `checkedRefusal`, `checkedFramedMessage`);
 * - each construct the contract uses, as what it adds to an object of one string;
 * - the contract as the elements load it (`src/components/shared/contract.ts`): what the first
 *   request (the order, on connect) downloads, and everything it may ever download.
 * Entries and output go to `node_modules/.cache/pg-checkout-bench/schema-cost/`, never `bench/`.
 * Every figure is a byte count, so a run gives the same table on any machine.
 *
 *   npx tsx bench/schema-cost.ts    prints the tables as markdown
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, libraryBuild, OUT_DIR } from './build.ts';
import { renderTable, type SectionResult, type Table } from './report.ts';
import { gzipBytes } from './size.ts';
import { formatBytes } from './stats.ts';

const ROOT = join(BENCH_DIR, '..');
const WORK_DIR = join(OUT_DIR, 'schema-cost');
const RESULTS_MODULE = join(ROOT, 'src/core/endpoint-results.ts');
const SHAPE_MODULE = join(ROOT, 'src/core/shape.ts');
const SHAPE_LISTS_MODULE = join(ROOT, 'src/core/shape-lists.ts');
const CONTRACT_MODULE = join(ROOT, 'src/components/shared/contract.ts');
const ROUTES_MODULE = join(ROOT, 'src/core/endpoint-routes.ts');

export type SchemaCostGroup = 'fixed' | 'schema' | 'contract' | 'construct' | 'load';

export interface SchemaCostRow {
  readonly group: SchemaCostGroup;
  /** What the row measures, for the table. */
  readonly label: string;
  /** The code of the entry (after its imports), for the table. */
  readonly code: string;
  /** Every JS chunk of the build, minified. */
  readonly minified: number;
  /** Every JS chunk of the build, each gzip -9 on its own, summed. */
  readonly gzip: number;
  /** The row this one is measured against (its label), when it has one. */
  readonly baseline?: string;
  /** Bytes over the baseline (may be negative for an alternative that is cheaper). */
  readonly overMinified?: number;
  readonly overGzip?: number;
}

interface Sizes {
  readonly minified: number;
  readonly gzip: number;
}

interface Chunk extends Sizes {
  readonly fileName: string;
  readonly isEntry: boolean;
  readonly imports: readonly string[];
  readonly dynamicImports: readonly string[];
  /** The module a chunk of its own was made for (an entry or a dynamic import), relative to the project. */
  readonly facade: string | undefined;
  /** The source modules the chunk holds (relative to the project). */
  readonly modules: readonly string[];
}

/** Builds one entry and returns its JS chunks. */
export async function buildChunks(name: string, source: string): Promise<Chunk[]> {
  const entry = join(WORK_DIR, 'entries', `${name}.ts`);
  const outDir = join(WORK_DIR, 'build', name);
  await mkdir(join(WORK_DIR, 'entries'), { recursive: true });
  await writeFile(entry, source);
  await rm(outDir, { recursive: true, force: true });
  const output = await libraryBuild({
    name,
    entry,
    outDir,
    rolldownOptions: { output: { minify: true, comments: { annotation: false }, chunkFileNames: 'chunks/[name].js' } },
  });
  const chunks: Chunk[] = [];
  for (const result of Array.isArray(output) ? output : 'output' in output ? [output] : []) {
    for (const chunk of result.output) {
      if (chunk.type !== 'chunk') continue;
      const contents = await readFile(join(outDir, chunk.fileName));
      chunks.push({
        fileName: chunk.fileName,
        isEntry: chunk.isEntry,
        imports: chunk.imports,
        dynamicImports: chunk.dynamicImports,
        facade: chunk.facadeModuleId ? relative(ROOT, chunk.facadeModuleId).replace(/\\/g, '/') : undefined,
        modules: Object.keys(chunk.modules)
          .filter((id) => chunk.modules[id]!.renderedLength > 0)
          .map((id) => relative(ROOT, id).replace(/\\/g, '/')),
        minified: contents.length,
        gzip: gzipBytes(contents),
      });
    }
  }
  return chunks.sort((a, b) => a.fileName.localeCompare(b.fileName));
}

const sum = (chunks: readonly Sizes[]): Sizes =>
  chunks.reduce<Sizes>((total, chunk) => ({ minified: total.minified + chunk.minified, gzip: total.gzip + chunk.gzip }), {
    minified: 0,
    gzip: 0,
  });

/** An import specifier for a source file, from the generated entries' folder. */
const from = (path: string): string => JSON.stringify(relative(join(WORK_DIR, 'entries'), path).replace(/\\/g, '/'));

/** An entry that reads `value` with `shape` (an expression) and exports the check, so nothing is dropped. */
function readEntry(imports: string, shape: string): string {
  return (
    `import { is, literal, object, optional, read, string } from ${from(SHAPE_MODULE)};\n` +
    `import { array, nullish, number, record, union } from ${from(SHAPE_LISTS_MODULE)};\n${imports}\n` +
    `export const check = (value: unknown): boolean => read(${shape}, value) !== undefined;\n`
  );
}

/**
 * The constructs the contract uses, and a few alternatives to them, each as the second field of
 * an object whose first field is a string: what it adds to `z.object({ a: z.string() })`.
 */
export const CONSTRUCTS: readonly { readonly label: string; readonly code: string }[] = [
  { label: 'number', code: 'number' },
  { label: 'refined number (the contract\'s checks)', code: 'is(number, (n) => Number.isSafeInteger(n) && n >= 0)' },
  { label: 'optional', code: 'optional(string)' },
  { label: 'nullish', code: 'nullish(string)' },
  { label: 'literal', code: "literal('POST')" },
  { label: 'literal of several values (the contract\'s enums)', code: "literal('success', 'pending', 'failure')" },
  { label: 'array', code: 'array(string)' },
  { label: 'record', code: 'record(string)' },
  { label: 'loose object (nested)', code: 'object({ c: string }, true)' },
  { label: 'object (nested)', code: 'object({ c: string })' },
  { label: 'union', code: "union(object({ t: literal('x') }), object({ t: literal('y') }))" },
];

/** The shapes endpoint-results.ts exports (functions of its own, not its `checked…` readers nor the routes'), by name (sorted). */
async function exportedSchemas(): Promise<string[]> {
  const results = (await import(pathToFileURL(RESULTS_MODULE).href)) as Record<string, unknown>;
  const routes = (await import(pathToFileURL(ROUTES_MODULE).href)) as Record<string, unknown>;
  return Object.keys(results)
    .filter((name) => typeof results[name] === 'function' && !(name in routes) && !name.startsWith('checked'))
    .sort();
}

/** Builds every entry, one at a time, and returns one row per entry. */
export async function measureSchemaCosts(): Promise<SchemaCostRow[]> {
  await rm(WORK_DIR, { recursive: true, force: true });
  const rows: SchemaCostRow[] = [];
  const measure = async (
    group: SchemaCostGroup,
    name: string,
    label: string,
    code: string,
    source: string,
    baseline?: SchemaCostRow,
  ): Promise<SchemaCostRow> => {
    const total = sum(await buildChunks(name, source));
    const row: SchemaCostRow = {
      group,
      label,
      code,
      ...total,
      ...(baseline
        ? { baseline: baseline.label, overMinified: total.minified - baseline.minified, overGzip: total.gzip - baseline.gzip }
        : {}),
    };
    rows.push(row);
    return row;
  };

  await measure(
    'fixed',
    'zod-fixed',
    'zod/mini fixed cost (for comparison: no longer in the page)',
    'z.safeParse(z.string(), value)',
    "import * as z from 'zod/mini';\nexport const check = (value: unknown): boolean => z.safeParse(z.string(), value).success;\n",
  );
  const fixed = await measure('fixed', 'fixed', 'shapes fixed cost', 'read(string, value)', readEntry('', 'string'));

  for (const name of await exportedSchemas()) {
    await measure('schema', `schema-${name}`, `\`${name}\``, `read(${name}, value)`, readEntry(`import { ${name} } from ${from(RESULTS_MODULE)};`, name), fixed);
  }

  await measure(
    'contract',
    'contract',
    'the whole contract module',
    'export { checkedResult, checkedRefusal, checkedFramedMessage }',
    `export { checkedResult, checkedRefusal, checkedFramedMessage } from ${from(RESULTS_MODULE)};\n`,
    fixed,
  );

  const object = await measure('construct', 'construct-object', 'object', 'object({ a: string })', readEntry('', 'object({ a: string })'), fixed);
  for (const [index, construct] of CONSTRUCTS.entries()) {
    const code = `object({ a: string, b: ${construct.code} })`;
    await measure('construct', `construct-${index}`, construct.label, construct.code, readEntry('', code), object);
  }

  // The contract as the elements load it: the on-demand chunk(s), and what a call's check loads.
  const loadEntry =
    `import { loadContract } from ${from(CONTRACT_MODULE)};\n` +
    `import * as routes from ${from(ROUTES_MODULE)};\n` +
    'export { loadContract, routes };\n';
  const chunks = await buildChunks('load', loadEntry);
  const entryChunk = chunks.find((chunk) => chunk.isEntry);
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  /** A chunk and every chunk it imports statically. */
  const closure = (names: readonly string[]): Chunk[] => {
    const reached = new Map<string, Chunk>();
    const visit = (name: string): void => {
      const chunk = byName.get(name);
      if (!chunk || reached.has(name)) return;
      reached.set(name, chunk);
      for (const imported of chunk.imports) visit(imported);
    };
    for (const name of names) visit(name);
    return [...reached.values()];
  };
  const initial = closure(entryChunk ? [entryChunk.fileName] : []);
  const onDemand = chunks.filter((chunk) => !initial.includes(chunk));
  const loadRow = (label: string, code: string, parts: readonly Chunk[]): void => {
    rows.push({ group: 'load', label, code, ...sum(parts) });
  };
  loadRow('every on-demand chunk of the contract', onDemand.map((chunk) => chunk.fileName).join(', '), onDemand);
  // Each `import()` of contract.ts: the chunk it names and what that chunk imports, less what the page holds already.
  for (const name of entryChunk?.dynamicImports ?? []) {
    const loaded = closure([name]).filter((chunk) => !initial.includes(chunk));
    loadRow(`\`import('${byName.get(name)?.facade ?? name}')\` loads`, loaded.map((chunk) => chunk.fileName).join(', '), loaded);
  }
  return rows;
}

const cell = (bytes: number | undefined): string => (bytes === undefined ? '' : `${bytes.toLocaleString('en-US')} B`);
const signed = (bytes: number | undefined): string =>
  bytes === undefined ? '' : `${bytes > 0 ? '+' : bytes < 0 ? '−' : '±'}${Math.abs(bytes).toLocaleString('en-US')} B`;

/** The tables of a run: schemas alone, constructs, the contract as loaded. */
export function schemaCostTables(rows: readonly SchemaCostRow[]): Table[] {
  const of = (...groups: SchemaCostGroup[]) => rows.filter((row) => groups.includes(row.group));
  const tables: Table[] = [
    {
      caption:
        'What each shape of `src/core/endpoint-results.ts` costs on its own: an entry that imports it and reads a value ' +
        'with it (`src/core/shape.ts` `read`), built alone by Vite (library mode, ES, rolldown minify, production, annotations ' +
        'dropped); gzip -9. "Over the shapes" is the entry minus the fixed cost (an entry reading one `string`). zod/mini\'s ' +
        'fixed cost, which the page paid before the shapes replaced it, is the first row.',
      headers: ['Shape', 'minified', 'gzip -9', 'over the shapes, minified', 'over the shapes, gzip'],
      rows: of('fixed', 'schema', 'contract').map((row) => [
        row.label,
        cell(row.minified),
        cell(row.gzip),
        signed(row.overMinified),
        signed(row.overGzip),
      ]),
    },
    {
      caption:
        'What each construct adds: `object({ a: string, b: <construct> })` read, minus the same object without `b` ' +
        '(the first row: the object itself, over the fixed cost).',
      headers: ['Construct', 'code', 'entry, gzip', 'adds, minified', 'adds, gzip'],
      rows: of('construct').map((row) => [row.label, `\`${row.code}\``, cell(row.gzip), signed(row.overMinified), signed(row.overGzip)]),
    },
  ];
  const load = of('load');
  if (load.length > 0) {
    tables.push({
      caption:
        'The contract as the elements load it: `src/components/shared/contract.ts` and the routes built as one entry; ' +
        'its on-demand chunks, each compressed on its own and summed, and what each of its `import()`s downloads ' +
        '(the first one an element makes is for its first request, the order, on connect).',
      headers: ['Load', 'chunks or schema', 'minified', 'gzip -9'],
      rows: load.map((row) => [row.label, row.code, cell(row.minified), cell(row.gzip)]),
    });
  }
  return tables;
}

/** The run as a section of `bench/results.md`. */
export function schemaCostSection(rows: readonly SchemaCostRow[]): SectionResult {
  return {
    title: 'Shape cost',
    method:
      'Each shape of the endpoint contract, each construct and the contract as loaded, built as tiny entries ' +
      '(`bench/schema-cost.ts`); minified and gzip -9 bytes.',
    tables: schemaCostTables(rows),
    targets: [],
    notes: [],
  };
}

/** The tables as markdown, as `bench/results.md` renders them. */
export function renderSchemaCosts(rows: readonly SchemaCostRow[]): string {
  return schemaCostTables(rows)
    .map((table) => renderTable(table))
    .join('\n\n');
}

// `npx tsx bench/schema-cost.ts`: measure and print.
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const rows = await measureSchemaCosts();
  console.log(renderSchemaCosts(rows));
  console.log(`\n(${rows.length} builds; contract alone ${formatBytes(rows.find((row) => row.group === 'contract')?.gzip ?? 0)} gzip)`);
}
