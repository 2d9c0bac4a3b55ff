/**
 * `pg-checkout serve`: the merchant endpoint from `PG_*` environment variables on a Node server,
 * on loopback by default, with an in-memory order store holding the demo orders. Other handlers
 * (the sandbox gateway, a demo page) can share the port through `mount`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configFromEnv, type EndpointConfig } from './config.ts';
import { createMerchantEndpoint, isEndpointPath, type MerchantEndpoint } from './endpoint.ts';
import type { RequestContext } from './http.ts';
import { createJsonLogger, redactingLogger, type Logger } from './logger.ts';
import { createNodeServer } from './node.ts';
import { InMemoryOrderStore, type MerchantOrder } from './orders.ts';

/** The orders `serve` starts with when it is given no store: one per kind of currency exponent. */
export const DEMO_ORDERS: readonly MerchantOrder[] = [
  {
    merchant_reference: 'demo-1001',
    amount: 250_000,
    currency: 'EGP',
    description: 'Noise-cancelling headphones',
    customer_email: 'customer@example.com',
  },
  { merchant_reference: 'demo-1002', amount: 19_900, currency: 'SAR', description: 'Leather wallet' },
  { merchant_reference: 'demo-1003', amount: 12_500, currency: 'KWD', description: 'Espresso machine' },
  { merchant_reference: 'demo-1004', amount: 4_500, currency: 'EGP', description: 'Phone case' },
];

/** A handler sharing the port; `undefined` means "not mine", and the next one is asked. */
export type MountedHandler = (
  request: Request,
  context: RequestContext,
) => Promise<Response | undefined> | Response | undefined;

export interface ServeOptions {
  /** The order store (default: a store holding DEMO_ORDERS). */
  readonly orders?: InMemoryOrderStore;
  /** Handlers for paths that are not the endpoint's, asked in order (e.g. the sandbox gateway). */
  readonly mount?: readonly MountedHandler[];
  /** Logs (default: JSON lines on standard output). */
  readonly logger?: Logger;
  /** Called with each verified result after the store has recorded it. */
  readonly onResult?: EndpointConfig['onResult'];
  /** Server-to-server fetch (default: globalThis.fetch). */
  readonly fetch?: typeof fetch;
}

export interface RunningServer {
  /** Where the server listens, e.g. http://127.0.0.1:8787. */
  readonly url: string;
  /** The endpoint's own URL (public URL plus base path), as the elements are given it. */
  readonly endpointUrl: string;
  readonly server: Server;
  readonly orders: InMemoryOrderStore;
  readonly endpoint: MerchantEndpoint;
  close(): Promise<void>;
}

/**
 * Reads the configuration (a ConfigError names every bad variable, no values), listens on
 * PG_HOST:PG_PORT (127.0.0.1:8787 by default) and resolves once the endpoint answers.
 */
export async function serve(
  env: Readonly<Record<string, string | undefined>>,
  options: ServeOptions = {},
): Promise<RunningServer> {
  const config = configFromEnv(env);
  const orders = options.orders ?? new InMemoryOrderStore(DEMO_ORDERS);
  const logger = options.logger ?? createJsonLogger((line) => process.stdout.write(`${line}\n`));
  let endpoint: MerchantEndpoint | undefined;

  const handler = async (request: Request, context: RequestContext = {}): Promise<Response> => {
    if (!endpoint) return new Response('starting', { status: 503 });
    if (!isEndpointPath(new URL(request.url).pathname, config.basePath)) {
      for (const mounted of options.mount ?? []) {
        const answered = await mounted(request, context);
        if (answered) return answered;
      }
    }
    return endpoint(request, context);
  };
  // A mounted handler that throws, or an answer that cannot be written: one log line and a 500.
  const log = redactingLogger(logger);
  const server = await createNodeServer(handler, { onError: (error) => log.error('internal_error', { error }) });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE' ? 'is already in use' : `cannot be listened on (${error.code ?? error.message})`;
      reject(new Error(`PG_PORT / PG_HOST: ${config.host}:${config.port} ${reason}`));
    });
    server.listen(config.port, config.host, resolve);
  });

  const { port } = server.address() as AddressInfo;
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const host = wildcard ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const publicUrl = config.publicUrl ?? url;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  try {
    endpoint = createMerchantEndpoint({
      ...config,
      publicUrl,
      resolveOrder: orders.resolve,
      logger,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      onResult: async (result, request) => {
        orders.recordResult(result);
        return options.onResult?.(result, request);
      },
    });
  } catch (error) {
    await close();
    throw error;
  }
  logger.info('listening', { url, endpoint: `${publicUrl}${config.basePath}`, orders: orders.list().length });
  return {
    url,
    endpointUrl: `${publicUrl.replace(/\/+$/, '')}${config.basePath}`,
    server,
    orders,
    endpoint,
    close,
  };
}
