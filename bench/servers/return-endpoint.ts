/**
 * The merchant endpoint as the store benchmark configures it for the return route (`/return`):
 * any reference resolves to an order of AED 100.00, results are recorded in the store it is given,
 * a recorded result redirects to `/order-result`, and an in-process stub gateway answers every
 * CHECK_STATUS as the gateway answers for an order captured in full: 12000, last operation 14000
 * (PURCHASE success, transaction_status 14), authorized and captured amounts equal to the order's,
 * a payment id (`svc_id`) derived from the reference, the request echoed and signed with the
 * response phrase. Each return of a new reference therefore does the route's whole work: verify
 * the browser's signed fields, resolve the order, ask CHECK_STATUS (sign, verify, parse), and
 * record one new result (`core/order-status.ts` reads the answer as `captured`, so no watch is
 * written). Shared by the HTTP child process (`store-endpoint-server.ts`) and the in-process part
 * of `bench/store.ts`, which also signs the returns here.
 */
import { createHash } from 'node:crypto';
import { expectedStatus, responseMessage } from '../../src/core/response.ts';
import { signingString, signParams, type SignableParams } from '../../src/core/signature.ts';
import type { VerifiedResult } from '../../src/core/verified-result.ts';
import { createMerchantEndpoint, type MerchantEndpoint } from '../../src/server/endpoint.ts';
import type { MerchantOrder } from '../../src/server/orders.ts';
import type { Store } from '../../src/store/store.ts';

export const RETURN_PATH = '/return';
export const RESULT_PATH = '/order-result';
/** Answered by the benchmark's server process itself (`store-endpoint-server.ts`): its counters as JSON. */
export const COUNTERS_PATH = '/bench-counters';
export const ORDER_AMOUNT = 10000;
export const ORDER_CURRENCY = 'AED';

const MERCHANT_IDENTIFIER = 'CycHZxVj';
const ACCESS_CODE = 'zx0IPmPy5jp1vAz8Kpg7';
const RESPONSE_PHRASE = 'bench-response-phrase';
const QUERY_SUCCESS = '12000';
const PURCHASE_SUCCESS = '14000';

/** What the endpoint process has done, read by the benchmark after each run to check the route's work. */
export interface ReturnCounters {
  /** CHECK_STATUS calls the stub answered. */
  checkStatus: number;
  /** Results the endpoint recorded for the first time (`onResult` runs once per new key). */
  recorded: number;
  /** Of those, results reported as a captured success. */
  captured: number;
}

export function newCounters(): ReturnCounters {
  return { checkStatus: 0, recorded: 0, captured: 0 };
}

/** The gateway's payment id of a benchmark reference: digits only, at most 20, distinct per reference of a run. */
export function svcIdOf(reference: string): string {
  const digits = /(\d+)$/.exec(reference)?.[1] ?? '0';
  return `17${digits.slice(-12).padStart(12, '0')}`;
}

/**
 * The fields the gateway posts to the return URL after a PURCHASE on its hosted page, unsigned:
 * identity, order, the customer, the masked card and the operation's result.
 */
export function returnFields(reference: string): Record<string, string> {
  return {
    access_code: ACCESS_CODE,
    merchant_identifier: MERCHANT_IDENTIFIER,
    language: 'en',
    command: 'PURCHASE',
    merchant_reference: reference,
    amount: String(ORDER_AMOUNT),
    currency: ORDER_CURRENCY,
    customer_email: 'customer@example.com',
    customer_name: 'Bench Customer',
    customer_ip: '192.0.2.10',
    order_description: 'Benchmark order',
    svc_id: svcIdOf(reference),
    eci: 'ECOMMERCE',
    payment_option: 'VISA',
    card_number: '400555******0001',
    expiry_date: '2905',
    card_holder_name: 'Bench Customer',
    authorization_code: '482913',
    response_code: PURCHASE_SUCCESS,
    response_message: responseMessage(PURCHASE_SUCCESS, 'en'),
    status: expectedStatus(PURCHASE_SUCCESS),
  };
}

