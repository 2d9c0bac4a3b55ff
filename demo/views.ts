/** Small DOM helpers shared by the demo's result page and merchant panel. */
export interface OrderView {
  readonly order: { merchant_reference: string; amount: number; currency: string; description?: string };
  readonly result: null | {
    outcome: 'success' | 'pending' | 'failure';
    response_code: string;
    response_message: string;
    status?: string;
    /** AUTHORIZATION or PURCHASE, when the gateway names it. */
    command?: string;
    /** `save-card`: a card saved without a payment (nothing charged). */
    source?: string;
    /** The card kept for later; its token only in the merchant panel. */
    saved_card?: { token_name?: string; card_number?: string; expiry_date?: string; card_brand?: string };
    gateway: Record<string, unknown>;
  };
  readonly bill: null | { bill_number: string; request_expiry_date: string; gateway: Record<string, unknown> };
  readonly status: Record<string, unknown>;
}

/** An order's lifecycle at the gateway, from CHECK_STATUS through the back-office client; amounts in minor units. */
export interface LifecycleView {
  readonly state: string;
  /** How the panel words it (core `summarizeOrder`): `partially_captured` for a capture with more to take. */
  readonly standing: string;
  /** Authorized money nothing can capture or void any more, and why (core `summarizeOrder`). */
  readonly uncapturable?: { readonly amount: number; readonly reason: string };
  readonly authorized_amount: number;
  readonly captured_amount: number;
  readonly refunded_amount: number;
  /** What a capture may still take, a refund still return; whether a void is possible. */
  readonly capturable: number;
  readonly refundable: number;
  readonly voidable: boolean;
  readonly svc_id?: string;
  readonly transaction_code?: string;
  readonly transaction_message?: string;
}

/** An operation made from the merchant panel. */
export interface OperationRecord {
  readonly at: string;
  readonly operation: 'capture' | 'refund' | 'void';
  readonly amount?: number;
  readonly outcome: string;
  readonly response_code: string;
  readonly message: string;
}

/** An order as the merchant panel shows it. */
export interface BackOfficeOrder extends Omit<OrderView, 'status'> {
  readonly lifecycle: LifecycleView | null;
  readonly operations: readonly OperationRecord[];
}

/** Where a cash bill stands, from the order's CHECK_STATUS: paid (14000), expired (31001) or awaiting payment. */
export type BillState = 'paid' | 'expired' | 'awaiting';

export function billState(view: OrderView): BillState | undefined {
  if (!view.bill) return undefined;
  const code = String(view.status.transaction_code ?? '');
  return code === '14000' ? 'paid' : code === '31001' ? 'expired' : 'awaiting';
}

/** The outcome a bill's state stands for on the result page. */
export const BILL_OUTCOME: Readonly<Record<BillState, 'success' | 'pending' | 'failure'>> = {
  paid: 'success',
  awaiting: 'pending',
  expired: 'failure',
};

/** A <dl> of every field of a message, values as left-to-right islands; a nested object's fields as `error.code`. */
export function definitionList(fields: Record<string, unknown>): HTMLDListElement {
  const list = document.createElement('dl');
  list.className = 'fields';
  const add = (prefix: string, entries: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(entries)) {
      const name = prefix ? `${prefix}.${key}` : key;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        add(name, value as Record<string, unknown>);
        continue;
      }
      const term = document.createElement('dt');
      term.textContent = name;
      const detail = document.createElement('dd');
      const text = document.createElement('bdi');
      text.dir = 'ltr';
      text.dataset.field = name;
      text.textContent = Array.isArray(value) ? value.map(String).join(', ') : String(value);
      detail.append(text);
      list.append(term, detail);
    }
  };
  add('', fields);
  return list;
}

/** One line of what the customer reads: the label, and the value (references and card numbers left to right). */
export interface SummaryLine {
  readonly label: string;
  readonly value: string;
  readonly ltr?: boolean;
  /** Names the value for tests and styles (`data-summary`). */
  readonly field?: string;
}

/** The customer's summary of an order: amount, reference, card. */
export function summaryList(lines: readonly SummaryLine[]): HTMLDListElement {
  const list = document.createElement('dl');
  list.id = 'summary';
  list.className = 'summary';
  for (const line of lines) {
    const term = document.createElement('dt');
    term.textContent = line.label;
    const detail = document.createElement('dd');
    const value = document.createElement('bdi');
    if (line.ltr) {
      value.dir = 'ltr';
      value.className = 'ltr-island';
    }
    if (line.field) value.dataset.summary = line.field;
    value.textContent = line.value;
    detail.append(value);
    list.append(term, detail);
  }
  return list;
}

/** The demo's word for a result: a payment's outcome, or whether a card was saved. */
export function resultWordKey(result: NonNullable<OrderView['result']>): `outcome_${string}` | 'card_saved' | 'card_not_saved' {
  if (result.source === 'save-card') return result.outcome === 'success' ? 'card_saved' : 'card_not_saved';
  return `outcome_${result.outcome}`;
}
