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
  ConfigError,
  ENV_VARIABLES,
  type ConfigProblem,
  type EndpointConfig,
  type EnvConfig,
  type InstallmentsChoice,
  type IssuedBill,
  type SavedCard,
  type VerifiedResult,
  FRAMED_RETURN_PARAMETER,
} from './config.ts';
export {
  InMemoryOrderStore,
  type MerchantOrder,
  type OrderLookup,
  type RecordableResult,
  type ResolveOrder,
} from './orders.ts';
export { requestCookie } from './http.ts';
export type { OrderState, OrderStatus } from '../core/order-status.ts';
export { InMemoryResultLedger, type LedgerEntry, type ResultLedger } from './result-ledger.ts';
export { InMemoryRateLimiter, type InMemoryRateLimiterOptions, type RateLimitDecision, type RateLimiter } from './rate-limit.ts';
export { createJsonLogger, silentLogger, type Logger, type LogData } from '../log/logger.ts';
export { ERROR_MESSAGES, ERROR_STATUS } from './errors.ts';
export { MERCHANT_PARAMETER_PREFIX } from './gateway-return.ts';
export { COMPLETION_FIELDS, SAVE_CARD_COMPLETION } from './routes-payment-pages.ts';
export { toNodeListener, createNodeServer, type NodeListenerOptions } from './node.ts';
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
  type OrderLookupRequest,
  type ResultWebhook,
  type ShopOrder,
} from './shop-protocol.ts';
// The back-office client (`pg-checkout/gateway`), for the merchant's server: capture, refund, status, reports, batches.
export * from '../gateway/index.ts';
