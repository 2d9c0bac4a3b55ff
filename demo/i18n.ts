/** The demo shop's own words in both languages (the elements carry their own catalogs). */
import type { Language } from '../src/core/language.ts';

const en = {
  brand: 'Nile Gadgets',
  language: 'Language',
  theme: 'Theme',
  themeDefault: 'Default',
  themeDark: 'Dark',
  themeBackOffice: 'Back-office theme',
  merchantPanel: 'Merchant panel',
  cart: 'Your cart',
  total: 'Order total',
  checkout: 'Go to checkout',
  payment: 'Payment',
  order: 'Order',
  cardMode: 'Card payments',
  cardRedirect: 'On the gateway’s page',
  cardMerchantPage: 'On this page',
  cardEmbedded: 'On this page, typed on the gateway’s page',
  intent: 'What to do',
  intentPay: 'Pay now',
  intentSaveCard: 'Save my card, pay later',
  card_saved: 'Card saved: nothing was charged',
  card_not_saved: 'Card not saved',
  savedCard: 'Saved card',
  quantity: 'Quantity',
  remove: 'Remove',
  emptyCart: 'Your cart is empty.',
  orderFailed: 'The order could not be created. Try again.',
  resultTitle: 'Payment result',
  outcome_success: 'Payment successful',
  outcome_pending: 'Payment pending',
  outcome_failure: 'Payment not completed',
  verified: 'Gateway response, signature verified by the merchant endpoint',
  notVerified: 'No verified gateway response for this order yet.',
  orderNotShown: 'This order cannot be shown here: open it in the browser you ordered in.',
  statusTitle: 'Order status (CHECK_STATUS)',
  backToShop: 'Back to the shop',
  billNumber: 'Bill number',
  ordersTitle: 'Orders',
  reference: 'Reference',
  amount: 'Amount',
  // The result the customer was shown at checkout; the order's state since is the lifecycle's.
  result: 'At checkout',
  status: 'Status',
  actions: 'Actions',
  payBill: 'Customer pays the bill',
  none: '—',
  noPayment: 'No payment yet',
  bill_awaiting: 'Cash bill issued: waiting for the customer to pay it',
  bill_paid: 'Cash bill paid',
  bill_expired: 'Cash bill expired unpaid',
  newOrder: 'Start a new order',
  chargeNow: 'Charge now',
  chargeLater: 'Hold the amount; capture it from the merchant panel',
  lifecycle: 'Lifecycle',
  state_authorized: 'Authorized',
  state_captured: 'Captured',
  state_partially_refunded: 'Partly refunded',
  state_refunded: 'Refunded',
  state_voided: 'Voided',
  state_failed: 'Failed',
  state_pending: 'Pending',
  state_not_found: 'Not at the gateway',
  state_unknown: 'Unknown',
  authorized: 'Authorized',
  captured: 'Captured',
  refunded: 'Refunded',
  lastOperation: 'Last operation',
  operations: 'Operations',
  op_payment: 'Payment',
  op_capture: 'Capture',
  op_refund: 'Refund',
  op_void: 'Void',
  amountToMove: 'Amount',
  amountHint: 'Empty: the rest',
  capture: 'Capture',
  refund: 'Refund',
  void: 'Void',
  refresh: 'Refresh status',
  working: 'Asking the gateway…',
  outcomeOf_success: 'Done',
  outcomeOf_pending: 'Pending',
  outcomeOf_declined: 'Declined',
  outcomeOf_refused: 'Refused',
  outcomeOf_not_activated: 'Service not activated',
  outcomeOf_unknown: 'Outcome unknown: check the order before trying again',
  reportTitle: 'Report of today’s operations',
  reportFormat: 'File format',
  downloadReport: 'Download the report',
  // Issue 24: the storefront's controls and the merchant panel's order states.
  chargeWhen: 'When the card is charged',
  state_partially_captured: 'Partly captured',
  leftToCapture: 'Left to capture',
  notCapturable: 'Authorized, not captured',
  uncapturable_refunded: 'A refunded order cannot be captured or voided.',
} as const;

export type DemoMessages = Record<keyof typeof en, string>;

