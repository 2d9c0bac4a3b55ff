/**
 * `pg-checkout/gateway`: the merchant's server-side client of the gateway (also exported from
 * `pg-checkout/server`). For the merchant's server, jobs and terminals only: it holds the access
 * code and both SHA phrases. See docs/back-office.md.
 */
export { createGatewayClient, type GatewayClient } from './client.ts';
export {
  ConfigError,
  DEFAULT_DEADLINE_MS,
  DEFAULT_RECONCILE,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type ConfigProblem,
  type GatewayClientConfig,
  type GatewayConnection,
  type ReconcilePolicy,
  type RetryPolicy,
} from './settings.ts';
export type { GatewayOutcome, GatewayResult } from './results.ts';
export { clientMessage, type ClientCode, type MessageDetail } from './messages.ts';
export {
  describeFailure,
  GatewayRequestError,
  GatewayUnavailableError,
  isRetryable,
  mayHaveArrived,
  parseRetryAfter,
  type FailureKind,
} from './transport.ts';
export type { CallRequest, FilePart, OperationSpec, VerifiedAnswer } from './call.ts';
export type { ClientInput, WithAmount } from './inputs.ts';
export { CAPTURE, REFUND, VOID_AUTHORIZATION, type CaptureInput, type CheckStatusInput, type RefundInput, type StatusResult, type VoidInput } from './orders.ts';
export { CHECK_STATUS, type OrderQuery } from './reconcile.ts';
export {
  GET_TOKENS,
  RECURRING_PURCHASE,
  TOKENIZATION,
  TRUSTED_CHANNEL,
  UPDATE_TOKEN,
  type CreateTokenInput,
  type ListTokensInput,
  type MpiInput,
  type RecurringInput,
  type TrustedInput,
  type UpdateTokenInput,
} from './charges.ts';
export {
  externalMpiResult,
  THREE_DS_AUTHENTICATION,
  THREE_DS_ENROLLMENT,
  type ExternalMpiResult,
  type ThreeDsAuthenticationInput,
  type ThreeDsEnrollmentInput,
} from './three-ds.ts';
export {
  DOWNLOAD_REPORT,
  GENERATE_REPORT,
  type DownloadProgress,
  type DownloadReportInput,
  type GenerateReportInput,
  type ReportFile,
  type ReportSink,
} from './reports.ts';
export {
  batchFileForWire,
  batchRowsOf,
  GET_BATCH_RESULTS,
  PROCESS_BATCH,
  UPLOAD_BATCH_FILE,
  type BatchHandle,
  type BatchResults,
  type UploadBatchInput,
  type WaitForBatchInput,
} from './batch.ts';
export {
  BILL_PRESENTMENT,
  CURRENCY_CONVERSION,
  CUSTOMER_VERIFY,
  FINANCING_PURCHASE,
  GET_INSTALLMENTS_PLANS,
  OTP_GENERATE,
  OTP_VERIFY,
  type BillInput,
  type CurrencyExchangeInput,
  type CustomerVerifyInput,
  type FinancingPurchaseInput,
  type InstallmentPlansInput,
  type OtpGenerateInput,
  type OtpVerifyInput,
} from './services.ts';
export { buildBatchFile, validateBatchFile, type BatchLine } from '../core/batch-file.ts';
export type { OrderState, OrderStatus } from '../core/order-status.ts';
export type { OperationOutcome } from '../core/response.ts';
export type { GatewayReferenceField } from '../core/wire-names.ts';
