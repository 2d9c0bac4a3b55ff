/**
 * Messages shared by every element: request failures, the live region's common states and the
 * card form. Element catalogs spread these in and add their own keys.
 */
import { html } from 'lit';
import type { Catalogs, Renderable } from './localize.ts';

/**
 * The little an element says before its catalog or code has arrived, in both languages: it is
 * what an Arabic page shows while the Arabic catalog loads, so it cannot live in that catalog;
 * the catalogs take their words from here.
 */
export const LOADING_TEXT = {
  en: {
    loading: 'Loading…',
    failed: 'This part of the checkout could not be loaded. Check your connection and try again.',
    retry: 'Try again',
  },
  ar: {
    loading: 'جارٍ التحميل…',
    failed: 'تعذّر تحميل هذا الجزء من صفحة الدفع. تحقّق من اتصالك وحاول مرة أخرى.',
    retry: 'حاول مرة أخرى',
  },
} as const;

export interface SharedMessages {
  readonly loading: string;
  readonly retry: string;
  readonly redirecting: string;
  /** Under the button, and told to screen readers, when a customer's action waits on the network. */
  readonly processing: string;
  readonly fixErrors: (count: number) => string;
  readonly pay: string;
  readonly payAmount: (amount: Renderable) => Renderable;
  /** A number of months (installment plans, financing tenures). */
  readonly months: (count: number) => string;
  readonly errors: {
    readonly network: string;
    readonly unavailable: string;
    readonly invalidResponse: string;
    readonly invalidRequest: string;
    readonly gatewayUnreachable: string;
    readonly gatewayRefused: string;
    readonly unknownOrder: string;
    readonly orderChanged: string;
    readonly refused: string;
    readonly orderAlreadyPaid: string;
    readonly orderInProgress: string;
    /** Too many cards tried for this order within the hour (the endpoint's guard against card testing). */
    readonly cardAttemptsLimited: string;
    readonly serviceNotConfigured: string;
    readonly currencyNotSupported: string;
    readonly requestUnreadable: string;
    readonly sessionExpired: string;
    readonly stepOutOfOrder: string;
    readonly gatewayAnswerInvalid: string;
    readonly gatewaySignatureInvalid: string;
    readonly internalError: string;
  };
  /** The frames of a payment that stays on the page, and the 3-D Secure dialog. */
  readonly framed: {
    readonly frameTitle: string;
    readonly processingFrameTitle: string;
    readonly challengeTitle: string;
    readonly challengeText: string;
    readonly challengeFrameTitle: string;
    readonly close: string;
    readonly loadingPage: string;
    readonly processing: string;
    readonly cancelled: string;
    readonly timeout: string;
  };
  readonly card: {
    readonly legend: string;
    readonly number: string;
    readonly numberHint: string;
    readonly expiry: string;
    readonly expiryHint: string;
    readonly cvv: string;
    readonly cvvHint: string;
    /** The security code's hint where the merchant's account has CVV suppression. */
    readonly cvvOptional: string;
    readonly holder: string;
    readonly rememberMe: string;
    readonly brand: (brand: string) => string;
    readonly numberRequired: string;
    readonly numberInvalid: string;
    readonly numberIncomplete: string;
    readonly expiryRequired: string;
    readonly expiryInvalid: string;
    readonly expiryPast: string;
    readonly cvvRequired: string;
    readonly cvvInvalid: string;
    readonly holderRequired: string;
    readonly holderInvalid: string;
  };
}

