/**
 * The return URL: where the gateway sends the customer back, by form post or query string. The
 * gateway's fields are verified with the response phrase; parameters whose names start with
 * `pg_` are the merchant's own routing and take no part. A missing, altered or foreign signature
 * is never reported as paid. A verified answer is still only the browser's word (it may be an old
 * one, replayed): the result reported is what CHECK_STATUS says now, once per idempotency key.
 *
 * A verified TOKENIZATION answer (merchant page) is completed here, server to server: PURCHASE or
 * AUTHORIZATION with the token, the customer's IP and this return URL, as a direct installments
 * operation when a plan was chosen. If the gateway answers with a `3ds_url` the customer is sent
 * there, and the gateway's final return comes back here and is verified like any other.
 */
import type { EndpointErrorCode, PaymentResult } from '../core/endpoint-api.ts';
import { isLanguage, type Language } from '../core/language.ts';
import { DUPLICATE_REFERENCE } from '../core/order-status.ts';
import { classifyResponse } from '../core/response.ts';
import {
  field,
  hostedPageResponse,
  installmentsDirectRequest,
  installmentsDirectResponse,
  trustedChannelRequest,
  trustedChannelResponse,
  type HostedPageResponse,
} from '../core/schemas/index.ts';
import { verifySignature } from '../core/signature.ts';
import type { VerifiedResult } from './config.ts';
import { ERROR_MESSAGES, EndpointRefusal } from './errors.ts';
import {
  clientAddress,
  jsonResponse,
  languageFromHeaders,
  readBodyText,
  redirectResponse,
  type RequestContext,
} from './http.ts';
import { orderParams } from './gateway-params.ts';
import type { MerchantOrder, OrderLookup } from './orders.ts';
import { COMPLETION_FIELDS } from './routes-payment-pages.ts';
import { confirmedResult, reportOnce, resultOfAnswer, toPaymentResult } from './results.ts';
import type { EndpointRuntime } from './route.ts';

/** Parameters with this prefix belong to the merchant (routing, tracking) and are never verified. */
export const MERCHANT_PARAMETER_PREFIX = 'pg_';

type ReturnParams = { readonly fields: Record<string, string>; readonly duplicated: boolean };

/**
 * The gateway's fields of a return: the form body of a POST (the query string of a POST is the
 * merchant's), or the query string of a GET, less the merchant's `pg_` parameters.
 */
async function readReturnParams(request: Request, maxBytes: number): Promise<ReturnParams> {
  const source =
    request.method === 'POST'
      ? new URLSearchParams(await readBodyText(request, maxBytes))
      : new URL(request.url).searchParams;
  const fields: Record<string, string> = {};
  let duplicated = false;
  for (const [name, value] of source) {
    if (name.startsWith(MERCHANT_PARAMETER_PREFIX)) continue;
    if (Object.hasOwn(fields, name)) duplicated = true;
    fields[name] = value;
  }
  return { fields, duplicated };
}

export async function handleGatewayReturn(
  request: Request,
  context: RequestContext,
  runtime: EndpointRuntime,
): Promise<Response> {
  const { settings, log } = runtime;
  if (request.method !== 'GET' && request.method !== 'POST') {
    throw new EndpointRefusal('method_not_allowed', { headers: { allow: 'GET, POST' } });
  }
  const { fields, duplicated } = await readReturnParams(request, settings.maxBodyBytes);
  const language = isLanguage(fields['language']) ? fields['language'] : languageFromHeaders(request);
  // Unverified, so only used to send the customer back to the right order page, as failed.
  const claimed = field('merchant_reference').safeParse(fields['merchant_reference']);
  const claimedReference = claimed.success ? claimed.data : undefined;

  const verified = duplicated
    ? ({ valid: false, reason: 'mismatch' } as const)
    : await verifySignature(fields, settings.responsePhrase, settings.shaType);
  if (!verified.valid) {
    log.warn('return_signature_invalid', {
      reason: duplicated ? 'duplicated' : verified.reason,
      merchant_reference: claimedReference,
    });
    return refusedReturn(runtime, 'gateway_signature_invalid', claimedReference, language);
  }
  const parsed = hostedPageResponse.safeParse(fields);
  if (!parsed.success) {
    log.error('return_malformed', {
      merchant_reference: claimedReference,
      fields: parsed.error.issues.map((issue) => issue.path.join('.')),
    });
    return refusedReturn(runtime, 'invalid_request', claimedReference, language);
  }
  const answer = parsed.data;
  if (answer.service_command === 'TOKENIZATION') return completeMerchantPage(answer, request, context, language, runtime);

  const order = await settings.resolveOrder(answer.merchant_reference, fromGateway(request));
  return confirmAndDeliver(answer, order, 'return', request, language, runtime);
}

