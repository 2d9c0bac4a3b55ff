// `npm run manifest` writes custom-elements.json from the elements' doc comments.
import ts from 'typescript';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts file under `folder` (Node 20 has no fs.globSync). */
const sourceFiles = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  );

/**
 * Editors offer an attribute's values only when the manifest spells them out: `'embedded' |
 * 'redirect'`, not the alias `CardMode`. This plugin replaces every alias of a union of literals
 * (`CheckoutMode`, `CardMode`, `Language`, …), however it is written in the source (a list of
 * strings, `(typeof LANGUAGES)[number]`), by the union the type-checker computes for it.
 */
function expandLiteralAliases() {
  let aliases;
  const load = () => {
    const files = sourceFiles('src');
    const program = ts.createProgram(files, { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, allowImportingTsExtensions: true, noEmit: true });
    const checker = program.getTypeChecker();
    const found = new Map();
    for (const file of program.getSourceFiles()) {
      if (file.isDeclarationFile) continue;
      ts.forEachChild(file, (node) => {
        if (!ts.isTypeAliasDeclaration(node)) return;
        const type = checker.getTypeAtLocation(node.name);
        const members = type.isUnion() ? type.types : [type];
        if (!members.every((member) => member.isStringLiteral())) return;
        found.set(node.name.text, members.map((member) => JSON.stringify(member.value).replace(/^"|"$/g, "'")).join(' | '));
      });
    }
    return found;
  };
  const expand = (text) => {
    aliases ??= load();
    return text.replace(/\b([A-Z][A-Za-z]+)\b(\[\])?/g, (whole, name, list) => {
      const union = aliases.get(name);
      if (!union) return whole;
      return list ? `(${union})[]` : union;
    });
  };
  const visit = (value) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    if (value.type && typeof value.type.text === 'string') value.type.text = expand(value.type.text);
    Object.values(value).forEach(visit);
  };
  return {
    name: 'expand-literal-aliases',
    packageLinkPhase({ customElementsManifest }) {
      visit(customElementsManifest);
    },
  };
}

/**
 * A public property's attribute is its name in kebab case (`billNumber`: `bill-number`), set by
 * PgElement's `finalize` rather than written in each declaration; the analyzer, which reads the
 * declarations, would list `billNumber`. This plugin spells every attribute named after its
 * field the way `finalize` does (the elements declare no attribute in camel case).
 */
function kebabCaseAttributes() {
  const kebab = (name) => name.replace(/[A-Z]/g, '-$&').toLowerCase();
  const visit = (value) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    if (typeof value.fieldName === 'string' && value.name === value.fieldName) value.name = kebab(value.name);
    if (value.kind === 'field' && typeof value.attribute === 'string' && value.attribute === value.name) value.attribute = kebab(value.attribute);
    Object.values(value).forEach(visit);
  };
  return {
    name: 'kebab-case-attributes',
    packageLinkPhase({ customElementsManifest }) {
      visit(customElementsManifest);
    },
  };
}

export default {
  globs: ['src/components/**/*.ts'],
  exclude: ['src/components/**/*.styles.ts', 'src/components/**/styles.ts', 'src/components/**/messages.ts'],
  outdir: '.',
  litelement: true,
  plugins: [expandLiteralAliases(), kebabCaseAttributes()],
};
