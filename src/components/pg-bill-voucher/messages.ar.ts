/** Arabic text of `<pg-bill-voucher>` (loaded only by pages that show Arabic). */
import { html } from 'lit';
import { formatCount } from '../../core/language.ts';
import { sharedAr } from '../shared/messages.ar.ts';
import type { BillVoucherMessages } from './messages.ts';

export const billVoucherAr: BillVoucherMessages = {
  ...sharedAr,
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
  anyPartner: 'منافذ الدفع',
  payBefore: 'ادفع قبل',
  timeLeft: 'الوقت المتبقي',
  countdown: (left, digits) => {
    if (left.days === 0) return digits;
    const count = formatCount(left.days, 'ar');
    const days = left.days === 1 ? 'يوم واحد' : left.days === 2 ? 'يومان' : left.days <= 10 ? `${count} أيام` : `${count} يومًا`;
    return html`${days}، ${digits}`;
  },
  instructionsTitle: 'كيفية الدفع',
  instructions: (partner, amount, expiry) => [
    html`توجّه إلى ${partner} أو أحد وكلائها.`,
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
  checking: 'جارٍ التحقق من دفع الفاتورة…',
  paidTitle: 'تم دفع هذه الفاتورة',
  paidBody: (billNumber) => html`تم دفع الفاتورة ${billNumber}. شكرًا لك: طلبك مدفوع.`,
  paidElsewhereTitle: 'تم دفع طلبك',
  paidElsewhereBody: (billNumber) => html`دُفع الطلب بطريقة أخرى. انتهت صلاحية الفاتورة ${billNumber} دون دفع، ولا يُستحق عليها شيء.`,
  unconfirmedTitle: 'لم يتأكّد الدفع بعد',
  unconfirmed: 'تعذّر التحقق مما إذا كانت هذه الفاتورة قد دُفعت. إذا كنت قد دفعتها فاحتفظ بالإيصال.',
  reissue: 'أصدر فاتورة جديدة',
  currencyRefused: (currency) =>
    html`الدفع نقدًا متاح فقط للطلبات بالجنيه المصري (EGP). عملة هذا الطلب ${currency}؛ يُرجى اختيار طريقة دفع أخرى.`,
  unreadable: 'لا يمكن عرض هذه الفاتورة: رقمها أو تاريخ انتهائها غير صالح. يُرجى التواصل مع المتجر.',
  billRefusedExpired: 'انتهت صلاحية هذه الفاتورة ولم يعد من الممكن دفعها.',
};
