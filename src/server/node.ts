/**
 * The Node adapter: a fetch-style handler as a `node:http` request listener. The socket's peer
 * address reaches the handler as `context.clientAddress` (never through a header a browser could
 * forge). `node:http` itself is loaded only by `createNodeServer`, so importing
 * `pg-checkout/server` stays possible on runtimes without Node's modules.
 *
 * What a `Request` cannot carry is answered here, with the same JSON body and security headers as
 * every answer of the endpoint: a malformed Host header (400) and a method such as TRACE or
 * CONNECT (405). A handler that throws is reported to `onError` and answered 500.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Language } from '../core/language.ts';
import { EndpointRefusal } from './errors.ts';
import { jsonResponse, languageFromHeaders, type RequestContext } from './http.ts';

/** Any fetch-style handler: the merchant endpoint, or one that mounts it beside other routes. */
export type FetchHandler = (request: Request, context?: RequestContext) => Promise<Response> | Response;

export interface NodeListenerOptions {
  /** Told about a handler that threw or an answer that could not be written (`serve` logs it). */
  readonly onError?: (error: unknown) => void;
}

/** Methods a `Request` can carry; TRACE, TRACK and CONNECT are forbidden by the Fetch standard. */
const REQUEST_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A host name, IPv4 address or bracketed IPv6 address, with an optional port. */
const HOST_HEADER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

const HOST_MESSAGE: Readonly<Record<Language, string>> = {
  en: 'host: the Host header is not a valid host name',
  ar: 'host: ترويسة Host ليست اسم مضيف صالحًا',
};

/** `http.createServer(toNodeListener(handler))`. */
export function toNodeListener(
  handler: FetchHandler,
  options: NodeListenerOptions = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  return (incoming, outgoing) => {
    void answer(handler, incoming, outgoing).catch((error: unknown) => {
      options.onError?.(error);
      if (outgoing.headersSent) {
        outgoing.destroy();
        return;
      }
      const language = languageFromHeaders({ headers: headersOf(incoming) });
      void write(refusalResponse(new EndpointRefusal('internal_error'), language), incoming, outgoing).catch(() =>
        outgoing.destroy(),
      );
    });
  };
}

async function answer(handler: FetchHandler, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const headers = headersOf(incoming);
  const language = languageFromHeaders({ headers });
  const method = incoming.method ?? 'GET';
  if (!REQUEST_METHODS.includes(method)) {
    const refusal = new EndpointRefusal('method_not_allowed', { headers: { allow: REQUEST_METHODS.join(', ') } });
    return write(refusalResponse(refusal, language), incoming, outgoing);
  }
  const url = requestUrl(incoming);
  if (!url) {
    const refusal = new EndpointRefusal('invalid_request', { field: 'host', message: HOST_MESSAGE });
    return write(refusalResponse(refusal, language), incoming, outgoing);
  }
  const request = await toRequest(incoming, outgoing, url, headers, method);
  return write(await handler(request, { clientAddress: incoming.socket.remoteAddress }), incoming, outgoing);
}

function refusalResponse(refusal: EndpointRefusal, language: Language): Response {
  return jsonResponse(refusal.status, refusal.body(language), refusal.details.headers);
}

async function write(response: Response, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  outgoing.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') outgoing.setHeader(name, value);
  });
  if (cookies.length > 0) outgoing.setHeader('set-cookie', cookies);
  if (!response.body || incoming.method === 'HEAD') {
    outgoing.end();
    return;
  }
  // A body of one chunk (every JSON answer) goes out in one write with its length; a longer one streams.
  const reader = response.body.getReader();
  let next = await reader.read();
  let chunk = next.done ? undefined : next.value;
  for (next = await reader.read(); !next.done; next = await reader.read()) {
    if (chunk) outgoing.write(chunk);
    chunk = next.value;
  }
  outgoing.end(chunk);
}

function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/** The request's URL from its target and Host header; undefined when the Host is not a host. */
function requestUrl(incoming: IncomingMessage): URL | undefined {
  const encrypted = (incoming.socket as { encrypted?: boolean }).encrypted === true;
  const host = incoming.headers.host ?? 'localhost';
  if (!HOST_HEADER.test(host)) return undefined;
  try {
    return new URL(incoming.url ?? '/', `${encrypted ? 'https' : 'http'}://${host}`);
  } catch {
    return undefined;
  }
}

/** Bodies up to this size, as declared, are read before the handler runs; larger or undeclared ones stream. */
const BUFFERED_BODY_BYTES = 64 * 1024;

/**
 * A `Request` whose `signal` aborts when the client goes away. The signal is the adapter's own
 * rather than one passed to the constructor: making a Request follow another signal costs more
 * than the merchant endpoint's whole route on Node 20 (a weak reference and a finalizer per request).
 */
class NodeRequest extends Request {
  readonly #signal: AbortSignal;

  constructor(url: URL, init: RequestInit, signal: AbortSignal) {
    super(url, init);
    this.#signal = signal;
  }

  override get signal(): AbortSignal {
    return this.#signal;
  }
}

/** The whole body of a request, as the connection delivers it. */
function readBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    incoming.on('error', reject);
  });
}

async function toRequest(incoming: IncomingMessage, outgoing: ServerResponse, url: URL, headers: Headers, method: string): Promise<Request> {
  const controller = new AbortController();
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method === 'GET' || method === 'HEAD') return new NodeRequest(url, init, controller.signal);
  const declared = Number(incoming.headers['content-length']);
  if (Number.isInteger(declared) && declared <= BUFFERED_BODY_BYTES) {
    // Small bodies (every JSON route's) in one piece: a stream per request costs more than the route.
    const body = await readBody(incoming);
    init.body = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
    return new NodeRequest(url, init, controller.signal);
  }
  const chunks = incoming[Symbol.asyncIterator]();
  init.body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      const next = (await chunks.next()) as IteratorResult<Uint8Array>;
      if (next.done) stream.close();
      else stream.enqueue(new Uint8Array(next.value));
    },
    // A body refused for its size is drained, not read: the 413 still reaches the browser.
    cancel() {
      incoming.resume();
    },
  });
  init.duplex = 'half';
  return new NodeRequest(url, init, controller.signal);
}

/** A `node:http` server (not yet listening) that answers every request with `handler`. */
export async function createNodeServer(handler: FetchHandler, options: NodeListenerOptions = {}): Promise<Server> {
  const http = await import('node:http');
  return http.createServer(toNodeListener(handler, options));
}
