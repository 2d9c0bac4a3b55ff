/**
 * The merchant endpoint as the benchmark configures it: one in-memory order, no logger, SHA-256.
 * `/hosted-page` signs without calling the gateway, so the injected `fetch` only guards against a
 * stray call. Shared by the HTTP child process and the in-process measurement.
 */
import { createMerchantEndpoint, type MerchantEndpoint } from '../../src/server/endpoint.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';

export const BENCH_ORDER = {
  merchant_reference: 'BENCH-0001',
  amount: 10000,
  currency: 'AED',
  description: 'Benchmark order',
  customer_email: 'customer@example.com',
} as const;

export function createBenchEndpoint(publicUrl: string): MerchantEndpoint {
  const orders = new InMemoryOrderStore([BENCH_ORDER]);
  return createMerchantEndpoint({
    merchantIdentifier: 'CycHZxVj',
    accessCode: 'zx0IPmPy5jp1vAz8Kpg7',
    shaType: 'sha256',
    requestPhrase: 'bench-request-phrase',
    responsePhrase: 'bench-response-phrase',
    gatewayBaseUrl: 'http://127.0.0.1:9',
    checkoutUrl: 'http://127.0.0.1:9',
    apiRoot: 'FortAPI',
    publicUrl,
    resolveOrder: orders.resolve,
    fetch: () => Promise.reject(new Error('the benchmark route must not call the gateway')),
  });
}