export const sharedEn: SharedMessages = {
  loading: LOADING_TEXT.en.loading,
  retry: LOADING_TEXT.en.retry,
  redirecting: 'Taking you to the secure payment page…',
  processing: 'Processing…',
  fixErrors: (count) => (count === 1 ? 'Please correct the highlighted field.' : `Please correct the ${count} highlighted fields.`),
  pay: 'Pay',
  payAmount: (amount) => html`Pay ${amount}`,
  months: (count) => (count === 1 ? '1 month' : `${count} months`),
  errors: {
    network: 'We could not reach the payment service. Check your connection and try again.',
    unavailable: 'The payment service is not available right now. Please try again in a moment.',
    invalidResponse: 'The payment service sent an answer we could not read. Please try again.',
    invalidRequest: 'This payment form is not set up correctly. Please contact the store.',
    gatewayUnreachable: 'The payment gateway is not responding. Nothing was charged; please try again.',
    gatewayRefused: 'The payment gateway refused the request. Nothing was charged; please try again.',
    unknownOrder: 'This order could not be found. Please go back to the store and try again.',
    orderChanged: 'This order has changed. Please reload the page.',
    refused: 'The store could not start this payment. Please try again.',
    orderAlreadyPaid: 'This order has already been paid. There is nothing more to pay.',
    orderInProgress:
      'A payment for this order is already under way (a bill waiting to be paid, or a card check). Finish it, or try again in a few minutes.',
    cardAttemptsLimited: 'Too many cards have been tried for this order. Nothing was charged; please try again later.',
    serviceNotConfigured: 'This payment method is not available in this store. Please choose another one.',
    currencyNotSupported: 'This payment method is not available in the order’s currency. Please choose another one.',
    requestUnreadable: 'The store’s payment service could not read this request. Please reload the page and try again.',
    sessionExpired: 'This session has expired. Please start again.',
    stepOutOfOrder: 'Please finish the previous step first.',
    gatewayAnswerInvalid: 'The payment gateway sent an answer that cannot be used. Nothing was charged; please try again later.',
    gatewaySignatureInvalid: 'The payment gateway’s answer could not be verified. Nothing was charged; please try again.',
    internalError: 'Something went wrong at the store. Please try again.',
  },
  framed: {
    frameTitle: 'Card details, on the payment gateway’s secure page',
    processingFrameTitle: 'Payment in progress',
    challengeTitle: 'Confirm the payment with your bank',
    challengeText: 'Your bank asks you to confirm this payment. Follow its steps below.',
    challengeFrameTitle: 'Your bank’s card check',
    close: 'Close',
    loadingPage: 'Loading the secure card page…',
    processing: 'Processing your payment…',
    cancelled: 'You closed your bank’s card check, so the payment was not completed.',
    timeout: 'The payment is taking longer than expected. Please check your order before trying again.',
  },
  card: {
    legend: 'Card details',
    number: 'Card number',
    numberHint: 'The long number on the front of your card',
    expiry: 'Expiry date',
    expiryHint: 'MM/YY',
    cvv: 'Security code',
    cvvHint: '3 or 4 digits on the back of your card',
    cvvOptional: 'Optional',
    holder: 'Name on card',
    rememberMe: 'Remember this card for next time',
    brand: (brand) => `Card brand: ${brand}`,
    numberRequired: 'Enter your card number.',
    numberInvalid: 'This card number is not valid. Check it and try again.',
    numberIncomplete: 'This card number is too short.',
    expiryRequired: 'Enter the expiry date.',
    expiryInvalid: 'Enter the expiry date as MM/YY.',
    expiryPast: 'This card has expired.',
    cvvRequired: 'Enter the security code.',
    cvvInvalid: 'The security code has the wrong number of digits.',
    holderRequired: 'Enter the name on the card.',
    holderInvalid: 'Use letters, spaces, dots, hyphens and apostrophes only.',
  },
};

export const sharedMessages: Catalogs<SharedMessages> = {
  en: sharedEn,
  ar: () => import('./messages.ar.ts').then((module) => module.sharedAr),
};

type ErrorMessageKey = keyof SharedMessages['errors'];

/**
 * Too many codes sent; `minutes` until another may be asked for, when the endpoint said
 * (Retry-After). Only `<pg-financing-otp>` asks for codes, so only its catalogs say it.
 */
export interface ResendLimitMessage {
  readonly otpResendLimited: (minutes: number | undefined) => string;
}

/**
 * The message of each endpoint code (and each kind of failure) whose key in `errors` is not the
 * code itself in camel case: `gateway_unreachable` is `gatewayUnreachable`, `network` is `network`.
 */
const ERROR_MESSAGES: Readonly<Record<string, ErrorMessageKey>> = {
  amount_mismatch: 'orderChanged',
  currency_mismatch: 'orderChanged',
  unsupported_media_type: 'requestUnreadable',
  json_too_deep: 'requestUnreadable',
  invalid_json: 'requestUnreadable',
  body_too_large: 'requestUnreadable',
  // The element never sends these: the page or the endpoint is set up wrongly, which only the store can fix.
  card_data_refused: 'invalidRequest',
  command_refused: 'invalidRequest',
  origin_refused: 'invalidRequest',
  not_found: 'invalidRequest',
  method_not_allowed: 'invalidRequest',
  flow_invalid: 'sessionExpired',
  store_unavailable: 'unavailable',
};

/** The customer-facing text for a failed endpoint request; every code of the endpoint has its own. */
export function describeRequestError(
  error: { readonly kind: string; readonly code?: string | undefined; readonly retryAfterSeconds?: number | undefined },
  messages: SharedMessages,
): string {
  const { errors } = messages;
  // A failure of its own kind (network, unreadable answer, bad request), else the endpoint's code.
  const code = error.kind === 'refused' ? (error.code ?? '') : error.kind;
  const key = ERROR_MESSAGES[code] ?? code.replace(/_(.)/g, (_, letter: string) => letter.toUpperCase());
  // The catalog's own messages only, not what an object inherits (`constructor`…), whatever code an endpoint sends.
  const message: unknown = Object.hasOwn(errors, key) ? (errors as Readonly<Record<string, unknown>>)[key] : undefined;
  if (typeof message === 'string') return message;
  // A message that says when to try again (`otpResendLimited`) is given the endpoint's Retry-After in minutes.
  const seconds = error.retryAfterSeconds;
  const minutes = seconds === undefined ? undefined : Math.max(1, Math.ceil(seconds / 60));
  return typeof message === 'function' ? (message as ResendLimitMessage['otpResendLimited'])(minutes) : errors.refused;
}
