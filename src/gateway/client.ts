/**
 * `createGatewayClient`: the merchant's server-side client of the gateway, one typed method per
 * operation of the specification. Every call is checked, signed, sent with a time limit, and its
 * answer verified and parsed before it is returned with its outcome (call.ts); calls that move
 * money are never sent twice (reconcile.ts). The merchant endpoint makes its own server-to-server
 * calls through the same client.
 */
import type { Language } from '../core/language.ts';
import { redactingLogger } from '../log/logger.ts';
import { batchOperations } from './batch.ts';
import { call, type CallContext, type CallRequest, type OperationSpec, type VerifiedAnswer } from './call.ts';
import { chargeOperations } from './charges.ts';
import { orderOperations } from './orders.ts';
import { reportOperations } from './reports.ts';
import { serviceOperations } from './services.ts';
import { resolveGatewaySettings, type GatewayClientConfig } from './settings.ts';
import { threeDsOperations } from './three-ds.ts';

/** Builds the client; throws ConfigError naming every bad setting (never a value). */
export function createGatewayClient(config: GatewayClientConfig) {
  const settings = resolveGatewaySettings(config);
  const ctx: CallContext = { settings, log: redactingLogger(settings.logger) };
  return {
    /** `sandbox` when `batchSandboxUrl` is set (PROCESS_BATCH goes there), else `live`. */
    environment: settings.environment,
    /** The client's default language of messages and field errors. */
    language: settings.language as Language,
    ...orderOperations(ctx),
    ...chargeOperations(ctx),
    ...threeDsOperations(ctx),
    ...reportOperations(ctx),
    ...batchOperations(ctx),
    ...serviceOperations(ctx),
    /**
     * Any operation by its spec (the request and answer schemas of `pg-checkout/core`), sent once
     * (or retried, for a read with `retry: true`), the answer verified and parsed. Throws
     * GatewayRequestError or GatewayUnavailableError; judging the answer is the caller's.
     */
    call: <Answer>(operation: OperationSpec<Answer>, request: CallRequest): Promise<VerifiedAnswer<Answer>> => call(ctx, operation, request),
  };
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;
