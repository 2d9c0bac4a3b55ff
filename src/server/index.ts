/**
 * `pg-checkout/server`: the merchant endpoint. Everything that needs the access code or a SHA
 * phrase happens here, never in the browser. `createMerchantEndpoint` is a Web-standard handler
 * for any runtime; `toNodeListener`/`createNodeServer` mount it on `node:http`; `serve` is what
 * `pg-checkout serve` runs. See docs/endpoint.md. The back-office client of `pg-checkout/gateway`
 * (`createGatewayClient`) is exported here too: docs/back-office.md.
 */
export { createMerchantEndpoint, isEndpointPath, type MerchantEndpoint, type RequestContext } from './endpoint.ts';
export {
  configFromEnv,
  backOfficeConfigFromEnv,
  ConfigError,
  ENV_VARIABLES,
  type BackOfficeEnvConfig,
  type ConfigProblem,
  type EndpointConfig,
  type EnvConfig,
  type InstallmentsChoice,
  type IssuedBill,
  type IssuedBillDetails,
  type SavedCard,
  type VerifiedResult,
  FRAMED_RETURN_PARAMETER,
  DEFAULT_PAYMENT_COMMANDS,
} from './config.ts';
export {
  InMemoryOrderStore,
  PAYMENT_COMMANDS,
  type PaymentCommand,
  type MerchantOrder,
  type OrderLookup,
  type RecordableResult,
  type ResolveOrder,
} from './orders.ts';
export { requestCookie } from './http.ts';
export type { OrderState, OrderStatus } from '../core/order-status.ts';
export { InMemoryResultLedger, type LedgerEntry, type ResultLedger } from './result-ledger.ts';
export {
  InMemoryRateLimiter,
  storeRateLimiter,
  type InMemoryRateLimiterOptions,
  type RateLimitDecision,
  type RateLimiter,
} from './rate-limit.ts';
// The store: SQLite in a file, PostgreSQL for several instances, or memory (docs/endpoint.md, "The store").
export { openStore, storeLocationFromEnv, DEFAULT_DATA_DIR, type OpenStoreOptions, type StoreLocation } from '../store/open.ts';
export { createMemoryStore } from '../store/memory.ts';
export { monitoredStore, type MonitoredStore } from '../store/monitored.ts';
export type {
  NewWatch,
  OrderMemory,
  PaymentWatch,
  RateCounter,
  ResultFilter,
  ResultStore,
  Store,
  StoredResult,
  WatchKind,
  WatchStore,
} from '../store/store.ts';
export { StoreOpenError, StoreUnavailableError } from '../store/store.ts';
export { createReconciler, orderLookupOf, type PassSummary, type Reconciler, type ReconcilerOptions, type ReconcilerOrder, type ReconcilerOrderLookup } from './reconciler.ts';
export { recordAndReport, type ResultReporting } from './results.ts';
export { DEFAULT_RECONCILE_INTERVAL_SECONDS, DEFAULT_AUTHORIZATION_HOLD_DAYS, type WatchSettings } from './watches.ts';
export { createJsonLogger, silentLogger, type Logger, type LogData } from '../log/logger.ts';
export { ERROR_MESSAGES, ERROR_STATUS } from './errors.ts';
export { MERCHANT_PARAMETER_PREFIX } from './gateway-return.ts';
export { COMPLETION_FIELDS, SAVE_CARD_COMPLETION } from './routes-payment-pages.ts';
export { toNodeListener, createNodeServer, type NodeListenerOptions } from './node.ts';
export { firstScreenHtml, type FirstScreenOptions } from './first-screen.ts';
export { serve, DEMO_ORDERS, type ServeOptions, type RunningServer } from './serve.ts';
export {
  HOOK_SIGNATURE_HEADER,
  HOOK_TOLERANCE_SECONDS,
  signHookBody,
  verifyHookSignature,
  type HookVerification,
  type HookVerifyOptions,
} from './hook-signature.ts';
export {
  resultAcknowledgeRequest,
  resultsListRequest,
  resultWebhook,
  SERVICE_ROUTES,
  shopOrder,
  webhookTypeOf,
  type OrderLookupRequest,
  type ResultWebhook,
  type ShopOrder,
} from './shop-protocol.ts';
// The back-office client (`pg-checkout/gateway`), for the merchant's server: capture, refund, status, reports, batches.
export * from '../gateway/index.ts';
