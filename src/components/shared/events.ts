/**
 * The request lifecycle every element fires around each call to the merchant endpoint, after
 * github/auto-check-element: `pg-request-start` (cancelable), then `pg-request-success` or
 * `pg-request-error`, then `pg-request-complete`, always last. All bubble and are composed, so a
 * listener on `document` hears the elements nested inside `<pg-checkout>` too.
 *
 * Payloads name the route and the outcome only: never a card number, CVV, OTP, phrase, signature
 * or the signed fields of a form post.
 */
import type { ClientRoute } from './endpoint-client.ts';

/** How a request ended, for `pg-request-complete`. */
export type RequestCompletion = 'success' | 'error' | 'aborted';

/** Why a request failed, as `pg-request-error` reports it. */
export type RequestErrorKind = 'network' | 'unavailable' | 'refused' | 'invalid_response' | 'invalid_request';

/** Base of the pg- events: bubbling and composed, so they leave every shadow root. */
export abstract class PgEvent extends Event {
  constructor(type: string, init: { cancelable?: boolean } = {}) {
    super(type, { bubbles: true, composed: true, cancelable: init.cancelable ?? false });
  }
}

/** Fired before every request to the merchant endpoint. Call `preventDefault()` to stop it. */
export class PgRequestStartEvent extends PgEvent {
  static readonly eventName = 'pg-request-start';
  constructor(readonly route: ClientRoute) {
    super(PgRequestStartEvent.eventName, { cancelable: true });
  }
}

/** Fired when the endpoint answered and the answer passed its schema. */
export class PgRequestSuccessEvent extends PgEvent {
  static readonly eventName = 'pg-request-success';
  constructor(readonly route: ClientRoute) {
    super(PgRequestSuccessEvent.eventName);
  }
}

/** Fired when a request failed; `message` is the localized text the element shows. */
export class PgRequestErrorEvent extends PgEvent {
  static readonly eventName = 'pg-request-error';
  constructor(
    readonly route: ClientRoute,
    readonly kind: RequestErrorKind,
    /** The endpoint's stable error code (see `EndpointErrorCode`), when it gave one. */
    readonly code: string | undefined,
    readonly message: string,
  ) {
    super(PgRequestErrorEvent.eventName);
  }
}

/** Fired last for every request that started, whatever its outcome. */
export class PgRequestCompleteEvent extends PgEvent {
  static readonly eventName = 'pg-request-complete';
  constructor(
    readonly route: ClientRoute,
    readonly outcome: RequestCompletion,
  ) {
    super(PgRequestCompleteEvent.eventName);
  }
}

/**
 * Fired just before the browser posts a form to the gateway (hosted page or merchant page 2.0).
 * Carries the flow and the gateway address only, never the fields.
 */
export class PgPaymentSubmitEvent extends PgEvent {
  static readonly eventName = 'pg-payment-submit';
  constructor(
    readonly flow: 'hosted-page' | 'merchant-page',
    readonly action: string,
  ) {
    super(PgPaymentSubmitEvent.eventName);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-request-start': PgRequestStartEvent;
    'pg-request-success': PgRequestSuccessEvent;
    'pg-request-error': PgRequestErrorEvent;
    'pg-request-complete': PgRequestCompleteEvent;
    'pg-payment-submit': PgPaymentSubmitEvent;
  }
}
