/**
 * A loopback stand-in for the merchant endpoint's read-only routes, for the browser benchmarks:
 * `/order` answers the benchmark order and `/installment-plans` the synthetic 50 × 10 plans, both
 * shaped by the contract in src/core/endpoint-api.ts. Nothing here signs or pays.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROUTES, type OrderResult } from '../src/core/endpoint-api.ts';
import { PLANS_ORDER, syntheticPlans } from './installments-data.ts';

export const STUB_PREFIX = '/api';

export function endpointStub(): (request: IncomingMessage, response: ServerResponse) => void {
  const order: OrderResult = { ...PLANS_ORDER, description: 'Benchmark order' };
  const answers = new Map<string, string>([
    [`${STUB_PREFIX}${ROUTES.order}`, JSON.stringify(order)],
    [`${STUB_PREFIX}${ROUTES.installmentPlans}`, JSON.stringify(syntheticPlans())],
  ]);
  return (request, response) => {
    request.resume();
    request.on('end', () => {
      const answer = request.method === 'POST' ? answers.get(request.url ?? '') : undefined;
      if (answer) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      } else {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'not_found', message: 'not found' } }));
      }
    });
  };
}
