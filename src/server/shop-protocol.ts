/**
 * What the standalone service (`pg-checkout serve`) and the shop's own back end say to each other
 * over HTTP, every message signed with `PG_HOOK_SECRET` (hook-signature.ts):
 *
 * - the service asks `PG_ORDER_URL` for an order (`OrderLookupRequest`) and the shop answers the
 *   order (`ShopOrder`, signed too) or 404;
 * - the service posts each verified result to `PG_RESULT_WEBHOOK_URL` (`ResultWebhook`) until the
 *   shop answers 2xx;
 * - the shop may list the results it has not acknowledged and acknowledge one (`ResultsListRequest`,
 *   `ResultAcknowledgeRequest`) on the service's results routes.
 *
 * Each body the service sends names its `type`, so a signed message of one kind can never be taken
 * for another. Documented in docs/standalone.md.
 */
import * as z from 'zod/mini';
import { financingProduct, type EndpointRouteName } from '../core/endpoint-api.ts';
import { field } from '../core/schemas/index.ts';
import type { VerifiedResult } from './config.ts';
import { PAYMENT_COMMANDS, type PaymentCommand } from './orders.ts';

/** The service's lookup of one order, POSTed as JSON to `PG_ORDER_URL`. */
export interface OrderLookupRequest {
  readonly type: 'order_lookup';
  readonly merchant_reference: string;
  /** The endpoint route asking (`hostedPage`, `bill`, `gatewayReturn`, …). */
  readonly route: EndpointRouteName;
  /**
   * `browser`: the customer's browser named the reference; answer only for the order's owner,
   * judged by `headers`. `gateway`: the reference comes from a verified gateway answer (the
   * customer returning from the payment page): answer the order whoever asks.
   */
  readonly reference_source: 'browser' | 'gateway';
  /** The request headers named in `PG_ORDER_FORWARD_HEADERS` that the browser sent (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * `hostedPage`, `merchantPage`: the payment the browser asks for, `PURCHASE` or `AUTHORIZATION`
   * (absent when it names none). The shop may answer the order's own `command`, or 404 to refuse.
   */
  readonly command?: PaymentCommand;
}

/** Integer minor units, as the shop's order holds them. */
const minorUnits = z.number().check(z.int(), z.nonnegative());

/**
 * The shop's answer to a lookup (200, JSON, signed with `PG-Signature` like every message). Fields
 * the service does not know are ignored. A 404 means "no such order, or not this customer's".
 */
export const shopOrder = z.object({
  merchant_reference: field('merchant_reference'),
  /** Integer minor units: 250000 for EGP 2,500.00. */
  amount: minorUnits,
  currency: field('currency'),
  description: z.optional(field('order_description')),
  customer_email: z.optional(field('customer_email')),
  /** Any text: the service sends it as the gateway takes it, or leaves it out (core customerNameForGateway). */
  customer_name: z.optional(z.string().check(z.maxLength(200))),
  customer_code: z.optional(field('customer_code')),
  products: z.optional(z.array(financingProduct)),
  /** True when the shop already holds a payment for the order: nothing more is signed for it. */
  paid: z.optional(z.boolean()),
  /** How this order is paid (`PURCHASE` or `AUTHORIZATION`): the only command signed for it. Unset: `PG_PAYMENT_COMMANDS`. */
  command: z.optional(z.enum(PAYMENT_COMMANDS)),
});

export type ShopOrder = z.infer<typeof shopOrder>;

/**
 * A verified result, POSTed as JSON to `PG_RESULT_WEBHOOK_URL`; the shop answers 2xx once it has
 * stored it. `payment_result`: a payment's outcome, the only kind that may mark an order paid.
 * `saved_card`: a card saved without a payment (`result.kind` is `saved_card`, nothing charged):
 * store `result.saved_card.token_name` with the customer, never mark an order paid from it.
 */
export interface ResultWebhook {
  readonly type: 'payment_result' | 'saved_card';
  /** What `onResult` receives; store it by `result.idempotency_key` (an upsert). */
  readonly result: VerifiedResult;
}

/** The webhook's `type` for a result: a saved card is never a payment. */
export function webhookTypeOf(result: Pick<VerifiedResult, 'kind'>): ResultWebhook['type'] {
  return result.kind === 'saved_card' ? 'saved_card' : 'payment_result';
}

const webhookResult = {
  idempotency_key: z.string().check(z.minLength(1)),
  merchant_reference: field('merchant_reference'),
  outcome: z.enum(['success', 'pending', 'failure']),
  order_state: z.string(),
  response_code: z.string(),
  response_message: z.string(),
  amount: z.optional(minorUnits),
  currency: z.optional(field('currency')),
};

/** The fields of a result webhook the shop relies on; everything else in `result` is kept as sent. */
export const resultWebhook = z.discriminatedUnion('type', [
  // `kind` came with saved cards: a payment result of an older service has none, and is a payment.
  z.object({ type: z.literal('payment_result'), result: z.looseObject({ ...webhookResult, kind: z.optional(z.literal('payment')) }) }),
  z.object({
    type: z.literal('saved_card'),
    result: z.looseObject({
      ...webhookResult,
      kind: z.literal('saved_card'),
      saved_card: z.optional(z.looseObject({ token_name: z.string().check(z.minLength(1)), confirmed: z.boolean() })),
    }),
  }),
]);

/** `POST {base}/results/pending`: the results the shop has not acknowledged, oldest first. */
export const resultsListRequest = z.strictObject({
  limit: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(500))),
});

/** `POST {base}/results/acknowledge`: the shop has stored this result; stop delivering it. */
export const resultAcknowledgeRequest = z.strictObject({
  idempotency_key: z.string().check(z.minLength(1), z.maxLength(200)),
});

/** Paths of the service's own routes, under the endpoint's base path, beside the endpoint's `ROUTES`. */
export const SERVICE_ROUTES = {
  resultsPending: '/results/pending',
  resultsAcknowledge: '/results/acknowledge',
  /** The plain result page the customer lands on when no `PG_RESULT_URL` is set. */
  resultPage: '/result',
  resultPageStyles: '/result.css',
  /** Whether the instance can work: the store, and whether the gateway answers (health.ts). */
  health: '/health',
} as const;
