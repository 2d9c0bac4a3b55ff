/**
 * Configuration of the merchant endpoint: the programmatic `EndpointConfig`, its checked and
 * completed form (`EndpointSettings`), and `configFromEnv` for `pg-checkout serve`. A bad
 * configuration stops start-up with one message naming every variable at fault; no message ever
 * carries a configured value, so a phrase can never be printed by mistake.
 */
import { field } from '../core/schemas/index.ts';
import { parseShaType, type ShaType } from '../core/signature.ts';
import { ORDER_TOKEN_HEADER, ROUTES, type BillResult } from '../core/endpoint-api.ts';
import { DEFAULT_GATEWAY_REFERENCE_FIELD, type GatewayReferenceField } from '../core/wire-names.ts';

export type { InstallmentsChoice, IssuedBillDetails, SavedCard, VerifiedResult } from '../core/verified-result.ts';
import type { VerifiedResult } from '../core/verified-result.ts';
import {
  apiRoot,
  checkConnection,
  ConfigError,
  connectionOf,
  gatewayReferenceField,
  identifier,
  type GatewayConnection,
  isLoopback,
  problemCollector,
  serviceUrl,
  trimSlash,
  wholeNumber,
  type Check,
  type ConfigProblem,
} from '../gateway/settings.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { isPaymentCommand, type PaymentCommand, type ResolveOrder } from './orders.ts';
import { InMemoryRateLimiter, storeRateLimiter, type RateLimiter } from './rate-limit.ts';
import { InMemoryResultLedger, type ResultLedger } from './result-ledger.ts';
import { monitoredStore, type MonitoredStore } from '../store/monitored.ts';
import type { Store, WatchStore } from '../store/store.ts';
import type { ResultProofs } from './result-proof.ts';
import { DEFAULT_DATA_DIR, storeLocationFromEnv, type StoreLocation } from '../store/open.ts';
import {
  DEFAULT_AUTHORIZATION_HOLD_DAYS,
  DEFAULT_RECONCILE_INTERVAL_SECONDS,
  DEFAULT_WATCH_SETTINGS,
  type WatchSettings,
} from './watches.ts';
import { MIN_HOOK_SECRET_LENGTH } from './hook-signature.ts';

/** A verified, issued cash bill, handed to `onBill` (the merchant holds the item until it expires). */
export interface IssuedBill extends BillResult {
  readonly gateway: Readonly<Record<string, unknown>>;
}

