/**
 * Charges server to server and the tokens they use (spec, "Recurring payments", "Trusted channel",
 * "Tokenization", External MPI):
 *
 * - a recurring PURCHASE with a stored token (eci RECURRING);
 * - trusted-channel PURCHASE / AUTHORIZATION with a token or clear card data, eci ECOMMERCE,
 *   RECURRING or MOTO, and the same with an External MPI result. **Clear card data is for
 *   PCI-certified merchants only**: it passes through the merchant's server. The client never logs
 *   it (logs carry names, and a redaction pass drops card fields and masks digit runs);
 * - creating a token from card data (TOKENIZATION on paymentApi), updating one, listing them.
 *
 * A charge is sent once. Before it, the client reads the reference: one the gateway holds with a
 * payment (or one under way) is refused locally, so that a lost answer can later be settled by
 * CHECK_STATUS without mistaking an older payment for this one.
 */
import type { Language } from '../core/language.ts';
import { isPaidState, type OrderStatus } from '../core/order-status.ts';
import {
  getTokensRequest,
  getTokensResponse,
  recurringPurchaseRequest,
  recurringPurchaseResponse,
  tokenizationApiRequest,
  tokenizationApiResponse,
  trustedChannelRequest,
  trustedChannelResponse,
  updateTokenRequest,
  updateTokenResponse,
  type GetTokensRequest,
  type GetTokensResponse,
  type RecurringPurchaseRequest,
  type RecurringPurchaseResponse,
  type TokenizationApiRequest,
  type TokenizationApiResponse,
  type TrustedChannelRequest,
  type TrustedChannelResponse,
  type UpdateTokenRequest,
  type UpdateTokenResponse,
} from '../core/schemas/index.ts';
import type { SignableParams } from '../core/signature.ts';
import { call, languageOf, type CallContext, type OperationSpec } from './call.ts';
import type { ClientInput, WithAmount } from './inputs.ts';
import { chargeApplied, moneyCall, readOrder, type Judge } from './reconcile.ts';
import { refusedByClient, resultOfAnswer, type GatewayResult } from './results.ts';

export const RECURRING_PURCHASE: OperationSpec<RecurringPurchaseResponse> = {
  name: 'PURCHASE (recurring)',
  requestSchema: recurringPurchaseRequest,
  answerSchema: recurringPurchaseResponse,
};
export const TRUSTED_CHANNEL: OperationSpec<TrustedChannelResponse> = {
  name: 'trusted channel',
  requestSchema: trustedChannelRequest,
  answerSchema: trustedChannelResponse,
};
export const TOKENIZATION: OperationSpec<TokenizationApiResponse> = {
  name: 'TOKENIZATION',
  requestSchema: tokenizationApiRequest,
  answerSchema: tokenizationApiResponse,
};
export const UPDATE_TOKEN: OperationSpec<UpdateTokenResponse> = {
  name: 'UPDATE_TOKEN',
  requestSchema: updateTokenRequest,
  answerSchema: updateTokenResponse,
};
export const GET_TOKENS: OperationSpec<GetTokensResponse> = { name: 'GET_TOKENS', requestSchema: getTokensRequest, answerSchema: getTokensResponse };

/** A recurring PURCHASE: the stored token, the amount in minor units; eci is RECURRING. */
export type RecurringInput = WithAmount<ClientInput<RecurringPurchaseRequest, 'command' | 'eci'>>;
/** A trusted-channel charge: `eci` (ECOMMERCE, RECURRING or MOTO) and a token or clear card data. */
export type TrustedInput = WithAmount<ClientInput<TrustedChannelRequest, 'command'>>;
/** A charge with an External MPI result: the card (or token) and the 3-D Secure result obtained elsewhere. */
export type MpiInput = TrustedInput & Required<Pick<TrustedChannelRequest, '3ds_enrolled'>>;
export type CreateTokenInput = ClientInput<TokenizationApiRequest, 'service_command'>;
export type UpdateTokenInput = ClientInput<UpdateTokenRequest, 'service_command'>;
/** GET_TOKENS; the answer is asked for as XML (the spec's shape of the list) unless `response_format` says JSON. */
export type ListTokensInput = ClientInput<GetTokensRequest, 'query_command'>;

/** What a charge needs of the order it makes: its reference, read before and after. */
export interface ChargePlan {
  readonly label: string;
  readonly merchantReference: string;
  readonly language: Language;
  readonly judge: (before: OrderStatus) => Judge;
}

