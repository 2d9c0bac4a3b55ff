/**
 * The bundle's styles are the elements' styles: every `css` template of `src/components/`, tightened
 * as the bundle build tightens it (bundle-templates.ts), is read by Chromium as the same rules as
 * the source. Each `${…}` becomes a placeholder identifier in both, so only the text around it is
 * compared; the browser's own serialisation of each rule makes white space irrelevant and anything
 * else visible. One exception: a `var()` is kept as written, so the space after its commas and the
 * zero before a decimal point (which CSS ignores: `0.75rem` is `.75rem`) are left out of both sides.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { collapseTemplates } from '../../bundle-templates.ts';
import { launchBrowser, type LaunchedBrowser } from '../e2e/support/browser.ts';

/** Every `css` template of the elements' sources, its expressions replaced by placeholders. */
function cssTemplates(): { file: string; text: string }[] {
  const root = join(import.meta.dirname, '../../src/components');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const found: { file: string; text: string }[] = [];
  for (const file of files) {
    const code = readFileSync(join(root, file), 'utf8');
    const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'css') {
        const template = node.template;
        const text = ts.isNoSubstitutionTemplateLiteral(template)
          ? template.text
          : template.head.text + template.templateSpans.map((span, index) => `--pg-placeholder-${index}${span.literal.text}`).join('');
        found.push({ file, text });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The template as the bundle carries it. */
const tightened = (text: string): string => {
  const built = collapseTemplates(`css\`${text}\``);
  return built.slice('css`'.length, -1);
};

let browser: LaunchedBrowser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

describe('the bundle’s tightened styles', () => {
  it('are read by Chromium as the same rules as the elements’ source, template by template', async () => {
    const templates = cssTemplates();
    assert.ok(templates.length >= 7, `found ${templates.length} css templates`);
    const page = await browser.context.newPage();
    const rulesOf = (css: string) =>
      page.evaluate((text) => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(text);
        return [...sheet.cssRules].map((rule) => rule.cssText.replace(/,\s+/g, ',').replace(/([\s,(])0\.(\d)/g, '$1.$2'));
      }, css);
    for (const { file, text } of templates) {
      const source = await rulesOf(text);
      assert.ok(source.length > 0, `${file}: the source's template holds rules`);
      assert.deepEqual(await rulesOf(tightened(text)), source, file);
    }
    await page.close();
  });
});
