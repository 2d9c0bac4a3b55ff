/**
 * Request and response signatures (spec, "Authentication"): every parameter but `signature`,
 * sorted by name, written `name=value` and concatenated, the phrase at both ends, hashed with
 * SHA-256 or SHA-512 over UTF-8, hex out. The hash is the runtime's synchronous `node:crypto`
 * where it has one (Node, Bun, Deno), found at run time through `process.getBuiltinModule` so that
 * the core imports nothing, and Web Crypto everywhere else (browsers, edge runtimes): the same
 * digest either way, one `sign()` for every runtime.
 *
 * Empty and absent values: `undefined` and `null` mean "not sent" and are left out of the string;
 * an empty string is a value that is sent, so it is signed as `name=`. `wireParams()` gives
 * the exact map to send, so what is signed and what is posted cannot drift apart.
 */

export type ShaType = 'sha256' | 'sha512';

export type SignableScalar = string | number | boolean;
export interface SignableObject {
  readonly [key: string]: SignableValue;
}
export type SignableValue = SignableScalar | null | undefined | SignableObject | readonly SignableValue[];
export type SignableParams = Readonly<Record<string, SignableValue>>;

export interface SignatureOptions {
  /** Merchant page 2.0: the card fields are posted to the gateway but left out of the string. */
  readonly merchantPage?: boolean;
  /** Fields left out of the string even when present (see {@link signatureOptionsFor}). */
  readonly unsigned?: readonly string[];
}

/** Fields that merchant page 2.0 leaves out of the signature string even when sent. */
export const MERCHANT_PAGE_UNSIGNED_FIELDS: readonly string[] = [
  'card_security_code',
  'card_number',
  'expiry_date',
  'card_holder_name',
  'remember_me',
];

/**
 * Fields an answer carries but its signature string leaves out, by operation. The plans answer's
 * nested `installment_detail` is written as nothing by the official PHP SDK, ignored by the .NET
 * SDK and dropped by the Java SDK, so a gateway that signed it would fail all three
 * (docs/decisions.md).
 */
const UNSIGNED_BY_OPERATION: Readonly<Record<string, readonly string[]>> = {
  GET_INSTALLMENTS_PLANS: ['installment_detail'],
};

/**
 * The signature options of a message, by its operation (`query_command`, `service_command` or
 * `command`): what the gateway signs its answer with and what a verifier of that answer uses.
 * The one place this rule lives, for the sandbox, the endpoint's answer check and `pg-checkout verify`.
 */
export function signatureOptionsFor(message: Readonly<Record<string, unknown>>): SignatureOptions {
  const operation = message['query_command'] ?? message['service_command'] ?? message['command'];
  const unsigned = typeof operation === 'string' ? UNSIGNED_BY_OPERATION[operation] : undefined;
  return unsigned ? { unsigned } : {};
}

/** A refused signature setting, such as the weak 128-bit SHA variant. */
export class SignatureConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureConfigError';
  }
}

/**
 * Reads a back-office SHA type ("SHA-256", "sha512", …). The 128-bit variant the back-office
 * still lists is refused: it is too weak to protect a payment request.
 */
export function parseShaType(value: string): ShaType {
  const normalized = value.trim().toLowerCase().replace(/[-_\s]/g, '');
  if (normalized === 'sha256') return 'sha256';
  if (normalized === 'sha512') return 'sha512';
  if (normalized === 'sha128' || normalized === 'sha1' || normalized === 'md5') {
    throw new SignatureConfigError(
      `SHA type "${value}" is the weak 128-bit variant the back-office lists as not recommended; ` +
        'choose SHA-256 or SHA-512 in the back-office and here.',
    );
  }
  throw new SignatureConfigError(`SHA type "${value}" is not supported; use SHA-256 or SHA-512.`);
}

/** How one value is written in the string: lists `[a, b]`, objects `{k=v, k=v}` in sent order. */
export function canonicalValue(value: SignableValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i === 0 ? '' : ', ') + canonicalValue(value[i]);
    return `${text}]`;
  }
  if (typeof value === 'object') {
    const object = value as SignableObject;
    let text = '';
    for (const key of Object.keys(object)) {
      const entry = object[key];
      if (entry !== undefined && entry !== null) text += `${text === '' ? '' : ', '}${key}=${canonicalValue(entry)}`;
    }
    return `{${text}}`;
  }
  return String(value);
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * Byte order of the UTF-8 encodings, which is code point order. UTF-16 unit order (what `<` on
 * strings compares) agrees with it unless a surrogate pair is involved, so only then are the
 * code points compared one by one: parameter names are ASCII in practice, and sorting is hot.
 */
