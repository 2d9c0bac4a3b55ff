/**
 * The financing steps a customer has reached, kept in sessionStorage under the merchant reference
 * so that a refresh or a re-render resumes where the customer was: a step that succeeded is not
 * asked for again, and PURCHASE is offered only after an OTP verified in this browser session.
 *
 * Only what the element needs to resume is kept: the endpoint's opaque `flow` token, the answers of
 * the steps, a masked phone number for display, and counters. Never the OTP; never the full phone.
 */
import { normalizeDigits } from '../../core/language.ts';
import { minorUnits, paymentResult, tenureOption } from '../../core/endpoint-results.ts';
import { currencyCode } from '../../core/order-answer.ts';
import { is, literal, object, optional, read, string, type Infer } from '../../core/shape.ts';
import { array, boolean, number } from '../../core/shape-lists.ts';

/**
 * - `phone`: nothing done yet;
 * - `verified`: CUSTOMER_VERIFY succeeded, OTP_GENERATE not yet;
 * - `otp`: a code was sent, waiting for the customer to type it;
 * - `tenure`: OTP_VERIFY succeeded, the customer chooses a tenure;
 * - `done`: PURCHASE answered (success, pending or failure; see `result`).
 */
export const FINANCING_STEPS = ['phone', 'verified', 'otp', 'tenure', 'done'] as const;
export type FinancingStep = (typeof FINANCING_STEPS)[number];

const storedState = object({
  version: literal(1),
  step: literal(...FINANCING_STEPS),
  flow: optional(string),
  maskedPhone: optional(string),
  /** The order currency, for the down payment and instalments (minor units). */
  currency: optional(currencyCode),
  downPayment: optional(minorUnits),
  tenureMonths: optional(array(number)),
  tenures: optional(array(tenureOption)),
  /** When the last code was sent (epoch ms), for the resend countdown. */
  otpSentAt: optional(number),
  /** No new code before this instant (epoch ms): the endpoint's Retry-After when it refused one (`otp_resend_limited`). */
  resendNotBefore: optional(number),
  /** Wrong codes typed against the last code sent. */
  wrongAttempts: is(number, (n) => Number.isSafeInteger(n) && n >= 0),
  /** The code sent is locked after too many wrong attempts; only a new code helps. */
  locked: optional(boolean),
  tenure: optional(number),
  result: optional(paymentResult),
});

export type FinancingState = Infer<typeof storedState>;

export const INITIAL_FINANCING_STATE: FinancingState = Object.freeze({ version: 1, step: 'phone', wrongAttempts: 0 });

/** The sessionStorage key of one order's financing steps. */
export function flowStorageKey(merchantReference: string): string {
  return `pg-financing-otp:${merchantReference}`;
}

/**
 * The stored steps of an order, or the first step when nothing (or nothing readable) is stored.
 * A state that claims a step without the token that step produced is discarded: it cannot have
 * come from this element.
 */
export function loadFlowState(storage: Storage | undefined, merchantReference: string): FinancingState {
  if (!storage || !merchantReference) return INITIAL_FINANCING_STATE;
  let json: unknown;
  try {
    const text = storage.getItem(flowStorageKey(merchantReference));
    if (!text) return INITIAL_FINANCING_STATE;
    json = JSON.parse(text);
  } catch {
    // A storage that refuses to be read (private mode), or text that is not JSON.
    return INITIAL_FINANCING_STATE;
  }
  const state = read(storedState, json);
  return state && isCoherent(state) ? state : INITIAL_FINANCING_STATE;
}

function isCoherent(state: FinancingState): boolean {
  switch (state.step) {
    case 'phone':
      return true;
    case 'verified':
      return state.flow !== undefined;
    case 'otp':
      return (
        state.flow !== undefined &&
        state.currency !== undefined &&
        state.downPayment !== undefined &&
        state.tenureMonths !== undefined
      );
    case 'tenure':
      return (
        state.flow !== undefined &&
        state.currency !== undefined &&
        state.downPayment !== undefined &&
        state.tenures !== undefined
      );
    case 'done':
      return state.result !== undefined;
  }
}

/** Stores the steps of an order; a full or unavailable storage only costs the resume. */
export function saveFlowState(storage: Storage | undefined, merchantReference: string, state: FinancingState): void {
  if (!storage || !merchantReference) return;
  try {
    storage.setItem(flowStorageKey(merchantReference), JSON.stringify(state));
  } catch {
    // Private mode or a full quota: the element still works, it just cannot resume after a refresh.
  }
}

export function clearFlowState(storage: Storage | undefined, merchantReference: string): void {
  if (!storage || !merchantReference) return;
  try {
    storage.removeItem(flowStorageKey(merchantReference));
  } catch {
    // Nothing to clear.
  }
}

/**
 * A one-time password as typed or pasted: Arabic-Indic digits and bidi marks normalized, every
 * other character (spaces, dashes, "Your code is") dropped.
 */
export function normalizeOtp(input: string): string {
  return normalizeDigits(input).replace(/\D/g, '');
}

/** "01012345678" → "010•••••678": enough to recognise one's own number on screen. */
export function maskPhone(nationalNumber: string): string {
  if (nationalNumber.length <= 6) return nationalNumber;
  return `${nationalNumber.slice(0, 3)}${'•'.repeat(nationalNumber.length - 6)}${nationalNumber.slice(-3)}`;
}
