/**
 * The gateway's other services, server to server: currency exchange (CURRENCY_CONVERSION),
 * installment plans (GET_INSTALLMENTS_PLANS), the cash bill (BILL_PRESENTMENT) and the four
 * consumer-financing steps (CUSTOMER_VERIFY, OTP_GENERATE, OTP_VERIFY, PURCHASE). Queries are
 * retried; OTP_GENERATE (an SMS) and OTP_VERIFY (a counted attempt) are sent once; the bill and the
 * financing purchase move money and are settled by CHECK_STATUS when their answer is lost.
 */
import type { Language } from '../core/language.ts';
import {
  billPresentmentRequest,
  billPresentmentResponse,
  currencyConversionRequest,
  currencyConversionResponse,
  customerVerifyRequest,
  customerVerifyResponse,
  financingPurchaseRequest,
  financingPurchaseResponse,
  installmentsPlansRequest,
  installmentsPlansResponse,
  otpGenerateRequest,
  otpGenerateResponse,
  otpVerifyRequest,
  otpVerifyResponse,
  type BillPresentmentRequest,
  type BillPresentmentResponse,
  type CurrencyConversionRequest,
  type CurrencyConversionResponse,
  type CustomerVerifyRequest,
  type CustomerVerifyResponse,
  type FinancingPurchaseRequest,
  type FinancingPurchaseResponse,
  type InstallmentsPlansRequest,
  type InstallmentsPlansResponse,
  type OtpGenerateRequest,
  type OtpGenerateResponse,
  type OtpVerifyRequest,
  type OtpVerifyResponse,
} from '../core/schemas/index.ts';
import type { SignableParams } from '../core/signature.ts';
import { call, languageOf, type CallContext, type OperationSpec } from './call.ts';
import { chargeOnce } from './charges.ts';
import type { ClientInput, WithAmount } from './inputs.ts';
import { billIssued, chargeApplied } from './reconcile.ts';
import { resultOfAnswer, type GatewayResult } from './results.ts';

const spec = <A>(name: string, requestSchema: OperationSpec<A>['requestSchema'], answerSchema: OperationSpec<A>['answerSchema']): OperationSpec<A> => ({
  name,
  requestSchema,
  answerSchema,
});

export const CURRENCY_CONVERSION = spec<CurrencyConversionResponse>('CURRENCY_CONVERSION', currencyConversionRequest, currencyConversionResponse);
export const GET_INSTALLMENTS_PLANS = spec<InstallmentsPlansResponse>('GET_INSTALLMENTS_PLANS', installmentsPlansRequest, installmentsPlansResponse);
export const BILL_PRESENTMENT = spec<BillPresentmentResponse>('BILL_PRESENTMENT', billPresentmentRequest, billPresentmentResponse);
export const CUSTOMER_VERIFY = spec<CustomerVerifyResponse>('CUSTOMER_VERIFY', customerVerifyRequest, customerVerifyResponse);
export const OTP_GENERATE = spec<OtpGenerateResponse>('OTP_GENERATE', otpGenerateRequest, otpGenerateResponse);
export const OTP_VERIFY = spec<OtpVerifyResponse>('OTP_VERIFY', otpVerifyRequest, otpVerifyResponse);
export const FINANCING_PURCHASE = spec<FinancingPurchaseResponse>('PURCHASE (financing)', financingPurchaseRequest, financingPurchaseResponse);

export type CurrencyExchangeInput = WithAmount<ClientInput<CurrencyConversionRequest, 'service_command'>>;
export type InstallmentPlansInput = ClientInput<InstallmentsPlansRequest, 'query_command' | 'amount'> & { readonly amount?: number };
export type BillInput = WithAmount<ClientInput<BillPresentmentRequest, 'service_command'>>;
export type CustomerVerifyInput = ClientInput<CustomerVerifyRequest, 'service_command'>;
export type OtpGenerateInput = WithAmount<ClientInput<OtpGenerateRequest, 'service_command'>>;
export type OtpVerifyInput = WithAmount<ClientInput<OtpVerifyRequest, 'service_command'>>;
export type FinancingPurchaseInput = WithAmount<ClientInput<FinancingPurchaseRequest, 'command'>>;

