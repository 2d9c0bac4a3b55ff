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

const DECIMAL_TEXT = /^-?\d+(?:\.(\d+))?$/;
const countFormats = new Map<number, Intl.NumberFormat>();

/**
 * A number written inside text of `language`: in Arabic with the Arabic-Indic digits and separators
 * that `formatMoney` and the countdown use (6 → "٦", 1200 → "١٬٢٠٠", "12.50" → "١٢٫٥٠"), in English
 * as written (6 → "6"). A decimal string keeps its fraction digits. Not for what the customer must
 * type or copy exactly (card, bill and phone numbers, codes, references): those stay Latin digits.
 */
export function formatCount(value: number | string, language: Language): string {
  const text = String(value);
  if (language !== 'ar') return text;
  const decimal = DECIMAL_TEXT.exec(text);
  if (!decimal) return text.replace(/\d/g, (digit) => String.fromCharCode(ARABIC_INDIC_ZERO + Number(digit)));
  const fractionDigits = decimal[1]?.length ?? 0;
  let format = countFormats.get(fractionDigits);
  if (!format) {
    format = new Intl.NumberFormat('ar-EG', { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });
    countFormats.set(fractionDigits, format);
  }
  // Intl formats a decimal string exactly; the cast is for older lib typings that only list number.
  return format.format(text as unknown as number);
}
