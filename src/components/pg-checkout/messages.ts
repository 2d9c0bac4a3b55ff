/** Text of `<pg-checkout>` in English and Arabic. */
import { html } from 'lit';
import type { Catalogs, Renderable } from '../shared/localize.ts';
import { sharedEn, type SharedMessages } from '../shared/messages.ts';
import type { PaymentMethod } from './events.ts';

export interface CheckoutMessages extends SharedMessages {
  readonly methodsLegend: string;
  readonly methods: { readonly [M in PaymentMethod]: string };
  readonly redirectNote: string;
  readonly merchantPageNote: string;
  readonly embeddedNote: string;
  readonly payInFullWithCard: string;
  /** Drop-in, under the methods: a cash bill for the order waits to be paid; or it expired unpaid. */
  readonly billWaiting: string;
  readonly billExpired: string;
  /** The endpoint refused the card: the order's amount changed since the Pay button named it. */
  readonly amountChanged: string;
  readonly save: {
    readonly note: string;
    readonly consent: string;
    readonly consentRequired: string;
    readonly button: string;
    readonly continue: string;
  };
  readonly outcome: {
    readonly paySuccess: string;
    readonly payPending: string;
    readonly payFailure: string;
    /** Under a declined (or refused) card: what the customer can do next. */
    readonly failureHint: string;
    readonly saveSuccess: string;
    readonly savePending: string;
    readonly saveFailure: string;
    readonly installments: (months: number) => string;
    /** A saved card: its brand's name (empty when unknown) and last four digits. */
    readonly savedCard: (brand: string, lastFour: Renderable) => Renderable;
    readonly seeOrder: string;
  };
}

export const checkoutMessages: Catalogs<CheckoutMessages> = {
  en: {
    ...sharedEn,
    methodsLegend: 'Payment method',
    methods: {
      card: 'Card',
      installments: 'Installments',
      voucher: 'Cash at a payment outlet',
      financing: 'Consumer financing',
    },
    redirectNote: 'You will enter your card details on the payment gateway’s secure page.',
    merchantPageNote: 'Your card details go straight to the payment gateway; the store never sees them.',
    embeddedNote: 'Enter your card details on the payment gateway’s secure page below; the store never sees them.',
    payInFullWithCard: 'Pay the full amount with your card.',
    billWaiting: 'Your order is waiting for this cash bill to be paid; other methods return if it expires unpaid.',
    billExpired: 'The cash bill expired unpaid. Choose another payment method.',
    amountChanged: 'The order’s amount has changed; nothing was charged. Check the amount on the Pay button, then pay.',
    save: {
      note: 'Nothing is charged: your card is saved for your future payments when you continue.',
      consent: 'Save this card for future payments. I understand nothing is charged now.',
      consentRequired: 'Tick the box to agree to saving your card.',
      button: 'Save card',
      continue: 'Continue to the secure card page',
    },
    outcome: {
      paySuccess: 'Payment successful',
      payPending: 'Payment pending',
      payFailure: 'Payment not completed',
      failureHint: 'Try another card, or call your bank.',
      saveSuccess: 'Card saved',
      savePending: 'Card not saved yet',
      saveFailure: 'Card not saved',
      installments: (months) => (months === 1 ? 'In 1 monthly installment' : `In ${months} monthly installments`),
      savedCard: (brand, lastFour) => html`${brand || 'Card'} ending in ${lastFour}`,
      seeOrder: 'See your order',
    },
  },
  ar: () => import('./messages.ar.ts').then((module) => module.checkoutAr),
};
