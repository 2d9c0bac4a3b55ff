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
    super(type, { bubbles: true, composed: true, ...init });
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
    /** `hosted-page` (top level), `merchant-page` (card fields, posted into a hidden frame by pg-checkout), `embedded` (the gateway's page in a frame). */
    readonly flow: 'hosted-page' | 'merchant-page' | 'embedded',
    readonly action: string,
  ) {
    super(PgPaymentSubmitEvent.eventName);
  }
}

/** How a payment ended, as `pg-payment-result` reports it. */
export type PaymentResultOutcome =
  /** Paid (money held or captured), or the card saved. */
  | 'success'
  /** The gateway has not finished: a check or a confirmation is still waiting. */
  | 'pending'
  /** Declined, refused, not confirmed as paid, or the card not saved. */
  | 'failure'
  /** The customer closed the 3-D Secure dialog: the payment was not completed. */
  | 'cancelled';

/** What a shown outcome says; the element's own copy of the endpoint's framed message. */
export interface PaymentResultDetails {
  /** `pay`, or `save-card` (a card saved without paying). */
  readonly intent: 'pay' | 'save-card';
  readonly outcome: PaymentResultOutcome;
  readonly merchantReference: string;
  /** Where the order stands at the gateway (`captured`, `authorized`, `failed`, …), when the endpoint said. */
  readonly orderState?: string | undefined;
  /** The text shown: the gateway's message or the endpoint's reason, localized. */
  readonly message: string;
  /** The gateway's five-digit code of the last operation, when there is one. */
  readonly responseCode?: string | undefined;
  /** The endpoint's reason when it did not confirm the payment (an `EndpointErrorCode`). */
  readonly error?: string | undefined;
  /** The plan of an installments payment. */
  readonly installments?: { readonly months: number; readonly planCode?: string | undefined; readonly issuerCode?: string | undefined } | undefined;
  /** A saved card as the customer knows it: brand and last four digits (never the token). */
  readonly card?: { readonly brand?: string | undefined; readonly lastFour?: string | undefined } | undefined;
  /** The merchant's result page for the order, when the endpoint has one. */
  readonly resultUrl?: string | undefined;
}

/**
 * A payment (or a card saving) that ran inside the element ended, and its outcome is shown in
 * place: the endpoint verified and confirmed it, or the customer cancelled the card check.
 * No card number, token, signature or gateway field beyond these.
 */
export class PgPaymentResultEvent extends PgEvent implements PaymentResultDetails {
  static readonly eventName = 'pg-payment-result';
  readonly intent: PaymentResultDetails['intent'];
  readonly outcome: PaymentResultOutcome;
  readonly merchantReference: string;
  readonly orderState: string | undefined;
  readonly message: string;
  readonly responseCode: string | undefined;
  readonly error: string | undefined;
  readonly installments: PaymentResultDetails['installments'];
  readonly card: PaymentResultDetails['card'];
  readonly resultUrl: string | undefined;

  constructor(details: PaymentResultDetails) {
    super(PgPaymentResultEvent.eventName);
    this.intent = details.intent;
    this.outcome = details.outcome;
    this.merchantReference = details.merchantReference;
    this.orderState = details.orderState;
    this.message = details.message;
    this.responseCode = details.responseCode;
    this.error = details.error;
    this.installments = details.installments;
    this.card = details.card;
    this.resultUrl = details.resultUrl;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-payment-result': PgPaymentResultEvent;
    'pg-request-start': PgRequestStartEvent;
    'pg-request-success': PgRequestSuccessEvent;
    'pg-request-error': PgRequestErrorEvent;
    'pg-request-complete': PgRequestCompleteEvent;
    'pg-payment-submit': PgPaymentSubmitEvent;
  }
}
