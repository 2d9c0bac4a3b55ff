/**
 * Type-checks TypeScript a package user would write, against the built package: files held in
 * memory are placed in the package folder, so `import 'pg-checkout/…'` resolves through
 * package.json `exports` to `dist/types` as it does in an installed copy (a package may import
 * itself by name). Compiled as a Vite + React project compiles: strict, bundler resolution,
 * `jsx: react-jsx`, no ambient `@types`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface TypeCheck {
  readonly program: ts.Program;
  /** Every error in the given files and in the package's own declarations, one line each. */
  readonly errors: string[];
}

const defaultOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
};

/** `files`: names (relative to the package folder) and their text; `overrides` change the options. */
export function typeCheck(files: Readonly<Record<string, string>>, overrides: ts.CompilerOptions = {}): TypeCheck {
  const options = { ...defaultOptions, ...overrides };
  const inMemory = new Map(Object.entries(files).map(([name, text]) => [join(packageRoot, name), text]));
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (path) => inMemory.get(path) ?? readFile(path);
  host.fileExists = (path) => inMemory.has(path) || ts.sys.fileExists(path);
  host.getSourceFile = (path, language, onError, shouldCreate) => {
    const text = inMemory.get(path);
    return text === undefined ? getSourceFile(path, language, onError, shouldCreate) : ts.createSourceFile(path, text, language, true);
  };
  const program = ts.createProgram([...inMemory.keys()], options, host);
  // Only these files and the package's own declarations are checked, not third-party ones.
  const ours = program
    .getSourceFiles()
    .filter((file) => inMemory.has(file.fileName) || file.fileName.startsWith(join(packageRoot, 'dist', 'types')));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  const errors = [...new Set(diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).map(describe))];
  return { program, errors };
}

function describe(diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  if (!diagnostic.file || diagnostic.start === undefined) return message;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${diagnostic.file.fileName.slice(packageRoot.length + 1)}:${line + 1}:${character + 1} ${message}`;
}
