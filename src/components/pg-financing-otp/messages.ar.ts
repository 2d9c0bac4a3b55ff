/** Arabic text of `<pg-financing-otp>` (loaded only by pages that show Arabic). */
import { html } from 'lit';
import { formatCount } from '../../core/language.ts';
import { sharedAr } from '../shared/messages.ar.ts';
import type { FinancingOtpMessages } from './messages.ts';

export const financingOtpAr: FinancingOtpMessages = {
  ...sharedAr,
  errors: {
    ...sharedAr.errors,
    otpResendLimited: (minutes) =>
      minutes === undefined
        ? 'تم إرسال عدد كبير من الرموز. يُرجى الانتظار قبل طلب رمز آخر.'
        : `تم إرسال عدد كبير من الرموز. يمكنك طلب رمز جديد بعد ${arabicMinutes(minutes)}.`,
    otpAttemptsLimited: 'أُدخلت رموز خاطئة كثيرة لهذا الرقم.',
  },
  title: 'الدفع بالتمويل الاستهلاكي',
  progress: (step, of) => `الخطوة ${formatCount(step, 'ar')} من ${formatCount(of, 'ar')}`,
  orderTotal: 'إجمالي الطلب',
  startOver: 'ابدأ من جديد',
  sessionExpired: 'انتهت جلسة التمويل هذه. يُرجى البدء من جديد برقم هاتفك المحمول.',
  phone: {
    intro: 'أدخل رقم الهاتف المحمول المسجّل لدى شريك التمويل. سنرسل إليك رمزًا لمرة واحدة برسالة نصية.',
    label: 'رقم الهاتف المحمول',
    // The example is isolated left to right (LRI … PDI), as phone numbers are everywhere else.
    hint: 'رقم هاتف محمول مصري، مثل \u2066٠١٠ ١٢٣٤ ٥٦٧٨\u2069',
    submit: 'أرسل لي رمزًا',
    checking: 'جارٍ التحقق من رقمك…',
    required: 'أدخل رقم هاتفك المحمول.',
    invalid: 'أدخل رقم هاتف محمول مصريًا من ١١ رقمًا يبدأ بـ ٠١٠ أو ٠١١ أو ٠١٢ أو ٠١٥.',
    notRegistered: 'هذا الرقم غير مسجّل لدى شريك التمويل. تحقّق من الرقم، أو ارجع واختر طريقة دفع أخرى.',
  },
  verified: {
    text: (phone) => html`رقمك ${phone} مسجّل لدى شريك التمويل. سنرسل الرمز إليه.`,
    send: 'أرسل الرمز',
  },
  otp: {
    sending: 'جارٍ إرسال الرمز…',
    sentTo: (phone) => html`أرسلنا رمزًا لمرة واحدة برسالة نصية إلى ${phone}.`,
    sentAnnounce: (phone, seconds) => `أرسلنا رمزًا لمرة واحدة إلى ${phone}. يمكنك طلب رمز جديد بعد ${formatCount(seconds, 'ar')} ثانية.`,
    downPayment: 'الدفعة المقدّمة',
    tenureOffer: 'الخطط المتاحة',
    label: 'الرمز لمرة واحدة',
    hint: (digits) => `الرمز المكوّن من ${formatCount(digits, 'ar')} أرقام في الرسالة النصية`,
    submit: 'تحقّق من الرمز',
    verifying: 'جارٍ التحقق من الرمز…',
    required: 'أدخل الرمز الوارد في الرسالة النصية.',
    format: (digits) => `يتكوّن الرمز من ${formatCount(digits, 'ar')} أرقام.`,
    wrong: (attemptsLeft) =>
      attemptsLeft === 1
        ? 'الرمز غير صحيح. بقيت محاولة واحدة.'
        : attemptsLeft === 2
          ? 'الرمز غير صحيح. بقيت محاولتان.'
          : `الرمز غير صحيح. بقيت ${formatCount(attemptsLeft, 'ar')} محاولات.`,
    locked: 'أدخلت رموزًا خاطئة كثيرة. تحتاج إلى رمز جديد للمتابعة.',
    resend: 'أرسل رمزًا جديدًا',
    resendIn: (time) => html`يمكنك طلب رمز جديد بعد ${time}.`,
    resendReady: 'يمكنك الآن طلب رمز جديد.',
    changePhone: 'استخدم رقمًا آخر',
  },
  tenure: {
    verifiedNote: 'تم التحقق من الرمز. اختر عدد أشهر السداد.',
    caption: 'خطط التمويل',
    plan: 'الخطة',
    emi: 'القسط الشهري',
    rate: 'نسبة الفائدة',
    ratePercent: (rate) => `${formatCount(rate, 'ar')}٪`,
    total: 'الإجمالي المستحق',
    required: 'اختر خطة.',
    confirm: 'تأكيد الشراء',
    confirming: 'جارٍ إتمام الشراء…',
    declinedHint: 'جرّب خطة أخرى، أو تواصل مع شريك التمويل.',
  },
  done: {
    success: 'تمت عملية الشراء.',
    pending: 'عملية الشراء قيد المعالجة. سيؤكدها المتجر قريبًا.',
    plan: 'الخطة',
    reference: 'المرجع',
  },
};

/** "دقيقة واحدة", "دقيقتين", "٥ دقائق", "١٥ دقيقة": the Arabic count form of minutes. */
function arabicMinutes(minutes: number): string {
  if (minutes === 1) return 'دقيقة واحدة';
  if (minutes === 2) return 'دقيقتين';
  return minutes <= 10 ? `${formatCount(minutes, 'ar')} دقائق` : `${formatCount(minutes, 'ar')} دقيقة`;
}
