/**
 * The reconciler: asks the gateway about payments that finish after the customer has left, and
 * reports each change it finds once. Watches (watches.ts) are rows in the store with a schedule,
 * never timers in memory, so a restart loses nothing and several instances split the work: each
 * pass claims the watches due now (SKIP LOCKED on PostgreSQL) and holds them while it asks.
 *
 * For each claimed watch it asks CHECK_STATUS (a saved card: GET_TOKENS) (once, through the back-office client: no retries of
 * its own, the schedule is the retry) and compares the order's state with the one last read:
 * - a forward move (a bill paid, an authorization voided at the end of its hold, a 3-D Secure
 *   check finished, a capture whose answer was lost now visible) becomes a result with its own
 *   idempotency key (reference, payment id, state), recorded and reported like any other;
 * - a back-office capture or refund whose answer was lost (a money-call watch) is settled by a change
 *   of state, or, in the same state (a second partial capture or refund), by totals the shop has not
 *   been told yet: the reading's result is not in the ledger (`moneyMovedInState`);
 * - "order not found" or an unknown state never downgrades anything: it is asked again later; nor
 *   does a reading of a paid state that names no amount (core `namesNoPaidAmount`): it is taken as
 *   unanswered (logged `gateway_amount_invalid`) and asked again, never recorded as a failure;
 * - an unreachable, refusing or rate-limiting gateway makes the watch wait longer (backoff), and
 *   ends the pass early, so an outage never turns into a burst of questions; the watches the pass
 *   did not reach are handed back as due as they were, ahead of the ones that failed; when the gateway says
 *   how long to wait (HTTP 429, or a `Retry-After` on any refusal), no question is asked before
 *   then, about that payment or any other: the pass stops at once, every active watch in the store
 *   is moved past the wait (so other instances behind the same store keep it too), and the next
 *   passes ask nothing;
 * - a cash bill still waiting whose own result is not in the ledger (the service was killed, or the
 *   store down, between issuing it and recording it) is reported once, as a request reading it would
 *   report it, with the bill its watch kept: the shop hears of the bill before it is paid;
 * - a question refused for the merchant's own settings (core `isConfigurationRefusal`: 00008,
 *   00006), CHECK_STATUS or a saved card's GET_TOKENS, is not an answer about the payment or the
 *   token: it is logged `gateway_configuration_refused` (error, with the settings to check, once a
 *   pass) and treated as an outage: the watch waits, and ends only after the outage's grace past
 *   its expiry (`endsUnanswered`), since every question is refused alike until the settings are
 *   corrected (a saved card is then reported not confirmed, as a list refused for another reason);
 * - questions are paced across payments (`questionsPerMinute`).
 * A payment found holding money for the first time (from a state that holds none) is checked
 * against the merchant's order as it stands then (`orderOf`, when given: the shop may have changed
 * the order since the watch was written), else against what the watch kept of it. A move of the
 * same payment from one state holding money to another (a hold captured, a capture refunded) is
 * checked against the amount its watch kept when the money was first held, never against the order
 * as it is now: the shop may have reduced the order before a partial capture (`resultOfReading`).
 * A pass stops taking watches before its claim runs out (`ROUND_MARGIN_MS`), and the order lookup
 * has a time limit of its own (`orderLookupTimeoutMs`), so that no other instance claims a watch
 * still being asked about.
 * A watch ends when its payment is final, or at its expiry (one last question first). A watch whose
 * last question goes unanswered ends too, so that an answer that never reads is not asked about for
 * ever: at once when the gateway answered something unusable, after a grace when the gateway itself
 * failed (watches.ts `endsUnanswered`).
 */
import { AmountError } from '../core/amounts.ts';
import type { Language } from '../core/language.ts';
import {
  BILL_ISSUED,
  billKeyOf,
  canMoveOrderState,
  isPaidState,
  namesNoPaidAmount,
  orderStatusOf,
  paymentOutcomeOf,
  resultKeyOf,
  runningTotalOf,
  type OrderStatus,
} from '../core/order-status.ts';
import { orderReferenceOf, paidOtherAttempt } from '../core/payment-attempts.ts';
import { isConfigurationRefusal, parseResponseCode, responseMessage, RESPONSE_CODES, type KnownResponseCode } from '../core/response.ts';
import { formatDateTimeWithOffset } from '../core/dates.ts';
import { getTokensRequest, getTokensResponse, type CheckStatusResponse, type GetTokensResponse } from '../core/schemas/index.ts';
import type { VerifiedResult } from '../core/verified-result.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { refusalHint } from '../gateway/messages.ts';
import { CHECK_STATUS } from '../gateway/reconcile.ts';
import { GatewayUnavailableError, isRetryable } from '../gateway/transport.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import type { PaymentWatch, ResultStore, Store } from '../store/store.ts';
import { backgroundLoop, type RoundControl } from './background.ts';
import type { EndpointErrorCode } from '../core/endpoint-api.ts';
import { EndpointRefusal } from './errors.ts';
import { backgroundLookupOf } from './order-source.ts';
import type { MerchantOrder, ResolveOrder } from './orders.ts';
import { keyedForLedger, ledgerKeyOf, recordedUnder } from './result-ledger.ts';
import type { OperationSpec } from '../gateway/call.ts';
import { checkTakenAmount, savedCardResult, tokenLookupOf, type TokenLookup } from './results.ts';
import { billKeptBy, billNamedBy, DEFAULT_WATCH_SETTINGS, endsUnanswered, isFinalFor, nextCheckAt, resultWatch, type WatchSettings } from './watches.ts';

