/**
 * Charging a card in the sandbox: what a card number does (test-cards.ts), the order it leaves,
 * and the fields an answer about it carries. Shared by the hosted page, merchant-page completion,
 * recurring payments and the 3-D Secure challenge, so that a card behaves the same everywhere.
 */
import { maskCardNumber } from '../core/card-number.ts';
import type { KnownResponseCode } from '../core/response.ts';
import type { GatewayContext } from './context.ts';
import type { SandboxMerchant } from './merchants.ts';
import { chargedOrder, lastOperation, type ChargeResult, type OrderDetails, type OrderInstallments, type SandboxOrder } from './orders.ts';
import type { ChosenPlan } from './plans.ts';
import type { EnteredCard } from './state.ts';
import { TEST_CARDS, type CardOutcome } from './test-cards.ts';
import type { WireParams } from './wire.ts';

/** What charging this number does; a number that is not a test card is an invalid card. */
export function outcomeOf(cardNumber: string): CardOutcome {
  return TEST_CARDS.find((card) => card.number === cardNumber)?.outcome ?? 'invalid_card';
}

/** The charge's result, or 'pending' when the issuer asks for a 3-D Secure challenge. */
export function chargeResultOf(outcome: CardOutcome, options: { readonly recurring?: boolean } = {}): ChargeResult | 'pending' {
  if (outcome === '3ds') return options.recurring ? 'success' : 'pending';
  return outcome;
}

export interface ChargeRequest {
  readonly merchant: SandboxMerchant;
  readonly command: 'AUTHORIZATION' | 'PURCHASE';
  readonly merchantReference: string;
  readonly amount: number;
  readonly currency: string;
  readonly card: EnteredCard;
  readonly channel: SandboxOrder['channel'];
  readonly eci: 'ECOMMERCE' | 'RECURRING' | 'MOTO';
  readonly tokenName?: string;
  readonly plan?: ChosenPlan;
  /** The request's customer and description fields, for reports ({@link orderDetailsOf}). */
  readonly details?: OrderDetails;
}

/** The fields of a request that reports show about its order. */
export function orderDetailsOf(params: Readonly<Record<string, unknown>>): OrderDetails | undefined {
  const details: Record<string, string> = {};
  for (const name of ['customer_email', 'customer_name', 'customer_ip', 'order_description'] as const) {
    const value = params[name];
    if (typeof value === 'string' && value !== '') details[name] = value;
  }
  return Object.keys(details).length > 0 ? details : undefined;
}

export interface Charge {
  readonly order: SandboxOrder;
  /** The order's current code: success, failure, or 20000 while a challenge is pending. */
  readonly code: KnownResponseCode;
  /** The answer's own fields (everything but the echo and the outcome). */
  readonly fields: WireParams;
}

/** Charges the card, stores the order, and says what to answer. */
export function charge(ctx: GatewayContext, request: ChargeRequest): Charge {
  const outcome = outcomeOf(request.card.number);
  const result = chargeResultOf(outcome, { recurring: request.eci === 'RECURRING' });
  const svcId = ctx.state.nextSvcId();
  const installments: OrderInstallments | undefined = request.plan
    ? {
        issuerCode: request.plan.issuer.issuer_code,
        planCode: request.plan.plan.plan_code,
        months: request.plan.plan.number_of_installment,
      }
    : undefined;
  const order = chargedOrder(
    {
      merchantIdentifier: request.merchant.merchantIdentifier,
      merchantReference: request.merchantReference,
      svcId,
      command: request.command,
      channel: request.channel,
      amount: request.amount,
      currency: request.currency,
      authorizationCode: ctx.state.nextAuthorizationCode(),
      card: {
        maskedNumber: maskCardNumber(request.card.number),
        scheme: request.card.scheme,
        expiryDate: request.card.expiryDate,
        ...(request.card.holderName ? { holderName: request.card.holderName } : {}),
        ...(request.tokenName ? { tokenName: request.tokenName } : {}),
      },
      ...(installments ? { installments } : {}),
      eci: request.eci,
      ...(request.details ? { details: request.details } : {}),
    },
    result,
    ctx.now(),
  );
  ctx.state.saveOrder(order);
  return { order, code: lastOperation(order).code, fields: chargeFields(order, request.eci, request.tokenName) };
}

/** The fields an answer about a card order carries; authorization_code only once it succeeded. */
export function chargeFields(order: SandboxOrder, eci: string, tokenName?: string): WireParams {
  const succeeded = order.state === 'authorized' || order.state === 'captured';
  const fields: WireParams = {
    svc_id: order.svcId,
    eci,
    payment_option: order.card?.scheme,
    card_number: order.card?.maskedNumber,
    expiry_date: order.card?.expiryDate,
    card_holder_name: order.card?.holderName,
    token_name: tokenName,
  };
  if (succeeded) {
    fields['authorization_code'] = order.authorizationCode;
    if (order.command === 'PURCHASE') fields['settlement_reference'] = `SBX${order.svcId}`;
  }
  if (order.installments) {
    fields['number_of_installments'] = String(order.installments.months);
    fields['plan_code'] = order.installments.planCode;
    fields['issuer_code'] = order.installments.issuerCode;
  }
  return withoutAbsent(fields);
}

export function withoutAbsent(fields: WireParams): WireParams {
  const present: WireParams = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null) present[name] = value;
  }
  return present;
}
