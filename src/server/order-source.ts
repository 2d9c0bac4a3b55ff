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
}

const REMEMBER_MS = 24 * 3600 * 1000;

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
  const askOnce = async (body: string, reference: string): Promise<MerchantOrder | undefined> => {
    let answer;
    try {
      answer = await postToShop(options, body);
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

  return async (reference: string, lookup: OrderLookup) => {
    const request: OrderLookupRequest = {
      type: 'order_lookup',
      merchant_reference: reference,
      route: lookup.route,
      reference_source: lookup.referenceSource,
      headers: forwardedHeaders(lookup.request, options.forwardHeaders ?? []),
      ...(lookup.command === undefined ? {} : { command: lookup.command }),
    };
    const body = JSON.stringify(request);
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
    const known = lookup.referenceSource === 'gateway' ? await recall(reference) : undefined;
    if (known) {
      log.warn('order_lookup_remembered', { merchant_reference: reference });
      return known;
    }
    log.warn('order_lookup_failed', { merchant_reference: reference, route: lookup.route, reason: failure?.reason });
    throw new EndpointRefusal('order_lookup_failed');
  };
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
