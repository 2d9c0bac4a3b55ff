/**
 * `createSandboxGateway`: the spec's gateway, implemented locally as a Web-standard handler
 * (`Request` → `Response`), so that it runs in Node behind `node:http`, in the browser behind msw,
 * and beside the merchant endpoint on one port. State lives in memory, per gateway.
 *
 * Paths (basePath defaults to '', apiRoot to 'FortAPI'):
 *   POST {basePath}/{apiRoot}/paymentPage          hosted page / merchant page form posts (HTML)
 *   POST {basePath}/{apiRoot}/paymentPage/submit   the sandbox card-entry form (HTML)
 *   GET  {basePath}/{apiRoot}/3ds/challenge?id=…   the 3-D Secure challenge page (HTML)
 *   POST {basePath}/{apiRoot}/3ds/challenge        its answer (HTML, returns to the merchant)
 *   GET  {basePath}/{apiRoot}/3ds/acs?id=…         the issuer's page of a 3DS_ENROLLMENT (HTML)
 *   POST {basePath}/{apiRoot}/3ds/acs              its answer (HTML, posts to merchant_3ds_url)
 *   POST {basePath}/{apiRoot}/paymentApi           the JSON API
 *   POST {basePath}/{apiRoot}/upload/              UPLOAD_BATCH_FILE (multipart)
 *   POST {basePath}/{apiRoot}/batchApi/            GET_BATCH_RESULTS, PROCESS_BATCH
 *   POST {basePath}/integration-batch/batchApi/    the same, as on the batch sandbox host
 *   POST {basePath}/{apiRoot}/reportingApi         GENERATE_REPORT, DOWNLOAD_REPORT
 *   POST {basePath}/sandbox-tools/pay-bill         sandbox only: the customer pays a bill
 *   GET  {basePath}/sandbox-tools/orders           sandbox only: every order, as JSON
 */
import { MAX_REPORT_TRANSACTIONS } from '../core/report-file.ts';
import { BatchStore, postBatchApi, postBatchUpload, settleBatches } from './batch.ts';
import type { GatewayContext, GatewayPaths } from './context.ts';
import { merchantDirectory, SANDBOX_MERCHANTS, type SandboxMerchant } from './merchants.ts';
import { payBill, type SandboxOrder, type Transition } from './orders.ts';
import { postPaymentApi } from './payment-api.ts';
import { answerChallenge, postPaymentPage, showChallenge, submitPaymentPage } from './payment-page.ts';
import { postReportingApi, ReportStore } from './reports.ts';
import { SandboxState, type FinancingTransaction } from './state.ts';
import { answerAcsPage, showAcsPage } from './three-ds.ts';
import { maskCardNumber } from '../core/card-number.ts';
import { BodyError, jsonResponse, readForm, readJson } from './wire.ts';

export interface SandboxGatewayOptions {
  /** The accounts the gateway knows; default: SANDBOX_MERCHANT and SANDBOX_MERCHANT_BASIC. */
  readonly merchants?: readonly SandboxMerchant[];
  /** Where the gateway is mounted, e.g. '/sandbox'; default ''. */
  readonly basePath?: string;
  /** The spec's {api_root}; default 'FortAPI'. */
  readonly apiRoot?: string;
  /** The gateway's clock; default the system clock. A SandboxClock's `now` moves time in tests. */
  readonly now?: () => Date;
  /** Most operations a report may hold; default the spec's 200,000 (lower it to test the limit). */
  readonly reportMaxTransactions?: number;
}

/** A stored token as inspection shows it: the card number masked. */
export interface SandboxTokenView {
  readonly merchantIdentifier: string;
  readonly tokenName: string;
  readonly cardNumber: string;
  readonly expiryDate: string;
  readonly scheme: string;
  readonly status: 'ACTIVE' | 'INACTIVE';
  /** A temporary token: it pays only the payment it was made for, and GET_TOKENS never lists it. */
  readonly temporary: boolean;
}

export interface SandboxGateway {
  /** Answers one request; anything outside the gateway's paths gets a 404. */
  handle(request: Request): Promise<Response>;
  /** True when `url`'s path is one of the gateway's, for routing it beside other handlers. */
  handles(url: string | URL): boolean;
  readonly paths: GatewayPaths;
  /** Every order as of the gateway's now (time-driven transitions applied), oldest first. */
  orders(): readonly SandboxOrder[];
  /** One order by svc_id or merchant_reference. */
  order(query: { readonly svcId?: string; readonly merchantReference?: string }): SandboxOrder | undefined;
  tokens(): readonly SandboxTokenView[];
  financingTransactions(): readonly Omit<FinancingTransaction, 'otp'>[];
  /** The customer pays a bill at the partner (what `POST sandbox-tools/pay-bill` does). */
  payBill(billNumber: string): Transition;
  /** Forgets every order, token, page and financing attempt. */
  reset(): void;
}

function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