const GET_TOKENS: OperationSpec<GetTokensResponse> = { name: 'GET_TOKENS', requestSchema: getTokensRequest, answerSchema: getTokensResponse };
const DAY_MS = 24 * 3600_000;

/** What the reconciler needs of the merchant's order: its amount (minor units) and currency. */
export type ReconcilerOrder = Pick<MerchantOrder, 'amount' | 'currency'>;

/**
 * The merchant's order as it stands now, by the order's own reference (never a later attempt's
 * `<order>.pg2`): undefined when the merchant has no such order. It may throw (the shop is down).
 */
export type ReconcilerOrderLookup = (merchantReference: string) => ReconcilerOrder | undefined | Promise<ReconcilerOrder | undefined>;

/**
 * An endpoint's `resolveOrder` as the reconciler's `orderOf`. The reference comes from a watch the
 * endpoint wrote for a payment it started, not from a browser, so it is asked as for a verified
 * gateway answer (`referenceSource: 'gateway'`, route `gatewayReturn`: answered whoever asks),
 * with a request of its own that carries no header, cookie or body. The shop's HTTP lookup
 * (order-source.ts) is asked in its background form: one attempt with a short time limit, and not
 * at all while the shop is marked down (its remembered order, else a failure, at once).
 */
export function orderLookupOf(resolveOrder: ResolveOrder): ReconcilerOrderLookup {
  const resolve = backgroundLookupOf(resolveOrder) ?? resolveOrder;
  return (merchantReference) =>
    resolve(merchantReference, {
      request: new Request('http://reconciler.invalid/', { method: 'POST' }),
      route: 'gatewayReturn',
      referenceSource: 'gateway',
    });
}

export interface ReconcilerOptions {
  /**
   * The watches, and the results recorded so far (a `Store` gives both): read to tell whether a
   * cash bill still waiting was reported by its own result. A store without `results` cannot say,
   * and such a bill is then reported only once paid or cancelled.
   */
  readonly store: Pick<Store, 'watches'> & { readonly results?: Pick<ResultStore, 'get'> };
  /** The back-office client: every question goes through it. */
  readonly gateway: Pick<GatewayClient, 'call'>;
  /** Records a result found and tells the shop (the same path as a return's result). */
  readonly report: (result: VerifiedResult) => Promise<void>;
  readonly log: Logger;
  readonly now?: () => Date;
  readonly settings?: Partial<WatchSettings>;
  /** Questions per minute across all payments, to stay well under a gateway rate limit (default 60). */
  readonly questionsPerMinute?: number;
  /** Watches one pass takes at once (default 10). */
  readonly batchSize?: number;
  /** How often the background loop looks for due watches (default: every 5 s). */
  readonly pollIntervalMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * The merchant's order as it stands now (the shop may have changed it after the watch was
   * written: a back-office edit of the cart). Asked only before reporting a payment that holds or
   * took money, with the order's own reference; what the gateway took is checked against its
   * amount, and the result carries its currency. Not given, or failing (throws, or answers no
   * order): the order as the watch kept it is compared, and the failure is logged
   * (`reconcile_order_lookup_failed`). An endpoint's `resolveOrder` fits through `orderLookupOf`.
   * Asked only when a payment first shows money: a later move of the same payment (its capture,
   * its refund) is compared with the amount its watch kept then.
   */
  readonly orderOf?: ReconcilerOrderLookup;
  /**
   * How long one `orderOf` lookup may take (default 5 s): past it, the watch's amount is compared,
   * and `orderOf` is not asked again in the same pass (the shop is not answering).
   */
  readonly orderLookupTimeoutMs?: number;
}

export interface PassSummary {
  /** Questions asked. */
  readonly asked: number;
  /** Changes reported. */
  readonly reported: number;
  /** Watches ended (final, or expired). */
  readonly ended: number;
  /** Questions the gateway did not answer. */
  readonly failed: number;
}

