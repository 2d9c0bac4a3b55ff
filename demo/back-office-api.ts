/**
 * The demo shop's back office (not part of pg-checkout): the merchant panel's own server routes,
 * `/demo-api/back-office/*`, which act on orders through the back-office client
 * (`createGatewayClient`): CHECK_STATUS for each order's lifecycle, CAPTURE and REFUND (in part or
 * the rest), void, and a report of the day. The browser-facing endpoint routes (`/pg/*`) cannot do
 * any of this, by design. A real back office sits behind the merchant's own login.
 */
import { amountErrorMessage } from '../src/core/amount-messages.ts';
import { AmountError, toMinorUnits } from '../src/core/amounts.ts';
import { formatDateTimeWithOffset } from '../src/core/dates.ts';
import { isLanguage, type Language } from '../src/core/language.ts';
import { summarizeOrder, type OrderStatus } from '../src/core/order-status.ts';
import { DEFAULT_REPORT_COLUMNS, REPORT_CONTENT_TYPES } from '../src/core/report-file.ts';
import type { GatewayResult } from '../src/gateway/index.ts';
import { GatewayUnavailableError } from '../src/gateway/index.ts';
import type { DemoState } from './demo-api.ts';
import type { BackOfficeOrder, LifecycleView, OperationRecord } from './views.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });

type Action = 'capture' | 'refund' | 'void' | 'status';
const ACTIONS: readonly Action[] = ['capture', 'refund', 'void', 'status'];

function lifecycleOf(order: OrderStatus, transactionMessage: string | undefined): LifecycleView {
  const summary = summarizeOrder(order);
  return {
    state: order.state,
    standing: summary.standing,
    authorized_amount: order.authorized_amount,
    captured_amount: order.captured_amount,
    refunded_amount: order.refunded_amount,
    capturable: summary.capturable,
    refundable: summary.refundable,
    voidable: summary.voidable,
    ...(summary.uncapturable === undefined ? {} : { uncapturable: summary.uncapturable }),
    ...(order.svc_id === undefined ? {} : { svc_id: order.svc_id }),
    ...(order.transaction_code === undefined ? {} : { transaction_code: order.transaction_code }),
    ...(transactionMessage === undefined ? {} : { transaction_message: transactionMessage }),
  };
}

/** One order as the panel shows it: CHECK_STATUS through the client, and the operations made here. */
async function backOfficeView(state: DemoState, reference: string, language: Language): Promise<BackOfficeOrder | undefined> {
  const order = state.orders.get(reference);
  if (!order) return undefined;
  let lifecycle: LifecycleView | null = null;
  try {
    const status = await state.client.checkStatus({ merchant_reference: paymentReferenceOf(state, reference), language });
    if (status.order && status.order.state !== 'not_found') lifecycle = lifecycleOf(status.order, status.answer?.transaction_message);
  } catch (error) {
    if (!(error instanceof GatewayUnavailableError)) throw error;
  }
  return {
    order,
    result: state.results.get(reference) ?? null,
    bill: state.bills.get(reference) ?? null,
    lifecycle,
    operations: state.operations.get(reference) ?? [],
  };
}

/** The gateway's reference of the order's payment: the attempt's when the order was paid on a new attempt. */
function paymentReferenceOf(state: DemoState, reference: string): string {
  return state.results.get(reference)?.payment_reference ?? reference;
}

function record(state: DemoState, reference: string, operation: OperationRecord['operation'], amount: number | undefined, result: GatewayResult<unknown>): void {
  const list = state.operations.get(reference) ?? [];
  list.push({
    at: new Date().toISOString(),
    operation,
    ...(amount === undefined ? {} : { amount }),
    outcome: result.outcome,
    response_code: result.response_code,
    message: result.response_message,
  });
  state.operations.set(reference, list);
}

/** The amount typed in the panel (major units) in minor units of the order's currency; empty is "the rest". */
function amountOf(text: unknown, currency: string): number | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  return toMinorUnits(text, currency);
}

