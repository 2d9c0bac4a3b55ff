/** The result page: the verified gateway response and the order's CHECK_STATUS, from the shop's back end. */
import { applyPageSettings, MESSAGES, storedLanguage, storedTheme } from './i18n.ts';
import { BILL_OUTCOME, billState, definitionList, resultWordKey, type OrderView } from './views.ts';

const language = storedLanguage();
applyPageSettings(language, storedTheme());
const words = MESSAGES[language];

async function show(): Promise<void> {
  const reference = new URLSearchParams(location.search).get('merchant_reference') ?? '';
  document.querySelector('#order-ref')!.textContent = reference;
  const response = await fetch(`/demo-api/orders/${encodeURIComponent(reference)}`);
  const outcome = document.querySelector<HTMLElement>('#outcome')!;
  if (!response.ok) {
    outcome.textContent = words.notVerified;
    return;
  }
  const view = (await response.json()) as OrderView;
  const verified = document.querySelector('#verified')!;
  if (view.result) {
    outcome.textContent = words[resultWordKey(view.result) as keyof typeof words];
    outcome.dataset.outcome = view.result.outcome;
    const savedCard = view.result.saved_card;
    verified.replaceChildren(definitionList(view.result.gateway));
    if (savedCard) {
      const title = document.createElement('h3');
      title.textContent = words.savedCard;
      verified.append(title, definitionList({ card_number: savedCard.card_number, expiry_date: savedCard.expiry_date, card_brand: savedCard.card_brand }));
    }
  } else if (view.bill) {
    // A bill is paid at an outlet, not on a return: CHECK_STATUS tells whether it has been.
    const state = billState(view) ?? 'awaiting';
    outcome.textContent = words[`bill_${state}`];
    outcome.dataset.outcome = BILL_OUTCOME[state];
    verified.replaceChildren(definitionList(view.bill.gateway));
  } else {
    outcome.textContent = words.notVerified;
  }
  document.querySelector('#status')!.replaceChildren(definitionList(view.status));
}

void show();
