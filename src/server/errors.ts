/**
 * Every refusal of the merchant endpoint: a stable code (endpoint-api.ts `EndpointErrorCode`),
 * the HTTP status that goes with it, the field at fault when there is one, and a message in the
 * request's language. Route code throws an `EndpointRefusal`; the endpoint turns it into
 * `{ error: { code, message, field? } }`.
 */
import type { EndpointError, EndpointErrorCode } from '../core/endpoint-api.ts';
import type { Language } from '../core/language.ts';
import type { FailureKind } from '../gateway/transport.ts';

/** The HTTP status of each code: 4xx for what the browser sent, 5xx when the gateway failed us. */
export const ERROR_STATUS: Readonly<Record<EndpointErrorCode, number>> = {
  invalid_request: 400,
  invalid_json: 400,
  json_too_deep: 400,
  unsupported_media_type: 415,
  body_too_large: 413,
  unknown_order: 404,
  amount_mismatch: 409,
  currency_mismatch: 409,
  order_already_paid: 409,
  order_in_progress: 409,
  card_data_refused: 400,
  command_refused: 403,
  origin_refused: 403,
  not_found: 404,
  method_not_allowed: 405,
  currency_not_supported: 422,
  service_not_configured: 501,
  flow_invalid: 400,
  step_out_of_order: 409,
  otp_resend_limited: 429,
  otp_attempts_limited: 429,
  card_attempts_limited: 429,
  gateway_refused: 422,
  gateway_unreachable: 502,
  gateway_signature_invalid: 502,
  gateway_answer_invalid: 502,
  order_lookup_failed: 502,
  hook_signature_invalid: 401,
  unknown_result: 404,
  card_not_saved: 422,
  card_not_ready: 400,
  store_unavailable: 503,
  internal_error: 500,
};

/** `Retry-After` of a `store_unavailable` answer, in seconds: a lost connection or a busy database is usually back within it. */
export const STORE_RETRY_AFTER_SECONDS = 30;

