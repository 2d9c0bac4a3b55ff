/**
 * A small gateway for the endpoint's tests, as a `fetch`: it checks every request's signature with
 * the request phrase and its fields with the core's request schema (a problem is recorded, so a
 * test can show the endpoint never sends a bad request), then answers signed with the response
 * phrase. Each operation's answer can be replaced per test.
 *
 * It remembers the orders its payments created, as a gateway does: CHECK_STATUS reports them (12001
 * for a reference it does not hold), and a second payment or bill for a reference it holds is
 * answered 00005. `holds()` puts an order there directly (a payment made on the hosted page, a
 * capture, refund or void made in the back-office).
 */
import type * as z from 'zod/mini';
import {
  billPresentmentRequest,
  checkStatusRequest,
  customerVerifyRequest,
  getTokensRequest,
  financingPurchaseRequest,
  installmentsDirectRequest,
  installmentsPlansRequest,
  otpGenerateRequest,
  otpVerifyRequest,
  trustedChannelRequest,
} from '../../src/core/schemas/index.ts';
import { orderStateOfAnswer } from '../../src/core/order-status.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { signatureOptionsFor, signParams, verifySignature, type SignableParams, type SignableValue } from '../../src/core/signature.ts';

export const MERCHANT_IDENTIFIER = 'merchant01';
export const ACCESS_CODE = 'accessCode01';
export const REQUEST_PHRASE = 'REQ-phrase-7f3a9c';
export const RESPONSE_PHRASE = 'RESP-phrase-91bd42';
export const GATEWAY_BASE_URL = 'https://api.gateway.test';
export const CHECKOUT_URL = 'https://checkout.gateway.test';
export const API_ROOT = 'FortAPI';

/** The PG_* variables naming the fake gateway's account, as `serve` reads them. */
export const GATEWAY_ENV = {
  PG_MERCHANT_IDENTIFIER: MERCHANT_IDENTIFIER,
  PG_ACCESS_CODE: ACCESS_CODE,
  PG_SHA_TYPE: 'SHA-256',
  PG_SHA_REQUEST_PHRASE: REQUEST_PHRASE,
  PG_SHA_RESPONSE_PHRASE: RESPONSE_PHRASE,
  PG_GATEWAY_BASE_URL: GATEWAY_BASE_URL,
  PG_CHECKOUT_URL: CHECKOUT_URL,
  PG_API_ROOT: API_ROOT,
} as const;

/** The account's settings as a client of this gateway needs them (the endpoint, the back-office client). */
export const GATEWAY_ACCOUNT = {
  merchantIdentifier: MERCHANT_IDENTIFIER,
  accessCode: ACCESS_CODE,
  shaType: 'sha256',
  requestPhrase: REQUEST_PHRASE,
  responsePhrase: RESPONSE_PHRASE,
  gatewayBaseUrl: GATEWAY_BASE_URL,
  apiRoot: API_ROOT,
} as const;

export type Operation =
  | 'GET_INSTALLMENTS_PLANS'
  | 'CHECK_STATUS'
  | 'BILL_PRESENTMENT'
  | 'CUSTOMER_VERIFY'
  | 'OTP_GENERATE'
  | 'OTP_VERIFY'
  | 'FINANCING_PURCHASE'
  | 'TOKEN_PAYMENT'
  | 'INSTALLMENTS_PAYMENT'
  | 'GET_TOKENS';

const REQUEST_SCHEMAS: Record<Operation, z.ZodMiniType> = {
  GET_INSTALLMENTS_PLANS: installmentsPlansRequest,
  CHECK_STATUS: checkStatusRequest,
  BILL_PRESENTMENT: billPresentmentRequest,
  CUSTOMER_VERIFY: customerVerifyRequest,
  OTP_GENERATE: otpGenerateRequest,
  OTP_VERIFY: otpVerifyRequest,
  FINANCING_PURCHASE: financingPurchaseRequest,
  TOKEN_PAYMENT: trustedChannelRequest,
  INSTALLMENTS_PAYMENT: installmentsDirectRequest,
  GET_TOKENS: getTokensRequest,
};

