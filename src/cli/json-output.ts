/**
 * What `--json` shows an operator. It goes to terminals, CI logs, tickets and chat, so it carries
 * no credential: the merchant's `access_code`, every `signature` (a hash of a phrase and a known
 * string: a weak phrase could be found from it), any SHA phrase, secret or password, and the
 * one-time values a customer authenticates with (`otp`, `card_security_code`, `cvv`, the 3-D
 * Secure `ver_token`) become "[redacted]". The key stays, so the JSON keeps its shape and a script
 * that reads a field finds a string. A `card_number` is shown masked (first 6 and last 4 digits),
 * however it came (a number included), and free text (messages, descriptions, names,
 * `merchant_extra*`) has its card numbers masked as the logs mask them (core `hideCardNumbers`: a
 * number typed into a free-text field); identifiers (`svc_id`, a bill's number) stay whole. A customer's phone
 * number (financing) shows its last three digits only. Everything else an operator works with stays as the gateway said it:
 * `merchant_identifier` (an identifier, not a credential), references, amounts, codes, messages,
 * the masked card, its expiry, brand and BIN, `token_name` (what `tokens` lists; charging with it
 * takes the access code and the request phrase), a report's `file_digest`.
 */
import { cardDigits, hideCardNumbers } from '../core/card-number.ts';

/** What a credential is printed as. */
export const REDACTED = '[redacted]';

/** Keys whose values are credentials, or authenticate a customer: never printed. */
const CREDENTIAL_KEY = /signature|access_?code|phrase|secret|password|^(?:otp|card_security_code|cvv|ver_token)$/i;

const CARD_NUMBER_KEY = /card_?number/i;

/** Fields of free text, where a customer or a clerk may have typed a card number. */
const FREE_TEXT_KEY = /message|description|extra|customer_name|holder_name|remark|note|reason|text/i;

/** A customer's phone number (consumer financing): shown by its last three digits. */
const PHONE_KEY = /phone|mobile/i;

function maskedPhone(value: string): string {
  return value.replace(/\p{Nd}(?=(?:\D*\p{Nd}){3})/gu, '*');
}

/**
 * A card number as it may be shown: the first 6 and last 4 characters, every digit between them a
 * `*` (as the gateway masks it, so one already masked stays as it is); too short to keep any, every digit a `*`.
 */
function maskedCard(value: string): string {
  const compact = cardDigits(value);
  if (compact.length <= 10) return compact.replace(/\d/g, '*');
  return compact.slice(0, 6) + compact.slice(6, -4).replace(/\d/g, '*') + compact.slice(-4);
}

/** A copy of `value` fit for an operator's screen: credentials redacted and card numbers masked, at any depth. */
export function redactForOperator(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactForOperator);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (CREDENTIAL_KEY.test(key)) copy[key] = item === undefined ? undefined : REDACTED;
    else if (CARD_NUMBER_KEY.test(key) && (typeof item === 'string' || typeof item === 'number')) copy[key] = maskedCard(String(item));
    else if (PHONE_KEY.test(key) && typeof item === 'string') copy[key] = maskedPhone(item);
    else if (FREE_TEXT_KEY.test(key) && typeof item === 'string') copy[key] = hideCardNumbers(item);
    else copy[key] = redactForOperator(item);
  }
  return copy;
}

/** Prints `value` as `--json` does: redacted, two-space indented, one trailing newline. */
export function printJson(io: { readonly stdout: { write(text: string): unknown } }, value: unknown): void {
  io.stdout.write(`${JSON.stringify(redactForOperator(value), null, 2)}\n`);
}
