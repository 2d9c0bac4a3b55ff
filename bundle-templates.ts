/**
 * A build step of the bundle folder (`vite build --mode bundle`, and the benchmark's builds of it):
 * the elements' `html`, `css` and `svg` templates lose the indentation of their source. Every run
 * of white space that holds a line break becomes one space, which renders the same in HTML (no
 * element template holds `<pre>`, `<textarea>` or a `white-space: pre` style) and in CSS. A `css`
 * template also loses the spaces CSS never needs: around `{`, `}`, `;`, `,` and `>`, after `:`
 * (never before it, where `.a :focus` differs from `.a:focus`), the `;` before a `}` and the zero
 * before a decimal point; the elements' styles hold no string with those characters in it. Markup
 * loses what HTML never needs: the quotes around a one-word attribute value, and the ` /` of a
 * self-closing tag (`html` templates only). The minifier keeps template text as written, so this is
 * what it cannot do: about 0.35 kB gzip of the entry and 1.25 kB of the folder (issue 25). Only
 * tagged templates of `src/components/` change, found by TypeScript's parser, never by a pattern
 * over the code; test/build/bundle-css.test.ts and bundle-html.test.ts check in Chromium that
 * every template reads the same tightened as written.
 */
import ts from 'typescript';
import type { Plugin } from 'vite';

const TAGS = new Set(['html', 'css', 'svg']);
const COMPONENT = /\/src\/components\/.+\.ts$/;

/** Where each piece of template text starts and ends in the source (between `` ` ``, `${` and `}`). */
interface TemplateText {
  readonly start: number;
  readonly end: number;
  readonly tag: string;
  /** The template's first piece (its text starts the template) and its last (its text ends it). */
  readonly first: boolean;
  readonly last: boolean;
}

function templateTexts(source: ts.SourceFile): TemplateText[] {
  const pieces: TemplateText[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && TAGS.has(node.tag.text)) {
      const template = node.template;
      const tag = node.tag.text;
      if (ts.isNoSubstitutionTemplateLiteral(template)) {
        pieces.push({ start: template.getStart(source) + 1, end: template.end - 1, tag, first: true, last: true });
      } else {
        pieces.push({ start: template.head.getStart(source) + 1, end: template.head.end - 2, tag, first: true, last: false });
        for (const span of template.templateSpans) {
          const literal = span.literal;
          const last = ts.isTemplateTail(literal);
          pieces.push({ start: literal.getStart(source) + 1, end: literal.end - (last ? 1 : 2), tag, first: false, last });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return pieces;
}

/**
 * CSS without the spaces it never needs, without the `;` closing a block, without the zero before
 * a decimal point (`0.75rem` is `.75rem`) and without the quotes around an attribute selector's
 * value that is a word (`[type='radio']` is `[type=radio]`). A space beside an expression stays
 * (`solid ${color}`), but not at the template's own start or end.
 */
function tightCss(text: string, piece: TemplateText): string {
  const tight = text
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .replace(/(^|[\s:,(])0\.(\d)/g, '$1.$2')
    .replace(/=(['"])([a-z][\w-]*)\1\]/gi, '=$2]');
  const started = piece.first ? tight.trimStart() : tight;
  return piece.last ? started.trimEnd() : started;
}

/**
 * Markup without what HTML never needs: the quotes around a static attribute value that is one
 * word (letters, digits, `_` and `-`), so `class="error"` is `class=error`; and the ` /` of a
 * self-closing tag, which HTML ignores (`<input … />` is `<input …>`). A value with a space or an
 * expression in it, an empty one, and one at the end of a piece keep their quotes. Only `html`
 * templates lose the ` /`: in `svg` a self-closing tag closes its element.
 */
function tightHtml(text: string, tag: string): string {
  const unquoted = text.replace(/(\s[a-z][\w-]*)="([\w-]+)"(?=[\s>])/g, '$1=$2');
  return tag === 'html' ? unquoted.replace(/\s+\/>/g, '>') : unquoted;
}

/** `code` with each tagged template's line breaks and indentation collapsed to one space. */
export function collapseTemplates(code: string, fileName = 'module.ts'): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let result = code;
  for (const piece of templateTexts(source).sort((a, b) => b.start - a.start)) {
    const text = result.slice(piece.start, piece.end).replace(/[ \t]*(?:\r?\n)\s*/g, ' ');
    result = result.slice(0, piece.start) + (piece.tag === 'css' ? tightCss(text, piece) : tightHtml(text, piece.tag)) + result.slice(piece.end);
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
