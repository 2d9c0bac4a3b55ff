/**
 * What every method of the client returns: the outcome (the core's `operationOutcome` of the
 * gateway's answer, or `unknown` when the answer to a money-moving call was lost and CHECK_STATUS
 * could not settle it), the gateway's code, status and message, and the verified answer. The
 * result says where its outcome comes from: the operation's own answer, a CHECK_STATUS reading
 * after the answer was lost, or the client, which refused the call before sending it.
 */
import type { Language } from '../core/language.ts';
import type { OrderStatus } from '../core/order-status.ts';
import { operationOutcome, type OperationOutcome } from '../core/response.ts';
import { clientMessage, type ClientCode, type MessageDetail } from './messages.ts';
import type { FailureKind } from './transport.ts';

export type GatewayOutcome = OperationOutcome | 'unknown';

export interface GatewayResult<Answer> {
  /** success, pending, declined, refused, not_activated; or unknown when the answer was lost and could not be settled. */
  readonly outcome: GatewayOutcome;
  /** The gateway's five-digit code: the operation's, or (settled by CHECK_STATUS) the order's last operation's; '' when none. */
  readonly response_code: string;
  /** The two-digit status that goes with it; '' when none. */
  readonly status: string;
  /** The gateway's message in the call's language, or the client's own (refused locally, unknown). */
  readonly response_message: string;
  /** The verified, parsed answer of the operation; absent when it was lost or never asked for. */
  readonly answer?: Answer;
  /** `answer`: the operation's answer says it. `check_status`: the answer was lost; CHECK_STATUS says what happened. `client`: refused before sending. */
  readonly source: 'answer' | 'check_status' | 'client';
  /** Why the answer is not the source: how it was lost (`timeout`, `connection`, `http_error`, …) or the client's refusal code. */
  readonly reason?: FailureKind | ClientCode | 'unknown_code' | 'already_generated';
  /** Where the order stands at the gateway, when the client read it: the reading that settled a lost answer, or that refused the call. */
  readonly order?: OrderStatus;
}

interface AnswerOutcome {
  readonly response_code?: unknown;
  readonly status?: unknown;
  readonly response_message?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : String(value));

/** The result of an operation its own verified answer speaks for. */
export function resultOfAnswer<Answer extends AnswerOutcome>(answer: Answer, extra: Partial<GatewayResult<Answer>> = {}): GatewayResult<Answer> {
  return {
    outcome: operationOutcome(answer),
    response_code: text(answer.response_code),
    status: text(answer.status),
    response_message: text(answer.response_message),
    answer,
    source: 'answer',
    ...extra,
  };
}

/** A call the client refused before sending it: outcome `refused`, with the client's stable code and message. */
export function refusedByClient<Answer>(code: ClientCode, language: Language, detail: MessageDetail = {}, order?: OrderStatus): GatewayResult<Answer> {
  return {
    outcome: 'refused',
    response_code: '',
    status: '',
    response_message: clientMessage(code, language, detail),
    source: 'client',
    reason: code,
    ...(order === undefined ? {} : { order }),
  };
}
