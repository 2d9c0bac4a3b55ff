/**
 * A loopback static file server for the benchmark pages, with an optional handler for API routes
 * (the merchant endpoint, or a stub) under a path prefix. No caching headers: every load in a
 * fresh browser context is a cold load.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  readonly origin: string;
  close(): Promise<void>;
}

export interface StaticServerOptions {
  readonly root: string;
  /** Requests whose path starts with `prefix` go to `listener` instead of the file system. */
  readonly api?: { readonly prefix: string; readonly listener: RequestListener };
  /**
   * Send files gzip-compressed (level 9, as the size figures count them) to a browser that accepts
   * it, as a production server or CDN would; off by default (the first-render section's loopback
   * loads are not limited by bytes).
   */
  readonly gzip?: boolean;
}

async function serveFile(root: string, request: IncomingMessage, response: ServerResponse, gzip: boolean): Promise<void> {
  const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname));
  if (path.includes('..')) {
    response.writeHead(400).end();
    return;
  }
  try {
    const body = await readFile(join(root, path));
    const compress = gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      ...(compress ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
    });
    response.end(compress ? gzipSync(body, { level: 9 }) : body);
  } catch {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
}

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    const api = options.api;
    if (api && (request.url ?? '').startsWith(api.prefix)) {
      api.listener(request, response);
      return;
    }
    serveFile(options.root, request, response, options.gzip ?? false).catch(() => response.writeHead(500).end());
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
