/**
 * A store that says when it stops and starts working: one `store_unavailable` log line when an
 * operation first fails with StoreUnavailableError (a lost connection, a full disk), one
 * `store_recovered` line when an operation succeeds again. Every error still reaches the caller,
 * which answers 503; the engines recover on their own (a pool reconnects, a disk is freed).
 *
 * An outage a write found ends only when a write succeeds: on a full disk, a read-only file or a
 * lock held by another process, reads go on working while nothing can be recorded, and a read that
 * succeeds says nothing of that (it would otherwise log `store_recovered`, then `store_unavailable`
 * again, on every request).
 */
import type { Logger } from '../log/logger.ts';
import { StoreUnavailableError, type Store } from './store.ts';

export interface StoreHealth {
  /** False from a StoreUnavailableError until the next operation that succeeds. */
  readonly available: boolean;
  /** The reason of the failure that made it unavailable. */
  readonly reason?: StoreUnavailableError['reason'];
  /** Whether a write found the failure: then only a write that succeeds ends it. */
  readonly write?: boolean;
}

/** The operations that only read; every other one writes. */
const READS: ReadonlySet<string> = new Set([
  'ping',
  'results.list',
  'results.get',
  'results.latestFor',
  'results.backlog',
  'watches.get',
  'watches.list',
  'watches.countActive',
  'orders.recall',
]);

export type MonitoredStore = Store & { readonly health: StoreHealth };

export function monitoredStore(store: Store, log: Logger): MonitoredStore {
  let health: StoreHealth = { available: true };

  const observe = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    const writes = !READS.has(operation);
    try {
      const value = await run();
      if (!health.available && (writes || health.write !== true)) {
        log.info('store_recovered', { engine: store.engine, operation });
        health = { available: true };
      }
      return value;
    } catch (error) {
      if (error instanceof StoreUnavailableError && health.available) {
        log.error('store_unavailable', { engine: store.engine, operation, reason: error.reason, message: error.message });
        health = { available: false, reason: error.reason, write: writes };
      }
      throw error;
    }
  };

  // Every method of every part, wrapped alike.
  const wrap = <Part extends object>(name: string, part: Part): Part =>
    new Proxy(part, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          observe(`${name}.${String(property)}`, () => Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args)));
      },
    });

  return {
    engine: store.engine,
    location: store.location,
    results: wrap('results', store.results),
    watches: wrap('watches', store.watches),
    orders: wrap('orders', store.orders),
    limits: wrap('limits', store.limits),
    ping: () => observe('ping', () => store.ping()),
    prune: (policy) => observe('prune', () => store.prune(policy)),
    close: () => store.close(),
    get health() {
      return health;
    },
  };
}
