/** Events of `<pg-checkout>`; the request lifecycle and `pg-payment-submit` come from the foundation. */
import { PgEvent } from '../shared/events.ts';

/** The payment methods a drop-in can offer. */
export type PaymentMethod = 'card' | 'installments' | 'voucher' | 'financing';

/** The customer chose another payment method in the drop-in. */
export class PgMethodChangeEvent extends PgEvent {
  static readonly eventName = 'pg-method-change';
  constructor(readonly method: PaymentMethod) {
    super(PgMethodChangeEvent.eventName);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-method-change': PgMethodChangeEvent;
  }
}
