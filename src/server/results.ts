/**
 * From what the gateway said to the result the merchant and the browser see, reported once.
 *
 * - A server-to-server operation answer (merchant-page completion, financing PURCHASE) is the
 *   gateway speaking now: its state is read from its code (`resultOfAnswer`).
 * - Anything the customer's browser brought back (the return URL) may be old or replayed, so it is
 *   only a reason to ask: CHECK_STATUS says where the order stands now (`confirmedResult`). If the
 *   gateway does not say, nothing is reported and the customer sees a pending result.
 *
 * An answer that does not match the merchant's order (reference unknown, other amount or currency)
 * is a failure whatever the gateway said. Each result carries a stable idempotency key; the ledger
 * (result-ledger.ts) hands a key to `onResult` once and answers a replay with the first result.
 */
import { AmountError, parseWireAmount } from '../core/amounts.ts';
import type { EndpointErrorCode, PaymentResult } from '../core/endpoint-api.ts';
import type { Language } from '../core/language.ts';
import {
  orderStateOfAnswer,
  paymentOutcomeOf,
  resultKeyOf,
  type OrderState,
  type OrderStatus,
} from '../core/order-status.ts';
import { parseResponseCode } from '../core/response.ts';
import type { VerifiedResult } from './config.ts';
import { gatewayMessage } from './gateway-client.ts';
import { gatewayOrderStatus } from './gateway-status.ts';
import type { Logger } from './logger.ts';
import type { MerchantOrder } from './orders.ts';
import type { EndpointRuntime } from './route.ts';

type Answer = Readonly<Record<string, unknown>>;

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The verified answer's amount, and whether it disagrees with the merchant's order. */
function checkAgainstOrder(
  answer: Answer,
  order: MerchantOrder | undefined,
  log: Logger,
): { amount?: number; currency?: string; error?: EndpointErrorCode } {
  const currency = text(answer['currency']);
  let amount: number | undefined;
  let error: EndpointErrorCode | undefined;
  try {
    amount = answer['amount'] === undefined ? undefined : parseWireAmount(answer['amount']);
  } catch (problem) {
    if (!(problem instanceof AmountError)) throw problem;
    log.error('gateway_amount_invalid', { operation: text(answer['command']) ?? 'return', field: 'amount', rule: problem.rule });
    error = 'gateway_answer_invalid';
  }
  if (!order) error = 'unknown_order';
  else if (error === undefined && amount !== undefined && amount !== order.amount) error = 'amount_mismatch';
  else if (error === undefined && currency !== undefined && currency !== order.currency) error = 'currency_mismatch';
  if (error) log.error('verified_answer_disagrees_with_order', { merchant_reference: text(answer['merchant_reference']), error });
  return {
    ...(amount === undefined ? {} : { amount }),
    ...(currency === undefined ? {} : { currency }),
    ...(error === undefined ? {} : { error }),
  };
}

interface ResultParts {
  readonly reference: string;
  readonly answer: Answer;
  readonly order: MerchantOrder | undefined;
  readonly state: OrderState;
  readonly responseCode: string;
  readonly status: string;
  readonly message: string;
  readonly svcId: string | undefined;
  readonly source: VerifiedResult['source'];
  readonly orderStatus?: OrderStatus;
  /** The endpoint's reason for a result that is not paid (a completion that failed, say). */
  readonly reason?: EndpointErrorCode;
  readonly log: Logger;
}

function buildResult(parts: ResultParts): VerifiedResult {
  const { reference, answer, state, responseCode, svcId } = parts;
  const checked = checkAgainstOrder(answer, parts.order, parts.log);
  const outcome = checked.error ? 'failure' : paymentOutcomeOf(state);
  const error = checked.error ?? (outcome === 'success' ? undefined : parts.reason);
  const command = text(answer['command']) ?? text(answer['service_command']);
  return {
    merchant_reference: reference,
    outcome,
    response_code: responseCode,
    response_message: parts.message,
    status: parts.status,
    ...(svcId === undefined ? {} : { svc_id: svcId }),
    ...(checked.amount === undefined ? {} : { amount: checked.amount }),
    ...(checked.currency === undefined ? {} : { currency: checked.currency }),
    source: parts.source,
    idempotency_key: resultKeyOf({ merchant_reference: reference, svc_id: svcId, state, response_code: responseCode }),
    order_state: state,
    ...(parts.orderStatus === undefined ? {} : { order_status: parts.orderStatus }),
    ...(command === undefined ? {} : { command }),
    ...(error === undefined ? {} : { error }),
    gateway: forMerchantHooks(answer),
  };
}