export interface Reconciler {
  /** One pass over the watches due now. */
  runDue(control?: RoundControl): Promise<PassSummary>;
  start(): void;
  /** Stops the loop: a pass under way ends after its current question, the watches it had not asked about due again at once; waits for it. */
  stop(): Promise<void>;
}

/** A pass stops asking after this many unanswered questions in a row: the gateway is down or limiting. */
const FAILURES_BEFORE_PAUSE = 2;
/**
 * How long a claimed watch is held from other instances while this one asks: a round of 10
 * questions, paced a second apart, each within the client's 10-second limit, fits in it; a killed
 * process delays its claimed watches by at most this.
 */
const CLAIM_MS = 2 * 60_000;
/**
 * A pass takes no further watch once less than this is left of its claim: one watch's questions
 * (CHECK_STATUS within the client's 10 s, the order lookup within its limit, the report) fit in
 * it, so the last watch taken is done before another instance may claim it.
 */
const ROUND_MARGIN_MS = 30_000;
/** The default limit of one `orderOf` lookup. */
const ORDER_LOOKUP_TIMEOUT_MS = 5_000;
/** Why the last question of a pass went unanswered, for its pause. */
type Unanswered = 'gateway_unanswered' | 'gateway_configuration_refused';

/** What one pass knows beyond its counts. */
interface Round {
  /** The shop's lookup ran out of time in this pass: not asked again until the next. */
  lookupTimedOut: boolean;
  /** `gateway_configuration_refused` was logged in this pass. */
  configurationLogged: boolean;
  /** Why the last question went unanswered. */
  unanswered?: Unanswered;
}

