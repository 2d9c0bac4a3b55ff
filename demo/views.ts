/** Small DOM helpers shared by the demo's result page and merchant panel. */
export interface OrderView {
  readonly order: { merchant_reference: string; amount: number; currency: string; description?: string };
  readonly result: null | {
    outcome: 'success' | 'pending' | 'failure';
    response_code: string;
    response_message: string;
    gateway: Record<string, unknown>;
  };
  readonly bill: null | { bill_number: string; request_expiry_date: string; gateway: Record<string, unknown> };
  readonly status: Record<string, unknown>;
}

/** A <dl> of every field of a message, values as left-to-right islands. */
export function definitionList(fields: Record<string, unknown>): HTMLDListElement {
  const list = document.createElement('dl');
  list.className = 'fields';
  for (const [name, value] of Object.entries(fields)) {
    const term = document.createElement('dt');
    term.textContent = name;
    const detail = document.createElement('dd');
    const text = document.createElement('bdi');
    text.dir = 'ltr';
    text.dataset.field = name;
    text.textContent = typeof value === 'object' ? JSON.stringify(value) : String(value);
    detail.append(text);
    list.append(term, detail);
  }
  return list;
}
