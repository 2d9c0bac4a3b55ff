/**
 * `createMerchantEndpoint`: the merchant-side endpoint as one Web-standard handler,
 * `(Request) => Promise<Response>`, with no state beyond its pluggable result ledger and OTP
 * limiter, so the same code runs on Node (through node.ts), Deno, Bun, edge platforms and, in
 * tests, inside a browser service worker.
 *
 * Every JSON route runs the same gate before its handler: CORS, method, Content-Type, body size,
 * JSON nesting depth, JSON, card data, commands, fields only the server sets, the contract's
 * schema, and the caller's order with the amount and currency the browser may have named.
 */
import { hideCardNumbers } from '../core/card-number.ts';
import { CARD_FIELDS, EMBEDDED_CONFIRM_ROUTE, FIRST_SCREEN_ROUTE, ROUTES, type EndpointRouteName } from '../core/endpoint-api.ts';
import { validate } from '../core/field-errors.ts';
import { isLanguage, type Language } from '../core/language.ts';
import { ATTEMPT_REFERENCE_REFUSAL, isAttemptReference } from '../core/payment-attempts.ts';
import { readAt } from '../core/shape.ts';
import { compiled } from '../gateway/compiled.ts';
import { StoreUnavailableError } from '../store/store.ts';
import { resolveSettings, type EndpointConfig } from './config.ts';
import { EndpointRefusal, STORE_RETRY_AFTER_SECONDS } from './errors.ts';
import { createFlowSealer, createSealer } from './flow-token.ts';
import { endpointGateway } from './gateway-client.ts';
import { handleEmbeddedConfirm, handleGatewayReturn } from './gateway-return.ts';
import { isPaymentCommand, orderDisagreement } from './orders.ts';
import {
  assertJsonContentType,
  parseJsonObject,
  corsHeaders,
  isCorsCaller,
  isOriginAllowed,
  jsonAnswer,
  languageFromHeaders,
  preflightResponse,
  readBodyText,
  toResponse,
  withAnswerEntry,
  type AnswerHandler,
  type RequestContext,
} from './http.ts';
import { redactingLogger } from '../log/logger.ts';
import { READY_CARD_SECONDS, type EndpointRuntime, type JsonRoute, type ReadyCard } from './route.ts';
import {
  financingOtpRoute,
  financingPurchaseRoute,
  financingVerifyCustomerRoute,
  financingVerifyOtpRoute,
} from './routes-financing.ts';
import { firstScreenRoute } from './first-screen.ts';
import { hostedPageRoute, merchantPageRoute, orderRoute, saveCardRoute } from './routes-payment-pages.ts';
import { billRoute, installmentPlansRoute, statusRoute } from './routes-services.ts';

export type { RequestContext } from './http.ts';

/** The endpoint: a fetch-style handler. `context` carries what only the runtime knows (the peer address). */
export type MerchantEndpoint = (request: Request, context?: RequestContext) => Promise<Response>;

const JSON_ROUTES: ReadonlyMap<string, JsonRoute<unknown>> = new Map([
  [ROUTES.order, orderRoute],
  [ROUTES.hostedPage, hostedPageRoute],
  [ROUTES.merchantPage, merchantPageRoute],
  [ROUTES.saveCard, saveCardRoute],
  [ROUTES.installmentPlans, installmentPlansRoute],
  [ROUTES.bill, billRoute],
  [ROUTES.financingVerifyCustomer, financingVerifyCustomerRoute],
  [ROUTES.financingOtp, financingOtpRoute],
  [ROUTES.financingVerifyOtp, financingVerifyOtpRoute],
  [ROUTES.financingPurchase, financingPurchaseRoute],
  [ROUTES.status, statusRoute],
  [FIRST_SCREEN_ROUTE, firstScreenRoute],
]);

/**
 * Operations the browser may never ask for, by the field that would name them: maintenance and
 * query commands, recurring and trusted-channel (`eci`), and payments with a stored token.
 */
const COMMAND_FIELDS: readonly string[] = ['service_command', 'query_command', 'eci', 'token_name'];

