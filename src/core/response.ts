/**
 * What a gateway answer means. `response_code` is five digits: the first two are the status, the
 * last three the message (spec, General rules 3). The spec lists the success pairs it has seen;
 * the codes it leaves open are this project's decisions, recorded in docs/decisions.md and used
 * by the sandbox, so that one table says what every code means.
 */
import type { Language } from './language.ts';

export interface ResponseCode {
  readonly status: string;
  readonly message: string;
  readonly code: string;
}

/** Splits "14000" into status "14" and message "000". Undefined for anything but five digits. */
export function parseResponseCode(code: unknown): ResponseCode | undefined {
  const text = typeof code === 'number' ? String(code).padStart(5, '0') : code;
  if (typeof text !== 'string' || !/^\d{5}$/.test(text)) return undefined;
  return { code: text, status: text.slice(0, 2), message: text.slice(2) };
}

export type Outcome = 'success' | 'pending' | 'failure';

interface CodeMeaning {
  readonly outcome: Outcome;
  /** The status sent with this code, where it is not the code's first two digits. */
  readonly status?: string;
  readonly operation: string;
  readonly en: string;
  readonly ar: string;
}

/**
 * Every response code this project knows. The first block is the spec's "Status codes seen";
 * the rest are decisions where the spec is silent (authorization, tokenization, void, bill,
 * financing purchase, pending 3-D Secure, failures).
 */
