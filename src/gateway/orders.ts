/**
 * Operations on an order (spec, "Maintenance operations" and "Query operations"): CHECK_STATUS,
 * CAPTURE and REFUND (partial or full) and void of an authorization. Before a capture or a refund
 * the client reads the order and refuses, without sending anything, an amount beyond what the
 * order allows; an amount left out means "the rest". The money-moving three are never sent twice.
 */
import type { Language } from '../core/language.ts';
import { capturableAmount, isVoidable, refundableAmount, type OrderStatus } from '../core/order-status.ts';
import {
  captureRequest,
  captureResponse,
  refundRequest,
  refundResponse,
  voidAuthorizationRequest,
  voidAuthorizationResponse,
  type CaptureRequest,
  type CaptureResponse,
  type CheckStatusResponse,
  type RefundRequest,
  type RefundResponse,
  type VoidAuthorizationRequest,
  type VoidAuthorizationResponse,
} from '../core/schemas/index.ts';
import { languageOf, type CallContext, type OperationSpec } from './call.ts';
import { captureApplied, moneyCall, readOrder, refundApplied, voidApplied, type OrderQuery, type StatusReading } from './reconcile.ts';
import { refusedByClient, resultOfAnswer, type GatewayResult } from './results.ts';
import type { ClientInput } from './inputs.ts';

/** The operations' specs, for the client and for whoever builds on `client.call`. */
export const CAPTURE: OperationSpec<CaptureResponse> = { name: 'CAPTURE', requestSchema: captureRequest, answerSchema: captureResponse };
export const REFUND: OperationSpec<RefundResponse> = { name: 'REFUND', requestSchema: refundRequest, answerSchema: refundResponse };
export const VOID_AUTHORIZATION: OperationSpec<VoidAuthorizationResponse> = {
  name: 'VOID_AUTHORIZATION',
  requestSchema: voidAuthorizationRequest,
  answerSchema: voidAuthorizationResponse,
};

export interface CheckStatusInput {
  readonly merchant_reference?: string;
  readonly svc_id?: string;
  /** Ask for the processor's and acquirer's codes too (`return_third_party_response_codes: YES`). */
  readonly return_third_party_response_codes?: boolean;
  /** `XML` asks for the answer as XML; it is read into the same shape. */
  readonly response_format?: 'JSON' | 'XML';
  readonly language?: Language;
}

/** CHECK_STATUS's result: the answer, and where the order stands (core `orderStatusOf`), amounts in minor units. */
export interface StatusResult extends GatewayResult<CheckStatusResponse> {
  readonly order?: OrderStatus;
}

/** CAPTURE or REFUND of an order: its amount in minor units, or left out for "the rest". */
export type MaintenanceInput<R> = ClientInput<R, 'command' | 'amount'> & { readonly amount?: number };
export type CaptureInput = MaintenanceInput<CaptureRequest>;
export type RefundInput = MaintenanceInput<RefundRequest>;
export type VoidInput = ClientInput<VoidAuthorizationRequest, 'command'>;

export function orderOperations(ctx: CallContext) {

  async function checkStatus(input: CheckStatusInput): Promise<StatusResult> {
    const language = languageOf(ctx, input);
    const query: OrderQuery = { merchant_reference: input.merchant_reference, svc_id: input.svc_id };
    const read = await readOrder(ctx, query, language, {
      retry: true,
      thirdPartyCodes: input.return_third_party_response_codes,
      format: input.response_format,
    });
    return resultOfAnswer(read.answer, { order: read.order });
  }

  /**
   * The order read before an operation on it, or the result that ends the call there: no order
   * under the reference, or the status query itself refused (its own outcome).
   */
  async function readBefore<A>(
    query: OrderQuery,
    language: Language,
  ): Promise<{ readonly read: StatusReading } | { readonly refused: GatewayResult<A> }> {
    const read = await readOrder(ctx, query, language, { retry: true });
    if (read.order.state === 'not_found') return { refused: refusedByClient('order_not_found', language, {}, read.order) };
    const asked = resultOfAnswer(read.answer);
    if (asked.outcome !== 'success') {
      const { answer: _status, ...outcome } = asked;
      return { refused: { ...outcome, source: 'check_status', order: read.order } };
    }
    return { read };
  }

  async function maintenance<R extends CaptureResponse | RefundResponse>(
    command: 'CAPTURE' | 'REFUND',
    input: MaintenanceInput<CaptureRequest | RefundRequest>,
  ): Promise<GatewayResult<R>> {
    const language = languageOf(ctx, input);
    const before = await readBefore<R>({ merchant_reference: input.merchant_reference, svc_id: input.svc_id }, language);
    if ('refused' in before) return before.refused;
    const { order } = before.read;
    const capture = command === 'CAPTURE';
    const allowed = capture ? capturableAmount(order) : refundableAmount(order);
    const detail = { amount: input.amount, allowed, currency: input.currency, state: order.state };
    if (allowed === 0) return refusedByClient(capture ? 'nothing_to_capture' : 'nothing_to_refund', language, detail, order);
    const amount = input.amount ?? allowed;
    if (amount > allowed) {
      return refusedByClient(capture ? 'amount_exceeds_capturable' : 'amount_exceeds_refundable', language, detail, order);
    }
    // The spec's capture and refund carry svc_id: the order's, as CHECK_STATUS names it, unless given.
    const svcId = input.svc_id ?? order.svc_id;
    return moneyCall(
      ctx,
      (capture ? CAPTURE : REFUND) as OperationSpec<R>,
      { language, params: { ...input, command, svc_id: svcId, amount: String(amount), language } },
      {
        label: capture ? 'capture' : 'refund',
        query: { merchant_reference: input.merchant_reference, svc_id: svcId },
        judge: capture ? captureApplied(order, amount) : refundApplied(order, amount),
        before: order,
      },
    );
  }

  return {
    checkStatus,
    /** CAPTURE of an authorized order, partial (`amount`) or the rest. Refused locally beyond authorized − captured. */
    capture: (input: CaptureInput) => maintenance<CaptureResponse>('CAPTURE', input),
    /** REFUND of a captured order, partial (`amount`) or the rest. Refused locally beyond captured − refunded. */
    refund: (input: RefundInput) => maintenance<RefundResponse>('REFUND', input),
    /** Void of an authorization (command VOID_AUTHORIZATION), by merchant_reference and/or svc_id. Refused locally once captured, voided or failed. */
    async voidAuthorization(input: VoidInput): Promise<GatewayResult<VoidAuthorizationResponse>> {
      const language = languageOf(ctx, input);
      const query = { merchant_reference: input.merchant_reference, svc_id: input.svc_id };
      const before = await readBefore<VoidAuthorizationResponse>(query, language);
      if ('refused' in before) return before.refused;
      const { order } = before.read;
      // A captured order is refunded, not voided; a voided or failed one has nothing to release.
      if (!isVoidable(order)) return refusedByClient('nothing_to_void', language, { state: order.state }, order);
      return moneyCall(
        ctx,
        VOID_AUTHORIZATION,
        { language, params: { ...input, command: 'VOID_AUTHORIZATION', language } },
        { label: 'void', query: { ...query, svc_id: query.svc_id ?? order.svc_id }, judge: voidApplied(order), before: order },
      );
    },
  };
}