/** The lookup of a reference read from a verified gateway answer: no session cookie is expected. */
function fromGateway(request: Request): OrderLookup {
  return { request, route: 'gatewayReturn', referenceSource: 'gateway' };
}

/**
 * A verified answer the customer's browser brought back is confirmed with CHECK_STATUS before
 * anything is reported: the customer may be replaying an old return. If the gateway does not say,
 * the customer sees a pending result and the merchant is told nothing.
 */
async function confirmAndDeliver(
  answer: Readonly<Record<string, unknown>>,
  order: MerchantOrder | undefined,
  source: VerifiedResult['source'],
  request: Request,
  language: Language,
  runtime: EndpointRuntime,
  reason?: EndpointErrorCode,
): Promise<Response> {
  const reference = String(answer['merchant_reference']);
  const result = await confirmedResult(reference, answer, order, source, language, runtime, reason);
  if (result) return deliverResult(result, request, runtime);
  runtime.log.warn('result_unconfirmed', { merchant_reference: reference, source });
  return unconfirmedReturn(runtime, reference, language);
}

/** PURCHASE or AUTHORIZATION with the token the merchant page just created. */
async function completeMerchantPage(
  tokenization: HostedPageResponse,
  request: Request,
  context: RequestContext,
  language: Language,
  runtime: EndpointRuntime,
): Promise<Response> {
  const { settings, gateway, log } = runtime;
  const order = await settings.resolveOrder(tokenization.merchant_reference, fromGateway(request));
  // A failed tokenization, or one for an unknown order, charges nothing: what the gateway says is reported.
  if (classifyResponse(tokenization) !== 'success' || !order) {
    return confirmAndDeliver(tokenization, order, 'merchant-page', request, language, runtime);
  }
  // A tokenization success is not a payment: without a token there is nothing to charge.
  if (!tokenization.token_name) {
    log.error('tokenization_without_token', { merchant_reference: order.merchant_reference });
    return refusedReturn(runtime, 'invalid_request', order.merchant_reference, language);
  }
  const chosenCommand = tokenization[COMPLETION_FIELDS.command];
  const command = chosenCommand === 'AUTHORIZATION' ? 'AUTHORIZATION' : 'PURCHASE';
  const planCode = tokenization[COMPLETION_FIELDS.plan_code];
  const issuerCode = tokenization[COMPLETION_FIELDS.issuer_code];
  const installments = planCode !== undefined && issuerCode !== undefined;
  const params = {
    command,
    ...orderParams(settings, order, language),
    customer_email: order.customer_email,
    customer_ip: clientAddress(request, context, settings.trustedProxyHops),
    // The customer is present and typed the card on the merchant page: an e-commerce transaction.
    eci: 'ECOMMERCE',
    token_name: tokenization.token_name,
    order_description: order.description,
    return_url: settings.returnUrl,
    ...(installments ? { installments: 'YES', plan_code: planCode, issuer_code: issuerCode } : {}),
  };

  let answer: Record<string, unknown>;
  try {
    answer = await gateway.call({
      operation: installments ? `${command} installments` : command,
      schema: installments ? installmentsDirectRequest : trustedChannelRequest,
      answerSchema: installments ? installmentsDirectResponse : trustedChannelResponse,
      language,
      params,
    });
  } catch (error) {
    if (!(error instanceof EndpointRefusal)) throw error;
    // No usable answer (unreachable, unsigned, unreadable): the payment may or may not have happened,
    // so the gateway is asked where the order stands; if it cannot say, the result is pending.
    return confirmAndDeliver(tokenization, order, 'merchant-page', request, language, runtime, error.code);
  }

  // The same tokenization return posted again: the first completion charged the order. The
  // refusal is not the order's outcome; CHECK_STATUS is, and the ledger has reported it already.
  if (answer['response_code'] === DUPLICATE_REFERENCE) {
    log.info('duplicate_completion', { merchant_reference: order.merchant_reference });
    return confirmAndDeliver(tokenization, order, 'merchant-page', request, language, runtime);
  }

  const threeDsUrl = answer['3ds_url'];
  if (typeof threeDsUrl === 'string' && classifyResponse(answer) !== 'failure') {
    if (isWebUrl(threeDsUrl)) {
      log.info('three_ds_redirect', { merchant_reference: order.merchant_reference });
      return redirectResponse(threeDsUrl);
    }
    log.error('three_ds_url_invalid', { merchant_reference: order.merchant_reference });
    return unconfirmedReturn(runtime, order.merchant_reference, language);
  }
  return deliverResult(resultOfAnswer(answer, order, 'merchant-page', language, log), request, runtime);
}

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Hands a result to the merchant once (`onResult`; a Response it returns is what the customer
 * gets), then sends the customer to `resultUrl`, else answers the PaymentResult as JSON. A replay
 * gets the answer of the result reported first.
 */
