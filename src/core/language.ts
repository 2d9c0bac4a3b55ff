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

const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

/**
 * A decimal string ("1234567.50") with its thousands grouped, in the digits and separators of
 * `language`: "1,234,567.50", or "١٬٢٣٤٬٥٦٧٫٥٠" in Arabic. The same text `Intl.NumberFormat` writes
 * for `en` and `ar-EG`, made without it: a tab's first `Intl.NumberFormat` loads the browser's
 * number-formatting data, about 35 ms on a desktop and 200 ms on a mid-range phone, with the page
 * frozen meanwhile (docs/decisions.md). Digits only, no sign.
 */
export function groupDigits(decimal: string, language: Language): string {
  const [whole = '', fraction] = decimal.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',') + (fraction === undefined ? '' : `.${fraction}`);
  if (language !== 'ar') return grouped;
  return grouped.replace(/[\d,.]/g, (char) =>
    char === ',' ? '\u066c' : char === '.' ? '\u066b' : String.fromCharCode(ARABIC_INDIC_ZERO + Number(char)),
  );
}

/**
 * A number written inside text of `language`: in Arabic with the Arabic-Indic digits and separators
 * that `formatMoney` and the countdown use (6 → "٦", 1200 → "١٬٢٠٠", "12.50" → "١٢٫٥٠"), in English
 * as written (6 → "6"). A decimal string keeps its fraction digits. Not for what the customer must
 * type or copy exactly (card, bill and phone numbers, codes, references): those stay Latin digits.
 */
export function formatCount(value: number | string, language: Language): string {
  const text = String(value);
  if (language !== 'ar') return text;
  if (!DECIMAL_TEXT.test(text)) return text.replace(/\d/g, (digit) => String.fromCharCode(ARABIC_INDIC_ZERO + Number(digit)));
  // Intl writes an Arabic minus as the Arabic letter mark and a hyphen-minus.
  return text.startsWith('-') ? `\u061c-${groupDigits(text.slice(1), language)}` : groupDigits(text, language);
}
