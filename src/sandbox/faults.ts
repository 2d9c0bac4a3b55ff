/**
 * Outages on request, so that tests and merchants can rehearse them: the next N requests to the
 * server-to-server paths (paymentApi, the batch paths, reportingApi) are answered HTTP 429 (a JSON
 * body that is not the gateway's, unsigned) or 503 (an HTML page, as a proxy in front of a gateway
 * answers), with `Retry-After` when asked, before the gateway looks at them: nothing they ask is
 * done. Or they are answered late (`delayMs`): without a status the gateway does what they ask at
 * once and its answer leaves only after the delay, as a slow gateway's does, so a caller that gives
 * up first has lost an answer to something that was done. `POST {basePath}/sandbox-tools/faults`
 * sets them (docs/sandbox.md, "Outages").
 */
import { field } from '../core/schemas/index.ts';
import { BodyError, jsonResponse, readJson } from './wire.ts';

export const FAULT_STATUSES = [429, 503] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/**
 * The next `count` requests (of `operation` and `merchantReference` only, when named) answer `status`, with `Retry-After:
 * retryAfterSeconds`; or, with `delayMs` alone, are carried out and answered that much later.
 */
export interface SandboxFaults {
  /** 429 or 503 answered instead of the gateway; left out for a slow answer (`delayMs`). */
  readonly status?: FaultStatus;
  readonly count: number;
  readonly retryAfterSeconds?: number;
  /** How late the answer leaves (a status answer too), in milliseconds. */
  readonly delayMs?: number;
  /** `command`, `query_command` or `service_command` of the requests to fail, e.g. `CAPTURE`; default every one. */
  readonly operation?: string;
  /** The `merchant_reference` of the requests to fail, e.g. `order-1001.pg2`; default any (or none). */
  readonly merchantReference?: string;
}

/** Most requests one plan fails, and the longest `Retry-After` it sends. */
export const MAX_FAULT_COUNT = 1_000;
export const MAX_RETRY_AFTER_SECONDS = 86_400;
/** The latest a planned answer may leave: longer than any caller should wait. */
export const MAX_FAULT_DELAY_MS = 120_000;

/** A plan that breaks no rule: a known status or a delay (or both), a count from 1, a whole Retry-After, an operation name. */
export function isFaultPlan(plan: SandboxFaults): boolean {
  const whole = (value: number, max: number, min = 0) => Number.isSafeInteger(value) && value >= min && value <= max;
  return (
    (plan.status === undefined ? plan.delayMs !== undefined : (FAULT_STATUSES as readonly unknown[]).includes(plan.status)) &&
    (plan.delayMs === undefined || whole(plan.delayMs, MAX_FAULT_DELAY_MS, 1)) &&
    whole(plan.count, MAX_FAULT_COUNT, 1) &&
    (plan.retryAfterSeconds === undefined || whole(plan.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS)) &&
    (plan.operation === undefined || /^[A-Z0-9_]{1,50}$/.test(plan.operation)) &&
    (plan.merchantReference === undefined || field('merchant_reference').safeParse(plan.merchantReference).success)
  );
}

/** The operation and merchant_reference a request names, read from a copy of its body (JSON, or the multipart upload's form). */
async function subjectOf(request: Request): Promise<{ readonly operation?: unknown; readonly merchantReference?: unknown }> {
  try {
    const copy = request.clone();
    const type = request.headers.get('content-type') ?? '';
    const fields: Record<string, unknown> = type.startsWith('multipart/')
      ? Object.fromEntries(await copy.formData())
      : (JSON.parse(await copy.text()) as Record<string, unknown>);
    return { operation: fields['command'] ?? fields['query_command'] ?? fields['service_command'], merchantReference: fields['merchant_reference'] };
  } catch {
    return {};
  }
}