/** The endpoint's configuration: the connection to the gateway (identity, phrases, API host) and the rest. */
export interface EndpointConfig extends GatewayConnection {
  /** Host of the hosted payment page; forms post to `{checkoutUrl}/{apiRoot}/paymentPage`. */
  readonly checkoutUrl: string;
  /** Absolute URL where this endpoint is reachable from the customer's browser (origin and any prefix before basePath). */
  readonly publicUrl: string;
  /** Where the routes are mounted, e.g. `/pg`; default `''`. */
  readonly basePath?: string;
  /** Origins (`https://shop.example`) whose pages may call the endpoint; same-origin calls are always allowed. */
  readonly allowedOrigins?: readonly string[];
  /** The merchant's order: amount, currency and identity come from here, never from the browser. */
  readonly resolveOrder: ResolveOrder;
  /**
   * Called with every verified payment outcome. Return a Response to answer the customer's
   * browser yourself; otherwise the endpoint redirects to `resultUrl` (or answers JSON).
   */
  readonly onResult?: (result: VerifiedResult, request?: Request) => void | Response | Promise<void | Response>;
  /** Called when a cash bill is issued. */
  readonly onBill?: (bill: IssuedBill, request: Request) => void | Promise<void>;
  /** Where the customer is sent after a return, with `?merchant_reference=…&outcome=…`. */
  readonly resultUrl?: string;
  /**
   * The merchant's own parameters added to `return_url`, e.g. `{ pg_site: 'eg' }`. Names must
   * start with `pg_`: the return route leaves such parameters out of verification.
   */
  readonly returnParameters?: Readonly<Record<string, string>>;
  /** Server-to-server `fetch` (default `globalThis.fetch`); tests inject a fake gateway here. */
  readonly fetch?: typeof fetch;
  /** Structured logs (default: none). Everything passed to it is redacted again. */
  readonly logger?: Logger;
  /** Largest request body accepted, in bytes (default 16 KiB). */
  readonly maxBodyBytes?: number;
  /** The clock (default `new Date()`), for bill expiry and flow-token lifetime. */
  readonly now?: () => Date;
  /** How long a cash bill stays payable (default 48 hours). */
  readonly billLifetimeMinutes?: number;
  /** How long a financing step may wait for the next (default 15 minutes). */
  readonly flowLifetimeSeconds?: number;
  /**
   * Reverse proxies in front of the endpoint that append to `X-Forwarded-For` (default 0: the
   * header is ignored, since a browser can write anything into it).
   */
  readonly trustedProxyHops?: number;
  /** Time limit of one server-to-server call (default 30 s). */
  readonly gatewayTimeoutMs?: number;
  /**
   * Time limit of the CHECK_STATUS asked before a payment starts (a form signed, a bill issued,
   * financing started), which only keeps a paid order from being paid again (default 5 s, never
   * more than `gatewayTimeoutMs`). Unanswered by then, the payment starts, as when the gateway
   * cannot be reached: its duplicate-reference check still guards the order.
   */
  readonly orderCheckTimeoutMs?: number;
  /**
   * The durable store (`openStore` from PG_DATA_DIR / PG_DATABASE_URL, or `createMemoryStore()`):
   * results once per key, the payments watched after the customer leaves, the OTP send and try counts.
   * Without one, results and counts live in this process's memory and nothing is watched.
   */
  readonly store?: Store;
  /**
   * Signs a proof into the result URL (`proof`), for a result page that shows an order's outcome
   * only to the browser the gateway returned (the standalone service's own page does). Default none.
   */
  readonly resultProofs?: ResultProofs;
  /** The watch schedule (`PG_RECONCILE_INTERVAL_SECONDS`, the authorization hold): see watches.ts. */
  readonly reconcile?: Partial<WatchSettings>;
  /**
   * The results already reported, by idempotency key (default: the store's, else in this process's memory, bounded).
   * Give several instances one shared ledger (see result-ledger.ts) so a return is reported once.
   */
  readonly resultLedger?: ResultLedger;
  /** How many times one financing flow may ask for the OTP again (default 3; the first send is not a resend). */
  readonly otpResendsPerFlow?: number;
  /**
   * Counts every OTP sent, per phone number and order (default: in memory, 5 per 15 minutes).
   * Give several instances one shared limiter (see rate-limit.ts).
   */
  readonly otpSendLimiter?: RateLimiter;
  /**
   * Counts every OTP sent to a phone number, whatever the order (default: the store's counters,
   * else in memory; 10 per hour), so that creating many orders does not multiply the SMS one
   * number receives.
   */
  readonly otpPhoneLimiter?: RateLimiter;
  /**
   * Codes tried against one code sent (default 3, the element's `max-otp-attempts`), every try
   * counted before it reaches the gateway: past it the endpoint refuses (`otp_attempts_limited`,
   * 429) and the customer asks for a new code. Someone who typed another person's number could
   * otherwise guess that person's code until the partner's own lockout, if it has one.
   */
  readonly otpAttemptsPerCode?: number;
  /** Codes tried for one phone number in an hour, whatever the code or order (default 10): a ceiling across new codes. */
  readonly otpAttemptsPerPhone?: number;
  /**
   * Counts the tries of `otpAttemptsPerCode`, keyed by phone number, order and the code's
   * transaction_id (default: the store's counters, else in memory; a window of `flowLifetimeSeconds`,
   * which the code's flow token cannot outlive). Give several instances one shared limiter.
   */
  readonly otpAttemptLimiter?: RateLimiter;
  /** Counts the tries of `otpAttemptsPerPhone`, keyed by phone number (default: the store's counters, else in memory). */
  readonly otpPhoneAttemptLimiter?: RateLimiter;
  /**
   * Cards put to use for one order in an hour (default 10): each hosted payment page signed, each
   * charge completing a card taken on the merchant's page or the embedded page, each card saved.
   * Past it the endpoint refuses (`card_attempts_limited`, 429): stolen cards tried one after the
   * other on one order (card testing) cost the merchant fees and the account's standing.
   */
  readonly cardAttemptsPerHour?: number;
  /** Counts the cards of `cardAttemptsPerHour` (default: the store's counters, else in memory). */
  readonly cardAttemptLimiter?: RateLimiter;
  /**
   * `payment_partner` of the cash-voucher partner, as the gateway account names it. Without it the
   * bill route answers `service_not_configured` and signs nothing.
   */
  readonly voucherPartnerCode?: string;
  /**
   * `payment_option` of the consumer-financing partner, as the gateway account names it. Without it
   * the financing routes answer `service_not_configured` and sign nothing.
   */
  readonly financingPartnerCode?: string;
  /**
   * The account's Check 3-D Secure setting, sent as `check_3ds` with the server-to-server PURCHASE /
   * AUTHORIZATION that completes a merchant-page or embedded payment: `NO` asks the gateway to skip
   * the 3-D Secure check where its operations team activated that for the account. Unset: not sent.
   */
  readonly check3ds?: 'YES' | 'NO';
  /**
   * The account has CVV suppression: the order route says so to the elements, whose card form then
   * leaves the security code optional. What the gateway accepts is its own decision; default false.
   */
  readonly cvvSuppression?: boolean;
  /**
   * The payments the browser may ask for on the hosted page, the merchant page and the embedded
   * page (default `['PURCHASE']`): the first is used when it names none. An AUTHORIZATION only
   * holds the money, and reads as a success: a shop that ships on success and never captures is
   * paid nothing once the gateway voids the hold. So whether to take the money now or later is
   * the merchant's to allow, like the amount; an order's own `command` overrides this list.
   * Anything else asked for is refused (`command_refused`, 403) and nothing is signed.
   */
  readonly paymentCommands?: readonly PaymentCommand[];
}

/** `EndpointConfig` checked, with every default applied and every URL worked out. */
export interface EndpointSettings extends GatewayConnection {
  readonly gatewayReferenceField: GatewayReferenceField;
  readonly basePath: string;
  readonly allowedOrigins: ReadonlySet<string>;
  /** Origin of `publicUrl`: requests from it are same-origin even behind a proxy. */
  readonly publicOrigin: string;
  readonly paymentPageUrl: string;
  readonly paymentApiUrl: string;
  /** The `return_url` sent to the gateway. */
  readonly returnUrl: string;
  readonly resultUrl: string | undefined;
  readonly resolveOrder: ResolveOrder;
  readonly onResult: EndpointConfig['onResult'];
  readonly onBill: EndpointConfig['onBill'];
  readonly fetch: typeof fetch;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
  readonly now: () => Date;
  readonly billLifetimeMinutes: number;
  readonly flowLifetimeSeconds: number;
  readonly trustedProxyHops: number;
  readonly gatewayTimeoutMs: number;
  readonly orderCheckTimeoutMs: number;
  readonly resultLedger: ResultLedger;
  /** The store, watched for outages (log lines, 503), when one was given. */
  readonly store: MonitoredStore | undefined;
  /** Where payments to watch are written; undefined without a store. */
  readonly watches: WatchStore | undefined;
  readonly watchSettings: WatchSettings;
  readonly resultProofs: ResultProofs | undefined;
  readonly otpResendsPerFlow: number;
  readonly otpSendLimiter: RateLimiter;
  readonly otpPhoneLimiter: RateLimiter;
  readonly otpAttemptLimiter: RateLimiter;
  readonly otpPhoneAttemptLimiter: RateLimiter;
  readonly cardAttemptLimiter: RateLimiter;
  readonly voucherPartnerCode: string | undefined;
  readonly financingPartnerCode: string | undefined;
  readonly check3ds: 'YES' | 'NO' | undefined;
  readonly cvvSuppression: boolean;
  /** The payments the browser may ask for, the default first (an order's own `command` overrides them). */
  readonly paymentCommands: readonly PaymentCommand[];
}

