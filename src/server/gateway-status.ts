/**
 * CHECK_STATUS, server to server: the gateway's word on an order. The status route passes its
 * answer on; the return URL confirms every result with it before reporting anything; the payment
 * routes ask it before starting a payment for an order the gateway may already hold.
 */
import { AmountError } from '../core/amounts.ts';
import type { Language } from '../core/language.ts';
import { orderStatusOf, type OrderStatus } from '../core/order-status.ts';
import { checkStatusRequest, checkStatusResponse, type CheckStatusResponse } from '../core/schemas/index.ts';
import { EndpointRefusal } from './errors.ts';
import { identityParams } from './gateway-params.ts';
import type { EndpointRuntime } from './route.ts';

/** CHECK_STATUS for one of the merchant's orders, its answer's signature verified. */
export function queryStatus(runtime: EndpointRuntime, merchantReference: string, language: Language): Promise<CheckStatusResponse> {
  const { settings, gateway } = runtime;
  return gateway.call({
    operation: 'CHECK_STATUS',
    schema: checkStatusRequest,
    answerSchema: checkStatusResponse,
    language,
    params: { query_command: 'CHECK_STATUS', ...identityParams(settings), merchant_reference: merchantReference, language },
  });
}

/**
 * Where the order stands at the gateway now, or undefined when the gateway did not say: it could
 * not be reached, its answer did not verify or could not be read, or it named no state this
 * project knows. Each of those is logged; none is ever taken for an answer.
 */
export async function gatewayOrderStatus(
  runtime: EndpointRuntime,
  merchantReference: string,
  language: Language,
): Promise<OrderStatus | undefined> {
  let answer: CheckStatusResponse;
  try {
    answer = await queryStatus(runtime, merchantReference, language);
  } catch (error) {
    if (!(error instanceof EndpointRefusal)) throw error;
    runtime.log.warn('order_status_unknown', { merchant_reference: merchantReference, reason: error.code });
    return undefined;
  }
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
  return status;
}
