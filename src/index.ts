/**
 * `pg-checkout`: the element classes and their event and helper types, without side effects.
 * Import `pg-checkout/define` to register the tags, or register them yourself with
 * `defineElement` under names of your choice.
 */
export {
  PgCheckout,
  PAYMENT_METHODS,
  type CardMode,
  type CheckoutIntent,
  type CheckoutMode,
} from './components/pg-checkout/pg-checkout.ts';
export { PgMethodChangeEvent, type PaymentMethod } from './components/pg-checkout/events.ts';
export {
  PgInstallments,
  type InstallmentSelection,
  type InstallmentsCompletion,
} from './components/pg-installments/pg-installments.ts';
export { PgPayInFullEvent, PgPlansLoadEvent, type PayInFullReason } from './components/pg-installments/events.ts';
export { PgBillVoucher } from './components/pg-bill-voucher/pg-bill-voucher.ts';
export {
  PgBillCopyEvent,
  PgBillExpireEvent,
  PgBillIssueEvent,
  PgBillPaidEvent,
  PgBillReissueEvent,
  type IssuedBill,
} from './components/pg-bill-voucher/events.ts';
export { PgFinancingOtp } from './components/pg-financing-otp/pg-financing-otp.ts';
export { PgFinancingCompleteEvent, PgFinancingStepEvent } from './components/pg-financing-otp/events.ts';
export type { FinancingStep } from './components/pg-financing-otp/flow-state.ts';
export {
  PgEvent,
  PgPaymentResultEvent,
  PgPaymentSubmitEvent,
  PgRequestCompleteEvent,
  PgRequestErrorEvent,
  PgRequestStartEvent,
  PgRequestSuccessEvent,
  type PaymentResultDetails,
  type PaymentResultOutcome,
  type RequestCompletion,
  type RequestErrorKind,
} from './components/shared/events.ts';
export { PgElement } from './components/shared/pg-element.ts';
export { EndpointClient, EndpointRequestError, type ClientRoute } from './components/shared/endpoint-client.ts';
export { defineElement, type DefineOutcome } from './components/shared/define.ts';
// Types only: what each element accepts and fires, for framework typings (pg-checkout/react, pg-checkout/vue).
export type {
  PgBillVoucherAttributes,
  PgBillVoucherEventMap,
  PgBillVoucherProperties,
  PgCheckoutAttributes,
  PgCheckoutEventMap,
  PgCheckoutProperties,
  PgElementTyping,
  PgElementTypings,
  PgFinancingOtpAttributes,
  PgFinancingOtpEventMap,
  PgFinancingOtpProperties,
  PgInstallmentsAttributes,
  PgInstallmentsEventMap,
  PgInstallmentsProperties,
  PgRequestEventMap,
} from './frameworks/elements.ts';
