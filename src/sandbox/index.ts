/**
 * `pg-checkout/sandbox`: the spec's gateway, implemented locally for demos and tests. A
 * Web-standard handler (`Request` → `Response`) with in-memory state (kept across restarts through
 * an injected `SandboxPersistence`), documented test cards, a fixed financing OTP and an injectable
 * clock. Runs in Node and in browsers; the msw handlers are in `pg-checkout/sandbox/msw`
 * (src/sandbox/msw.ts) so that msw is only loaded by those who use it.
 */
export {
  createSandboxGateway,
  type SandboxGateway,
  type SandboxGatewayOptions,
  type SandboxTokenView,
} from './gateway.ts';
export type { GatewayPaths } from './context.ts';
export { BATCH_PROCESSING_MS, BATCH_VALIDATION_MS } from './batch.ts';
export { createSandboxClock, MAX_CLOCK_ADVANCE_SECONDS, type SandboxClock } from './clock.ts';
export { FAULT_STATUSES, MAX_FAULT_COUNT, MAX_RETRY_AFTER_SECONDS, type FaultStatus, type SandboxFaults } from './faults.ts';
export { SNAPSHOT_VERSION, type SandboxPersistence, type SandboxSnapshot } from './snapshot.ts';
export {
  endpointCredentials,
  hasService,
  SANDBOX_MERCHANT,
  SANDBOX_MERCHANT_BASIC,
  SANDBOX_MERCHANTS,
  SANDBOX_SERVICES,
  type SandboxMerchant,
  type SandboxService,
} from './merchants.ts';
export { SANDBOX_FINANCING_PARTNER_CODE, SANDBOX_VOUCHER_PARTNER_CODE } from './partners.ts';
export {
  AUTHORIZATION_HOLD_MS,
  FINANCING_DOWN_PAYMENT_PERCENT,
  FINANCING_TENURES,
  MAX_OTP_ATTEMPTS,
  PAGE_SESSION_MS,
  REGISTERED_FINANCING_PHONE,
  SANDBOX_OTP,
  TEST_CARDS,
  testCard,
  UNREGISTERED_FINANCING_PHONE,
  type CardBrand,
  type CardOutcome,
  type TestCard,
} from './test-cards.ts';
export { INSTALLMENT_ISSUERS } from './installment-issuers.ts';
export type { OrderState, SandboxOrder, OrderOperation, SuccessCodes, Transition } from './orders.ts';
export { MAINTENANCE_SUCCESS_CODES } from './orders.ts';
