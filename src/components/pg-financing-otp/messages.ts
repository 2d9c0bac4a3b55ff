/** Text of `<pg-financing-otp>` in English and Arabic. */
import { html } from 'lit';
import type { Catalogs, Renderable } from '../shared/localize.ts';
import { sharedEn, type ResendLimitMessage, type SharedMessages } from '../shared/messages.ts';

export interface FinancingOtpMessages extends SharedMessages {
  /**
   * The shared request failures, and the two only this element's requests meet: too many codes
   * sent, and too many wrong codes for the phone number (the resend countdown says when a new code
   * may be asked for).
   */
  readonly errors: SharedMessages['errors'] & ResendLimitMessage & { readonly otpAttemptsLimited: string };
  readonly title: string;
  readonly progress: (step: number, of: number) => string;
  readonly orderTotal: string;
  readonly startOver: string;
  readonly sessionExpired: string;
  readonly phone: {
    readonly intro: string;
    readonly label: string;
    readonly hint: string;
    readonly submit: string;
    readonly checking: string;
    readonly required: string;
    readonly invalid: string;
    readonly notRegistered: string;
  };
  readonly verified: {
    readonly text: (phone: Renderable) => Renderable;
    readonly send: string;
  };
  readonly otp: {
    readonly sending: string;
    readonly sentTo: (phone: Renderable) => Renderable;
    readonly sentAnnounce: (phone: string, seconds: number) => string;
    readonly downPayment: string;
    readonly tenureOffer: string;
    readonly label: string;
    readonly hint: (digits: number) => string;
    readonly submit: string;
    readonly verifying: string;
    readonly required: string;
    readonly format: (digits: number) => string;
    readonly wrong: (attemptsLeft: number) => string;
    readonly locked: string;
    readonly resend: string;
    readonly resendIn: (time: Renderable) => Renderable;
    readonly resendReady: string;
    readonly changePhone: string;
  };
  readonly tenure: {
    readonly verifiedNote: string;
    readonly caption: string;
    readonly plan: string;
    readonly emi: string;
    readonly rate: string;
    readonly ratePercent: (rate: string) => string;
    /** What the tenure costs in all: the down payment and every monthly installment. */
    readonly total: string;
    readonly required: string;
    readonly confirm: string;
    readonly confirming: string;
    /** After a declined purchase: what the customer can do next. */
    readonly declinedHint: string;
  };
  readonly done: {
    readonly success: string;
    readonly pending: string;
    readonly plan: string;
    readonly reference: string;
  };
}

export const financingOtpMessages: Catalogs<FinancingOtpMessages> = {
  en: {
    ...sharedEn,
    errors: {
      ...sharedEn.errors,
      otpResendLimited: (minutes) =>
        minutes === undefined
          ? 'Too many codes have been sent. Please wait before asking for another.'
          : `Too many codes have been sent. You can ask for a new one in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`,
      otpAttemptsLimited: 'Too many wrong codes for this number.',
    },
    title: 'Pay with consumer financing',
    progress: (step, of) => `Step ${step} of ${of}`,
    orderTotal: 'Order total',
    startOver: 'Start over',
    sessionExpired: 'This financing session has expired. Please start again with your mobile number.',
    phone: {
      intro: 'Enter the mobile number registered with the financing partner. We will send you a one-time code by SMS.',
      label: 'Mobile number',
      hint: 'An Egyptian mobile number, such as 010 1234 5678',
      submit: 'Send me a code',
      checking: 'Checking your number…',
      required: 'Enter your mobile number.',
      invalid: 'Enter an Egyptian mobile number of 11 digits starting with 010, 011, 012 or 015.',
      notRegistered:
        'This number is not registered with the financing partner. Check the number, or go back and choose another payment method.',
    },
    verified: {
      text: (phone) => html`Your number ${phone} is registered with the financing partner. We will send the code to it.`,
      send: 'Send the code',
    },
    otp: {
      sending: 'Sending the code…',
      sentTo: (phone) => html`We sent a one-time code by SMS to ${phone}.`,
      sentAnnounce: (phone, seconds) =>
        `We sent a one-time code to ${phone}. You can ask for a new code in ${seconds} seconds.`,
      downPayment: 'Down payment',
      tenureOffer: 'Plans offered',
      label: 'One-time code',
      hint: (digits) => `The ${digits}-digit code in the SMS`,
      submit: 'Verify the code',
      verifying: 'Verifying the code…',
      required: 'Enter the code from the SMS.',
      format: (digits) => `The code has ${digits} digits.`,
      wrong: (attemptsLeft) =>
        attemptsLeft === 1 ? 'That code is not right. 1 attempt left.' : `That code is not right. ${attemptsLeft} attempts left.`,
      locked: 'Too many wrong codes. You need a new code to continue.',
      resend: 'Send a new code',
      resendIn: (time) => html`You can ask for a new code in ${time}.`,
      resendReady: 'You can now ask for a new code.',
      changePhone: 'Use a different number',
    },
    tenure: {
      verifiedNote: 'Code verified. Choose how many months to pay over.',
      caption: 'Financing plans',
      plan: 'Plan',
      emi: 'Monthly installment',
      rate: 'Interest rate',
      ratePercent: (rate) => `${rate}%`,
      total: 'Total payable',
      required: 'Choose a plan.',
      confirm: 'Confirm purchase',
      confirming: 'Completing your purchase…',
      declinedHint: 'Try another plan, or contact the financing partner.',
    },
    done: {
      success: 'Your purchase is complete.',
      pending: 'Your purchase is being processed. The store will confirm it shortly.',
      plan: 'Plan',
      reference: 'Reference',
    },
  },
  ar: () => import('./messages.ar.ts').then((module) => module.financingOtpAr),
};
