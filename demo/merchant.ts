/** The merchant panel: every demo order with its verified result and CHECK_STATUS. */
import { formatMoney } from '../src/core/amounts.ts';
import { applyPageSettings, MESSAGES, storedLanguage, storedTheme } from './i18n.ts';
import { billState, resultWordKey, type OrderView } from './views.ts';

const language = storedLanguage();
applyPageSettings(language, storedTheme());
const words = MESSAGES[language];

function cell(text: string, ltr = false): HTMLTableCellElement {
  const td = document.createElement('td');
  if (ltr) {
    const bdi = document.createElement('bdi');
    bdi.dir = 'ltr';
    bdi.textContent = text;
    td.append(bdi);
  } else {
    td.textContent = text;
  }
  return td;
}

async function show(): Promise<void> {
  const views = (await (await fetch('/demo-api/orders')).json()) as OrderView[];
  const rows = views.map((view) => {
    const row = document.createElement('tr');
    row.dataset.reference = view.order.merchant_reference;
    const link = document.createElement('a');
    link.href = `/result.html?merchant_reference=${encodeURIComponent(view.order.merchant_reference)}`;
    link.textContent = view.order.merchant_reference;
    const reference = document.createElement('td');
    reference.append(link);
    const status = String(view.status.transaction_message ?? view.status.response_message ?? words.none);
    const actions = document.createElement('td');
    const bill = billState(view);
    if (bill === 'awaiting') {
      const pay = document.createElement('button');
      pay.type = 'button';
      pay.textContent = words.payBill;
      pay.addEventListener('click', async () => {
        await fetch(`/demo-api/orders/${encodeURIComponent(view.order.merchant_reference)}/pay-bill`, { method: 'POST' });
        await show();
      });
      actions.append(pay);
    }
    row.append(
      reference,
      cell(formatMoney(view.order.amount, view.order.currency, language), true),
      cell(
        view.result
          ? `${words[resultWordKey(view.result) as keyof typeof words]}${view.result.saved_card?.token_name ? ` (${view.result.saved_card.token_name})` : ''}`
          : bill
            ? words[`bill_${bill}`]
            : words.none,
      ),
      cell(status),
      actions,
    );
    // On a phone the rows are cards without the header row: each cell names its column (demo.css).
    const columns = [words.reference, words.amount, words.result, words.status, words.actions];
    [...row.cells].forEach((td, index) => (td.dataset.label = columns[index]));
    return row;
  });
  document.querySelector('#orders')!.replaceChildren(...rows);
}

void show();
