/**
 * What a JSON route of the endpoint is: the contract's request and result schemas, the commands it
 * may carry, and a handler that runs only after the request has passed every policy check and
 * the order has been resolved.
 */
import type * as z from 'zod/mini';
import type { Language } from '../core/language.ts';
import type { EndpointSettings } from './config.ts';
import type { FlowSealer } from './flow-token.ts';
import type { EndpointGateway } from './gateway-client.ts';
import type { RequestContext } from './http.ts';
import type { Logger } from '../log/logger.ts';
import type { MerchantOrder } from './orders.ts';

/** What every route shares: settings, logs, the gateway and the flow-token sealer. */
export interface EndpointRuntime {
  readonly settings: EndpointSettings;
  readonly log: Logger;
  readonly gateway: EndpointGateway;
  readonly flows: FlowSealer;
}

export interface RouteCall<Input> {
  readonly input: Input;
  /** The merchant's order named by `input.merchant_reference`; amount and currency come from here. */
  readonly order: MerchantOrder;
  readonly language: Language;
  readonly request: Request;
  readonly context: RequestContext;
  readonly runtime: EndpointRuntime;
}

export interface JsonRoute<Input> {
  /** The contract's request schema (endpoint-api.ts). */
  readonly schema: z.ZodMiniType<Input>;
  /** The contract's result schema; every answer is checked against it on the way out. */
  readonly result: z.ZodMiniType;
  /** Values of `command` this route accepts; any other command is refused as `command_refused`. */
  readonly commands?: readonly string[];
  handle(call: RouteCall<Input>): Promise<unknown>;
}

/** Erases a route's input type so routes of different inputs share one table. */
export function defineRoute<Input>(route: JsonRoute<Input>): JsonRoute<unknown> {
  return route as unknown as JsonRoute<unknown>;
}
