/**
 * The order state machine of the spec's "States and transitions" table, as pure functions over
 * immutable records: a refused transition returns a failure code and no new order, so a refusal
 * can never change state.
 *
 *   none → authorized (AUTHORIZATION) → captured (CAPTURE, partial or full, repeatable up to the
 *   authorized amount) → refunded (REFUND, partial or full, repeatable up to the captured amount).
 *   none → captured (PURCHASE, financing PURCHASE, a paid bill).
 *   authorized → voided (VOID_AUTHORIZATION, or the hold period passing).
 *   captured → void refused (09001): captured payments can only be refunded.
 *
 * Sandbox additions: `pending_3ds` (waiting for the challenge page), `declined` (a failed attempt;
 * it does not hold the merchant_reference), `bill_issued` → `bill_cancelled` when the expiry passes
 * unpaid, or → captured when paid.
 */
import { LIVE_THREE_DS_HOLD, type KnownResponseCode } from '../core/response.ts';
import type { CardScheme } from '../core/card-number.ts';
import { AUTHORIZATION_HOLD_MS, PAGE_SESSION_MS } from './test-cards.ts';
import type { StatusedCode } from './wire.ts';

export type OrderState =
  | 'pending_3ds'
  | 'authorized'
  | 'captured'
  | 'refunded'
  | 'voided'
  | 'declined'
  | 'bill_issued'
  | 'bill_cancelled';

export type OrderCommand = 'AUTHORIZATION' | 'PURCHASE' | 'BILL_PRESENTMENT';

/** One thing that happened to an order; the last one is what CHECK_STATUS reports. */
export interface OrderOperation extends StatusedCode {
  readonly operation: 'AUTHORIZATION' | 'PURCHASE' | 'CAPTURE' | 'REFUND' | 'VOID_AUTHORIZATION' | 'BILL_PRESENTMENT' | 'BILL_PAYMENT' | 'BILL_EXPIRY';
  readonly code: KnownResponseCode;
  /** Set only where the status is not the code's own: 20 for a live account's 20064 hold ({@link THREE_DS_HOLD}). */
  readonly status?: string;
  readonly amount?: number;
  /** Epoch milliseconds on the gateway's clock. */
  readonly at: number;
}

export interface OrderCard {
  readonly maskedNumber: string;
  readonly scheme: CardScheme;
  readonly expiryDate: string;
  readonly holderName?: string;
  readonly tokenName?: string;
}

export interface OrderInstallments {
  readonly issuerCode: string;
  readonly planCode: string;
  readonly months: number;
}

/** What a request said about the customer and the order, kept for reports (their columns of these names). */
export type OrderDetails = Readonly<Partial<Record<'customer_email' | 'customer_name' | 'customer_ip' | 'order_description', string>>>;

export interface SandboxOrder {
  readonly merchantIdentifier: string;
  readonly merchantReference: string;
  readonly svcId: string;
  readonly command: OrderCommand;
  /** Where the order came from, for the inspection helpers. */
  readonly channel: 'hosted_page' | 'token' | 'card' | 'recurring' | 'financing' | 'bill';
  readonly amount: number;
  readonly currency: string;
  readonly state: OrderState;
  readonly authorizedAmount: number;
  readonly capturedAmount: number;
  readonly refundedAmount: number;
  readonly createdAt: number;
  /** When the amount was put on hold; the hold period counts from here. */
  readonly authorizedAt?: number;
  readonly operations: readonly OrderOperation[];
  readonly authorizationCode?: string;
  readonly card?: OrderCard;
  /** The channel indicator the card was charged with (reports' eci column). */
  readonly eci?: 'ECOMMERCE' | 'RECURRING' | 'MOTO';
  /** Kept when the channel passes them on (reports' customer and description columns). */
  readonly details?: OrderDetails;
  readonly installments?: OrderInstallments;
  readonly bill?: { readonly billNumber: string; readonly expiresAt: number };
  readonly voidReason?: 'merchant' | 'hold_expired';
}

export type Transition =
  | { readonly ok: true; readonly order: SandboxOrder; readonly code: KnownResponseCode }
  | { readonly ok: false; readonly code: KnownResponseCode };

const refused = (code: KnownResponseCode): Transition => ({ ok: false, code });

/**
 * Which codes accept a capture and a refund: the spec's 20064 with status 04 (`spec`), or what live
 * accounts answer, 04000 for a capture and 06000 for a refund (`live`; docs/decisions.md). A void is
 * 08000 either way.
 */
export type SuccessCodes = 'spec' | 'live';

export const MAINTENANCE_SUCCESS_CODES = {
  spec: { CAPTURE: '20064', REFUND: '20064' },
  live: { CAPTURE: '04000', REFUND: '06000' },
} as const satisfies Record<SuccessCodes, Record<'CAPTURE' | 'REFUND', KnownResponseCode>>;