/** Fields only the endpoint sets; a browser sending one is refused rather than silently ignored. */
const SERVER_FIELDS: readonly string[] = [
  'signature',
  'access_code',
  'merchant_identifier',
  'return_url',
  'customer_ip',
  'merchant_extra',
  'merchant_extra1',
  'merchant_extra2',
  'merchant_extra3',
  'merchant_extra4',
  'merchant_extra5',
  // The account's Check 3-D Secure setting (`check3ds`): a page must not be able to skip 3-D Secure.
  'check_3ds',
];

const SERVER_FIELD_MESSAGE: Readonly<Record<Language, string>> = {
  en: 'is set by the merchant server, never by the browser',
  ar: 'يحدده خادم التاجر وليس المتصفح',
};

const ROUTE_NAMES: ReadonlyMap<string, EndpointRouteName> = new Map(
  Object.entries({ ...ROUTES, firstScreen: FIRST_SCREEN_ROUTE }).map(([name, path]) => [path, name as EndpointRouteName]),
);

/**
 * The name of a route for the logs (`hostedPage`). The path a caller typed, which may carry anything,
 * is logged only for a `not_found`, cut short, never with its query.
 */
function routeNameOf(route: string | undefined): EndpointRouteName | 'unknown' {
  return (route === undefined ? undefined : ROUTE_NAMES.get(route)) ?? 'unknown';
}

/** True when `path` (a URL pathname) is one of the endpoint's routes under `basePath`. */
export function isEndpointPath(path: string, basePath = ''): boolean {
  if (!path.startsWith(basePath)) return false;
  const route = path.slice(basePath.length);
  return route === ROUTES.gatewayReturn || route === EMBEDDED_CONFIRM_ROUTE || JSON_ROUTES.has(route);
}

/**
 * How the log's hints name the settings a merchant fixes: the handler's options, or the `PG_*`
 * variables when `serve` built the endpoint from its environment.
 */
export interface SettingNames {
  readonly allowedOrigins: string;
  readonly basePath: string;
}

const OPTION_NAMES: SettingNames = { allowedOrigins: 'the allowedOrigins option', basePath: 'the basePath option' };

/** The names of `serve`'s settings (config.ts `ENV_VARIABLES`). */
export const ENV_SETTING_NAMES: SettingNames = { allowedOrigins: 'PG_ALLOWED_ORIGINS', basePath: 'PG_BASE_PATH' };

/** The longest origin or path quoted in a log line: the caller chose it, and may have made it long. */
const MAX_LOGGED_CHARS = 200;

function cutForLog(text: string): string {
  return text.length > MAX_LOGGED_CHARS ? `${text.slice(0, MAX_LOGGED_CHARS)}…` : text;
}

/** A path segment as routes and base paths are named: letters, then letters, hyphens, dots, underscores. */
const NAME_SEGMENT = /^[A-Za-z][A-Za-z._-]{0,39}$/;

/**
 * A path the endpoint does not have, for the log: the segments named as routes are (`/pg/order`,
 * enough to see a wrong base path), every other one `*`, whatever it holds: digits in any script,
 * percent-encoded text, an address. Nothing a customer typed reaches the log. Cut short.
 */
function pathForLog(path: string): string {
  return cutForLog(
    path
      .split('/')
      .map((segment) => (segment === '' || NAME_SEGMENT.test(segment) ? segment : '*'))
      .join('/'),
  );
}

/** What the log says of an origin refused: the setting to add it to (an origin is not a secret). */
function originHint(origin: string | null, names: SettingNames): string {
  // A file:// page or a sandboxed frame: no setting can allow it.
  if (origin === 'null') return 'the page has no origin (opened from a file, or in a sandboxed frame): serve it over http(s) from an allowed origin';
  return `if the page is yours, add its origin to ${names.allowedOrigins}: scheme, host and port must match exactly (localhost is not 127.0.0.1)`;
}

