/**
 * `pg-checkout serve`: the merchant endpoint from `PG_*` environment variables on a Node server,
 * on loopback by default. Other handlers (the sandbox gateway, a demo page) can share the port
 * through `mount`.
 *
 * As a standalone service beside a shop written in any language: orders come from the shop's
 * back end (`PG_ORDER_URL`), each verified result goes to it by webhook (`PG_RESULT_WEBHOOK_URL`)
 * from an outbox that keeps it until the shop acknowledges it, the shop can list and acknowledge
 * results itself (results routes), and without `PG_RESULT_URL` the customer lands on the service's
 * own result page. Without `PG_ORDER_URL` it serves its demo orders. See docs/standalone.md.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configFromEnv, ConfigError, type EndpointConfig, type VerifiedResult } from './config.ts';
import { createNamedMerchantEndpoint, ENV_SETTING_NAMES, isEndpointPath, type MerchantEndpoint } from './endpoint.ts';
import type { RequestContext } from './http.ts';
import { createJsonLogger, redactingLogger, type Logger } from '../log/logger.ts';
import { createNodeServer } from './node.ts';
import { createHttpOrderSource } from './order-source.ts';
import { InMemoryOrderStore, type MerchantOrder, type ResolveOrder } from './orders.ts';
import type { RateLimiter } from './rate-limit.ts';
import { createResultPage } from './result-page.ts';
import { createGatewayClient } from '../gateway/client.ts';
import { connectionOf } from '../gateway/settings.ts';
import { monitoredStore, type MonitoredStore } from '../store/monitored.ts';
import { openStore, redactDatabaseUrl } from '../store/open.ts';
import { StoreUnavailableError, type Store } from '../store/store.ts';
import { createHealthRoute } from './health.ts';
import { createResultProofs } from './result-proof.ts';
import { createReconciler, orderLookupOf, type Reconciler } from './reconciler.ts';
import { recordAndReport } from './results.ts';
import { createResultWebhook, type ResultWebhookSender } from './result-webhook.ts';
import { createResultsRoutes } from './results-routes.ts';
import { ShopAvailability } from './shop-client.ts';
import { SERVICE_ROUTES } from './shop-protocol.ts';
import { StartupError } from './errors.ts';

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
  /** The order store when no `PG_ORDER_URL` is set (default: a store holding DEMO_ORDERS). */
  readonly orders?: InMemoryOrderStore;
  /**
   * The store (default: opened from PG_DATA_DIR / PG_DATABASE_URL: SQLite in a file, or
   * PostgreSQL shared by several instances). `createMemoryStore()` for tests that want nothing kept.
   * A store passed in is the caller's to close.
   */
  readonly store?: Store;
  /** The reconciler's pace: questions per minute across all watched payments (default 60). */
  readonly reconcileQuestionsPerMinute?: number;
  /** How often the reconciler looks for due watches (default every 5 s). */
  readonly reconcilePollIntervalMs?: number;
  /**
   * Counts the OTPs sent per phone number and order (default: the store's counters). Give several
   * instances one shared limiter (see rate-limit.ts).
   */
  readonly otpSendLimiter?: RateLimiter;
  /** Counts the OTPs sent per phone number, whatever the order (default: the store's counters). */
  readonly otpPhoneLimiter?: RateLimiter;
  /** Waits of the webhook's retries (default: 2 s doubling to 5 minutes, looked for every second). */
  readonly webhookRetry?: { readonly firstRetryMs?: number; readonly maxRetryMs?: number; readonly pollIntervalMs?: number };
  /** Retries of an order lookup the shop did not answer (default 2, the first after 200 ms). */
  readonly orderLookupRetry?: { readonly retries?: number; readonly retryDelayMs?: number };
  /** The clock (default `new Date()`), for hook signatures and retry times. */
  readonly now?: () => Date;
  /** Handlers for paths that are not the endpoint's, asked in order (e.g. the sandbox gateway). */
  readonly mount?: readonly MountedHandler[];
  /** Logs (default: JSON lines on standard output). */
  readonly logger?: Logger;
  /**
   * Called with each verified result after the store has recorded it. A hook that throws is logged
   * (`result_hook_failed`) and not called again for that result, which the webhook delivers all the same.
   */
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
  /** The demo order store; undefined when orders come from `PG_ORDER_URL`. */
  readonly orders: InMemoryOrderStore | undefined;
  /** Every result recorded (and which ones the shop has not acknowledged), the watched payments, the OTP counts. */
  readonly store: MonitoredStore;
  /** Asks the gateway about watched payments; runs in the background. */
  readonly reconciler: Reconciler;
  readonly endpoint: MerchantEndpoint;
  /**
   * Stops as a deploy wants it: takes no new connection (a load balancer's next health check is
   * refused, and it sends the traffic elsewhere), closes the idle kept-alive ones, answers the
   * requests under way with `Connection: close` once they finish, and stops the reconciler and the
   * webhook sender after their current question or delivery; what is still running after
   * `graceMs` (default `PG_SHUTDOWN_GRACE_SECONDS`) is cut. Then the store is closed. Nothing is
   * lost by a cut: a call that may have moved money is watched before it is sent, and a result is
   * committed before anyone is told of it. Answers how many requests were cut. Calling it again
   * answers the same stop.
   */
  close(options?: { readonly graceMs?: number }): Promise<{ readonly cut: number }>;
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
  if (config.orderUrl !== undefined && options.orders !== undefined) {
    throw new ConfigError([{ name: 'PG_ORDER_URL', message: 'is set, so the orders option cannot be used as well' }]);
  }
  const orders = config.orderUrl === undefined ? (options.orders ?? new InMemoryOrderStore(DEMO_ORDERS)) : undefined;
  const logger = options.logger ?? createJsonLogger((line) => process.stdout.write(`${line}\n`));
  const log = redactingLogger(logger);
  const now = options.now ?? (() => new Date());
  const ownStore = options.store === undefined;
  const store = monitoredStore(options.store ?? (await openStore({ ...config.store, log })), log);
  const results = store.results;
  const availability = new ShopAvailability(log, now);
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const shopCall = (url: string, secret: string) => ({ url, secret, timeoutMs: config.hookTimeoutMs, fetch: fetchImpl, now });
  const resolveOrder: ResolveOrder = orders
    ? orders.resolve
    : createHttpOrderSource({
        ...shopCall(config.orderUrl ?? '', config.hookSecret ?? ''),
        forwardHeaders: config.orderForwardHeaders,
        ...options.orderLookupRetry,
        orderMemory: store.orders,
        log,
        availability,
      });
  const webhook: ResultWebhookSender | undefined =
    config.resultWebhookUrl === undefined
      ? undefined
      : createResultWebhook({
          ...shopCall(config.resultWebhookUrl, config.hookSecret ?? ''),
          ...options.webhookRetry,
          results,
          log,
          availability,
        });
  // The back-office client of the reconciler and the health route: the same path to the gateway as the endpoint's.
  // Ten seconds a question: a round of the reconciler must fit in its claim (reconciler.ts).
  const gateway = createGatewayClient({ ...connectionOf(config), fetch: fetchImpl, retry: false, timeoutMs: 10_000, logger: log, now });
  // The service's own result page shows an order's outcome only with the proof its return signed.
  const proofs = createResultProofs({ requestPhrase: config.requestPhrase, merchantIdentifier: config.merchantIdentifier, now });
  const serviceHandlers = [
    createResultsRoutes({ results, secret: config.hookSecret, basePath: config.basePath, log, now }),
    createResultPage({ results, proofs, basePath: config.basePath, shopUrl: config.shopUrl }),
    createHealthRoute({ store, gateway, basePath: config.basePath, now, log, token: config.healthToken }),
  ];
  // Every result, from a return or from the reconciler: committed, then the shop's copy of the
  // order, then the webhook (at once; a failed delivery stays due in the store), then the caller's hook.
  // Nothing here throws: the committed row is what the webhook delivers and what the result page
  // and the results routes read, and a report that failed would have it released (results.ts).
  const onResult = async (result: VerifiedResult, request?: Request): Promise<void | Response> => {
    const named = { merchant_reference: result.merchant_reference, idempotency_key: result.idempotency_key };
    orders?.recordResult(result);
    try {
      await webhook?.deliverNow(result.idempotency_key);
    } catch (error) {
      // Still due in the store (or held for the claim of the delivery cut short): the background sender delivers it.
      if (error instanceof StoreUnavailableError) log.warn('result_delivery_deferred', { ...named, reason: error.reason });
      else log.error('result_delivery_failed', { ...named, error });
    }
    try {
      return await options.onResult?.(result, request);
    } catch (error) {
      log.error('result_hook_failed', { ...named, error });
      return undefined;
    }
  };
  const reconciler = createReconciler({
    store,
    gateway,
    log,
    now,
    settings: { intervalSeconds: config.reconcileIntervalSeconds, authorizationHoldDays: config.authorizationHoldDays },
    ...(options.reconcileQuestionsPerMinute === undefined ? {} : { questionsPerMinute: options.reconcileQuestionsPerMinute }),
    ...(options.reconcilePollIntervalMs === undefined ? {} : { pollIntervalMs: options.reconcilePollIntervalMs }),
    // A payment found holding money is checked against the order as the shop has it now (the
    // same lookup as the return's: PG_ORDER_URL, remembered for a day while the shop is down; or
    // the demo orders), not only against the amount the watch kept when the form was signed.
    orderOf: orderLookupOf(resolveOrder),
    report: async (result) => {
      await recordAndReport(result, { ledger: results, onResult, log, now });
    },
  });
  let endpoint: MerchantEndpoint | undefined;

  const handler = async (request: Request, context: RequestContext = {}): Promise<Response> => {
    if (!endpoint) return new Response('starting', { status: 503 });
    if (!isEndpointPath(new URL(request.url).pathname, config.basePath)) {
      for (const mounted of [...serviceHandlers, ...(options.mount ?? [])]) {
        const answered = await mounted(request, context);
        if (answered) return answered;
      }
    }
    return endpoint(request, context);
  };
  // A mounted handler that throws, or an answer that cannot be written: one log line and a 500.
  const server = await createNodeServer(handler, { onError: (error) => log.error('internal_error', { error }) });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        const reason =
          error.code === 'EADDRINUSE' ? 'is already in use' : `cannot be listened on (${error.code ?? error.message})`;
        reject(new StartupError(`PG_PORT / PG_HOST: ${config.host}:${config.port} ${reason}`));
      });
      server.listen(config.port, config.host, resolve);
    });
  } catch (error) {
    // Nothing was served: the store this call opened is closed again (a pool would keep the process alive).
    if (ownStore) await store.close();
    throw error;
  }

  const { port } = server.address() as AddressInfo;
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const host = wildcard ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  const publicUrl = (config.publicUrl ?? url).replace(/\/+$/, '');
  const pruneTimer = setInterval(() => void prune(store, config.retentionDays, now, log), PRUNE_INTERVAL_MS);
  (pruneTimer as { unref?: () => void }).unref?.();
  // Once stopping: the requests under way, told apart from the kept-alive connections that carry none.
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_incoming: IncomingMessage, outgoing: ServerResponse) => {
    inFlight.add(outgoing);
    if (draining && !outgoing.headersSent) outgoing.setHeader('connection', 'close');
    outgoing.once('close', () => {
      inFlight.delete(outgoing);
      if (draining) server.closeIdleConnections();
    });
  });
  const shutDown = async (graceMs: number): Promise<{ cut: number }> => {
    draining = true;
    clearInterval(pruneTimer);
    log.info('stopping', { in_flight: inFlight.size, grace_ms: graceMs });
    for (const outgoing of inFlight) if (!outgoing.headersSent) outgoing.setHeader('connection', 'close');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const finished = await settledWithin(Promise.all([closed, reconciler.stop(), webhook?.stop()]), graceMs);
    const cut = finished === 'late' ? inFlight.size : 0;
    if (finished === 'late') {
      log.warn('stop_deadline', { cut, grace_ms: graceMs });
      server.closeAllConnections();
      await closed;
    }
    // A database that hangs (a query of cut work never answered) does not keep the process from ending.
    if (ownStore) {
      const storeClosed = store.close().catch((error: unknown) => log.error('store_close_failed', { error }));
      if ((await settledWithin(storeClosed, STORE_CLOSE_MS)) === 'late') log.warn('store_close_late', { after_ms: STORE_CLOSE_MS });
    }
    log.info('stopped', { cut });
    return { cut };
  };
  let stopping: Promise<{ cut: number }> | undefined;
  const close = (options: { readonly graceMs?: number } = {}) =>
    (stopping ??= shutDown(options.graceMs ?? config.shutdownGraceSeconds * 1000));
  try {
    // Built from the environment: its log hints name the PG_* variables.
    endpoint = createNamedMerchantEndpoint({
      ...config,
      publicUrl,
      resolveOrder,
      // Without a result page of the shop's, the customer lands on the service's own.
      resultUrl: config.resultUrl ?? `${publicUrl}${config.basePath}${SERVICE_ROUTES.resultPage}`,
      store,
      ...(config.resultUrl === undefined ? { resultProofs: proofs } : {}),
      reconcile: { intervalSeconds: config.reconcileIntervalSeconds, authorizationHoldDays: config.authorizationHoldDays },
      ...(options.otpSendLimiter ? { otpSendLimiter: options.otpSendLimiter } : {}),
      ...(options.otpPhoneLimiter ? { otpPhoneLimiter: options.otpPhoneLimiter } : {}),
      logger,
      fetch: fetchImpl,
      onResult,
    }, ENV_SETTING_NAMES);
  } catch (error) {
    await close();
    throw error;
  }
  webhook?.start();
  reconciler.start();
  void prune(store, config.retentionDays, now, log);
  logger.info('listening', {
    url,
    endpoint: `${publicUrl}${config.basePath}`,
    // Pages on other origins that may call it (PG_ALLOWED_ORIGINS); pages of the endpoint's own origin always may.
    allowed_origins: config.allowedOrigins,
    orders: orders ? `demo orders in memory (${orders.list().length}); set PG_ORDER_URL to ask the shop` : 'PG_ORDER_URL',
    results: webhook
      ? 'PG_RESULT_WEBHOOK_URL'
      : config.hookSecret
        ? 'kept in the store for the results routes and pg-checkout results'
        : 'kept in the store for pg-checkout results (set PG_RESULT_WEBHOOK_URL and PG_HOOK_SECRET to hand them to the shop)',
    result_page: config.resultUrl === undefined ? `${publicUrl}${config.basePath}${SERVICE_ROUTES.resultPage}` : 'PG_RESULT_URL',
    store: store.engine === 'postgres' ? `postgres ${redactDatabaseUrl(store.location)}` : `${store.engine} ${store.location}`,
    reconcile_interval_seconds: config.reconcileIntervalSeconds,
    retention_days: config.retentionDays,
  });
  return {
    url,
    endpointUrl: `${publicUrl}${config.basePath}`,
    server,
    orders,
    store,
    reconciler,
    endpoint,
    close,
  };
}

/** How long a stopping service waits for its store to close. */
const STORE_CLOSE_MS = 2_000;

/** Whether `promise` settled within `ms` (a rejection is its caller's to handle); the timer does not outlive it. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<'settled' | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    return await Promise.race([promise.then(() => 'settled' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How often acknowledged results, ended watches and old remembered orders are pruned. */
const PRUNE_INTERVAL_MS = 3600_000;
/** Orders are remembered for a return while the shop is down for a day. */
const ORDER_MEMORY_MS = 24 * 3600_000;

async function prune(store: Store, retentionDays: number, now: () => Date, log: Logger): Promise<void> {
  const at = now();
  const cutoff = new Date(at.getTime() - retentionDays * 24 * 3600_000);
  try {
    const pruned = await store.prune({ acknowledgedBefore: cutoff, endedBefore: cutoff, ordersBefore: new Date(at.getTime() - ORDER_MEMORY_MS), now: at });
    if (pruned.results + pruned.watches + pruned.orders > 0) log.info('store_pruned', { ...pruned, retention_days: retentionDays });
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) log.error('store_prune_failed', { error });
  }
}
