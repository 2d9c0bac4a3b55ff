/**
 * The store from the same variables `pg-checkout serve` reads (`PG_DATA_DIR`, `PG_DATABASE_URL`),
 * for the commands that read or add to it beside a running service: `results`, `reconcile`, and a
 * money command whose answer was lost (its payment is then watched). Several processes share the
 * SQLite file safely (WAL, a busy timeout); a store that cannot be opened is a configuration error.
 */
import { existsSync } from 'node:fs';
import type { Language } from '../core/language.ts';
import type { OrderState } from '../core/order-status.ts';
import type { GatewayResult } from '../gateway/results.ts';
import { backOfficeConfigFromEnv } from '../server/config.ts';
import { DEFAULT_WATCH_SETTINGS, moneyCallWatch } from '../server/watches.ts';
import { openStore, storeLocationFromEnv } from '../store/open.ts';
import { StoreOpenError, type Store } from '../store/store.ts';
import { CliConfigError } from './client-env.ts';
import type { Io } from './command.ts';

/** Opens the store the environment names; `create: false` refuses a SQLite folder that does not exist yet. */
export async function storeFromEnv(io: Io, options: { readonly create: boolean }): Promise<Store> {
  const location = storeLocationFromEnv(io.env);
  if (!options.create && location.databaseUrl === undefined && !existsSync(location.dataDir)) {
    throw new CliConfigError(
      `PG_DATA_DIR: ${location.dataDir} does not exist: run this where pg-checkout serve keeps its data (same working directory or PG_DATA_DIR), or set PG_DATABASE_URL`,
    );
  }
  try {
    return await openStore(location);
  } catch (error) {
    if (error instanceof StoreOpenError) throw new CliConfigError(error.message);
    throw error;
  }
}

/**
 * The currency the service recorded for an order (its latest verified result), read where a store
 * already exists (`pg-checkout serve` beside it); undefined when there is none, it holds nothing of
 * the order, or it cannot be read: the gateway's own check (00013) still stands behind it.
 */
export async function recordedCurrency(io: Io, reference: string): Promise<string | undefined> {
  const location = storeLocationFromEnv(io.env);
  if (location.databaseUrl === undefined && !existsSync(location.dataDir)) return undefined;
  let store: Store | undefined;
  try {
    store = await openStore(location);
    return (await store.results.latestFor(reference))?.currency;
  } catch {
    return undefined;
  } finally {
    await store?.close();
  }
}

/**
 * A money command moved the payment (`success`) or may have (`unknown`): the payment is watched,
 * so the reconciler (`serve`, or `pg-checkout reconcile`) reports what CHECK_STATUS shows to the
 * shop, as it reports any late outcome (a second partial capture included: its running total is
 * what the shop has not been told). Only where a store already exists: a watch nobody reconciles
 * helps no one. An open authorization or bill watch stays as it is (the store keeps it over a
 * weaker write), and reports the move itself.
 */
export async function watchMoneyCall(
  io: Io,
  reference: string | undefined,
  result: GatewayResult<unknown>,
  currency: string | undefined,
  language: Language,
): Promise<void> {
  if ((result.outcome !== 'unknown' && result.outcome !== 'success') || reference === undefined) return;
  const location = storeLocationFromEnv(io.env);
  if (location.databaseUrl === undefined && !existsSync(location.dataDir)) {
    if (result.outcome === 'unknown') io.stderr.write(`  not watched: no store at ${location.dataDir} (PG_DATA_DIR); check it later with pg-checkout status\n`);
    return;
  }
  let interval = 60;
  try {
    interval = backOfficeConfigFromEnv(io.env).reconcileIntervalSeconds;
  } catch {
    // The client was built from the same variables; a default schedule is fine here.
  }
  let store: Store | undefined;
  try {
    store = await openStore(location);
    const before: OrderState = result.order?.state ?? 'unknown';
    const watch = moneyCallWatch(
      { merchant_reference: reference, language, ...(result.order?.svc_id ? { svc_id: result.order.svc_id } : {}), ...(currency ? { currency } : {}) },
      before,
      Date.now(),
      { ...DEFAULT_WATCH_SETTINGS, intervalSeconds: interval },
    );
    await store.watches.watch(watch, new Date());
    io.stderr.write('  watched: the reconciler reports the order’s new state to the shop once CHECK_STATUS shows it\n');
  } catch (error) {
    io.stderr.write(`  not watched: ${(error as Error).message.split('\n')[0]}\n`);
  } finally {
    await store?.close();
  }
}