export const RESPONSE_CODES = {
  // From the spec.
  // The spec pairs 20064 with status 04, not with its own first two digits.
  '20064': { outcome: 'success', operation: 'capture or refund', status: '04', en: 'Request accepted', ar: 'تم قبول الطلب' },
  '12000': { outcome: 'success', operation: 'check status', en: 'Success', ar: 'تمت العملية بنجاح' },
  '14000': { outcome: 'success', operation: 'purchase', en: 'Success', ar: 'تمت العملية بنجاح' },
  '44000': { outcome: 'success', operation: '3-D Secure', en: 'Success', ar: 'تمت العملية بنجاح' },
  '50000': { outcome: 'success', operation: 'batch upload', en: 'Success', ar: 'تمت العملية بنجاح' },
  '54000': { outcome: 'success', operation: 'token list', en: 'Success', ar: 'تمت العملية بنجاح' },
  '56000': { outcome: 'success', operation: 'report generation', en: 'Success', ar: 'تمت العملية بنجاح' },
  '62000': { outcome: 'success', operation: 'installments plans', en: 'Success', ar: 'تمت العملية بنجاح' },
  '70000': { outcome: 'success', operation: 'batch results', en: 'Success', ar: 'تمت العملية بنجاح' },
  '72147': { outcome: 'success', operation: 'process batch', en: 'Batch processing request received', ar: 'تم استلام طلب معالجة الدفعة' },
  '88000': { outcome: 'success', operation: 'OTP generation', en: 'OTP sent', ar: 'تم إرسال رمز التحقق' },
  '90000': { outcome: 'success', operation: 'customer verification', en: 'Customer verified', ar: 'تم التحقق من العميل' },
  '92182': { outcome: 'success', operation: 'OTP verification', en: 'OTP verified', ar: 'تم التحقق من الرمز' },
  // Decisions where the spec is silent.
  '02000': { outcome: 'success', operation: 'authorization', en: 'Success', ar: 'تمت العملية بنجاح' },
  '18000': { outcome: 'success', operation: 'tokenization', en: 'Success', ar: 'تمت العملية بنجاح' },
  '08000': { outcome: 'success', operation: 'void authorization', en: 'Success', ar: 'تمت العملية بنجاح' },
  // What live accounts answer to an accepted capture and refund instead of the spec's 20064
  // (docs/decisions.md): the status is the code's first two digits, 04 and 06, as for 08000.
  '04000': { outcome: 'success', operation: 'capture', en: 'Capture accepted', ar: 'تم قبول التحصيل' },
  '06000': { outcome: 'success', operation: 'refund', en: 'Refund accepted', ar: 'تم قبول الاسترداد' },
  '30000': { outcome: 'success', operation: 'bill presentment', en: 'Bill issued', ar: 'تم إصدار الفاتورة' },
  '20000': { outcome: 'pending', operation: '3-D Secure check requested', en: '3-D Secure check requested', ar: 'مطلوب التحقق ثلاثي الأبعاد' },
  '19000': { outcome: 'pending', operation: 'transaction pending', en: 'Transaction pending', ar: 'العملية قيد الانتظار' },
  '00008': { outcome: 'failure', operation: 'any', en: 'Signature mismatch', ar: 'التوقيع غير مطابق' },
  '00001': { outcome: 'failure', operation: 'any', en: 'Missing parameter', ar: 'معامل مفقود' },
  '00002': { outcome: 'failure', operation: 'any', en: 'Invalid parameter format', ar: 'صيغة المعامل غير صحيحة' },
  '00003': { outcome: 'failure', operation: 'any', en: 'Parameter too long', ar: 'المعامل أطول من المسموح' },
  '00004': { outcome: 'failure', operation: 'any', en: 'Invalid character set', ar: 'أحرف غير مسموح بها' },
  '00005': { outcome: 'failure', operation: 'any', en: 'Duplicate merchant reference', ar: 'مرجع التاجر مكرر' },
  '00006': { outcome: 'failure', operation: 'any', en: 'Invalid access code or merchant identifier', ar: 'رمز الوصول أو معرف التاجر غير صحيح' },
  '00007': { outcome: 'failure', operation: 'any', en: 'Order not found', ar: 'الطلب غير موجود' },
  '00009': { outcome: 'failure', operation: 'any', en: 'Currency not supported for this service', ar: 'العملة غير مدعومة لهذه الخدمة' },
  '00010': { outcome: 'failure', operation: 'any', en: 'Invalid token', ar: 'الرمز المميز غير صالح' },
  // Added for the sandbox gateway (docs/sandbox.md).
  '00011': { outcome: 'failure', operation: 'any', en: 'Card expired', ar: 'انتهت صلاحية البطاقة' },
  '00012': { outcome: 'failure', operation: 'installments', en: 'Installment plan not available for this order', ar: 'خطة التقسيط غير متاحة لهذا الطلب' },
  '00013': { outcome: 'failure', operation: 'any', en: 'Currency does not match the order', ar: 'العملة لا تطابق عملة الطلب' },
  '17003': { outcome: 'failure', operation: 'tokenization', en: 'Invalid card number', ar: 'رقم البطاقة غير صحيح' },
  '13001': { outcome: 'failure', operation: 'purchase', en: 'Transaction declined', ar: 'تم رفض العملية' },
  '13002': { outcome: 'failure', operation: 'purchase', en: 'Insufficient funds', ar: 'الرصيد غير كافٍ' },
  '13003': { outcome: 'failure', operation: 'purchase', en: 'Invalid card number', ar: 'رقم البطاقة غير صحيح' },
  '13004': { outcome: 'failure', operation: 'purchase', en: '3-D Secure authentication failed', ar: 'فشل التحقق ثلاثي الأبعاد' },
  '03001': { outcome: 'failure', operation: 'authorization', en: 'Transaction declined', ar: 'تم رفض العملية' },
  '03002': { outcome: 'failure', operation: 'authorization', en: 'Insufficient funds', ar: 'الرصيد غير كافٍ' },
  '03003': { outcome: 'failure', operation: 'authorization', en: 'Invalid card number', ar: 'رقم البطاقة غير صحيح' },
  '03004': { outcome: 'failure', operation: 'authorization', en: '3-D Secure authentication failed', ar: 'فشل التحقق ثلاثي الأبعاد' },
  '05001': { outcome: 'failure', operation: 'capture', en: 'Amount exceeds the authorized amount', ar: 'المبلغ يتجاوز المبلغ المصرح به' },
  '05002': { outcome: 'failure', operation: 'capture', en: 'Order cannot be captured in its current state', ar: 'لا يمكن تحصيل الطلب في حالته الحالية' },
  '06001': { outcome: 'failure', operation: 'refund', en: 'Amount exceeds the captured amount', ar: 'المبلغ يتجاوز المبلغ المحصل' },
  '06002': { outcome: 'failure', operation: 'refund', en: 'Order cannot be refunded in its current state', ar: 'لا يمكن استرداد الطلب في حالته الحالية' },
  '09001': { outcome: 'failure', operation: 'void authorization', en: 'Captured payments can only be refunded', ar: 'المدفوعات المحصلة يمكن استردادها فقط' },
  '09002': { outcome: 'failure', operation: 'void authorization', en: 'Order cannot be voided in its current state', ar: 'لا يمكن إلغاء الطلب في حالته الحالية' },
  '31001': { outcome: 'failure', operation: 'bill presentment', en: 'Bill expired', ar: 'انتهت صلاحية الفاتورة' },
  '31002': { outcome: 'failure', operation: 'bill presentment', en: 'Expiry date must be in the future', ar: 'يجب أن يكون تاريخ الانتهاء في المستقبل' },
  '91001': { outcome: 'failure', operation: 'customer verification', en: 'Customer is not registered with the financing partner', ar: 'العميل غير مسجل لدى شريك التمويل' },
  '93001': { outcome: 'failure', operation: 'OTP verification', en: 'Wrong OTP', ar: 'رمز التحقق غير صحيح' },
  '93002': { outcome: 'failure', operation: 'OTP verification', en: 'Too many wrong OTP attempts', ar: 'تم تجاوز عدد المحاولات المسموح بها' },
  '93003': { outcome: 'failure', operation: 'financing purchase', en: 'OTP not verified for this transaction', ar: 'لم يتم التحقق من الرمز لهذه العملية' },
  '12001': { outcome: 'failure', operation: 'check status', en: 'Order not found', ar: 'الطلب غير موجود' },
  // What a live account answers to CHECK_STATUS of a reference it does not hold (docs/decisions.md).
  '12036': { outcome: 'failure', operation: 'check status', en: 'Order not found', ar: 'الطلب غير موجود' },
  // Service activation per merchant account (spec: optional services are activated by the gateway).
  '00014': { outcome: 'failure', operation: 'any', en: 'Service not activated for this merchant', ar: 'الخدمة غير مفعلة لهذا التاجر' },
  // The customer left the gateway's page (its "Back to the shop"): the gateway's published message 072 under status 00 (docs/decisions.md).
  '00072': { outcome: 'failure', operation: 'any', en: 'Transaction cancelled by the customer', ar: 'ألغى العميل العملية' },
  // ---- Tokens, 3-D Secure services, currency exchange (sandbox II) ----
  // Statuses 42/45/55/58/59 follow the gateway's published status list (docs/decisions.md).
  '58000': { outcome: 'success', operation: 'token update', en: 'Token updated', ar: 'تم تحديث الرمز المميز' },
  '42000': { outcome: 'success', operation: 'currency conversion', en: 'Success', ar: 'تمت العملية بنجاح' },
  '00015': { outcome: 'failure', operation: 'any', en: 'Token is inactive', ar: 'الرمز المميز غير نشط' },
  '00016': { outcome: 'failure', operation: 'any', en: 'Token is valid only for the payment it was created for', ar: 'الرمز المميز صالح فقط للدفعة التي أنشئ من أجلها' },
  '13005': { outcome: 'failure', operation: 'purchase', en: 'Transaction rejected by fraud screening', ar: 'تم رفض العملية بواسطة فحص الاحتيال' },
  '03005': { outcome: 'failure', operation: 'authorization', en: 'Transaction rejected by fraud screening', ar: 'تم رفض العملية بواسطة فحص الاحتيال' },
  '45001': { outcome: 'failure', operation: '3-D Secure', en: 'Invalid card number', ar: 'رقم البطاقة غير صحيح' },
  '45002': { outcome: 'failure', operation: '3-D Secure', en: 'Card not enrolled in 3-D Secure', ar: 'البطاقة غير مسجلة في خدمة التحقق ثلاثي الأبعاد' },
  '45003': { outcome: 'failure', operation: '3-D Secure', en: '3-D Secure record not found or already used', ar: 'سجل التحقق ثلاثي الأبعاد غير موجود أو تم استخدامه' },
  '45004': { outcome: 'failure', operation: '3-D Secure', en: '3-D Secure authentication not completed yet', ar: 'لم يكتمل التحقق ثلاثي الأبعاد بعد' },
  '55001': { outcome: 'failure', operation: 'token list', en: 'Invalid date range', ar: 'نطاق التاريخ غير صحيح' },
  '59001': { outcome: 'failure', operation: 'token update', en: 'Token name already in use', ar: 'اسم الرمز المميز مستخدم بالفعل' },
  '93004': { outcome: 'failure', operation: 'OTP verification', en: 'Down payment does not match the offer', ar: 'الدفعة المقدمة لا تطابق العرض' },
  // ---- Batch service and reporting (sandbox II) ----
  // A refusal takes the status after its operation's (51 upload, 71 results, 73 process, 57 report),
  // as 03/13 follow 02/14; "still under validation" is a pending answer of the results (status 70).
  '51001': { outcome: 'failure', operation: 'batch upload', en: 'Batch file too large', ar: 'ملف الدفعة أكبر من الحجم المسموح' },
  '51002': { outcome: 'failure', operation: 'batch upload', en: 'Batch reference already used', ar: 'مرجع الدفعة مستخدم من قبل' },
  '51003': { outcome: 'failure', operation: 'batch upload', en: 'File digest does not match the uploaded file', ar: 'بصمة الملف لا تطابق الملف المرفوع' },
  '70001': { outcome: 'pending', operation: 'batch results', en: 'Batch file still under validation', ar: 'ملف الدفعة قيد التحقق' },
  '71001': { outcome: 'failure', operation: 'batch results', en: 'Batch not found', ar: 'الدفعة غير موجودة' },
  '73001': { outcome: 'failure', operation: 'process batch', en: 'Batch file still under validation; it cannot be processed yet', ar: 'ملف الدفعة قيد التحقق؛ لا يمكن معالجته بعد' },
  '73002': { outcome: 'failure', operation: 'process batch', en: 'Batch file validated with errors; it cannot be processed', ar: 'ملف الدفعة يحتوي على أخطاء؛ لا يمكن معالجته' },
  '73003': { outcome: 'failure', operation: 'process batch', en: 'Batch already processed', ar: 'تمت معالجة الدفعة من قبل' },
  '73004': { outcome: 'failure', operation: 'process batch', en: 'Batch not found', ar: 'الدفعة غير موجودة' },
  '57001': { outcome: 'failure', operation: 'report generation', en: 'Report exceeds the maximum number of transactions', ar: 'التقرير يتجاوز الحد الأقصى لعدد العمليات' },
  '57002': { outcome: 'failure', operation: 'report download', en: 'Report not found', ar: 'التقرير غير موجود' },
} as const satisfies Record<string, CodeMeaning>;

