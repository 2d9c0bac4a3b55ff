/**
 * `createSandboxGateway`: the spec's gateway, implemented locally as a Web-standard handler
 * (`Request` → `Response`), so that it runs in Node behind `node:http`, in the browser behind msw,
 * and beside the merchant endpoint on one port. State lives in memory, per gateway; given a
 * `persistence`, it is also loaded from there at creation and saved there after every request that
 * may change it, before the answer (snapshot.ts), so that it outlives a restart.
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
 *   POST {basePath}/sandbox-tools/advance-clock    sandbox only: moves the clock forward ({"seconds": N})
 *   GET  {basePath}/sandbox-tools/clock            sandbox only: the sandbox's now
 *   POST {basePath}/sandbox-tools/faults           sandbox only: the next N server-to-server requests
 *                                                   answer 429 or 503, or late ({"status"?, "delay_ms"?, "count", "retry_after"?, "operation"?});
 *                                                   GET shows what is planned, DELETE clears it
 */
import { MAX_REPORT_TRANSACTIONS } from '../core/report-file.ts';
import { isGatewayReferenceField, type GatewayReferenceField } from '../core/wire-names.ts';
import { BatchStore, postBatchApi, postBatchSandboxApi, postBatchUpload, settleBatches } from './batch.ts';
import { isClockAdvance, MAX_CLOCK_ADVANCE_SECONDS } from './clock.ts';
import type { GatewayContext, GatewayPaths } from './context.ts';
import { merchantDirectory, SANDBOX_MERCHANTS, type SandboxMerchant } from './merchants.ts';
import { isSuccessCodes, payBill, type SandboxOrder, type SuccessCodes, type Transition } from './orders.ts';
import { postPaymentApi } from './payment-api.ts';
import { answerChallenge, postPaymentPage, showChallenge, submitPaymentPage } from './payment-page.ts';
import { postReportingApi, ReportStore } from './reports.ts';
import { restoreSnapshot, takeSnapshot, type SandboxPersistence } from './snapshot.ts';
import { SandboxState, type FinancingTransaction } from './state.ts';
import { answerAcsPage, showAcsPage } from './three-ds.ts';
import { maskCardNumber } from '../core/card-number.ts';
import { FaultPlan, faultsTool, faultsView, isFaultPlan, type SandboxFaults } from './faults.ts';
import { BodyError, jsonResponse, readForm, readJson } from './wire.ts';

export interface SandboxGatewayOptions {
  /** The accounts the gateway knows; default: SANDBOX_MERCHANT and SANDBOX_MERCHANT_BASIC. */
  readonly merchants?: readonly SandboxMerchant[];
  /** Where the gateway is mounted, e.g. '/sandbox'; default ''. */
  readonly basePath?: string;
  /** The spec's {api_root}; default 'FortAPI'. */
  readonly apiRoot?: string;
  /**
   * The wire name of the gateway's reference of an order: `svc_id` (the specification's, the
   * default) or `fort_id` (the live gateway's). The sandbox then answers it under that name
   * everywhere (fields, batch result rows and text, report columns, XML) and expects it under that
   * name in requests, batch files and report columns; the other name is refused (00002) as any
   * field the gateway does not know.
   */
  readonly gatewayReferenceField?: GatewayReferenceField;
  /** The gateway's clock; default the system clock. A SandboxClock's `now` moves time in tests. */
  readonly now?: () => Date;
  /** Most operations a report may hold; default the spec's 200,000 (lower it to test the limit). */
  readonly reportMaxTransactions?: number;
  /**
   * Where the state outlives the gateway; default none (memory only). Loaded at creation (a
   * snapshot that cannot be restored stops creation) and saved after every POST, before the answer.
   */
  readonly persistence?: SandboxPersistence;
  /**
   * The codes that accept a capture and a refund: `spec` (default) answers the specification's
   * 20064 with status 04; `live` answers what live accounts answer, 04000 (status 04) for a capture
   * and 06000 (status 06) for a refund, so that a client can be rehearsed against both. A void is
   * 08000 either way.
   */
  readonly successCodes?: SuccessCodes;
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
  /**
   * Moves the gateway's clock forward by `seconds` (a whole number, 1 to MAX_CLOCK_ADVANCE_SECONDS;
   * RangeError otherwise), as `POST sandbox-tools/advance-clock` does; returns the new now.
   */
  advanceClock(seconds: number): Date;
  /**
   * The next `count` requests to paymentApi, the batch paths and reportingApi (of `operation` only,
   * when named) answer HTTP `status` (429 with a JSON body, 503 with an HTML page), with
   * `Retry-After` when `retryAfterSeconds` is given, and are not carried out; with `delayMs` alone
   * they are carried out and answered that much later (a slow gateway); what
   * `POST sandbox-tools/faults` does. Undefined clears the plan; RangeError for a plan out of bounds.
   */
  injectFaults(plan: SandboxFaults | undefined): void;
  /** Forgets every order, token, page, financing attempt, batch and report, the clock's advance and the planned faults. */
  reset(): void;
}

function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

