/**
 * `customer_name` as the gateway takes it: letters of any script (Arabic included) and combining
 * marks, plus `_ \ / - . '` and the space, at most 50 characters (`FIELD_RULES.customer_name`;
 * docs/decisions.md, "customer_name's characters"). The name is optional and only informs the
 * gateway, so a merchant's order never fails because of it: the endpoint sends the name cleaned
 * the way people's names are typed and copied (direction marks, joiners, other spaces), and leaves
 * out one that still does not fit the rule rather than send a request the gateway would refuse.
 */
import { FIELD_RULES, fieldFromRule } from './schemas/fields.ts';

const MAX_LENGTH = FIELD_RULES.customer_name.maxLength;
const customerName = fieldFromRule(FIELD_RULES.customer_name);

/**
 * `name` in the gateway's form, or `undefined` when nothing sendable is left:
 * - Unicode NFC, so a letter and its accent typed apart count as one character;
 * - format characters removed (right-to-left and left-to-right marks, zero-width joiners and
 *   non-joiners, the byte-order mark): invisible, and not letters;
 * - every kind of space (no-break, thin, ideographic, tab, line break) one plain space, runs of
 *   them one, none at either end;
 * - longer than 50 characters: cut after the last whole word that fits (or at 50 when the first
 *   word is longer), counted in code points as the gateway counts characters;
 * - what is then still outside the rule (digits, symbols, emoji): left out, never sent.
 */
export function customerNameForGateway(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const cleaned = name
    .normalize('NFC')
    .replace(/\p{Cf}/gu, '')
    .replace(/[\s\p{Z}]+/gu, ' ')
    .trim();
  const shortened = shortenToWords(cleaned, MAX_LENGTH);
  if (shortened === '') return undefined;
  return customerName.safeParse(shortened).success ? shortened : undefined;
}

/** The longest prefix of whole words within `limit` code points (a first word longer than that is cut). */
function shortenToWords(text: string, limit: number): string {
  const characters = Array.from(text);
  if (characters.length <= limit) return text;
  const kept = characters.slice(0, limit);
  // A space right after the limit means the last kept word is whole.
  const lastSpace = characters[limit] === ' ' ? limit : kept.lastIndexOf(' ');
  return (lastSpace > 0 ? kept.slice(0, lastSpace) : kept).join('').trim();
}