export type KnownResponseCode = keyof typeof RESPONSE_CODES;

/** The status that goes with a code: its first two digits (04000 → 04), or the spec's exception (20064 → 04). */
export function expectedStatus(code: string): string {
  const known = (RESPONSE_CODES as Record<string, CodeMeaning>)[code];
  return known?.status ?? code.slice(0, 2);
}

/**
 * A live account's answer to a charge held for 3-D Secure, its answer carrying the `3ds_url`:
 * 20064 under its own first two digits, status 20 ("on hold"), where the specification pairs 20064
 * with status 04, an accepted capture or refund (docs/decisions.md).
 */
export const LIVE_THREE_DS_HOLD = { code: '20064', status: '20' } as const satisfies { code: KnownResponseCode; status: string };

/** A code a live account also sends under a second status, with another meaning. */
const SECOND_STATUS: Readonly<Record<string, { readonly status: string; readonly outcome: Outcome }>> = {
  [LIVE_THREE_DS_HOLD.code]: { status: LIVE_THREE_DS_HOLD.status, outcome: 'pending' },
};

/** What a known code means under the status sent with it; undefined when the two disagree (a malformed answer). */
function meaningOf(code: string, status: unknown): Outcome | undefined {
  const known = (RESPONSE_CODES as Record<string, CodeMeaning>)[code];
  if (!known) return undefined;
  if (status === undefined || String(status) === expectedStatus(code)) return known.outcome;
  const second = SECOND_STATUS[code];
  return second !== undefined && String(status) === second.status ? second.outcome : undefined;
}