function operationOf(request: Readonly<Record<string, unknown>>): Operation {
  const query = request['query_command'];
  if (query === 'GET_INSTALLMENTS_PLANS' || query === 'CHECK_STATUS' || query === 'GET_TOKENS') return query;
  const service = request['service_command'];
  if (service === 'BILL_PRESENTMENT' || service === 'CUSTOMER_VERIFY' || service === 'OTP_GENERATE' || service === 'OTP_VERIFY') {
    return service;
  }
  if (request['transaction_id'] !== undefined) return 'FINANCING_PURCHASE';
  if (request['installments'] === 'YES' || request['installments'] === 'HOSTED') return 'INSTALLMENTS_PAYMENT';
  return 'TOKEN_PAYMENT';
}

/** What an answer function returns: the code and the fields the gateway adds to the echo. */
export interface Answer {
  readonly code: KnownResponseCode;
  readonly fields?: Readonly<Record<string, SignableValue>>;
  /** The status sent with the code, where it is not the code's own (a live account's 20064 under 20). */
  readonly status?: string;
  /** Change the signed answer before it is sent (tampering, dropping the signature). */
  readonly tamper?: (signed: Record<string, unknown>) => Record<string, unknown>;
}

export type AnswerFor = (request: Readonly<Record<string, unknown>>) => Answer;

export const PLANS_ANSWER = {
  installment_detail: {
    issuer_detail: [
      {
        issuer_code: 'NBE01',
        issuer_name_ar: 'البنك الأهلي',
        issuer_name_en: 'National Bank',
        terms_and_condition_ar: null,
        terms_and_condition_en: 'Terms apply',
        country_code: 'EGY',
        issuer_logo_ar: null,
        issuer_logo_en: null,
        banking_system: 'Non Islamic',
        formula: null,
        plan_details: [
          {
            plan_code: 'NBE6',
            currency_code: 'EGP',
            number_of_installment: 6,
            fees_type: 'Percentage',
            fees_amount: 2,
            processing_fees_type: null,
            processing_fees_amount: null,
            rate_type: 'Flat',
            plan_merchant_type: 'Non Partner',
            plan_type: 'Cross-Border',
            fee_display_value: '2%',
            minimum_amount: 100_000,
            maximum_amount: '5000000',
            amountPerMonth: '425.00',
          },
          {
            plan_code: 'NBEUSD',
            currency_code: 'USD',
            number_of_installment: 6,
            fees_type: 'Percentage',
            fees_amount: 2,
            processing_fees_type: null,
            processing_fees_amount: null,
            rate_type: 'Flat',
            plan_merchant_type: 'Non Partner',
            plan_type: 'Cross-Border',
            fee_display_value: '2%',
            minimum_amount: 0,
            maximum_amount: 5_000_000,
            amountPerMonth: '10.00',
          },
        ],
        bins: [{ bin: '400555', country_code: 'EGY', currency_code: 'EGP', card_brand_code: 'VISA' }],
        confirmation_message_ar: null,
        confirmation_message_en: null,
        disclaimer_message_ar: null,
        disclaimer_message_en: null,
        processing_fees_message_ar: null,
        processing_fees_message_en: null,
      },
      {
        issuer_code: 'BIG01',
        issuer_name_ar: 'بنك كبير',
        issuer_name_en: 'Big Bank',
        terms_and_condition_ar: null,
        terms_and_condition_en: null,
        country_code: 'EGY',
        issuer_logo_ar: null,
        issuer_logo_en: null,
        banking_system: 'Non Islamic',
        formula: null,
        plan_details: [
          {
            plan_code: 'BIG12',
            currency_code: 'EGP',
            number_of_installment: 12,
            fees_type: 'Percentage',
            fees_amount: 1,
            processing_fees_type: null,
            processing_fees_amount: null,
            rate_type: 'Flat',
            plan_merchant_type: 'Non Partner',
            plan_type: 'Cross-Border',
            fee_display_value: '1%',
            minimum_amount: 10_000_000,
            maximum_amount: 90_000_000,
            amountPerMonth: '100.00',
          },
        ],
        bins: [{ bin: '512345', country_code: 'EGY', currency_code: 'EGP', card_brand_code: 'MASTERCARD' }],
        confirmation_message_ar: null,
        confirmation_message_en: null,
        disclaimer_message_ar: null,
        disclaimer_message_en: null,
        processing_fees_message_ar: null,
        processing_fees_message_en: null,
      },
    ],
  },
} as const;

