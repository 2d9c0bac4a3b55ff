/**
 * From a verified gateway answer to the outcome the merchant and the browser see. The outcome is
 * the core's `classifyResponse`: only a known success pair is success. An answer that does not
 * match the merchant's order (reference unknown, other amount or currency) is a failure whatever
 * the gateway said, so a paid-looking answer for the wrong order is never reported as paid.
 */
import { parseWireAmount } from '../core/amounts.ts';
import type { EndpointErrorCode, PaymentResult } from '../core/endpoint-api.ts';
import type { Language } from '../core/language.ts';
import { classifyResponse, parseResponseCode } from '../core/response.ts';
import type { VerifiedResult } from './config.ts';
import { gatewayMessage } from './gateway-client.ts';
import type { Logger } from './logger.ts';
import type { MerchantOrder } from './orders.ts';
import type { EndpointRuntime } from './route.ts';

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/**
 * The verified result of an operation answer. `order` is the merchant's order for the answer's
 * reference (undefined when there is none); amount and currency are checked against it.
 */
export function verifiedResult(
  answer: Readonly<Record<string, unknown>>,
  order: MerchantOrder | undefined,
  source: VerifiedResult['source'],
  language: Language,
  log: Logger,
): VerifiedResult {
  const responseCode = parseResponseCode(answer['response_code']);
  const gateway = forMerchantHooks(answer);
  let amount: number | undefined;
  try {
    amount = answer['amount'] === undefined ? undefined : parseWireAmount(answer['amount']);
  } catch {
    amount = undefined;
  }
  const currency = text(answer['currency']);
  const reference = text(answer['merchant_reference']) ?? '';
  let error: EndpointErrorCode | undefined;
  if (!order) error = 'unknown_order';
  else if (amount !== undefined && amount !== order.amount) error = 'amount_mismatch';
  else if (currency !== undefined && currency !== order.currency) error = 'currency_mismatch';
  if (error) log.error('verified_answer_disagrees_with_order', { merchant_reference: reference, error });

  const svcId = text(answer['svc_id']);
  const command = text(answer['command']) ?? text(answer['service_command']);
  const result: PaymentResult = {
    merchant_reference: reference,
    outcome: error ? 'failure' : classifyResponse(answer),
    response_code: responseCode?.code ?? '',
    response_message: gatewayMessage(answer, language),
    status: text(answer['status']) ?? '',
    ...(svcId === undefined ? {} : { svc_id: svcId }),
    ...(amount === undefined ? {} : { amount }),
    ...(currency === undefined ? {} : { currency }),
  };
  return {
    ...result,
    source,
    ...(command === undefined ? {} : { command }),
    ...(error === undefined ? {} : { error }),
    gateway,
  };
}

/** A verified answer for the merchant's hooks: without its signature or the echoed one-time password. */
export function forMerchantHooks(answer: Readonly<Record<string, unknown>>): Record<string, unknown> {
  // The one-time password is echoed by the gateway like every parameter; it is spent, but it is
  // the customer's, and the merchant's hook, logs and pages have no use for it.
  const { signature: _signature, otp: _otp, ...rest } = answer;
  return rest;
}

/** The browser's view of a verified result: the contract's PaymentResult fields only. */
export function toPaymentResult(result: VerifiedResult): PaymentResult {
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

/**
 * Logs a result and hands it to the merchant's `onResult`. Returns the Response the hook chose
 * to answer with, if any (used where the customer's browser is navigating: the return URL).
 */
export async function reportResult(
  result: VerifiedResult,
  request: Request,
  runtime: EndpointRuntime,
): Promise<Response | undefined> {
  runtime.log.info('payment_result', {
    merchant_reference: result.merchant_reference,
    source: result.source,
    outcome: result.outcome,
    response_code: result.response_code,
    error: result.error,
  });
  const answered = await runtime.settings.onResult?.(result, request);
  return answered instanceof Response ? answered : undefined;
}
