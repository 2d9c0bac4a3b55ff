/**
 * The standalone 3-D Secure flow (spec, "3-D Secure standalone flow"): 3DS_ENROLLMENT says whether
 * the card is enrolled and where the customer authenticates (`3ds_url`, or MD and PaRes for a
 * processor of the second type); the customer answers the issuer's page, which posts its
 * parameters to `merchant_3ds_url`; 3DS_AUTHENTICATION takes them back in `third_party_body` and
 * answers the result, which an External MPI charge (`mpiPurchase`) then carries. Neither request
 * moves money; each is sent once (a check is single-use).
 */
import {
  threeDsAuthenticationRequest,
  threeDsAuthenticationResponse,
  threeDsEnrollmentRequest,
  threeDsEnrollmentResponse,
  type ThreeDsAuthenticationRequest,
  type ThreeDsAuthenticationResponse,
  type ThreeDsEnrollmentRequest,
  type ThreeDsEnrollmentResponse,
  type TrustedChannelRequest,
} from '../core/schemas/index.ts';
import { call, languageOf, type CallContext, type OperationSpec } from './call.ts';
import type { ClientInput, WithAmount } from './inputs.ts';
import { resultOfAnswer, type GatewayResult } from './results.ts';

export const THREE_DS_ENROLLMENT: OperationSpec<ThreeDsEnrollmentResponse> = {
  name: '3DS_ENROLLMENT',
  requestSchema: threeDsEnrollmentRequest,
  answerSchema: threeDsEnrollmentResponse,
};
export const THREE_DS_AUTHENTICATION: OperationSpec<ThreeDsAuthenticationResponse> = {
  name: '3DS_AUTHENTICATION',
  requestSchema: threeDsAuthenticationRequest,
  answerSchema: threeDsAuthenticationResponse,
};

export type ThreeDsEnrollmentInput = WithAmount<ClientInput<ThreeDsEnrollmentRequest, 'service_command'>>;
export type ThreeDsAuthenticationInput = ClientInput<ThreeDsAuthenticationRequest, 'service_command'>;

/** The External MPI fields of a charge, from a successful 3DS_AUTHENTICATION answer. */
export type ExternalMpiResult = Pick<TrustedChannelRequest, '3ds_enrolled' | '3ds_status' | '3ds_eci' | '3ds_xid' | 'ver_token'>;

/** The authentication's result as the fields an `mpiPurchase` carries. */
export function externalMpiResult(answer: ThreeDsAuthenticationResponse): ExternalMpiResult {
  return {
    '3ds_enrolled': answer['3ds_enrolled'],
    '3ds_status': answer['3ds_status'],
    '3ds_eci': answer['3ds_eci'],
    '3ds_xid': answer['3ds_xid'],
    ver_token: answer.ver_token,
  };
}

export function threeDsOperations(ctx: CallContext) {
  return {
    /** 3DS_ENROLLMENT with the card (clear card data: PCI-certified merchants only). */
    async threeDsEnrollment(input: ThreeDsEnrollmentInput): Promise<GatewayResult<ThreeDsEnrollmentResponse>> {
      const language = languageOf(ctx, input);
      const params = { ...input, service_command: '3DS_ENROLLMENT', amount: String(input.amount), language };
      return resultOfAnswer((await call(ctx, THREE_DS_ENROLLMENT, { language, params })).answer);
    },
    /** 3DS_AUTHENTICATION: `third_party_body` is what the issuer's page posted (URL-encoded), or `MD=…&PaRes=…`. */
    async threeDsAuthentication(input: ThreeDsAuthenticationInput): Promise<GatewayResult<ThreeDsAuthenticationResponse>> {
      const language = languageOf(ctx, input);
      const params = { ...input, service_command: '3DS_AUTHENTICATION', language };
      return resultOfAnswer((await call(ctx, THREE_DS_AUTHENTICATION, { language, params })).answer);
    },
  };
}
