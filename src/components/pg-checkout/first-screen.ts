/**
 * The first screen a merchant's server writes into `<pg-checkout>`'s declarative shadow root
 * (src/server/first-screen.ts): a card form that posts to the gateway without any script, until
 * the element takes it over with what the customer typed in it.
 */
import { yymmAsTyped } from '../../core/card-number.ts';
import { normalizeDigits } from '../../core/language.ts';
import { cardDigits, formatExpiryInput } from '../shared/card.ts';
import type { CardField } from '../shared/card-form.ts';

/** The server's frame, which marks a shadow root holding a first screen. */
export const FIRST_SCREEN = '[data-pg-first-screen]';

/**
 * The expiry typed into the first screen, as the card form shows it. Without script nothing turns
 * MM/YY into the gateway's YYMM, so the server's field takes YYMM: "2712" is "12/27" here; other
 * text ("1227", which is no YYMM) is read as if typed here.
 */
export function firstScreenExpiry(typed: string): string {
  const text = normalizeDigits(typed);
  return yymmAsTyped(text) ?? formatExpiryInput(text);
}

/** What the customer typed into the first screen in `root` (and "remember this card"), in the card form's formats. */
export function typedInFirstScreen(root: ParentNode): Record<CardField, string> & { remember: boolean } {
  const typed = (field: CardField): string => root.querySelector<HTMLInputElement>(`#card-${field}`)?.value ?? '';
  return {
    number: cardDigits(typed('number')),
    expiry: firstScreenExpiry(typed('expiry')),
    cvv: cardDigits(typed('cvv')),
    holder: typed('holder'),
    remember: root.querySelector('#remember-me:checked') !== null,
  };
}

/**
 * The selector, in the element's own form, of the first screen's `control`: by its id (the card
 * inputs, "remember this card"), the Pay button, or else the drop-in's chosen method, the card (the
 * other methods are disabled there).
 */
export function sameControl(control: Element): string {
  return control.id ? `#${control.id}` : control.matches('.Pay') ? '.Pay' : '[name=method]:checked';
}
