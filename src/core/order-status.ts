/**
 * Where an order stands at the gateway, read from a verified CHECK_STATUS answer: one state of the
 * spec's order lifecycle ("States and transitions") with the authorized, captured and refunded
 * amounts in minor units. The merchant endpoint asks it before reporting a payment and before
 * starting another one; a back-office client asks it after a capture, refund or void.
 *
 * The amounts decide where they show money, since the last operation may be a refused capture or
 * refund that leaves the money where it was; the last operation's code decides otherwise (an answer
 * without amounts, a 3-D Secure check or an issued bill waiting, a declined attempt). A successful
 * void (08000) is a success code, but the payment is voided: never paid.
 */
import { parseWireAmount } from './amounts.ts';
import { classifyResponse, isReadableAnswer, parseResponseCode, type Outcome } from './response.ts';

export type OrderState =
  /** Money held (AUTHORIZATION), nothing captured yet. */
  | 'authorized'
  /** Captured (PURCHASE, CAPTURE, a paid bill, a financing purchase), nothing refunded. */
  | 'captured'
  /** Part of the captured amount refunded. */
  | 'partially_refunded'
  /** The whole captured amount refunded. */
  | 'refunded'
  /** The authorization voided, by the merchant or when its hold period ran out. */
  | 'voided'
  /** The last attempt failed: declined, 3-D Secure failed, a bill that expired unpaid. Blocks no retry. */
  | 'failed'
  /** Waiting for the customer: a 3-D Secure check, an issued bill not yet paid, a pending transaction. */
  | 'pending'
  /** The gateway holds nothing under this reference. */
  | 'not_found'
  /** The gateway did not say (a refused query, a code this project does not know). */
  | 'unknown';

export interface OrderStatus {
  readonly state: OrderState;
  /** Minor units held; 0 when the answer names none. */
  readonly authorized_amount: number;
  readonly captured_amount: number;
  readonly refunded_amount: number;
  /** The gateway's id of the payment, when it names one. */
  readonly svc_id?: string;
  /** Code and status of the last operation, as CHECK_STATUS reports them. */
  readonly transaction_code?: string;
  readonly transaction_status?: string;
}

/**
 * The gateway's answer to a payment on a merchant_reference it already holds (a second form, a
 * replayed purchase). It says nothing of the order's outcome: ask CHECK_STATUS.
 */
export const DUPLICATE_REFERENCE = '00005';

/** What the gateway answers for an order it does not hold: CHECK_STATUS 12001 (a live account: 12036), or 00007 "order not found". */
const NOT_FOUND_CODES: readonly string[] = ['12001', '12036', '00007'];

/** Whether a response code says the gateway holds no such order (an answer, not a refusal of the request). */
export function isNotFoundCode(code: string | undefined): boolean {
  return code !== undefined && NOT_FOUND_CODES.includes(code);
}
const VOID_SUCCESS = '08000';
/** A cash bill issued and waiting to be paid at a partner's counter. */
export const BILL_ISSUED = '30000';
const AUTHORIZATION_SUCCESS = '02000';
/**
 * PURCHASE success, and the codes that accept a capture or a refund (paid either way): the spec's
 * 20064, or a live account's 04000 (capture) and 06000 (refund).
 */
const CAPTURE_SUCCESS: readonly string[] = ['14000', '20064', '04000', '06000'];

interface Answer {
  readonly response_code?: unknown;
  readonly status?: unknown;
}

/**
 * The state an operation's answer leaves its order in, from its code alone: what a PURCHASE,
 * AUTHORIZATION or financing PURCHASE answer says, and what CHECK_STATUS's last operation says
 * when no amount shows money.
 */
export function orderStateOfAnswer(answer: Answer): OrderState {
  const code = parseResponseCode(answer.response_code)?.code;
  // An unknown code, or a status that disagrees with it, says nothing: never read as failed.
  if (code === undefined || !isReadableAnswer(answer)) return 'unknown';
  const outcome = classifyResponse(answer);
  if (outcome === 'failure') return 'failed';
  if (code === VOID_SUCCESS) return 'voided';
  if (outcome === 'pending' || code === BILL_ISSUED) return 'pending';
  if (code === AUTHORIZATION_SUCCESS) return 'authorized';
  if (CAPTURE_SUCCESS.includes(code)) return 'captured';
  // Other successes (tokenization, plans, OTP ...) are not payments.
  return 'unknown';
}

