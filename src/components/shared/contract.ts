/**
 * The endpoint contract's shapes (src/core/endpoint-results.ts, core shapes, no zod), loaded on demand: a
 * page holds no validator until its first request to the endpoint or its first framed payment,
 * and then loads it once, while that request travels.
 */
import type * as EndpointResults from '../../core/endpoint-results.ts';
import { onDemand } from './on-demand.ts';

/** The three checks the page runs on answers and frame messages. */
export type Contract = typeof EndpointResults.contractChecks;

// The checks as one object of the module's: the bundler then builds no object of all its exports.
const contract = onDemand<Contract>(() => import('../../core/endpoint-results.ts').then((module) => module.contractChecks));

/** The contract's checks; a load that failed (the network) is tried again by the next call. */
export function loadContract(): Promise<Contract> {
  return contract.load();
}

/** The contract's checks if they have loaded already (they have once any request was answered). */
export function loadedContract(): Contract | undefined {
  return contract.value;
}
