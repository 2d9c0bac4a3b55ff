/**
 * A new attempt at paying an order, after the customer closed a 3-D Secure check, travels under a
 * merchant_reference of its own: the gateway holds the order's reference while the abandoned check
 * waits (a second payment under it is refused, 00005), and an abandoned check may still be
 * completed in another tab. Attempt 1 is the order's own reference; attempt n is
 * `<order reference>.pg<n>` (the spec allows `.` in merchant_reference, at most 40 characters).
 * Every shell (the endpoint's payment routes and return, the reconciler) maps references with these
 * functions only, so a result is always reported under the merchant's order reference.
 */
import type { Language } from './language.ts';
import { BILL_ISSUED, canMoveOrderState, isPaidState, type OrderState } from './order-status.ts';
import { classifyResponse } from './response.ts';

/** Attempts an order may have: the first, and eight more after abandoned 3-D Secure checks. */
export const MAX_PAYMENT_ATTEMPTS = 9;

const MAX_REFERENCE_LENGTH = 40;
const ATTEMPT_PATTERN = /^(.+)\.pg([2-9])$/;

/** The merchant_reference of attempt `attempt` (1-based) of an order; undefined when it would not fit 40 characters. */
export function attemptReference(orderReference: string, attempt: number): string | undefined {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > MAX_PAYMENT_ATTEMPTS) return undefined;
  if (attempt === 1) return orderReference;
  const reference = `${orderReference}.pg${attempt}`;
  return reference.length <= MAX_REFERENCE_LENGTH ? reference : undefined;
}

export interface PaymentAttempt {
  /** The merchant's order reference. */
  readonly orderReference: string;
  /** 1 for the order's own reference. */
  readonly attempt: number;
}

/** The order and attempt a gateway merchant_reference belongs to. */
export function attemptOf(reference: string): PaymentAttempt {
  const match = ATTEMPT_PATTERN.exec(reference);
  if (!match?.[1] || !match[2]) return { orderReference: reference, attempt: 1 };
  return { orderReference: match[1], attempt: Number(match[2]) };
}

/**
 * True for a reference that reads as a later attempt (`<order>.pg2` … `.pg9`): the endpoint gives
 * these to new attempts, so a merchant's order may not carry one as its own reference (its
 * payments would be reported under another order's reference).
 */
export function isAttemptReference(reference: string): boolean {
  return attemptOf(reference).attempt > 1;
}

/** Why an order reference that {@link isAttemptReference} is refused, in each language. */
export const ATTEMPT_REFERENCE_REFUSAL: Readonly<Record<Language, string>> = {
  en: 'merchant_reference: must not end in ".pg2" to ".pg9", which are kept for new payment attempts',
  ar: 'merchant_reference: يجب ألا ينتهي بـ ".pg2" إلى ".pg9"، فهذه محجوزة لمحاولات الدفع الجديدة',
};

/** The merchant's order reference of a gateway merchant_reference (itself for a first attempt). */
export function orderReferenceOf(reference: string): string {
  return attemptOf(reference).orderReference;
}

/**
 * The other attempts of the same order, in the order to ask about them: every earlier one (they
 * exist, since this one was made after them), then the later ones, which a caller stops asking
 * about at the first the gateway does not hold.
 */
export function otherAttemptReferences(reference: string): { readonly earlier: string[]; readonly later: string[] } {
  const { orderReference, attempt } = attemptOf(reference);
  const earlier: string[] = [];
  const later: string[] = [];
  for (let n = 1; n <= MAX_PAYMENT_ATTEMPTS; n += 1) {
    const other = attemptReference(orderReference, n);
    if (other === undefined || n === attempt) continue;
    (n < attempt ? earlier : later).push(other);
  }
  return { earlier, later };
}

/**
 * True when a pending order at the gateway is a card check the customer left (3-D Secure), which a
 * new attempt may follow; false for anything else pending (an issued bill, paid at the counter,
 * never replaced by a new attempt).
 */