/** A CHECK_STATUS answer, verified; its amounts are strings of digits on the wire. */
export interface CheckStatusAnswer extends Answer {
  readonly svc_id?: unknown;
  readonly transaction_code?: unknown;
  readonly transaction_status?: unknown;
  readonly authorized_amount?: unknown;
  readonly captured_amount?: unknown;
  readonly refunded_amount?: unknown;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/**
 * The order a verified CHECK_STATUS answer describes. Throws the core's AmountError (naming the
 * field) when an amount is not digits: the caller decides what an unreadable answer means.
 */
export function orderStatusOf(answer: CheckStatusAnswer): OrderStatus {
  const amount = (value: unknown, field: string): number => (value === undefined || value === '' ? 0 : parseWireAmount(value, field));
  const amounts = {
    authorized_amount: amount(answer.authorized_amount, 'authorized_amount'),
    captured_amount: amount(answer.captured_amount, 'captured_amount'),
    refunded_amount: amount(answer.refunded_amount, 'refunded_amount'),
  };
  const svcId = text(answer.svc_id);
  const transactionCode = text(answer.transaction_code);
  const transactionStatus = text(answer.transaction_status);
  const described = {
    ...amounts,
    ...(svcId === undefined ? {} : { svc_id: svcId }),
    ...(transactionCode === undefined ? {} : { transaction_code: transactionCode }),
    ...(transactionStatus === undefined ? {} : { transaction_status: transactionStatus }),
  };

  const queryCode = parseResponseCode(answer.response_code)?.code;
  if (isNotFoundCode(queryCode)) return { state: 'not_found', ...described };
  if (classifyResponse(answer) !== 'success') return { state: 'unknown', ...described };

  const last = orderStateOfAnswer({ response_code: transactionCode, status: transactionStatus });
  if (last === 'voided') return { state: 'voided', ...described };
  const { authorized_amount, captured_amount, refunded_amount } = amounts;
  if (refunded_amount > 0) {
    return { state: refunded_amount >= captured_amount ? 'refunded' : 'partially_refunded', ...described };
  }
  if (captured_amount > 0) return { state: 'captured', ...described };
  if (authorized_amount > 0) return { state: 'authorized', ...described };
  return { state: last, ...described };
}

/**
 * The amount of the payment a reading shows, in minor units: what the gateway authorized, or what
 * it captured when it names no authorization (a purchase read without one). A partial capture
 * (captured less than authorized) and a refund leave it the authorized amount; the larger of the
 * two is taken, so a capture is never read as more than the payment. Undefined when the answer
 * names neither: the gateway did not say what it took. Compare it with the order's amount only for
 * a state that holds or took money (`isPaidState`); a result reports `chargedAmountOf` instead.
 */
export function paymentAmountOf(status: Pick<OrderStatus, 'authorized_amount' | 'captured_amount'>): number | undefined {
  const amount = Math.max(status.authorized_amount, status.captured_amount);
  return amount > 0 ? amount : undefined;
}

/**
 * The money a payment has taken from the customer, as a result reports it: what was captured once
 * anything was (a partial capture takes less than the hold; refunds, `refunded_amount`, are not
 * taken off), else what is held. CHECK_STATUS gives totals only, so after a second partial
 * capture it is the captured total. Undefined when the answer names neither amount.
 */
export function chargedAmountOf(status: Pick<OrderStatus, 'authorized_amount' | 'captured_amount'>): number | undefined {
  return status.captured_amount > 0 ? status.captured_amount : paymentAmountOf(status);
}

/**
 * The paid states one payment may have been in before `state`, first held first (the lifecycle's
 * forward moves): the authorization of a capture, the capture of a refund. None for a state no
 * paid state moves to.
 */
export function earlierPaidStates(state: OrderState): OrderState[] {
  return Object.entries(PAID_MOVES).flatMap(([from, to]) => (isPaidState(from as OrderState) && to.includes(state) ? [from as OrderState] : []));
}

/**
 * A reading that says a payment holds or took money (`isPaidState`) and names no amount of it: not
 * an answer about the money. The spec lists CHECK_STATUS's amounts "when applicable", so the state
 * may come from the last operation's code alone; what was taken, captured or refunded is unknown, so
 * no result is made of it (it would be kept under the payment's key for good): the endpoint and the
 * reconciler take it as the gateway not saying, and ask again.
 */
export function namesNoPaidAmount(status: Pick<OrderStatus, 'state' | 'authorized_amount' | 'captured_amount'>): boolean {
  return isPaidState(status.state) && paymentAmountOf(status) === undefined;
}

/**
 * The total that tells one capture or refund of a payment from the next in the same state: the
 * captured total of a `captured` payment (a hold captured in parts stays `captured`), the refunded
 * total of a `partially_refunded` one (refunded in parts). Undefined for a state whose totals do not
 * move while it holds (an authorization, a refund of everything), and when the reading names none.
 */
export function runningTotalOf(status: Pick<OrderStatus, 'state' | 'captured_amount' | 'refunded_amount'>): number | undefined {
  const total = status.state === 'captured' ? status.captured_amount : status.state === 'partially_refunded' ? status.refunded_amount : 0;
  return total > 0 ? total : undefined;
}

/** The gateway holds a payment under the reference (even one since refunded): another must not start. */
export function isPaidState(state: OrderState): boolean {
  return state === 'authorized' || state === 'captured' || state === 'partially_refunded' || state === 'refunded';
}

/**
 * What a CAPTURE may still take (spec, States and transitions: partial or full, after a successful
 * authorization): the authorized amount less what was captured, while the order is authorized or
 * partly captured; nothing once it is voided, refunded, failed or not found.
 */
export function capturableAmount(status: OrderStatus): number {
  if (status.state !== 'authorized' && status.state !== 'captured') return 0;
  return Math.max(0, status.authorized_amount - status.captured_amount);
}

/** What a REFUND may still return (only after capture, partial or full): the captured amount less what was refunded. */
export function refundableAmount(status: OrderStatus): number {
  if (status.state !== 'captured' && status.state !== 'partially_refunded') return 0;
  return Math.max(0, status.captured_amount - status.refunded_amount);
}

/**
 * Whether a VOID_AUTHORIZATION may apply (spec: a void releases an authorization before capture):
 * not once the order is captured (refunded, not voided), voided, failed or not found. Pending and
 * unknown states are left to the gateway to judge.
 */
export function isVoidable(status: Pick<OrderStatus, 'state'>): boolean {
  return !NOT_VOIDABLE.has(status.state);
}

const NOT_VOIDABLE: ReadonlySet<OrderState> = new Set(['voided', 'captured', 'partially_refunded', 'refunded', 'failed', 'not_found']);

/** An order's state as the back office words it: `captured` split by whether more may still be captured. */
export type OrderStanding = Exclude<OrderState, 'captured'> | 'captured' | 'partially_captured';

/**
 * What a back office (the merchant panel, the CLI) says of an order: how it stands, what may still
 * be captured, refunded or voided, and the authorized money left uncaptured that nothing can move
 * any more, with why. Minor units throughout.
 */
export interface OrderSummary {
  /** `partially_captured` for a captured order with part of its authorization still to capture. */
  readonly standing: OrderStanding;
  readonly capturable: number;
  readonly refundable: number;
  /** A VOID_AUTHORIZATION would release the hold: authorized, nothing captured yet. */
  readonly voidable: boolean;
  /**
   * Authorized money neither captured nor voidable: once a refund was made the authorization's
   * rest can no longer be captured (REFUND only after capture) or voided (a captured payment is
   * never voided). Absent when no money is stuck so.
   */
  readonly uncapturable?: { readonly amount: number; readonly reason: 'refunded' };
}

/** The back office's reading of an order (spec, States and transitions), shared by the merchant panel and the CLI. */
export function summarizeOrder(status: OrderStatus): OrderSummary {
  const capturable = capturableAmount(status);
  const refundable = refundableAmount(status);
  const partlyCaptured = status.state === 'captured' && capturable > 0;
  const leftOver = status.authorized_amount - status.captured_amount;
  const afterRefund = (status.state === 'partially_refunded' || status.state === 'refunded') && leftOver > 0;
  return {
    standing: partlyCaptured ? 'partially_captured' : status.state,
    capturable,
    refundable,
    voidable: status.state === 'authorized' && status.captured_amount === 0,
    ...(afterRefund ? { uncapturable: { amount: leftOver, reason: 'refunded' as const } } : {}),
  };
}

/**
 * What a result tells the customer and the merchant: `success` while the order is paid (money held
 * or captured and not all returned), `pending` while the gateway is waiting or did not say,
 * `failure` otherwise: failed, voided, wholly refunded, or nothing at the gateway.
 */
export function paymentOutcomeOf(state: OrderState): Outcome {
  switch (state) {
    case 'authorized':
    case 'captured':
    case 'partially_refunded':
      return 'success';
    case 'pending':
    case 'unknown':
      return 'pending';
    default:
      return 'failure';
  }
}

/** Forward moves of the lifecycle from a state where a payment exists (spec, "States and transitions"). */
const PAID_MOVES: Readonly<Partial<Record<OrderState, readonly OrderState[]>>> = {
  authorized: ['captured', 'partially_refunded', 'refunded', 'voided'],
  captured: ['partially_refunded', 'refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
  // A voided authorization is never captured or refunded (a void only comes before any capture):
  // a capture or refund heard after it is another payment of the order (a new attempt), which the
  // order follows. Nothing else undoes a void unless it is known to be another payment's (below).
  voided: ['captured', 'partially_refunded', 'refunded'],
};

/**
 * Where another payment of the order (a new attempt, another payment id) may move it after a void:
 * the voided payment holds nothing any more, so the new one's state is the order's, as after a
 * failure. A state that names no payment (not found, unknown) does not.
 */
const MOVES_AFTER_VOID_BY_ANOTHER_PAYMENT: readonly OrderState[] = ['authorized', 'pending', 'failed'];

/**
 * Whether a record of an order in state `from` may move to `to`. Before any payment exists every
 * move is allowed (a failed attempt, then a pending one, then a capture); from then on only the
 * lifecycle's forward moves (captured → refunded, authorized → voided): a paid order never goes
 * back to failed, pending or not found, whatever is replayed, by the same payment or another. After
 * a void, a capture or refund is always another payment's and moves the order; so do an
 * authorization, a pending or a failed payment when the caller knows they are another payment's
 * (`anotherPayment`, see `canMoveOrderPayment` in payment-attempts.ts): without knowing, such a
 * result may be the voided payment's own, read before its void.
 */
export function canMoveOrderState(from: OrderState, to: OrderState, options: { readonly anotherPayment?: boolean } = {}): boolean {
  const forward = PAID_MOVES[from];
  if (forward === undefined || from === to || forward.includes(to)) return true;
  return from === 'voided' && options.anotherPayment === true && MOVES_AFTER_VOID_BY_ANOTHER_PAYMENT.includes(to);
}

/**
 * The stable key of one payment result: the order's reference, the gateway's payment id and the
 * state it reached (`order-1001:1700000004:captured`), or, for an answer without a payment id, the
 * reference with its response code (`order-1001:00008`). The same payment in the same state always
 * has the same key, however often its return is posted; each move of the lifecycle (authorized,
 * then captured) has a new one. The reference is part of it so that no payment id, reused by
 * another gateway or a reset sandbox, can ever stand for another order.
 *
 * A further capture or refund that leaves the state as it was (a hold captured in parts, a capture
 * refunded in parts) is money moved all the same: with `running_total` (core `runningTotalOf`) the
 * key names it (`order-1001:1700000004:captured:7000`). Which of the two a result takes depends on
 * what was recorded before it (the state's first result keeps the plain key): the ledger decides
 * (result-ledger.ts `ledgerKeyOf`).
 */
export function resultKeyOf(result: {
  readonly merchant_reference: string;
  readonly svc_id?: string | undefined;
  readonly state: OrderState;
  readonly response_code: string;
  readonly running_total?: number | undefined;
}): string {
  const { merchant_reference: reference, svc_id: svcId, state, running_total: total } = result;
  const key = svcId ? `${reference}:${svcId}:${state}` : `${reference}:${result.response_code || state}`;
  return total === undefined ? key : `${key}:${total}`;
}

/**
 * The stable key of a cash bill's issue (`order-1001:39420452089063:pending`): the bill's number
 * stands for the payment id a bill's answer does not carry, so a new bill for the same order, after
 * the first was cancelled at its expiry, is a result of its own. Paid at the partner's counter, the
 * payment gets its key from CHECK_STATUS as any other (`order-1001:1700000042:captured`).
 */
export function billKeyOf(merchantReference: string, billNumber: string): string {
  return `${merchantReference}:${billNumber}:pending`;
}

/**
 * The stable key of a card saved without a payment (a TOKENIZATION the gateway confirmed):
 * `{merchant_reference}:card_saved:{token digest}`, where the digest is the first 16 hex digits of
 * the token's SHA-256 (`fileDigest(tokenName, 'sha256')`). A tokenization has no payment id and no
 * order state, so the token names it; but keys are logged and shown to operators, and a token is a
 * credential to charge the card: the key carries its digest, never the token.
 */
export function savedCardKeyOf(merchantReference: string, tokenDigest: string): string {
  return `${merchantReference}:card_saved:${tokenDigest.slice(0, 16)}`;
}
