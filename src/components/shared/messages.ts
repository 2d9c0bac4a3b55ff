/**
 * Messages shared by every element: request failures, the live region's common states and the
 * card form. Element catalogs spread these in and add their own keys.
 */
import { html } from 'lit';
import { formatCount } from '../../core/language.ts';
import type { Catalogs, Renderable } from './localize.ts';

export interface SharedMessages {
  readonly loading: string;
  readonly retry: string;
  readonly redirecting: string;
  readonly fixErrors: (count: number) => string;
  readonly payInFull: string;
  readonly pay: string;
  readonly payAmount: (amount: Renderable) => Renderable;
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
  };
  readonly card: {
    readonly legend: string;
    readonly number: string;
    readonly numberHint: string;
    readonly expiry: string;
    readonly expiryHint: string;
    readonly cvv: string;
    readonly cvvHint: string;
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

export const sharedMessages: Catalogs<SharedMessages> = {
  en: {
    loading: 'Loading…',
    retry: 'Try again',
    redirecting: 'Taking you to the secure payment page…',
    fixErrors: (count) => (count === 1 ? 'Please correct the highlighted field.' : `Please correct the ${count} highlighted fields.`),
    payInFull: 'Pay in full instead',
    pay: 'Pay',
    payAmount: (amount) => html`Pay ${amount}`,
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
    },
    card: {
      legend: 'Card details',
      number: 'Card number',
      numberHint: 'The long number on the front of your card',
      expiry: 'Expiry date',
      expiryHint: 'MM/YY',
      cvv: 'Security code',
      cvvHint: '3 or 4 digits on the back of your card',
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
  },
  ar: {
    loading: 'جارٍ التحميل…',
    retry: 'حاول مرة أخرى',
    redirecting: 'جارٍ تحويلك إلى صفحة الدفع الآمنة…',
    fixErrors: (count) => (count === 1 ? 'يُرجى تصحيح الحقل المحدد.' : `يُرجى تصحيح الحقول المحددة (${formatCount(count, 'ar')}).`),
    payInFull: 'ادفع المبلغ كاملًا بدلًا من ذلك',
    pay: 'ادفع',
    payAmount: (amount) => html`ادفع ${amount}`,
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
    },
    card: {
      legend: 'بيانات البطاقة',
      number: 'رقم البطاقة',
      numberHint: 'الرقم الطويل على وجه البطاقة',
      expiry: 'تاريخ الانتهاء',
      expiryHint: 'MM/YY',
      cvv: 'رمز الأمان',
      cvvHint: '٣ أو ٤ أرقام على ظهر البطاقة',
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
  },
};

/** The customer-facing text for a failed endpoint request. */
export function describeRequestError(
  error: { readonly kind: string; readonly code?: string | undefined },
  messages: SharedMessages,
): string {
  const { errors } = messages;
  switch (error.kind) {
    case 'network':
      return errors.network;
    case 'unavailable':
      return errors.unavailable;
    case 'invalid_response':
      return errors.invalidResponse;
    case 'invalid_request':
      return errors.invalidRequest;
    default:
      break;
  }
  switch (error.code) {
    case 'gateway_unreachable':
      return errors.gatewayUnreachable;
    case 'gateway_refused':
    case 'gateway_signature_invalid':
      return errors.gatewayRefused;
    case 'unknown_order':
      return errors.unknownOrder;
    case 'amount_mismatch':
    case 'currency_mismatch':
      return errors.orderChanged;
    default:
      return errors.refused;
  }
}