export function createSandboxGateway(options: SandboxGatewayOptions = {}): SandboxGateway {
  const merchants = merchantDirectory(options.merchants ?? SANDBOX_MERCHANTS);
  const basePath = normalizeBasePath(options.basePath ?? '');
  const apiRoot = (options.apiRoot ?? 'FortAPI').replace(/^\/+|\/+$/g, '');
  if (apiRoot === '') throw new Error('apiRoot must not be empty');
  const clock = options.now ?? (() => new Date());
  const now = (): number => clock().getTime();
  const root = `${basePath}/${apiRoot}`;
  const paths: GatewayPaths = {
    paymentPage: `${root}/paymentPage`,
    pageSubmit: `${root}/paymentPage/submit`,
    challenge: `${root}/3ds/challenge`,
    acs: `${root}/3ds/acs`,
    paymentApi: `${root}/paymentApi`,
    batchUpload: `${root}/upload`,
    batchApi: `${root}/batchApi`,
    batchSandboxApi: `${basePath}/integration-batch/batchApi`,
    reportingApi: `${root}/reportingApi`,
    tools: `${basePath}/sandbox-tools`,
  };
  const state = new SandboxState(now);
  const ctx: GatewayContext = { merchants, state, now, paths };
  const batches = new BatchStore();
  const reports = new ReportStore();
  const reporting = { maxTransactions: options.reportMaxTransactions ?? MAX_REPORT_TRANSACTIONS };
  // Batches validate and process in time: whatever is due has happened before anyone looks.
  const settle = (): void => settleBatches(ctx, batches);

  const payBillNow = (billNumber: string): Transition => {
    const order = state.orderByBillNumber(billNumber);
    if (!order) return { ok: false, code: '00007' };
    const transition = payBill(order, now());
    if (transition.ok) state.saveOrder(transition.order);
    return transition;
  };

  async function route(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname.replace(/\/+$/, '') || '/';
    const method = request.method.toUpperCase();
    const post = (handler: () => Promise<Response> | Response): Promise<Response> | Response =>
      method === 'POST' ? handler() : methodNotAllowed('POST');
    switch (path) {
      case paths.paymentPage:
        return post(() => postPaymentPage(ctx, request));
      case paths.pageSubmit:
        return post(() => submitPaymentPage(ctx, request));
      case paths.paymentApi:
        return post(() => postPaymentApi(ctx, request));
      case paths.batchUpload:
        return post(() => postBatchUpload(ctx, batches, request));
      case paths.batchApi:
      case paths.batchSandboxApi:
        return post(() => postBatchApi(ctx, batches, request));
      case paths.reportingApi:
        return post(() => postReportingApi(ctx, reports, reporting, request));
      case paths.challenge:
        if (method === 'GET') return showChallenge(ctx, request);
        return post(() => answerChallenge(ctx, request));
      case paths.acs:
        if (method === 'GET') return showAcsPage(ctx, request);
        return post(() => answerAcsPage(ctx, request));
      case `${paths.tools}/pay-bill`:
        return post(() => payBillTool(request, payBillNow));
      case `${paths.tools}/orders`:
        return method === 'GET' ? jsonResponse(state.orders()) : methodNotAllowed('GET');
      default:
        return jsonResponse({ error: 'not_found' }, 404);
    }
  }

  return {
    paths,
    async handle(request) {
      try {
        settle();
        return await route(request);
      } catch (error) {
        console.error('sandbox gateway: unexpected error', error);
        return jsonResponse({ error: 'internal_error' }, 500);
      }
    },
    handles(url) {
      const path = new URL(url, 'http://sandbox.invalid').pathname;
      return (
        path.startsWith(`${root}/`) ||
        path.startsWith(`${paths.tools}/`) ||
        path.replace(/\/+$/, '') === paths.batchSandboxApi
      );
    },
    orders: () => {
      settle();
      return state.orders();
    },
    order(query) {
      settle();
      return state
        .orders()
        .filter(
          (order) =>
            (query.svcId === undefined || order.svcId === query.svcId) &&
            (query.merchantReference === undefined || order.merchantReference === query.merchantReference),
        )
        .at(-1);
    },
    tokens: () =>
      state.tokens().map((token) => ({
        merchantIdentifier: token.merchantIdentifier,
        tokenName: token.tokenName,
        cardNumber: maskCardNumber(token.cardNumber),
        expiryDate: token.expiryDate,
        scheme: token.scheme,
        status: token.status,
        temporary: token.temporary !== undefined,
      })),
    financingTransactions: () => state.financingTransactions().map(({ otp: _otp, ...rest }) => rest),
    payBill: payBillNow,
    reset: () => {
      state.clear();
      batches.clear();
      reports.clear();
    },
  };
}

function methodNotAllowed(allow: string): Response {
  return jsonResponse({ error: 'method_not_allowed' }, 405, { allow });
}

/** `POST sandbox-tools/pay-bill` with `bill_number` (JSON or form). */
async function payBillTool(request: Request, pay: (billNumber: string) => Transition): Promise<Response> {
  let billNumber: unknown;
  try {
    const type = request.headers.get('content-type') ?? '';
    billNumber = type.includes('json') ? (await readJson(request))['bill_number'] : (await readForm(request))['bill_number'];
  } catch (error) {
    if (error instanceof BodyError) return jsonResponse({ error: 'invalid_body' }, error.httpStatus);
    throw error;
  }
  if (typeof billNumber !== 'string' || billNumber === '') return jsonResponse({ error: 'bill_number_required' }, 400);
  const transition = pay(billNumber);
  if (transition.ok) {
    const { order } = transition;
    return jsonResponse({
      bill_number: billNumber,
      merchant_reference: order.merchantReference,
      svc_id: order.svcId,
      state: order.state,
      response_code: transition.code,
    });
  }
  const status = transition.code === '00007' ? 404 : 409;
  return jsonResponse({ bill_number: billNumber, error: transition.code === '31001' ? 'bill_expired' : transition.code === '00007' ? 'unknown_bill' : 'bill_not_payable', response_code: transition.code }, status);
}
