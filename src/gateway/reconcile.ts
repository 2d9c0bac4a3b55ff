/**
 * No blind retries of money. The gateway has no idempotency key: a CAPTURE sent twice may capture
 * twice. So a call that moves money (capture, refund, void, a charge, a financing purchase, a bill)
 * is sent once, and when its answer is lost (a time-out, a broken connection, a server error, an
 * unreadable or unverifiable answer, a code this project does not know) the client asks
 * CHECK_STATUS what really happened, a few times with growing waits, and judges the order it reads
 * (core `orderStatusOf`) against what the operation would have done: a capture applied shows the
 * captured amount grown by the amount, a void shows the order voided, a charge shows it paid. A
 * failure the gateway recorded settles it too. Otherwise the outcome is `unknown`, with the reason
 * and the amounts last read, and nothing is sent again. An HTTP 429 is settled the same way (see
 * `mayHaveArrived`), each reading no sooner than the last `Retry-After` asked, within the call's
 * deadline.
 */
import { AmountError } from '../core/amounts.ts';
import type { Language } from '../core/language.ts';
import { isPaidState, orderStatusOf, type OrderStatus } from '../core/order-status.ts';
import { isReadableAnswer, operationOutcome } from '../core/response.ts';
import { checkStatusRequest, checkStatusResponse, type CheckStatusResponse } from '../core/schemas/index.ts';
import { call, callWaits, type CallContext, type CallRequest, type OperationSpec } from './call.ts';
import { clientMessage } from './messages.ts';
import { resultOfAnswer, type GatewayResult } from './results.ts';
import { GatewayUnavailableError, mayHaveArrived, type FailureKind } from './transport.ts';

export const CHECK_STATUS: OperationSpec<CheckStatusResponse> = {
  name: 'CHECK_STATUS',
  requestSchema: checkStatusRequest,
  answerSchema: checkStatusResponse,
};

/** Which order to ask about: its reference and/or the gateway's id. */
export interface OrderQuery {
  readonly merchant_reference?: string | undefined;
  readonly svc_id?: string | undefined;
}

export interface StatusReading {
  readonly answer: CheckStatusResponse;
  readonly order: OrderStatus;
}

/** One verified CHECK_STATUS answer and the order it describes. Throws GatewayUnavailableError. */
export async function readOrder(
  ctx: CallContext,
  query: OrderQuery,
  language: Language,
  options: { readonly retry: boolean; readonly thirdPartyCodes?: boolean | undefined; readonly format?: 'JSON' | 'XML' | undefined } = { retry: true },
): Promise<StatusReading> {
  const { answer } = await call(ctx, CHECK_STATUS, {
    language,
    retry: options.retry,
    params: {
      query_command: 'CHECK_STATUS',
      merchant_reference: query.merchant_reference,
      svc_id: query.svc_id,
      language,
      return_third_party_response_codes: options.thirdPartyCodes === undefined ? undefined : options.thirdPartyCodes ? 'YES' : 'NO',
      response_format: options.format,
    },
  });
  try {
    return { answer, order: orderStatusOf(answer) };
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    ctx.log.error('gateway_amount_invalid', { operation: 'CHECK_STATUS', field: error.field, rule: error.rule });
    throw new GatewayUnavailableError('CHECK_STATUS', 'answer_invalid');
  }
}

/** What a reading says about the lost operation: settled one way, or not yet. */
export type Verdict = 'success' | 'pending' | 'declined' | 'refused' | undefined;
export type Judge = (after: OrderStatus) => Verdict;

/**
 * A failure the gateway recorded since `before`: the order's last operation changed and is a
 * decline or a refusal (a refused capture, refund or void is recorded as the last operation while
 * the money stays where it was). A code this project does not know, or a status that disagrees with
 * its code, settles nothing: it may be the lost call itself, accepted and not yet applied.
 */
function failedSince(before: OrderStatus | undefined, after: OrderStatus): Verdict {
  const code = after.transaction_code;
  if (code === undefined || code === before?.transaction_code) return undefined;
  const last = { response_code: code, status: after.transaction_status };
  if (!isReadableAnswer(last)) return undefined;
  const outcome = operationOutcome(last);
  return outcome === 'declined' ? 'declined' : outcome === 'refused' || outcome === 'not_activated' ? 'refused' : undefined;
}

/** A capture of `amount` shows as the captured amount grown by it. */
export function captureApplied(before: OrderStatus, amount: number): Judge {
  return (after) => (after.captured_amount >= before.captured_amount + amount ? 'success' : failedSince(before, after));
}

/** A refund of `amount` shows as the refunded amount grown by it. */
export function refundApplied(before: OrderStatus, amount: number): Judge {
  return (after) => (after.refunded_amount >= before.refunded_amount + amount ? 'success' : failedSince(before, after));
}

/** A void shows as the order voided. */
export function voidApplied(before: OrderStatus | undefined): Judge {
  return (after) => (after.state === 'voided' && before?.state !== 'voided' ? 'success' : failedSince(before, after));
}

