/**
 * Builds one benchmark entry with Vite's JS API, the same way for pg-checkout and for the
 * alternatives: library mode, ES format, minified by rolldown, every dependency bundled, and
 * `process.env.NODE_ENV` set to "production" as a merchant's own build would.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type InlineConfig, type Plugin } from 'vite';
import { bundleChunking } from '../bundle-chunks.ts';
import { collapseTemplateWhitespace } from '../bundle-templates.ts';

export const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
/** Build output and pages: outside `bench/` so that lint and type-checking never see built code. */
export const OUT_DIR = join(BENCH_DIR, '..', 'node_modules', '.cache', 'pg-checkout-bench');

/** An absolute path from one relative to `bench/`. */
export const entryPath = (relative: string): string => join(BENCH_DIR, relative);

export interface BuiltFile {
  /** Path relative to the entry's output folder. */
  readonly name: string;
  readonly kind: 'js' | 'css' | 'other';
  readonly contents: Buffer;
  /** For a JS chunk: the chunks it imports statically (loaded with it), by name. */
  readonly imports: readonly string[];
  /** For a JS chunk: true when it holds only Arabic catalogs (`messages.ar.ts`), which English pages never load. */
  readonly arabicOnly: boolean;
  /** For a JS chunk: true when it holds the endpoint contract's schemas (loaded with an element's first request). */
  readonly holdsContract: boolean;
  /** For a JS chunk: the element views it holds (`installments-view.ts`, …), which load on demand. */
  readonly views: readonly string[];
}

/** An element's view, which the element imports when it first meets a document. */
const VIEW_MODULE = /\/src\/components\/pg-[\w-]+\/[\w-]+-view\.ts$/;

export interface BuiltEntry {
  readonly name: string;
  readonly outDir: string;
  /** The entry chunk's file name, to load it in a page. */
  readonly entryFile: string;
  readonly files: readonly BuiltFile[];
  /** Every module in the JS output with its tree-shaken, not yet minified length. */
  readonly modules: readonly { readonly id: string; readonly renderedLength: number }[];
}

async function listFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(path)));
    else found.push(path);
  }
  return found.sort();
}

function kindOf(name: string): BuiltFile['kind'] {
  if (name.endsWith('.js')) return 'js';
  if (name.endsWith('.css')) return 'css';
  return 'other';
}

export interface BuildOptions {
  /**
   * Treat `src/components/<tag>/define.ts` as having side effects, which package.json's
   * `sideEffects` list does not say; used only to measure what `src/define.ts` would weigh if its
   * registrations were kept, and always reported as such.
   */
  readonly keepDefineModules?: boolean;
  /** Split the code into files as the published bundle folder does (bundle-chunks.ts) rather than by Vite's defaults. */
  readonly asBundleFolder?: boolean;
}

const keepDefineModules: Plugin = {
  name: 'bench-keep-define-modules',
  transform(code, id) {
    return /\/src\/components\/[^/]+\/define\.ts$/.test(id) ? { code, moduleSideEffects: true } : null;
  },
};

export interface LibraryBuild {
  readonly name: string;
  readonly entry: string;
  readonly outDir: string;
  readonly cssFileName?: string;
  readonly plugins?: Plugin[];
  readonly rolldownOptions: NonNullable<NonNullable<InlineConfig['build']>['rolldownOptions']>;
}

/**
 * Vite's library build as every figure of the benchmark is made: ES, minified, everything bundled,
 * `NODE_ENV=production`, written to `outDir`; only the splitting and the plugins differ.
 */
export function libraryBuild(options: LibraryBuild): ReturnType<typeof build> {
  return build({
    configFile: false,
    root: join(BENCH_DIR, '..'),
    logLevel: 'warn',
    mode: 'production',
    plugins: options.plugins ?? [],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: options.outDir,
      emptyOutDir: true,
      target: 'es2022',
      write: true,
      copyPublicDir: false,
      reportCompressedSize: false,
      lib: { entry: options.entry, formats: ['es'], fileName: () => `${options.name}.js`, cssFileName: options.cssFileName },
      rolldownOptions: options.rolldownOptions,
    },
  });
}

/** Builds `entry` into `<OUT_DIR>/build/<name>/` and returns every file the build wrote. */
export async function buildEntry(name: string, entry: string, options: BuildOptions = {}): Promise<BuiltEntry> {
  const outDir = join(OUT_DIR, 'build', name);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const output = await libraryBuild({
    name,
    entry,
    outDir,
    cssFileName: name,
    // The bundle folder's build steps: its split and its templates without their source indentation.
    plugins: [...(options.keepDefineModules ? [keepDefineModules] : []), ...(options.asBundleFolder ? [collapseTemplateWhitespace] : [])],
    rolldownOptions: options.asBundleFolder
      ? {
          preserveEntrySignatures: bundleChunking.preserveEntrySignatures,
          output: { minify: true, comments: { annotation: false }, codeSplitting: bundleChunking.codeSplitting },
        }
      : { output: { minify: true } },
  });
  const modules: { id: string; renderedLength: number }[] = [];
  const chunks = new Map<string, Pick<BuiltFile, 'imports' | 'arabicOnly' | 'holdsContract' | 'views'>>();
  for (const result of Array.isArray(output) ? output : 'output' in output ? [output] : []) {
    for (const chunk of result.output) {
      if (chunk.type !== 'chunk') continue;
      const ids = Object.keys(chunk.modules).filter((id) => chunk.modules[id]!.renderedLength > 0);
      chunks.set(chunk.fileName, {
        imports: chunk.imports,
        arabicOnly: ids.length > 0 && ids.every((id) => id.endsWith('/messages.ar.ts')),
        holdsContract: ids.some((id) => id.endsWith('/src/core/endpoint-results.ts')),
        views: ids.filter((id) => VIEW_MODULE.test(id)).map((id) => id.slice(id.lastIndexOf('/') + 1)),
      });
      for (const [id, rendered] of Object.entries(chunk.modules)) modules.push({ id, renderedLength: rendered.renderedLength });
    }
  }
  const files: BuiltFile[] = [];
  for (const path of await listFiles(outDir)) {
    const fileName = relative(outDir, path).replace(/\\/g, '/');
    const chunk = chunks.get(fileName);
    files.push({
      name: fileName,
      kind: kindOf(fileName),
      contents: await readFile(path),
      imports: chunk?.imports ?? [],
      arabicOnly: chunk?.arabicOnly ?? false,
      holdsContract: chunk?.holdsContract ?? false,
      views: chunk?.views ?? [],
    });
  }
  return { name, outDir, entryFile: `${name}.js`, files, modules };
}