/** The message of each code, in both languages the gateway speaks. */
export const ERROR_MESSAGES: Readonly<Record<EndpointErrorCode, Readonly<Record<Language, string>>>> = {
  invalid_request: {
    en: 'The request is not valid.',
    ar: 'الطلب غير صالح.',
  },
  invalid_json: {
    en: 'The request body must be a JSON object.',
    ar: 'يجب أن يكون محتوى الطلب كائن JSON.',
  },
  json_too_deep: {
    en: 'The request body is nested too deeply.',
    ar: 'محتوى الطلب متداخل بعمق أكبر من المسموح.',
  },
  unsupported_media_type: {
    en: 'The request body must be sent as application/json.',
    ar: 'يجب إرسال محتوى الطلب بصيغة application/json.',
  },
  body_too_large: {
    en: 'The request body is too large.',
    ar: 'محتوى الطلب أكبر من المسموح.',
  },
  unknown_order: {
    en: 'This order is not known to the merchant.',
    ar: 'هذا الطلب غير معروف لدى التاجر.',
  },
  amount_mismatch: {
    en: 'The amount does not match the order.',
    ar: 'المبلغ لا يطابق الطلب.',
  },
  currency_mismatch: {
    en: 'The currency does not match the order.',
    ar: 'العملة لا تطابق الطلب.',
  },
  order_already_paid: {
    en: 'This order has already been paid.',
    ar: 'تم دفع هذا الطلب بالفعل.',
  },
  order_in_progress: {
    en: 'A payment for this order is already under way (for example a bill waiting to be paid); please complete it first.',
    ar: 'توجد عملية دفع جارية لهذا الطلب (مثل فاتورة بانتظار الدفع)؛ يرجى إكمالها أولًا.',
  },
  card_data_refused: {
    en: 'Card details must be sent to the payment gateway only, never to the merchant.',
    ar: 'يجب إرسال بيانات البطاقة إلى بوابة الدفع فقط وليس إلى التاجر.',
  },
  command_refused: {
    en: 'This operation cannot be requested from the browser.',
    ar: 'لا يمكن طلب هذه العملية من المتصفح.',
  },
  origin_refused: {
    en: 'Requests from this site are not allowed.',
    ar: 'الطلبات من هذا الموقع غير مسموح بها.',
  },
  not_found: {
    en: 'There is nothing at this address.',
    ar: 'لا يوجد شيء على هذا العنوان.',
  },
  method_not_allowed: {
    en: 'This method is not allowed here.',
    ar: 'هذه الطريقة غير مسموح بها هنا.',
  },
  currency_not_supported: {
    en: 'This payment method is not available in the order currency.',
    ar: 'طريقة الدفع هذه غير متاحة بعملة الطلب.',
  },
  service_not_configured: {
    en: 'This payment method is not set up by the merchant.',
    ar: 'لم يقم التاجر بإعداد طريقة الدفع هذه.',
  },
  flow_invalid: {
    en: 'This financing session is not valid or has expired; please start again.',
    ar: 'جلسة التمويل غير صالحة أو منتهية؛ يرجى البدء من جديد.',
  },
  step_out_of_order: {
    en: 'Please complete the previous financing step first.',
    ar: 'يرجى إكمال خطوة التمويل السابقة أولًا.',
  },
  otp_resend_limited: {
    en: 'Too many codes have been sent; please wait before asking for another.',
    ar: 'تم إرسال عدد كبير من الرموز؛ يرجى الانتظار قبل طلب رمز آخر.',
  },
  otp_attempts_limited: {
    en: 'Too many wrong codes have been entered; please ask for a new code.',
    ar: 'أُدخلت رموز خاطئة كثيرة؛ يرجى طلب رمز جديد.',
  },
  card_attempts_limited: {
    en: 'Too many cards have been tried for this order; please wait before trying again.',
    ar: 'جُرّبت بطاقات كثيرة لهذا الطلب؛ يرجى الانتظار قبل المحاولة مرة أخرى.',
  },
  gateway_refused: {
    en: 'The payment gateway refused the request.',
    ar: 'رفضت بوابة الدفع الطلب.',
  },
  gateway_unreachable: {
    en: 'The payment gateway could not be reached; please try again.',
    ar: 'تعذر الوصول إلى بوابة الدفع؛ يرجى المحاولة مرة أخرى.',
  },
  gateway_signature_invalid: {
    en: 'The payment gateway answer could not be verified.',
    ar: 'تعذر التحقق من رد بوابة الدفع.',
  },
  gateway_answer_invalid: {
    en: 'The payment gateway sent an answer that cannot be used; please try again later.',
    ar: 'أرسلت بوابة الدفع ردًا لا يمكن استخدامه؛ يرجى المحاولة لاحقًا.',
  },
  order_lookup_failed: {
    en: 'The shop could not confirm this order just now; please try again.',
    ar: 'تعذر على المتجر تأكيد هذا الطلب الآن؛ يرجى المحاولة مرة أخرى.',
  },
  hook_signature_invalid: {
    en: 'The PG-Signature header is missing, malformed, too old or does not match the body.',
    ar: 'ترويسة PG-Signature مفقودة أو غير صحيحة أو قديمة أو لا تطابق المحتوى.',
  },
  unknown_result: {
    en: 'No result awaiting acknowledgement has this idempotency key.',
    ar: 'لا توجد نتيجة بانتظار التأكيد بمفتاح التكرار هذا.',
  },
  card_not_saved: {
    en: 'The card was checked but not saved; nothing was charged.',
    ar: 'تم التحقق من البطاقة لكنها لم تُحفظ؛ لم يتم خصم أي مبلغ.',
  },
  card_not_ready: {
    en: 'Your card details expired or belong to another order; nothing was charged. Enter your card again.',
    ar: 'انتهت صلاحية بيانات بطاقتك أو أنها تخص طلبًا آخر؛ لم يتم خصم أي مبلغ. أدخل بطاقتك مرة أخرى.',
  },
  store_unavailable: {
    en: 'The merchant cannot record payments right now; nothing was changed. Please try again in a minute.',
    ar: 'لا يستطيع التاجر تسجيل المدفوعات الآن؛ لم يتغير شيء. يرجى المحاولة مرة أخرى بعد دقيقة.',
  },
  internal_error: {
    en: 'Something went wrong on the merchant side; please try again.',
    ar: 'حدث خطأ لدى التاجر؛ يرجى المحاولة مرة أخرى.',
  },
};

export interface RefusalDetails {
  /** The request field at fault. */
  readonly field?: string;
  /** A message that replaces the code's generic one (already in the request's language). */
  readonly message?: Readonly<Record<Language, string>> | string;
  /** The gateway's response code, for `gateway_refused`. */
  readonly responseCode?: string;
  /** Extra headers (Allow for 405). */
  readonly headers?: Readonly<Record<string, string>>;
  /** An HTTP status other than the code's usual one. */
  readonly status?: number;
  /** For a gateway failure: how the call failed (the client's kind), for code that must tell them apart. */
  readonly failure?: FailureKind;
}

/** Thrown by route code; the endpoint answers it as a JSON error. */
export class EndpointRefusal extends Error {
  readonly code: EndpointErrorCode;
  readonly status: number;
  readonly details: RefusalDetails;

  constructor(code: EndpointErrorCode, details: RefusalDetails = {}) {
    super(details.field ? `${code} (${details.field})` : code);
    this.name = 'EndpointRefusal';
    this.code = code;
    this.status = details.status ?? ERROR_STATUS[code];
    this.details = details;
  }

  /** The JSON body for the browser, in `language`. */
  body(language: Language): EndpointError {
    const { field, message, responseCode } = this.details;
    const text =
      typeof message === 'string' ? message : message ? message[language] : ERROR_MESSAGES[this.code][language];
    return {
      error: {
        code: this.code,
        message: text,
        ...(field === undefined ? {} : { field }),
        ...(responseCode === undefined ? {} : { response_code: responseCode }),
      },
    };
  }
}

/** The service cannot start with the settings it was given (a port taken, a folder it cannot write): the operator's to fix. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}