/**
 * The result of an operation answer the endpoint received server to server (merchant-page
 * completion, financing PURCHASE). `order` is the merchant's order for the answer's reference.
 */
export function resultOfAnswer(
  answer: Answer,
  order: MerchantOrder | undefined,
  source: VerifiedResult['source'],
  language: Language,
  log: Logger,
): VerifiedResult {
  return buildResult({
    reference: text(answer['merchant_reference']) ?? '',
    answer,
    order,
    state: orderStateOfAnswer(answer),
    responseCode: parseResponseCode(answer['response_code'])?.code ?? '',
    status: text(answer['status']) ?? '',
    message: gatewayMessage(answer, language),
    svcId: text(answer['svc_id']),
    source,
    log,
  });
}

/**
 * The result for `reference` as CHECK_STATUS states it now: `answer` is the verified answer that
 * made the endpoint ask (a return, a duplicate-reference refusal), used for its amount check and
 * handed to the merchant's hook. Undefined when the gateway does not say (unreachable, unreadable).
 */
export async function confirmedResult(
  reference: string,
  answer: Answer,
  order: MerchantOrder | undefined,
  source: VerifiedResult['source'],
  language: Language,
  runtime: EndpointRuntime,
  reason?: EndpointErrorCode,
): Promise<VerifiedResult | undefined> {
  const orderStatus = await gatewayOrderStatus(runtime, reference, language);
  if (!orderStatus) return undefined;
  // Nothing at the gateway: the answer's own code is all there is to report (a refused form, say).
  const transaction = orderStatus.transaction_code === undefined ? answer : {
    response_code: orderStatus.transaction_code,
    status: orderStatus.transaction_status,
  };
  return buildResult({
    reference,
    answer,
    order,
    state: orderStatus.state,
    responseCode: parseResponseCode(transaction['response_code'])?.code ?? '',
    status: text(transaction['status']) ?? '',
    message: gatewayMessage(transaction, language),
    svcId: orderStatus.svc_id ?? text(answer['svc_id']),
    source,
    orderStatus,
    ...(reason === undefined ? {} : { reason }),
    log: runtime.log,
  });
}

/** A verified answer for the merchant's hooks: without its signature or the echoed one-time password. */
export function forMerchantHooks(answer: Answer): Record<string, unknown> {
  // The one-time password is echoed by the gateway like every parameter; it is spent, but it is
  // the customer's, and the merchant's hook, logs and pages have no use for it.
  const { signature: _signature, otp: _otp, ...rest } = answer;
  return rest;
}

/** The browser's view of a verified result: the contract's PaymentResult fields only. */
export function toPaymentResult(result: PaymentResult): PaymentResult {
  const { merchant_reference, outcome, response_code, response_message, status, svc_id, amount, currency } = result;
  return {
    merchant_reference,
    outcome,
    response_code,
    response_message,
    status,
    ...(svc_id === undefined ? {} : { svc_id }),
    ...(amount === undefined ? {} : { amount }),
    ...(currency === undefined ? {} : { currency }),
  };
}

export interface ReportedResult {
  /** The result under this key: this one when it is new, the one reported first for a replay. */
  readonly result: VerifiedResult;
  /** The Response `onResult` chose to answer with (only when this call reported the result). */
  readonly answered?: Response;
}

/**
 * Records the result in the ledger and, the first time its key is seen, logs it and hands it to
 * the merchant's `onResult`. A replay is logged as such and reports nothing. If `onResult` throws,
 * the key is released so that the next post of the same return reports it again.
 */
export async function reportOnce(result: VerifiedResult, request: Request, runtime: EndpointRuntime): Promise<ReportedResult> {
  const { settings, log } = runtime;
  const entry = await settings.resultLedger.record(result);
  const logged = {
    merchant_reference: result.merchant_reference,
    source: result.source,
    outcome: entry.result.outcome,
    order_state: entry.result.order_state,
    response_code: entry.result.response_code,
    error: entry.result.error,
  };
  if (!entry.first) {
    log.info('payment_result_replayed', logged);
    return { result: entry.result };
  }
  log.info('payment_result', logged);
  let answered: void | Response;
  try {
    answered = await settings.onResult?.(result, request);
  } catch (error) {
    await settings.resultLedger.release(result.idempotency_key);
    throw error;
  }
  return { result, ...(answered instanceof Response ? { answered } : {}) };
}
