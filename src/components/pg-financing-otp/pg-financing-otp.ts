import type { FinancingProduct } from '../../core/endpoint-api.ts';
import type { Language } from '../../core/language.ts';
import { systemClock, type Clock } from '../../core/clock.ts';
import { LazyPgElement, type ViewModule } from '../shared/element-view.ts';
import type { ElementProperties } from '../shared/property.ts';
import { amountReader, clockReader, propertyReader, textReader, wholeNumberReader } from '../shared/property-readers.ts';
import type { FinancingOtpView } from './financing-otp-view.ts';
import type { FinancingStep } from './flow-state.ts';
import type { FinancingOtpMessages } from './messages.ts';

/** `products`: a list; anything else, a removed prop included, is none. */
const productsReader = propertyReader((value): FinancingProduct[] => (Array.isArray(value) ? (value as FinancingProduct[]) : []));

/**
 * Consumer financing (spec, "Consumer financing" and its flow): the customer's mobile number
 * (CUSTOMER_VERIFY), a one-time code by SMS (OTP_GENERATE, which also gives the down payment and
 * the tenures offered), the code typed (OTP_VERIFY, which gives each tenure's monthly instalment
 * and interest rate), the tenure chosen, then PURCHASE. Every step goes through the merchant
 * endpoint, shows that it is working, explains a failure and offers a way back.
 *
 * The step reached and the endpoint's flow token are kept in sessionStorage under the merchant
 * reference: a refresh resumes where the customer was, and PURCHASE is reachable only after an
 * OTP verified in this session. The OTP itself is never stored or put in an event.
 *
 * @tagname pg-financing-otp
 * @fires pg-financing-step - A step succeeded; carries the step reached (`verified`, `otp`, `tenure`, `done`).
 * @fires pg-financing-complete - PURCHASE succeeded or is pending; carries the outcome, svc_id and tenure.
 * @fires pg-request-start - Before every request to the merchant endpoint; cancelable.
 * @fires pg-request-success - A request succeeded.
 * @fires pg-request-error - A request failed.
 * @fires pg-request-complete - Last event of every started request.
 * @csspart financing - The whole financing flow.
 * @csspart title - The heading line.
 * @csspart progress - "Step n of 3" (phone number, code, plan), left out once the outcome shows.
 * @csspart floatl - The container of each input.
 * @csspart phone - The mobile number field.
 * @csspart otp - The one-time code field.
 * @csspart summary - The down payment and tenures offered.
 * @csspart resend - The "send a new code" button.
 * @csspart countdown - The time left before a new code may be asked for.
 * @csspart full-width - The table of tenures.
 * @csspart tenure-row - One tenure in the table.
 * @csspart Pay - The button of each step that moves forward (send, verify, confirm).
 * @csspart back - The way back of each step.
 * @csspart failure - A failed request: its message and the "try again" button.
 * @csspart retry - The "try again" button after a failed request.
 * @csspart error - Error messages.
 * @csspart result - The outcome of PURCHASE.
 * @csspart frame - The element's outer container; carries `dir` and `lang`.
 * @csspart status - The polite live region.
 * @cssprop --pg-tenure-selected-background - Background of the chosen tenure's row (falls back to --pg-color-selected).
 * @cssprop --pg-color-selected - System token: background of a selected row.
 * @cssstate pending - A request to the merchant endpoint is in flight.
 */
export class PgFinancingOtp extends LazyPgElement<FinancingOtpMessages> {
  static override properties: ElementProperties = {
    products: { attribute: false, converter: productsReader },
    currency: { converter: textReader },
    amount: { converter: amountReader },
    customerEmail: { converter: textReader },
    resendAfter: { converter: wholeNumberReader(0, 60) },
    maxOtpAttempts: { converter: wholeNumberReader(1, 3) },
    otpLength: { converter: wholeNumberReader(1, 6) },
    clock: { attribute: false, converter: clockReader },
  };

  /** Products sent with OTP_GENERATE when the merchant's order does not list its own. */
  products: FinancingProduct[] = [];

  /** The order currency, when the page knows it; otherwise the element reads the order from the endpoint. */
  currency = '';

  /** The order amount in minor units, when the page knows it; sent so that the endpoint can refuse a changed order. */
  amount: number | undefined;

  /** `customer_email` sent with PURCHASE (optional). */
  customerEmail = '';

  /** Seconds before the customer may ask for a new code (60 unless a whole number is given). */
  resendAfter = 60;

  /** Wrong codes the partner allows per code sent; used to show the attempts left (3 unless a whole number from 1 is given). */
  maxOtpAttempts = 3;

  /** Digits in the partner's one-time code (6 unless a whole number from 1 is given). */
  otpLength = 6;

  /** Where the resend countdown reads the time; tests and demos pass `createManualClock()`. */
  clock: Clock = systemClock;

  protected declare view: FinancingOtpView | undefined;

  /** The step the customer has reached. */
  get step(): FinancingStep {
    return this.view?.step ?? 'phone';
  }

  protected override async importView(language: Language): Promise<ViewModule<PgFinancingOtp, FinancingOtpMessages>> {
    // The Arabic catalog comes with the view, not after it.
    if (language === 'ar') import('./messages.ar.ts').catch(() => {});
    return (await import('./financing-otp-view.ts')).financingOtpView;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pg-financing-otp': PgFinancingOtp;
  }
}
