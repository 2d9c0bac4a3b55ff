/**
 * Proof that the browser asking the service's result page for an order is the one the gateway
 * returned with it. A top-level redirect carries no header of the shop's and no cookie of the
 * service's, so the return signs one into the redirect: `proof={expiry}.{HMAC}` over the merchant,
 * the order reference and the expiry, with a key derived (HKDF-SHA-256, own label) from the SHA
 * request phrase, as the financing flow token's is. Every instance with the same configuration
 * derives the same key. Without a valid proof the page shows nothing specific to the order.
 *
 * A return the endpoint refused (a card past the order's limit, an amount that changed) records
 * no result, so the page would show the order's earlier one: that proof also covers the refusal's
 * code, which the page then shows. A proof without a code proves the order only, whatever code
 * the query string carries.
 */
import { deriveServiceKey, fromBase64Url, toBase64Url } from './flow-token.ts';

const encoder = new TextEncoder();

/** The result URL's parameter that carries the proof. */
export const RESULT_PROOF_PARAMETER = 'proof';

/** How long the result page may be shown (and refresh itself) after the return: an hour. */
export const RESULT_PROOF_SECONDS = 3600;

export interface ResultProofs {
  /** The proof for `reference` (and the return's `refusal`, when it was refused), valid from now for RESULT_PROOF_SECONDS. */
  issue(reference: string, refusal?: string): Promise<string>;
  /** True when `proof` was issued for `reference` (with `refusal`, when given) and has not expired. */
  check(reference: string, proof: string | null, refusal?: string): Promise<boolean>;
}

export function createResultProofs(options: {
  readonly requestPhrase: string;
  readonly merchantIdentifier: string;
  readonly now: () => Date;
  readonly lifetimeSeconds?: number;
}): ResultProofs {
  let key: Promise<CryptoKey> | undefined;
  const deriveKey = () =>
    deriveServiceKey(options.requestPhrase, 'pg-checkout result page proof v1', { name: 'HMAC', hash: 'SHA-256', length: 256 }, ['sign', 'verify']);
  const message = (reference: string, expiry: number, refusal: string | undefined) =>
    encoder.encode(`${options.merchantIdentifier}\n${reference}\n${expiry}${refusal === undefined ? '' : `\n${refusal}`}`);
  const nowSeconds = () => Math.floor(options.now().getTime() / 1000);
  const lifetime = options.lifetimeSeconds ?? RESULT_PROOF_SECONDS;

  return {
    async issue(reference, refusal) {
      key ??= deriveKey();
      const expiry = nowSeconds() + lifetime;
      const mac = await crypto.subtle.sign('HMAC', await key, message(reference, expiry, refusal));
      return `${expiry}.${toBase64Url(new Uint8Array(mac))}`;
    },
    async check(reference, proof, refusal) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(proof ?? '');
      if (!match?.[1] || !match[2]) return false;
      const expiry = Number(match[1]);
      if (expiry <= nowSeconds()) return false;
      const signature = fromBase64Url(match[2]);
      if (!signature) return false;
      key ??= deriveKey();
      // Web Crypto's verify compares in constant time.
      return crypto.subtle.verify('HMAC', await key, signature, message(reference, expiry, refusal));
    },
  };
}
