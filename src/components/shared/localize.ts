/**
 * Localization: every visible string (and every accessible name) comes from a typed catalog per
 * language. A catalog is a plain object typed by its element's messages interface, so a key that
 * is missing in `en` or `ar` fails type-checking.
 */
import { html, type TemplateResult } from 'lit';
import type { Language } from '../../core/language.ts';

/** One catalog per language; both must satisfy the same interface. */
export type Catalogs<Messages> = { readonly [L in Language]: Messages };

/** What a message function may receive and return: text, or a template with islands inside. */
export type Renderable = string | TemplateResult;

/** The catalog of `language`, falling back to English for a language the catalogs lack. */
export function messagesFor<Messages>(catalogs: Catalogs<Messages>, language: Language): Messages {
  return catalogs[language] ?? catalogs.en;
}

/**
 * A left-to-right island inside right-to-left text: card numbers, amounts, phone and bill numbers
 * keep their order in Arabic sentences.
 */
export function ltr(content: Renderable): TemplateResult {
  return html`<bdi dir="ltr" class="ltr">${content}</bdi>`;
}

const LEFT_TO_RIGHT_ISOLATE = '\u2066';
const POP_DIRECTIONAL_ISOLATE = '\u2069';

/** {@link ltr} for places that take plain text only (`<option>`, `aria-label`). */
export function ltrText(text: string): string {
  return `${LEFT_TO_RIGHT_ISOLATE}${text}${POP_DIRECTIONAL_ISOLATE}`;
}