/**
 * The `pg_` parameter the endpoint adds to the `return_url` it signs for a framed flow (embedded
 * page, merchant page in a hidden frame): the return then answers a page that tells the element
 * the outcome, instead of redirecting. A `pg_` parameter takes no part in verification.
 */
export const FRAMED_RETURN_PARAMETER = 'pg_frame';

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;
export const DEFAULT_BILL_LIFETIME_MINUTES = 48 * 60;
export const DEFAULT_FLOW_LIFETIME_SECONDS = 15 * 60;
export const DEFAULT_GATEWAY_TIMEOUT_MS = 30_000;
export const DEFAULT_ORDER_CHECK_TIMEOUT_MS = 5_000;
export const DEFAULT_OTP_RESENDS_PER_FLOW = 3;
/** OTPs sent per phone number and order in one window, first sends and resends alike. */
export const DEFAULT_OTP_SENDS_PER_WINDOW = 5;
export const DEFAULT_OTP_WINDOW_SECONDS = 15 * 60;
/** OTPs sent to one phone number in one window, across every order. */
export const DEFAULT_OTP_SENDS_PER_PHONE = 10;
export const DEFAULT_OTP_PHONE_WINDOW_SECONDS = 60 * 60;
/** Codes tried per code sent: the element's default `max-otp-attempts`. */
export const DEFAULT_OTP_ATTEMPTS_PER_CODE = 3;
/** Codes tried per phone number in one window, across every code and order. */
export const DEFAULT_OTP_ATTEMPTS_PER_PHONE = 10;
export const DEFAULT_OTP_ATTEMPTS_PHONE_WINDOW_SECONDS = 60 * 60;
/** Cards put to use for one order in an hour (card testing): hosted pages signed, charges completed, cards saved. */
export const DEFAULT_CARD_ATTEMPTS_PER_HOUR = 10;
/** The payments the browser may ask for when the merchant allows no other: the money taken at once. */
export const DEFAULT_PAYMENT_COMMANDS: readonly PaymentCommand[] = ['PURCHASE'];
/** Time limit of one call to the shop's back end (order lookup, result webhook), 5 s. */
export const DEFAULT_HOOK_TIMEOUT_MS = 5_000;
export const DEFAULT_PORT = 8787;
/** Days acknowledged results and ended watches are kept (`PG_RETENTION_DAYS`). */
export const DEFAULT_RETENTION_DAYS = 30;
/**
 * Seconds `serve` lets requests under way finish once told to stop (`PG_SHUTDOWN_GRACE_SECONDS`):
 * under the 10 seconds Docker waits before it kills a container.
 */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 8;
export const DEFAULT_HOST = '127.0.0.1';

// ---- Checks of the endpoint's own settings (the connection's are in gateway/settings.ts) ----

export { ConfigError, type ConfigProblem } from '../gateway/settings.ts';

/**
 * A partner code: what the gateway field that carries it allows (payment_partner: 5 characters), and
 * for payment_option, whose length the spec leaves open, a plain code of at most 20 characters.
 */
function partnerCode(wireField: 'payment_partner' | 'payment_option'): Check<string> {
  if (wireField === 'payment_partner') {
    return (value) =>
      field('payment_partner').safeParse(value).success ? undefined : 'must be 1 to 5 letters or digits (the gateway’s payment_partner code)';
  }
  return (value) =>
    /^[A-Za-z0-9_-]{1,20}$/.test(value) && field('payment_option').safeParse(value).success
      ? undefined
      : 'must be the gateway’s payment_option code (1 to 20 letters, digits, "_" or "-")';
}

/**
 * A URL of the shop's back end (order lookup, result webhook, the shop's page): absolute http(s),
 * https except on loopback, a query allowed (`index.php?route=pg/order`), no fragment or credentials.
 */
const shopUrl: Check<string> = (value) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL such as https://shop.example/pg/order';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (url.protocol === 'http:' && !isLoopback(url)) return 'must use https (plain http is accepted only on localhost)';
  if (url.hash || url.username || url.password) return 'must not carry a fragment or credentials';
  return undefined;
};

/** A PostgreSQL connection URL; its password is never printed (messages name the variable only). */
const databaseUrl: Check<string> = (value) => {
  try {
    const url = new URL(value);
    if (url.protocol === 'postgres:' || url.protocol === 'postgresql:') return undefined;
  } catch {
    // fall through
  }
  return 'must be a PostgreSQL URL such as postgres://user:password@db.internal:5432/pgcheckout';
};

/** A list of payment commands: PURCHASE and AUTHORIZATION, each at most once, at least one. */
function paymentCommandsProblem(commands: readonly unknown[]): string | undefined {
  if (commands.length === 0) return 'must name at least one of PURCHASE and AUTHORIZATION';
  if (!commands.every(isPaymentCommand)) return 'must list PURCHASE and/or AUTHORIZATION (capital letters, comma-separated)';
  if (new Set(commands).size !== commands.length) return 'must name each command once';
  return undefined;
}

