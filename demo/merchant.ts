/**
 * The merchant panel: every demo order with its customer's result and its lifecycle at the gateway
 * (state and amounts from CHECK_STATUS, and the operations made here), with capture and refund (in
 * part, or the rest), void and a status refresh, and the day's report. Everything goes through the
 * demo shop's own back-office routes (`/demo-api/back-office/*`), which use the back-office client.
 */
import { formatMoney } from '../src/core/amounts.ts';
import { applyPageSettings, MESSAGES, storedLanguage, storedTheme, type DemoMessages } from './i18n.ts';
import { resultWordKey, type BackOfficeOrder, type LifecycleView, type OperationRecord } from './views.ts';

const language = storedLanguage();
applyPageSettings(language, storedTheme());
const words = MESSAGES[language];

type Action = 'capture' | 'refund' | 'void' | 'status';

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};

/** Money as a left-to-right island in either language. */
function money(amount: number, currency: string): HTMLElement {
  const bdi = element('bdi', formatMoney(amount, currency, language));
  bdi.dir = 'ltr';
  return bdi;
}

function word(key: string): string {
  return (words as Record<string, string>)[key] ?? key;
}

/** Where a cash bill stands, from the order's last operation: paid (14000), expired (31001) or awaiting payment. */
function billState(view: BackOfficeOrder): 'paid' | 'expired' | 'awaiting' | undefined {
  if (!view.bill) return undefined;
  const code = view.lifecycle?.transaction_code;
  return code === '14000' ? 'paid' : code === '31001' ? 'expired' : 'awaiting';
}

function amountsList(lifecycle: LifecycleView, currency: string): HTMLDListElement {
  const list = element('dl', undefined, 'amounts');
  const rows: [string, keyof DemoMessages, number][] = [
    ['authorized', 'authorized', lifecycle.authorized_amount],
    ['captured', 'captured', lifecycle.captured_amount],
    ['refunded', 'refunded', lifecycle.refunded_amount],
  ];
  // Captured in part: what a capture may still take. Refunded since: what nothing can move any more.
  if (lifecycle.standing === 'partially_captured') rows.push(['left-to-capture', 'leftToCapture', lifecycle.capturable]);
  if (lifecycle.uncapturable) rows.push(['not-capturable', 'notCapturable', lifecycle.uncapturable.amount]);
  for (const [key, label, amount] of rows) {
    const detail = element('dd');
    detail.dataset.amount = key;
    detail.append(money(amount, currency));
    list.append(element('dt', words[label]), detail);
  }
  return list;
}

/** The amount field's label: the currency's code in English, its name in Arabic (no Latin letters in an Arabic label). */
function amountLabel(currency: string): string {
  const name = language === 'ar' ? new Intl.DisplayNames(['ar'], { type: 'currency' }).of(currency) : currency;
  return `${words.amountToMove} (${name ?? currency})`;
}

function operationItem(operation: OperationRecord, currency: string): HTMLLIElement {
  const item = element('li');
  item.dataset.operation = operation.operation;
  item.dataset.outcome = operation.outcome;
  item.append(`${word(`op_${operation.operation}`)} `);
  if (operation.amount !== undefined) item.append(money(operation.amount, currency), ' ');
  item.append(`— ${word(`outcomeOf_${operation.outcome}`)}`);
  if (operation.response_code) item.append(` (${operation.response_code})`);
  return item;
}

function lifecycleCell(view: BackOfficeOrder): HTMLTableCellElement {
  const cell = element('td');
  const { lifecycle } = view;
  if (!lifecycle) {
    cell.textContent = words.none;
    return cell;
  }
  // One child per cell: on a phone the cell is a two-column grid, its label beside its content.
  const content = element('div', undefined, 'lifecycle');
  cell.append(content);
  const state = element('span', word(`state_${lifecycle.standing}`), 'state');
  state.dataset.state = lifecycle.state;
  state.dataset.standing = lifecycle.standing;
  content.append(state, amountsList(lifecycle, view.order.currency));
  if (lifecycle.uncapturable) content.append(element('p', word(`uncapturable_${lifecycle.uncapturable.reason}`), 'uncapturable'));
  if (lifecycle.transaction_message) {
    const last = element('p', `${words.lastOperation}: `, 'last-operation');
    last.append(element('bdi', `${lifecycle.transaction_message}${lifecycle.transaction_code ? ` (${lifecycle.transaction_code})` : ''}`));
    content.append(last);
  }
  if (view.operations.length > 0) {
    const list = element('ol', undefined, 'operations');
    list.setAttribute('aria-label', words.operations);
    list.append(...view.operations.map((operation) => operationItem(operation, view.order.currency)));
    content.append(list);
  }
  return cell;
}

let rowNumber = 0;