const ar: DemoMessages = {
  brand: 'نايل جادجتس',
  language: 'اللغة',
  theme: 'المظهر',
  themeDefault: 'افتراضي',
  themeDark: 'داكن',
  themeBackOffice: 'مظهر لوحة التحكم',
  merchantPanel: 'لوحة التاجر',
  cart: 'سلة التسوق',
  total: 'إجمالي الطلب',
  checkout: 'المتابعة إلى الدفع',
  payment: 'الدفع',
  order: 'الطلب',
  cardMode: 'الدفع بالبطاقة',
  cardRedirect: 'على صفحة بوابة الدفع',
  cardMerchantPage: 'على هذه الصفحة',
  cardEmbedded: 'على هذه الصفحة، تُكتب في صفحة بوابة الدفع',
  intent: 'ماذا تريد',
  intentPay: 'الدفع الآن',
  intentSaveCard: 'حفظ بطاقتي والدفع لاحقًا',
  card_saved: 'تم حفظ البطاقة: لم يتم خصم أي مبلغ',
  card_not_saved: 'لم تُحفظ البطاقة',
  savedCard: 'البطاقة المحفوظة',
  quantity: 'الكمية',
  remove: 'إزالة',
  emptyCart: 'سلة التسوق فارغة.',
  orderFailed: 'تعذر إنشاء الطلب. حاول مرة أخرى.',
  resultTitle: 'نتيجة الدفع',
  outcome_success: 'تم الدفع بنجاح',
  outcome_pending: 'الدفع قيد الانتظار',
  outcome_failure: 'لم يكتمل الدفع',
  verified: 'رد بوابة الدفع، وقد تحقق الخادم من توقيعه',
  notVerified: 'لا يوجد رد موثق من بوابة الدفع لهذا الطلب بعد.',
  orderNotShown: 'لا يمكن عرض هذا الطلب هنا: افتحه في المتصفح الذي طلبت منه.',
  statusTitle: 'حالة الطلب (CHECK_STATUS)',
  backToShop: 'العودة إلى المتجر',
  billNumber: 'رقم الفاتورة',
  ordersTitle: 'الطلبات',
  reference: 'المرجع',
  amount: 'المبلغ',
  result: 'عند الدفع',
  status: 'الحالة',
  actions: 'إجراءات',
  payBill: 'العميل يدفع الفاتورة',
  none: '—',
  noPayment: 'لم يُدفع بعد',
  bill_awaiting: 'تم إصدار فاتورة الدفع النقدي: في انتظار دفع العميل لها',
  bill_paid: 'تم دفع فاتورة الدفع النقدي',
  bill_expired: 'انتهت صلاحية فاتورة الدفع النقدي دون دفعها',
  newOrder: 'بدء طلب جديد',
  chargeNow: 'الخصم الآن',
  chargeLater: 'حجز المبلغ وتحصيله من لوحة التاجر',
  lifecycle: 'مراحل الطلب',
  state_authorized: 'مصرح به',
  state_captured: 'محصل',
  state_partially_refunded: 'مسترد جزئيًا',
  state_refunded: 'مسترد',
  state_voided: 'ملغى',
  state_failed: 'فشل',
  state_pending: 'قيد الانتظار',
  state_not_found: 'غير موجود لدى البوابة',
  state_unknown: 'غير معروف',
  authorized: 'المصرح به',
  captured: 'المحصل',
  refunded: 'المسترد',
  lastOperation: 'آخر عملية',
  operations: 'العمليات',
  op_payment: 'الدفع',
  op_capture: 'تحصيل',
  op_refund: 'استرداد',
  op_void: 'إلغاء',
  amountToMove: 'المبلغ',
  amountHint: 'فارغ: المبلغ المتبقي',
  capture: 'تحصيل',
  refund: 'استرداد',
  void: 'إلغاء التفويض',
  refresh: 'تحديث الحالة',
  working: 'جارٍ سؤال بوابة الدفع…',
  outcomeOf_success: 'تم',
  outcomeOf_pending: 'قيد الانتظار',
  outcomeOf_declined: 'مرفوض من المصدر',
  outcomeOf_refused: 'مرفوض',
  outcomeOf_not_activated: 'الخدمة غير مفعلة',
  outcomeOf_unknown: 'النتيجة غير معروفة: تحقق من الطلب قبل المحاولة مرة أخرى',
  reportTitle: 'تقرير عمليات اليوم',
  reportFormat: 'صيغة الملف',
  downloadReport: 'تنزيل التقرير',
  // Issue 24: the storefront's controls and the merchant panel's order states.
  chargeWhen: 'متى يُخصم المبلغ من البطاقة',
  state_partially_captured: 'محصل جزئيًا',
  leftToCapture: 'المتبقي للتحصيل',
  notCapturable: 'مصرح به ولم يُحصَّل',
  uncapturable_refunded: 'لا يمكن تحصيل أو إلغاء طلب تم استرداده.',
};

export const MESSAGES: Record<Language, DemoMessages> = { en, ar };

const LANGUAGE_KEY = 'pg-demo-language';
const THEME_KEY = 'pg-demo-theme';

export type DemoTheme = 'default' | 'dark' | 'back-office';

export function storedLanguage(): Language {
  const fromQuery = new URLSearchParams(location.search).get('lang');
  const value = fromQuery ?? localStorage.getItem(LANGUAGE_KEY);
  return value === 'ar' ? 'ar' : 'en';
}

export function storedTheme(): DemoTheme {
  const value = localStorage.getItem(THEME_KEY);
  return value === 'dark' || value === 'back-office' ? value : 'default';
}

/** Applies language and theme to the page: lang/dir, the words, the theme stylesheet. */
export function applyPageSettings(language: Language, theme: DemoTheme): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  localStorage.setItem(THEME_KEY, theme);
  document.documentElement.lang = language;
  document.documentElement.dir = language === 'ar' ? 'rtl' : 'ltr';
  document.documentElement.dataset.theme = theme;
  for (const element of document.querySelectorAll<HTMLElement>('[data-i18n]')) {
    const key = element.dataset.i18n as keyof DemoMessages;
    if (key in MESSAGES[language]) element.textContent = MESSAGES[language][key];
  }
  const link = document.querySelector<HTMLLinkElement>('#page-theme');
  if (link) link.href = theme === 'dark' ? '/themes/dark.css' : '/themes/default.css';
  const languageSwitch = document.querySelector<HTMLSelectElement>('#language-switch');
  if (languageSwitch) languageSwitch.value = language;
  const themeSwitch = document.querySelector<HTMLSelectElement>('#theme-switch');
  if (themeSwitch) themeSwitch.value = theme;
}

/** The stylesheet given to the elements' `theme-href`: the example back-office theme, or none. */
export function elementThemeHref(theme: DemoTheme): string {
  return theme === 'back-office' ? '/themes/back-office-example.css' : '';
}
