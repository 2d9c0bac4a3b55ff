/**
 * Localization: every visible string (and every accessible name) comes from a typed catalog per
 * language. English is in the bundle; Arabic is a module of its own, loaded the first time an
 * element shows Arabic, so that a page in English never downloads it. Both satisfy the element's
 * messages interface, so a key missing in either fails type-checking.
 */
import { html, type TemplateResult } from 'lit';
import type { Language } from '../../core/language.ts';

/** An element's catalogs: English at hand, Arabic loaded on first use. */
export interface Catalogs<Messages> {
  readonly en: Messages;
  readonly ar: () => Promise<Messages>;
}

/** What a message function may receive and return: text, or a template with islands inside. */
export type Renderable = string | TemplateResult;

/** Catalogs already loaded, and loads under way, by catalog and language. */
const loaded = new WeakMap<Catalogs<unknown>, Map<Language, unknown>>();
const loading = new WeakMap<Catalogs<unknown>, Map<Language, Promise<unknown>>>();

/** The catalog of `language` if it is at hand (English always is), else undefined. */
export function loadedCatalog<Messages>(catalogs: Catalogs<Messages>, language: Language): Messages | undefined {
  if (language === 'en') return catalogs.en;
  return loaded.get(catalogs)?.get(language) as Messages | undefined;
}

/** Loads the catalog of `language`, once; a load that failed is tried again by the next call. */
export function loadCatalog<Messages>(catalogs: Catalogs<Messages>, language: Language): Promise<Messages> {
  const ready = loadedCatalog(catalogs, language);
  if (ready) return Promise.resolve(ready);
  const underWay = loading.get(catalogs) ?? new Map<Language, Promise<unknown>>();
  loading.set(catalogs, underWay);
  const existing = underWay.get(language) as Promise<Messages> | undefined;
  if (existing) return existing;
  // English returned above: the one other language loads.
  const load = catalogs.ar().then(
    (messages) => {
      const done = loaded.get(catalogs) ?? new Map<Language, unknown>();
      loaded.set(catalogs, done.set(language, messages));
      underWay.delete(language);
      return messages;
    },
    (error: unknown) => {
      underWay.delete(language);
      throw error;
    },
  );
  underWay.set(language, load);
  return load;
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