function actionButton(action: Action, label: keyof DemoMessages): HTMLButtonElement {
  const button = element('button', words[label]);
  button.type = 'submit';
  button.name = 'action';
  button.value = action;
  return button;
}

function actionsCell(view: BackOfficeOrder, message: string): HTMLTableCellElement {
  const cell = element('td');
  const reference = view.order.merchant_reference;
  const form = element('form', undefined, 'order-actions');
  const { lifecycle } = view;
  if (lifecycle && (lifecycle.capturable > 0 || lifecycle.refundable > 0)) {
    rowNumber += 1;
    const label = element('label', undefined, 'amount-field');
    const input = element('input');
    input.name = 'amount';
    input.inputMode = 'decimal';
    input.autocomplete = 'off';
    input.placeholder = words.amountHint;
    // Wide enough for its hint: "Empty: the rest" is the whole instruction.
    input.size = words.amountHint.length + 2;
    input.id = `amount-${rowNumber}`;
    label.append(element('span', amountLabel(view.order.currency)), input);
    form.append(label);
  }
  const buttons = element('div', undefined, 'buttons');
  if (lifecycle && lifecycle.capturable > 0) buttons.append(actionButton('capture', 'capture'));
  if (lifecycle && lifecycle.refundable > 0) buttons.append(actionButton('refund', 'refund'));
  if (lifecycle?.voidable) buttons.append(actionButton('void', 'void'));
  buttons.append(actionButton('status', 'refresh'));
  if (billState(view) === 'awaiting') {
    const pay = element('button', words.payBill, 'pay-bill');
    pay.type = 'button';
    pay.addEventListener('click', async () => {
      await fetch(`/demo-api/orders/${encodeURIComponent(reference)}/pay-bill`, { method: 'POST' });
      await act(reference, 'status', '');
    });
    buttons.append(pay);
  }
  form.append(buttons);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    const amount = (form.elements.namedItem('amount') as HTMLInputElement | null)?.value ?? '';
    void act(reference, (submitter?.value ?? 'status') as Action, amount);
  });
  const status = element('p', message, 'action-message');
  status.setAttribute('role', 'status');
  const content = element('div');
  content.append(form, status);
  cell.append(content);
  return cell;
}

function row(view: BackOfficeOrder, message = ''): HTMLTableRowElement {
  const tr = element('tr');
  tr.dataset.reference = view.order.merchant_reference;
  tr.dataset.state = view.lifecycle?.state ?? 'none';
  const link = element('a', view.order.merchant_reference);
  link.href = `/result.html?merchant_reference=${encodeURIComponent(view.order.merchant_reference)}`;
  const reference = element('td');
  reference.append(link);
  const amount = element('td');
  amount.append(money(view.order.amount, view.order.currency));
  const bill = billState(view);
  // A saved card shows its token here, in the merchant's panel only, ready for a recurring charge.
  const token = view.result?.saved_card?.token_name;
  const resultText = view.result ? `${word(resultWordKey(view.result))}${token ? ` (${token})` : ''}` : bill ? word(`bill_${bill}`) : words.noPayment;
  const result = element('td', resultText);
  tr.append(reference, amount, result, lifecycleCell(view), actionsCell(view, message));
  // On a phone the rows are cards without the header row: each cell names its column (demo.css).
  const columns = [words.reference, words.amount, words.result, words.lifecycle, words.actions];
  [...tr.cells].forEach((td, index) => (td.dataset.label = columns[index]));
  return tr;
}

/** Runs an action of the panel on one order and redraws its row with the outcome. */
async function act(reference: string, action: Action, amount: string): Promise<void> {
  const current = document.querySelector<HTMLTableRowElement>(`#orders tr[data-reference="${CSS.escape(reference)}"]`);
  const status = current?.querySelector('.action-message');
  if (status) status.textContent = words.working;
  const response = await fetch(`/demo-api/back-office/orders/${encodeURIComponent(reference)}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount, language }),
  });
  const answer = (await response.json()) as { error?: string; result?: { outcome: string; response_message: string }; view?: BackOfficeOrder };
  if (!answer.view) {
    if (status) status.textContent = answer.error ?? String(response.status);
    return;
  }
  const message = answer.result ? `${word(`outcomeOf_${answer.result.outcome}`)}: ${answer.result.response_message}` : '';
  const fresh = row(answer.view, message);
  if (answer.result) fresh.dataset.outcome = answer.result.outcome;
  current?.replaceWith(fresh);
}

async function show(): Promise<void> {
  const views = (await (await fetch(`/demo-api/back-office/orders?lang=${language}`)).json()) as BackOfficeOrder[];
  document.querySelector('#orders')!.replaceChildren(...views.map((view) => row(view)));
}

void show();
