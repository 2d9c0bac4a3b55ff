/**
 * The store from the same variables `pg-checkout serve` reads (`PG_DATA_DIR`, `PG_DATABASE_URL`),
 * for the commands that read or add to it beside a running service: `results`, `reconcile`, and the
 * money commands (each move recorded for the shop, or its payment watched). Several processes share the
 * SQLite file safely (WAL; a write waits for another process's lock); a store that cannot be opened is a configuration error.
 */
import { existsSync } from 'node:fs';
import type { Language } from '../core/language.ts';
import { namesNoPaidAmount, type OrderStatus } from '../core/order-status.ts';
import type { StatusResult } from '../gateway/orders.ts';
import type { Judge } from '../gateway/reconcile.ts';
import type { GatewayResult } from '../gateway/results.ts';
import { silentLogger } from '../log/logger.ts';
import { backOfficeConfigFromEnv } from '../server/config.ts';
import { keyedResultOfReading, moveOfReading, type WatchedPayment } from '../server/reconciler.ts';
import { recordAndReport } from '../server/results.ts';
import { DEFAULT_WATCH_SETTINGS, moneyCallWatch } from '../server/watches.ts';
import { openStore, storeLocationFromEnv } from '../store/open.ts';
import { StoreOpenError, type NewWatch, type Store, type WatchVersion } from '../store/store.ts';
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

/** A money command's move, as the shop is to hear of it (`tellShopOfMove`). */
export interface MoneyMove {
  readonly command: 'capture' | 'refund' | 'void';
  readonly reference: string | undefined;
  /** What the gateway client answered for the move. */
  readonly result: GatewayResult<unknown>;
  /** The order as the command read it before the move. */
  readonly before: OrderStatus | undefined;
  /** Whether a reading shows the move: the client's own test for a lost answer (`captureApplied`, …). */
  readonly shows: Judge;
  readonly currency: string | undefined;
  readonly language: Language;
  /** The order read once after the move through the command's client (shared with what the command shows); undefined when it could not be read. */
  readonly readAfter: () => Promise<StatusResult | undefined>;
}

/**
 * A money command moved the payment (`success`) or may have (`unknown`): the shop hears of each move
 * as its own result, a second partial capture or refund included. Where the service's store already
 * exists (a ledger nobody delivers from helps no one), a move the gateway confirmed is read back
 * with CHECK_STATUS and recorded there as the reconciler records a reading (its `moveOfReading` and
 * `keyedResultOfReading`: the same result, under its own `ledgerKeyOf` key, recorded once); the
 * service's webhook sender delivers it, so two moves within one reconcile interval are two results,
 * in order. Before, each move only replaced the payment's watch, and the reconciler reported the
 * latest state once. An answer lost, a reading that fails or does not show the move, or a store that
 * cannot record it, leaves the payment watched instead: the reconciler reports what CHECK_STATUS
 * later shows. An open authorization or bill watch stays as it is (the store keeps it over a weaker
 * write): the reconciler finds a move recorded here under its key and reports nothing twice.
 *
 * The watch the command wrote before sending the call (`watchBeforeMove`) is ended once the move is
 * recorded, or once the gateway refused or declined it (nothing moved); otherwise it stays, and the
 * reconciler settles the move.
 */
export async function tellShopOfMove(io: Io, move: MoneyMove, watchedBefore?: WatchedBeforeMove): Promise<void> {
  const { reference, result } = move;
  if (reference === undefined) return;
  // Nothing moved, or nothing settled yet, and no watch of this command's to end: nothing to write.
  if (result.outcome !== 'unknown' && result.outcome !== 'success' && watchedBefore?.version === undefined) return;
  const location = storeLocationFromEnv(io.env);
  if (location.databaseUrl === undefined && !existsSync(location.dataDir)) {
    if (result.outcome !== 'unknown' && result.outcome !== 'success') return;
    io.stderr.write(
      result.outcome === 'unknown'
        ? `  not watched: no store at ${location.dataDir} (PG_DATA_DIR); check it later with pg-checkout status\n`
        : `  not recorded: no store at ${location.dataDir} (PG_DATA_DIR); the service's webhook does not tell the shop of this move\n`,
    );
    return;
  }
  const watch = moveWatch(io, reference, move.language, move.currency, move.before ?? result.order);
  let store: Store | undefined;
  try {
    store = await openStore(location);
    // Pending: the watch written before the call stays, and the reconciler reports where it ends.
    if (result.outcome === 'pending') return;
    if (result.outcome !== 'unknown' && result.outcome !== 'success') {
      // Refused or declined: nothing moved, so the watch written before the call has nothing to find.
      await endWatchBeforeMove(store, reference, watchedBefore, 'nothing_moved');
      return;
    }
    if (result.outcome === 'success') {
      const recorded = await recordMove(store, watch, move);
      if ('key' in recorded) {
        await endWatchBeforeMove(store, reference, watchedBefore, 'recorded');
        io.stderr.write(`  recorded for the shop: ${recorded.key} (the service's webhook delivers it)\n`);
        return;
      }
      io.stderr.write(`  not recorded: ${recorded.why}\n`);
    }
    await store.watches.watch(watch, new Date());
    io.stderr.write('  watched: the reconciler reports the order’s new state to the shop once CHECK_STATUS shows it\n');
  } catch (error) {
    io.stderr.write(
      watchedBefore
        ? `  not recorded: ${(error as Error).message.split('\n')[0]}; the watch written before the ${move.command} stays, and the reconciler reports it\n`
        : `  not watched: ${(error as Error).message.split('\n')[0]}\n`,
    );
  } finally {
    await store?.close();
  }
}

