/**
 * The merchant endpoint as the benchmark configures it: one in-memory order, no logger, SHA-256,
 * and an in-process stub gateway. `/hosted-page` asks CHECK_STATUS before it signs (an order the
 * gateway already holds is refused), so the stub answers that call as the gateway answers for an
 * order it does not hold: 12001 "Order not found", echoing the request and signed with the response
 * phrase. Each benchmarked request therefore does the route's real work (checks and signs the
 * CHECK_STATUS request, verifies and parses the answer, builds and signs the form) without a
 * socket to a gateway. Shared by the HTTP child process and the in-process measurement.
 */
import { responseMessage, expectedStatus } from '../../src/core/response.ts';
import { signParams, type SignableParams } from '../../src/core/signature.ts';
import { createMerchantEndpoint, type MerchantEndpoint } from '../../src/server/endpoint.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { InMemoryRateLimiter } from '../../src/server/rate-limit.ts';

export const BENCH_ORDER = {
  merchant_reference: 'BENCH-0001',
  amount: 10000,
  currency: 'AED',
  description: 'Benchmark order',
  customer_email: 'customer@example.com',
} as const;

const RESPONSE_PHRASE = 'bench-response-phrase';
const NOT_FOUND = '12001';

/** CHECK_STATUS calls the stub has answered in this process: the benchmark checks each request made one. */
export const stubCalls = { count: 0 };

/**
 * A gateway that holds no order: every call is answered 12001, the request echoed (without its
 * signature) and signed as the gateway signs. Anything but CHECK_STATUS is a bug in the benchmark.
 */
export async function stubGateway(_input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  // The endpoint posts its JSON as a string; reading it from there spares a Request the real gateway would not cost this process.
  if (typeof init?.body !== 'string') throw new Error('the benchmark route posted something other than JSON text to the gateway');
  const params = JSON.parse(init.body) as SignableParams;
  if (params['query_command'] !== 'CHECK_STATUS') throw new Error(`the benchmark route called the gateway for ${JSON.stringify(params)}`);
  stubCalls.count++;
  const { signature: _signature, ...echoed } = params;
  const language = params['language'] === 'ar' ? 'ar' : 'en';
  const body = await signParams(
    { ...echoed, response_code: NOT_FOUND, response_message: responseMessage(NOT_FOUND, language), status: expectedStatus(NOT_FOUND) },
    RESPONSE_PHRASE,
    'sha256',
  );
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json; charset=utf-8' } });
}

export function createBenchEndpoint(publicUrl: string): MerchantEndpoint {
  const orders = new InMemoryOrderStore([BENCH_ORDER]);
  return createMerchantEndpoint({
    merchantIdentifier: 'CycHZxVj',
    accessCode: 'zx0IPmPy5jp1vAz8Kpg7',
    shaType: 'sha256',
    requestPhrase: 'bench-request-phrase',
    responsePhrase: RESPONSE_PHRASE,
    gatewayBaseUrl: 'http://127.0.0.1:9',
    checkoutUrl: 'http://127.0.0.1:9',
    apiRoot: 'FortAPI',
    publicUrl,
    resolveOrder: orders.resolve,
    fetch: stubGateway,
    // Every benchmarked request signs a page for the same order, where a shop's customers each pay
    // their own: the card-testing limit is counted as for any order (its key's digest, its window)
    // but set out of reach, or all but the first ten requests would measure its refusal.
    cardAttemptLimiter: new InMemoryRateLimiter({ limit: Number.MAX_SAFE_INTEGER, windowSeconds: 3600 }),
  });
}
