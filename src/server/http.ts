/**
 * Web-standard HTTP plumbing of the endpoint: size-limited body reading, JSON answers, CORS and
 * the two things read from headers (the language of a refusal and the customer's address).
 */
import { ORDER_TOKEN_HEADER } from '../core/endpoint-api.ts';
import { isLanguage, type Language } from '../core/language.ts';
import { BodyNotUtf8, BodyTooLarge, readLimitedText } from '../gateway/body.ts';
import { EndpointRefusal } from './errors.ts';

/** What the runtime knows about a request beyond the Request itself. */
export interface RequestContext {
  /**
   * The address of the peer that opened the connection. The Node adapter passes the socket's;
   * on Deno pass `info.remoteAddr.hostname`, on Bun `server.requestIP(request)?.address`, on
   * Cloudflare Workers `request.headers.get('cf-connecting-ip')`.
   */
  readonly clientAddress?: string | undefined;
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/**
 * A JSON answer before it is a `Response`: what the endpoint answers the Node adapter, which
 * writes the text as it is (one write, no stream), and what `jsonResponse` wraps for every other runtime.
 */
export interface JsonAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/** A JSON answer that no cache keeps. */
export function jsonAnswer(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): JsonAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS, ...headers },
    text: JSON.stringify(body),
  };
}

/** The `Response` of an answer (a `Response` stays as it is). */
export function toResponse(answer: Response | JsonAnswer): Response {
  return answer instanceof Response ? answer : new Response(answer.text, { status: answer.status, headers: answer.headers });
}

/** A JSON answer that no cache keeps, as a `Response`. */
export function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Response {
  return toResponse(jsonAnswer(status, body, headers));
}

/**
 * A handler's entry for the Node adapter: the same handling, answering JSON as text. Only the
 * merchant endpoint has one; the adapter gives it requests whose small body is held in memory
 * (KNOWN_BODY) instead of streamed.
 */
export type AnswerHandler = (request: Request, context: RequestContext) => Promise<Response | JsonAnswer>;

const ANSWER_ENTRY: unique symbol = Symbol('pg-checkout answer entry');

/** `handler`, carrying `entry` for the Node adapter. */
export function withAnswerEntry<Handler extends object>(handler: Handler, entry: AnswerHandler): Handler {
  return Object.assign(handler, { [ANSWER_ENTRY]: entry });
}

/** The answer entry `handler` carries, if any. */
export function answerEntryOf(handler: object): AnswerHandler | undefined {
  return (handler as { [ANSWER_ENTRY]?: AnswerHandler })[ANSWER_ENTRY];
}

/** A 303 See Other: the browser follows it with a GET, whatever method brought it here. */
export function redirectResponse(location: string): Response {
  return new Response(null, { status: 303, headers: { location, ...SECURITY_HEADERS } });
}

/**
 * The body as text, refused with `body_too_large` as soon as it passes `maxBytes` (by its
 * Content-Length or while it streams in, whichever shows it first).
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  try {
    return await readLimitedText(request, maxBytes, { fatal: true });
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new EndpointRefusal('body_too_large');
    if (error instanceof BodyNotUtf8) throw new EndpointRefusal('invalid_json');
    throw error;
  }
}

/** How deep a JSON body may nest; the contract's deepest body (financing products) needs 3. */
export const MAX_JSON_DEPTH = 32;

/**
 * Refuses a body whose objects and arrays nest deeper than `maxDepth`, counted over the text in
 * one pass without recursion, before JSON.parse or any walk over the parsed value.
 */
export function assertJsonDepth(text: string, maxDepth: number = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      depth++;
      if (depth > maxDepth) throw new EndpointRefusal('json_too_deep');
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      depth--;
    }
  }
}

/**
 * Refuses a request whose Content-Type is not `application/json` (415). A `charset` parameter is
 * allowed when it says UTF-8, the only encoding a JSON body may use between systems.
 */
export function assertJsonContentType(request: Request): void {
  const [type = '', ...parameters] = (request.headers.get('content-type') ?? '').split(';');
  const utf8 = (parameter: string): boolean => {
    if (parameter.trim() === '') return true;
    const [name = '', value = ''] = parameter.split('=');
    return name.trim().toLowerCase() === 'charset' && value.trim().replace(/^"(.*)"$/, '$1').toLowerCase() === 'utf-8';
  };
  if (type.trim().toLowerCase() !== 'application/json' || !parameters.every(utf8)) {
    throw new EndpointRefusal('unsupported_media_type', { field: 'content-type' });
  }
}