/** The OTP the fake partner accepts. */
export const GOOD_OTP = '123456';
/** A phone number the fake partner has never registered. */
export const UNREGISTERED_PHONE = '01099999999';
/** A token whose payment the fake gateway sends through 3-D Secure. */
export const THREE_DS_TOKEN = 'tok-3ds';
export const THREE_DS_URL = 'https://acs.issuer.test/challenge?id=42';

/** What an order can be at the fake gateway. */
export type HeldState = 'authorized' | 'captured' | 'partially_refunded' | 'refunded' | 'voided' | 'declined' | 'pending_3ds' | 'bill_issued' | 'bill_expired';

/** The last operation and the amounts CHECK_STATUS reports for each state. */
const HELD: Record<HeldState, (amount: number) => { code: KnownResponseCode; authorized: number; captured: number; refunded: number }> = {
  authorized: (amount) => ({ code: '02000', authorized: amount, captured: 0, refunded: 0 }),
  captured: (amount) => ({ code: '14000', authorized: amount, captured: amount, refunded: 0 }),
  partially_refunded: (amount) => ({ code: '20064', authorized: amount, captured: amount, refunded: Math.floor(amount / 2) }),
  refunded: (amount) => ({ code: '20064', authorized: amount, captured: amount, refunded: amount }),
  voided: (amount) => ({ code: '08000', authorized: amount, captured: 0, refunded: 0 }),
  declined: () => ({ code: '13001', authorized: 0, captured: 0, refunded: 0 }),
  pending_3ds: () => ({ code: '20000', authorized: 0, captured: 0, refunded: 0 }),
  bill_issued: () => ({ code: '30000', authorized: 0, captured: 0, refunded: 0 }),
  bill_expired: () => ({ code: '31001', authorized: 0, captured: 0, refunded: 0 }),
};

/** An order the fake gateway holds: what CHECK_STATUS tells of it. */
export interface HeldOrder {
  readonly state: HeldState;
  readonly svcId: string;
  readonly amount: number;
}

const DEFAULT_ANSWERS: Record<Operation, AnswerFor> = {
  GET_INSTALLMENTS_PLANS: () => ({ code: '62000', fields: PLANS_ANSWER as unknown as Record<string, SignableValue> }),
  // Replaced by the held orders (see createFakeGateway); a test may still override it.
  CHECK_STATUS: () => ({ code: '12001' }),
  BILL_PRESENTMENT: () => ({ code: '30000', fields: { bill_number: '12345678901234' } }),
  CUSTOMER_VERIFY: (request) => ({ code: request['phone_number'] === UNREGISTERED_PHONE ? '91001' : '90000' }),
  OTP_GENERATE: () => ({
    code: '88000',
    fields: { transaction_id: 'TX-1', total_down_payment: '50000', otp_status: '1', tenure: '6-12-24' },
  }),
  OTP_VERIFY: (request) =>
    request['otp'] === GOOD_OTP
      ? {
          code: '92182',
          fields: {
            otp_status: '1',
            tenure: {
              TENURE_VM: [
                { EMI: '37500', TENURE: '6', InterestRate: '2.5' },
                { EMI: '19050', TENURE: '12', InterestRate: '3' },
              ],
            },
          },
        }
      : { code: '93001' },
  FINANCING_PURCHASE: () => ({ code: '14000', fields: { svc_id: '1700000002', eci: 'ECOMMERCE', customer_ip: '10.0.0.1' } }),
  TOKEN_PAYMENT: (request) =>
    request['token_name'] === THREE_DS_TOKEN
      ? { code: '20000', fields: { '3ds_url': THREE_DS_URL, svc_id: '1700000003' } }
      : { code: request['command'] === 'AUTHORIZATION' ? '02000' : '14000', fields: { svc_id: '1700000004', card_number: '400555******0001' } },
  INSTALLMENTS_PAYMENT: (request) => ({
    code: request['command'] === 'AUTHORIZATION' ? '02000' : '14000',
    fields: { svc_id: '1700000005', number_of_installments: '6' },
  }),
  // Replaced by the kept tokens (see createFakeGateway).
  GET_TOKENS: () => ({ code: '54000', fields: { data_list: [], data_count: '0' } }),
};

