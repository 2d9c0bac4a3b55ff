/**
 * The endpoint contract's schemas (src/core/endpoint-results.ts, with zod), loaded on demand: a
 * page holds no validator until its first request to the endpoint or its first framed payment,
 * and then loads it once, while that request travels. The order, every element's first request,
 * loads only its own check and the refusal's (endpoint-results-order.ts, most of it zod/mini);
 * any other request, or a framed payment, loads the whole contract, which shares that part.
 */
import type * as EndpointResults from '../../core/endpoint-results.ts';
import type { ClientRouteName, EndpointCall } from '../../core/endpoint-routes.ts';
import { onDemand } from './on-demand.ts';

export type Contract = typeof EndpointResults;
/** What reading one call's answer needs. */
export type AnswerChecks = Pick<Contract, 'checkedResult' | 'checkedRefusal'>;

const contract = onDemand<Contract>(() => import('../../core/endpoint-results.ts'));

/** The order's check alone (it refuses any other call's answer, and is given out for the order only). */
const orderChecks = onDemand<AnswerChecks>(() => import('../../core/endpoint-results-order.ts'));

/**
 * The checks of `call`'s answer: the order's alone for the order (unless the whole contract is at
 * hand already), else the whole contract. A load that failed (the network) is tried again by the
 * next call.
 */
export function loadChecks(call: EndpointCall<ClientRouteName, unknown, unknown>): Promise<AnswerChecks> {
  return call.result === 'orderResult' && contract.value === undefined ? orderChecks.load() : contract.load();
}

/** The contract's checks; a load that failed (the network) is tried again by the next call. */
export function loadContract(): Promise<Contract> {
  return contract.load();
}

/** The contract's checks if they have loaded already (they have once a framed payment started or a request other than the order's was answered). */
export function loadedContract(): Contract | undefined {
  return contract.value;
}