async function act(state: DemoState, reference: string, action: Action, body: Record<string, unknown>, language: Language): Promise<Response> {
  const order = state.orders.get(reference);
  if (!order) return json({ error: 'unknown order' }, 404);
  if (action !== 'status') {
    let amount: number | undefined;
    try {
      amount = action === 'void' ? undefined : amountOf(body['amount'], order.currency);
    } catch (error) {
      if (error instanceof AmountError) return json({ error: amountErrorMessage(error, language) }, 400);
      throw error;
    }
    // A payment made on a new attempt (after a closed 3-D Secure check) lives under the attempt's reference.
    const query = { merchant_reference: paymentReferenceOf(state, reference), language };
    const money = { ...query, currency: order.currency, ...(amount === undefined ? {} : { amount }) };
    const result =
      action === 'capture' ? await state.client.capture(money) : action === 'refund' ? await state.client.refund(money) : await state.client.voidAuthorization(query);
    // The amount the gateway moved, as its answer echoes it ("the rest" is worked out by the client).
    const moved = (result.answer as { amount?: unknown } | undefined)?.amount;
    record(state, reference, action, moved === undefined ? amount : Number(moved), result);
    const { answer: _answer, ...outcome } = result;
    return json({ result: outcome, view: await backOfficeView(state, reference, language) });
  }
  return json({ view: await backOfficeView(state, reference, language) });
}

/** Today's report (UTC day) with the reconciliation columns, generated and downloaded through the client, verified, as a file. */
async function report(state: DemoState, format: string): Promise<Response> {
  const fileFormat = format === 'JSON' || format === 'XML' ? format : 'CSV';
  const now = Date.now();
  const day = now - (now % 86_400_000);
  state.reports += 1;
  const reference = `demo-rep-${now.toString(36)}-${state.reports}`;
  const generated = await state.client.generateReport({
    merchant_reference: reference,
    from_date: formatDateTimeWithOffset(day),
    to_date: formatDateTimeWithOffset(day + 86_399_000),
    columns: [...DEFAULT_REPORT_COLUMNS],
  });
  if (generated.outcome !== 'success') return json({ error: generated.response_message }, 502);
  const downloaded = await state.client.downloadReport({ merchant_reference: reference, file_format: fileFormat });
  if (!downloaded.file?.text) return json({ error: downloaded.response_message }, 502);
  return new Response(downloaded.file.text, {
    headers: {
      'content-type': REPORT_CONTENT_TYPES[fileFormat],
      'content-disposition': `attachment; filename="${downloaded.file.file_name ?? `report.${fileFormat.toLowerCase()}`}"`,
      'cache-control': 'no-store',
    },
  });
}

/** `/demo-api/back-office/*` as a fetch-style handler. */
export async function backOfficeApi(state: DemoState, request: Request, parts: readonly string[]): Promise<Response> {
  const url = new URL(request.url);
  const queryLanguage = url.searchParams.get('lang');
  const language: Language = isLanguage(queryLanguage) ? queryLanguage : 'en';
  if (parts[0] === 'orders' && parts.length === 1 && request.method === 'GET') {
    const views = await Promise.all(state.orders.list().map((order) => backOfficeView(state, order.merchant_reference, language)));
    return json(views.filter(Boolean).reverse());
  }
  if (parts[0] === 'orders' && parts.length === 3 && request.method === 'POST') {
    const action = parts[2] as Action;
    if (!ACTIONS.includes(action)) return json({ error: 'not found' }, 404);
    const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
    const bodyLanguage = isLanguage(body['language']) ? body['language'] : language;
    return act(state, decodeURIComponent(parts[1] ?? ''), action, body, bodyLanguage);
  }
  if (parts[0] === 'report' && parts.length === 1 && request.method === 'GET') {
    return report(state, (url.searchParams.get('format') ?? 'CSV').toUpperCase());
  }
  return json({ error: 'not found' }, 404);
}
