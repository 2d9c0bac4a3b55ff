/** The words of the sandbox's pages, in the two languages of the gateway (spec: `language`, en or ar). */
import { formatCount, type Language } from '../core/language.ts';
import type { CardOutcome } from './test-cards.ts';

export interface PageText {
  readonly paymentTitle: string;
  readonly tokenizationTitle: string;
  /** A TOKENIZATION page that does not keep the card (its token pays the merchant's payment next). */
  readonly cardTitle: string;
  readonly planTitle: string;
  readonly sandboxNotice: string;
  readonly order: string;
  readonly amount: string;
  readonly card: string;
  readonly cardNumber: string;
  readonly cardNumberHint: string;
  readonly expiryDate: string;
  readonly expiryHint: string;
  readonly securityCode: string;
  readonly securityCodeHint: string;
  /** The security code of an account with CVV suppression: it may be left empty. */
  readonly securityCodeOptional: string;
  readonly securityCodeOptionalHint: string;
  readonly holderName: string;
  readonly plan: string;
  readonly payInFull: string;
  readonly planOption: (months: number, monthly: string) => string;
  readonly noPlans: string;
  readonly pay: (amount: string) => string;
  readonly saveCard: string;
  readonly submitCard: string;
  readonly confirmPlan: string;
  readonly errorSummary: string;
  readonly errors: {
    readonly cardNumberRequired: string;
    readonly cardNumberInvalid: string;
    readonly expiryRequired: string;
    readonly expiryInvalid: string;
    readonly expiryPast: string;
    readonly securityCodeRequired: string;
    readonly securityCodeInvalid: string;
    readonly holderNameTooLong: string;
    readonly planUnknown: string;
    readonly planNoIssuer: string;
    readonly planOtherIssuer: (issuer: string) => string;
  };
  readonly challengeTitle: string;
  readonly challengeText: string;
  readonly approve: string;
  readonly fail: string;
  readonly returningTitle: string;
  readonly returningText: string;
  readonly continue: string;
  readonly resultTitle: string;
  readonly resultText: string;
  readonly expiredTitle: string;
  readonly expiredText: string;
  readonly refusedTitle: string;
  /** Leaves the page: the merchant hears of a payment the customer cancelled. */
  readonly backToShop: string;
  readonly testCardsTitle: string;
  readonly testCardsIntro: string;
  readonly testCardNumber: string;
  readonly testCardEffect: string;
  /** What each test card does, in the page's language. */
  readonly testCardOutcomes: Readonly<Record<CardOutcome, string>>;
}

/** "شهر واحد", "شهران", "٦ أشهر", "١٢ شهرًا": the counted noun in the form Arabic grammar gives the number. */
function arabicMonths(count: number): string {
  if (count === 1) return 'شهر واحد';
  if (count === 2) return 'شهران';
  return count <= 10 ? `${formatCount(count, 'ar')} أشهر` : `${formatCount(count, 'ar')} شهرًا`;
}

