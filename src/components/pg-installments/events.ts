/** Events of `<pg-installments>`; the request lifecycle events come from the shared foundation. */
import { PgEvent } from '../shared/events.ts';

/** Why the customer is offered to pay in full. */
export type PayInFullReason = 'failed' | 'no-plans' | 'out-of-range' | 'card-not-eligible';

/** The plans arrived: how many issuers and plans this order may use (0 when none). */
export class PgPlansLoadEvent extends PgEvent {
  static readonly eventName = 'pg-plans-load';
  constructor(
    readonly issuers: number,
    readonly plans: number,
  ) {
    super(PgPlansLoadEvent.eventName);
  }
}

/**
 * The customer chose to pay the full amount instead. Cancelable: a host that completes the
 * payment itself (such as `<pg-checkout>`) cancels it and takes over.
 */
export class PgPayInFullEvent extends PgEvent {
  static readonly eventName = 'pg-pay-in-full';
  constructor(readonly reason: PayInFullReason) {
    super(PgPayInFullEvent.eventName, { cancelable: true });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-plans-load': PgPlansLoadEvent;
    'pg-pay-in-full': PgPayInFullEvent;
  }
}