/** A token the fake gateway keeps (GET_TOKENS lists it); a temporary token is never kept. */
export interface KeptToken {
  readonly token_name: string;
  readonly card_number: string;
  readonly expiry_date: string;
  readonly card_brand: string;
  readonly card_bin: string;
  readonly token_status: 'ACTIVE' | 'INACTIVE';
  readonly creation_date: string;
}

export interface GatewayCallRecord {
  readonly operation: Operation;
  readonly url: string;
  /** The request as the gateway received it (signature included). */
  readonly request: Readonly<Record<string, unknown>>;
}

export interface FakeGateway {
  readonly fetch: typeof fetch;
  readonly calls: GatewayCallRecord[];
  /** Requests that broke the signature or the core schema: the endpoint must never send one. */
  readonly problems: string[];
  /** Replaces the answer of one operation until `reset()`. */
  answer(operation: Operation, answerFor: AnswerFor): void;
  /** Puts an order at the gateway (svc_id 1700000001 and EGP 2,500.00 unless given), until `reset()`. */
  holds(merchantReference: string, state: HeldState, options?: { readonly svcId?: string; readonly amount?: number }): void;
  /** The order the gateway holds under a reference, if any. */
  held(merchantReference: string): HeldOrder | undefined;
  /** Keeps a token (a Visa ending 1111, ACTIVE, unless given), so GET_TOKENS lists it, until `reset()`. */
  keepsToken(tokenName: string, token?: Partial<KeptToken>): void;
  /** The gateway cannot be reached: the connection breaks (a request may have arrived). */
  goOffline(): void;
  /** The gateway's host refuses connections (ECONNREFUSED): no request leaves. */
  refuseConnections(): void;
  /** The gateway answers every call (or every call about one merchant_reference) with this HTTP status and an unsigned error body. */
  failWith(status: number, merchantReference?: string): void;
  reset(): void;
  callsOf(operation: Operation): GatewayCallRecord[];
}