export const PAGE_TEXT: Record<Language, PageText> = {
  en: {
    paymentTitle: 'Pay by card',
    tokenizationTitle: 'Save your card',
    cardTitle: 'Enter your card',
    planTitle: 'Choose your installment plan',
    sandboxNotice: 'Sandbox gateway: use a test card. No money moves.',
    order: 'Order',
    amount: 'Amount',
    card: 'Card',
    cardNumber: 'Card number',
    cardNumberHint: '13 to 19 digits, as printed on the card.',
    expiryDate: 'Expiry date',
    expiryHint: 'Month and year, MM/YY.',
    securityCode: 'Security code',
    securityCodeHint: 'The 3 digits on the back of the card.',
    securityCodeOptional: 'Security code (optional)',
    securityCodeOptionalHint: 'You may leave it empty. Otherwise, the 3 digits on the back of the card.',
    holderName: 'Name on card',
    plan: 'Installment plan',
    payInFull: 'Pay in full, no installments',
    planOption: (months, monthly) => `${months} months, ${monthly} a month`,
    noPlans: 'No installment plan is available for this amount.',
    pay: (amount) => `Pay ${amount}`,
    saveCard: 'Save card',
    submitCard: 'Continue',
    confirmPlan: 'Confirm',
    errorSummary: 'Please correct the following:',
    errors: {
      cardNumberRequired: 'Enter the card number.',
      cardNumberInvalid: 'This card number is not valid. Check the digits.',
      expiryRequired: 'Enter the expiry date.',
      expiryInvalid: 'Enter the expiry date as MM/YY, for example 08/29.',
      expiryPast: 'This card has expired.',
      securityCodeRequired: 'Enter the security code.',
      securityCodeInvalid: 'The security code is 3 or 4 digits.',
      holderNameTooLong: 'The name on the card is at most 50 characters.',
      planUnknown: 'Choose one of the plans offered.',
      planNoIssuer: 'Installments are not available for this card. Choose to pay in full or use another card.',
      planOtherIssuer: (issuer) => `This card is not issued by ${issuer}. Choose a plan of the card's bank.`,
    },
    challengeTitle: '3-D Secure check',
    challengeText: 'Your bank asks you to confirm this payment. In the sandbox, choose the outcome.',
    approve: 'Approve',
    fail: 'Fail authentication',
    returningTitle: 'Returning to the merchant',
    returningText: 'If the merchant’s page does not open by itself, select Continue.',
    continue: 'Continue',
    resultTitle: 'Result',
    resultText: 'This request named no return address, so the answer is shown here.',
    expiredTitle: 'This page has expired',
    expiredText: 'Start again from the merchant’s site.',
    refusedTitle: 'The request was refused',
    backToShop: 'Back to the shop',
    testCardsTitle: 'Test cards',
    testCardsIntro: 'Any future expiry date, any 3-digit security code and any name work.',
    testCardNumber: 'Card number',
    testCardEffect: 'What it does',
    testCardOutcomes: {
      success: 'Approved',
      decline: 'Declined by the bank',
      insufficient_funds: 'Insufficient funds',
      invalid_card: 'Invalid card',
      '3ds': '3-D Secure: you choose approve or fail',
      '3ds_md_pares': '3-D Secure (second processor type)',
      '3ds_fails': '3-D Secure: authentication fails',
      '3ds_not_enrolled': 'Not enrolled in 3-D Secure: approved',
    },
  },
  ar: {
    paymentTitle: 'الدفع بالبطاقة',
    tokenizationTitle: 'حفظ بطاقتك',
    cardTitle: 'أدخل بطاقتك',
    planTitle: 'اختر خطة التقسيط',
    sandboxNotice: 'بوابة تجريبية: استخدم بطاقة اختبار. لا تتم أي عملية مالية حقيقية.',
    order: 'الطلب',
    amount: 'المبلغ',
    card: 'البطاقة',
    cardNumber: 'رقم البطاقة',
    cardNumberHint: 'من ١٣ إلى ١٩ رقمًا كما هو مطبوع على البطاقة.',
    expiryDate: 'تاريخ الانتهاء',
    expiryHint: 'الشهر والسنة بالصيغة MM/YY.',
    securityCode: 'رمز الأمان',
    securityCodeHint: 'الأرقام الثلاثة على ظهر البطاقة.',
    securityCodeOptional: 'رمز الأمان (اختياري)',
    securityCodeOptionalHint: 'يمكنك تركه فارغًا، وإلا فأدخل الأرقام الثلاثة على ظهر البطاقة.',
    holderName: 'الاسم على البطاقة',
    plan: 'خطة التقسيط',
    payInFull: 'الدفع كاملًا دون تقسيط',
    planOption: (months, monthly) => `${arabicMonths(months)}، ${monthly} شهريًا`,
    noPlans: 'لا توجد خطة تقسيط متاحة لهذا المبلغ.',
    pay: (amount) => `ادفع ${amount}`,
    saveCard: 'حفظ البطاقة',
    submitCard: 'متابعة',
    confirmPlan: 'تأكيد',
    errorSummary: 'يرجى تصحيح ما يلي:',
    errors: {
      cardNumberRequired: 'أدخل رقم البطاقة.',
      cardNumberInvalid: 'رقم البطاقة غير صالح. تحقق من الأرقام.',
      expiryRequired: 'أدخل تاريخ الانتهاء.',
      expiryInvalid: 'أدخل تاريخ الانتهاء بالصيغة MM/YY، مثل ٠٨/٢٩.',
      expiryPast: 'انتهت صلاحية هذه البطاقة.',
      securityCodeRequired: 'أدخل رمز الأمان.',
      securityCodeInvalid: 'رمز الأمان من ٣ أو ٤ أرقام.',
      holderNameTooLong: 'الاسم على البطاقة ٥٠ حرفًا على الأكثر.',
      planUnknown: 'اختر إحدى الخطط المعروضة.',
      planNoIssuer: 'التقسيط غير متاح لهذه البطاقة. اختر الدفع كاملًا أو استخدم بطاقة أخرى.',
      planOtherIssuer: (issuer) => `هذه البطاقة ليست صادرة عن ${issuer}. اختر خطة من بنك البطاقة.`,
    },
    challengeTitle: 'التحقق ثلاثي الأبعاد',
    challengeText: 'يطلب منك البنك تأكيد هذه العملية. في البيئة التجريبية اختر النتيجة.',
    approve: 'موافقة',
    fail: 'فشل التحقق',
    returningTitle: 'العودة إلى التاجر',
    returningText: 'إذا لم تفتح صفحة التاجر تلقائيًا، اختر متابعة.',
    continue: 'متابعة',
    resultTitle: 'النتيجة',
    resultText: 'لم يحدد هذا الطلب عنوانًا للعودة، لذا تظهر الإجابة هنا.',
    expiredTitle: 'انتهت صلاحية هذه الصفحة',
    expiredText: 'ابدأ من جديد من موقع التاجر.',
    refusedTitle: 'تم رفض الطلب',
    backToShop: 'العودة إلى المتجر',
    testCardsTitle: 'بطاقات الاختبار',
    testCardsIntro: 'يصلح أي تاريخ انتهاء مستقبلي وأي رمز أمان من ٣ أرقام وأي اسم.',
    testCardNumber: 'رقم البطاقة',
    testCardEffect: 'ماذا تفعل',
    testCardOutcomes: {
      success: 'تتم الموافقة',
      decline: 'يرفضها البنك',
      insufficient_funds: 'الرصيد غير كافٍ',
      invalid_card: 'بطاقة غير صالحة',
      '3ds': 'التحقق ثلاثي الأبعاد: تختار الموافقة أو الفشل',
      '3ds_md_pares': 'التحقق ثلاثي الأبعاد (النوع الثاني من المعالجات)',
      '3ds_fails': 'التحقق ثلاثي الأبعاد: يفشل التحقق',
      '3ds_not_enrolled': 'غير مسجلة في التحقق ثلاثي الأبعاد: تتم الموافقة',
    },
  },
};
