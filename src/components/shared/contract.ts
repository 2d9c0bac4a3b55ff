/**
 * The endpoint contract's schemas (src/core/endpoint-results.ts, with zod), loaded on demand: a
 * page holds no validator until its first request to the endpoint or its first framed payment,
 * and then loads it once, while that request travels.
 */
import type * as EndpointResults from '../../core/endpoint-results.ts';

export type Contract = typeof EndpointResults;

let loading: Promise<Contract> | undefined;
let loaded: Contract | undefined;

/** The contract's checks; a load that failed (the network) is tried again by the next call. */
export function loadContract(): Promise<Contract> {
  loading ??= import('../../core/endpoint-results.ts').then(
    (contract) => (loaded = contract),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The contract's checks if they have loaded already (they have once any request was answered). */
export function loadedContract(): Contract | undefined {
  return loaded;
}
