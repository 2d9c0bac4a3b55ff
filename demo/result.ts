/**
 * The result page: the outcome as the customer reads it (the core's description, in the language
 * of the payment, with the amount formatted and what to do next), and behind a disclosure, for the
 * shop's developers, the verified gateway response and the order's CHECK_STATUS from the shop's back
 * end. The demo's server has already written the outcome into the page (result-page.ts), for a
 * customer without script; this draws the same content, and the details.
 */
import type { CustomerOutcome } from '../src/core/customer-outcome.ts';
import { OUTCOME_TEXT } from '../src/core/customer-outcome.ts';
import type { Language } from '../src/core/language.ts';
import { applyPageSettings, MESSAGES, storedLanguage, storedTheme } from './i18n.ts';
import { notShownContent, paymentLanguage, resultContent, type ResultContent } from './result-view.ts';
import { definitionList, summaryList, type OrderView } from './views.ts';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector) as T;

function showOutcome(content: ResultContent, language: Language): void {
  const outcome = $('#outcome');
  outcome.textContent = content.title;
  outcome.dataset.outcome = content.tone;
  $('#result-box').dataset.outcome = content.tone;
  document.title = `${content.title} — ${MESSAGES[language].brand}`;
  $('#outcome-next').textContent = content.next;
  const reasonText = $('#outcome-reason');
  reasonText.textContent = content.reason ?? '';
  reasonText.hidden = !content.reason;
  $('#summary').replaceWith(summaryList(content.lines));
}

/** "Try another card": the same order, paid again on the gateway's page (a declined attempt leaves it open). */
function offerAnotherCard(view: OrderView, described: CustomerOutcome | undefined, language: Language): void {
  if (!described?.tryAnotherCard || !view.result) return;
  const labels = OUTCOME_TEXT[language].actions;
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
  const response = await fetch(`/demo-api/orders/${encodeURIComponent(reference)}`);
  const view = response.ok ? ((await response.json()) as OrderView) : undefined;
  const language = paymentLanguage(view, storedLanguage());
  applyPageSettings(language, storedTheme());
  $('#developer-summary').textContent = OUTCOME_TEXT[language].actions.details;
  if (!view) {
    showOutcome(notShownContent(language), language);
    return;
  }
  const content = resultContent(view, language);
  showOutcome(content, language);
  if (view.result) {
    const savedCard = view.result.saved_card;
    const verified: HTMLElement[] = [definitionList(view.result.gateway)];
    if (savedCard) {
      const title = document.createElement('h3');
      title.textContent = MESSAGES[language].savedCard;
      verified.push(title, definitionList({ card_number: savedCard.card_number, expiry_date: savedCard.expiry_date, card_brand: savedCard.card_brand }));
    }
    $('#verified').replaceChildren(...verified);
    offerAnotherCard(view, content.described, language);
  } else if (view.bill) {
    $('#verified').replaceChildren(definitionList(view.bill.gateway));
  }
  $('#status').replaceChildren(definitionList(view.status));
}

void show();
