/** The two languages of the gateway's pages and messages (spec: `language`, en or ar). */
export type Language = 'en' | 'ar';

export const LANGUAGES: readonly Language[] = ['en', 'ar'];

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'ar';
}

/** Text direction of a language: Arabic is right-to-left. */
export function directionOf(language: Language): 'ltr' | 'rtl' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

const ARABIC_INDIC_ZERO = 0x0660;
const EXTENDED_ARABIC_INDIC_ZERO = 0x06f0;
// Bidi controls a paste from an Arabic page can carry: LRM, RLM, ALM, LRE…RLO, LRI…PDI.
const BIDI_MARKS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;

/**
 * Typed input as the validators want it: bidi marks removed and Arabic-Indic (٠-٩) and
 * Extended Arabic-Indic (۰-۹) digits turned into ASCII digits.
 */
export function normalizeDigits(input: string): string {
  return input.replace(BIDI_MARKS, '').replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (digit) => {
    const code = digit.charCodeAt(0);
    const base = code >= EXTENDED_ARABIC_INDIC_ZERO ? EXTENDED_ARABIC_INDIC_ZERO : ARABIC_INDIC_ZERO;
    return String(code - base);
  });
}
