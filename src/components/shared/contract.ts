/**
 * The endpoint contract's schemas (src/core/endpoint-results.ts, with zod), loaded on demand: a
 * page holds no validator until its first request to the endpoint or its first framed payment,
 * and then loads it once, while that request travels.
 */
import type * as EndpointResults from '../../core/endpoint-results.ts';

type Contract = typeof EndpointResults;

let loading: Promise<Contract> | undefined;

/** The contract's checks; a load that failed (the network) is tried again by the next call. */
export function loadContract(): Promise<Contract> {
  loading ??= import('../../core/endpoint-results.ts').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
