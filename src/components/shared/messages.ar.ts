/** Arabic text shared by every element (loaded only by pages that show Arabic). */
import { html } from 'lit';
import { formatCount } from '../../core/language.ts';
import { LOADING_TEXT, type SharedMessages } from './messages.ts';

export const sharedAr: SharedMessages = {
  loading: LOADING_TEXT.ar.loading,
  retry: LOADING_TEXT.ar.retry,
  redirecting: 'جارٍ تحويلك إلى صفحة الدفع الآمنة…',
  processing: 'جارٍ المعالجة…',
  fixErrors: (count) => (count === 1 ? 'يُرجى تصحيح الحقل المحدد.' : `يُرجى تصحيح الحقول المحددة (${formatCount(count, 'ar')}).`),
  pay: 'ادفع',
  payAmount: (amount) => html`ادفع ${amount}`,
  // "شهر واحد", "شهران", "٦ أشهر", "١٢ شهرًا": the counted noun in the form Arabic grammar gives the number.
  months: (count) =>
    count === 1 ? 'شهر واحد' : count === 2 ? 'شهران' : count <= 10 ? `${formatCount(count, 'ar')} أشهر` : `${formatCount(count, 'ar')} شهرًا`,
  errors: {
    network: 'تعذّر الوصول إلى خدمة الدفع. تحقّق من اتصالك وحاول مرة أخرى.',
    unavailable: 'خدمة الدفع غير متاحة الآن. يُرجى المحاولة بعد قليل.',
    invalidResponse: 'أرسلت خدمة الدفع ردًا تعذّرت قراءته. يُرجى المحاولة مرة أخرى.',
    invalidRequest: 'نموذج الدفع هذا غير مُعدّ بشكل صحيح. يُرجى التواصل مع المتجر.',
    gatewayUnreachable: 'بوابة الدفع لا تستجيب. لم يتم خصم أي مبلغ؛ يُرجى المحاولة مرة أخرى.',
    gatewayRefused: 'رفضت بوابة الدفع الطلب. لم يتم خصم أي مبلغ؛ يُرجى المحاولة مرة أخرى.',
    unknownOrder: 'تعذّر العثور على هذا الطلب. يُرجى العودة إلى المتجر والمحاولة مرة أخرى.',
    orderChanged: 'تغيّر هذا الطلب. يُرجى إعادة تحميل الصفحة.',
    refused: 'تعذّر على المتجر بدء عملية الدفع. يُرجى المحاولة مرة أخرى.',
    orderAlreadyPaid: 'تم دفع هذا الطلب بالفعل. لا يوجد مبلغ آخر للدفع.',
    orderInProgress:
      'توجد عملية دفع جارية لهذا الطلب (فاتورة بانتظار الدفع أو تحقق من البطاقة). أكملها، أو حاول مرة أخرى بعد بضع دقائق.',
    otpResendLimited: (minutes) =>
      minutes === undefined
        ? 'تم إرسال عدد كبير من الرموز. يُرجى الانتظار قبل طلب رمز آخر.'
        : `تم إرسال عدد كبير من الرموز. يمكنك طلب رمز جديد بعد ${arabicMinutes(minutes)}.`,
    cardAttemptsLimited: 'جُرّبت بطاقات كثيرة لهذا الطلب. لم يتم خصم أي مبلغ؛ يُرجى المحاولة لاحقًا.',
    serviceNotConfigured: 'طريقة الدفع هذه غير متاحة في هذا المتجر. يُرجى اختيار طريقة أخرى.',
    currencyNotSupported: 'طريقة الدفع هذه غير متاحة بعملة الطلب. يُرجى اختيار طريقة أخرى.',
    requestUnreadable: 'تعذّر على خدمة الدفع في المتجر قراءة هذا الطلب. يُرجى إعادة تحميل الصفحة والمحاولة مرة أخرى.',
    sessionExpired: 'انتهت صلاحية هذه الجلسة. يُرجى البدء من جديد.',
    stepOutOfOrder: 'يُرجى إكمال الخطوة السابقة أولًا.',
    gatewayAnswerInvalid: 'أرسلت بوابة الدفع ردًا لا يمكن استخدامه. لم يتم خصم أي مبلغ؛ يُرجى المحاولة لاحقًا.',
    gatewaySignatureInvalid: 'تعذّر التحقق من رد بوابة الدفع. لم يتم خصم أي مبلغ؛ يُرجى المحاولة مرة أخرى.',
    internalError: 'حدث خطأ لدى المتجر. يُرجى المحاولة مرة أخرى.',
  },
  framed: {
    frameTitle: 'بيانات البطاقة، على الصفحة الآمنة لبوابة الدفع',
    processingFrameTitle: 'الدفع قيد المعالجة',
    challengeTitle: 'أكّد الدفع مع البنك',
    challengeText: 'يطلب البنك تأكيد عملية الدفع هذه. اتبع الخطوات أدناه.',
    challengeFrameTitle: 'تحقق البنك من البطاقة',
    close: 'إغلاق',
    loadingPage: 'جارٍ تحميل صفحة البطاقة الآمنة…',
    processing: 'جارٍ معالجة الدفع…',
    cancelled: 'أُغلقت نافذة تحقق البنك، فلم تكتمل عملية الدفع.',
    timeout: 'يستغرق الدفع وقتًا أطول من المتوقع. يُرجى التحقق من طلبك قبل المحاولة مرة أخرى.',
  },
  card: {
    legend: 'بيانات البطاقة',
    number: 'رقم البطاقة',
    numberHint: 'الرقم الطويل على وجه البطاقة',
    expiry: 'تاريخ الانتهاء',
    expiryHint: 'MM/YY',
    cvv: 'رمز الأمان',
    cvvHint: '٣ أو ٤ أرقام على ظهر البطاقة',
    cvvOptional: 'اختياري',
    holder: 'الاسم على البطاقة',
    rememberMe: 'تذكّر هذه البطاقة للمرة القادمة',
    brand: (brand) => `نوع البطاقة: ${brand}`,
    numberRequired: 'أدخل رقم البطاقة.',
    numberInvalid: 'رقم البطاقة غير صحيح. تحقّق منه وحاول مرة أخرى.',
    numberIncomplete: 'رقم البطاقة قصير جدًا.',
    expiryRequired: 'أدخل تاريخ الانتهاء.',
    expiryInvalid: 'أدخل تاريخ الانتهاء بالصيغة MM/YY.',
    expiryPast: 'انتهت صلاحية هذه البطاقة.',
    cvvRequired: 'أدخل رمز الأمان.',
    cvvInvalid: 'عدد أرقام رمز الأمان غير صحيح.',
    holderRequired: 'أدخل الاسم كما هو على البطاقة.',
    holderInvalid: 'استخدم الحروف والمسافات والنقاط والشرطات والفواصل العليا فقط.',
  },
};

/** "دقيقة واحدة", "دقيقتين", "٥ دقائق", "١٥ دقيقة": the Arabic count form of minutes. */
function arabicMinutes(minutes: number): string {
  if (minutes === 1) return 'دقيقة واحدة';
  if (minutes === 2) return 'دقيقتين';
  return minutes <= 10 ? `${formatCount(minutes, 'ar')} دقائق` : `${formatCount(minutes, 'ar')} دقيقة`;
}