export function createFakeGateway(): FakeGateway {
  const calls: GatewayCallRecord[] = [];
  const problems: string[] = [];
  const orders = new Map<string, HeldOrder>();
  const tokens = new Map<string, KeptToken>();
  let overrides: Partial<Record<Operation, AnswerFor>> = {};
  let offline: false | 'broken' | 'refused' = false;
  let failure: { readonly status: number; readonly reference?: string | undefined } | undefined;

  const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (offline === 'refused') throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    if (offline) throw new TypeError('fetch failed');
    if (failure !== undefined && (failure.reference === undefined || JSON.parse(String(init?.body))['merchant_reference'] === failure.reference)) {
      return Response.json({ error: 'internal' }, { status: failure.status });
    }
    if (url !== `${GATEWAY_BASE_URL}/${API_ROOT}/paymentApi`) {
      problems.push(`unexpected URL ${url}`);
      return new Response('not found', { status: 404 });
    }
    const request = JSON.parse(String(init?.body)) as Record<string, SignableValue>;
    const operation = operationOf(request);
    calls.push({ operation, url, request });
    const verified = await verifySignature(request as SignableParams, REQUEST_PHRASE, 'sha256');
    if (!verified.valid) problems.push(`${operation}: request signature ${verified.reason}`);
    const checked = REQUEST_SCHEMAS[operation].safeParse(request);
    if (!checked.success) {
      problems.push(`${operation}: ${checked.error.issues.map((issue) => `${issue.path.join('.')} ${issue.code}`).join(', ')}`);
    }
    const { code, fields = {}, status, tamper } = remember(operation, request, (overrides[operation] ?? answerOf(operation))(request));
    const { signature: _signature, ...echo } = request;
    const language = request['language'] === 'ar' ? 'ar' : 'en';
    const unsigned = { ...echo, ...fields, response_code: code, response_message: responseMessage(code, language), status: status ?? expectedStatus(code) };
    const body = await signParams(unsigned, RESPONSE_PHRASE, 'sha256', signatureOptionsFor(unsigned));
    const sent = tamper ? tamper(body) : body;
    return new Response(JSON.stringify(sent), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;

  /** CHECK_STATUS from the held orders. */
  function answerOf(operation: Operation): AnswerFor {
    if (operation === 'GET_TOKENS') {
      return (request) => {
        const listed = [...tokens.values()].filter((token) => request['token_status'] === undefined || token.token_status === request['token_status']);
        return { code: '54000', fields: { data_list: listed.map((token) => ({ ...token })), data_count: String(listed.length) } };
      };
    }
    if (operation !== 'CHECK_STATUS') return DEFAULT_ANSWERS[operation];
    return (request) => {
      const order = orders.get(String(request['merchant_reference']));
      if (!order) return { code: '12001' };
      const { code, authorized, captured, refunded } = HELD[order.state](order.amount);
      return {
        code: '12000',
        fields: {
          svc_id: order.svcId,
          transaction_status: expectedStatus(code),
          transaction_code: code,
          transaction_message: responseMessage(code, 'en'),
          authorized_amount: String(authorized),
          captured_amount: String(captured),
          refunded_amount: String(refunded),
        },
      };
    };
  }

  /**
   * A payment or bill for a reference the gateway holds (anything but a declined attempt) is a
   * duplicate (00005); otherwise the order its answer creates is remembered.
   */
  function remember(operation: Operation, request: Readonly<Record<string, unknown>>, answer: Answer): Answer {
    const payment = ['TOKEN_PAYMENT', 'INSTALLMENTS_PAYMENT', 'FINANCING_PURCHASE', 'BILL_PRESENTMENT'].includes(operation);
    if (!payment) return answer;
    const reference = String(request['merchant_reference']);
    const held = orders.get(reference);
    if (held && held.state !== 'declined') return { code: '00005' };
    const state = operation === 'BILL_PRESENTMENT' && answer.code === '30000' ? 'pending' : orderStateOfAnswer({ response_code: answer.code });
    const svcId = String(answer.fields?.['svc_id'] ?? '1700000009');
    const amount = Number(request['amount'] ?? 0);
    const heldState: HeldState | undefined =
      state === 'captured'
        ? 'captured'
        : state === 'authorized'
          ? 'authorized'
          : state === 'failed'
            ? 'declined'
            : state === 'pending'
              ? operation === 'BILL_PRESENTMENT'
                ? 'bill_issued'
                : 'pending_3ds'
              : undefined;
    if (heldState) orders.set(reference, { state: heldState, svcId, amount });
    return answer;
  }

  return {
    fetch: fakeFetch,
    calls,
    problems,
    answer(operation, answerFor) {
      overrides[operation] = answerFor;
    },
    holds(merchantReference, state, options = {}) {
      orders.set(merchantReference, { state, svcId: options.svcId ?? '1700000001', amount: options.amount ?? 250_000 });
    },
    held: (merchantReference) => orders.get(merchantReference),
    keepsToken(tokenName, token = {}) {
      tokens.set(tokenName, {
        token_name: tokenName,
        card_number: '411111******1111',
        expiry_date: '2812',
        card_brand: 'VISA',
        card_bin: '411111',
        token_status: 'ACTIVE',
        creation_date: '2026-11-22T05:00:00+00:00',
        ...token,
      });
    },
    goOffline() {
      offline = 'broken';
    },
    refuseConnections() {
      offline = 'refused';
    },
    failWith(status, merchantReference) {
      failure = { status, reference: merchantReference };
    },
    reset() {
      overrides = {};
      orders.clear();
      tokens.clear();
      offline = false;
      failure = undefined;
      calls.length = 0;
      problems.length = 0;
    },
    callsOf(operation) {
      return calls.filter((call) => call.operation === operation);
    },
  };
}
