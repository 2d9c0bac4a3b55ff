/**
 * The consumer-financing steps as `<pg-financing-otp>` takes them, through a harness's endpoint:
 * each posts its route for ORDER, checks that it answered 200 and returns the next flow token.
 */
import assert from 'node:assert/strict';
import { financingOtpResult, financingVerifyCustomerResult, financingVerifyOtpResult } from '../../../src/core/endpoint-api.ts';
import { parse } from '../../../src/core/shape.ts';
import { GOOD_OTP } from '../fake-gateway.ts';
import type { Harness } from '../harness.ts';

/** The order the financing tests finance (the harness's order-1001, EGP 2,500.00), in English. */
export const ORDER = { merchant_reference: 'order-1001', language: 'en' } as const;
/** A mobile number the fake partner has registered. */
export const PHONE = '01001234567';

export interface FinancingSteps {
  /** CUSTOMER_VERIFY for PHONE: the `customer_verified` token. */
  verifyCustomer(): Promise<string>;
  /** OTP_GENERATE: the `otp_sent` token. */
  sendOtp(flow: string): Promise<string>;
  /** OTP_VERIFY with the code the fake partner accepts: the `otp_verified` token. */
  verifyOtp(flow: string): Promise<string>;
}

/** The three steps before the purchase, against `on`. */
export function financingSteps(on: Harness): FinancingSteps {
  return {
    async verifyCustomer() {
      const { status, body } = await on.post('/financing/verify-customer', { ...ORDER, phone_number: PHONE });
      assert.equal(status, 200, JSON.stringify(body));
      return parse(financingVerifyCustomerResult, body).flow;
    },
    async sendOtp(flow) {
      const { status, body } = await on.post('/financing/otp', { ...ORDER, flow });
      assert.equal(status, 200, JSON.stringify(body));
      return parse(financingOtpResult, body).flow;
    },
    async verifyOtp(flow) {
      const { status, body } = await on.post('/financing/verify-otp', { ...ORDER, flow, otp: GOOD_OTP });
      assert.equal(status, 200, JSON.stringify(body));
      return parse(financingVerifyOtpResult, body).flow;
    },
  };
}
