/**
 * Which payments are watched after the customer has left, and when they are asked about. A payment
 * that is not final when the endpoint last hears of it is written to the store as a watch; the
 * reconciler (reconciler.ts) asks CHECK_STATUS about it on this schedule until it is final or the
 * watch expires:
 *
 * - a signed payment form (hosted page, merchant page, embedded page): the customer may pay and
 *   never come back, or leave a 3-D Secure check half done;
 * - a cash bill issued: paid at the partner's counter, or cancelled at its expiry;
 * - a result that is `authorized` (captured, voided, or lapsed at the end of the hold) or `pending`;
 * - a return the gateway could not confirm;
 * - a back-office money call whose answer was lost (`unknown`): settled by a change of state, or,
 *   for a further capture or refund that leaves the state as it was, by totals the shop has not been
 *   told (reconciler.ts `moneyMovedInState`).
 *
 * The schedule: the first question after one interval, then waits doubling up to an hour, never
 * shorter than the interval (`PG_RECONCILE_INTERVAL_SECONDS`), and one interval after the moment
 * something is due (the bill's expiry, the end of the hold), whatever the backoff has reached.
 * A watch ends at its expiry after one last question, answered or not (`endsUnanswered`).
 */
import type { Language } from '../core/language.ts';
import type { OrderState } from '../core/order-status.ts';
import type { IssuedBillDetails, VerifiedResult } from '../core/verified-result.ts';
import { billResult, type BillResult } from '../core/endpoint-results.ts';
import { text } from '../core/order-answer.ts';
import { field } from '../core/schemas/index.ts';
import { object, read } from '../core/shape.ts';
import type { NewWatch, PaymentWatch, WatchKind } from '../store/store.ts';
import type { MerchantOrder } from './orders.ts';

/** The default shortest wait between two questions about one payment, in seconds. */
export const DEFAULT_RECONCILE_INTERVAL_SECONDS = 60;
/** The longest wait between two questions about one payment. */
export const DEFAULT_MAX_RECONCILE_INTERVAL_SECONDS = 3600;
/**
 * How long an authorization holds the money before the gateway voids it. The specification leaves
 * the period open; the sandbox and the official plugins' cron work with 7 days.
 */
export const DEFAULT_AUTHORIZATION_HOLD_DAYS = 7;

export interface WatchSettings {
  readonly intervalSeconds: number;
  readonly maxIntervalSeconds: number;
  readonly authorizationHoldDays: number;
}

export const DEFAULT_WATCH_SETTINGS: WatchSettings = {
  intervalSeconds: DEFAULT_RECONCILE_INTERVAL_SECONDS,
  maxIntervalSeconds: DEFAULT_MAX_RECONCILE_INTERVAL_SECONDS,
  authorizationHoldDays: DEFAULT_AUTHORIZATION_HOLD_DAYS,
};

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** A payment page lapses after about half an hour: a form signed and not used by then is checked. */
const PAGE_SESSION_MS = 30 * 60_000;

/** How long past its due moment each kind is still watched. */
const WATCHED_AFTER_DUE: Readonly<Record<WatchKind, number>> = {
  bill: 2 * DAY,
  authorization: 2 * DAY,
  in_progress: DAY,
  money_call: DAY,
  saved_card: DAY,
};

/** The states in which a payment of this kind may still change by itself (or by the customer). */
const OPEN_STATES: Readonly<Record<WatchKind, readonly OrderState[]>> = {
  bill: ['pending', 'not_found', 'unknown'],
  authorization: ['authorized', 'pending', 'not_found', 'unknown'],
  in_progress: ['pending', 'not_found', 'failed', 'unknown'],
  money_call: ['not_found', 'unknown'],
  // Asked with GET_TOKENS, not CHECK_STATUS: the order holds no payment, whatever the list says.
  saved_card: ['not_found', 'unknown'],
};

/**
 * True when a payment of this kind in this state will not change by itself any more. A lost money
 * call in the state it left is settled by its totals instead (reconciler.ts `moneyMovedInState`).
 */