/**
 * A charge (recurring, trusted channel, External MPI, financing) shows as the order paid, or
 * waiting for a 3-D Secure check; a decline as a failed attempt. `before` is the reading that let
 * the charge go: no payment under the reference then.
 */
export function chargeApplied(before: OrderStatus | undefined): Judge {
  return (after) => {
    if (isPaidState(after.state)) return 'success';
    if (after.state === 'pending') return 'pending';
    if (after.state === 'failed') return failedSince(before, after) ?? (before?.state === 'failed' ? undefined : 'declined');
    return undefined;
  };
}

/** A bill shows as the order waiting for its payment (30000), or paid already. */
export function billIssued(before: OrderStatus | undefined): Judge {
  return (after) => {
    if (after.state === 'pending' && after.transaction_code === '30000') return 'success';
    if (isPaidState(after.state)) return 'success';
    return failedSince(before, after);
  };
}

export interface Settlement {
  /** For the message: capture, refund, void, purchase … */
  readonly label: string;
  readonly query: OrderQuery;
  readonly judge: Judge;
  /** The reading taken before the call, if any: shown when nothing better is read. */
  readonly before?: OrderStatus | undefined;
}

/** Why an answer is being settled: how it was lost, and the wait its `Retry-After` asked for. */
export interface Loss {
  readonly reason: FailureKind | 'unknown_code';
  readonly retryAfterMs?: number | undefined;
}

/** The loss a failed call's error describes. */
export function lossOf(error: GatewayUnavailableError): Loss {
  return { reason: error.kind, retryAfterMs: error.retryAfterMs };
}

/**
 * Reads CHECK_STATUS until a reading settles the lost operation, or the policy's readings are spent,
 * or the next wait (at least what the last `Retry-After` asked) would pass the call's deadline.
 */
export async function settle<Answer>(
  ctx: CallContext,
  operation: string,
  settlement: Settlement,
  loss: Loss,
  language: Language,
): Promise<GatewayResult<Answer>> {
  const { reason } = loss;
  const policy = ctx.settings.reconcile;
  const waits = callWaits(ctx);
  let retryAfterMs = loss.retryAfterMs;
  let last: OrderStatus | undefined = settlement.before;
  for (let reading = 1; reading <= policy.attempts; reading++) {
    if ((await waits.before(policy, reading + 1, retryAfterMs)) === undefined) {
      ctx.log.warn('gateway_reconcile_deadline', { operation, reading, reason, retry_after_ms: retryAfterMs });
      break;
    }
    let read: StatusReading;
    try {
      read = await readOrder(ctx, settlement.query, language, { retry: false });
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      retryAfterMs = error.retryAfterMs;
      continue;
    }
    retryAfterMs = undefined;
    last = read.order;
    const verdict = settlement.judge(read.order);
    ctx.log.info('gateway_reconcile', { operation, reading, reason, order_state: read.order.state, verdict: verdict ?? 'unsettled' });
    if (verdict) {
      return {
        outcome: verdict,
        response_code: read.order.transaction_code ?? '',
        status: read.order.transaction_status ?? '',
        response_message: read.answer.transaction_message ?? read.answer.response_message,
        source: 'check_status',
        reason,
        order: read.order,
      };
    }
  }
  ctx.log.error('gateway_outcome_unknown', { operation, reason });
  return {
    outcome: 'unknown',
    response_code: '',
    status: '',
    response_message: clientMessage(reason === 'rate_limited' ? 'unsettled_rate_limited' : 'unsettled', language, { operation: settlement.label }),
    source: 'check_status',
    reason,
    ...(last === undefined ? {} : { order: last }),
  };
}

/**
 * A call that moves money: sent once. Its verified answer (of a known code, with its status) is the
 * result; a lost or unreadable answer is settled by CHECK_STATUS. A request that never left (`not_sent`) moved
 * nothing and is thrown, like a refused field.
 */
export async function moneyCall<Answer extends { readonly response_code?: unknown; readonly status?: unknown }>(
  ctx: CallContext,
  operation: OperationSpec<Answer>,
  request: CallRequest,
  settlement: Settlement,
): Promise<GatewayResult<Answer>> {
  let answer: Answer;
  try {
    ({ answer } = await call(ctx, operation, { ...request, retry: false }));
  } catch (error) {
    if (error instanceof GatewayUnavailableError && mayHaveArrived(error.kind)) {
      return settle(ctx, operation.name, settlement, lossOf(error), request.language);
    }
    throw error;
  }
  if (!isReadableAnswer(answer)) {
    ctx.log.warn('gateway_code_unknown', { operation: operation.name, response_code: answer.response_code, status: answer.status });
    return settle(ctx, operation.name, settlement, { reason: 'unknown_code' }, request.language);
  }
  return resultOfAnswer(answer as Answer & { response_message?: unknown });
}