export function compareByteOrder(a: string, b: string): number {
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  const left = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const right = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** True when a name is left out of the signature string: `signature`, (merchant page) card fields, the unsigned ones. */
function isUnsigned(name: string, options: SignatureOptions): boolean {
  if (name === 'signature') return true;
  if (options.unsigned?.includes(name)) return true;
  return options.merchantPage === true && MERCHANT_PAGE_UNSIGNED_FIELDS.includes(name);
}

/**
 * The concatenated `name=value` string, without the phrase. Written for speed, as every signature
 * and every verification builds one: the names are sorted with the engine's own string order,
 * which is byte order unless a name holds a surrogate pair (then {@link compareByteOrder} sorts),
 * and text values are appended as they are.
 */
export function canonicalString(params: SignableParams, options: SignatureOptions = {}): string {
  const names: string[] = [];
  let surrogates = false;
  for (const name of Object.keys(params)) {
    const value = params[name];
    if (value === undefined || value === null || isUnsigned(name, options)) continue;
    names.push(name);
    if (!surrogates && SURROGATE.test(name)) surrogates = true;
  }
  if (surrogates) names.sort(compareByteOrder);
  else names.sort();
  let text = '';
  for (const name of names) {
    const value = params[name];
    text += `${name}=${typeof value === 'string' ? value : canonicalValue(value)}`;
  }
  return text;
}

/** The exact text that is hashed: phrase + canonical string + phrase. */
export function signingString(params: SignableParams, phrase: string, options: SignatureOptions = {}): string {
  return `${phrase}${canonicalString(params, options)}${phrase}`;
}

/** The signing string with the phrase masked, for `--explain` and support tickets. */
export function explainSigningString(params: SignableParams, options: SignatureOptions = {}): string {
  const masked = '<phrase>';
  return `${masked}${canonicalString(params, options)}${masked}`;
}

/** Computes the hex digest of a signing string; `sign()` uses the runtime's {@link hashBackend}. */
export interface HashBackend {
  readonly name: 'node:crypto' | 'webcrypto';
  hexDigest(sha: ShaType, text: string): string | Promise<string>;
}

const ALGORITHM: Record<ShaType, string> = { sha256: 'SHA-256', sha512: 'SHA-512' };
const encoder = new TextEncoder();

/**
 * The lowercase hex digest of some bytes (a text is taken as UTF-8): how a file travels beside a
 * signed message, its digest being a signed field (the batch upload, the report download), and
 * the digest a key is made of (a limiter's, a saved card's). A text is hashed as `sign()` hashes,
 * synchronously where the runtime has `node:crypto`.
 */
export async function fileDigest(data: Uint8Array<ArrayBuffer> | string, sha: ShaType): Promise<string> {
  return typeof data === 'string' ? hashBackend().hexDigest(sha, data) : webCryptoDigest(data, sha);
}

async function webCryptoDigest(bytes: Uint8Array<ArrayBuffer>, sha: ShaType): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest(ALGORITHM[sha], bytes);
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Web Crypto's `subtle.digest`: asynchronous, present in browsers, Node and edge runtimes. */
export const webCryptoHash: HashBackend = {
  name: 'webcrypto',
  hexDigest: (sha, text) => webCryptoDigest(encoder.encode(text), sha),
};

interface NodeCrypto {
  createHash(algorithm: string): { update(data: string, encoding: 'utf8'): { digest(encoding: 'hex'): string } };
}

/** `node:crypto` of the runtime, or undefined where there is none (browsers, most edge runtimes). */
function nodeCrypto(): NodeCrypto | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const module = runtime?.getBuiltinModule?.('node:crypto') as Partial<NodeCrypto> | undefined;
    return typeof module?.createHash === 'function' ? (module as NodeCrypto) : undefined;
  } catch {
    return undefined;
  }
}

let runtimeBackend: HashBackend | undefined;

/**
 * The hash `sign()` uses here: `node:crypto`'s synchronous `createHash` when the runtime has it
 * (a Web Crypto digest is an asynchronous job costing far more than the hash itself), else Web Crypto.
 */
export function hashBackend(): HashBackend {
  if (runtimeBackend) return runtimeBackend;
  const node = nodeCrypto();
  runtimeBackend = node
    ? { name: 'node:crypto', hexDigest: (sha, text) => node.createHash(sha).update(text, 'utf8').digest('hex') }
    : webCryptoHash;
  return runtimeBackend;
}

/** The signature of a request (request phrase) or response (response phrase), lowercase hex. */
export async function sign(
  params: SignableParams,
  phrase: string,
  sha: ShaType,
  options: SignatureOptions = {},
): Promise<string> {
  if (phrase.length === 0) throw new SignatureConfigError('The SHA phrase must not be empty.');
  return hashBackend().hexDigest(sha, signingString(params, phrase, options));
}

/** Compares two hex digests case-insensitively in time independent of where they differ. */
export function constantTimeEqualHex(a: string, b: string): boolean {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let difference = left.length ^ right.length;
  const length = Math.max(left.length, right.length);
  for (let i = 0; i < length; i++) {
    difference |= (left.charCodeAt(i) || 0) ^ (right.charCodeAt(i) || 0);
  }
  return difference === 0;
}

export type VerifyResult =
  | { readonly valid: true }
  | { readonly valid: false; readonly reason: 'missing' | 'mismatch' };

/** Checks the `signature` a message carries against one recomputed over the rest of it. */
export async function verifySignature(
  params: SignableParams,
  phrase: string,
  sha: ShaType,
  options: SignatureOptions = {},
): Promise<VerifyResult> {
  const received = params['signature'];
  if (typeof received !== 'string' || received.length === 0) return { valid: false, reason: 'missing' };
  const expected = await sign(params, phrase, sha, options);
  return constantTimeEqualHex(expected, received) ? { valid: true } : { valid: false, reason: 'mismatch' };
}

/** The parameters as they are sent: absent values dropped, so every signed value is also posted. */
export function wireParams<T extends SignableParams>(params: T): Record<string, Exclude<SignableValue, null | undefined>> {
  const sent: Record<string, Exclude<SignableValue, null | undefined>> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) sent[name] = value;
  }
  return sent;
}

/** Signs a request and returns the map to send, signature included. */
export async function signParams(
  params: SignableParams,
  phrase: string,
  sha: ShaType,
  options: SignatureOptions = {},
): Promise<Record<string, Exclude<SignableValue, null | undefined>>> {
  const sent = wireParams(params);
  delete sent['signature'];
  return { ...sent, signature: await sign(sent, phrase, sha, options) };
}
