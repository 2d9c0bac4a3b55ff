/**
 * Card testing: someone holding stolen card numbers tries them one after the other on a shop's
 * checkout, to learn which are good. Each try costs the merchant the gateway's fee and the
 * account's standing with the acquirer. The endpoint is where every try passes, so it counts the
 * cards it puts to use for an order: each hosted payment page it signs (the card is typed there),
 * each charge completing a card taken on the merchant's page or the embedded page, each card
 * saved. Attempts of one order (`order.pg2`…) count as the order. Past the limit
 * (`cardAttemptsPerHour`, default 10; counted in the store, so across instances) it refuses
 * (`card_attempts_limited`, 429 with Retry-After where the answer is JSON) and logs
 * `card_attempts_limited`, the signal to look at. The key is a digest of the order's reference.
 */
import { orderReferenceOf } from '../core/payment-attempts.ts';
import { EndpointRefusal } from './errors.ts';
import { limiterKey, type RateLimitDecision } from './rate-limit.ts';
import type { EndpointRuntime } from './route.ts';

type CardUse = 'hosted_page' | 'charge' | 'save_card';

/** Counts one card put to use for the order of `reference` (an attempt's reference counts as its order's). */
export async function countCardAttempt(runtime: EndpointRuntime, reference: string): Promise<RateLimitDecision> {
  return runtime.settings.cardAttemptLimiter.hit(await limiterKey('card', orderReferenceOf(reference)));
}

/** The log line of a card refused past the limit (not of a paid order's return posted again). */
export function logCardRefused(runtime: EndpointRuntime, reference: string, use: CardUse, decision: RateLimitDecision): void {
  runtime.log.warn('card_attempts_limited', { merchant_reference: orderReferenceOf(reference), use, retry_after_seconds: decision.retryAfterSeconds });
}

/** `countCardAttempt`, refusing past the limit: for a JSON route, whose answer carries Retry-After. */
export async function assertCardAttemptAllowed(runtime: EndpointRuntime, reference: string, use: CardUse): Promise<void> {
  const decision = await countCardAttempt(runtime, reference);
  if (decision.allowed) return;
  logCardRefused(runtime, reference, use, decision);
  throw new EndpointRefusal('card_attempts_limited', { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
}