export function createReconciler(options: ReconcilerOptions): Reconciler {
  const { store, gateway, log } = options;
  const now = options.now ?? (() => new Date());
  const settings: WatchSettings = { ...DEFAULT_WATCH_SETTINGS, ...options.settings };
  const gapMs = 60_000 / (options.questionsPerMinute ?? 60);
  const batchSize = options.batchSize ?? 10;
  const lookupTimeoutMs = options.orderLookupTimeoutMs ?? ORDER_LOOKUP_TIMEOUT_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let lastQuestionAt = 0;
  // When the gateway last asked to be left alone (HTTP 429, Retry-After) until: no question before then.
  let quietUntil = 0;

  const pace = async (): Promise<void> => {
    const wait = lastQuestionAt + gapMs - Date.now();
    if (wait > 0) await sleep(wait);
    lastQuestionAt = Date.now();
  };

  const ask = async (watch: PaymentWatch): Promise<OrderReading> => {
    const { answer } = await gateway.call(CHECK_STATUS, {
      language: watch.language,
      retry: false,
      params: { query_command: 'CHECK_STATUS', merchant_reference: watch.merchant_reference, language: watch.language },
    });
    try {
      return { status: orderStatusOf(answer), answer };
    } catch (error) {
      if (!(error instanceof AmountError)) throw error;
      throw new GatewayUnavailableError('CHECK_STATUS', 'answer_invalid');
    }
  };

  /** The quiet a rate-limited gateway asked for, kept in the store so every instance keeps it too. */
  const keepQuiet = async (error: GatewayUnavailableError, at: number): Promise<void> => {
    if (error.kind !== 'rate_limited' && error.retryAfterMs === undefined) return;
    quietUntil = Math.max(quietUntil, at + (error.retryAfterMs ?? settings.intervalSeconds * 1000));
    await store.watches.deferAll(new Date(quietUntil));
  };

  const unanswered = async (watch: PaymentWatch, error: unknown, at: number, counts: { ended: number }): Promise<false> => {
    if (!(error instanceof GatewayUnavailableError)) throw error;
    const { retryAfterMs } = error;
    const reason = error.httpStatus === undefined ? error.kind : `${error.kind} ${error.httpStatus}`;
    log.warn('reconcile_unanswered', {
      merchant_reference: watch.merchant_reference,
      reason: error.kind,
      http_status: error.httpStatus,
      ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs }),
    });
    await keepQuiet(error, at);
    // As `watch_expired`: logged, and nothing reported (the shop holds the order's last result).
    if (endsUnanswered(watch, isRetryable(error.kind), at)) {
      log.warn('watch_expired_unanswered', { merchant_reference: watch.merchant_reference, kind: watch.kind, last_state: watch.last_state, reason });
      await store.watches.end(watch.merchant_reference, new Date(at), 'expired_unanswered');
      counts.ended += 1;
      return false;
    }
    await store.watches.update(watch.merchant_reference, {
      next_check_at: new Date(Math.max(nextCheckAt(watch, watch.checks + 1, at, settings), quietUntil)).toISOString(),
      checked: 1,
      last_error: reason,
    });
    return false;
  };

  /**
   * A question refused for the merchant's own settings (00008, 00006): not an answer about the
   * payment or the token, and every question is refused alike until the settings are corrected.
   * Logged once a pass, with the settings to check; the watch waits as in an outage. Past the grace
   * after its expiry (`endsUnanswered`, the gateway failing), `atGraceEnd` settles it instead, so a
   * correction within the grace still finds the payment or the token.
   */
  const refusedForSettings = async (
    watch: PaymentWatch,
    answer: { readonly response_code?: unknown; readonly status?: unknown },
    operation: 'CHECK_STATUS' | 'GET_TOKENS',
    at: number,
    round: Round,
    atGraceEnd: () => Promise<void>,
  ): Promise<false> => {
    round.unanswered = 'gateway_configuration_refused';
    if (!round.configurationLogged) {
      round.configurationLogged = true;
      log.error('gateway_configuration_refused', {
        operation,
        merchant_reference: watch.merchant_reference,
        response_code: parseResponseCode(answer.response_code)?.code,
        hint: refusalHint(answer, 'en'),
      });
    }
    if (endsUnanswered(watch, true, at)) {
      await atGraceEnd();
      return false;
    }
    await store.watches.update(watch.merchant_reference, {
      next_check_at: new Date(Math.max(nextCheckAt(watch, watch.checks + 1, at, settings), quietUntil)).toISOString(),
      checked: 1,
      last_error: 'configuration_refused',
    });
    return false;
  };

  /** A payment's watch past the grace with CHECK_STATUS still refused for the settings: ended, nothing reported. */
  const endRefusedForSettings = async (watch: PaymentWatch, at: number, counts: { ended: number }): Promise<void> => {
    log.warn('watch_expired_unanswered', {
      merchant_reference: watch.merchant_reference,
      kind: watch.kind,
      last_state: watch.last_state,
      reason: 'configuration_refused',
    });
    await store.watches.end(watch.merchant_reference, new Date(at), 'expired_unanswered');
    counts.ended += 1;
  };

  /**
   * A card saved without a payment: GET_TOKENS (the token kept and ACTIVE) confirms it, as at the
   * return. Reported once the list answers, whatever it says; a question unanswered, or refused for
   * the merchant's settings, is asked again (the latter until the grace past the watch's expiry).
   */
  const checkSavedCard = async (watch: PaymentWatch, counts: { reported: number; ended: number }, round: Round): Promise<boolean> => {
    const at = now().getTime();
    const tokenName = typeof watch.detail?.['token_name'] === 'string' ? watch.detail['token_name'] : undefined;
    if (tokenName === undefined) {
      await store.watches.end(watch.merchant_reference, new Date(at), 'invalid');
      counts.ended += 1;
      return true;
    }
    let answer: GetTokensResponse;
    try {
      ({ answer } = await gateway.call(GET_TOKENS, {
        language: watch.language,
        retry: false,
        params: {
          query_command: 'GET_TOKENS',
          language: watch.language,
          // The token was made when the watch began, a return's time before at most.
          from_date: formatDateTimeWithOffset(Date.parse(watch.created_at) - DAY_MS),
          token_status: 'ACTIVE',
        },
      }));
    } catch (error) {
      // A verified answer of a shape the list's schema does not know: the list cannot be read.
      if (error instanceof GatewayUnavailableError && error.kind === 'answer_invalid') {
        await settleSavedCard(watch, tokenName, { unavailable: 'token_list_unreadable' }, at, counts);
        return true;
      }
      round.unanswered = 'gateway_unanswered';
      return unanswered(watch, error, at, counts);
    }
    const lookup = tokenLookupOf(answer, tokenName) ?? { unavailable: 'token_list_refused' };
    if (isConfigurationRefusal(answer)) {
      return refusedForSettings(watch, answer, 'GET_TOKENS', at, round, () => settleSavedCard(watch, tokenName, lookup, at, counts));
    }
    // Any other verified answer settles it: the list names the token, does not, or cannot be had.
    await settleSavedCard(watch, tokenName, lookup, at, counts);
    return true;
  };

  /** Reports a saved card as the token list settles it (listed, not listed, or not to be had), and ends its watch. */
  const settleSavedCard = async (
    watch: PaymentWatch,
    tokenName: string,
    lookup: NonNullable<TokenLookup>,
    at: number,
    counts: { reported: number; ended: number },
  ): Promise<void> => {
    const tokenization = (watch.detail?.['tokenization'] ?? {}) as Readonly<Record<string, unknown>>;
    const result = await savedCardResult(tokenization, tokenName, lookup, watch.language);
    if (result.saved_card && !result.saved_card.confirmed) {
      log.warn('saved_card_unconfirmed', {
        merchant_reference: watch.merchant_reference,
        reason: result.saved_card.unconfirmed_reason,
        ...('response_code' in lookup ? { response_code: lookup.response_code } : {}),
      });
    }
    await options.report(result);
    counts.reported += 1;
    await store.watches.end(watch.merchant_reference, new Date(at), result.saved_card?.confirmed ? 'saved' : result.saved_card ? 'saved_unconfirmed' : 'not_saved');
    counts.ended += 1;
  };

  /**
   * The result of a cash bill still waiting at the counter (CHECK_STATUS: pending, last operation
   * 30000) under its bill watch, when the shop has not heard of the bill: neither the bill's own
   * result (key `billKeyOf`, the number its watch kept) nor this reading's (the key a request
   * reading the bill waiting records it under, results.ts `reportOnce`) is in the ledger. It
   * carries the bill the watch kept; when BILL_PRESENTMENT's answer was lost, the one CHECK_STATUS
   * names (`billNamedBy`: the specification lists no bill number there, so a gateway may name none,
   * and the result then carries no bill). Undefined otherwise, and when the store given has no results to read.
   */
  const unreportedBill = async (watch: PaymentWatch, reading: OrderReading): Promise<VerifiedResult | undefined> => {
    const { status } = reading;
    const lookup = store.results && recordedUnder(store.results);
    if (watch.kind !== 'bill' || status.state !== 'pending' || status.transaction_code !== BILL_ISSUED || !lookup) return undefined;
    // A bill whose BILL_PRESENTMENT answer was lost: its number as the gateway names it, when it does.
    const bill = billKeptBy(watch) ?? billNamedBy(watch, reading.answer);
    const result = resultOfReading(watch, reading, log);
    const keys = [...(bill === undefined ? [] : [billKeyOf(watch.merchant_reference, bill.bill_number)]), result.idempotency_key];
    for (const key of keys) {
      if ((await lookup(key)) !== undefined) return undefined;
    }
    return bill === undefined ? result : { ...result, bill };
  };

  /**
   * The merchant's order for a watch as it stands now, for a payment that first holds money;
   * undefined (logged) when there is no lookup, it fails, or it does not answer within its limit:
   * the watch's own amount is then compared. A lookup that ran out of time is not asked again in
   * the same pass (`skipped`): a shop that hangs must not hold the pass past its claim.
   */
  const currentOrder = async (watch: PaymentWatch, round: Round): Promise<ReconcilerOrder | undefined> => {
    const { orderOf } = options;
    if (!orderOf) return undefined;
    const reference = orderReferenceOf(watch.merchant_reference);
    const payment = reference === watch.merchant_reference ? {} : { payment_reference: watch.merchant_reference };
    if (round.lookupTimedOut) {
      log.warn('reconcile_order_lookup_failed', { merchant_reference: reference, ...payment, reason: 'skipped' });
      return undefined;
    }
    try {
      const order = await withinLimit(Promise.resolve().then(() => orderOf(reference)), lookupTimeoutMs);
      if (order === TIMED_OUT) {
        round.lookupTimedOut = true;
        log.warn('reconcile_order_lookup_failed', { merchant_reference: reference, ...payment, reason: 'timeout', timeout_ms: lookupTimeoutMs });
        return undefined;
      }
      if (order) return order;
      log.warn('reconcile_order_lookup_failed', { merchant_reference: reference, ...payment, reason: 'unknown_order' });
    } catch (error) {
      log.warn('reconcile_order_lookup_failed', {
        merchant_reference: reference,
        ...payment,
        reason: error instanceof EndpointRefusal ? error.code : 'error',
        ...(error instanceof EndpointRefusal ? {} : { error }),
      });
    }
    return undefined;
  };

  /** Asks about one watch; true when the gateway answered. */
  const check = async (watch: PaymentWatch, counts: { reported: number; ended: number }, round: Round): Promise<boolean> => {
    if (watch.kind === 'saved_card') return checkSavedCard(watch, counts, round);
    const at = now().getTime();
    const reference = watch.merchant_reference;
    let reading: OrderReading;
    try {
      reading = await ask(watch);
    } catch (error) {
      round.unanswered = 'gateway_unanswered';
      return unanswered(watch, error, at, counts);
    }
    if (isConfigurationRefusal(reading.answer)) {
      return refusedForSettings(watch, reading.answer, 'CHECK_STATUS', at, round, () => endRefusedForSettings(watch, at, counts));
    }
    const { status } = reading;
    if (namesNoPaidAmount(status)) {
      // Not an answer about the money: a result of it would be kept under the payment's key for good.
      log.error('gateway_amount_invalid', { operation: 'CHECK_STATUS', merchant_reference: reference, field: 'authorized_amount', rule: 'missing' });
      round.unanswered = 'gateway_unanswered';
      return unanswered(watch, new GatewayUnavailableError('CHECK_STATUS', 'answer_invalid'), at, counts);
    }
    const state = status.state;
    const move = await moveOfReading(watch, reading, store.results);
    const movedInState = move === 'in_state';
    const moved = move !== undefined;
    // Only a payment that first shows money is compared with the order as it is now: nothing to
    // ask the merchant for a state that holds none, nor for a later move of the same payment.
    const order = moved && isPaidState(state) && !isSamePaymentMove(watch, status) ? await currentOrder(watch, round) : undefined;
    if (moved) {
      // Under the key the ledger records it (a further capture's own): `report` hears the key the shop is sent.
      const result = await keyedResultOfReading(watch, reading, store.results, log, order);
      await options.report(isPaidState(state) ? await withDuplicate(result, watch) : result);
      counts.reported += 1;
    } else {
      // No move, but the shop may never have heard of the bill waiting: its own result was lost.
      const bill = await unreportedBill(watch, reading);
      if (bill) {
        log.warn('bill_result_recovered', { merchant_reference: reference, idempotency_key: bill.idempotency_key });
        await options.report(bill);
        counts.reported += 1;
      }
    }
    const expired = at >= Date.parse(watch.expires_at);
    if (movedInState || isFinalFor(watch.kind, state, watch.last_state)) {
      // A payment found authorized (a 3-D Secure check finished, a charge under a bill's reference)
      // is now an authorization to watch, until it is captured or voided.
      const next = watch.kind !== 'authorization' && state === 'authorized' ? authorizationWatch(watch, status, at, order) : undefined;
      if (next) {
        await store.watches.watch(next, new Date(at));
      } else {
        await store.watches.end(reference, new Date(at), state);
        counts.ended += 1;
      }
      return true;
    }
    if (expired) {
      log.warn('watch_expired', { merchant_reference: reference, kind: watch.kind, order_state: state });
      await store.watches.end(reference, new Date(at), 'expired');
      counts.ended += 1;
      return true;
    }
    await store.watches.update(reference, {
      ...(moved ? { last_state: state } : {}),
      ...(status.svc_id === undefined ? {} : { svc_id: status.svc_id }),
      next_check_at: new Date(nextCheckAt(watch, watch.checks + 1, at, settings)).toISOString(),
      checked: 1,
      last_error: state === 'not_found' || state === 'unknown' ? state : null,
    });
    return true;
  };

  /**
   * A payment found paid, marked `duplicate_of` when another attempt of the same order is paid too
   * (a closed 3-D Secure check finished late in another tab, after the customer paid again).
   */
  const withDuplicate = async (result: VerifiedResult, watch: PaymentWatch): Promise<VerifiedResult> => {
    const stateOf = async (reference: string) => {
      await pace();
      try {
        return (await ask({ ...watch, merchant_reference: reference })).status.state;
      } catch (error) {
        if (!(error instanceof GatewayUnavailableError)) throw error;
        // Not known: the result goes out without the mark, but a gateway asking for quiet gets it.
        await keepQuiet(error, now().getTime());
        return undefined;
      }
    };
    const other = await paidOtherAttempt(watch.merchant_reference, stateOf);
    if (other === undefined) return result;
    log.warn('duplicate_payment', { merchant_reference: result.merchant_reference, payment_reference: watch.merchant_reference, duplicate_of: other });
    return { ...result, duplicate_of: other };
  };

  /**
   * The watch of a hold found: it keeps the order as last known (looked up just now, else as the
   * watch kept it), so its capture is checked against it even when a later lookup fails.
   */
  const authorizationWatch = (watch: PaymentWatch, status: OrderStatus, at: number, order: ReconcilerOrder | undefined) => {
    const { amount, currency } = expectedOrder(watch, order);
    const result = {
      merchant_reference: watch.merchant_reference,
      order_state: 'authorized' as const,
      source: 'reconcile' as const,
      ...(status.svc_id === undefined ? {} : { svc_id: status.svc_id }),
      ...(amount === undefined ? {} : { amount }),
      ...(currency === undefined ? {} : { currency }),
    };
    return resultWatch(result, watch.language, at, settings);
  };

  const runDue = async (control?: RoundControl): Promise<PassSummary> => {
    const at = now();
    const counts = { asked: 0, reported: 0, ended: 0, failed: 0 };
    // The gateway asked for quiet: nothing is claimed, so nothing is asked, until then.
    if (at.getTime() < quietUntil) return counts;
    const claimedUntil = at.getTime() + CLAIM_MS;
    const due = await store.watches.claimDue(at, new Date(claimedUntil), batchSize);
    const round: Round = { lookupTimedOut: false, configurationLogged: false };
    let failuresInARow = 0;
    /**
     * The watches of this pass not asked about, handed back rather than held for the whole claim:
     * due as they were (not before the quiet the gateway asked for), so they stay ahead of the ones
     * that just failed and backed off. Pushed behind them instead, two payments whose questions
     * always fail would pause every round first and keep every other payment waiting for ever.
     */
    const handBack = async (from: number): Promise<void> => {
      for (const rest of due.slice(from)) {
        const next = Math.max(Date.parse(rest.next_check_at), quietUntil);
        await store.watches.update(rest.merchant_reference, { next_check_at: new Date(next).toISOString(), checked: 0 });
      }
    };
    for (const [index, watch] of due.entries()) {
      if (control?.stopping) {
        // The service is stopping: the rest are due again at once, for another instance or after the restart.
        await handBack(index);
        log.info('reconcile_stopped', { left: due.length - index });
        break;
      }
      const askedToWait = now().getTime() < quietUntil;
      // Too little of the claim is left for one more watch: another instance may claim it soon.
      const claimEnding = now().getTime() > claimedUntil - ROUND_MARGIN_MS;
      if (failuresInARow >= FAILURES_BEFORE_PAUSE || askedToWait || claimEnding) {
        // Asked on a later pass: the next one, or the first after the gateway's quiet.
        await handBack(index);
        log.warn('reconcile_paused', {
          reason: askedToWait ? 'gateway_asked_to_wait' : failuresInARow >= FAILURES_BEFORE_PAUSE ? (round.unanswered ?? 'gateway_unanswered') : 'claim_ending',
          left: due.length - index,
          ...(askedToWait ? { until: new Date(quietUntil).toISOString() } : {}),
        });
        break;
      }
      await pace();
      counts.asked += 1;
      const answered = await check(watch, counts, round);
      failuresInARow = answered ? 0 : failuresInARow + 1;
      if (!answered) counts.failed += 1;
    }
    return counts;
  };

  const loop = backgroundLoop(runDue, options.pollIntervalMs ?? 5_000, log, 'reconcile_failed');

  return {
    runDue,
    start: () => loop.start({ runAtOnce: true }),
    stop: () => loop.stop(),
  };
}