/**
 * What a charge held for 3-D Secure answers (and CHECK_STATUS shows) until the challenge ends: the
 * sandbox's 20000 (status 20), or what a live account answers, 20064 under status 20, which is not
 * 20064's own status 04 (docs/decisions.md, "20064 under status 20…").
 */
export const THREE_DS_HOLD = {
  spec: { code: '20000' },
  live: LIVE_THREE_DS_HOLD,
} as const satisfies Record<SuccessCodes, StatusedCode>;

export function isSuccessCodes(value: unknown): value is SuccessCodes {
  return value === 'spec' || value === 'live';
}

/** The operation CHECK_STATUS reports. */
export function lastOperation(order: SandboxOrder): OrderOperation {
  const last = order.operations[order.operations.length - 1];
  if (!last) throw new Error(`order ${order.svcId} has no operation`);
  return last;
}

/** Whether this order keeps its merchant_reference from being used again. Declined attempts do not. */
export function holdsReference(order: SandboxOrder): boolean {
  return order.state !== 'declined';
}

function withOperation(order: SandboxOrder, changes: Partial<SandboxOrder>, operation: OrderOperation): SandboxOrder {
  return { ...order, ...changes, operations: [...order.operations, operation] };
}

/** CAPTURE: partial or full, repeatable while the captured total stays within the authorized amount. */
export function capture(order: SandboxOrder, amount: number, currency: string, now: number, codes: SuccessCodes = 'spec'): Transition {
  if (currency !== order.currency) return refused('00013');
  if (order.state !== 'authorized' && order.state !== 'captured') return refused('05002');
  if (!Number.isSafeInteger(amount) || amount <= 0) return refused('00002');
  if (order.capturedAmount + amount > order.authorizedAmount) return refused('05001');
  const code = MAINTENANCE_SUCCESS_CODES[codes].CAPTURE;
  return {
    ok: true,
    code,
    order: withOperation(
      order,
      { state: 'captured', capturedAmount: order.capturedAmount + amount },
      { operation: 'CAPTURE', code, amount, at: now },
    ),
  };
}

/** REFUND: only after capture; partial or full, repeatable up to the captured amount. */
export function refund(order: SandboxOrder, amount: number, currency: string, now: number, codes: SuccessCodes = 'spec'): Transition {
  if (currency !== order.currency) return refused('00013');
  if (order.state !== 'captured' && order.state !== 'refunded') return refused('06002');
  if (!Number.isSafeInteger(amount) || amount <= 0) return refused('00002');
  if (order.refundedAmount + amount > order.capturedAmount) return refused('06001');
  const code = MAINTENANCE_SUCCESS_CODES[codes].REFUND;
  return {
    ok: true,
    code,
    order: withOperation(
      order,
      { state: 'refunded', refundedAmount: order.refundedAmount + amount },
      { operation: 'REFUND', code, amount, at: now },
    ),
  };
}

/** Void of an authorization: only while authorized and nothing captured. */
export function voidAuthorization(order: SandboxOrder, now: number): Transition {
  if (order.state === 'captured' || order.state === 'refunded') return refused('09001');
  if (order.state !== 'authorized') return refused('09002');
  return {
    ok: true,
    code: '08000',
    order: withOperation(
      order,
      { state: 'voided', voidReason: 'merchant' },
      { operation: 'VOID_AUTHORIZATION', code: '08000', at: now },
    ),
  };
}

/**
 * The order as time has left it: an authorization past its hold is voided, a 3-D Secure challenge
 * left open past the page session is declined, an unpaid bill past its expiry is cancelled. Each
 * change is dated when it fell due, not when it was noticed.
 */
export function settle(order: SandboxOrder, now: number): SandboxOrder {
  if (order.state === 'authorized') {
    const due = (order.authorizedAt ?? order.createdAt) + AUTHORIZATION_HOLD_MS;
    if (now < due) return order;
    return withOperation(
      order,
      { state: 'voided', voidReason: 'hold_expired' },
      { operation: 'VOID_AUTHORIZATION', code: '08000', at: due },
    );
  }
  if (order.state === 'pending_3ds') {
    const due = order.createdAt + PAGE_SESSION_MS;
    if (now < due) return order;
    return completeChallenge(order, false, due);
  }
  if (order.state === 'bill_issued' && order.bill) {
    if (now < order.bill.expiresAt) return order;
    return withOperation(
      order,
      { state: 'bill_cancelled' },
      { operation: 'BILL_EXPIRY', code: '31001', at: order.bill.expiresAt },
    );
  }
  return order;
}

