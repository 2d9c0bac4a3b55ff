/**
 * What a payment's outcome means to the customer who made it, in their language: a title, the
 * reason (the response code's own message, not the gateway's English `response_message`) and what
 * to do next. One description for every page a customer lands on after paying: the demo's result
 * page and the standalone service's own. Pure: no DOM.
 */
import type { Language } from './language.ts';
import { CARD_DECLINE_STATUSES, operationOutcome, parseResponseCode, RESPONSE_CODES, type Outcome } from './response.ts';

/**
 * - `paid`, `pending`: the payment went through, or the gateway has not finished with it.
 * - `declined`: the card's issuer (or 3-D Secure, or the fraud screening) turned the card down.
 * - `cancelled`: the customer left the gateway's page ({@link CUSTOMER_CANCEL_CODE}).
 * - `not_completed`: any other failure (the request, the order, the financing partner).
 * - `card_saved`, `card_not_saved`: a card saved without a payment; nothing is ever charged.
 */
export type CustomerOutcomeKind = 'paid' | 'pending' | 'declined' | 'cancelled' | 'not_completed' | 'card_saved' | 'card_not_saved';

export interface CustomerOutcome {
  readonly kind: CustomerOutcomeKind;
  /** The tone of the page: success, pending or failure. */
  readonly tone: Outcome;
  readonly title: string;
  /** Why, from the response code, in the customer's language: for a decline or a card not saved. */
  readonly reason?: string;
  /** What happens now, or what to do next. */
  readonly next: string;
  /** Offer "Try another card": a card was declined (or not saved). */
  readonly tryAnotherCard: boolean;
}

/**
 * The code of a payment the customer cancelled on the gateway's page ("Back to the shop"). The
 * contract lists no code for it; this is the gateway's published message 072 "Transaction
 * canceled by user" under status 00 (docs/decisions.md).
 */
export const CUSTOMER_CANCEL_CODE = '00072';


interface Words {
  readonly title: string;
  readonly next: string;
}

export const OUTCOME_TEXT: Readonly<Record<Language, Readonly<Record<CustomerOutcomeKind, Words>> & { actions: OutcomeActions }>> = {
  en: {
    paid: { title: 'Payment successful', next: 'Thank you: your payment has been received.' },
    pending: { title: 'Payment pending', next: 'The payment gateway has not confirmed this payment yet.' },
    declined: { title: 'Payment declined', next: 'Nothing was charged. Try another card, or call your bank.' },
    cancelled: { title: 'Payment cancelled', next: 'You left the payment page: nothing was charged.' },
    not_completed: { title: 'Payment not completed', next: 'This payment did not go through. You can try again from the shop.' },
    card_saved: { title: 'Card saved — nothing was charged', next: 'You can pay with this card next time.' },
    card_not_saved: { title: 'Card not saved', next: 'Nothing was charged. Try another card, or call your bank.' },
    actions: {
      tryAnotherCard: 'Try another card',
      backToShop: 'Back to the shop',
      amount: 'Amount',
      order: 'Order',
      card: 'Card',
      details: 'Details for developers',
    },
  },
  ar: {
    paid: { title: 'تم الدفع بنجاح', next: 'شكرًا لك: تم استلام دفعتك.' },
    pending: { title: 'الدفع قيد الانتظار', next: 'لم تؤكد بوابة الدفع هذه الدفعة بعد.' },
    declined: { title: 'تم رفض الدفع', next: 'لم يتم خصم أي مبلغ. جرّب بطاقة أخرى أو اتصل بالبنك.' },
    cancelled: { title: 'تم إلغاء الدفع', next: 'غادرت صفحة الدفع: لم يتم خصم أي مبلغ.' },
    not_completed: { title: 'لم يكتمل الدفع', next: 'لم تتم عملية الدفع هذه. يمكنك المحاولة مرة أخرى من المتجر.' },
    card_saved: { title: 'تم حفظ البطاقة — لم يتم خصم أي مبلغ', next: 'يمكنك الدفع بهذه البطاقة في المرة القادمة.' },
    card_not_saved: { title: 'لم تُحفظ البطاقة', next: 'لم يتم خصم أي مبلغ. جرّب بطاقة أخرى أو اتصل بالبنك.' },
    actions: {
      tryAnotherCard: 'جرّب بطاقة أخرى',
      backToShop: 'العودة إلى المتجر',
      amount: 'المبلغ',
      order: 'الطلب',
      card: 'البطاقة',
      details: 'تفاصيل للمطورين',
    },
  },
};

/** The words around an outcome: its actions and the labels of its summary. */
export interface OutcomeActions {
  readonly tryAnotherCard: string;
  readonly backToShop: string;
  readonly amount: string;
  readonly order: string;
  readonly card: string;
  readonly details: string;
}

export interface OutcomeFacts {
  readonly outcome: Outcome;
  readonly response_code?: unknown;
  readonly status?: unknown;
  /** True for a card saved without a payment. */
  readonly savedCard?: boolean;
}

function kindOf(facts: OutcomeFacts): CustomerOutcomeKind {
  if (facts.savedCard) return facts.outcome === 'success' ? 'card_saved' : facts.outcome === 'pending' ? 'pending' : 'card_not_saved';
  if (facts.outcome === 'success') return 'paid';
  if (facts.outcome === 'pending') return 'pending';
  const code = parseResponseCode(facts.response_code);
  if (code?.code === CUSTOMER_CANCEL_CODE) return 'cancelled';
  const declined = operationOutcome({ response_code: facts.response_code, status: facts.status }) === 'declined';
  return declined && code && CARD_DECLINE_STATUSES.includes(code.status) ? 'declined' : 'not_completed';
}

/** The customer's description of an outcome, in `language`. */
export function describeOutcome(facts: OutcomeFacts, language: Language): CustomerOutcome {
  const kind = kindOf(facts);
  const words = OUTCOME_TEXT[language][kind];
  const code = parseResponseCode(facts.response_code)?.code;
  const known = code !== undefined && code in RESPONSE_CODES ? RESPONSE_CODES[code as keyof typeof RESPONSE_CODES] : undefined;
  const explained = kind === 'declined' || kind === 'card_not_saved' || kind === 'not_completed';
  const reason = explained && known && known.outcome === 'failure' ? known[language] : undefined;
  return {
    kind,
    tone: kind === 'paid' || kind === 'card_saved' ? 'success' : kind === 'pending' ? 'pending' : 'failure',
    title: words.title,
    ...(reason ? { reason } : {}),
    next: words.next,
    tryAnotherCard: kind === 'declined' || kind === 'card_not_saved',
  };
}
