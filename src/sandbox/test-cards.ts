/**
 * What the sandbox gateway does with the data a tester types: the test cards and their outcomes,
 * the financing OTP and phone numbers, and the time limits. The demo page and docs/sandbox.md list
 * these; tests import them rather than repeating the numbers.
 */

/**
 * What a card does when it is charged, and how it answers the 3-D Secure services:
 * - `3ds`: enrolled; the issuer's page (a `3ds_url`) asks to approve or fail.
 * - `3ds_md_pares`: enrolled with a processor of the second type: 3DS_ENROLLMENT answers MD and
 *   PaRes to send back as `MD=…&PaRes=…`; a charge without them meets the challenge page.
 * - `3ds_fails`: enrolled with a processor of the second type, and authentication always fails:
 *   its PaRes authenticates to status N, and its challenge page declines whatever is pressed.
 * - `3ds_not_enrolled`: not enrolled (3ds_enrolled N, nothing to authenticate); charges succeed.
 * Every card that is not enrolled answers 3ds_enrolled N.
 */
export type CardOutcome =
  | 'success'
  | 'decline'
  | 'insufficient_funds'
  | 'invalid_card'
  | '3ds'
  | '3ds_md_pares'
  | '3ds_fails'
  | '3ds_not_enrolled';

export type CardBrand = 'VISA' | 'MASTERCARD';

export interface TestCard {
  /** The number to type, digits only; every one passes the Luhn check. */
  readonly number: string;
  readonly brand: CardBrand;
  readonly outcome: CardOutcome;
  /** One line for the demo page and the docs. */
  readonly description: string;
}

/**
 * Any future expiry date, any 3-digit security code and any holder name work with these cards.
 * A Luhn-valid number that is not listed here is treated as an invalid card.
 */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'VISA', outcome: 'success', description: 'Approved' },
  { number: '5123456789012346', brand: 'MASTERCARD', outcome: 'success', description: 'Approved' },
  { number: '4000000000000002', brand: 'VISA', outcome: 'decline', description: 'Declined by the issuer' },
  { number: '5200000000000007', brand: 'MASTERCARD', outcome: 'decline', description: 'Declined by the issuer' },
  { number: '4000000000009995', brand: 'VISA', outcome: 'insufficient_funds', description: 'Insufficient funds' },
  { number: '5200000000009990', brand: 'MASTERCARD', outcome: 'insufficient_funds', description: 'Insufficient funds' },
  { number: '4000000000000127', brand: 'VISA', outcome: 'invalid_card', description: 'Invalid card (refused by the gateway, though Luhn-valid)' },
  { number: '5200000000000122', brand: 'MASTERCARD', outcome: 'invalid_card', description: 'Invalid card (refused by the gateway, though Luhn-valid)' },
  { number: '4000000000003220', brand: 'VISA', outcome: '3ds', description: '3-D Secure: a challenge page asks to approve or fail' },
  { number: '5200000000001096', brand: 'MASTERCARD', outcome: '3ds', description: '3-D Secure: a challenge page asks to approve or fail' },
  { number: '4000000000001059', brand: 'VISA', outcome: '3ds_md_pares', description: '3-D Secure, second processor type: enrollment answers MD and PaRes' },
  { number: '5200000000001054', brand: 'MASTERCARD', outcome: '3ds_md_pares', description: '3-D Secure, second processor type: enrollment answers MD and PaRes' },
  { number: '4000000000003071', brand: 'VISA', outcome: '3ds_fails', description: '3-D Secure: enrolled, authentication fails' },
  { number: '5200000000003076', brand: 'MASTERCARD', outcome: '3ds_fails', description: '3-D Secure: enrolled, authentication fails' },
  { number: '4000000000002065', brand: 'VISA', outcome: '3ds_not_enrolled', description: '3-D Secure: not enrolled; approved without authentication' },
  { number: '5200000000002060', brand: 'MASTERCARD', outcome: '3ds_not_enrolled', description: '3-D Secure: not enrolled; approved without authentication' },
];

/** The test card with this outcome and brand (Visa unless asked otherwise). */
export function testCard(outcome: CardOutcome, brand: CardBrand = 'VISA'): TestCard {
  const card = TEST_CARDS.find((candidate) => candidate.outcome === outcome && candidate.brand === brand);
  if (!card) throw new RangeError(`no ${brand} test card for ${outcome}`);
  return card;
}

// ---- Fraud prevention ----

/**
 * With fraud prevention activated, a charge whose customer_email is this address is rejected by
 * the screening (13005 / 03005); without it, the address is like any other.
 */
export const FRAUD_SCREENING_EMAIL: string = 'fraud@sandbox.test';

// ---- Consumer financing ----

/** The one-time password the sandbox "sends" by SMS for every OTP_GENERATE. */
export const SANDBOX_OTP: string = '123456';

/** Wrong OTP_VERIFY answers allowed per generated OTP; the last one locks it (93002). */
export const MAX_OTP_ATTEMPTS = 3;

/** A valid Egyptian mobile number the financing partner has no customer for (91001). */
export const UNREGISTERED_FINANCING_PHONE: string = '01000000000';

/** A registered customer's number, for demos and tests; any other valid EG mobile is registered too. */
export const REGISTERED_FINANCING_PHONE: string = '01012345678';

/**
 * The customer_ip a financing PURCHASE answer adds when the request names none (the spec's answer
 * always adds it). A Web-standard handler is not told where a request came from, so the sandbox
 * answers an address of the documentation range (RFC 5737) rather than a real one.
 */
export const SANDBOX_FINANCING_CUSTOMER_IP: string = '192.0.2.1';

/** Down payment asked by OTP_GENERATE: this percentage of the amount, rounded half up to the minor unit. */
export const FINANCING_DOWN_PAYMENT_PERCENT = 10;

/** Tenure options (months) and the flat interest rate (percent of the financed amount) of each. */
export const FINANCING_TENURES: readonly { readonly months: number; readonly interestRate: string }[] = [
  { months: 3, interestRate: '0' },
  { months: 6, interestRate: '5' },
  { months: 12, interestRate: '10' },
];

// ---- Time ----

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** An authorization neither captured nor voided within this period is voided automatically. */
export const AUTHORIZATION_HOLD_MS = 7 * DAY;

/** How long a hosted-page session (card entry) and a 3-D Secure challenge stay open. */
export const PAGE_SESSION_MS = 30 * MINUTE;