/**
 * True for an answer whose meaning this project can read: a known code, with its status (or none).
 * An unknown code, or a status that disagrees with its code, proves nothing about what happened:
 * a money call answered so is settled by CHECK_STATUS, never taken as refused.
 */
export function isReadableAnswer(response: { readonly response_code?: unknown; readonly status?: unknown }): boolean {
  const parsed = parseResponseCode(response.response_code);
  return parsed !== undefined && meaningOf(parsed.code, response.status) !== undefined;
}

/**
 * The request refusals that say the merchant's own settings are wrong, not the request or the
 * order: 00008 signature mismatch (the request phrase or the SHA type is not the back office's) and
 * 00006 invalid access code or merchant identifier. Any other 00xxx is the request (a field
 * missing, malformed, too long), the order (00005, 00007, 00013), the card or token, or the
 * account's services (00014). docs/decisions.md.
 */
const CONFIGURATION_REFUSALS: ReadonlySet<string> = new Set(['00006', '00008']);

/**
 * True for a readable answer ({@link isReadableAnswer}) that refuses the request because the
 * merchant's settings are wrong: the gateway started nothing, and every request signed with the
 * same settings will be refused alike until they are corrected. A code under a status that
 * disagrees with it is not one: it proves nothing.
 */
export function isConfigurationRefusal(response: { readonly response_code?: unknown; readonly status?: unknown }): boolean {
  const parsed = parseResponseCode(response.response_code);
  return parsed !== undefined && CONFIGURATION_REFUSALS.has(parsed.code) && isReadableAnswer(response);
}

