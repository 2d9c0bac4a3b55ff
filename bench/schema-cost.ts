/**
 * What each zod/mini schema of the endpoint contract costs in the browser. Tiny entries, each
 * built on its own by Vite's JS API with the settings of `bench/build.ts` (library mode, ES,
 * minified by rolldown, `process.env.NODE_ENV = "production"`) and, as the published bundle,
 * without the tree-shaking annotations (`comments: { annotation: false }`):
 * - zod/mini's fixed cost: one `z.string()` parsed;
 * - each schema `src/core/endpoint-results.ts` exports, alone, parsed with `z.safeParse`;
 * - the whole contract (`checkedResult`, `checkedRefusal`, `checkedFramedMessage`);
 * - each zod/mini construct the contract uses (and a few alternatives), as what it adds to an
 *   object of one string;
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

/** An entry that checks `value` with `schema` (an expression) and exports the check, so nothing is dropped. */
function parseEntry(imports: string, schema: string): string {
  return `import * as z from 'zod/mini';\n${imports}\nexport const check = (value: unknown): boolean => z.safeParse(${schema}, value).success;\n`;
}

/**
 * The constructs the contract uses, and a few alternatives to them, each as the second field of
 * an object whose first field is a string: what it adds to `z.object({ a: z.string() })`.
 */
export const CONSTRUCTS: readonly { readonly label: string; readonly code: string }[] = [
  { label: 'number', code: 'z.number()' },
  { label: 'int check (`.check(z.int())`)', code: 'z.number().check(z.int())' },
  { label: 'int format (`z.int()`)', code: 'z.int()' },
  { label: 'nonnegative check', code: 'z.number().check(z.nonnegative())' },
  { label: 'minLength check', code: 'z.string().check(z.minLength(1))' },
  { label: 'regex check', code: 'z.string().check(z.regex(/^[A-Z]{3}$/))' },
  { label: 'length check (alternative to a regex)', code: 'z.string().check(z.length(3))' },
  { label: 'refine check (the contract\'s checks)', code: 'z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= 0))' },
  { label: 'optional', code: 'z.optional(z.string())' },
  { label: 'nullish', code: 'z.nullish(z.string())' },
  { label: 'literal', code: "z.literal('POST')" },
  { label: 'enum', code: "z.enum(['success', 'pending', 'failure'])" },
  { label: 'literal of several values (the contract\'s enums)', code: "z.literal(['success', 'pending', 'failure'])" },
  { label: 'array', code: 'z.array(z.string())' },
  { label: 'record', code: 'z.record(z.string(), z.string())' },
  { label: 'looseObject (nested)', code: 'z.looseObject({ c: z.string() })' },
  { label: 'object (nested)', code: 'z.object({ c: z.string() })' },
  { label: 'union', code: "z.union([z.object({ t: z.literal('x') }), z.object({ t: z.literal('y') })])" },
  {
    label: 'discriminated union (alternative to a union)',
    code: "z.discriminatedUnion('t', [z.object({ t: z.literal('x') }), z.object({ t: z.literal('y') })])",
  },
  { label: 'pipe + transform (not used by the contract)', code: 'z.pipe(z.string(), z.transform((s: string) => s.length))' },
];

/** The zod/mini schemas endpoint-results.ts exports, by name (sorted). */
async function exportedSchemas(): Promise<string[]> {
  const results = (await import(pathToFileURL(RESULTS_MODULE).href)) as Record<string, unknown>;
  return Object.keys(results)
    .filter((name) => {
      const value = results[name];
      return typeof value === 'object' && value !== null && '_zod' in value;
    })
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

  const fixed = await measure('fixed', 'fixed', 'zod/mini fixed cost', 'z.safeParse(z.string(), value)', parseEntry('', 'z.string()'));

  for (const name of await exportedSchemas()) {
    await measure('schema', `schema-${name}`, `\`${name}\``, `z.safeParse(${name}, value)`, parseEntry(`import { ${name} } from ${from(RESULTS_MODULE)};`, name), fixed);
  }

  await measure(
    'contract',
    'contract',
    'the whole contract module',
    'export { checkedResult, checkedRefusal, checkedFramedMessage }',
    `export { checkedResult, checkedRefusal, checkedFramedMessage } from ${from(RESULTS_MODULE)};\n`,
    fixed,
  );

  const object = await measure('construct', 'construct-object', 'object', 'z.object({ a: z.string() })', parseEntry('', 'z.object({ a: z.string() })'), fixed);
  for (const [index, construct] of CONSTRUCTS.entries()) {
    const code = `z.object({ a: z.string(), b: ${construct.code} })`;
    await measure('construct', `construct-${index}`, construct.label, construct.code, parseEntry('', code), object);
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
        'What each zod/mini schema of `src/core/endpoint-results.ts` costs on its own: an entry that imports it and calls ' +
        '`z.safeParse` with it, built alone by Vite (library mode, ES, rolldown minify, production, annotations dropped); ' +
        'gzip -9. "Over zod/mini" is the entry minus the fixed cost (an entry parsing one `z.string()`).',
      headers: ['Schema', 'minified', 'gzip -9', 'over zod/mini, minified', 'over zod/mini, gzip'],
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
        'What each zod/mini construct adds: `z.object({ a: z.string(), b: <construct> })` parsed, minus the same object without `b` ' +
        '(the first row: the object itself, over the fixed cost). A construct costs less where the contract already holds code it shares ' +
        '(every check shares the first check\'s machinery), so read these as upper bounds.',
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
    title: 'Schema cost (zod/mini)',
    method:
      'Each schema of the endpoint contract, each zod/mini construct and the contract as loaded, built as tiny entries ' +
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