export function isAbandonableCheck(status: { readonly state: string; readonly transaction_code?: string | undefined }): boolean {
  return status.state === 'pending' && status.transaction_code !== BILL_ISSUED;
}

/** A cash bill that expired unpaid (response code 31001). */
const BILL_EXPIRED = '31001';

/**
 * True when the gateway lets a failed attempt's reference go, so that a new card may use it: a
 * declined card ("Try another card"). Not a bill that expired unpaid: the gateway keeps one bill per
 * reference, and refuses a payment under it, so the next attempt takes a new reference.
 */
export function isReferenceLetGo(status: { readonly state: string; readonly transaction_code?: string | undefined }): boolean {
  return status.state === 'failed' && status.transaction_code !== BILL_EXPIRED;
}

/**
 * True when a failed answer the customer's browser brought back is its own word, not the failure
 * CHECK_STATUS reads under its reference (`status`): that reading is of a declined card's charge
 * the gateway let go (isReferenceLetGo), and the answer names no charge or another one (its
 * `svc_id`): a card page the customer left ("Back to the shop", 00072) or one refused before any
 * charge, under the reference the next card was given. The declined charge stays as it was
 * recorded; this answer is its own result. The return of that declined charge itself (the same
 * `svc_id`) is the reading's, as is any answer while the gateway holds money or a payment waits.
 */
export function isOwnFailure(
  answer: { readonly response_code?: unknown; readonly status?: unknown; readonly svc_id?: unknown },
  status: { readonly state: string; readonly transaction_code?: string | undefined; readonly svc_id?: string | undefined },
): boolean {
  const charge = answer.svc_id === undefined || answer.svc_id === '' ? undefined : String(answer.svc_id);
  return classifyResponse(answer) === 'failure' && isReferenceLetGo(status) && charge !== status.svc_id;
}

/**
 * Another attempt of the same order that the gateway holds paid, if any: a payment that is paid
 * while this one is is a second charge for one order, which the shop must be told of. `stateOf`
 * asks the gateway (CHECK_STATUS) and answers undefined when it cannot say. Earlier attempts are
 * all asked; later ones until the first the gateway does not hold.
 */
export async function paidOtherAttempt(
  reference: string,
  stateOf: (reference: string) => Promise<OrderState | undefined>,
): Promise<string | undefined> {
  const { earlier, later } = otherAttemptReferences(reference);
  for (const other of earlier) {
    const state = await stateOf(other);
    if (state !== undefined && isPaidState(state)) return other;
  }
  for (const other of later) {
    const state = await stateOf(other);
    if (state === undefined || state === 'not_found') break;
    if (isPaidState(state)) return other;
  }
  return undefined;
}

/**
 * A result as an order's results are compared: the payment it is of (the reference the gateway
 * knows it by, an attempt's own when it is not the first, and the gateway's payment id when named)
 * and the state it leaves the order in.
 */
export interface PaymentResultState {
  readonly merchant_reference: string;
  readonly payment_reference?: string | undefined;
  readonly svc_id?: string | undefined;
  readonly state: OrderState;
}

/**
 * True when two results of an order are of different payments: different attempts (merchant
 * references at the gateway), or one reference whose payment ids differ (a declined attempt's
 * reference used again). One whose id is not named is taken for the same payment as the other.
 */
export function isAnotherPayment(a: PaymentResultState, b: PaymentResultState): boolean {
  const referenceOf = (result: PaymentResultState) => result.payment_reference ?? result.merchant_reference;
  if (referenceOf(a) !== referenceOf(b)) return true;
  return a.svc_id !== undefined && b.svc_id !== undefined && a.svc_id !== b.svc_id;
}

/**
 * Whether an order whose furthest result is `from` moves to `to` (core canMoveOrderState), knowing
 * which payment each is of: a new attempt paid after a voided one moves the order on, while a
 * payment never moves back from paid and a replay never downgrades the order.
 */
export function canMoveOrderPayment(from: PaymentResultState, to: PaymentResultState): boolean {
  return canMoveOrderState(from.state, to.state, { anotherPayment: isAnotherPayment(from, to) });
}
