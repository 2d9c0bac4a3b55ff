/**
 * A Lit reactive controller around {@link EndpointClient}: it fires the request lifecycle events,
 * tracks which routes are pending (the host re-renders when that changes) and aborts every request
 * in flight when the host leaves the page.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { EndpointCall } from '../../core/endpoint-results.ts';
import { EndpointClient, EndpointRequestError, type ClientRoute, type EndpointClientOptions } from './endpoint-client.ts';
import {
  PgRequestCompleteEvent,
  PgRequestErrorEvent,
  PgRequestStartEvent,
  PgRequestSuccessEvent,
} from './events.ts';

/** What a host needs: an endpoint URL and a place to fire events. */
export interface EndpointHost extends ReactiveControllerHost, EventTarget {
  readonly endpoint: string;
  /** The shop's token for this order and customer, if it gave one (`order-token`). */
  readonly orderToken?: string;
}

/** The outcome of {@link EndpointController.request}; it never rejects. */
export type RequestOutcome<T> =
  | { readonly status: 'success'; readonly value: T }
  | { readonly status: 'error'; readonly error: EndpointRequestError; readonly message: string }
  /** A `pg-request-start` listener called `preventDefault()`; nothing was sent. */
  | { readonly status: 'cancelled' }
  /** The host left the page (or `abortAll()` was called) before the answer arrived. */
  | { readonly status: 'aborted' };

export interface EndpointControllerOptions extends EndpointClientOptions {
  /** The localized text for a failure, shown by the host and carried by `pg-request-error`. */
  readonly describeError: (error: EndpointRequestError) => string;
}

/** How long a customer's action may wait on the endpoint before the element says it is processing. */
export const SLOW_AFTER_MS = 300;

/** Routes that read (the order, the plans, a bill's status): each has its own loading text. */
const READS: readonly ClientRoute[] = ['order', 'installmentPlans', 'status'];

export class EndpointController implements ReactiveController {
  readonly #host: EndpointHost;
  readonly #options: EndpointControllerOptions;
  readonly #inFlight = new Map<AbortController, ClientRoute>();
  /** Actions in flight for longer than {@link SLOW_AFTER_MS}. */
  readonly #slow = new Set<AbortController>();
  #client: EndpointClient | undefined;

  constructor(host: EndpointHost, options: EndpointControllerOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** True while any request is in flight. */
  get pending(): boolean {
    return this.#inFlight.size > 0;
  }

  /** True once a customer's action (not a read) has waited {@link SLOW_AFTER_MS} on the endpoint, until it ends. */
  get slow(): boolean {
    return this.#slow.size > 0;
  }

  /** True while a request to `route` is in flight. */
  isPending(route: ClientRoute): boolean {
    for (const pendingRoute of this.#inFlight.values()) if (pendingRoute === route) return true;
    return false;
  }

  /** The client for the host's current endpoint URL and order token (rebuilt when either changes). */
  get client(): EndpointClient {
    const endpoint = this.#host.endpoint.replace(/\/+$/, '');
    const orderToken = this.#host.orderToken ?? '';
    if (this.#client?.endpoint !== endpoint || this.#client.orderToken !== orderToken) {
      this.#client = new EndpointClient(endpoint, { ...this.#options, orderToken });
    }
    return this.#client;
  }

  /**
   * Fires `pg-request-start` (synchronously, before this returns its promise), sends the request
   * unless a listener cancelled it, then fires success or error, and complete last.
   */
  async request<Body, Result>(call: EndpointCall<ClientRoute, Body, Result>, body: Body): Promise<RequestOutcome<Result>> {
    const route = call.name;
    const fire = (event: Event): boolean => this.#host.dispatchEvent(event);
    if (!fire(new PgRequestStartEvent(route))) return { status: 'cancelled' };
    const abort = new AbortController();
    this.#inFlight.set(abort, route);
    this.#host.requestUpdate();
    const timer = READS.includes(route)
      ? undefined
      : setTimeout(() => {
          this.#slow.add(abort);
          this.#host.requestUpdate();
        }, SLOW_AFTER_MS);
    try {
      const value = await this.client.request(call, body, abort.signal);
      fire(new PgRequestSuccessEvent(route));
      fire(new PgRequestCompleteEvent(route, 'success'));
      return { status: 'success', value };
    } catch (thrown) {
      if (abort.signal.aborted) {
        fire(new PgRequestCompleteEvent(route, 'aborted'));
        return { status: 'aborted' };
      }
      const error =
        thrown instanceof EndpointRequestError
          ? thrown
          : new EndpointRequestError(route, 'invalid_response', 'unexpected failure while reading the answer');
      const message = this.#options.describeError(error);
      fire(new PgRequestErrorEvent(route, error.kind, error.code, message));
      fire(new PgRequestCompleteEvent(route, 'error'));
      return { status: 'error', error, message };
    } finally {
      clearTimeout(timer);
      this.#slow.delete(abort);
      this.#inFlight.delete(abort);
      this.#host.requestUpdate();
    }
  }

  /** Aborts every request in flight; their outcomes are `aborted`. */
  abortAll(): void {
    for (const abort of this.#inFlight.keys()) abort.abort();
  }

  hostDisconnected(): void {
    this.abortAll();
  }
}
