/**
 * What a JSON route of the endpoint is: the contract's request and result schemas, the commands it
 * may carry, and a handler that runs only after the request has passed every policy check and
 * the order has been resolved.
 */
import type { Shape } from '../core/shape.ts';
import type * as z from 'zod/mini';
import type { Language } from '../core/language.ts';
import type { EndpointSettings } from './config.ts';
import type { FlowSealer, Sealer } from './flow-token.ts';
import type { EndpointGateway } from './gateway-client.ts';
import type { RequestContext } from './http.ts';
import type { Logger } from '../log/logger.ts';
import type { MerchantOrder } from './orders.ts';

/**
 * The embedded page's card, taken and not yet charged (gateway-return.ts): the verified
 * TOKENIZATION's fields the completion reads (its token among them) and the order's amount and
 * currency when the element was told. Sealed for the element's Pay button; the browser cannot read it.
 */
export interface ReadyCard {
  readonly fields: Readonly<Record<string, string>>;
  readonly amount: number;
  readonly currency: string;
}

/** How long the embedded page's ready card may be confirmed: five minutes. */
export const READY_CARD_SECONDS = 300;

/** What every route shares: settings, logs, the gateway, the flow-token sealer and the ready-card sealer. */
export interface EndpointRuntime {
  readonly settings: EndpointSettings;
  readonly log: Logger;
  readonly gateway: EndpointGateway;
  readonly flows: FlowSealer;
  readonly readyCards: Sealer<ReadyCard>;
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
  /** The contract's result shape (endpoint-results.ts); every answer is read with it on the way out. */
  readonly result: Shape<unknown>;
  /** Values of `command` this route accepts; any other command is refused as `command_refused`. */
  readonly commands?: readonly string[];
  handle(call: RouteCall<Input>): Promise<unknown>;
}

/** Erases a route's input type so routes of different inputs share one table. */
export function defineRoute<Input>(route: JsonRoute<Input>): JsonRoute<unknown> {
  return route as unknown as JsonRoute<unknown>;
}