/** A verified CHECK_STATUS answer and the order it shows (core `orderStatusOf`). */
export interface OrderReading {
  readonly status: OrderStatus;
  readonly answer: CheckStatusResponse;
}

/**
 * What a reading is judged against and reported with: a payment's watch, stored, or about to be
 * written (the back office's own after a move, src/cli/store-env.ts).
 */
export type WatchedPayment = Pick<PaymentWatch, 'merchant_reference' | 'kind' | 'last_state' | 'svc_id' | 'amount' | 'currency' | 'language'>;

/**
 * How a reading moves a watched payment, as the reconciler reports it: `state`, a forward move of
 * its state (core `canMoveOrderState`: never back from one holding money, never to "not found" or
 * unknown); `in_state`, a back-office capture or refund that left the state the watch last read
 * (`moneyMovedInState`); undefined, no move. The back office's `capture`, `refund` and `void` judge
 * the reading they take after a move by the same rule, and record its result as `report` would: a
 * move one of them recorded, the other finds under its key and does not report again.
 */
export async function moveOfReading(
  watch: WatchedPayment,
  reading: OrderReading,
  results: Pick<ResultStore, 'get'> | undefined,
): Promise<'state' | 'in_state' | undefined> {
  const { state } = reading.status;
  if (state === watch.last_state) return (await moneyMovedInState(watch, reading, results)) ? 'in_state' : undefined;
  return state !== 'unknown' && state !== 'not_found' && canMoveOrderState(watch.last_state, state) ? 'state' : undefined;
}