/**
 * The form body the customer's browser posts back for `reference`, signed with the response
 * phrase as the gateway signs it. Synchronous (node:crypto over core's `signingString`, which is
 * what `sign()` hashes on Node), so that the load generator can make one per request.
 */
export function signedReturnBody(reference: string): string {
  const fields = returnFields(reference);
  const signature = createHash('sha256').update(signingString(fields, RESPONSE_PHRASE), 'utf8').digest('hex');
  return new URLSearchParams({ ...fields, signature }).toString();
}

/** CHECK_STATUS's answer for a reference the gateway does not hold. */
const ORDER_NOT_FOUND = '12001';

/** A stub gateway that holds every order as captured in full (and no other attempt of it); anything but CHECK_STATUS is a bug of the benchmark. */
function capturedStubGateway(counters: ReturnCounters): typeof fetch {
  return async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // The endpoint posts its JSON as a string; reading it from there spares a Request the real gateway would not cost this process.
    if (typeof init?.body !== 'string') throw new Error('the benchmark route posted something other than JSON text to the gateway');
    const params = JSON.parse(init.body) as SignableParams;
    if (params['query_command'] !== 'CHECK_STATUS') throw new Error(`the benchmark route called the gateway for ${JSON.stringify(params)}`);
    counters.checkStatus++;
    const { signature: _signature, ...echoed } = params;
    const language = params['language'] === 'ar' ? 'ar' : 'en';
    // The order's other attempts (`.pg2` …, asked after a paid return, issue 24): the gateway holds none.
    if (/\.pg\d$/.test(String(params['merchant_reference'] ?? ''))) {
      const missing = await signParams(
        { ...echoed, response_code: ORDER_NOT_FOUND, response_message: responseMessage(ORDER_NOT_FOUND, language), status: expectedStatus(ORDER_NOT_FOUND) },
        RESPONSE_PHRASE,
        'sha256',
      );
      return new Response(JSON.stringify(missing), { headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    const body = await signParams(
      {
        ...echoed,
        response_code: QUERY_SUCCESS,
        response_message: responseMessage(QUERY_SUCCESS, language),
        status: expectedStatus(QUERY_SUCCESS),
        svc_id: svcIdOf(String(params['merchant_reference'] ?? '')),
        transaction_code: PURCHASE_SUCCESS,
        transaction_status: expectedStatus(PURCHASE_SUCCESS),
        transaction_message: responseMessage(PURCHASE_SUCCESS, language),
        authorized_amount: String(ORDER_AMOUNT),
        captured_amount: String(ORDER_AMOUNT),
        refunded_amount: '0',
      },
      RESPONSE_PHRASE,
      'sha256',
    );
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json; charset=utf-8' } });
  };
}

/** The merchant's orders: every reference is an order of the same amount (the benchmark pays a new one per request). */
function resolveAnyOrder(reference: string): MerchantOrder {
  return {
    merchant_reference: reference,
    amount: ORDER_AMOUNT,
    currency: ORDER_CURRENCY,
    description: 'Benchmark order',
    customer_email: 'customer@example.com',
  };
}

export function createReturnEndpoint(
  publicUrl: string,
  store: Store,
  counters: ReturnCounters,
  onResult?: (result: VerifiedResult) => void,
): MerchantEndpoint {
  return createMerchantEndpoint({
    merchantIdentifier: MERCHANT_IDENTIFIER,
    accessCode: ACCESS_CODE,
    shaType: 'sha256',
    requestPhrase: 'bench-request-phrase',
    responsePhrase: RESPONSE_PHRASE,
    gatewayBaseUrl: 'http://127.0.0.1:9',
    checkoutUrl: 'http://127.0.0.1:9',
    apiRoot: 'FortAPI',
    publicUrl,
    resultUrl: RESULT_PATH,
    resolveOrder: resolveAnyOrder,
    store,
    onResult(result) {
      counters.recorded++;
      if (result.outcome === 'success' && result.order_state === 'captured') counters.captured++;
      onResult?.(result);
    },
    fetch: capturedStubGateway(counters),
  });
}
