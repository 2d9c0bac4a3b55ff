/**
 * `/result.html`, written by the demo's server: the page the storefront's result script draws
 * (result.html, result.ts), with the order's outcome already in it, in the payment's language. A
 * customer who paid with scripts turned off (`/quick-checkout`) reads the outcome, the amount and
 * the order; with scripts, the page then adds "Try another card" and the developers' details.
 */
import { readFile } from 'node:fs/promises';
import { escapeHtml } from '../src/core/html-text.ts';
import { OUTCOME_TEXT } from '../src/core/customer-outcome.ts';
import { isLanguage, type Language } from '../src/core/language.ts';
import { DEMO_CSP } from './csp.ts';
import { customerOrderView, type DemoState } from './demo-api.ts';
import { MESSAGES, type DemoMessages } from './i18n.ts';
import { notShownContent, paymentLanguage, resultContent, type ResultContent } from './result-view.ts';
import type { SummaryLine } from './views.ts';

export const RESULT_PATH = '/result.html';

const TEMPLATE = new URL('./result.html', import.meta.url);

function summaryHtml(lines: readonly SummaryLine[]): string {
  return lines
    .map((line) => {
      const attributes = `${line.ltr ? ' dir="ltr" class="ltr-island"' : ''}${line.field ? ` data-summary="${escapeHtml(line.field)}"` : ''}`;
      return `<dt>${escapeHtml(line.label)}</dt><dd><bdi${attributes}>${escapeHtml(line.value)}</bdi></dd>`;
    })
    .join('');
}

/** The template with the page's words in `language` and the outcome in place. */
export function writtenResultPage(template: string, content: ResultContent, language: Language): string {
  const words: DemoMessages = MESSAGES[language];
  const tone = escapeHtml(content.tone);
  return template
    .replace(/<html lang="[^"]*" dir="[^"]*">/, `<html lang="${language}" dir="${language === 'ar' ? 'rtl' : 'ltr'}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(`${content.title} — ${words.brand}`)}</title>`)
    .replace(/(<([a-z0-9]+)\b[^>]*\bdata-i18n="(\w+)"[^>]*>)[^<]*(<\/\2>)/g, (whole, open: string, _tag, key: string, close: string) =>
      key in words ? `${open}${escapeHtml(words[key as keyof DemoMessages])}${close}` : whole,
    )
    .replace(/(<section [^>]*id="result-box")/, `$1 data-outcome="${tone}"`)
    .replace(/<h1 id="outcome"([^>]*)>[^<]*<\/h1>/, `<h1 id="outcome"$1 data-outcome="${tone}">${escapeHtml(content.title)}</h1>`)
    .replace(
      /<p id="outcome-reason"([^>]*) hidden><\/p>/,
      content.reason ? `<p id="outcome-reason"$1>${escapeHtml(content.reason)}</p>` : '<p id="outcome-reason"$1 hidden></p>',
    )
    .replace(/<p id="outcome-next"([^>]*)><\/p>/, `<p id="outcome-next"$1>${escapeHtml(content.next)}</p>`)
    .replace(/<dl id="summary" class="summary"><\/dl>/, `<dl id="summary" class="summary">${summaryHtml(content.lines)}</dl>`)
    .replace(/(<summary id="developer-summary">)[^<]*(<\/summary>)/, `$1${escapeHtml(OUTCOME_TEXT[language].actions.details)}$2`);
}

export async function resultPage(state: DemoState, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const reference = url.searchParams.get('merchant_reference') ?? '';
  const asked = url.searchParams.get('lang');
  const view = reference === '' ? undefined : await customerOrderView(state, request, reference);
  const language = paymentLanguage(view, isLanguage(asked) ? asked : 'en');
  const content = view ? resultContent(view, language) : notShownContent(language);
  const page = writtenResultPage(await readFile(TEMPLATE, 'utf8'), content, language);
  return new Response(page, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': DEMO_CSP },
  });
}
