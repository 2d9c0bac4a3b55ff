/**
 * How the service and the shop's back end prove each message to each other (order lookups and their
 * answers, result webhooks, the results routes): an HMAC-SHA-256 of the timestamp and the exact body
 * bytes with the shared secret `PG_HOOK_SECRET`, sent as one header, Stripe's scheme:
 *
 *     PG-Signature: t=1767225600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
 *
 * where `v1` is hex(HMAC-SHA-256(secret, `${t}.${body}`)) and `t` is Unix seconds. A receiver
 * recomputes it over the bytes it received (before parsing them), compares in constant time, and
 * refuses a timestamp more than five minutes away from its clock: a recorded message cannot be
 * played again later. Several `v1=` entries may be sent (while a secret is being rotated); one
 * matching is enough. Web Crypto only, so it runs wherever the endpoint runs.
 */
import { constantTimeEqualHex } from '../core/signature.ts';

/** The header carrying the signature, in both directions (HTTP header names are case-insensitive). */
export const HOOK_SIGNATURE_HEADER = 'PG-Signature';

/** How far a message's timestamp may be from the receiver's clock, either way (5 minutes). */
export const HOOK_TOLERANCE_SECONDS = 300;

/** The shortest `PG_HOOK_SECRET` accepted: 32 characters (`openssl rand -hex 32` gives 64). */
export const MIN_HOOK_SECRET_LENGTH = 32;

const encoder = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The `PG-Signature` value for `body` sent at `now` (default: the current time). */
export async function signHookBody(body: string, secret: string, now: Date = new Date()): Promise<string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${await hmacHex(secret, `${timestamp}.${body}`)}`;
}

export type HookVerification =
  | { readonly valid: true; readonly timestamp: number }
  | {
      readonly valid: false;
      /**
       * `missing`: no header; `malformed`: not `t=…,v1=…`; `expired`: the timestamp is outside the
       * window (a replay, or a clock far off); `mismatch`: another secret, or a changed body.
       */
      readonly reason: 'missing' | 'malformed' | 'expired' | 'mismatch';
    };

export interface HookVerifyOptions {
  /** The receiver's clock (default: the current time). */
  readonly now?: Date;
  /** The window either side of `now`, in seconds (default 300). */
  readonly toleranceSeconds?: number;
}

/**
 * Checks a `PG-Signature` header against the body exactly as received. The window is checked
 * before the MAC, and the MAC is compared in constant time.
 */
export async function verifyHookSignature(
  body: string,
  header: string | null | undefined,
  secret: string,
  options: HookVerifyOptions = {},
): Promise<HookVerification> {
  if (header === null || header === undefined || header.trim() === '') return { valid: false, reason: 'missing' };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) candidates.push(value);
  }
  if (timestamp === undefined || candidates.length === 0) return { valid: false, reason: 'malformed' };
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? HOOK_TOLERANCE_SECONDS)) {
    return { valid: false, reason: 'expired' };
  }
  const expected = await hmacHex(secret, `${timestamp}.${body}`);
  // Every candidate is compared, so the time taken does not say which one matched.
  let matched = false;
  for (const candidate of candidates) matched = constantTimeEqualHex(candidate, expected) || matched;
  return matched ? { valid: true, timestamp } : { valid: false, reason: 'mismatch' };
}