/** The money-call watch of an order, as the reconciler settles a back-office move (watches.ts `moneyCallWatch`). */
function moveWatch(io: Io, reference: string, language: Language, currency: string | undefined, before: OrderStatus | undefined): NewWatch {
  let interval = 60;
  try {
    interval = backOfficeConfigFromEnv(io.env).reconcileIntervalSeconds;
  } catch {
    // The client was built from the same variables; a default schedule is fine here.
  }
  const svcId = before?.svc_id;
  return moneyCallWatch(
    { merchant_reference: reference, language, ...(svcId ? { svc_id: svcId } : {}), ...(currency ? { currency } : {}) },
    before?.state ?? 'unknown',
    Date.now(),
    { ...DEFAULT_WATCH_SETTINGS, intervalSeconds: interval },
  );
}

/** The watch a money command wrote before sending its call (`watchBeforeMove`), to end once the move is recorded. */
export interface WatchedBeforeMove {
  readonly version: WatchVersion | undefined;
}

/**
 * Before a money command sends a capture, refund or void: the order watched in the service's store,
 * as the service watches a call that may move money before it sends it. The process may be killed,
 * or cut off (a closed pipe, a lost terminal), between the gateway's move and `tellShopOfMove`: the
 * reconciler still finds the move with CHECK_STATUS and reports it to the shop. The watch is first
 * due after the reconcile interval, by when the command has recorded the move itself and ended it.
 * An open authorization watch stays as it is: it already reports a capture or a void.
 *
 * Undefined, and nothing written, where there is no store (no folder at `PG_DATA_DIR`, no
 * `PG_DATABASE_URL`): no service delivers from one. A store that exists but cannot take the watch
 * refuses the move before anything is sent (a configuration error): sent unwatched, a move the
 * command could not record would never reach the shop.
 */
export async function watchBeforeMove(io: Io, reference: string | undefined, language: Language, currency: string | undefined, before: OrderStatus | undefined): Promise<WatchedBeforeMove | undefined> {
  if (reference === undefined) return undefined;
  const location = storeLocationFromEnv(io.env);
  if (location.databaseUrl === undefined && !existsSync(location.dataDir)) return undefined;
  let store: Store | undefined;
  try {
    store = await openStore(location);
    await store.watches.watch(moveWatch(io, reference, language, currency, before), new Date());
    const written = await store.watches.get(reference);
    return { version: written?.kind === 'money_call' && !written.ended_at ? { created_at: written.created_at } : undefined };
  } catch (error) {
    throw new CliConfigError(`the service's store cannot watch order ${reference} (${(error as Error).message.split('\n')[0]}); nothing was sent`);
  } finally {
    await store?.close();
  }
}

async function endWatchBeforeMove(store: Store, reference: string, watched: WatchedBeforeMove | undefined, reason: string): Promise<void> {
  if (watched?.version === undefined) return;
  await store.watches.end(reference, new Date(), reason, watched.version);
}

/**
 * Records the result of the reading after a confirmed move, when the reading shows that move (the
 * client's test, `shows`) and the reconciler would report it (`moveOfReading`); one the ledger holds
 * already (the reconciler, or another operator, was first) is recorded all the same. Else says why
 * not, and the move is watched.
 */
async function recordMove(store: Store, watch: WatchedPayment, move: MoneyMove): Promise<{ readonly key: string } | { readonly why: string }> {
  const after = await move.readAfter();
  // As the reconciler: a refusal (the merchant's settings) or a paid state naming no amount is no answer about the money.
  if (after?.answer === undefined || after.order === undefined || after.outcome !== 'success' || namesNoPaidAmount(after.order)) {
    return { why: `the order could not be read after the ${move.command}` };
  }
  if (move.shows(after.order) !== 'success') return { why: `CHECK_STATUS does not show the ${move.command} yet` };
  const reading = { status: after.order, answer: after.answer };
  try {
    const moved = await moveOfReading(watch, reading, store.results);
    const result = await keyedResultOfReading(watch, reading, store.results, silentLogger);
    if (moved === undefined) {
      const recorded = await store.results.get(result.idempotency_key);
      return recorded ? { key: result.idempotency_key } : { why: `CHECK_STATUS does not show the ${move.command} as a move` };
    }
    // Read as the reconciler reads a move, but made here: the shop is told where it came from.
    const recorded = await recordAndReport({ ...result, source: 'back-office' }, { ledger: store.results, onResult: undefined, log: silentLogger, now: () => new Date() });
    return { key: recorded.result.idempotency_key };
  } catch (error) {
    return { why: (error as Error).message.split('\n')[0] ?? 'the store failed' };
  }
}