export function serviceOperations(ctx: CallContext) {

  async function ask<A extends { readonly response_code?: unknown; readonly status?: unknown }>(
    operation: OperationSpec<A>,
    params: SignableParams,
    language: Language,
    retry: boolean,
  ): Promise<GatewayResult<A>> {
    return resultOfAnswer((await call(ctx, operation, { language, params, retry })).answer);
  }

  return {
    /** CURRENCY_CONVERSION: `amount` (minor units of `currency`) in `converted_currency` at the live rate. Read-only, retried. */
    currencyExchange(input: CurrencyExchangeInput): Promise<GatewayResult<CurrencyConversionResponse>> {
      const language = languageOf(ctx, input);
      return ask(CURRENCY_CONVERSION, { ...input, service_command: 'CURRENCY_CONVERSION', amount: String(input.amount), language }, language, true);
    },
    /** GET_INSTALLMENTS_PLANS, narrowed by amount and currency or issuer. Read-only, retried. */
    installmentPlans(input: InstallmentPlansInput = {}): Promise<GatewayResult<InstallmentsPlansResponse>> {
      const language = languageOf(ctx, input);
      const amount = input.amount === undefined ? undefined : String(input.amount);
      return ask(GET_INSTALLMENTS_PLANS, { ...input, query_command: 'GET_INSTALLMENTS_PLANS', amount, language }, language, true);
    },
    /** BILL_PRESENTMENT: a bill number the customer pays at the partner (EGP). Sent once; a lost answer is settled by CHECK_STATUS. */
    billPresentment(input: BillInput): Promise<GatewayResult<BillPresentmentResponse>> {
      const language = languageOf(ctx, input);
      return chargeOnce(ctx, BILL_PRESENTMENT, { ...input, service_command: 'BILL_PRESENTMENT', amount: String(input.amount), language }, {
        label: 'bill',
        merchantReference: input.merchant_reference,
        language,
        judge: billIssued,
      });
    },
    /** Financing step 1, CUSTOMER_VERIFY: is the phone registered with the partner. Read-only, retried. */
    customerVerify(input: CustomerVerifyInput): Promise<GatewayResult<CustomerVerifyResponse>> {
      const language = languageOf(ctx, input);
      return ask(CUSTOMER_VERIFY, { ...input, service_command: 'CUSTOMER_VERIFY', language }, language, true);
    },
    /** Financing step 2, OTP_GENERATE: an SMS to the customer. Sent once. */
    otpGenerate(input: OtpGenerateInput): Promise<GatewayResult<OtpGenerateResponse>> {
      const language = languageOf(ctx, input);
      return ask(OTP_GENERATE, { ...input, service_command: 'OTP_GENERATE', amount: String(input.amount), language } as SignableParams, language, false);
    },
    /** Financing step 3, OTP_VERIFY: the code the customer typed (attempts are counted). Sent once. */
    otpVerify(input: OtpVerifyInput): Promise<GatewayResult<OtpVerifyResponse>> {
      const language = languageOf(ctx, input);
      return ask(OTP_VERIFY, { ...input, service_command: 'OTP_VERIFY', amount: String(input.amount), language }, language, false);
    },
    /** Financing step 4, PURCHASE with the verified OTP's transaction. Sent once; a lost answer is settled by CHECK_STATUS. */
    financingPurchase(input: FinancingPurchaseInput): Promise<GatewayResult<FinancingPurchaseResponse>> {
      const language = languageOf(ctx, input);
      return chargeOnce(ctx, FINANCING_PURCHASE, { ...input, command: 'PURCHASE', amount: String(input.amount), language }, {
        label: 'financing purchase',
        merchantReference: input.merchant_reference,
        language,
        judge: chargeApplied,
      });
    },
  };
}
