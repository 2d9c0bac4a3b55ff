/**
 * The demo shop's own back end (not part of pg-checkout): it turns a cart into an order whose
 * amount comes from the catalogue, and shows each order's verified result and CHECK_STATUS.
 * Status queries go through the merchant endpoint's `/pg/status` route, as a merchant's would.
 *
 * Creating an order opens (or reuses) the browser's session: an HttpOnly, SameSite=Lax cookie. The
 * order belongs to that session: the endpoint's `resolveOrder` and the result page find it for that
 * session only. The merchant panel is the shop's back office: `/demo-api/back-office/*`
 * (back-office-api.ts) lists every order with its lifecycle and captures, refunds and voids through
 * the back-office client; a real back office would sit behind the merchant's own login.
 */
import type { GatewayClient, InMemoryOrderStore, IssuedBill, MerchantEndpoint, VerifiedResult } from '../src/server/index.ts';
import { requestCookie } from '../src/server/index.ts';
import type { SandboxGateway } from '../src/sandbox/index.ts';
import { fromMinorUnits } from '../src/core/amounts.ts';
import { backOfficeApi } from './back-office-api.ts';
import { cartTotal, DEMO_CURRENCY, PRODUCTS, type CartLine } from './catalog.ts';
import type { OperationRecord, OrderView } from './views.ts';

export interface DemoState {
  readonly orders: InMemoryOrderStore;
  /** The session that created each order, by merchant_reference. */
  readonly owners: Map<string, string>;
  readonly results: Map<string, VerifiedResult>;
  readonly bills: Map<string, IssuedBill>;
  readonly endpoint: MerchantEndpoint;
  readonly gateway: SandboxGateway;
  readonly origin: string;
  /** Name of the session cookie. */
  readonly sessionCookie: string;
  /** The back-office client: the merchant panel's captures, refunds, voids, statuses and reports. */
  readonly client: GatewayClient;
  /** Operations made from the merchant panel, by merchant_reference. */
  readonly operations: Map<string, OperationRecord[]>;
  /** Reports made so far (their references must differ). */
  reports: number;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

let sequence = 0;

function newReference(): string {
  sequence += 1;
  return `NG-${Date.now().toString(36).toUpperCase()}-${sequence}`;
}

/** A session id no one can guess: 128 random bits. */
export function newSession(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The request's session, if it carries one this shop issued. */
export function sessionOf(state: DemoState, request: Request): string | undefined {
  const session = requestCookie(request, state.sessionCookie);
  return session !== undefined && /^[0-9a-f]{32}$/.test(session) ? session : undefined;
}

/** `Set-Cookie` for the session: HttpOnly, SameSite=Lax, for the whole site; Secure when served over https. */
export function sessionCookie(state: DemoState, session: string): string {
  const secure = state.origin.startsWith('https:') ? '; Secure' : '';
  return `${state.sessionCookie}=${session}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

export function createOrder(state: DemoState, lines: readonly CartLine[], session: string) {
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
  const order = state.orders.add({
    merchant_reference: newReference(),
    amount,
    currency: DEMO_CURRENCY,
    description: products.map((product) => product.product_name).join(', '),
    customer_email: 'customer@example.com',
    customer_name: 'Demo Customer',
    products,
  });
  state.owners.set(order.merchant_reference, session);
  return order;
}

/** `/pg/status` for an order, asked with its owner's session, as the owner's browser would. */
async function checkStatus(state: DemoState, merchantReference: string): Promise<unknown> {
  const owner = state.owners.get(merchantReference) ?? '';
  const response = await state.endpoint(
    new Request(`${state.origin}/pg/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${state.sessionCookie}=${owner}` },
      body: JSON.stringify({ merchant_reference: merchantReference, language: 'en' }),
    }),
  );
  return response.json();
}

/**
 * An order as a page shows it. The merchant panel (the shop's back office) sees a saved card's
 * token, to charge it later; the customer's result page never does: the token stays with the shop.
 */
async function orderView(state: DemoState, merchantReference: string, audience: 'customer' | 'merchant') {
  const order = state.orders.get(merchantReference);
  if (!order) return undefined;
  const result = state.results.get(merchantReference);
  const savedCard = result?.saved_card;
  const shown =
    result && savedCard && audience === 'customer'
      ? { ...result, saved_card: { ...savedCard, token_name: undefined } }
      : result;
  return {
    order,
    result: shown ?? null,
    bill: state.bills.get(merchantReference) ?? null,
    status: await checkStatus(state, merchantReference),
  };
}

/** `/demo-api/*` as a fetch-style handler. */
/** An order as its result page shows it, to the browser session that created it only. */
export async function customerOrderView(state: DemoState, request: Request, reference: string): Promise<OrderView | undefined> {
  const session = sessionOf(state, request);
  if (session === undefined || state.owners.get(reference) !== session) return undefined;
  const view = await orderView(state, reference, 'customer');
  // As the page's script reads it: the JSON the route answers.
  return view === undefined ? undefined : (JSON.parse(JSON.stringify(view)) as OrderView);
}

export function createDemoApi(state: DemoState): (request: Request) => Promise<Response> {
  return async (request) => {
    const { pathname } = new URL(request.url);
    const parts = pathname.replace(/^\/demo-api\/?/, '').split('/').filter(Boolean);
    try {
      if (parts[0] === 'back-office') return await backOfficeApi(state, request, parts.slice(1));
      if (parts[0] !== 'orders') return json({ error: 'not found' }, 404);
      if (parts.length === 1 && request.method === 'POST') {
        const body = (await request.json()) as { lines?: CartLine[] };
        if (!Array.isArray(body.lines) || body.lines.length === 0) return json({ error: 'the cart is empty' }, 400);
        const existing = sessionOf(state, request);
        const session = existing ?? newSession();
        const headers: Record<string, string> = existing ? {} : { 'set-cookie': sessionCookie(state, session) };
        return json(createOrder(state, body.lines, session), 201, headers);
      }
      if (parts.length === 1 && request.method === 'GET') {
        const views = await Promise.all(
          state.orders.list().map((order) => orderView(state, order.merchant_reference, 'merchant')),
        );
        return json(views.reverse());
      }
      const reference = decodeURIComponent(parts[1] ?? '');
      if (parts.length === 2 && request.method === 'GET') {
        const view = await customerOrderView(state, request, reference);
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