/** What the log says of a path the endpoint does not have: where its routes are. */
function notFoundHint(basePath: string, names: SettingNames): string {
  return basePath
    ? `no route at this path: the endpoint's routes are under ${basePath} (${names.basePath}), e.g. ${basePath}${ROUTES.order}; check the element's endpoint`
    : `no route at this path: the endpoint's routes are at the root (${names.basePath} is not set), e.g. ${ROUTES.order}; check the element's endpoint`;
}

/** Builds the endpoint; throws ConfigError naming every bad config field. */
export function createMerchantEndpoint(config: EndpointConfig): MerchantEndpoint {
  return createNamedMerchantEndpoint(config, OPTION_NAMES);
}

/**
 * `createMerchantEndpoint`, its log hints naming the settings as `names` does (`serve`:
 * ENV_SETTING_NAMES). Not exported by the package.
 */
export function createNamedMerchantEndpoint(config: EndpointConfig, names: SettingNames): MerchantEndpoint {
  const settings = resolveSettings(config);
  const log = redactingLogger(settings.logger);
  const runtime: EndpointRuntime = {
    settings,
    log,
    gateway: endpointGateway(settings, log),
    flows: createFlowSealer({
      requestPhrase: settings.requestPhrase,
      merchantIdentifier: settings.merchantIdentifier,
      lifetimeSeconds: settings.flowLifetimeSeconds,
      now: settings.now,
    }),
    readyCards: createSealer<ReadyCard>({
      requestPhrase: settings.requestPhrase,
      merchantIdentifier: settings.merchantIdentifier,
      lifetimeSeconds: READY_CARD_SECONDS,
      now: settings.now,
      label: 'pg-checkout embedded ready card v1',
    }),
  };

  // Answers JSON as text: the Node adapter writes it as it is, every other runtime gets a Response.
  const answer: AnswerHandler = async (request, context) => {
    let language = languageFromHeaders(request);
    const path = new URL(request.url).pathname;
    const route = path.startsWith(settings.basePath) ? path.slice(settings.basePath.length) : undefined;
    const routeName = routeNameOf(route);
    try {
      if (route === ROUTES.gatewayReturn) return await handleGatewayReturn(request, context, runtime);
      if (route === EMBEDDED_CONFIRM_ROUTE) return await handleEmbeddedConfirm(request, context, runtime);
      const jsonRoute = route === undefined ? undefined : JSON_ROUTES.get(route);
      if (!isOriginAllowed(request, settings)) {
        const origin = request.headers.get('origin');
        log.warn('origin_refused', { route: routeName, origin: cutForLog(origin ?? ''), hint: originHint(origin, names) });
        throw new EndpointRefusal('origin_refused');
      }
      if (!jsonRoute || routeName === 'unknown') {
        // An allowed page's preflight is answered even here: the browser then sends its request and
        // reads the 404 below, where a refused preflight shows it only a network error.
        if (request.method === 'OPTIONS' && isCorsCaller(request, settings)) return preflightResponse(request, settings);
        throw new EndpointRefusal('not_found');
      }
      if (request.method === 'OPTIONS') return preflightResponse(request, settings);
      if (request.method !== 'POST') throw new EndpointRefusal('method_not_allowed', { headers: { allow: 'POST, OPTIONS' } });
      assertJsonContentType(request);
      const body = await readJsonObject(request, settings.maxBodyBytes);
      if (isLanguage(body['language'])) language = body['language'];
      const result = await runJsonRoute(jsonRoute, routeName, body, language, request, context, runtime);
      return jsonAnswer(200, result, corsHeaders(request, settings));
    } catch (error) {
      // Refusals of allowed cross-origin callers are readable too (corsHeaders is empty otherwise).
      // The store is down: the monitored store logged it once; the caller may try again.
      const refusal =
        error instanceof EndpointRefusal
          ? error
          : new EndpointRefusal(error instanceof StoreUnavailableError ? 'store_unavailable' : 'internal_error', {
              headers: error instanceof StoreUnavailableError ? { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } : {},
            });
      if (refusal.code === 'not_found') {
        // The path only, never the query: a gateway's return sent to a wrong path carries its fields there.
        log.info('refused', {
          route: routeName,
          code: refusal.code,
          status: refusal.status,
          path: pathForLog(path),
          hint: notFoundHint(settings.basePath, names),
        });
      } else if (refusal === error || refusal.code === 'store_unavailable') {
        log.info('refused', { route: routeName, code: refusal.code, field: refusal.details.field, status: refusal.status });
      } else {
        log.error('internal_error', { route: routeName, error });
      }
      const headers = { ...corsHeaders(request, settings), ...refusal.details.headers };
      return jsonAnswer(refusal.status, refusal.body(language), headers);
    }
  };
  return withAnswerEntry(async (request: Request, context: RequestContext = {}) => toResponse(await answer(request, context)), answer);
}

