/**
 * The result page: the outcome as the customer reads it (the core's description, in their
 * language, with the amount formatted and what to do next), and behind a disclosure, for the shop's
 * developers, the verified gateway response and the order's CHECK_STATUS from the shop's back end.
 */
import { formatMoney } from '../src/core/amounts.ts';
import { describeOutcome, OUTCOME_TEXT, type CustomerOutcome } from '../src/core/customer-outcome.ts';
import { applyPageSettings, MESSAGES, storedLanguage, storedTheme } from './i18n.ts';
import { BILL_OUTCOME, billState, definitionList, summaryList, type OrderView, type SummaryLine } from './views.ts';

const language = storedLanguage();
applyPageSettings(language, storedTheme());
const words = MESSAGES[language];
const labels = OUTCOME_TEXT[language].actions;
const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector) as T;

function showOutcome(tone: string, title: string, next: string, reason?: string): void {
  const outcome = $('#outcome');
  outcome.textContent = title;
  outcome.dataset.outcome = tone;
  $('#result-box').dataset.outcome = tone;
  document.title = `${title} — ${words.brand}`;
  $('#outcome-next').textContent = next;
  const reasonText = $('#outcome-reason');
  reasonText.textContent = reason ?? '';
  reasonText.hidden = !reason;
}

/** "Try another card": the same order, paid again on the gateway's page (a declined attempt leaves it open). */
function offerAnotherCard(view: OrderView, described: CustomerOutcome): void {
  if (!described.tryAnotherCard || !view.result) return;
  const result = view.result;
  const button = $<HTMLButtonElement>('#try-another-card');
  button.textContent = labels.tryAnotherCard;
  button.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    await import('../src/define.ts');
    const checkout = document.createElement('pg-checkout');
    checkout.setAttribute('endpoint', '/pg');
    checkout.setAttribute('mode', 'redirect');
    checkout.setAttribute('merchant-reference', view.order.merchant_reference);
    checkout.setAttribute('language', language);
    checkout.setAttribute('intent', result.source === 'save-card' ? 'save-card' : 'pay');
    checkout.setAttribute('command', result.command === 'AUTHORIZATION' ? 'AUTHORIZATION' : 'PURCHASE');
    const retry = $('#retry');
    retry.replaceChildren(checkout);
    retry.hidden = false;
    button.hidden = true;
    retry.scrollIntoView({ block: 'nearest' });
  });
}

async function show(): Promise<void> {
  const reference = new URLSearchParams(location.search).get('merchant_reference') ?? '';
  $('#developer-summary').textContent = labels.details;
  const response = await fetch(`/demo-api/orders/${encodeURIComponent(reference)}`);
  if (!response.ok) {
    showOutcome('pending', words.notVerified, '');
    return;
  }
  const view = (await response.json()) as OrderView;
  const { order } = view;
  const summary: SummaryLine[] = [];
  if (view.result) {
    const result = view.result;
    const savedCard = result.saved_card;
    const described = describeOutcome(
      { outcome: result.outcome, response_code: result.response_code, status: result.status, savedCard: result.source === 'save-card' },
      language,
    );
    showOutcome(described.tone, described.title, described.next, described.reason);
    if (result.source !== 'save-card') summary.push({ label: labels.amount, value: formatMoney(order.amount, order.currency, language), field: 'amount' });
    summary.push({ label: labels.order, value: order.merchant_reference, ltr: true, field: 'order' });
    const card = savedCard?.card_number ?? result.gateway['card_number'];
    if (typeof card === 'string' && card.includes('*')) summary.push({ label: labels.card, value: card, ltr: true, field: 'card' });
    const verified: HTMLElement[] = [definitionList(result.gateway)];
    if (savedCard) {
      const title = document.createElement('h3');
      title.textContent = words.savedCard;
      verified.push(title, definitionList({ card_number: savedCard.card_number, expiry_date: savedCard.expiry_date, card_brand: savedCard.card_brand }));
    }
    $('#verified').replaceChildren(...verified);
    offerAnotherCard(view, described);
  } else if (view.bill) {
    // A bill is paid at an outlet, not on a return: CHECK_STATUS tells whether it has been.
    const state = billState(view) ?? 'awaiting';
    showOutcome(BILL_OUTCOME[state], words[`bill_${state}`], '');
    summary.push(
      { label: labels.amount, value: formatMoney(order.amount, order.currency, language), field: 'amount' },
      { label: words.billNumber, value: view.bill.bill_number, ltr: true, field: 'bill' },
      { label: labels.order, value: order.merchant_reference, ltr: true, field: 'order' },
    );
    $('#verified').replaceChildren(definitionList(view.bill.gateway));
  } else {
    showOutcome('pending', words.notVerified, '');
    summary.push({ label: labels.order, value: order.merchant_reference, ltr: true, field: 'order' });
  }
  $('#summary').replaceWith(summaryList(summary));
  $('#status').replaceChildren(definitionList(view.status));
}

void show();
