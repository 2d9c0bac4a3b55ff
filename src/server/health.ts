/**
 * `GET {base}/health`: whether this instance can work, for a load balancer's checks. The status
 * follows the store (503 while it cannot be used: the instance can record nothing; that includes a
 * store that still reads but whose last write failed, a full disk say, until a write succeeds
 * again, which the background loops' own writes find within seconds); the body also
 * says whether the gateway answers, asked at most once every 30 seconds with a CHECK_STATUS of a
 * reference no order uses (any verified answer, "not found" included, means it answers; a refusal
 * of this service's own settings, a wrong request phrase say, is `misconfigured`, with a hint). A
 * gateway outage does not take the instance out of the balancer: every instance shares it.
 *
 * For monitoring, the body also counts what the store holds for the shop: results not yet
 * acknowledged (the failing ones, and when the oldest was recorded: a shop that has stopped taking
 * its webhook shows here long before anyone reads the log) and the payments still watched. Those
 * counts are the shop's business, not its customers': they are shown only to a request bearing the
 * configured token (`Authorization: Bearer …`), and to nobody when no token is set.
 *
 * The route answers anyone who can reach the endpoint (the customers' browsers can), so a store
 * failure is named by its kind (`connection`, `disk_full`, `busy`, `read_only`, `failed`), as a
 * gateway failure is; its message, which may name the database's host, goes to the log, once per
 * outage (`health_store_unavailable`, then `health_store_recovered`): a load balancer asks every
 * second or so, and each answer already says it.
 *
 * A store whose database keeps its own clock (PostgreSQL) says how far this instance's clock is from
 * it; beyond CLOCK_SKEW_LIMIT_MS the body shows it (`store.clock_skew_ms`) and the store has logged
 * `clock_skew`. The status stays 200: the store works, and if the database's clock were the one
 * off, every instance would otherwise leave the balancer at once.
 */
import type { GatewayClient } from '../gateway/client.ts';
import { constantTimeEqualHex, fileDigest } from '../core/signature.ts';
import { refusalHint } from '../gateway/messages.ts';
import { CHECK_STATUS } from '../gateway/reconcile.ts';
import { GatewayUnavailableError } from '../gateway/transport.ts';
import type { Logger } from '../log/logger.ts';
import type { StoreHealth } from '../store/monitored.ts';
import { CLOCK_SKEW_LIMIT_MS, StoreUnavailableError, type ResultStore, type Store, type WatchStore } from '../store/store.ts';
import { jsonResponse } from './http.ts';
import { SERVICE_ROUTES } from './shop-protocol.ts';

export interface HealthOptions {
  readonly store: Pick<Store, 'ping' | 'engine'> & {
    readonly results: Pick<ResultStore, 'backlog'>;
    readonly watches: Pick<WatchStore, 'countActive'>;
    /** A monitored store's word on its writes (monitored.ts): a ping only reads. */
    readonly health?: StoreHealth;
  };
  readonly gateway: Pick<GatewayClient, 'call'>;
  readonly basePath: string;
  readonly now: () => Date;
  /** Where a store failure's message goes (`health_store_unavailable`, error, once per outage). */
  readonly log?: Logger;
  /** The bearer token that shows the store's counts (`PG_HEALTH_TOKEN`); without one they are never shown. */
  readonly token?: string | undefined;
}

/** The reference the gateway is asked about: valid, and never an order's. */
export const HEALTH_CHECK_REFERENCE = 'pg-checkout-health-check';
const GATEWAY_CHECK_MS = 30_000;

interface GatewayHealth {
  /** `misconfigured`: the gateway answers but refuses this service's settings (core `isConfigurationRefusal`). */
  readonly status: 'ok' | 'unreachable' | 'misconfigured';
  readonly reason?: string;
  /** Which settings to check, by name (`misconfigured` only). */
  readonly hint?: string;
  readonly checked_at: string;
}

