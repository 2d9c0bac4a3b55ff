/**
 * CHECK_STATUS, server to server: the gateway's word on an order. The status route passes its
 * answer on; the return URL confirms every result with it before reporting anything; the payment
 * routes ask it before starting a payment for an order the gateway may already hold
 * (`assertOrderPayable`).
 */
import { AmountError } from '../core/amounts.ts';
import type { Language } from '../core/language.ts';
import { isPaidState, orderStatusOf, type OrderStatus } from '../core/order-status.ts';
import { attemptReference, isAbandonableCheck, isReferenceLetGo, MAX_PAYMENT_ATTEMPTS } from '../core/payment-attempts.ts';
import { parseResponseCode } from '../core/response.ts';
import { checkStatusRequest, checkStatusResponse, type CheckStatusResponse } from '../core/schemas/index.ts';
import { refusalHint } from '../gateway/messages.ts';
import { EndpointRefusal } from './errors.ts';
import { identityParams } from './gateway-params.ts';
import type { MerchantOrder } from './orders.ts';
import type { EndpointRuntime } from './route.ts';

/** How long to wait for CHECK_STATUS (default the endpoint's `gatewayTimeoutMs`). */
interface StatusQuery {
  readonly timeoutMs?: number;
}

/** CHECK_STATUS for one of the merchant's orders, its answer's signature verified. */
export function queryStatus(runtime: EndpointRuntime, merchantReference: string, language: Language, query: StatusQuery = {}): Promise<CheckStatusResponse> {
  const { settings, gateway } = runtime;
  return gateway.call({
    operation: 'CHECK_STATUS',
    schema: checkStatusRequest,
    answerSchema: checkStatusResponse,
    language,
    ...query,
    params: { query_command: 'CHECK_STATUS', ...identityParams(settings), merchant_reference: merchantReference, language },
  });
}

/**
 * Logs, at error level, a verified answer in which the gateway refused a request because the
 * merchant's own settings are wrong (core `isConfigurationRefusal`: 00008, 00006): the operation,
 * the code and the settings to check (the gateway client's `refusalHint`, which the CLI can give
 * too), never their values. True when the answer is such a refusal.
 */
export function logConfigurationRefusal(
  runtime: EndpointRuntime,
  operation: string,
  answer: { readonly response_code?: unknown; readonly status?: unknown },
  merchantReference?: string,
): boolean {
  const hint = refusalHint(answer, 'en');
  if (hint === undefined) return false;
  runtime.log.error('gateway_configuration_refused', {
    operation,
    merchant_reference: merchantReference,
    response_code: parseResponseCode(answer.response_code)?.code,
    hint,
  });
  return true;
}

/**
 * What CHECK_STATUS told: where the order stands; or that the gateway refused the question for
 * the merchant's settings (`misconfigured`), so that it refuses every request signed with them;
 * or undefined when it did not say.
 */
type StatusReading = { readonly status: OrderStatus } | { readonly misconfigured: true } | undefined;

async function readOrderStatus(runtime: EndpointRuntime, merchantReference: string, language: Language, query: StatusQuery): Promise<StatusReading> {
  let answer: CheckStatusResponse;
  try {
    answer = await queryStatus(runtime, merchantReference, language, query);
  } catch (error) {
    if (!(error instanceof EndpointRefusal)) throw error;
    runtime.log.warn('order_status_unknown', { merchant_reference: merchantReference, reason: error.code });
    return undefined;
  }
  // Not an order's state: the question itself was refused, signed, and every other will be.
  if (logConfigurationRefusal(runtime, 'CHECK_STATUS', answer, merchantReference)) return { misconfigured: true };
  let status: OrderStatus;
  try {
    status = orderStatusOf(answer);
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    runtime.log.error('gateway_amount_invalid', { operation: 'CHECK_STATUS', field: error.field, rule: error.rule });
    return undefined;
  }
  if (status.state === 'unknown') {
    runtime.log.warn('order_status_unknown', {
      merchant_reference: merchantReference,
      reason: 'unknown_state',
      response_code: answer.response_code,
      transaction_code: answer.transaction_code,
    });
    return undefined;
  }
  return { status };
}