/** Whether `plan` fails `request`: every request, or those of its operation and merchant_reference when it names them. */
async function isPlannedFor(plan: SandboxFaults, request: Request): Promise<boolean> {
  if (plan.operation === undefined && plan.merchantReference === undefined) return true;
  const subject = await subjectOf(request);
  return (
    (plan.operation === undefined || subject.operation === plan.operation) &&
    (plan.merchantReference === undefined || subject.merchantReference === plan.merchantReference)
  );
}

const OUTAGE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>503 Service Unavailable</title></head>
<body><h1>Service Unavailable</h1><p>The server is temporarily unable to handle the request. Please try again later.</p></body></html>
`;

function faultAnswer(plan: SandboxFaults & { readonly status: FaultStatus }): Response {
  const headers: Record<string, string> = plan.retryAfterSeconds === undefined ? {} : { 'retry-after': String(plan.retryAfterSeconds) };
  if (plan.status === 429) {
    return jsonResponse({ error: 'too_many_requests', message: 'Too many requests; try again later.' }, 429, headers);
  }
  return new Response(OUTAGE_PAGE, { status: 503, headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });
}

/** The faults planned for a gateway: at most one plan at a time, a new one replacing it. */
export class FaultPlan {
  #plan: SandboxFaults | undefined;

  set(plan: SandboxFaults | undefined): void {
    this.#plan = plan;
  }

  /** What is still planned. */
  pending(): SandboxFaults | undefined {
    return this.#plan;
  }

  /**
   * Answers `request` through `handle` (the gateway), or as the plan says when a fault is due (and
   * counted): the fault's answer instead of the gateway's, or the gateway's answer held back.
   */
  async answer(request: Request, handle: (request: Request) => Promise<Response>): Promise<Response> {
    const plan = this.#plan;
    if (!plan || !(await isPlannedFor(plan, request))) return handle(request);
    this.#plan = plan.count > 1 ? { ...plan, count: plan.count - 1 } : undefined;
    const { status } = plan;
    const response = status === undefined ? await handle(request) : faultAnswer({ ...plan, status });
    if (plan.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, plan.delayMs));
    return response;
  }
}

/**
 * `POST sandbox-tools/faults` with `{"status"?: 429 | 503, "delay_ms"?: D, "count": N, "retry_after"?: S, "operation"?: "CAPTURE",
 * "merchant_reference"?: "order-1001.pg2"}`.
 */
export async function faultsTool(request: Request, plan: FaultPlan): Promise<Response> {
  let body: Record<string, unknown>;
  try {
    body = await readJson(request);
  } catch (error) {
    if (error instanceof BodyError) return jsonResponse({ error: 'faults_invalid' }, 400);
    throw error;
  }
  const asked = {
    ...(body['status'] === undefined ? {} : { status: body['status'] }),
    ...(body['delay_ms'] === undefined ? {} : { delayMs: body['delay_ms'] }),
    count: body['count'],
    ...(body['retry_after'] === undefined ? {} : { retryAfterSeconds: body['retry_after'] }),
    ...(body['operation'] === undefined ? {} : { operation: body['operation'] }),
    ...(body['merchant_reference'] === undefined ? {} : { merchantReference: body['merchant_reference'] }),
  } as SandboxFaults;
  if (!isFaultPlan(asked)) return jsonResponse({ error: 'faults_invalid' }, 400);
  plan.set(asked);
  return faultsView(plan);
}

/** What is planned, as the tool shows it (`count` 0 when nothing is). */
export function faultsView(plan: FaultPlan): Response {
  const pending = plan.pending();
  if (!pending) return jsonResponse({ count: 0 });
  return jsonResponse({
    ...(pending.status === undefined ? {} : { status: pending.status }),
    ...(pending.delayMs === undefined ? {} : { delay_ms: pending.delayMs }),
    count: pending.count,
    ...(pending.retryAfterSeconds === undefined ? {} : { retry_after: pending.retryAfterSeconds }),
    ...(pending.operation === undefined ? {} : { operation: pending.operation }),
    ...(pending.merchantReference === undefined ? {} : { merchant_reference: pending.merchantReference }),
  });
}
