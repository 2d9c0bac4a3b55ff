/**
 * The financing flow token: how the four financing steps are tied together without server memory.
 * Each step answers with a token sealing what the next step may do (order, the reference its
 * gateway calls use, phone, step reached, the gateway's transaction_id, down payment, verified OTP,
 * offered tenures, expiry); the next step opens it and refuses anything else. The browser keeps
 * it (sessionStorage) but can neither read nor change it: it is AES-256-GCM sealed with a key
 * derived (HKDF-SHA-256, own label) from the SHA request phrase, and bound to the merchant
 * identifier. GCM authenticates as well as an HMAC would, and also hides the OTP and phone number
 * the token carries.
 */

export type FlowStep = 'customer_verified' | 'otp_sent' | 'otp_verified';

export interface FlowState {
  /** The merchant's order reference. */
  readonly merchant_reference: string;
  /**
   * The merchant_reference every gateway call of the flow is sent under: the order's own or a new
   * attempt's (`<order>.pg<n>`, core payment-attempts.ts), chosen once at the first step. Absent in
   * a token sealed before financing had attempts: the order's own reference.
   */
  readonly payment_reference?: string;
  /** The verified phone number, normalized (01xxxxxxxxx). */
  readonly phone_number: string;
  readonly step: FlowStep;
  /** The order's amount and currency when the flow began; a changed order ends the flow. */
  readonly amount: number;
  readonly currency: string;
  /** From OTP_GENERATE. */
  readonly transaction_id?: string;
  /** Down payment in minor units, from OTP_GENERATE (and OTP_VERIFY). */
  readonly down_payment?: number;
  /** The OTP the gateway verified, which financing PURCHASE sends again. */
  readonly otp?: string;
  /** Tenure options in months that OTP_VERIFY offered. */
  readonly tenures?: readonly number[];
  /** OTPs sent in this flow so far (the first send and each resend). */
  readonly otp_sends?: number;
}

const VERSION_PREFIX = 'v1.';
const encoder = new TextEncoder();

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * A key of the service's own for one use (`label`, the HKDF info), derived with HKDF-SHA-256 from
 * the SHA request phrase: every instance with the same configuration derives the same key, and a
 * key derived for one use is no key for another.
 */
export async function deriveServiceKey(
  requestPhrase: string,
  label: string,
  algorithm: HmacKeyGenParams | AesKeyGenParams,
  usages: KeyUsage[],
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(requestPhrase), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode('pg-checkout'), info: encoder.encode(label) },
    material,
    algorithm,
    false,
    usages,
  );
}

/** Seals values of one kind: AES-256-GCM, with a key of its own derived from the request phrase. */
export interface Sealer<State> {
  seal(state: State): Promise<string>;
  /** The state, or undefined for a value that is malformed, altered, foreign, of another kind or expired. */
  open(token: string): Promise<State | undefined>;
}

export type FlowSealer = Sealer<FlowState>;

export function createFlowSealer(options: {
  readonly requestPhrase: string;
  readonly merchantIdentifier: string;
  readonly lifetimeSeconds: number;
  readonly now: () => Date;
}): FlowSealer {
  return createSealer<FlowState>({ ...options, label: 'pg-checkout financing flow token v1' });
}

/**
 * A sealer for one kind of value (`label`, the HKDF info: each kind has its own key, so a value
 * sealed for one use never opens for another), bound to the merchant identifier, valid for
 * `lifetimeSeconds`. The financing flow token and the embedded page's ready card use it.
 */
export function createSealer<State extends object>(options: {
  readonly requestPhrase: string;
  readonly merchantIdentifier: string;
  readonly lifetimeSeconds: number;
  readonly now: () => Date;
  readonly label: string;
}): Sealer<State> {
  let key: Promise<CryptoKey> | undefined;
  const deriveKey = () => deriveServiceKey(options.requestPhrase, options.label, { name: 'AES-GCM', length: 256 }, ['encrypt', 'decrypt']);
  const additionalData = encoder.encode(`merchant:${options.merchantIdentifier}`);
  const nowSeconds = (): number => Math.floor(options.now().getTime() / 1000);

  return {
    async seal(state) {
      key ??= deriveKey();
      const sealed = { v: 1, ...state, exp: nowSeconds() + options.lifetimeSeconds };
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const cipher = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData },
        await key,
        encoder.encode(JSON.stringify(sealed)),
      );
      const bytes = new Uint8Array(iv.byteLength + cipher.byteLength);
      bytes.set(iv, 0);
      bytes.set(new Uint8Array(cipher), iv.byteLength);
      return VERSION_PREFIX + toBase64Url(bytes);
    },

    async open(token) {
      if (!token.startsWith(VERSION_PREFIX) || token.length > 4096) return undefined;
      const bytes = fromBase64Url(token.slice(VERSION_PREFIX.length));
      if (!bytes || bytes.byteLength < 12 + 16) return undefined;
      key ??= deriveKey();
      let plain: ArrayBuffer;
      try {
        plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData },
          await key,
          bytes.slice(12),
        );
      } catch {
        return undefined;
      }
      const sealed = JSON.parse(new TextDecoder().decode(plain)) as State & { readonly v?: unknown; readonly exp?: unknown };
      if (sealed.v !== 1 || typeof sealed.exp !== 'number' || sealed.exp <= nowSeconds()) return undefined;
      const { v: _version, exp: _expiry, ...state } = sealed;
      return state as unknown as State;
    },
  };
}