export function createSandboxGateway(options: SandboxGatewayOptions = {}): SandboxGateway {
  const referenceField = options.gatewayReferenceField ?? 'svc_id';
  if (!isGatewayReferenceField(referenceField)) throw new Error('gatewayReferenceField must be svc_id or fort_id');
  const merchants = merchantDirectory(options.merchants ?? SANDBOX_MERCHANTS, referenceField);
  const basePath = normalizeBasePath(options.basePath ?? '');
  const apiRoot = (options.apiRoot ?? 'FortAPI').replace(/^\/+|\/+$/g, '');
  if (apiRoot === '') throw new Error('apiRoot must not be empty');
  const clock = options.now ?? (() => new Date());
  // What advance-clock added: the gateway's time runs ahead of its clock by this much.
  let clockOffsetMs = 0;
  const now = (): number => clock().getTime() + clockOffsetMs;
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
  const successCodes = options.successCodes ?? 'spec';
  if (!isSuccessCodes(successCodes)) throw new Error("successCodes must be 'spec' or 'live'");
  const ctx: GatewayContext = { merchants, state, now, paths, successCodes };
  const batches = new BatchStore();
  const reports = new ReportStore();
  const faults = new FaultPlan();
  // The server-to-server paths an outage answers for; the pages a browser opens are left alone.
  const faultPaths = new Set([paths.paymentApi, paths.batchUpload, paths.batchApi, paths.batchSandboxApi, paths.reportingApi]);
  const reporting = { maxTransactions: options.reportMaxTransactions ?? MAX_REPORT_TRANSACTIONS };
  // Batches validate and process in time: whatever is due has happened before anyone looks.
  const settle = (): boolean => settleBatches(ctx, batches);

  const { persistence } = options;
  const save = (): void => {
    if (persistence) {
      persistence.save(takeSnapshot({ state: state.records(), batches: batches.records(), reports: reports.records(), clockOffsetMs }));
    }
  };
  if (persistence) {
    const saved = persistence.load();
    if (saved !== undefined) {
      try {
        const contents = restoreSnapshot(saved, merchants);
        state.restore(contents.state);
        batches.restore(contents.batches);
        reports.restore(contents.reports);
        clockOffsetMs = contents.clockOffsetMs;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`the sandbox state in ${persistence.location} cannot be restored (${reason}); delete it to start a fresh sandbox`, {
          cause: error,
        });
      }
    }
  }

  const payBillNow = (billNumber: string): Transition => {
    const order = state.orderByBillNumber(billNumber);
    if (!order) return { ok: false, code: '00007' };
    const transition = payBill(order, now());
    if (transition.ok) state.saveOrder(transition.order);
    return transition;
  };

  const advanceClock = (seconds: number): Date => {
    if (!isClockAdvance(seconds)) {
      throw new RangeError(`the sandbox clock moves forward by a whole number of seconds, 1 to ${MAX_CLOCK_ADVANCE_SECONDS}`);
    }
    clockOffsetMs += seconds * 1000;
    return new Date(now());
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
        return post(() => postBatchApi(ctx, batches, request));
      case paths.batchSandboxApi:
        return post(() => postBatchSandboxApi(ctx, batches, request));
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
      case `${paths.tools}/advance-clock`:
        return post(() => advanceClockTool(request, advanceClock));
      case `${paths.tools}/clock`:
        return method === 'GET' ? jsonResponse({ now: new Date(now()).toISOString() }) : methodNotAllowed('GET');
      case `${paths.tools}/faults`:
        if (method === 'GET') return faultsView(faults);
        if (method === 'DELETE') {
          faults.set(undefined);
          return faultsView(faults);
        }
        return method === 'POST' ? faultsTool(request, faults) : methodNotAllowed('GET, POST, DELETE');
      default:
        return jsonResponse({ error: 'not_found' }, 404);
    }
  }

  /** The gateway's answer to a request, its state saved when the request may have changed it. */
  async function handleNow(request: Request): Promise<Response> {
    let response: Response;
    let settled: boolean;
    try {
      settled = settle();
      response = await route(request);
    } catch (error) {
      console.error('sandbox gateway: unexpected error', error);
      return jsonResponse({ error: 'internal_error' }, 500);
    }
    // A POST may change the state. A GET changes it only when a batch fell due, and then its
    // processing gave orders svc_ids the answer may show: saved too.
    if (request.method.toUpperCase() === 'POST' || settled) {
      try {
        save();
      } catch (error) {
        console.error('sandbox gateway: could not save the state', error);
        return jsonResponse({ error: 'state_not_saved' }, 500);
      }
    }
    return response;
  }

  return {
    paths,
    async handle(request) {
      // A planned outage answers before the gateway looks at the request (nothing it asks is done);
      // a planned slow answer is the gateway's, held back.
      if (request.method.toUpperCase() === 'POST' && faultPaths.has(new URL(request.url).pathname.replace(/\/+$/, ''))) {
        return faults.answer(request, handleNow);
      }
      return handleNow(request);
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
      if (settle()) save();
      return state.orders();
    },
    order(query) {
      if (settle()) save();
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
    payBill(billNumber) {
      const transition = payBillNow(billNumber);
      if (transition.ok) save();
      return transition;
    },
    advanceClock(seconds) {
      const moved = advanceClock(seconds);
      save();
      return moved;
    },
    injectFaults(plan) {
      if (plan !== undefined && !isFaultPlan(plan)) {
        throw new RangeError('faults: status 429 or 503 and/or delayMs 1 to 120000, count 1 to 1000, retryAfterSeconds 0 to 86400, operation a name such as CAPTURE');
      }
      faults.set(plan);
    },
    reset: () => {
      faults.set(undefined);
      state.clear();
      batches.clear();
      reports.clear();
      clockOffsetMs = 0;
      save();
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

/** `POST sandbox-tools/advance-clock` with `{"seconds": N}`: the sandbox's new now. */
async function advanceClockTool(request: Request, advance: (seconds: number) => Date): Promise<Response> {
  let seconds: unknown;
  try {
    seconds = (await readJson(request))['seconds'];
  } catch (error) {
    if (error instanceof BodyError) return jsonResponse({ error: 'seconds_invalid' }, 400);
    throw error;
  }
  if (!isClockAdvance(seconds)) return jsonResponse({ error: 'seconds_invalid' }, 400);
  return jsonResponse({ now: advance(seconds).toISOString(), advanced_seconds: seconds });
}