export function isFinalFor(kind: WatchKind, state: OrderState, lastState: OrderState): boolean {
  // A lost money call is settled by any change from where the order stood before it.
  if (kind === 'money_call') return state !== lastState && !OPEN_STATES.money_call.includes(state);
  return !OPEN_STATES[kind].includes(state);
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** When to ask about a watched payment next, after `checks` questions. */
export function nextCheckAt(
  watch: Pick<PaymentWatch, 'due_at' | 'expires_at'>,
  checks: number,
  now: number,
  settings: WatchSettings,
): number {
  const interval = settings.intervalSeconds * 1000;
  const backoff = Math.min(settings.maxIntervalSeconds * 1000, interval * 2 ** Math.min(checks, 30));
  let next = now + Math.max(interval, backoff);
  const due = watch.due_at === undefined ? undefined : Date.parse(watch.due_at) + interval;
  if (due !== undefined && now < due && next > due) next = due;
  const expiresAt = Date.parse(watch.expires_at);
  // One last question at expiry, then the watch ends. Past it (that question went unanswered), the
  // backoff alone: a payment whose answer never reads is not asked every interval for ever.
  return now < expiresAt ? Math.min(next, Math.max(expiresAt, now + interval)) : next;
}

/**
 * How long past its expiry a watch is still asked while the gateway itself does not answer
 * (unreachable, 5xx, 429), or refuses every question for the merchant's own settings (00008,
 * 00006: until they are corrected): an outage or a misconfiguration at the moment of its last
 * question must not cost the payment its last report.
 */
export const UNANSWERED_GRACE_MS = DAY;

/**
 * Whether a watch whose question just went unanswered ends now: once past its expiry when the
 * gateway answered something that cannot be used (asking again reads the same), and only after the
 * grace as well when the gateway itself failed (`gatewayFailed`: it may answer once it is back, or
 * once the merchant's settings are corrected).
 */
export function endsUnanswered(watch: Pick<PaymentWatch, 'expires_at'>, gatewayFailed: boolean, now: number): boolean {
  return now >= Date.parse(watch.expires_at) + (gatewayFailed ? UNANSWERED_GRACE_MS : 0);
}

interface WatchBasis {
  readonly merchant_reference: string;
  readonly amount?: number | undefined;
  readonly currency?: string | undefined;
  readonly language: Language;
  readonly svc_id?: string | undefined;
}

function newWatch(
  kind: WatchKind,
  basis: WatchBasis,
  lastState: OrderState,
  dueAt: number,
  now: number,
  settings: WatchSettings,
  watchedAfterDue = WATCHED_AFTER_DUE[kind],
): NewWatch {
  const expiresAt = dueAt + watchedAfterDue;
  const watch = {
    merchant_reference: basis.merchant_reference,
    kind,
    ...(basis.svc_id === undefined ? {} : { svc_id: basis.svc_id }),
    ...(basis.amount === undefined ? {} : { amount: basis.amount }),
    ...(basis.currency === undefined ? {} : { currency: basis.currency }),
    language: basis.language,
    last_state: lastState,
    due_at: iso(dueAt),
    expires_at: iso(expiresAt),
  };
  return { ...watch, next_check_at: iso(nextCheckAt(watch, 0, now, settings)) };
}

/**
 * A hosted-page form was signed: the customer may pay on the gateway's page and never come back.
 * Most forms signed and never used stay "not found", so such a watch ends two hours after the page
 * would have lapsed.
 */
export function formWatch(basis: WatchBasis, now: number, settings: WatchSettings): NewWatch {
  return newWatch('in_progress', basis, 'not_found', now + PAGE_SESSION_MS, now, settings, 2 * HOUR);
}

/** A 3-D Secure check the customer was sent to: finished, failed or abandoned after they leave. */
export function threeDsWatch(basis: WatchBasis, now: number, settings: WatchSettings): NewWatch {
  return newWatch('in_progress', basis, 'pending', now + PAGE_SESSION_MS, now, settings);
}

/**
 * What is kept of an issued bill (by its watch, to show it again; in its `pending` result, for the
 * shop): its number, partner and expiry, and nothing else of what it was given. The order gives the rest.
 */
export function billDetailsOf(bill: IssuedBillDetails): IssuedBillDetails {
  const { bill_number, payment_partner, request_expiry_date } = bill;
  return { bill_number, payment_partner, request_expiry_date };
}

/**
 * A cash bill, payable until `expiresAt`: written before BILL_PRESENTMENT is sent with what it asks
 * for (its partner and expiry: no number yet, so an answer lost on the way back still leaves the
 * bill watched, and what CHECK_STATUS later names completes it, `billNamedBy`), then again with the
 * bill issued.
 */
export function billWatch(
  basis: WatchBasis,
  expiresAt: number,
  now: number,
  settings: WatchSettings,
  bill?: IssuedBillDetails | Omit<IssuedBillDetails, 'bill_number'>,
): NewWatch {
  const watch = newWatch('bill', basis, 'pending', expiresAt, now, settings);
  if (bill === undefined) return watch;
  const { payment_partner, request_expiry_date } = bill;
  return { ...watch, detail: { bill: 'bill_number' in bill ? billDetailsOf(bill) : { payment_partner, request_expiry_date } } };
}

const issuedBill = object({ bill_number: text, payment_partner: text, request_expiry_date: text });
const askedBill = object({ payment_partner: text, request_expiry_date: text });

/**
 * The bill a watch written before BILL_PRESENTMENT stands for, once a CHECK_STATUS answer names its
 * number (`bill_number`, the field's rule: 14 digits): the partner and expiry it was asked with,
 * kept in the watch. Undefined when the watch kept none (written before they were kept) or the
 * answer names no number. The gateway's specification lists no bill number in CHECK_STATUS: a
 * gateway that answers one lets a bill whose answer was lost be shown and reported (the sandbox does).
 */
export function billNamedBy(watch: Pick<PaymentWatch, 'kind' | 'detail'>, answer: Readonly<Record<string, unknown>>): IssuedBillDetails | undefined {
  const asked = watch.kind === 'bill' ? read(askedBill, watch.detail?.['bill']) : undefined;
  const number = field('bill_number').safeParse(answer['bill_number']);
  return asked === undefined || !number.success ? undefined : { bill_number: number.data, ...asked };
}

/**
 * The issued bill a bill watch keeps (its number, partner and expiry): undefined for another kind
 * of watch, and for a bill watch written before BILL_PRESENTMENT whose answer never came back.
 */
export function billKeptBy(watch: Pick<PaymentWatch, 'kind' | 'detail'>): IssuedBillDetails | undefined {
  return watch.kind === 'bill' ? read(issuedBill, watch.detail?.['bill']) : undefined;
}

/**
 * The bill an open bill watch keeps for `order`, while it is still payable at `now` and the order's
 * amount and currency are the bill's: what the customer is shown again when they ask for a bill
 * for the same order (another tab, another device, a reload).
 */
export function keptBillOf(watch: PaymentWatch | undefined, order: Pick<MerchantOrder, 'merchant_reference' | 'amount' | 'currency'>, now: number): BillResult | undefined {
  if (watch?.kind !== 'bill' || watch.ended_at !== undefined || watch.due_at === undefined || Date.parse(watch.due_at) <= now) return undefined;
  if (watch.amount !== order.amount || watch.currency !== order.currency) return undefined;
  const bill = billKeptBy(watch);
  if (bill === undefined) return undefined;
  return read(billResult, { ...bill, merchant_reference: order.merchant_reference, amount: order.amount, currency: order.currency });
}

/**
 * A back-office money call ended `unknown`; `before` is where the order stood before it (the last
 * reading the client took). A second partial capture or refund leaves that state as it was: the
 * reconciler then reports the totals the shop has not been told.
 */
export function moneyCallWatch(basis: WatchBasis, before: OrderState, now: number, settings: WatchSettings): NewWatch {
  return newWatch('money_call', basis, before, now + settings.intervalSeconds * 1000, now, settings);
}

/**
 * A card saved without a payment whose token list could not be read at the return: the reconciler
 * asks GET_TOKENS until it answers. `tokenization` is the gateway's verified answer of the saving
 * (its reference, code, message and status), kept with the token to build the result.
 */
export function savedCardWatch(
  basis: WatchBasis,
  tokenName: string,
  tokenization: Readonly<Record<string, unknown>>,
  now: number,
  settings: WatchSettings,
): NewWatch {
  const answered: Record<string, unknown> = {};
  for (const name of ['merchant_reference', 'response_code', 'response_message', 'status', 'language', 'service_command']) {
    if (tokenization[name] !== undefined) answered[name] = tokenization[name];
  }
  return {
    ...newWatch('saved_card', basis, 'unknown', now + settings.intervalSeconds * 1000, now, settings),
    detail: { token_name: tokenName, tokenization: answered },
  };
}

/** The watch a recorded result calls for: an authorization until captured or voided, a pending payment until it ends. */
export function resultWatch(
  result: Pick<VerifiedResult, 'merchant_reference' | 'order_state' | 'source' | 'error' | 'svc_id' | 'amount' | 'currency'> &
    Partial<Pick<VerifiedResult, 'payment_reference'>>,
  language: Language,
  now: number,
  settings: WatchSettings,
): NewWatch | undefined {
  if (result.error !== undefined || result.source === 'save-card') return undefined;
  // A new attempt's payment is watched under its own reference: the one CHECK_STATUS knows it by.
  const basis = { ...result, merchant_reference: result.payment_reference ?? result.merchant_reference, language };
  if (result.order_state === 'authorized') {
    return newWatch('authorization', basis, 'authorized', now + settings.authorizationHoldDays * DAY, now, settings);
  }
  if (result.order_state === 'pending') return newWatch('in_progress', basis, 'pending', now + PAGE_SESSION_MS, now, settings);
  return undefined;
}

/**
 * Whether a recorded result ends the watch of its payment (one written before its charge, or at
 * its form): a payment's final state, confirmed without an error. A saved card, an overruled
 * result and an open state keep theirs.
 */
export function endsWatch(result: Pick<VerifiedResult, 'kind' | 'source' | 'error' | 'order_state'>): boolean {
  return result.kind === 'payment' && result.source !== 'save-card' && result.error === undefined && isFinalFor('in_progress', result.order_state, 'unknown');
}

/**
 * A payment that may have happened without the endpoint knowing how it ended: a return the gateway
 * could not confirm, or a server-to-server charge under way (written before it is sent).
 */
export function unconfirmedWatch(basis: WatchBasis, now: number, settings: WatchSettings): NewWatch {
  return newWatch('in_progress', basis, 'unknown', now + settings.intervalSeconds * 1000, now, settings);
}
