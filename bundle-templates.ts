/**
 * A build step of the bundle folder (`vite build --mode bundle`, and the benchmark's builds of it):
 * the elements' `html`, `css` and `svg` templates lose the indentation of their source. Every run
 * of white space that holds a line break becomes one space, which renders the same in HTML (no
 * element template holds `<pre>`, `<textarea>` or a `white-space: pre` style) and in CSS. The
 * minifier keeps template text as written, so this is what it cannot do: about 0.3 kB gzip of the
 * entry and 0.9 kB of the folder (issue 25). Only tagged templates of `src/components/` change,
 * found by TypeScript's parser, never by a pattern over the code.
 */
import ts from 'typescript';
import type { Plugin } from 'vite';

const TAGS = new Set(['html', 'css', 'svg']);
const COMPONENT = /\/src\/components\/.+\.ts$/;

/** Where each piece of template text starts and ends in the source (between `` ` ``, `${` and `}`). */
function templateTexts(source: ts.SourceFile): { start: number; end: number }[] {
  const pieces: { start: number; end: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && TAGS.has(node.tag.text)) {
      const template = node.template;
      if (ts.isNoSubstitutionTemplateLiteral(template)) {
        pieces.push({ start: template.getStart(source) + 1, end: template.end - 1 });
      } else {
        pieces.push({ start: template.head.getStart(source) + 1, end: template.head.end - 2 });
        for (const span of template.templateSpans) {
          const literal = span.literal;
          pieces.push({ start: literal.getStart(source) + 1, end: literal.end - (ts.isTemplateTail(literal) ? 1 : 2) });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return pieces;
}

/** `code` with each tagged template's line breaks and indentation collapsed to one space. */
export function collapseTemplates(code: string, fileName = 'module.ts'): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let result = code;
  for (const { start, end } of templateTexts(source).sort((a, b) => b.start - a.start)) {
    result = result.slice(0, start) + result.slice(start, end).replace(/[ \t]*(?:\r?\n)\s*/g, ' ') + result.slice(end);
  }
  return result;
}

export const collapseTemplateWhitespace: Plugin = {
  name: 'pg-collapse-template-whitespace',
  enforce: 'pre',
  transform(code, id) {
    if (!COMPONENT.test(id.split('?')[0]!)) return null;
    const collapsed = collapseTemplates(code, id);
    return collapsed === code ? null : { code: collapsed, map: null };
  },
};