/**
 * The value of cookie `name` in the request's Cookie header, or undefined: what a `resolveOrder`
 * reads to tell whose session a request comes from (see OrderLookup).
 */
export function requestCookie(request: { readonly headers: Headers }, name: string): string | undefined {
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/** The entries of an Accept-style header (`text/html;q=0.9, …`): each value, lower case, with its quality (1 unless told). */
function weightedValues(header: string): { readonly value: string; readonly quality: number }[] {
  return header.split(',').map((part) => {
    const [value = '', ...params] = part.trim().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((found) => found !== undefined);
    return { value: value.trim().toLowerCase(), quality: q === undefined ? 1 : Number(q) };
  });
}

/** `ar` when the browser prefers Arabic over English, else `en`. */
export function languageFromHeaders(request: { readonly headers: Headers }): Language {
  let best: { language: Language; quality: number } | undefined;
  for (const { value, quality } of weightedValues(request.headers.get('accept-language') ?? '')) {
    const primary = value.split('-')[0];
    if (!isLanguage(primary)) continue;
    if (!best || quality > best.quality) best = { language: primary, quality };
  }
  return best && best.quality > 0 ? best.language : 'en';
}

/**
 * True when the request's Accept header names JSON and prefers it to HTML: a script's call. A
 * browser navigating (a form post, the gateway's return) asks for HTML first, or names neither.
 */
export function asksForJson(request: { readonly headers: Headers }): boolean {
  let json = 0;
  let html = 0;
  for (const { value, quality } of weightedValues(request.headers.get('accept') ?? '')) {
    if (value === 'application/json') json = Math.max(json, quality);
    else if (value === 'text/html') html = Math.max(html, quality);
  }
  return json > 0 && json >= html;
}

/**
 * The customer's IP for `customer_ip`. With `trustedProxyHops` = N > 0 the address N entries from
 * the right of X-Forwarded-For (what the outermost trusted proxy saw); otherwise the runtime's
 * peer address. X-Forwarded-For is never read unless proxies are configured: a browser can send it.
 */
export function clientAddress(request: Request, context: RequestContext, trustedProxyHops: number): string | undefined {
  if (trustedProxyHops > 0) {
    const forwarded = (request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const entry = forwarded[forwarded.length - trustedProxyHops];
    if (entry) return entry;
  }
  const peer = context.clientAddress?.trim();
  // An IPv4 peer on a dual-stack socket shows as ::ffff:203.0.113.5.
  return peer ? peer.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '') : undefined;
}

// ---- CORS ----

export interface OriginPolicy {
  readonly allowedOrigins: ReadonlySet<string>;
  /** The origin of `publicUrl`: pages served from it are same-origin. */
  readonly publicOrigin: string;
}

/**
 * Allowed: no Origin header (not a browser's cross-site call), the endpoint's public origin, or a
 * configured one. The origin of the request URL is not trusted on its own: it comes from the Host
 * header, which a DNS-rebinding page controls.
 */
export function isOriginAllowed(request: Request, policy: OriginPolicy): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return true;
  return origin === policy.publicOrigin || policy.allowedOrigins.has(origin);
}

/** True for an allowed cross-origin caller: one that CORS headers are sent to. */
export function isCorsCaller(request: Request, policy: OriginPolicy): boolean {
  const origin = request.headers.get('origin');
  return origin !== null && policy.allowedOrigins.has(origin);
}

/** CORS headers for an allowed cross-origin caller (none for same-origin callers). */
export function corsHeaders(request: Request, policy: OriginPolicy): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null || !policy.allowedOrigins.has(origin)) return {};
  // Retry-After (a 429) is not a CORS-safelisted header: the element could not read it otherwise.
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'retry-after', vary: 'Origin' };
}

/** The answer to an allowed preflight. No credentials: the endpoint keeps no session. */
export function preflightResponse(request: Request, policy: OriginPolicy): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(request, policy),
      'access-control-allow-methods': 'POST, OPTIONS',
      // The elements' order token (docs/standalone.md): a standalone endpoint passes it on to the shop.
      'access-control-allow-headers': `content-type, accept-language, ${ORDER_TOKEN_HEADER}`,
      'access-control-max-age': '600',
      ...SECURITY_HEADERS,
    },
  });
}

/** A JSON object from a body's text: nested no deeper than the limit, an object (not a list or a scalar), else `invalid_json`. */
export function parseJsonObject(text: string): Record<string, unknown> {
  assertJsonDepth(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EndpointRefusal('invalid_json');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new EndpointRefusal('invalid_json');
  return body as Record<string, unknown>;
}
