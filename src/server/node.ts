/**
 * The Node adapter: a fetch-style handler as a `node:http` request listener. The socket's peer
 * address reaches the handler as `context.clientAddress` (never through a header a browser could
 * forge). `node:http` itself is loaded only by `createNodeServer`, so importing
 * `pg-checkout/server` stays possible on runtimes without Node's modules.
 *
 * What a `Request` cannot carry is answered here, with the same JSON body and security headers as
 * every answer of the endpoint: a malformed Host header (400) and a method such as TRACE or
 * CONNECT (405). A handler that throws is reported to `onError` and answered 500.
 *
 * The merchant endpoint mounted on its own takes a shorter path (docs/architecture.md, "Node
 * adapter"): a small body reaches it as the bytes already read rather than as a stream, and its
 * JSON answers come back as text rather than as a `Response`. On Node 20 a body stream and its
 * reader cost about a tenth of the endpoint's route each way. Any other handler gets a `Request`
 * with its body and answers a `Response`.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Language } from '../core/language.ts';
import { KNOWN_BODY } from '../gateway/body.ts';
import { EndpointRefusal } from './errors.ts';
import { answerEntryOf, jsonAnswer, languageFromHeaders, type AnswerHandler, type JsonAnswer, type RequestContext } from './http.ts';

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
  const entry = answerEntryOf(handler);
  return (incoming, outgoing) => {
    void answer(handler, entry, incoming, outgoing).catch((error: unknown) => {
      options.onError?.(error);
      if (outgoing.headersSent) {
        outgoing.destroy();
        return;
      }
      writeAnswer(refusalAnswer(new EndpointRefusal('internal_error'), languageOf(incoming)), incoming, outgoing);
    });
  };
}

async function answer(
  handler: FetchHandler,
  entry: AnswerHandler | undefined,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const method = incoming.method ?? 'GET';
  if (!REQUEST_METHODS.includes(method)) {
    const refusal = new EndpointRefusal('method_not_allowed', { headers: { allow: REQUEST_METHODS.join(', ') } });
    return writeAnswer(refusalAnswer(refusal, languageOf(incoming)), incoming, outgoing);
  }
  const url = requestUrl(incoming);
  if (!url) {
    const refusal = new EndpointRefusal('invalid_request', { field: 'host', message: HOST_MESSAGE });
    return writeAnswer(refusalAnswer(refusal, languageOf(incoming)), incoming, outgoing);
  }
  const context = { clientAddress: incoming.socket.remoteAddress };
  if (entry) {
    const result = await entry(await toRequest(incoming, outgoing, url, method, 'in memory'), context);
    return result instanceof Response ? write(result, incoming, outgoing) : writeAnswer(result, incoming, outgoing);
  }
  return write(await handler(await toRequest(incoming, outgoing, url, method, 'as a body'), context), incoming, outgoing);
}

function refusalAnswer(refusal: EndpointRefusal, language: Language): JsonAnswer {
  return jsonAnswer(refusal.status, refusal.body(language), refusal.details.headers);
}

/** A JSON answer, written as a bare `node:http` handler writes one: no stream, the length known. */
function writeAnswer(answer: JsonAnswer, incoming: IncomingMessage, outgoing: ServerResponse): void {
  outgoing.statusCode = answer.status;
  for (const name of Object.keys(answer.headers)) outgoing.setHeader(name, answer.headers[name] as string);
  outgoing.end(incoming.method === 'HEAD' ? undefined : answer.text);
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

/** The request's headers as name/value pairs, each value of a repeated header its own pair. */
function headerPairs(incoming: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
    else pairs.push([name, value]);
  }
  return pairs;
}

