/**
 * The results routes of the standalone service, for the shop's back end (never a browser): list the
 * results the shop has not acknowledged, and acknowledge one. Each request is signed with
 * `PG_HOOK_SECRET` like the webhook (a request outside the five-minute window is refused), and each
 * answer is signed back, so the shop can recover every result it missed while it was down, even
 * without the webhook. Each listed entry names its `type` as the webhook would (`payment_result` or
 * `saved_card`), so a shop polling instead can tell a saved card from a payment before it reads the
 * result. Without a hook secret the routes do not exist.
 *
 *     POST {base}/results/pending      {"limit": 100}               → {"results": [{type, …StoredResult}, …]}
 *     POST {base}/results/acknowledge  {"idempotency_key": "…"}      → {"acknowledged": "…"}
 */
import type * as z from 'zod/mini';
import { validate } from '../core/field-errors.ts';
import type { Language } from '../core/language.ts';
import { EndpointRefusal } from './errors.ts';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from './hook-signature.ts';
import { assertJsonContentType, jsonResponse, languageFromHeaders, parseJsonObject, readBodyText } from './http.ts';
import type { Logger } from '../log/logger.ts';
import type { ResultStore } from '../store/store.ts';
import { resultAcknowledgeRequest, resultsListRequest, SERVICE_ROUTES, webhookTypeOf } from './shop-protocol.ts';

export interface ResultsRoutesOptions {
  readonly results: ResultStore;
  /** Without a secret nobody could be told apart from the shop: the routes answer 404. */
  readonly secret: string | undefined;
  readonly basePath: string;
  readonly log: Logger;
  readonly now: () => Date;
}

const MAX_BODY_BYTES = 16 * 1024;
const DEFAULT_LIMIT = 100;

/** A handler for the two routes; undefined for any other path. */
export function createResultsRoutes(options: ResultsRoutesOptions): (request: Request) => Promise<Response | undefined> {
  const { results, secret, basePath, log } = options;
  const pendingPath = `${basePath}${SERVICE_ROUTES.resultsPending}`;
  const acknowledgePath = `${basePath}${SERVICE_ROUTES.resultsAcknowledge}`;

  const signed = async (status: number, body: unknown): Promise<Response> => {
    const text = JSON.stringify(body);
    const response = jsonResponse(status, body);
    response.headers.set(HOOK_SIGNATURE_HEADER, await signHookBody(text, secret ?? '', options.now()));
    return response;
  };

  const readSigned = async <S extends z.ZodMiniType>(request: Request, schema: S, language: Language): Promise<z.infer<S>> => {
    if (request.method !== 'POST') throw new EndpointRefusal('method_not_allowed', { headers: { allow: 'POST' } });
    assertJsonContentType(request);
    const text = await readBodyText(request, MAX_BODY_BYTES);
    const verified = await verifyHookSignature(text, request.headers.get(HOOK_SIGNATURE_HEADER), secret ?? '', {
      now: options.now(),
    });
    if (!verified.valid) {
      log.warn('results_signature_invalid', { reason: verified.reason });
      throw new EndpointRefusal('hook_signature_invalid', { field: HOOK_SIGNATURE_HEADER.toLowerCase() });
    }
    const parsed = validate(schema, parseJsonObject(text), language);
    if (!parsed.ok) {
      const [first] = parsed.errors;
      throw new EndpointRefusal('invalid_request', { field: first?.field || undefined, message: first?.message });
    }
    return parsed.data;
  };

  return async (request) => {
    const path = new URL(request.url).pathname;
    if (path !== pendingPath && path !== acknowledgePath) return undefined;
    const language = languageFromHeaders(request);
    try {
      if (secret === undefined) throw new EndpointRefusal('not_found');
      if (path === pendingPath) {
        const { limit } = await readSigned(request, resultsListRequest, language);
        const pending = await results.list({ state: 'pending', limit: limit ?? DEFAULT_LIMIT });
        return await signed(200, { results: pending.map((entry) => ({ type: webhookTypeOf(entry.result), ...entry })) });
      }
      const { idempotency_key: key } = await readSigned(request, resultAcknowledgeRequest, language);
      if (!(await results.acknowledge(key, options.now()))) throw new EndpointRefusal('unknown_result', { field: 'idempotency_key' });
      log.info('result_acknowledged', { idempotency_key: key, by: 'results_route' });
      return await signed(200, { acknowledged: key });
    } catch (error) {
      if (!(error instanceof EndpointRefusal)) throw error;
      log.info('refused', { route: path === pendingPath ? 'resultsPending' : 'resultsAcknowledge', code: error.code, field: error.details.field });
      return jsonResponse(error.status, error.body(language), error.details.headers);
    }
  };
}
