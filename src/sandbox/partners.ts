/**
 * The payment partners of the sandbox gateway. The spec names the cash-voucher and the
 * consumer-financing partners only by role and leaves their codes open; these are the sandbox's
 * own codes, sent as `payment_partner` (BILL_PRESENTMENT) and `payment_option` (financing). A live
 * account's codes come from the gateway: the merchant endpoint takes them as configuration
 * (`voucherPartnerCode`, `financingPartnerCode`), and `endpointCredentials()` hands it these.
 */

/** `payment_partner` of a sandbox BILL_PRESENTMENT (max 5 characters). */
export const SANDBOX_VOUCHER_PARTNER_CODE = 'CASHP';

/** `payment_option` of the sandbox financing steps. */
export const SANDBOX_FINANCING_PARTNER_CODE = 'FINCO';
