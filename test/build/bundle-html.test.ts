/**
 * The bundle's markup is the elements' markup: every `html` template of `src/components/`, tightened
 * as the bundle build tightens it (bundle-templates.ts: indentation collapsed, one-word attribute
 * values unquoted, no ` /` before `>`), is parsed by Chromium into the same elements, attributes
 * and text as the source. Each `${…}` becomes a placeholder word in both, so a binding's place
 * (an attribute's value, part of one, text) is compared too; runs of white space count as one
 * space on both sides, which renders the same (bundle-templates.ts says why).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { collapseTemplates } from '../../bundle-templates.ts';
import { launchBrowser, type LaunchedBrowser } from '../e2e/support/browser.ts';

/** Every `html` template of the elements' sources, as source text with its expressions named `pgx0`, `pgx1`… */
function htmlTemplates(): { file: string; source: string }[] {
  const root = join(import.meta.dirname, '../../src/components');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const found: { file: string; source: string }[] = [];
  for (const file of files) {
    const code = readFileSync(join(root, file), 'utf8');
    const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'html') {
        const template = node.template;
        const raw = (literal: ts.TemplateLiteralLikeNode) => literal.rawText ?? '';
        const text = ts.isNoSubstitutionTemplateLiteral(template)
          ? raw(template)
          : raw(template.head) + template.templateSpans.map((span, index) => `\${pgx${index}}${raw(span.literal)}`).join('');
        found.push({ file, source: `html\`${text}\`` });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** A template's markup, each expression replaced by its placeholder word. */
const markupOf = (source: string) => source.slice('html`'.length, -1).replace(/\$\{(pgx\d+)\}/g, '$1');

let browser: LaunchedBrowser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

describe('the bundle’s tightened markup', () => {
  it('is parsed by Chromium into the same elements, attributes and text as the elements’ source, template by template', async () => {
    const templates = htmlTemplates();
    assert.ok(templates.length >= 40, `found ${templates.length} html templates`);
    const page = await browser.context.newPage();
    const parsed = (markup: string) =>
      page.evaluate((text) => {
        const template = document.createElement('template');
        template.innerHTML = text;
        return template.innerHTML.replace(/\s+/g, ' ');
      }, markup);
    let tightenedTemplates = 0;
    for (const { file, source } of templates) {
      const tightened = collapseTemplates(source);
      if (tightened !== source.replace(/[ \t]*(?:\r?\n)\s*/g, ' ')) tightenedTemplates += 1;
      assert.equal(await parsed(markupOf(tightened)), await parsed(markupOf(source)), `${file}: ${source.slice(0, 120)}`);
    }
    assert.ok(tightenedTemplates > 20, 'the markup is tightened beyond its white space');
    await page.close();
  });
});
