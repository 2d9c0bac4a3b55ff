/**
 * Events of `<pg-financing-otp>`; the request lifecycle events come from the shared foundation.
 * No payload carries the one-time password or the phone number.
 */
import type { PaymentResult } from '../../core/endpoint-results.ts';
import { PgEvent } from '../shared/events.ts';
import type { FinancingStep } from './flow-state.ts';

/** A financing step succeeded and the customer moved on to `step`. */
export class PgFinancingStepEvent extends PgEvent {
  static readonly eventName = 'pg-financing-step';
  constructor(readonly step: FinancingStep) {
    super(PgFinancingStepEvent.eventName);
  }
}

/** PURCHASE answered: the financing is complete (`success`) or still being processed (`pending`). */
export class PgFinancingCompleteEvent extends PgEvent {
  static readonly eventName = 'pg-financing-complete';
  readonly outcome: 'success' | 'pending';
  readonly merchantReference: string;
  /** The gateway's reference of the order, when it gave one. */
  readonly svcId: string | undefined;
  /** The tenure chosen, in months. */
  readonly tenure: number;

  constructor(result: PaymentResult & { outcome: 'success' | 'pending' }, tenure: number) {
    super(PgFinancingCompleteEvent.eventName);
    this.outcome = result.outcome;
    this.merchantReference = result.merchant_reference;
    this.svcId = result.svc_id;
    this.tenure = tenure;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-financing-step': PgFinancingStepEvent;
    'pg-financing-complete': PgFinancingCompleteEvent;
  }
}