/** The codes of a charge's outcomes, by command. */
export const CHARGE_CODES = {
  PURCHASE: { success: '14000', decline: '13001', insufficient_funds: '13002', invalid_card: '13003', challenge_failed: '13004', fraud_rejected: '13005' },
  AUTHORIZATION: { success: '02000', decline: '03001', insufficient_funds: '03002', invalid_card: '03003', challenge_failed: '03004', fraud_rejected: '03005' },
} as const satisfies Record<'PURCHASE' | 'AUTHORIZATION', Record<string, KnownResponseCode>>;

export type ChargeResult = keyof (typeof CHARGE_CODES)['PURCHASE'];

/** The state a successful charge leaves: PURCHASE authorizes and captures in one step. */
function chargedState(order: SandboxOrder, now: number): Partial<SandboxOrder> {
  return order.command === 'PURCHASE'
    ? { state: 'captured', authorizedAmount: order.amount, capturedAmount: order.amount, authorizedAt: now }
    : { state: 'authorized', authorizedAmount: order.amount, authorizedAt: now };
}

/** A new card order with the outcome of its charge ('pending' for a 3-D Secure challenge, held with `codes`' {@link THREE_DS_HOLD}). */
export function chargedOrder(
  base: Omit<SandboxOrder, 'state' | 'authorizedAmount' | 'capturedAmount' | 'refundedAmount' | 'operations' | 'createdAt'> & {
    readonly command: 'AUTHORIZATION' | 'PURCHASE';
  },
  result: ChargeResult | 'pending',
  now: number,
  codes: SuccessCodes = 'spec',
): SandboxOrder {
  const order: SandboxOrder = {
    ...base,
    state: 'pending_3ds',
    authorizedAmount: 0,
    capturedAmount: 0,
    refundedAmount: 0,
    createdAt: now,
    operations: [],
  };
  if (result === 'pending') {
    return { ...order, operations: [{ operation: base.command, ...THREE_DS_HOLD[codes], at: now }] };
  }
  return settleCharge(order, result, now);
}

function settleCharge(order: SandboxOrder, result: ChargeResult, now: number): SandboxOrder {
  const command = order.command === 'PURCHASE' ? 'PURCHASE' : 'AUTHORIZATION';
  const code = CHARGE_CODES[command][result];
  const changes = result === 'success' ? chargedState(order, now) : { state: 'declined' as const };
  return withOperation(order, changes, { operation: command, code, amount: order.amount, at: now });
}

/** The customer answered the 3-D Secure challenge (or let it lapse: `approved` false). */
export function completeChallenge(order: SandboxOrder, approved: boolean, now: number): SandboxOrder {
  if (order.state !== 'pending_3ds') return order;
  return settleCharge(order, approved ? 'success' : 'challenge_failed', now);
}

/** A new bill (BILL_PRESENTMENT accepted): nothing held or captured until it is paid. */
export function issuedBill(
  base: Pick<SandboxOrder, 'merchantIdentifier' | 'merchantReference' | 'svcId' | 'amount' | 'currency'>,
  billNumber: string,
  expiresAt: number,
  now: number,
): SandboxOrder {
  return {
    ...base,
    command: 'BILL_PRESENTMENT',
    channel: 'bill',
    state: 'bill_issued',
    authorizedAmount: 0,
    capturedAmount: 0,
    refundedAmount: 0,
    createdAt: now,
    operations: [{ operation: 'BILL_PRESENTMENT', code: '30000', at: now }],
    bill: { billNumber, expiresAt },
  };
}

/** The customer paid the bill at the partner: the full amount is captured (14000). */
export function payBill(order: SandboxOrder, now: number): Transition {
  const current = settle(order, now);
  if (current.state === 'bill_cancelled') return refused('31001');
  if (current.state !== 'bill_issued') return refused('05002');
  return {
    ok: true,
    code: '14000',
    order: withOperation(
      current,
      { state: 'captured', authorizedAmount: current.amount, capturedAmount: current.amount, authorizedAt: now },
      { operation: 'BILL_PAYMENT', code: '14000', amount: current.amount, at: now },
    ),
  };
}

/** A financing PURCHASE completed after OTP verification: captured at once. */
export function financedPurchase(
  base: Pick<SandboxOrder, 'merchantIdentifier' | 'merchantReference' | 'svcId' | 'amount' | 'currency'>,
  now: number,
): SandboxOrder {
  return {
    ...base,
    command: 'PURCHASE',
    channel: 'financing',
    state: 'captured',
    authorizedAmount: base.amount,
    capturedAmount: base.amount,
    refundedAmount: 0,
    createdAt: now,
    authorizedAt: now,
    operations: [{ operation: 'PURCHASE', code: '14000', amount: base.amount, at: now }],
  };
}
