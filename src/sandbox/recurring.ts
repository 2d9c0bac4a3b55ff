/**
 * A recurring PURCHASE with a stored token (spec, "Recurring purchase"; "Batch rules"): once its
 * fields are valid, the checks a single request passes (currency, amount, token, card expiry,
 * merchant_reference not taken, the token's status) in paymentApi's order, then the charge. The batch service runs
 * every PURCHASE line through it, so that a line changes orders exactly as the request would.
 */
import { isExpiredYymm } from '../core/card-number.ts';
import type { KnownResponseCode } from '../core/response.ts';
import { charge } from './charges.ts';
import type { GatewayContext } from './context.ts';
import type { GatewayAccount } from './merchants.ts';
import type { OrderDetails, SandboxOrder } from './orders.ts';
import { tokenRefusal } from './tokens.ts';
import { isChargeableCurrency } from './wire.ts';

export interface RecurringPurchase {
  readonly merchant: GatewayAccount;
  readonly merchantReference: string;
  /** Minor units. */
  readonly amount: number;
  readonly currency: string;
  readonly tokenName: string;
  readonly details?: OrderDetails;
}

export interface RecurringOutcome {
  readonly code: KnownResponseCode;
  /** The order the charge made, declined or not; absent when a check refused it first. */
  readonly order?: SandboxOrder;
}

export function chargeStoredToken(ctx: GatewayContext, purchase: RecurringPurchase): RecurringOutcome {
  const { merchant } = purchase;
  if (!isChargeableCurrency(purchase.currency)) return { code: '00009' };
  if (purchase.amount <= 0) return { code: '00002' };
  const token = ctx.state.token(merchant.merchantIdentifier, purchase.tokenName);
  if (!token) return { code: '00010' };
  if (isExpiredYymm(token.expiryDate, new Date(ctx.now()))) return { code: '00011' };
  if (ctx.state.referenceTaken(merchant.merchantIdentifier, purchase.merchantReference)) return { code: '00005' };
  // The same token rules as a recurring request: an INACTIVE token (00015) or a temporary one (00016) pays nothing.
  const refusal = tokenRefusal(token, { merchantReference: purchase.merchantReference, eci: 'RECURRING' }, ctx.now());
  if (refusal) return { code: refusal };
  const result = charge(ctx, {
    merchant,
    command: 'PURCHASE',
    merchantReference: purchase.merchantReference,
    amount: purchase.amount,
    currency: purchase.currency,
    card: {
      number: token.cardNumber,
      scheme: token.scheme,
      expiryDate: token.expiryDate,
      ...(token.holderName ? { holderName: token.holderName } : {}),
    },
    channel: 'recurring',
    eci: 'RECURRING',
    tokenName: purchase.tokenName,
    ...(purchase.details ? { details: purchase.details } : {}),
    ...(purchase.details?.customer_email ? { customerEmail: purchase.details.customer_email } : {}),
  });
  return { code: result.code, order: result.order };
}