/**
 * Whether a back-office capture or refund (a money-call watch) shows in a reading of the state the
 * watch last read: a hold captured in parts stays `captured`, a capture refunded in parts
 * `partially_refunded`, so only the totals can show it. Shown when the reading's result (under the
 * key the ledger would record it, `ledgerKeyOf`) is not in the ledger: totals the shop has not been
 * told. False for any other watch or state, and without `results` to read.
 */
async function moneyMovedInState(watch: WatchedPayment, reading: OrderReading, results: Pick<ResultStore, 'get'> | undefined): Promise<boolean> {
  const lookup = results && recordedUnder(results);
  if (watch.kind !== 'money_call' || reading.status.state !== watch.last_state || runningTotalOf(reading.status) === undefined || !lookup) return false;
  const key = await ledgerKeyOf(resultOfReading(watch, reading, silentLogger), lookup);
  return (await lookup(key)) === undefined;
}

/**
 * The result a move reports (`resultOfReading`), under the key the ledger records it (`ledgerKeyOf`:
 * a further capture's or refund's own), so that whoever reports it hears the key the shop is sent.
 */
export async function keyedResultOfReading(
  watch: WatchedPayment,
  reading: OrderReading,
  results: Pick<ResultStore, 'get'> | undefined,
  log: Logger,
  order?: ReconcilerOrder,
): Promise<VerifiedResult> {
  const read = resultOfReading(watch, reading, log, order);
  return results ? keyedForLedger(read, results) : read;
}

