/**
 * What the result page says of an order, as data: its outcome in the customer's words (the core's
 * `describeOutcome`), and the summary lines. The page's script draws it (result.ts), and the demo's
 * server writes it into the page first (result-page.ts), so a customer who paid with scripts turned
 * off (`/quick-checkout`) reads the outcome too. The language is the payment's, as the gateway
 * echoed it, whatever the storefront's switch says: a customer who paid in Arabic reads Arabic.
 */
import { formatMoney } from '../src/core/amounts.ts';
import { describeOutcome, OUTCOME_TEXT, type CustomerOutcome } from '../src/core/customer-outcome.ts';
import { isLanguage, type Language } from '../src/core/language.ts';
import { MESSAGES } from './i18n.ts';
import { BILL_OUTCOME, billState, type OrderView, type SummaryLine } from './views.ts';

export interface ResultContent {
  readonly tone: string;
  readonly title: string;
  readonly next: string;
  readonly reason?: string | undefined;
  readonly lines: readonly SummaryLine[];
  /** The outcome as the core describes it, for "Try another card"; none for a bill or no result. */
  readonly described?: CustomerOutcome;
}

/** The payment's language, as the gateway echoed it in the result (or the bill), else `fallback`. */
export function paymentLanguage(view: OrderView | undefined, fallback: Language): Language {
  const echoed = view?.result?.gateway['language'] ?? view?.bill?.gateway['language'];
  return isLanguage(echoed) ? echoed : fallback;
}

/** What the page says when the shop cannot show the order to this browser (another session, or none). */
export function notShownContent(language: Language): ResultContent {
  return { tone: 'pending', title: MESSAGES[language].orderNotShown, next: '', lines: [] };
}

export function resultContent(view: OrderView, language: Language): ResultContent {
  const words = MESSAGES[language];
  const labels = OUTCOME_TEXT[language].actions;
  const { order } = view;
  const amount: SummaryLine = { label: labels.amount, value: formatMoney(order.amount, order.currency, language), field: 'amount' };
  const reference: SummaryLine = { label: labels.order, value: order.merchant_reference, ltr: true, field: 'order' };
  if (view.result) {
    const result = view.result;
    const described = describeOutcome(
      { outcome: result.outcome, response_code: result.response_code, status: result.status, savedCard: result.source === 'save-card' },
      language,
    );
    const lines: SummaryLine[] = result.source === 'save-card' ? [reference] : [amount, reference];
    const card = result.saved_card?.card_number ?? result.gateway['card_number'];
    if (typeof card === 'string' && card.includes('*')) lines.push({ label: labels.card, value: card, ltr: true, field: 'card' });
    return { tone: described.tone, title: described.title, next: described.next, reason: described.reason, lines, described };
  }
  if (view.bill) {
    // A bill is paid at an outlet, not on a return: CHECK_STATUS tells whether it has been.
    const state = billState(view) ?? 'awaiting';
    const bill: SummaryLine = { label: words.billNumber, value: view.bill.bill_number, ltr: true, field: 'bill' };
    return { tone: BILL_OUTCOME[state], title: words[`bill_${state}`], next: '', lines: [amount, bill, reference] };
  }
  return { tone: 'pending', title: words.notVerified, next: '', lines: [reference] };
}
