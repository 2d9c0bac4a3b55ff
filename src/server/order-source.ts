/**
 * `resolveOrder` over HTTP: the standalone service asks the shop's back end (`PG_ORDER_URL`) for
 * each order, so the amount, currency and owner come from the shop whatever language it is
 * written in. The request is signed, carries the headers the shop needs to tell its customer
 * (`PG_ORDER_FORWARD_HEADERS`: the element's `pg-order-token`, or the session cookie when the
 * service shares the shop's origin), and the answer must be signed too and match the schema;
 * anything else is refused, never guessed.
 *
 * A shop that does not answer is asked again a couple of times with backoff. A customer coming
 * back from the payment page while the shop is down is still served: the order as the shop last
 * answered it (remembered in the store for a day, so a restart or another instance knows it too)
 * is enough to confirm the result, which then waits in the store until the shop takes it.
 *
 * The reconciler asks in the background, where nobody waits for the answer but a pass must end
 * within its claim: its form of the lookup (`backgroundLookupOf`) makes one attempt within a short
 * limit, and while the shop is marked down does not call it at all (one probe a minute), answering
 * at once with the remembered order, else a failure.
 */
import { assertMerchantOrder, type MerchantOrder, type OrderLookup, type ResolveOrder } from './orders.ts';
import { EndpointRefusal } from './errors.ts';
import type { Logger } from '../log/logger.ts';
import { StoreUnavailableError, type OrderMemory } from '../store/store.ts';
import {
  isSignatureRefusal,
  postToShop,
  ShopUnreachable,
  signatureRefusalHint,
  type ShopAvailability,
  type ShopCallSettings,
} from './shop-client.ts';
import { shopOrder, type OrderLookupRequest } from './shop-protocol.ts';

export interface HttpOrderSourceOptions extends ShopCallSettings {
  /** Request headers passed on to the shop, lower-case (default: none). */
  readonly forwardHeaders?: readonly string[];
  /** Attempts after the first when the shop is unreachable or answers 5xx (default 2). */
  readonly retries?: number;
  /** Wait before the first retry; each further one waits three times longer (default 200 ms). */
  readonly retryDelayMs?: number;
  /** Where orders are remembered for a return that arrives while the shop is down (24 h). */
  readonly orderMemory: OrderMemory;
  readonly log: Logger;
  readonly availability: ShopAvailability;
  /** The background lookup's time limit (default 2 s; the shop's `timeoutMs` when shorter). */
  readonly backgroundTimeoutMs?: number;
  /** While the shop is marked down, how often the background lookup still asks it (default every minute). */
  readonly backgroundProbeIntervalMs?: number;
}

const REMEMBER_MS = 24 * 3600 * 1000;
/** The background lookup's default time limit: one attempt, no retries. */
export const BACKGROUND_LOOKUP_TIMEOUT_MS = 2_000;
/** While the shop is marked down, the background lookup asks it at most this often. */
export const BACKGROUND_PROBE_INTERVAL_MS = 60_000;

/** The background form of each HTTP order source (see `backgroundLookupOf`). */
const backgroundLookups = new WeakMap<ResolveOrder, ResolveOrder>();

/**
 * The background form of an order source made by `createHttpOrderSource`, for a caller that must
 * not wait long (the reconciler, whose pass must end within its claim): one attempt within
 * `backgroundTimeoutMs`, no retries; while the shop is marked down (`ShopAvailability`, set by any
 * lookup that found it unreachable), or after it did not answer a background call, no call at all
 * but one probe per `backgroundProbeIntervalMs`. A background call that ran out of its own shorter
 * time does not mark the shop down for the checkouts' lookups, which wait the full `timeoutMs`.
 * When the shop does not answer, the order as it last answered (remembered for a day, for a
 * reference read from the gateway), else `order_lookup_failed`, at once. Undefined for any other
 * `resolveOrder` (the merchant's own function).
 */
export function backgroundLookupOf(resolveOrder: ResolveOrder): ResolveOrder | undefined {
  return backgroundLookups.get(resolveOrder);
}

/** A lookup failure that asking again may cure (the shop unreachable, or answering 5xx or 429). */
class TransientFailure extends Error {
  constructor(
    readonly reason: string,
    readonly status?: number,
  ) {
    super(reason);
  }
}