export function createHealthRoute(options: HealthOptions): (request: Request) => Promise<Response | undefined> {
  const path = `${options.basePath}${SERVICE_ROUTES.health}`;
  let gateway: { health: Promise<GatewayHealth>; at: number } | undefined;
  /** When the store stopped answering these checks; undefined while it answers. */
  let storeDownSince: number | undefined;

  const askGateway = async (): Promise<GatewayHealth> => {
    const checkedAt = options.now().toISOString();
    try {
      const { fields } = await options.gateway.call(CHECK_STATUS, {
        language: 'en',
        retry: false,
        params: { query_command: 'CHECK_STATUS', merchant_reference: HEALTH_CHECK_REFERENCE, language: 'en' },
      });
      // It answers, but refuses this service's settings: every payment would be refused alike.
      const hint = refusalHint(fields);
      if (hint !== undefined) return { status: 'misconfigured', reason: String(fields['response_code']), hint, checked_at: checkedAt };
      return { status: 'ok', checked_at: checkedAt };
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      return { status: 'unreachable', reason: error.httpStatus ? `${error.kind} ${error.httpStatus}` : error.kind, checked_at: checkedAt };
    }
  };

  const gatewayHealth = (): Promise<GatewayHealth> => {
    const now = options.now().getTime();
    if (!gateway || now - gateway.at >= GATEWAY_CHECK_MS) gateway = { health: askGateway(), at: now };
    return gateway.health;
  };

  // Compared as digests, in constant time: the answer's timing says nothing of the token.
  const tokenDigest = options.token === undefined ? undefined : fileDigest(options.token, 'sha256');
  const mayCount = async (request: Request): Promise<boolean> => {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (tokenDigest === undefined || bearer === undefined) return false;
    return constantTimeEqualHex(await fileDigest(bearer, 'sha256'), await tokenDigest);
  };

  return async (request) => {
    if (new URL(request.url).pathname !== path) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return jsonResponse(405, { error: { code: 'method_not_allowed', message: 'GET only' } }, { allow: 'GET, HEAD' });
    }
    let store: { status: 'ok' | 'unavailable'; reason?: string; clock_skew_ms?: number };
    let held = {};
    try {
      const { clockSkewMs } = await options.store.ping();
      // The ping reads; on a full disk or a read-only file reads work while nothing can be recorded.
      const writes = options.store.health;
      if (writes?.available === false && writes.write === true) {
        throw new StoreUnavailableError(writes.reason ?? 'failed', `the store's last write failed (${writes.reason ?? 'failed'}) and none has succeeded since`);
      }
      store = {
        status: 'ok',
        ...(clockSkewMs !== undefined && Math.abs(clockSkewMs) > CLOCK_SKEW_LIMIT_MS ? { clock_skew_ms: Math.round(clockSkewMs) } : {}),
      };
      if (await mayCount(request)) {
        const [backlog, active] = await Promise.all([options.store.results.backlog(), options.store.watches.countActive()]);
        held = { results: backlog, watches: { active } };
      }
      if (storeDownSince !== undefined) {
        options.log?.info('health_store_recovered', { down_seconds: Math.round((options.now().getTime() - storeDownSince) / 1000) });
        storeDownSince = undefined;
      }
    } catch (error) {
      const reason = error instanceof StoreUnavailableError ? error.reason : 'failed';
      if (storeDownSince === undefined) {
        storeDownSince = options.now().getTime();
        options.log?.error('health_store_unavailable', { reason, message: error instanceof Error ? error.message.split('\n')[0] : String(error) });
      }
      store = { status: 'unavailable', reason };
    }
    const health = {
      status: store.status === 'ok' ? 'ok' : 'unavailable',
      store: { engine: options.store.engine, ...store },
      gateway: await gatewayHealth(),
      ...held,
    };
    return jsonResponse(store.status === 'ok' ? 200 : 503, health, { 'cache-control': 'no-store' });
  };
}