async function deliverResult(result: VerifiedResult, request: Request, runtime: EndpointRuntime): Promise<Response> {
  const reported = await reportOnce(result, request, runtime);
  if (reported.answered) return reported.answered;
  const recorded = reported.result;
  const { resultUrl } = runtime.settings;
  if (resultUrl) {
    return redirectResponse(
      resultLocation(runtime, resultUrl, {
        merchant_reference: recorded.merchant_reference,
        outcome: recorded.outcome,
        response_code: recorded.response_code || undefined,
        error: recorded.error,
      }),
    );
  }
  return jsonResponse(200, toPaymentResult(recorded));
}

/** What the customer sees when the gateway could not confirm a result: pending, never paid. */
function unconfirmedReturn(runtime: EndpointRuntime, merchantReference: string, language: Language): Response {
  const { resultUrl } = runtime.settings;
  if (resultUrl) {
    return redirectResponse(
      resultLocation(runtime, resultUrl, { merchant_reference: merchantReference, outcome: 'pending', error: 'gateway_unreachable' }),
    );
  }
  const pending: PaymentResult = {
    merchant_reference: merchantReference,
    outcome: 'pending',
    response_code: '',
    response_message: ERROR_MESSAGES.gateway_unreachable[language],
    status: '',
  };
  return jsonResponse(200, pending);
}

/** An unverified return: the customer is sent to the result page as failed, or hears a 400. */
function refusedReturn(
  runtime: EndpointRuntime,
  code: EndpointErrorCode,
  claimedReference: string | undefined,
  language: Language,
): Response {
  const { resultUrl } = runtime.settings;
  if (resultUrl) {
    return redirectResponse(
      resultLocation(runtime, resultUrl, { merchant_reference: claimedReference, outcome: 'failure', error: code }),
    );
  }
  const refusal = new EndpointRefusal(code, { status: 400 });
  return jsonResponse(refusal.status, refusal.body(language));
}

/** `resultUrl` with `merchant_reference`, `outcome` and, when known, `response_code` or `error`. */
function resultLocation(
  runtime: EndpointRuntime,
  resultUrl: string,
  params: Readonly<Record<string, string | undefined>>,
): string {
  const url = new URL(resultUrl, runtime.settings.publicOrigin);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.href;
}
