/**
 * The demo shop's own back end (not part of pg-checkout): it turns a cart into an order whose
 * amount comes from the catalogue, and shows each order's verified result and CHECK_STATUS.
 * Status queries go through the merchant endpoint's `/pg/status` route, as a merchant's would.
 */
import type { InMemoryOrderStore, IssuedBill, MerchantEndpoint, VerifiedResult } from '../src/server/index.ts';
import type { SandboxGateway } from '../src/sandbox/index.ts';
import { fromMinorUnits } from '../src/core/amounts.ts';
import { cartTotal, DEMO_CURRENCY, PRODUCTS, type CartLine } from './catalog.ts';

export interface DemoState {
  readonly orders: InMemoryOrderStore;
  readonly results: Map<string, VerifiedResult>;
  readonly bills: Map<string, IssuedBill>;
  readonly endpoint: MerchantEndpoint;
  readonly gateway: SandboxGateway;
  readonly origin: string;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

let sequence = 0;

function newReference(): string {
  sequence += 1;
  return `NG-${Date.now().toString(36).toUpperCase()}-${sequence}`;
}

function createOrder(state: DemoState, lines: readonly CartLine[]) {
  const amount = cartTotal(lines);
  const products = lines.map((line) => {
    const product = PRODUCTS.find((candidate) => candidate.sku === line.sku);
    if (!product) throw new Error(`unknown product ${line.sku}`);
    return {
      product_name: product.name.en,
      product_price: fromMinorUnits(product.price * line.quantity, DEMO_CURRENCY),
      product_category: product.category,
    };
  });
  return state.orders.add({
    merchant_reference: newReference(),
    amount,
    currency: DEMO_CURRENCY,
    description: products.map((product) => product.product_name).join(', '),
    customer_email: 'customer@example.com',
    customer_name: 'Demo Customer',
    products,
  });
}

async function checkStatus(state: DemoState, merchantReference: string): Promise<unknown> {
  const response = await state.endpoint(
    new Request(`${state.origin}/pg/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ merchant_reference: merchantReference, language: 'en' }),
    }),
  );
  return response.json();
}

async function orderView(state: DemoState, merchantReference: string) {
  const order = state.orders.get(merchantReference);
  if (!order) return undefined;
  return {
    order,
    result: state.results.get(merchantReference) ?? null,
    bill: state.bills.get(merchantReference) ?? null,
    status: await checkStatus(state, merchantReference),
  };
}

/** `/demo-api/*` as a fetch-style handler. */
export function createDemoApi(state: DemoState): (request: Request) => Promise<Response> {
  return async (request) => {
    const { pathname } = new URL(request.url);
    const parts = pathname.replace(/^\/demo-api\/?/, '').split('/').filter(Boolean);
    try {
      if (parts[0] !== 'orders') return json({ error: 'not found' }, 404);
      if (parts.length === 1 && request.method === 'POST') {
        const body = (await request.json()) as { lines?: CartLine[] };
        if (!Array.isArray(body.lines) || body.lines.length === 0) return json({ error: 'the cart is empty' }, 400);
        return json(createOrder(state, body.lines), 201);
      }
      if (parts.length === 1 && request.method === 'GET') {
        const views = await Promise.all(
          state.orders.list().map((order) => orderView(state, order.merchant_reference)),
        );
        return json(views.reverse());
      }
      const reference = decodeURIComponent(parts[1] ?? '');
      if (parts.length === 2 && request.method === 'GET') {
        const view = await orderView(state, reference);
        return view ? json(view) : json({ error: 'unknown order' }, 404);
      }
      if (parts.length === 3 && parts[2] === 'pay-bill' && request.method === 'POST') {
        const bill = state.bills.get(reference);
        if (!bill) return json({ error: 'no bill for this order' }, 404);
        const transition = state.gateway.payBill(bill.bill_number);
        return json({ ok: transition.ok, code: transition.code }, transition.ok ? 200 : 409);
      }
      return json({ error: 'not found' }, 404);
    } catch (error) {
      return json({ error: (error as Error).message }, 400);
    }
  };
}