/** The language of a refusal the adapter answers itself. */
function languageOf(incoming: IncomingMessage): Language {
  return languageFromHeaders({ headers: new Headers(headerPairs(incoming)) });
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
 * A `Request` whose `signal` aborts when the client goes away. The signal is the adapter's own,
 * made when first asked for: making a Request follow another signal costs more than the merchant
 * endpoint's whole route on Node 20 (a weak reference and a finalizer per request), and most
 * handlers never look at it.
 *
 * Its body may be held in memory (`known`) instead of given to `Request`: the endpoint takes it
 * through KNOWN_BODY, and every body member of `Request` reads it from a `Request` made on demand,
 * so what was read cannot be read again, as with any body.
 */
class NodeRequest extends Request {
  #controller: AbortController | undefined;
  #closedEarly = false;
  #known: Uint8Array<ArrayBuffer> | undefined;
  #taken = false;
  #whole: Request | undefined;

  constructor(url: URL, init: RequestInit, outgoing: ServerResponse, known?: Uint8Array<ArrayBuffer>) {
    super(url, init);
    this.#known = known;
    outgoing.once('close', () => {
      if (outgoing.writableFinished) return;
      this.#closedEarly = true;
      this.#controller?.abort();
    });
  }

  override get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#closedEarly) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** The body held in memory, once; undefined when it was taken or read another way, or streams. */
  [KNOWN_BODY](): Uint8Array | undefined {
    if (this.#known === undefined || this.#taken || this.#whole) return undefined;
    this.#taken = true;
    return this.#known;
  }

  /** The request with its body, for the body members: already read when the body was taken. */
  #withBody(): Request {
    if (this.#known === undefined) throw new Error('only a request whose body is held in memory has one made on demand');
    if (!this.#whole) {
      this.#whole = new Request(this.url, { method: this.method, headers: this.headers, body: this.#known });
      if (this.#taken) void this.#whole.arrayBuffer();
    }
    return this.#whole;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#known === undefined ? super.body : this.#withBody().body;
  }

  override get bodyUsed(): boolean {
    return this.#known === undefined ? super.bodyUsed : this.#taken || (this.#whole?.bodyUsed ?? false);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#known === undefined ? super.arrayBuffer() : this.#withBody().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#known === undefined ? super.blob() : this.#withBody().blob();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#known === undefined ? super.bytes() : this.#withBody().bytes();
  }

  override formData(): Promise<FormData> {
    return this.#known === undefined ? super.formData() : this.#withBody().formData();
  }

  override json(): Promise<unknown> {
    return this.#known === undefined ? super.json() : this.#withBody().json();
  }

  override text(): Promise<string> {
    return this.#known === undefined ? super.text() : this.#withBody().text();
  }

  override clone(): Request {
    return this.#known === undefined ? super.clone() : new Request(this.#withBody().clone(), { signal: this.signal });
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

/**
 * The request for the handler. A small body (every JSON route's) is read at once: given `as a
 * body` of the Request, or kept `in memory` for the merchant endpoint. A larger or undeclared one streams.
 */
async function toRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  url: URL,
  method: string,
  smallBody: 'as a body' | 'in memory',
): Promise<Request> {
  const init: RequestInit & { duplex?: 'half' } = { method, headers: headerPairs(incoming) };
  if (method === 'GET' || method === 'HEAD') return new NodeRequest(url, init, outgoing);
  const declared = Number(incoming.headers['content-length']);
  if (Number.isInteger(declared) && declared <= BUFFERED_BODY_BYTES) {
    const body = await readBody(incoming);
    const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
    if (smallBody === 'in memory') return new NodeRequest(url, init, outgoing, bytes);
    init.body = bytes;
    return new NodeRequest(url, init, outgoing);
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
  return new NodeRequest(url, init, outgoing);
}

/**
 * How long an idle keep-alive connection is kept open: longer than the idle timeout of the load
 * balancers a service runs behind (60 s for AWS's Application Load Balancer and Google's, nginx's
 * upstream keepalive_timeout 60 s), so that the balancer closes an idle connection first. With
 * Node's default 5 s, a balancer reusing a connection the service has just closed gets a reset,
 * and the customer's request a 502.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** A `node:http` server (not yet listening) that answers every request with `handler`. */
export async function createNodeServer(handler: FetchHandler, options: NodeListenerOptions = {}): Promise<Server> {
  const http = await import('node:http');
  const server = http.createServer(toNodeListener(handler, options));
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Longer than the keep-alive wait, as Node asks, so a request arriving as it ends is not cut.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return server;
}
