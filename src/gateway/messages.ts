/**
 * The client's own words, in both languages of the gateway: why it refused a call before sending
 * it, what an unsettled outcome means, and which settings to check when the gateway refused a
 * request for the merchant's own configuration. Amounts are shown in major units with the currency
 * (core `formatMoney`); when the currency is not known, in minor units.
 */
import { formatMoney } from '../core/amounts.ts';
import { formatCount, type Language } from '../core/language.ts';
import type { OrderState } from '../core/order-status.ts';
import { isConfigurationRefusal } from '../core/response.ts';

/** A refusal of the client's own, before anything is sent: a stable code for scripts. */
export type ClientCode =
  /** CHECK_STATUS knows no order under this reference. */
  | 'order_not_found'
  /** Nothing is left to capture: not authorized, voided, refunded, or captured in full (the message names which). */
  | 'nothing_to_capture'
  /** The capture asks for more than the authorized amount less what was captured. */
  | 'amount_exceeds_capturable'
  /** Nothing is left to refund: not captured, or refunded in full (the message names which). */
  | 'nothing_to_refund'
  /** Nothing to void: the order is voided already, captured (refund it), failed, or not found (the message names which). */
  | 'nothing_to_void'
  /** The refund asks for more than the captured amount less what was refunded. */
  | 'amount_exceeds_refundable'
  /** A new charge or bill names a reference the gateway holds with a payment (or one under way). */
  | 'reference_in_use';

/** Outcome `unknown`: the client's explanation (the answer lost, or refused by a rate limit). */
export type UnsettledCode = 'unsettled' | 'unsettled_rate_limited';

export interface MessageDetail {
  /** The amount asked for, in minor units. */
  readonly amount?: number;
  /** What the order allows, in minor units. */
  readonly allowed?: number;
  readonly currency?: string;
  /** The operation, for `unsettled`: capture, refund, void, purchase … */
  readonly operation?: string;
  /** The order's state as CHECK_STATUS read it, for `nothing_to_capture` / `nothing_to_refund`. */
  readonly state?: OrderState;
}