async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBodyText(request, maxBytes));
}

/** The name (path) of the first card field anywhere in `value`, if any. */
function findCardField(value: unknown, path = ''): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findCardField(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  for (const [name, item] of Object.entries(value)) {
    const here = path ? `${path}.${name}` : name;
    if (CARD_FIELDS.includes(name)) return here;
    const found = findCardField(item, here);
    if (found) return found;
  }
  return undefined;
}

/** The policy gate, then the route. Refusals name the field, never echo its value. */
async function runJsonRoute(
  route: JsonRoute<unknown>,
  routeName: EndpointRouteName,
  body: Readonly<Record<string, unknown>>,
  language: Language,
  request: Request,
  context: RequestContext,
  runtime: EndpointRuntime,
): Promise<unknown> {
  const { settings, log } = runtime;
  // The path is made of the caller's own key names: one could be a card number too.
  const cardField = hideCardNumbers(findCardField(body) ?? '');
  if (cardField) {
    log.warn('card_data_refused', { field: cardField });
    throw new EndpointRefusal('card_data_refused', { field: cardField });
  }
  const commandField = COMMAND_FIELDS.find((name) => body[name] !== undefined);
  if (commandField) throw new EndpointRefusal('command_refused', { field: commandField });
  if (body['command'] !== undefined && !route.commands?.includes(String(body['command']))) {
    throw new EndpointRefusal('command_refused', { field: 'command' });
  }
  const serverField = SERVER_FIELDS.find((name) => body[name] !== undefined);
  if (serverField) {
    throw new EndpointRefusal('invalid_request', {
      field: serverField,
      message: { en: `${serverField}: ${SERVER_FIELD_MESSAGE.en}`, ar: `${serverField}: ${SERVER_FIELD_MESSAGE.ar}` },
    });
  }

  const parsed = validate(compiled(route.schema), body, language);
  if (!parsed.ok) {
    const [first] = parsed.errors;
    throw new EndpointRefusal('invalid_request', { field: first?.field || undefined, message: first?.message });
  }
  const input = parsed.data as { merchant_reference: string; amount?: number; currency?: string };
  if (isAttemptReference(input.merchant_reference)) {
    log.warn('order_reference_reserved', { merchant_reference: input.merchant_reference });
    throw new EndpointRefusal('invalid_request', { field: 'merchant_reference', message: ATTEMPT_REFERENCE_REFUSAL });
  }
  // The browser named this reference: the merchant's resolver checks the order is the caller's, and
  // hears which payment it asks for (hosted and merchant page), so that it may refuse it.
  const { command } = input as { command?: unknown };
  const lookup = { request, route: routeName, referenceSource: 'browser', ...(isPaymentCommand(command) ? { command } : {}) } as const;
  const order = await settings.resolveOrder(input.merchant_reference, lookup);
  if (!order) throw new EndpointRefusal('unknown_order', { field: 'merchant_reference' });
  const disagreement = orderDisagreement(input, order);
  if (disagreement) {
    log.warn(disagreement, { merchant_reference: order.merchant_reference });
    throw new EndpointRefusal(disagreement, { field: disagreement === 'amount_mismatch' ? 'amount' : 'currency' });
  }

  const result = await route.handle({ input, order, language, request, context, runtime });
  const checked = readAt(route.result, result);
  if (!checked.ok) {
    log.error('result_breaks_contract', { issues: [checked.path.join('.')] });
    throw new EndpointRefusal('internal_error');
  }
  return checked.value;
}