/**
 * Where the order stands at the gateway now, or undefined when the gateway did not say: it could
 * not be reached, its answer did not verify or could not be read, it refused the question for the
 * merchant's settings, or it named no state this project knows. Each of those is logged; none is
 * ever taken for an answer.
 */
export async function gatewayOrderStatus(
  runtime: EndpointRuntime,
  merchantReference: string,
  language: Language,
  query: StatusQuery = {},
): Promise<OrderStatus | undefined> {
  const reading = await readOrderStatus(runtime, merchantReference, language, query);
  return reading !== undefined && 'status' in reading ? reading.status : undefined;
}

/**
 * Whether the gateway refuses CHECK_STATUS of the reference for the merchant's settings (logged
 * so): true; false when it answered where the order stands; undefined when it did not say (it could
 * not be reached, its answer did not verify or could not be read). A question signed by this
 * endpoint, server to server: unlike a form the customer's browser posted, nothing on the way could
 * have altered it.
 */
export async function isStatusRefusedForSettings(runtime: EndpointRuntime, merchantReference: string, language: Language): Promise<boolean | undefined> {
  const reading = await readOrderStatus(runtime, merchantReference, language, {});
  return reading === undefined ? undefined : 'misconfigured' in reading;
}

/**
 * Where the order stands before a payment starts for it, asked within `orderCheckTimeoutMs` (5 s by
 * default): the question only keeps a paid order from being paid again, and the gateway's own
 * duplicate-reference check still guards it, so a slow gateway does not keep the customer waiting
 * the whole `gatewayTimeoutMs` before the payment can start.
 *
 * A question the gateway refuses for the merchant's settings (a wrong request phrase or SHA type,
 * access code or merchant identifier) refuses the payment: `service_not_configured`, 501. The
 * gateway would refuse the form, the bill or the financing step the same way, so the customer is
 * not sent on to a refusal, and nothing is signed, issued or watched.
 */
export async function orderStatusBeforePayment(runtime: EndpointRuntime, merchantReference: string, language: Language): Promise<OrderStatus | undefined> {
  const reading = await readOrderStatus(runtime, merchantReference, language, { timeoutMs: runtime.settings.orderCheckTimeoutMs });
  if (reading !== undefined && 'misconfigured' in reading) throw new EndpointRefusal('service_not_configured');
  return reading?.status;
}

/**
 * Refuses to start a payment (sign a form, issue a bill, start financing) for an order that is
 * paid or being paid: the merchant says so (`order.paid`), or the gateway holds the reference with
 * money authorized, captured or refunded (`order_already_paid`), or with a bill or 3-D Secure check
 * waiting (`order_in_progress`). A declined or voided attempt blocks nothing here. When the gateway
 * cannot be asked, the payment may start: the gateway's own duplicate-reference check (00005)
 * still protects the order, and its answer is resolved from CHECK_STATUS at the return. When it
 * refuses the question for the merchant's settings, nothing starts (`orderStatusBeforePayment`).
 */
export async function assertOrderPayable(runtime: EndpointRuntime, order: MerchantOrder, language: Language): Promise<void> {
  refuseOrderPaidByMerchant(runtime, order);
  refuseUnpayableStatus(runtime, order.merchant_reference, await orderStatusBeforePayment(runtime, order.merchant_reference, language));
}

/** `order_already_paid` when the merchant's order says it is paid; the gateway is not asked. */
export function refuseOrderPaidByMerchant(runtime: EndpointRuntime, order: MerchantOrder): void {
  if (!order.paid) return;
  runtime.log.info('order_already_paid', { merchant_reference: order.merchant_reference, by: 'merchant' });
  throw new EndpointRefusal('order_already_paid', { field: 'merchant_reference' });
}

/** The gateway's side of `assertOrderPayable`, for a status already read (undefined: the gateway did not say). */
export function refuseUnpayableStatus(runtime: EndpointRuntime, reference: string, status: OrderStatus | undefined): void {
  if (!status) return;
  if (isPaidState(status.state)) {
    runtime.log.info('order_already_paid', { merchant_reference: reference, by: 'gateway', order_state: status.state });
    throw new EndpointRefusal('order_already_paid', { field: 'merchant_reference' });
  }
  if (status.state === 'pending') {
    runtime.log.info('order_in_progress', { merchant_reference: reference });
    throw new EndpointRefusal('order_in_progress', { field: 'merchant_reference' });
  }
}

