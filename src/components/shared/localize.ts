/**
 * Localization: every visible string (and every accessible name) comes from a typed catalog per
 * language. English is in the bundle; Arabic is a module of its own, loaded the first time an
 * element shows Arabic, so that a page in English never downloads it. Both satisfy the element's
 * messages interface, so a key missing in either fails type-checking.
 */
import { html, type TemplateResult } from 'lit';
import type { Language } from '../../core/language.ts';
import { onDemand, type OnDemand } from './on-demand.ts';

/** An element's catalogs: English at hand, Arabic loaded on first use. */
export interface Catalogs<Messages> {
  readonly en: Messages;
  readonly ar: () => Promise<Messages>;
}

/** What a message function may receive and return: text, or a template with islands inside. */
export type Renderable = string | TemplateResult;

/** The Arabic catalog of each element's catalogs, loaded on first use. */
const arabic = new WeakMap<Catalogs<unknown>, OnDemand<unknown>>();

function arabicOf<Messages>(catalogs: Catalogs<Messages>): OnDemand<Messages> {
  let catalog = arabic.get(catalogs) as OnDemand<Messages> | undefined;
  if (!catalog) arabic.set(catalogs, (catalog = onDemand(() => catalogs.ar())));
  return catalog;
}

/** The catalog of `language` if it is at hand (English always is), else undefined. */
export function loadedCatalog<Messages>(catalogs: Catalogs<Messages>, language: Language): Messages | undefined {
  return language === 'en' ? catalogs.en : arabicOf(catalogs).value;
}

/** Loads the catalog of `language`, once; a load that failed is tried again by the next call. */
export function loadCatalog<Messages>(catalogs: Catalogs<Messages>, language: Language): Promise<Messages> {
  return language === 'en' ? Promise.resolve(catalogs.en) : arabicOf(catalogs).load();
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