/**
 * Whether a reading is a move of the payment the watch last read holding money (a hold captured,
 * partly or wholly refunded; a capture refunded): the watch's last state holds money, and the
 * reading names the same payment id (`svc_id`) the watch keeps. Such a move is checked against the
 * amount the watch kept when the money was first held, not the order as it is now. Without both
 * ids it cannot be told from another payment's: it is checked as money first shown.
 */
function isSamePaymentMove(watch: Pick<PaymentWatch, 'last_state' | 'svc_id'>, status: Pick<OrderStatus, 'svc_id'>): boolean {
  return isPaidState(watch.last_state) && watch.svc_id !== undefined && watch.svc_id === status.svc_id;
}

const TIMED_OUT = Symbol('timed out');

/** `work`'s value, or TIMED_OUT once `ms` have passed (the work goes on, its outcome ignored). */
async function withinLimit<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  // A lookup that fails after its limit fails unheard.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The order a payment is checked against: the merchant's as it stands now (`order`, when it could
 * be looked up), else as the watch kept it. The watch's currency is the one its payment was
 * started in (CHECK_STATUS names none): an order now in another currency is not the payment's
 * (`currency_mismatch`), and the watch's amount and currency stand.
 */
function expectedOrder(
  watch: Pick<PaymentWatch, 'amount' | 'currency'>,
  order: ReconcilerOrder | undefined,
): { amount?: number | undefined; currency?: string | undefined; error?: EndpointErrorCode } {
  if (!order) return { amount: watch.amount, currency: watch.currency };
  if (watch.currency !== undefined && watch.currency !== order.currency) {
    return { amount: watch.amount, currency: watch.currency, error: 'currency_mismatch' };
  }
  return { amount: order.amount, currency: order.currency };
}