/** A YES / NO setting, as the gateway writes `check_3ds`. */
const yesOrNo: Check<string> = (value) => (value === 'YES' || value === 'NO' ? undefined : 'must be YES or NO');

const hookSecret: Check<string> = (value) =>
  value.length >= MIN_HOOK_SECRET_LENGTH
    ? undefined
    : `must be at least ${MIN_HOOK_SECRET_LENGTH} characters (for example the output of openssl rand -hex 32)`;

/** Headers the service must never forward: the transport's own, and the service's signature. */
const UNFORWARDABLE_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'pg-signature']);

const headerName: Check<string> = (value) => {
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(value)) return 'must list header names such as pg-order-token or cookie';
  if (UNFORWARDABLE_HEADERS.has(value.toLowerCase())) return `must not list ${value.toLowerCase()}`;
  return undefined;
};

const basePath: Check<string> = (value) =>
  value === '' || /^(\/[A-Za-z0-9._~-]+)+$/.test(value)
    ? undefined
    : 'must be empty or a path such as /pg (leading slash, no trailing slash)';

const origin: Check<string> = (value) => {
  if (value === '*') return 'must list origins such as https://shop.example; "*" is refused';
  try {
    const url = new URL(value);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value) return undefined;
  } catch {
    // fall through
  }
  return 'must list origins such as https://shop.example (scheme, host and port only, no trailing slash)';
};

const RESULT_URL_SHAPE = 'must be an absolute https URL or a path starting with /';

/**
 * Where the customer lands after paying: a path, resolved against the endpoint's public origin, or
 * an absolute URL. Either way it must end up on the public origin or on one of the allowed origins
 * (a standalone endpoint may send customers back to the shop, whose pages it must allow for CORS
 * anyway). Resolving, rather than matching the text, is what catches `/\evil.example` and
 * `/\t/evil.example`, which browsers read as `//evil.example`. With `publicOrigin` unknown (the
 * listening URL of `serve`), an absolute URL must be on one of the allowed origins.
 */
