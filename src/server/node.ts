/**
 * The Node adapter: a fetch-style handler as a `node:http` request listener. The socket's peer
 * address reaches the handler as `context.clientAddress` (never through a header a browser could
 * forge). `node:http` itself is loaded only by `createNodeServer`, so importing
 * `pg-checkout/server` stays possible on runtimes without Node's modules.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { RequestContext } from './http.ts';

/** Any fetch-style handler: the merchant endpoint, or one that mounts it beside other routes. */
export type FetchHandler = (request: Request, context?: RequestContext) => Promise<Response> | Response;

export interface NodeListenerOptions {
  /** Told about a handler that threw (the endpoint never does; a wrapping handler might). */
  readonly onError?: (error: unknown) => void;
}

/** `http.createServer(toNodeListener(handler))`. */
export function toNodeListener(
  handler: FetchHandler,
  options: NodeListenerOptions = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  return (incoming, outgoing) => {
    void answer(handler, incoming, outgoing).catch((error: unknown) => {
      options.onError?.(error);
      if (!outgoing.headersSent) {
        outgoing.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        outgoing.end(JSON.stringify({ error: { code: 'internal_error', message: 'Internal error' } }));
      } else {
        outgoing.destroy();
      }
    });
  };
}

async function answer(handler: FetchHandler, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const request = toRequest(incoming, outgoing);
  const response = await handler(request, { clientAddress: incoming.socket.remoteAddress });
  outgoing.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') outgoing.setHeader(name, value);
  });
  if (cookies.length > 0) outgoing.setHeader('set-cookie', cookies);
  if (response.body && incoming.method !== 'HEAD') {
    const reader = response.body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) outgoing.write(next.value);
  }
  outgoing.end();
}

function toRequest(incoming: IncomingMessage, outgoing: ServerResponse): Request {
  const encrypted = (incoming.socket as { encrypted?: boolean }).encrypted === true;
  const url = new URL(incoming.url ?? '/', `${encrypted ? 'https' : 'http'}://${incoming.headers.host ?? 'localhost'}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const controller = new AbortController();
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) controller.abort();
  });
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
  if (hasBody) {
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
  }
  return new Request(url, init);
}

/** A `node:http` server (not yet listening) that answers every request with `handler`. */
export async function createNodeServer(handler: FetchHandler, options: NodeListenerOptions = {}): Promise<Server> {
  const http = await import('node:http');
  return http.createServer(toNodeListener(handler, options));
}