/**
 * The result a reading reports: the order's new state under its own key. A state that holds or
 * took money is checked against the merchant's order: as it stands now when `order` is given (the
 * reconciler's `orderOf`, asked when the payment first shows money), else as the watch kept it:
 * when the payment was started (the form signed, the bill issued), or, for a move of a payment
 * already holding money (an authorization watch), when that money was first held and accepted (a
 * watch without one, a back-office call's, compares nothing). Another
 * amount is a `failure` (`amount_mismatch`), the state still the gateway's, as at the return
 * (results.ts `checkTakenAmount`); an order now in another currency than the watch's is a
 * `currency_mismatch`. Its `amount` is then what the gateway took; for a state that holds no
 * money, the order's as the watch kept it. The currency is the order's (CHECK_STATUS names none):
 * the looked-up order's, else the watch's.
 */
export function resultOfReading(
  watch: WatchedPayment,
  reading: OrderReading,
  log: Logger,
  order?: ReconcilerOrder,
): VerifiedResult {
  const { status, answer } = reading;
  const reference = watch.merchant_reference;
  const code = status.transaction_code ?? parseResponseCode(answer.response_code)?.code ?? '';
  const svcId = status.svc_id ?? watch.svc_id;
  const { signature: _signature, ...gatewayFields } = answer as Record<string, unknown>;
  const orderReference = orderReferenceOf(reference);
  const expected = expectedOrder(watch, isPaidState(status.state) ? order : undefined);
  if (expected.error) log.error('verified_answer_disagrees_with_order', { merchant_reference: reference, error: expected.error, by: 'watch' });
  // Another currency: the amounts are not comparable, only what was taken is read.
  const taken = checkTakenAmount(reference, status, expected.error ? undefined : expected, log);
  const error = expected.error ?? taken?.error;
  const amount = taken ? taken.amount : expected.amount;
  return {
    // A new attempt's payment (`<order>.pg2`) is the merchant's order's.
    merchant_reference: orderReference,
    ...(orderReference === reference ? {} : { payment_reference: reference }),
    outcome: error ? 'failure' : paymentOutcomeOf(status.state),
    response_code: code,
    response_message: messageOf(code, answer, watch.language),
    status: status.transaction_status ?? '',
    ...(svcId === undefined ? {} : { svc_id: svcId }),
    ...(amount === undefined ? {} : { amount }),
    ...(expected.currency === undefined ? {} : { currency: expected.currency }),
    source: 'reconcile',
    kind: 'payment',
    idempotency_key: resultKeyOf({ merchant_reference: reference, svc_id: svcId, state: status.state, response_code: code }),
    order_state: status.state,
    order_status: status,
    ...(error === undefined ? {} : { error }),
    gateway: gatewayFields,
  };
}

function messageOf(code: string, answer: CheckStatusResponse, language: Language): string {
  if (code in RESPONSE_CODES) return responseMessage(code as KnownResponseCode, language);
  return answer.transaction_message ?? answer.response_message ?? '';
}