/**
 * The merchant_reference to sign a card payment form with (hosted page, merchant page, embedded
 * page), after the same checks as `assertOrderPayable` over every attempt the order has had
 * (core payment-attempts.ts). A 3-D Secure check the customer closed holds its reference at the
 * gateway: the customer pays again at once under the next attempt's reference, while the reconciler
 * keeps watching the abandoned one. A declined attempt's reference is used again (the gateway lets
 * it go). Refused when any attempt is paid, a bill waits, or no attempt is left.
 */
export async function payableReference(runtime: EndpointRuntime, order: MerchantOrder, language: Language): Promise<string> {
  const reference = order.merchant_reference;
  refuseOrderPaidByMerchant(runtime, order);
  let reusable: string | undefined;
  for (let attempt = 1; attempt <= MAX_PAYMENT_ATTEMPTS; attempt += 1) {
    const candidate = attemptReference(reference, attempt);
    if (candidate === undefined) break;
    const status = await orderStatusBeforePayment(runtime, candidate, language);
    // The gateway cannot say, or holds nothing here: no later attempt exists. Its own duplicate check (00005) still guards.
    if (!status || status.state === 'not_found') return reusable ?? candidate;
    if (isPaidState(status.state)) {
      runtime.log.info('order_already_paid', { merchant_reference: reference, by: 'gateway', order_state: status.state, attempt });
      throw new EndpointRefusal('order_already_paid', { field: 'merchant_reference' });
    }
    if (status.state === 'pending' && !isAbandonableCheck(status)) {
      runtime.log.info('order_in_progress', { merchant_reference: reference, attempt });
      throw new EndpointRefusal('order_in_progress', { field: 'merchant_reference' });
    }
    if (isReferenceLetGo(status)) reusable ??= candidate;
  }
  if (reusable !== undefined) return reusable;
  runtime.log.info('order_in_progress', { merchant_reference: reference, reason: 'no_attempt_left' });
  throw new EndpointRefusal('order_in_progress', { field: 'merchant_reference' });
}

/**
 * CHECK_STATUS of the attempt that says where the order stands (core payment-attempts.ts): the
 * order's own reference, unless a closed 3-D Secure check, a decline or a void there was followed
 * by a new attempt; then the first paid attempt, else the newest the gateway holds. A voided
 * authorization holds nothing, so a payment under a later attempt is the order's, as the payment
 * routes (`payableReference`) and the results (core `canMoveOrderPayment`) read it. One question
 * when the order had one attempt that is paid, waiting on a bill or unknown to the gateway. The
 * answer comes with the reference it was asked under. When a later attempt's question fails, the
 * whole question does (the caller's `gateway_unreachable`): an earlier attempt's answer is not the
 * order's while a payment may stand under the later one.
 */
export async function queryOrderStatus(
  runtime: EndpointRuntime,
  orderReference: string,
  language: Language,
): Promise<{ readonly answer: CheckStatusResponse; readonly reference: string }> {
  let chosen = await queryStatus(runtime, orderReference, language);
  let chosenReference = orderReference;
  // Answered as any refusal (the status route's `gateway_refused`); the operator is told what to check.
  logConfigurationRefusal(runtime, 'CHECK_STATUS', chosen, orderReference);
  const first = stateOfAnswer(chosen);
  if (!(first.state === 'failed' || first.state === 'voided' || isAbandonableCheck(first))) return { answer: chosen, reference: orderReference };
  for (let attempt = 2; attempt <= MAX_PAYMENT_ATTEMPTS; attempt += 1) {
    const reference = attemptReference(orderReference, attempt);
    if (reference === undefined) break;
    // A question that failed is "could not say", never "nothing there": the money may be under this attempt.
    const answer = await queryStatus(runtime, reference, language);
    const { state } = stateOfAnswer(answer);
    if (state === 'not_found' || state === 'unknown') break;
    chosen = answer;
    chosenReference = reference;
    if (isPaidState(state)) break;
  }
  return { answer: chosen, reference: chosenReference };
}

function stateOfAnswer(answer: CheckStatusResponse): Pick<OrderStatus, 'state' | 'transaction_code'> {
  try {
    return orderStatusOf(answer);
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    return { state: 'unknown' };
  }
}
