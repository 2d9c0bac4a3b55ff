/** Text of `<pg-bill-voucher>` in English and Arabic. */
import { html } from 'lit';
import type { TimeLeft } from '../../core/voucher.ts';
import type { Catalogs, Renderable } from '../shared/localize.ts';
import { sharedEn, type SharedMessages } from '../shared/messages.ts';

export interface BillVoucherMessages extends SharedMessages {
  readonly title: string;
  readonly intro: string;
  readonly issue: string;
  readonly issuing: string;
  readonly issued: (billNumber: string, expiry: string) => string;
  readonly billNumber: string;
  /** The bill number read out in its groups (screen readers), e.g. "1234 5678 9012 34". */
  readonly billNumberSpoken: (groups: readonly string[]) => string;
  readonly copy: string;
  readonly copied: string;
  readonly copyDone: string;
  readonly copyFailed: string;
  readonly amount: string;
  readonly partner: string;
  /** Stands for the partner where no code or name is known. */
  readonly anyPartner: string;
  readonly payBefore: string;
  readonly timeLeft: string;
  /** The countdown: "2 days, 3:04:05"; `digits` arrive as a left-to-right island in the page's numerals. */
  readonly countdown: (left: TimeLeft, digits: Renderable) => Renderable;
  readonly instructionsTitle: string;
  readonly instructions: (partner: Renderable, amount: Renderable | undefined, expiry: string) => readonly Renderable[];
  readonly calendar: string;
  readonly print: string;
  readonly reminderSummary: (billNumber: string, partner: string) => string;
  readonly reminderDescription: (billNumber: string, amount: string | undefined, partner: string, expiry: string) => string;
  readonly expiredTitle: string;
  readonly expiredBody: (billNumber: Renderable, expiry: string) => Renderable;
  readonly expiredNow: string;
  /** In place of the countdown while the endpoint is asked whether the bill was paid. */
  readonly checking: string;
  /** The title of a paid bill; also what the live region says when it turns out paid. */
  readonly paidTitle: string;
  readonly paidBody: (billNumber: Renderable) => Renderable;
  /** The bill expired unpaid and the order was paid another way (a card, under the order's next attempt). */
  readonly paidElsewhereTitle: string;
  readonly paidElsewhereBody: (billNumber: Renderable) => Renderable;
  /** The expiry passed and the endpoint could not say whether the bill was paid: never "expired unpaid". */
  readonly unconfirmedTitle: string;
  readonly unconfirmed: string;
  readonly reissue: string;
  readonly currencyRefused: (currency: Renderable) => Renderable;
  readonly unreadable: string;
  readonly billRefusedExpired: string;
}

export const billVoucherMessages: Catalogs<BillVoucherMessages> = {
  en: {
    ...sharedEn,
    title: 'Pay in cash',
    intro: 'Get a bill number, then pay it in cash at a payment outlet before it expires.',
    issue: 'Get a bill number',
    issuing: 'Issuing your bill…',
    issued: (billNumber, expiry) => `Your bill number is ${billNumber}. Pay it before ${expiry}.`,
    billNumber: 'Bill number',
    billNumberSpoken: (groups) => groups.join(' '),
    copy: 'Copy',
    copied: 'Copied',
    copyDone: 'Bill number copied.',
    copyFailed: 'Could not copy. Select the bill number and copy it yourself.',
    amount: 'Amount',
    partner: 'Pay at',
    anyPartner: 'the payment partner',
    payBefore: 'Pay before',
    timeLeft: 'Time left',
    countdown: (left, digits) => (left.days > 0 ? html`${left.days} ${left.days === 1 ? 'day' : 'days'}, ${digits}` : digits),
    instructionsTitle: 'How to pay',
    instructions: (partner, amount, expiry) => [
      html`Go to an outlet or agent of ${partner}.`,
      'Say you are paying a bill and give the bill number.',
      amount ? html`Pay ${amount} in cash and keep the receipt.` : 'Pay the amount in cash and keep the receipt.',
      `Pay before ${expiry}. After that the bill expires and the hold on your order is cancelled.`,
    ],
    calendar: 'Add a reminder to your calendar',
    print: 'Print',
    reminderSummary: (billNumber, partner) => `Pay bill ${billNumber} at ${partner}`,
    reminderDescription: (billNumber, amount, partner, expiry) =>
      [
        `Bill number: ${billNumber}`,
        ...(amount ? [`Amount: ${amount}`] : []),
        `Pay at: ${partner}`,
        `Pay before: ${expiry}`,
        'If it is not paid by then, the hold on your order is cancelled.',
      ].join('\n'),
    expiredTitle: 'This bill has expired',
    expiredBody: (billNumber, expiry) =>
      html`Bill ${billNumber} was not paid by ${expiry}. The hold on your order is cancelled and the bill can no longer be paid.`,
    expiredNow: 'The bill has expired. The hold on your order is cancelled.',
    checking: 'Checking whether the bill has been paid…',
    paidTitle: 'This bill has been paid',
    paidBody: (billNumber) => html`Bill ${billNumber} has been paid. Thank you: your order is paid.`,
    paidElsewhereTitle: 'Your order has been paid',
    paidElsewhereBody: (billNumber) => html`It was paid another way. Bill ${billNumber} expired unpaid; nothing is due on it.`,
    unconfirmedTitle: 'Payment not confirmed yet',
    unconfirmed: 'We could not check whether this bill has been paid. If you paid it, keep your receipt.',
    reissue: 'Issue a new bill',
    currencyRefused: (currency) =>
      html`Cash payment is available only for orders in Egyptian pounds (EGP). This order is in ${currency}; please choose another payment method.`,
    unreadable: 'This bill cannot be shown: its number or expiry date is not valid. Please contact the store.',
    billRefusedExpired: 'This bill has expired and can no longer be paid.',
  },
  ar: () => import('./messages.ar.ts').then((module) => module.billVoucherAr),
};