/**
 * Sends a charge once, after checking that its reference holds no payment; a lost answer is
 * settled by CHECK_STATUS. Shared by the charges here, the bill and the financing purchase.
 */
export async function chargeOnce<Answer extends { readonly response_code?: unknown; readonly status?: unknown }>(
  ctx: CallContext,
  operation: OperationSpec<Answer>,
  params: SignableParams,
  plan: ChargePlan,
): Promise<GatewayResult<Answer>> {
  const { language } = plan;
  const query = { merchant_reference: plan.merchantReference };
  const before = await readOrder(ctx, query, language, { retry: true });
  if (isPaidState(before.order.state) || before.order.state === 'pending') {
    return refusedByClient('reference_in_use', language, {}, before.order);
  }
  return moneyCall(ctx, operation, { language, params }, { label: plan.label, query, judge: plan.judge(before.order), before: before.order });
}

export function chargeOperations(ctx: CallContext) {

  function trusted(command: 'PURCHASE' | 'AUTHORIZATION', input: TrustedInput): Promise<GatewayResult<TrustedChannelResponse>> {
    const language = languageOf(ctx, input);
    return chargeOnce(ctx, { ...TRUSTED_CHANNEL, name: `${command} (trusted channel, ${input.eci})` }, { ...input, command, amount: String(input.amount), language }, {
      label: command === 'PURCHASE' ? 'purchase' : 'authorization',
      merchantReference: input.merchant_reference,
      language,
      judge: chargeApplied,
    });
  }

  return {
    /** A recurring PURCHASE with a stored token (eci RECURRING). */
    recurringPurchase(input: RecurringInput): Promise<GatewayResult<RecurringPurchaseResponse>> {
      const language = languageOf(ctx, input);
      return chargeOnce(ctx, RECURRING_PURCHASE, { ...input, command: 'PURCHASE', eci: 'RECURRING', amount: String(input.amount), language }, {
        label: 'recurring purchase',
        merchantReference: input.merchant_reference,
        language,
        judge: chargeApplied,
      });
    },
    /** Trusted-channel PURCHASE (PCI-certified merchants only when it carries clear card data). */
    trustedPurchase: (input: TrustedInput) => trusted('PURCHASE', input),
    /** Trusted-channel AUTHORIZATION (PCI-certified merchants only when it carries clear card data). */
    trustedAuthorization: (input: TrustedInput) => trusted('AUTHORIZATION', input),
    /** PURCHASE whose 3-D Secure check was done elsewhere (External MPI): the result in 3ds_enrolled, 3ds_status, 3ds_eci, 3ds_xid, ver_token. */
    mpiPurchase: (input: MpiInput) => trusted('PURCHASE', input),
    /** AUTHORIZATION with an External MPI result. */
    mpiAuthorization: (input: MpiInput) => trusted('AUTHORIZATION', input),

    /** TOKENIZATION on paymentApi: verifies the card, stores a token, charges nothing. Sent once. */
    async createToken(input: CreateTokenInput): Promise<GatewayResult<TokenizationApiResponse>> {
      const language = languageOf(ctx, input);
      const { answer } = await call(ctx, TOKENIZATION, { language, params: { ...input, service_command: 'TOKENIZATION', language } });
      return resultOfAnswer(answer);
    },
    /** UPDATE_TOKEN: the card's expiry or holder, the token's status (ACTIVE / INACTIVE) or its name. Sent once. */
    async updateToken(input: UpdateTokenInput): Promise<GatewayResult<UpdateTokenResponse>> {
      const language = languageOf(ctx, input);
      const { answer } = await call(ctx, UPDATE_TOKEN, { language, params: { ...input, service_command: 'UPDATE_TOKEN', language } });
      return resultOfAnswer(answer);
    },
    /** GET_TOKENS: the stored tokens (masked cards), by creation date and status; read-only, retried. */
    async listTokens(input: ListTokensInput = {}): Promise<GatewayResult<GetTokensResponse>> {
      const language = languageOf(ctx, input);
      const { answer } = await call(ctx, GET_TOKENS, {
        language,
        retry: true,
        params: { response_format: 'XML', ...input, query_command: 'GET_TOKENS', language },
      });
      return resultOfAnswer(answer);
    },
  };
}
