/**
 * Charging a card in the sandbox: what a card number does (test-cards.ts), the order it leaves,
 * and the fields an answer about it carries. Shared by the hosted page, merchant-page completion,
 * recurring payments and the 3-D Secure challenge, so that a card behaves the same everywhere.
 */
import { maskCardNumber } from '../core/card-number.ts';
import { fieldError } from '../core/field-errors.ts';
import type { Language } from '../core/language.ts';
import type { KnownResponseCode } from '../core/response.ts';
import type { GatewayContext } from './context.ts';
import { hasService, type GatewayAccount } from './merchants.ts';
import { chargedOrder, lastOperation, type ChargeResult, type OrderDetails, type OrderInstallments, type SandboxOrder } from './orders.ts';
import type { ChosenPlan } from './plans.ts';
import type { EnteredCard } from './state.ts';
import { FRAUD_SCREENING_EMAIL, TEST_CARDS, type CardOutcome } from './test-cards.ts';
import type { WireParams } from './wire.ts';

/** What charging this number does; a number that is not a test card is an invalid card. */
export function outcomeOf(cardNumber: string): CardOutcome {
  return TEST_CARDS.find((card) => card.number === cardNumber)?.outcome ?? 'invalid_card';
}

/**
 * Why a card without its security code is refused (00001), or undefined when it may come without:
 * the account has CVV suppression. For the cards the customer is there to type (an e-commerce
 * charge of clear card data, the merchant page); the pages make the field optional alike.
 */
export function missingSecurityCode(merchant: GatewayAccount, securityCode: string | undefined, language: Language): string | undefined {
  if (securityCode !== undefined || hasService(merchant, 'cvv_suppression')) return undefined;
  return fieldError('card_security_code', 'required', {}, language).message;
}

/** True for the cards whose issuer authenticates the customer (3ds_enrolled Y). */
export function isEnrolled(outcome: CardOutcome): outcome is '3ds' | '3ds_md_pares' | '3ds_fails' {
  return outcome === '3ds' || outcome === '3ds_md_pares' || outcome === '3ds_fails';
}

/**
 * The charge's result, or 'pending' when the issuer asks for a 3-D Secure challenge. Without a
 * challenge (`challenge: false`: merchant-initiated, Check 3-D Secure off, or authenticated by an
 * External MPI) an enrolled card is charged like any approved card.
 */
export function chargeResultOf(outcome: CardOutcome, options: { readonly challenge?: boolean } = {}): ChargeResult | 'pending' {
  if (isEnrolled(outcome)) return options.challenge === false ? 'success' : 'pending';
  if (outcome === '3ds_not_enrolled') return 'success';
  return outcome;
}

export interface ChargeRequest {
  readonly merchant: GatewayAccount;
  readonly command: 'AUTHORIZATION' | 'PURCHASE';
  readonly merchantReference: string;
  readonly amount: number;
  readonly currency: string;
  readonly card: EnteredCard;
  readonly channel: SandboxOrder['channel'];
  readonly eci: 'ECOMMERCE' | 'RECURRING' | 'MOTO';
  readonly tokenName?: string;
  readonly plan?: ChosenPlan;
  /** Screened when the merchant has fraud prevention. */
  readonly customerEmail?: string;
  /**
   * 3-D Secure decided before the charge: `skip` asks no challenge (check_3ds NO, an External MPI
   * authentication), `failed` declines it (an External MPI result that failed). MOTO and
   * RECURRING charges never meet a challenge: the customer is not there to answer it.
   */
  readonly threeDs?: 'skip' | 'failed';
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
  /**
   * The order's current code: success, failure, or the hold while a challenge is pending (its
   * code and status are the order's last operation: `THREE_DS_HOLD` in orders.ts).
   */
  readonly code: KnownResponseCode;
  /** The answer's own fields (everything but the echo and the outcome). */
  readonly fields: WireParams;
  /** A pending challenge that the issuer will fail whatever the customer presses (the `3ds_fails` card). */
  readonly authenticationFails: boolean;
}

/** What the charge comes to before the issuer is asked: fraud screening, then the 3-D Secure decisions. */
function resultOf(request: ChargeRequest, outcome: CardOutcome): ChargeResult | 'pending' {
  const screened = hasService(request.merchant, 'fraud_prevention') && request.customerEmail?.toLowerCase() === FRAUD_SCREENING_EMAIL;
  if (screened) return 'fraud_rejected';
  if (request.threeDs === 'failed' && outcome !== 'invalid_card') return 'challenge_failed';
  const challenge = request.threeDs !== 'skip' && request.eci === 'ECOMMERCE';
  return chargeResultOf(outcome, { challenge });
}

/** Charges the card, stores the order, and says what to answer. */
export function charge(ctx: GatewayContext, request: ChargeRequest): Charge {
  const outcome = outcomeOf(request.card.number);
  const result = resultOf(request, outcome);
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
    ctx.successCodes,
  );
  ctx.state.saveOrder(order);
  return {
    order,
    code: lastOperation(order).code,
    fields: chargeFields(order, request.eci, request.tokenName),
    authenticationFails: result === 'pending' && outcome === '3ds_fails',
  };
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
  return withoutAbsent({ ...fields, ...installmentFields(order) });
}

/**
 * The installments fields of an answer about a card order, by the flow that charged it (the
 * specification's endpoint rows): a redirection (the hosted page) adds `number_of_installments`
 * only; a direct operation (paymentApi, installments YES or HOSTED) adds `plan_code` and
 * `issuer_code` too. `installments` itself is the request's, echoed. Every answer about the order
 * reads this, the one after a 3-D Secure challenge included, so a challenge changes none of them.
 */
function installmentFields(order: SandboxOrder): WireParams {
  if (!order.installments) return {};
  const months = { number_of_installments: String(order.installments.months) };
  if (order.channel === 'hosted_page') return months;
  return { ...months, plan_code: order.installments.planCode, issuer_code: order.installments.issuerCode };
}

export function withoutAbsent(fields: WireParams): WireParams {
  const present: WireParams = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null) present[name] = value;
  }
  return present;
}