/** The message for a known code in the request's language. */
export function responseMessage(code: KnownResponseCode, language: Language): string {
  return RESPONSE_CODES[code][language];
}

/**
 * What the elements and the endpoint do with an answer: success, pending (3-D Secure or the
 * gateway still working) or failure. Unknown codes are failures: never report a payment that
 * is not known to have succeeded as paid.
 */
export function classifyResponse(response: { readonly response_code?: unknown; readonly status?: unknown }): Outcome {
  const parsed = parseResponseCode(response.response_code);
  // An unknown code, or a status that disagrees with the code's (a malformed answer): a failure.
  return (parsed && meaningOf(parsed.code, response.status)) ?? 'failure';
}

/** True when the answer is one of the success pairs (status and code agree). */
export function isSuccess(response: { readonly response_code?: unknown; readonly status?: unknown }): boolean {
  return classifyResponse(response) === 'success';
}

/**
 * What an answer means to the merchant's code or an operator, one step finer than
 * {@link classifyResponse}: a failure is `declined` when the issuer, the fraud screening or the
 * financing partner turned the payment down (statuses in {@link DECLINE_STATUSES}: 03xxx and 13xxx
 * card declines, 17xxx a card refused at tokenization, 91xxx and 93xxx the partner's refusals),
 * `not_activated` for 00014 (the service is off for the account), and `refused` otherwise: the
 * request itself or the order's state (00xxx, 05xxx capture, 06xxx refund, 09xxx void, 12001 no
 * such order, batch and report refusals, any code this project does not know).
 */
export type OperationOutcome = 'success' | 'pending' | 'declined' | 'refused' | 'not_activated';

/** Statuses of a card turned down by its issuer, 3-D Secure or the fraud screening (authorization, purchase, tokenization). */
export const CARD_DECLINE_STATUSES: readonly string[] = ['03', '13', '17'];

/** Statuses whose failures are a decline of the payment, not a refusal of the request: a card's, or the financing partner's. */
export const DECLINE_STATUSES: readonly string[] = [...CARD_DECLINE_STATUSES, '91', '93'];

/** The code of a service the merchant account does not have activated. */
export const NOT_ACTIVATED_CODE = '00014';

export function operationOutcome(response: { readonly response_code?: unknown; readonly status?: unknown }): OperationOutcome {
  const outcome = classifyResponse(response);
  if (outcome !== 'failure') return outcome;
  const parsed = parseResponseCode(response.response_code);
  if (parsed?.code === NOT_ACTIVATED_CODE) return 'not_activated';
  // A status that disagrees with its code is a malformed answer: refused, whatever the code says.
  if (parsed && isReadableAnswer(response) && DECLINE_STATUSES.includes(parsed.status)) return 'declined';
  return 'refused';
}

// ---- The 3-D Secure address of an answer ----

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for an address on this machine (localhost, 127.0.0.0/8, ::1): where plain http is accepted (the local sandbox, tests). */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
}

/**
 * Whether an answer's `3ds_url` may be handed to the customer's browser (docs/decisions.md): an
 * absolute https address without credentials; plain http only when the gateway itself
 * (`gatewayBaseUrl`, as configured) is reached over plain http on this machine, and then only to
 * this machine. A gateway reached over https never sends its customers' challenge over plain http:
 * an answer that does cannot be used, as one of an unknown code cannot (see {@link isReadableAnswer}).
 */
export function isUsableThreeDsUrl(threeDsUrl: string, gatewayBaseUrl: string): boolean {
  let url: URL;
  let gateway: URL;
  try {
    url = new URL(threeDsUrl);
    gateway = new URL(gatewayBaseUrl);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && gateway.protocol === 'http:' && isLoopbackUrl(gateway) && isLoopbackUrl(url);
}
