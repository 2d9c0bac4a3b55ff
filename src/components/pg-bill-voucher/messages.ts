/** Text of `<pg-bill-voucher>` in English and Arabic. */
import { html } from 'lit';
import { formatCount } from '../../core/language.ts';
import type { TimeLeft } from '../../core/voucher.ts';
import type { Catalogs, Renderable } from '../shared/localize.ts';
import { sharedMessages, type SharedMessages } from '../shared/messages.ts';

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
  readonly reissue: string;
  readonly currencyRefused: (currency: Renderable) => Renderable;
  readonly unreadable: string;
  readonly billRefusedExpired: string;
}

export const billVoucherMessages: Catalogs<BillVoucherMessages> = {
  en: {
    ...sharedMessages.en,
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
    reissue: 'Issue a new bill',
    currencyRefused: (currency) =>
      html`Cash payment is available only for orders in Egyptian pounds (EGP). This order is in ${currency}; please choose another payment method.`,
    unreadable: 'This bill cannot be shown: its number or expiry date is not valid. Please contact the store.',
    billRefusedExpired: 'This bill has expired and can no longer be paid.',
  },
  ar: {
    ...sharedMessages.ar,
    title: 'الدفع نقدًا',
    intro: 'احصل على رقم فاتورة، ثم ادفعها نقدًا لدى أحد منافذ الدفع قبل انتهاء صلاحيتها.',
    issue: 'احصل على رقم الفاتورة',
    issuing: 'جارٍ إصدار فاتورتك…',
    issued: (billNumber, expiry) => `رقم فاتورتك هو ${billNumber}. ادفعها قبل ${expiry}.`,
    billNumber: 'رقم الفاتورة',
    billNumberSpoken: (groups) => groups.join(' '),
    copy: 'نسخ',
    copied: 'تم النسخ',
    copyDone: 'تم نسخ رقم الفاتورة.',
    copyFailed: 'تعذّر النسخ. حدّد رقم الفاتورة وانسخه بنفسك.',
    amount: 'المبلغ',
    partner: 'مكان الدفع',
    anyPartner: 'شريك الدفع',
    payBefore: 'ادفع قبل',
    timeLeft: 'الوقت المتبقي',
    countdown: (left, digits) => {
      if (left.days === 0) return digits;
      const count = formatCount(left.days, 'ar');
      const days = left.days === 1 ? 'يوم واحد' : left.days === 2 ? 'يومان' : left.days <= 10 ? `${count} أيام` : `${count} يومًا`;
      return html`${days}، ${digits}`;
    },
    instructionsTitle: 'طريقة الدفع',
    instructions: (partner, amount, expiry) => [
      html`توجّه إلى أحد منافذ ${partner} أو وكلائه.`,
      'أخبرهم أنك تريد دفع فاتورة وأعطهم رقم الفاتورة.',
      amount ? html`ادفع ${amount} نقدًا واحتفظ بالإيصال.` : 'ادفع المبلغ نقدًا واحتفظ بالإيصال.',
      `ادفع قبل ${expiry}. بعد ذلك تنتهي صلاحية الفاتورة ويُلغى حجز طلبك.`,
    ],
    calendar: 'أضف تذكيرًا إلى التقويم',
    print: 'طباعة',
    reminderSummary: (billNumber, partner) => `ادفع الفاتورة ${billNumber} لدى ${partner}`,
    reminderDescription: (billNumber, amount, partner, expiry) =>
      [
        `رقم الفاتورة: ${billNumber}`,
        ...(amount ? [`المبلغ: ${amount}`] : []),
        `مكان الدفع: ${partner}`,
        `ادفع قبل: ${expiry}`,
        'إذا لم تُدفع حتى ذلك الوقت يُلغى حجز طلبك.',
      ].join('\n'),
    expiredTitle: 'انتهت صلاحية هذه الفاتورة',
    expiredBody: (billNumber, expiry) =>
      html`لم تُدفع الفاتورة ${billNumber} قبل ${expiry}. أُلغي حجز طلبك ولم يعد من الممكن دفع هذه الفاتورة.`,
    expiredNow: 'انتهت صلاحية الفاتورة. أُلغي حجز طلبك.',
    reissue: 'أصدر فاتورة جديدة',
    currencyRefused: (currency) =>
      html`الدفع نقدًا متاح فقط للطلبات بالجنيه المصري (EGP). عملة هذا الطلب ${currency}؛ يُرجى اختيار طريقة دفع أخرى.`,
    unreadable: 'لا يمكن عرض هذه الفاتورة: رقمها أو تاريخ انتهائها غير صالح. يُرجى التواصل مع المتجر.',
    billRefusedExpired: 'انتهت صلاحية هذه الفاتورة ولم يعد من الممكن دفعها.',
  },
};