function resultUrlRule(publicOrigin: string | undefined, allowedOrigins: readonly string[]): Check<string> {
  return (value) => {
    const relative = value.startsWith('/');
    if (!relative && serviceUrl(true)(value) !== undefined) return RESULT_URL_SHAPE;
    if (!relative && publicOrigin === undefined) {
      return allowedOrigins.includes(originOf(value) ?? '') ? undefined : 'must be on one of the allowed origins (or a path, or set the public URL)';
    }
    const base = publicOrigin ?? 'https://endpoint.invalid';
    let target: URL;
    try {
      target = new URL(value, base);
    } catch {
      return RESULT_URL_SHAPE;
    }
    if (target.origin === new URL(base).origin || allowedOrigins.includes(target.origin)) return undefined;
    return relative
      ? 'must be a path on the endpoint’s own origin (it resolves to another site)'
      : 'must be on the endpoint’s own origin or on one of the allowed origins';
  };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function returnUrlOf(url: string, parameters: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams(parameters).toString();
  return query ? `${url}?${query}` : url;
}

/** Checks a programmatic config and completes it; throws ConfigError naming each bad field. */
export function resolveSettings(config: EndpointConfig): EndpointSettings {
  const { problems, check } = problemCollector();
  checkConnection(config, check);
  check('checkoutUrl', config.checkoutUrl, serviceUrl(false));
  check('publicUrl', config.publicUrl, serviceUrl(true));
  check('basePath', config.basePath, basePath, false);
  for (const allowed of config.allowedOrigins ?? []) check('allowedOrigins', allowed, origin);
  const publicOrigin = serviceUrl(true)(config.publicUrl ?? '') === undefined ? originOf(config.publicUrl) : undefined;
  check('resultUrl', config.resultUrl, resultUrlRule(publicOrigin, config.allowedOrigins ?? []), false);
  for (const name of Object.keys(config.returnParameters ?? {})) {
    check('returnParameters', name, (value) => {
      if (!/^pg_[A-Za-z0-9_]+$/.test(value)) return 'names must start with pg_ (letters, digits and _)';
      return value === FRAMED_RETURN_PARAMETER ? `must not use ${FRAMED_RETURN_PARAMETER}: the endpoint marks framed flows with it` : undefined;
    });
  }
  if (typeof config.resolveOrder !== 'function') problems.push({ name: 'resolveOrder', message: 'must be a function' });
  if (config.resultLedger !== undefined && typeof config.resultLedger.record !== 'function') {
    problems.push({ name: 'resultLedger', message: 'must have record(result) and release(key)' });
  }
  check('maxBodyBytes', config.maxBodyBytes, wholeNumber(256, 1024 * 1024), false);
  check('billLifetimeMinutes', config.billLifetimeMinutes, wholeNumber(1, 60 * 24 * 90), false);
  check('flowLifetimeSeconds', config.flowLifetimeSeconds, wholeNumber(30, 24 * 3600), false);
  check('trustedProxyHops', config.trustedProxyHops, wholeNumber(0, 10), false);
  check('gatewayTimeoutMs', config.gatewayTimeoutMs, wholeNumber(100, 120_000), false);
  check('orderCheckTimeoutMs', config.orderCheckTimeoutMs, wholeNumber(100, 120_000), false);
  check('otpResendsPerFlow', config.otpResendsPerFlow, wholeNumber(0, 10), false);
  check('otpAttemptsPerCode', config.otpAttemptsPerCode, wholeNumber(1, 10), false);
  check('otpAttemptsPerPhone', config.otpAttemptsPerPhone, wholeNumber(1, 1000), false);
  check('reconcile.intervalSeconds', config.reconcile?.intervalSeconds, wholeNumber(1, 86_400), false);
  check('reconcile.authorizationHoldDays', config.reconcile?.authorizationHoldDays, wholeNumber(1, 30), false);
  check('cardAttemptsPerHour', config.cardAttemptsPerHour, wholeNumber(1, 1000), false);
  for (const name of ['otpSendLimiter', 'otpPhoneLimiter', 'otpAttemptLimiter', 'otpPhoneAttemptLimiter', 'cardAttemptLimiter'] as const) {
    const limiter = config[name];
    if (limiter !== undefined && typeof limiter.hit !== 'function') problems.push({ name, message: 'must have hit(key)' });
  }
  check('voucherPartnerCode', config.voucherPartnerCode, partnerCode('payment_partner'), false);
  check('financingPartnerCode', config.financingPartnerCode, partnerCode('payment_option'), false);
  check('check3ds', config.check3ds as string | undefined, yesOrNo, false);
  if (config.cvvSuppression !== undefined && typeof config.cvvSuppression !== 'boolean') {
    problems.push({ name: 'cvvSuppression', message: 'must be true or false' });
  }
  if (config.paymentCommands !== undefined) {
    const message = Array.isArray(config.paymentCommands) ? paymentCommandsProblem(config.paymentCommands) : 'must be a list such as [\'PURCHASE\']';
    if (message) problems.push({ name: 'paymentCommands', message });
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const base = config.basePath ?? '';
  const publicUrl = trimSlash(config.publicUrl);
  const store = config.store === undefined ? undefined : 'health' in config.store ? (config.store as MonitoredStore) : monitoredStore(config.store, config.logger ?? silentLogger);
  const root = config.apiRoot;
  const fetchImpl = config.fetch ?? globalThis.fetch.bind(globalThis);
  const now = config.now ?? (() => new Date());
  const gatewayTimeoutMs = config.gatewayTimeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS;
  const flowLifetimeSeconds = config.flowLifetimeSeconds ?? DEFAULT_FLOW_LIFETIME_SECONDS;
  /** A limiter on the store's counters (every instance counts every instance's SMS, OTP tries and cards), else in memory. */
  const defaultLimiter = (limit: number, windowSeconds: number): RateLimiter =>
    store ? storeRateLimiter(store.limits, { limit, windowSeconds, now }) : new InMemoryRateLimiter({ limit, windowSeconds, now });
  return {
    ...connectionOf(config),
    gatewayReferenceField: config.gatewayReferenceField ?? DEFAULT_GATEWAY_REFERENCE_FIELD,
    basePath: base,
    allowedOrigins: new Set(config.allowedOrigins ?? []),
    publicOrigin: new URL(publicUrl).origin,
    paymentPageUrl: `${trimSlash(config.checkoutUrl)}/${root}/paymentPage`,
    paymentApiUrl: `${trimSlash(config.gatewayBaseUrl)}/${root}/paymentApi`,
    returnUrl: returnUrlOf(`${publicUrl}${base}${ROUTES.gatewayReturn}`, config.returnParameters),
    resultUrl: config.resultUrl,
    resolveOrder: config.resolveOrder,
    onResult: config.onResult,
    onBill: config.onBill,
    fetch: fetchImpl,
    logger: config.logger ?? silentLogger,
    maxBodyBytes: config.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    now,
    billLifetimeMinutes: config.billLifetimeMinutes ?? DEFAULT_BILL_LIFETIME_MINUTES,
    flowLifetimeSeconds,
    trustedProxyHops: config.trustedProxyHops ?? 0,
    gatewayTimeoutMs,
    orderCheckTimeoutMs: Math.min(config.orderCheckTimeoutMs ?? DEFAULT_ORDER_CHECK_TIMEOUT_MS, gatewayTimeoutMs),
    resultLedger: config.resultLedger ?? store?.results ?? new InMemoryResultLedger(),
    store,
    watches: store?.watches,
    watchSettings: { ...DEFAULT_WATCH_SETTINGS, ...config.reconcile },
    resultProofs: config.resultProofs,
    otpResendsPerFlow: config.otpResendsPerFlow ?? DEFAULT_OTP_RESENDS_PER_FLOW,
    otpSendLimiter:
      config.otpSendLimiter ?? defaultLimiter(DEFAULT_OTP_SENDS_PER_WINDOW, DEFAULT_OTP_WINDOW_SECONDS),
    otpPhoneLimiter:
      config.otpPhoneLimiter ?? defaultLimiter(DEFAULT_OTP_SENDS_PER_PHONE, DEFAULT_OTP_PHONE_WINDOW_SECONDS),
    // A code's count lasts as long as its flow token can: waiting does not free more tries of it.
    otpAttemptLimiter:
      config.otpAttemptLimiter ?? defaultLimiter(config.otpAttemptsPerCode ?? DEFAULT_OTP_ATTEMPTS_PER_CODE, flowLifetimeSeconds),
    otpPhoneAttemptLimiter:
      config.otpPhoneAttemptLimiter ??
      defaultLimiter(config.otpAttemptsPerPhone ?? DEFAULT_OTP_ATTEMPTS_PER_PHONE, DEFAULT_OTP_ATTEMPTS_PHONE_WINDOW_SECONDS),
    cardAttemptLimiter: config.cardAttemptLimiter ?? defaultLimiter(config.cardAttemptsPerHour ?? DEFAULT_CARD_ATTEMPTS_PER_HOUR, 3600),
    voucherPartnerCode: config.voucherPartnerCode || undefined,
    financingPartnerCode: config.financingPartnerCode || undefined,
    check3ds: config.check3ds,
    cvvSuppression: config.cvvSuppression ?? false,
    paymentCommands: Object.freeze([...(config.paymentCommands ?? DEFAULT_PAYMENT_COMMANDS)]),
  };
}

// ---- Environment ----

/** The part of `EndpointConfig` that comes from environment variables, plus where to listen. */
export interface EnvConfig
  extends Pick<
    EndpointConfig,
    | 'merchantIdentifier'
    | 'accessCode'
    | 'shaType'
    | 'requestPhrase'
    | 'responsePhrase'
    | 'gatewayBaseUrl'
    | 'checkoutUrl'
    | 'apiRoot'
    | 'check3ds'
    | 'cvvSuppression'
  > {
  /** The payments the browser may ask for (`PG_PAYMENT_COMMANDS`), the default first. */
  readonly paymentCommands: readonly PaymentCommand[];
  /** The wire name of the gateway's reference of an order (`PG_GATEWAY_REFERENCE_FIELD`). */
  readonly gatewayReferenceField: GatewayReferenceField;
  readonly allowedOrigins: readonly string[];
  readonly basePath: string;
  /** Undefined: the URL the server ends up listening on. */
  readonly publicUrl: string | undefined;
  readonly resultUrl: string | undefined;
  readonly trustedProxyHops: number;
  readonly voucherPartnerCode: string | undefined;
  readonly financingPartnerCode: string | undefined;
  /** `{batch_sandbox_url}`, for the back-office client's PROCESS_BATCH; set only in the sandbox environment. */
  readonly batchSandboxUrl: string | undefined;
  readonly port: number;
  readonly host: string;
  /** The shop's order lookup (`PG_ORDER_URL`); undefined: `serve` uses its demo orders. */
  readonly orderUrl: string | undefined;
  /** Request headers forwarded to the order lookup, lower-case (`PG_ORDER_FORWARD_HEADERS`). */
  readonly orderForwardHeaders: readonly string[];
  /** Where each verified result is POSTed (`PG_RESULT_WEBHOOK_URL`). */
  readonly resultWebhookUrl: string | undefined;
  /** Signs and verifies every message between the service and the shop (`PG_HOOK_SECRET`). */
  readonly hookSecret: string | undefined;
  /** The shop's page the service's own result page links back to (`PG_SHOP_URL`). */
  readonly shopUrl: string | undefined;
  /** Time limit of one call to the shop (`PG_HOOK_TIMEOUT_MS`). */
  readonly hookTimeoutMs: number;
  /** Where the store is: SQLite under `PG_DATA_DIR`, or PostgreSQL at `PG_DATABASE_URL`. */
  readonly store: StoreLocation;
  /** The shortest wait between two questions about one watched payment (`PG_RECONCILE_INTERVAL_SECONDS`). */
  readonly reconcileIntervalSeconds: number;
  /** How long an authorization holds the money before the gateway voids it (`PG_AUTHORIZATION_HOLD_DAYS`). */
  readonly authorizationHoldDays: number;
  /** Acknowledged results and ended watches are kept this long, then pruned (`PG_RETENTION_DAYS`). */
  readonly retentionDays: number;
  /** How long requests under way may finish once `serve` is told to stop (`PG_SHUTDOWN_GRACE_SECONDS`). */
  readonly shutdownGraceSeconds: number;
  /** Cards put to use for one order in an hour (`PG_CARD_ATTEMPTS_PER_HOUR`). */
  readonly cardAttemptsPerHour: number;
  /** The bearer token that shows the health route's store counts (`PG_HEALTH_TOKEN`). */
  readonly healthToken: string | undefined;
}

/** Every variable `configFromEnv` reads, with what it holds (documented in .env.example). */
export const ENV_VARIABLES = {
  PG_MERCHANT_IDENTIFIER: 'merchant_identifier from the back-office (required)',
  PG_ACCESS_CODE: 'access_code from the back-office (required)',
  PG_SHA_TYPE: 'SHA-256 or SHA-512, as set in the back-office (required)',
  PG_SHA_REQUEST_PHRASE: 'SHA request phrase (required, secret)',
  PG_SHA_RESPONSE_PHRASE: 'SHA response phrase (required, secret)',
  PG_GATEWAY_BASE_URL: 'host of the payment services API, e.g. https://api.sandbox.gateway.example (required)',
  PG_CHECKOUT_URL: 'host of the hosted payment page (required)',
  PG_API_ROOT: 'first path segment of every gateway path (required)',
  PG_BATCH_SANDBOX_URL: "host of the batch service's sandbox, where PROCESS_BATCH goes (set it only in the sandbox environment)",
  PG_GATEWAY_REFERENCE_FIELD: `wire name of the gateway's reference of an order: svc_id (the specification's) or fort_id (the live gateway's) (default ${DEFAULT_GATEWAY_REFERENCE_FIELD})`,
  PG_ALLOWED_ORIGINS: 'comma-separated origins whose pages may call the endpoint (default: same origin only)',
  PG_PORT: `port to listen on (default ${DEFAULT_PORT}; 0 picks a free port)`,
  PG_HOST: `address to listen on (default ${DEFAULT_HOST})`,
  PG_PUBLIC_URL: 'absolute URL of this server as the browser sees it, used for return_url (default: the listening URL)',
  PG_BASE_PATH: 'path the routes are mounted under, e.g. /pg (default: none)',
  PG_RESULT_URL: "merchant page the customer lands on after paying (default: the return route answers JSON)",
  PG_TRUSTED_PROXY_HOPS: 'reverse proxies in front that append to X-Forwarded-For (default 0)',
  PG_VOUCHER_PARTNER_CODE: "the gateway's payment_partner code of the cash-voucher partner (default: bills refused)",
  PG_FINANCING_PARTNER_CODE: "the gateway's payment_option code of the financing partner (default: financing refused)",
  PG_CVV_SUPPRESSION: 'YES when the account has CVV suppression: the card form of the elements leaves the security code optional (default NO)',
  PG_PAYMENT_COMMANDS: 'comma-separated payments the browser may ask for, the first used when it names none: PURCHASE (the money taken at once) and/or AUTHORIZATION (only held, until captured from the back office) (default PURCHASE)',
  PG_CHECK_3DS: 'YES or NO: check_3ds sent with the PURCHASE / AUTHORIZATION completing a merchant-page or embedded payment; NO skips 3-D Secure where the account has Check 3-D Secure (default: not sent)',
  PG_ORDER_URL: "the shop's order lookup, asked for each order by signed POST (default: serve's demo orders)",
  PG_ORDER_FORWARD_HEADERS: 'comma-separated request headers passed on to PG_ORDER_URL, e.g. pg-order-token or cookie (default pg-order-token)',
  PG_RESULT_WEBHOOK_URL: "the shop's webhook, sent each verified result once by signed POST until it answers 2xx (default: none)",
  PG_HOOK_SECRET: 'shared secret signing every message with the shop, at least 32 characters (required with PG_ORDER_URL or PG_RESULT_WEBHOOK_URL; secret)',
  PG_SHOP_URL: "the shop's page that the service's own result page links back to (default: no link)",
  PG_HOOK_TIMEOUT_MS: `time limit of one call to the shop in milliseconds (default ${DEFAULT_HOOK_TIMEOUT_MS})`,
  PG_DATA_DIR: `folder of the SQLite store and the sandbox's state (default ./${DEFAULT_DATA_DIR}, created on first start)`,
  PG_DATABASE_URL: 'postgres://… : keep the store in PostgreSQL instead, shared by several instances (default: SQLite under PG_DATA_DIR)',
  PG_RECONCILE_INTERVAL_SECONDS: `shortest wait between two questions about one watched payment (default ${DEFAULT_RECONCILE_INTERVAL_SECONDS})`,
  PG_AUTHORIZATION_HOLD_DAYS: `days an authorization holds the money before the gateway voids it (default ${DEFAULT_AUTHORIZATION_HOLD_DAYS})`,
  PG_RETENTION_DAYS: `days acknowledged results and ended watches are kept before they are pruned (default ${DEFAULT_RETENTION_DAYS})`,
  PG_CARD_ATTEMPTS_PER_HOUR: `cards put to use for one order in an hour (hosted pages signed, charges, cards saved) before the endpoint refuses more: card testing (default ${DEFAULT_CARD_ATTEMPTS_PER_HOUR})`,
  PG_HEALTH_TOKEN: 'bearer token that shows the store\'s counts in GET /health (results waiting for the shop, payments watched), at least 32 characters (default: the counts are never shown; secret)',
  PG_SHUTDOWN_GRACE_SECONDS: `seconds requests under way may take to finish after SIGTERM or SIGINT, before they are cut (default ${DEFAULT_SHUTDOWN_GRACE_SECONDS})`,
} as const;

export type EnvVariable = keyof typeof ENV_VARIABLES;

/**
 * Reads the `PG_*` variables into an `EnvConfig`, or throws one ConfigError naming every missing
 * or malformed variable. Values are never quoted in the message.
 */
export function configFromEnv(env: Readonly<Record<string, string | undefined>>): EnvConfig {
  return readEnvConfig(env, { checkoutUrlRequired: true });
}

/** What the back-office commands read: the same variables, less `PG_CHECKOUT_URL` (the hosted page's host, which only `serve` uses). */
export type BackOfficeEnvConfig = Omit<EnvConfig, 'checkoutUrl'>;

/**
 * The `PG_*` variables as the back-office CLI reads them: `configFromEnv`'s rules, except that
 * `PG_CHECKOUT_URL` is not required (still checked when set).
 */
export function backOfficeConfigFromEnv(env: Readonly<Record<string, string | undefined>>): BackOfficeEnvConfig {
  const { checkoutUrl: _unused, ...config } = readEnvConfig(env, { checkoutUrlRequired: false });
  return config;
}

function readEnvConfig(env: Readonly<Record<string, string | undefined>>, { checkoutUrlRequired }: { checkoutUrlRequired: boolean }): EnvConfig {
  const problems: ConfigProblem[] = [];
  const read = (name: EnvVariable): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const required = (name: EnvVariable, rule: Check<string>): string => {
    const value = read(name);
    if (value === undefined) {
      problems.push({ name, message: `is not set (${ENV_VARIABLES[name]})` });
      return '';
    }
    const message = rule(value);
    if (message) problems.push({ name, message });
    return value;
  };
  const optional = (name: EnvVariable, rule: Check<string>): string | undefined => {
    const value = read(name);
    if (value === undefined) return undefined;
    const message = rule(value);
    if (message) problems.push({ name, message });
    return value;
  };
  const number = (name: EnvVariable, fallback: number, min: number, max: number): number => {
    const value = read(name);
    if (value === undefined) return fallback;
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    const message = wholeNumber(min, max)(parsed);
    if (message) problems.push({ name, message });
    return parsed;
  };

  const merchantIdentifier = required('PG_MERCHANT_IDENTIFIER', identifier);
  const accessCode = required('PG_ACCESS_CODE', identifier);
  let shaType: ShaType = 'sha256';
  required('PG_SHA_TYPE', (value) => {
    try {
      shaType = parseShaType(value);
      return undefined;
    } catch {
      return 'must be SHA-256 or SHA-512 (the weak 128-bit variant is refused)';
    }
  });
  // Phrases are read raw: a leading or trailing space is part of what the back-office signs with.
  const requestPhrase = env['PG_SHA_REQUEST_PHRASE'] ?? '';
  const responsePhrase = env['PG_SHA_RESPONSE_PHRASE'] ?? '';
  for (const [name, value] of [
    ['PG_SHA_REQUEST_PHRASE', requestPhrase],
    ['PG_SHA_RESPONSE_PHRASE', responsePhrase],
  ] as const) {
    if (value === '') problems.push({ name, message: `is not set (${ENV_VARIABLES[name]})` });
  }
  const gatewayBaseUrl = required('PG_GATEWAY_BASE_URL', serviceUrl(false));
  const checkoutUrl = checkoutUrlRequired ? required('PG_CHECKOUT_URL', serviceUrl(false)) : (optional('PG_CHECKOUT_URL', serviceUrl(false)) ?? '');
  const root = required('PG_API_ROOT', (value) => apiRoot(value.replace(/^\/+|\/+$/g, '')));
  const origins = (read('PG_ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const badOrigin = origins.map(origin).find((message) => message !== undefined);
  if (badOrigin) problems.push({ name: 'PG_ALLOWED_ORIGINS', message: badOrigin });
  const port = number('PG_PORT', DEFAULT_PORT, 0, 65_535);
  const host = read('PG_HOST') ?? DEFAULT_HOST;
  const publicUrl = optional('PG_PUBLIC_URL', serviceUrl(true));
  const base = optional('PG_BASE_PATH', basePath) ?? '';
  const result = optional(
    'PG_RESULT_URL',
    resultUrlRule(publicUrl === undefined ? undefined : originOf(publicUrl), origins),
  );
  const trustedProxyHops = number('PG_TRUSTED_PROXY_HOPS', 0, 0, 10);
  const voucherPartnerCode = optional('PG_VOUCHER_PARTNER_CODE', partnerCode('payment_partner'));
  const financingPartnerCode = optional('PG_FINANCING_PARTNER_CODE', partnerCode('payment_option'));
  const check3ds = optional('PG_CHECK_3DS', yesOrNo) as 'YES' | 'NO' | undefined;
  const cvvSuppression = optional('PG_CVV_SUPPRESSION', yesOrNo) === 'YES';
  const commandList = read('PG_PAYMENT_COMMANDS')
    ?.split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const commandsProblem = commandList === undefined ? undefined : paymentCommandsProblem(commandList);
  if (commandsProblem) problems.push({ name: 'PG_PAYMENT_COMMANDS', message: commandsProblem });
  const paymentCommands = (commandList as PaymentCommand[] | undefined) ?? DEFAULT_PAYMENT_COMMANDS;
  const orderUrl = optional('PG_ORDER_URL', shopUrl);
  const forwardList = read('PG_ORDER_FORWARD_HEADERS');
  const orderForwardHeaders = (forwardList ?? ORDER_TOKEN_HEADER)
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
  const badHeader = orderForwardHeaders.map(headerName).find((message) => message !== undefined);
  if (badHeader) problems.push({ name: 'PG_ORDER_FORWARD_HEADERS', message: badHeader });
  if (forwardList !== undefined && orderUrl === undefined) {
    problems.push({ name: 'PG_ORDER_FORWARD_HEADERS', message: 'has no effect without PG_ORDER_URL' });
  }
  const resultWebhookUrl = optional('PG_RESULT_WEBHOOK_URL', shopUrl);
  const secret = optional('PG_HOOK_SECRET', hookSecret);
  if (secret === undefined && (orderUrl !== undefined || resultWebhookUrl !== undefined)) {
    problems.push({ name: 'PG_HOOK_SECRET', message: 'is not set (PG_ORDER_URL and PG_RESULT_WEBHOOK_URL sign every message with it)' });
  }
  const shopPage = optional('PG_SHOP_URL', shopUrl);
  const hookTimeoutMs = number('PG_HOOK_TIMEOUT_MS', DEFAULT_HOOK_TIMEOUT_MS, 100, 60_000);
  const batchSandboxUrl = optional('PG_BATCH_SANDBOX_URL', serviceUrl(false));
  const referenceField = optional('PG_GATEWAY_REFERENCE_FIELD', gatewayReferenceField) as GatewayReferenceField | undefined;
  optional('PG_DATABASE_URL', databaseUrl);
  const reconcileIntervalSeconds = number('PG_RECONCILE_INTERVAL_SECONDS', DEFAULT_RECONCILE_INTERVAL_SECONDS, 1, 86_400);
  const authorizationHoldDays = number('PG_AUTHORIZATION_HOLD_DAYS', DEFAULT_AUTHORIZATION_HOLD_DAYS, 1, 30);
  const retentionDays = number('PG_RETENTION_DAYS', DEFAULT_RETENTION_DAYS, 1, 3650);
  const shutdownGraceSeconds = number('PG_SHUTDOWN_GRACE_SECONDS', DEFAULT_SHUTDOWN_GRACE_SECONDS, 0, 3600);
  const cardAttemptsPerHour = number('PG_CARD_ATTEMPTS_PER_HOUR', DEFAULT_CARD_ATTEMPTS_PER_HOUR, 1, 1000);
  const healthToken = optional('PG_HEALTH_TOKEN', hookSecret);
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    merchantIdentifier,
    accessCode,
    shaType,
    requestPhrase,
    responsePhrase,
    gatewayBaseUrl,
    checkoutUrl,
    apiRoot: root.replace(/^\/+|\/+$/g, ''),
    gatewayReferenceField: referenceField ?? DEFAULT_GATEWAY_REFERENCE_FIELD,
    allowedOrigins: origins,
    basePath: base,
    publicUrl,
    resultUrl: result,
    trustedProxyHops,
    voucherPartnerCode,
    financingPartnerCode,
    check3ds,
    cvvSuppression,
    paymentCommands,
    batchSandboxUrl,
    port,
    host,
    orderUrl,
    orderForwardHeaders,
    resultWebhookUrl,
    hookSecret: secret,
    shopUrl: shopPage,
    hookTimeoutMs,
    store: storeLocationFromEnv(env),
    reconcileIntervalSeconds,
    authorizationHoldDays,
    retentionDays,
    shutdownGraceSeconds,
    cardAttemptsPerHour,
    healthToken,
  };
}
