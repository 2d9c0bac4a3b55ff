/**
 * Reading a body within a size limit, for every reader of a message from outside: the client's
 * answers from the gateway, the endpoint's requests from browsers, the service's answers from the
 * shop. The limit is checked against the declared Content-Length first and then while the body
 * streams in, so an oversized body is never held whole.
 */

/** The body is longer than the limit (declared or read). */
export class BodyTooLarge extends Error {
  constructor() {
    super('the body is larger than allowed');
    this.name = 'BodyTooLarge';
  }
}

/** The body is not valid UTF-8 (only with `fatal: true`). */
export class BodyNotUtf8 extends Error {
  constructor() {
    super('the body is not valid UTF-8');
    this.name = 'BodyNotUtf8';
  }
}

/**
 * The key of a body that is already in memory, handed over once instead of streamed: the Node
 * adapter reads a small request whole before the endpoint runs, and a stream to carry it from one
 * to the other costs more than the endpoint's whole route (bench/endpoint.ts). Undefined once the
 * body has been taken, or when it is only available as a stream.
 */
export const KNOWN_BODY: unique symbol = Symbol('pg-checkout known body');

/** A request or a response: what carries a body. */
export interface BodySource {
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly [KNOWN_BODY]?: () => Uint8Array | undefined;
}

/**
 * The body as UTF-8 text, or BodyTooLarge as soon as it passes `maxBytes`. With `fatal`, bytes
 * that are not UTF-8 throw BodyNotUtf8 instead of reading as U+FFFD. Errors of the stream itself
 * (a reset connection, an abort) pass through unchanged.
 */
export async function readLimitedText(source: BodySource, maxBytes: number, options: { readonly fatal?: boolean } = {}): Promise<string> {
  const declared = Number(source.headers.get('content-length'));
  const decoder = new TextDecoder('utf-8', { fatal: options.fatal ?? false });
  const known = source[KNOWN_BODY]?.();
  if (known !== undefined) {
    if ((Number.isFinite(declared) && declared > maxBytes) || known.byteLength > maxBytes) throw new BodyTooLarge();
    return decode(decoder, known) + decode(decoder);
  }
  if (Number.isFinite(declared) && declared > maxBytes) {
    await source.body?.cancel().catch(() => {});
    throw new BodyTooLarge();
  }
  if (!source.body) return '';
  const reader = source.body.getReader();
  let text = '';
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge();
    }
    text += decode(decoder, value);
  }
  return text + decode(decoder);
}

function decode(decoder: TextDecoder, chunk?: Uint8Array): string {
  try {
    return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
  } catch {
    throw new BodyNotUtf8();
  }
}