function money(amount: number | undefined, currency: string | undefined, language: Language): string {
  if (amount === undefined) return '';
  if (currency === undefined) return language === 'ar' ? `${formatCount(amount, 'ar')} (بالوحدات الصغرى)` : `${amount} (minor units)`;
  try {
    return formatMoney(amount, currency, language);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** Why nothing is left to capture, by the order's state: its actual state, never a list of guesses. */
function whyNoCapture(state: OrderState | undefined, language: Language): string {
  const en: Partial<Record<OrderState, string>> = {
    refunded: 'it was refunded',
    partially_refunded: 'it was refunded in part, and a refunded order takes no further capture',
    voided: 'it was voided',
    captured: 'it is captured in full',
  };
  const ar: Partial<Record<OrderState, string>> = {
    refunded: 'تم استرداده',
    partially_refunded: 'تم استرداد جزء منه، ولا يقبل الطلب المسترد أي تحصيل آخر',
    voided: 'تم إلغاؤه',
    captured: 'تم تحصيله بالكامل',
  };
  const known = (language === 'ar' ? ar : en)[state ?? 'unknown'];
  if (known !== undefined) return known;
  return language === 'ar' ? 'غير مصرح به' : `it is not authorized${state === undefined || state === 'unknown' ? '' : ` (${state.replace('_', ' ')})`}`;
}

/** Why nothing is left to refund, by the order's state. */
function whyNoRefund(state: OrderState | undefined, language: Language): string {
  const en: Partial<Record<OrderState, string>> = {
    refunded: 'it is refunded in full',
    voided: 'it was voided, so nothing was captured',
    authorized: 'it is authorized but nothing is captured yet (void it, or capture first)',
  };
  const ar: Partial<Record<OrderState, string>> = {
    refunded: 'تم استرداده بالكامل',
    voided: 'تم إلغاؤه، فلم يُحصّل منه شيء',
    authorized: 'مصرح به ولم يُحصّل منه شيء بعد',
  };
  const known = (language === 'ar' ? ar : en)[state ?? 'unknown'];
  if (known !== undefined) return known;
  return language === 'ar' ? 'لم يتم تحصيله' : `it is not captured${state === undefined || state === 'unknown' ? '' : ` (${state.replace('_', ' ')})`}`;
}

/** Why there is no authorization to void, by the order's state. */
function whyNoVoid(state: OrderState | undefined, language: Language): string {
  const en: Partial<Record<OrderState, string>> = {
    voided: 'it was voided already',
    captured: 'it is captured (a captured order is refunded, not voided)',
    partially_refunded: 'it is captured and refunded in part (a captured order is refunded, not voided)',
    refunded: 'it is captured and refunded',
    failed: 'its last attempt failed, so nothing is held',
    not_found: 'the gateway holds no order under this reference',
  };
  const ar: Partial<Record<OrderState, string>> = {
    voided: 'تم إلغاؤه من قبل',
    captured: 'تم تحصيله (يُسترد الطلب المحصّل ولا يُلغى)',
    partially_refunded: 'تم تحصيله واسترداد جزء منه (يُسترد الطلب المحصّل ولا يُلغى)',
    refunded: 'تم تحصيله واسترداده',
    failed: 'فشلت آخر محاولة، فلا يوجد مبلغ محجوز',
    not_found: 'لا يوجد لدى بوابة الدفع طلب بهذا المرجع',
  };
  return (language === 'ar' ? ar : en)[state ?? 'unknown'] ?? (language === 'ar' ? 'غير مصرح به' : 'it is not authorized');
}

type Catalog = Record<ClientCode | UnsettledCode, (detail: MessageDetail, language: Language) => string>;

const en: Catalog = {
  order_not_found: () => 'The gateway holds no order under this reference.',
  nothing_to_capture: ({ state }) => `Nothing is left to capture on this order: ${whyNoCapture(state, 'en')}.`,
  amount_exceeds_capturable: ({ amount, allowed, currency }) =>
    `The capture of ${money(amount, currency, 'en')} exceeds what the order allows: ${money(allowed, currency, 'en')} (authorized less captured).`,
  nothing_to_refund: ({ state }) => `Nothing is left to refund on this order: ${whyNoRefund(state, 'en')}.`,
  nothing_to_void: ({ state }) => `Nothing to void on this order: ${whyNoVoid(state, 'en')}.`,
  amount_exceeds_refundable: ({ amount, allowed, currency }) =>
    `The refund of ${money(amount, currency, 'en')} exceeds what the order allows: ${money(allowed, currency, 'en')} (captured less refunded).`,
  reference_in_use: () => 'The gateway already holds a payment (or one under way) under this reference; a new charge needs a new reference.',
  unsettled: ({ operation = 'operation' }) =>
    `The gateway's answer to the ${operation} was lost and its status does not show it yet. It may still be applied: check the order before trying again.`,
  unsettled_rate_limited: ({ operation = 'operation' }) =>
    `The gateway was limiting requests (HTTP 429) when the ${operation} was sent, and its status does not show it. It may still be applied: check the order before trying again.`,
};

const ar: Catalog = {
  order_not_found: () => 'لا يوجد لدى بوابة الدفع طلب بهذا المرجع.',
  nothing_to_capture: ({ state }) => `لا يتبقى ما يمكن تحصيله في هذا الطلب: ${whyNoCapture(state, 'ar')}.`,
  amount_exceeds_capturable: ({ amount, allowed, currency }) =>
    `مبلغ التحصيل ${money(amount, currency, 'ar')} يتجاوز المسموح به لهذا الطلب: ${money(allowed, currency, 'ar')} (المبلغ المصرح به مطروحًا منه ما تم تحصيله).`,
  nothing_to_refund: ({ state }) => `لا يتبقى ما يمكن استرداده في هذا الطلب: ${whyNoRefund(state, 'ar')}.`,
  nothing_to_void: ({ state }) => `لا يوجد ما يمكن إلغاؤه في هذا الطلب: ${whyNoVoid(state, 'ar')}.`,
  amount_exceeds_refundable: ({ amount, allowed, currency }) =>
    `مبلغ الاسترداد ${money(amount, currency, 'ar')} يتجاوز المسموح به لهذا الطلب: ${money(allowed, currency, 'ar')} (المبلغ المحصل مطروحًا منه ما تم استرداده).`,
  reference_in_use: () => 'لدى بوابة الدفع عملية دفع (أو عملية جارية) بهذا المرجع؛ تحتاج عملية الدفع الجديدة إلى مرجع جديد.',
  unsettled: () => 'فُقد رد بوابة الدفع على العملية ولا تظهرها حالة الطلب بعد. قد تُنفذ لاحقًا: تحقق من الطلب قبل المحاولة مرة أخرى.',
  unsettled_rate_limited: () =>
    'كانت بوابة الدفع تحدّ من عدد الطلبات (HTTP 429) عند إرسال العملية، ولا تظهرها حالة الطلب. قد تُنفذ لاحقًا: تحقق من الطلب قبل المحاولة مرة أخرى.',
};

const CATALOGS: Record<Language, Catalog> = { en, ar };

export function clientMessage(code: ClientCode | UnsettledCode, language: Language, detail: MessageDetail = {}): string {
  return CATALOGS[language][code](detail, language);
}

/**
 * Where to look when the gateway refused a request because the merchant's own settings are wrong
 * (core `isConfigurationRefusal`: 00008 signature mismatch, 00006 invalid access code or merchant
 * identifier): the settings to compare with the back office, by name, never their values. One text
 * for the endpoint's log and the CLI, as a wrong response phrase has its own in `describeFailure`.
 */
export function configurationRefusalHint(language: Language = 'en'): string {
  return language === 'ar'
    ? 'تحقق من PG_SHA_REQUEST_PHRASE وPG_SHA_TYPE وPG_ACCESS_CODE وPG_MERCHANT_IDENTIFIER مقارنةً بلوحة التحكم لدى بوابة الدفع'
    : "check PG_SHA_REQUEST_PHRASE, PG_SHA_TYPE, PG_ACCESS_CODE and PG_MERCHANT_IDENTIFIER against the gateway's back office";
}

/**
 * The hint that goes with a verified answer, if it is a refusal for the merchant's settings
 * (`configurationRefusalHint`); undefined for any other answer. A caller describing a refusal (the
 * CLI's one line, the endpoint's log) adds it to the gateway's own message.
 */
export function refusalHint(answer: { readonly response_code?: unknown; readonly status?: unknown }, language: Language = 'en'): string | undefined {
  return isConfigurationRefusal(answer) ? configurationRefusalHint(language) : undefined;
}