export function createHttpOrderSource(options: HttpOrderSourceOptions): ResolveOrder {
  const { log, availability } = options;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const memory = options.orderMemory;

  // Remembering is a convenience for a later outage: a store that cannot take it costs the customer nothing now.
  const remember = async (order: MerchantOrder): Promise<void> => {
    try {
      await memory.remember(order.merchant_reference, { ...order }, options.now());
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
    }
  };

  const recall = async (reference: string): Promise<MerchantOrder | undefined> => {
    const stored = await memory.recall(reference, new Date(options.now().getTime() - REMEMBER_MS));
    if (!stored) return undefined;
    try {
      const order = stored as unknown as MerchantOrder;
      assertMerchantOrder(order);
      return order;
    } catch {
      return undefined;
    }
  };

  /** One lookup: the order, undefined for a 404, or a thrown failure. */
  const askOnce = async (body: string, reference: string, timeoutMs = options.timeoutMs): Promise<MerchantOrder | undefined> => {
    let answer;
    try {
      answer = await postToShop({ ...options, timeoutMs }, body);
    } catch (error) {
      if (error instanceof ShopUnreachable) throw new TransientFailure(error.reason);
      throw error;
    }
    if (answer.status >= 500 || answer.status === 429) throw new TransientFailure('status', answer.status);
    availability.up('order_lookup');
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) {
      // 401/403: the shop refused our signature (another secret, a clock far off); 3xx: a wrong URL.
      log.error('order_lookup_refused', {
        merchant_reference: reference,
        status: answer.status,
        ...(isSignatureRefusal(answer.status) ? { hint: signatureRefusalHint('order_lookup') } : {}),
      });
      throw new EndpointRefusal('order_lookup_failed');
    }
    if (!answer.signature.valid) {
      log.error('order_lookup_signature_invalid', { merchant_reference: reference, reason: answer.signature.reason });
      throw new EndpointRefusal('order_lookup_failed');
    }
    return readOrder(answer.body, reference, log);
  };

  const bodyOf = (reference: string, lookup: OrderLookup): string => {
    const request: OrderLookupRequest = {
      type: 'order_lookup',
      merchant_reference: reference,
      route: lookup.route,
      reference_source: lookup.referenceSource,
      headers: forwardedHeaders(lookup.request, options.forwardHeaders ?? []),
      ...(lookup.command === undefined ? {} : { command: lookup.command }),
    };
    return JSON.stringify(request);
  };

  /** The shop did not answer: the order as it last answered (a reference read from the gateway), else a refusal. */
  const unanswered = async (reference: string, lookup: OrderLookup, reason: string | undefined): Promise<MerchantOrder> => {
    const known = lookup.referenceSource === 'gateway' ? await recall(reference) : undefined;
    if (known) {
      log.warn('order_lookup_remembered', { merchant_reference: reference });
      return known;
    }
    log.warn('order_lookup_failed', { merchant_reference: reference, route: lookup.route, reason });
    throw new EndpointRefusal('order_lookup_failed');
  };

  const resolve: ResolveOrder = async (reference: string, lookup: OrderLookup) => {
    const body = bodyOf(reference, lookup);
    let failure: TransientFailure | undefined;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(retryDelayMs * 3 ** (attempt - 1));
      try {
        const order = await askOnce(body, reference);
        if (order) await remember(order);
        return order;
      } catch (error) {
        if (!(error instanceof TransientFailure)) throw error;
        failure = error;
      }
    }
    availability.down('order_lookup', failure?.reason ?? 'network', failure?.status);
    return unanswered(reference, lookup, failure?.reason);
  };

  const backgroundTimeoutMs = Math.min(options.timeoutMs, options.backgroundTimeoutMs ?? BACKGROUND_LOOKUP_TIMEOUT_MS);
  const probeIntervalMs = options.backgroundProbeIntervalMs ?? BACKGROUND_PROBE_INTERVAL_MS;
  // No background call before this: the shop is marked down, or did not answer the last one.
  let probeAfter = 0;
  const inBackground: ResolveOrder = async (reference: string, lookup: OrderLookup) => {
    const at = options.now().getTime();
    if (at < probeAfter) return unanswered(reference, lookup, 'shop_down');
    // Marked down (by any lookup): this call is the probe; the next waits its interval.
    if (availability.isDown('order_lookup')) probeAfter = at + probeIntervalMs;
    try {
      const order = await askOnce(bodyOf(reference, lookup), reference, backgroundTimeoutMs);
      probeAfter = 0;
      if (order) await remember(order);
      return order;
    } catch (error) {
      if (!(error instanceof TransientFailure)) throw error;
      probeAfter = at + probeIntervalMs;
      // Out of the background's own shorter time only, the shop may still answer a checkout within
      // its full limit: it is not marked down for everyone (no `shop_unreachable`).
      if (error.reason !== 'timeout' || backgroundTimeoutMs >= options.timeoutMs) availability.down('order_lookup', error.reason, error.status);
      return unanswered(reference, lookup, error.reason);
    }
  };
  backgroundLookups.set(resolve, inBackground);
  return resolve;
}

/** The shop's answer as a MerchantOrder, or a refusal naming the fields at fault (logged, never echoed). */
function readOrder(body: string, reference: string, log: Logger): MerchantOrder {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    log.error('order_lookup_invalid', { merchant_reference: reference, fields: ['(not JSON)'] });
    throw new EndpointRefusal('order_lookup_failed');
  }
  const checked = shopOrder.safeParse(parsed);
  const fields = checked.success ? [] : [...new Set(checked.error.issues.map((issue) => issue.path.join('.') || '(body)'))];
  if (checked.success && checked.data.merchant_reference !== reference) fields.push('merchant_reference');
  if (checked.success && fields.length === 0) {
    try {
      assertMerchantOrder(checked.data);
    } catch {
      fields.push('currency');
    }
  }
  if (!checked.success || fields.length > 0) {
    log.error('order_lookup_invalid', { merchant_reference: reference, fields });
    throw new EndpointRefusal('order_lookup_failed');
  }
  const { description, customer_email, customer_name, customer_code, products, paid, command } = checked.data;
  return {
    merchant_reference: checked.data.merchant_reference,
    amount: checked.data.amount,
    currency: checked.data.currency,
    ...(description === undefined ? {} : { description }),
    ...(customer_email === undefined ? {} : { customer_email }),
    ...(customer_name === undefined ? {} : { customer_name }),
    ...(customer_code === undefined ? {} : { customer_code }),
    ...(products === undefined ? {} : { products }),
    ...(paid === undefined ? {} : { paid }),
    ...(command === undefined ? {} : { command }),
  };
}

function forwardedHeaders(request: Request, names: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
