/**
 * The return URL: where the gateway sends the customer back, by form post or query string. The
 * gateway's fields are verified with the response phrase as they came (the gateway's reference of
 * the order under the wire's name, `gatewayReferenceField`), and only then read, that reference as
 * `svc_id`; parameters whose names start with `pg_` are the merchant's own routing and take no
 * part. A missing, altered or foreign signature is never reported as paid. A verified answer is still only the browser's word (it may be an old
 * one, replayed): the result reported is what CHECK_STATUS says now, once per idempotency key.
 *
 * A verified TOKENIZATION answer (merchant page, embedded page) is completed here, server to
 * server: PURCHASE or AUTHORIZATION with the token, the customer's IP and this return URL, as a
 * direct installments operation when a plan was chosen (by the element, or on the gateway's page),
 * with the account's `check_3ds` when the merchant configured one.
 * If the gateway answers with a `3ds_url` the customer is sent there, and the gateway's final
 * return comes back here and is verified like any other. A TOKENIZATION that only saves a card is
 * never completed: GET_TOKENS confirms the token instead.
 *
 * The embedded page's TOKENIZATION (signed with `COMPLETION_FIELDS.confirmation`) is not completed
 * at its return: the gateway's button only took the card. The frame's page tells the element the
 * card is ready and keeps the token sealed (ReadyCard) in a form of its own, which it posts to the
 * confirm route (`handleEmbeddedConfirm`) only when the element's own Pay button, naming the
 * amount, asks; that route completes it as above.
 *
 * How the answer is presented depends on the flow, never what it says: a top-level return is
 * redirected to `resultUrl` (or answered JSON); a framed one (`pg_frame` in the return URL the
 * endpoint signed) gets a small page that tells the element (framed-pages.ts). A return that
 * cannot be recorded (the store or the shop's order lookup is down) gets a page too, never the JSON error, unless the
 * caller asked for JSON: the customer's browser navigated here.
 *
 * A card's return posted again after its charge was recorded (the back button, a refresh) is
 * answered from the ledger: the gateway would refuse a second charge (00005), so none is sent.
 */
import { EMBEDDED_CONFIRM_ROUTE, FRAMED_MESSAGE_TYPES, ROUTES, type EndpointErrorCode, type FramedResultMessage, type PaymentResult } from '../core/endpoint-api.ts';
import { completionInstallments } from '../core/installments.ts';
import { isLanguage, type Language } from '../core/language.ts';
import { DUPLICATE_REFERENCE, isPaidState } from '../core/order-status.ts';
import { orderReferenceOf } from '../core/payment-attempts.ts';
import { classifyResponse, isConfigurationRefusal } from '../core/response.ts';
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
import { fromWireNames } from '../core/wire-names.ts';
import { FRAMED_RETURN_PARAMETER, type VerifiedResult } from './config.ts';
import { countCardAttempt, logCardRefused } from './card-attempts.ts';
import { gatewayOrderStatus, isStatusRefusedForSettings, logConfigurationRefusal } from './gateway-status.ts';
import { ERROR_MESSAGES, EndpointRefusal, STORE_RETRY_AFTER_SECONDS } from './errors.ts';
import { framedReadyPage, framedResultPage, framedThreeDsPage } from './framed-pages.ts';
import {
  asksForJson,
  clientAddress,
  isOriginAllowed,
  jsonResponse,
  languageFromHeaders,
  readBodyText,
  redirectResponse,
  type RequestContext,
} from './http.ts';
import { orderParams, returnUrlFor } from './gateway-params.ts';
import { orderDisagreement, type MerchantOrder, type OrderLookup } from './orders.ts';
import { COMPLETION_FIELDS, ELEMENT_CONFIRMATION, readShownAmount, SAVE_CARD_COMPLETION } from './routes-payment-pages.ts';
import {
  confirmedResult,
  confirmedSavedCard,
  recordedCharge,
  reportOnce,
  resultOfAnswer,
  toPaymentResult,
  watchPayment,
  withDuplicateCheck,
  withSavedCard,
} from './results.ts';
import { NOT_RECORDED_TEXT, returnNotRecordedPage } from './result-page.ts';
import { RESULT_PROOF_PARAMETER } from './result-proof.ts';
import { StoreUnavailableError } from '../store/store.ts';
import { savedCardWatch, threeDsWatch, unconfirmedWatch } from './watches.ts';
import type { EndpointRuntime, ReadyCard } from './route.ts';

/** Parameters with this prefix belong to the merchant (routing, tracking) and are never verified. */
export const MERCHANT_PARAMETER_PREFIX = 'pg_';

/** True when the return URL the gateway came back to is the framed one. */
function isFramedReturn(request: Request): boolean {
  return new URL(request.url).searchParams.get(FRAMED_RETURN_PARAMETER) === '1';
}

type Intent = FramedResultMessage['intent'];

/**
 * How the customer's browser gets the answer. Only the presentation differs between a top-level
 * return and a framed one; the result (verified, confirmed, reported once) is the same.
 */
interface Presentation {
  readonly framed: boolean;
  /** A result recorded in the ledger (this one, or the one reported first for a replay). */
  result(recorded: VerifiedResult): Promise<Response>;
  /** The gateway could not confirm anything: pending, never paid. */
  unconfirmed(merchantReference: string, intent?: Intent): Promise<Response>;
  /**
   * An answer that could not be verified or used: failed, nothing reported. `reference` is the
   * order's, or with `unverified` only what an answer that failed its signature claims: that
   * earns no proof for the result page, which would show the named order to whoever posted it.
   */
  refused(code: EndpointErrorCode, reference: string | undefined, intent?: Intent, unverified?: 'unverified'): Promise<Response>;
  /** The completion needs 3-D Secure at `url`. */
  threeDs(url: string, merchantReference: string): Response;
  /**
   * The return could not be recorded (the store or the shop's order lookup is down, or a fault of
   * the endpoint's own, `code`): not confirmed yet, not to be paid again,
   * 503 with `Retry-After`; nothing recorded, so the same return posted again is handled afresh.
   */
  notRecorded(merchantReference: string | undefined, intent: Intent, code: EndpointErrorCode, status: number): Response;
}

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
  const { settings } = runtime;
  if (request.method !== 'GET' && request.method !== 'POST') {
    throw new EndpointRefusal('method_not_allowed', { headers: { allow: 'GET, POST' } });
  }
  const { fields: wire, duplicated } = await readReturnParams(request, settings.maxBodyBytes);
  const language = isLanguage(wire['language']) ? wire['language'] : languageFromHeaders(request);
  const present = isFramedReturn(request) ? framedPresentation(runtime, language) : topLevelPresentation(runtime, language);
  // Unverified, so only used to send the customer back to the right order page, as failed.
  const claimed = field('merchant_reference').safeParse(wire['merchant_reference']);
  const claimedReference = claimed.success ? orderReferenceOf(claimed.data) : undefined;
  const flow: ReturnFlow = { request, context, language, runtime, present };
  try {
    return await answerReturn(wire, duplicated, claimedReference, flow);
  } catch (error) {
    // Only a verified answer reaches the store, so the reference and the completion choice are the gateway's.
    const intent = wire['service_command'] === 'TOKENIZATION' && wire[COMPLETION_FIELDS.command] === SAVE_CARD_COMPLETION ? 'save-card' : 'pay';
    return notRecordedAnswer(error, claimedReference, intent, flow, 'gatewayReturn');
  }
}

/** A return's fields, verified, then answered by what the gateway said (see handleGatewayReturn). */
async function answerReturn(
  wire: Record<string, string>,
  duplicated: boolean,
  claimedReference: string | undefined,
  flow: ReturnFlow,
): Promise<Response> {
  const { request, runtime, present } = flow;
  const { settings, log } = runtime;
  const verified = duplicated
    ? ({ valid: false, reason: 'mismatch' } as const)
    : await verifySignature(wire, settings.responsePhrase, settings.shaType);
  if (!verified.valid) {
    log.warn('return_signature_invalid', {
      reason: duplicated ? 'duplicated' : verified.reason,
      merchant_reference: claimedReference,
    });
    return present.refused('gateway_signature_invalid', claimedReference, 'pay', 'unverified');
  }
  const fields = fromWireNames(wire, settings.gatewayReferenceField);
  const parsed = hostedPageResponse.safeParse(fields);
  if (!parsed.success) {
    log.error('return_malformed', {
      merchant_reference: claimedReference,
      fields: parsed.error.issues.map((issue) => issue.path.join('.')),
    });
    return present.refused('invalid_request', claimedReference);
  }
  const answer = parsed.data;
  if (answer.service_command === 'TOKENIZATION') {
    // The completion choice comes back signed: the browser cannot turn a card saving into a charge, or back.
    return answer[COMPLETION_FIELDS.command] === SAVE_CARD_COMPLETION ? saveCard(answer, flow) : completeMerchantPage(answer, flow);
  }

  // A new attempt's reference (`<order>.pg2`) belongs to the merchant's order of the first.
  const order = await settings.resolveOrder(orderReferenceOf(answer.merchant_reference), fromGateway(request));
  return confirmAndDeliver(answer, order, 'return', flow);
}

/**
 * What the customer's browser gets when the store or the shop's order lookup fails while its
 * return (or the element's Pay button) is handled, or the endpoint itself fails: a page it can show
 * (the presentation's `notRecorded`), where the endpoint's JSON error would be shown as raw text.
 * Nothing was recorded (a result is written whole or not at all; a charge is sent only once its
 * watch is written, so one sent before the store failed is asked about by the reconciler). A caller
 * that asked for JSON, and any other refusal, gets the endpoint's JSON error (rethrown), as does
 * every other route.
 */
function notRecordedAnswer(error: unknown, reference: string | undefined, intent: Intent, flow: ReturnFlow, route: string): Response {
  if (asksForJson(flow.request) || (error instanceof EndpointRefusal && error.code !== 'order_lookup_failed')) throw error;
  const answered = flow.present.framed ? 'framed_page' : 'page';
  if (error instanceof EndpointRefusal || error instanceof StoreUnavailableError) {
    const code = error instanceof EndpointRefusal ? error.code : 'store_unavailable';
    // The line the endpoint logs for any refusal, with how the customer was answered.
    flow.runtime.log.info('refused', { route, code, status: 503, answered });
    return flow.present.notRecorded(reference, intent, code, 503);
  }
  flow.runtime.log.error('internal_error', { route, error, answered });
  return flow.present.notRecorded(reference, intent, 'internal_error', 500);
}

/** What every step of one return works with. */
interface ReturnFlow {
  readonly request: Request;
  readonly context: RequestContext;
  readonly language: Language;
  readonly runtime: EndpointRuntime;
  readonly present: Presentation;
}

/** The lookup of a reference read from a verified gateway answer: no session cookie is expected. */
function fromGateway(request: Request): OrderLookup {
  return { request, route: 'gatewayReturn', referenceSource: 'gateway' };
}

/**
 * A verified answer the customer's browser brought back is confirmed with CHECK_STATUS before
 * anything is reported: the customer may be replaying an old return. If the gateway does not say,
 * the customer sees a pending result and the merchant is told nothing.
 *
 * A form the gateway refused for its signature or the account's identity (core
 * `isConfigurationRefusal`: 00008, 00006) was refused for the merchant's settings, or altered in
 * the browser on its way to the gateway. The endpoint's own CHECK_STATUS, signed with the same
 * settings, tells which: refused alike, the settings are wrong, the gateway started nothing and
 * never will with them, so the form's answer is the result, a failure (`service_not_configured`)
 * reported once like any refused form, and nothing is watched. Answered, the form was altered, and
 * CHECK_STATUS's word is the result as for any other return.
 */
async function confirmAndDeliver(
  answer: Readonly<Record<string, unknown>>,
  order: MerchantOrder | undefined,
  source: VerifiedResult['source'],
  flow: ReturnFlow,
  reason?: EndpointErrorCode,
): Promise<Response> {
  const { runtime, language } = flow;
  const reference = String(answer['merchant_reference']);
  const refusedForSettings = isConfigurationRefusal(answer) ? await isStatusRefusedForSettings(runtime, reference, language) : false;
  if (refusedForSettings) {
    logConfigurationRefusal(runtime, String(answer['command'] ?? answer['service_command'] ?? source), answer, reference);
    return deliverResult(configurationFailure(resultOfAnswer(answer, order, source, language, runtime.log)), flow);
  }
  // Not asked twice when the gateway did not say just now.
  const result = refusedForSettings === undefined ? undefined : await confirmedResult(reference, answer, order, source, language, runtime, reason);
  if (result) return deliverResult(await withSavedCard(result, answer, language, runtime), flow);
  runtime.log.warn('result_unconfirmed', { merchant_reference: reference, source });
  // The payment may have happened: the reconciler asks until the gateway says.
  await watchPayment(runtime, unconfirmedWatch({ ...orderBasis(order, reference), language }, runtime.settings.now().getTime(), runtime.settings.watchSettings));
  return flow.present.unconfirmed(orderReferenceOf(reference));
}

/**
 * A card saved without a payment: nothing is charged. The token is confirmed with GET_TOKENS (it
 * is kept and ACTIVE: a temporary token is never listed), not with CHECK_STATUS, which knows no
 * order for a tokenization.
 */
async function saveCard(tokenization: HostedPageResponse, flow: ReturnFlow): Promise<Response> {
  const { runtime, language, request } = flow;
  const order = await runtime.settings.resolveOrder(tokenization.merchant_reference, fromGateway(request));
  // A refused card, or an unknown order: the tokenization's own answer is the result. Not
  // CHECK_STATUS: it knows no tokenization, only payments (the order may hold one of its own).
  if (classifyResponse(tokenization) !== 'success' || !order) {
    return deliverResult(resultOfAnswer(tokenization, order, 'save-card', language, runtime.log), flow);
  }
  if (!tokenization.token_name) {
    runtime.log.error('tokenization_without_token', { merchant_reference: order.merchant_reference });
    return flow.present.refused('invalid_request', order.merchant_reference, 'save-card');
  }
  const result = await confirmedSavedCard(tokenization, tokenization.token_name, language, runtime);
  if (result) return deliverResult(result, flow);
  runtime.log.warn('result_unconfirmed', { merchant_reference: order.merchant_reference, source: 'save-card' });
  // The token list could not be read: the reconciler asks GET_TOKENS until it answers.
  const { settings } = runtime;
  await watchPayment(runtime, savedCardWatch({ ...order, language }, tokenization.token_name, tokenization, settings.now().getTime(), settings.watchSettings));
  return flow.present.unconfirmed(order.merchant_reference, 'save-card');
}


/**
 * PURCHASE or AUTHORIZATION with the token the merchant page (or the embedded page) just created;
 * for the embedded page, only once the element's Pay button confirms (`confirmed`, the ready card).
 */
async function completeMerchantPage(tokenization: HostedPageResponse, flow: ReturnFlow, confirmed?: ReadyCard): Promise<Response> {
  const { request, context, language, runtime, present } = flow;
  const { settings, gateway, log } = runtime;
  const order = await settings.resolveOrder(orderReferenceOf(tokenization.merchant_reference), fromGateway(request));
  // A failed tokenization, or one for an unknown order, charges nothing: what the gateway says is reported.
  if (classifyResponse(tokenization) !== 'success' || !order) {
    return confirmAndDeliver(tokenization, order, 'merchant-page', flow);
  }
  // A tokenization success is not a payment: without a token there is nothing to charge.
  if (!tokenization.token_name) {
    log.error('tokenization_without_token', { merchant_reference: order.merchant_reference });
    return present.refused('invalid_request', order.merchant_reference);
  }
  // The same card's return (or Pay button) posted again after its charge was recorded: the gateway
  // would refuse a second charge (00005), so nothing is sent; the customer sees the recorded result.
  const recorded = await recordedCharge(tokenization.merchant_reference, runtime);
  if (recorded === 'paid_by_another_attempt') {
    // An earlier attempt's card (declined, so its reference was let go) posted again after another attempt paid.
    log.info('order_already_paid', { merchant_reference: order.merchant_reference, by: 'ledger', attempt: tokenization.merchant_reference });
    return present.refused('order_already_paid', order.merchant_reference);
  }
  if (recorded) {
    log.info('duplicate_completion', { merchant_reference: order.merchant_reference, payment_reference: recorded.payment_reference, sent: false });
    log.info('payment_result_replayed', {
      merchant_reference: recorded.merchant_reference,
      source: recorded.source,
      outcome: recorded.outcome,
      order_state: recorded.order_state,
      response_code: recorded.response_code,
      error: recorded.error,
    });
    return present.result(recorded);
  }
  // The order changed since its amount was on the Pay button: that button's amount is not what would be charged.
  const shown = tokenization[COMPLETION_FIELDS.shownAmount];
  const shownChange = shown === undefined ? undefined : orderDisagreement(readShownAmount(shown), order);
  if (shownChange) {
    log.warn('shown_amount_changed', { merchant_reference: order.merchant_reference, stage: confirmed ? 'confirm' : 'return' });
    return present.refused(shownChange, order.merchant_reference);
  }
  // The embedded page's button took the card: nothing is charged until the element's Pay button
  // says so. The signed field decides, never the return URL's own (unsigned) parameter: the same
  // return posted anywhere but the element's frame is refused, so no one skips the Pay step.
  if (!confirmed && tokenization[COMPLETION_FIELDS.confirmation] === ELEMENT_CONFIRMATION) {
    if (present.framed) return readyForElement(tokenization, order, flow);
    log.warn('ready_card_refused', { merchant_reference: order.merchant_reference, reason: 'not_framed' });
    return present.refused('card_not_ready', order.merchant_reference);
  }
  // The order changed since its amount was on the Pay button: that amount is not charged.
  const readyChange = confirmed && orderDisagreement(confirmed, order);
  if (readyChange) {
    log.warn('ready_card_refused', { merchant_reference: order.merchant_reference, reason: 'order_changed' });
    return present.refused(readyChange, order.merchant_reference);
  }
  // The charge goes under the reference the card was taken with: a new attempt's own, when it is one.
  const attempt = { ...order, merchant_reference: tokenization.merchant_reference };
  const chosenCommand = tokenization[COMPLETION_FIELDS.command];
  const command = chosenCommand === 'AUTHORIZATION' ? 'AUTHORIZATION' : 'PURCHASE';
  // The element's choice (signed when the form was: hosted checkout, HOSTED), else the plan the
  // customer chose on the gateway's own page (installments through the merchant page, STANDALONE: YES).
  const chosenOnPage = tokenization.installments === 'STANDALONE';
  const elementPlan = tokenization[COMPLETION_FIELDS.plan_code];
  const planCode = elementPlan ?? (chosenOnPage ? tokenization.plan_code : undefined);
  const issuerCode = tokenization[COMPLETION_FIELDS.issuer_code] ?? (chosenOnPage ? tokenization.issuer_code : undefined);
  const installments = planCode !== undefined && issuerCode !== undefined;
  const installmentsMode = completionInstallments(elementPlan === undefined ? 'gateway-page' : 'merchant-page');
  const params = {
    command,
    ...orderParams(settings, attempt, language),
    customer_email: order.customer_email,
    customer_ip: clientAddress(request, context, settings.trustedProxyHops),
    // The customer is present and typed the card on the merchant page: an e-commerce transaction.
    eci: 'ECOMMERCE',
    token_name: tokenization.token_name,
    order_description: order.description,
    // The final return after 3-D Secure lands where this one did: in the element's frame, or at the top.
    return_url: returnUrlFor(settings, present.framed),
    // The customer's choice to keep the card goes on with the payment (as the official plugins do).
    ...(tokenization.remember_me === 'YES' ? { remember_me: 'YES' } : {}),
    ...(installments ? { installments: installmentsMode, plan_code: planCode, issuer_code: issuerCode } : {}),
    // The account's Check 3-D Secure setting: on this server-to-server charge, as the gateway's PHP sample sends it.
    ...(settings.check3ds ? { check_3ds: settings.check3ds } : {}),
  };

  // Card testing: past the order's limit the card is not charged, so no issuer's answer is learnt
  // here, and the customer is told why. A return posted again after the order was paid still shows
  // it paid.
  const cardAttempt = await countCardAttempt(runtime, attempt.merchant_reference);
  if (!cardAttempt.allowed) {
    const status = await gatewayOrderStatus(runtime, attempt.merchant_reference, language);
    if (status && isPaidState(status.state)) return confirmAndDeliver(tokenization, order, 'merchant-page', flow);
    logCardRefused(runtime, attempt.merchant_reference, 'charge', cardAttempt);
    return present.refused('card_attempts_limited', order.merchant_reference);
  }
  // Written before the charge: a process killed while the gateway charges the card leaves this
  // watch, and the reconciler reports what the gateway did, whether the customer comes back or not.
  await watchPayment(runtime, unconfirmedWatch({ ...attempt, language }, settings.now().getTime(), settings.watchSettings));
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
    return confirmAndDeliver(tokenization, order, 'merchant-page', flow, error.code);
  }

  // The same tokenization return posted again: the first completion charged the order. The
  // refusal is not the order's outcome; CHECK_STATUS is, and the ledger has reported it already.
  if (answer['response_code'] === DUPLICATE_REFERENCE) {
    log.info('duplicate_completion', { merchant_reference: order.merchant_reference });
    return confirmAndDeliver(tokenization, order, 'merchant-page', flow);
  }

  const threeDsUrl = answer['3ds_url'];
  if (typeof threeDsUrl === 'string' && classifyResponse(answer) !== 'failure') {
    if (isWebUrl(threeDsUrl)) {
      log.info('three_ds_redirect', { merchant_reference: order.merchant_reference, framed: present.framed });
      // Finished, failed or abandoned after the customer leaves: the reconciler asks.
      await watchPayment(runtime, threeDsWatch({ ...attempt, language }, settings.now().getTime(), settings.watchSettings));
      return present.threeDs(threeDsUrl, order.merchant_reference);
    }
    log.error('three_ds_url_invalid', { merchant_reference: order.merchant_reference });
    return present.unconfirmed(order.merchant_reference);
  }
  const answered = resultOfAnswer(answer, order, 'merchant-page', language, log);
  const result = logConfigurationRefusal(runtime, command, answer, attempt.merchant_reference) ? configurationFailure(answered) : answered;
  return deliverResult(await withSavedCard(result, answer, language, runtime), flow);
}

/** The fields of a verified TOKENIZATION that its completion reads, kept in the ready card. */
const READY_FIELDS: readonly string[] = [
  'service_command',
  'merchant_reference',
  'language',
  'token_name',
  'remember_me',
  'installments',
  'plan_code',
  'issuer_code',
  'response_code',
  'response_message',
  'status',
  COMPLETION_FIELDS.command,
  COMPLETION_FIELDS.plan_code,
  COMPLETION_FIELDS.issuer_code,
  COMPLETION_FIELDS.shownAmount,
];

/**
 * The embedded page took the card: the frame's page tells the element, which shows its Pay button.
 * The token travels only sealed (AES-GCM, a key of its own, five minutes); nothing is charged.
 */
async function readyForElement(tokenization: HostedPageResponse, order: MerchantOrder, flow: ReturnFlow): Promise<Response> {
  const { runtime, language } = flow;
  const fields: Record<string, string> = {};
  for (const name of READY_FIELDS) {
    const value = (tokenization as Readonly<Record<string, unknown>>)[name];
    if (typeof value === 'string') fields[name] = value;
  }
  const card = await runtime.readyCards.seal({ fields, amount: order.amount, currency: order.currency });
  runtime.log.info('card_ready', { merchant_reference: tokenization.merchant_reference });
  // The confirm route, beside the return route: same origin and prefix, no query.
  const action = new URL(runtime.settings.returnUrl);
  action.search = '';
  action.pathname = action.pathname.slice(0, -ROUTES.gatewayReturn.length) + EMBEDDED_CONFIRM_ROUTE;
  return framedReadyPage(
    { type: FRAMED_MESSAGE_TYPES.ready, merchant_reference: order.merchant_reference },
    { action: action.href, card },
    language,
    runtime.settings,
  );
}

/**
 * The element's Pay button under the embedded page: the ready page in its frame posts its form,
 * the ready card (`card`), the order's `merchant_reference` and `language`. A ready card that does not open
 * (altered, foreign, expired) or is another order's charges nothing (`card_not_ready`); else the
 * completion goes on exactly as the return's would have. A replay charges once: the gateway
 * refuses the reference again (DUPLICATE_REFERENCE) and the ledger answers the first result.
 */
export async function handleEmbeddedConfirm(
  request: Request,
  context: RequestContext,
  runtime: EndpointRuntime,
): Promise<Response> {
  const { settings, log } = runtime;
  if (request.method !== 'POST') throw new EndpointRefusal('method_not_allowed', { headers: { allow: 'POST' } });
  if (!isOriginAllowed(request, settings)) {
    log.warn('origin_refused', { route: 'embeddedConfirm' });
    throw new EndpointRefusal('origin_refused');
  }
  const form = new URLSearchParams(await readBodyText(request, settings.maxBodyBytes));
  const named = form.get('language');
  const language = isLanguage(named) ? named : languageFromHeaders(request);
  const present = framedPresentation(runtime, language);
  const reference = field('merchant_reference').safeParse(form.get('merchant_reference'));
  const orderReference = reference.success ? reference.data : undefined;
  const ready = await runtime.readyCards.open(form.get('card') ?? '');
  const readyReference = ready?.fields['merchant_reference'];
  if (!ready || readyReference === undefined || orderReference === undefined || orderReferenceOf(readyReference) !== orderReference) {
    log.warn('ready_card_refused', { merchant_reference: orderReference, reason: ready ? 'other_order' : 'unreadable_or_expired' });
    return present.refused('card_not_ready', orderReference);
  }
  // The fields of a TOKENIZATION answer verified and parsed at its return, sealed since by this endpoint.
  const tokenization = ready.fields as HostedPageResponse;
  const flow: ReturnFlow = { request, context, language, runtime, present };
  try {
    return await completeMerchantPage(tokenization, flow, ready);
  } catch (error) {
    return notRecordedAnswer(error, orderReference, 'pay', flow, 'embeddedConfirm');
  }
}

/**
 * The result of a request the gateway refused for the merchant's settings: a failure whose reason
 * is the merchant's configuration (`service_not_configured`, "not set up by the merchant"), unless
 * the endpoint overruled it already (an unknown order, say).
 */
function configurationFailure(result: VerifiedResult): VerifiedResult {
  return result.outcome === 'failure' && result.error === undefined ? { ...result, error: 'service_not_configured' } : result;
}

/** What a watch needs of the order: its reference, and its amount when the merchant knows it. */
function orderBasis(order: MerchantOrder | undefined, reference: string) {
  return order ? { merchant_reference: reference, amount: order.amount, currency: order.currency } : { merchant_reference: reference };
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
 * Hands a result to the merchant once (`onResult`), then presents it: at the top level, the
 * Response `onResult` returned, else a redirect to `resultUrl`, else the PaymentResult as JSON; in
 * a frame, the framed page (a Response from the hook would land inside the frame, where the
 * element would never hear of the outcome). A replay gets the answer of the result reported first.
 */
async function deliverResult(result: VerifiedResult, flow: ReturnFlow): Promise<Response> {
  const checked = await withDuplicateCheck(result, flow.language, flow.runtime);
  const reported = await reportOnce(checked, flow.request, flow.runtime, flow.language);
  if (reported.answered && !flow.present.framed) return reported.answered;
  return flow.present.result(reported.result);
}

/** The top-level return: redirects to `resultUrl` (or JSON without one), as before framed flows existed. */
function topLevelPresentation(runtime: EndpointRuntime, language: Language): Presentation {
  const { resultUrl } = runtime.settings;
  return {
    framed: false,
    async result(recorded) {
      if (!resultUrl) return jsonResponse(200, toPaymentResult(recorded));
      return redirectResponse(
        await resultLocation(runtime, resultUrl, {
          merchant_reference: recorded.merchant_reference,
          outcome: recorded.outcome,
          response_code: recorded.response_code || undefined,
          error: recorded.error,
        }),
      );
    },
    async unconfirmed(merchantReference) {
      if (resultUrl) {
        return redirectResponse(
          await resultLocation(runtime, resultUrl, { merchant_reference: merchantReference, outcome: 'pending', error: 'gateway_unreachable' }),
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
    },
    async refused(code, reference, _intent, unverified) {
      if (resultUrl) {
        const params = { merchant_reference: reference, outcome: 'failure', error: code };
        return redirectResponse(await resultLocation(runtime, resultUrl, params, unverified ? 'no proof' : { refusal: code }));
      }
      const refusal = new EndpointRefusal(code, { status: 400 });
      return jsonResponse(refusal.status, refusal.body(language));
    },
    threeDs: (url) => redirectResponse(url),
    notRecorded: (merchantReference, intent, _code, status) => returnNotRecordedPage(language, intent, merchantReference, status),
  };
}

/**
 * The framed return: a page that tells the element (framed-pages.ts). It says what the redirect
 * would have said, and links to the same result page.
 */
function framedPresentation(runtime: EndpointRuntime, language: Language): Presentation {
  const { settings } = runtime;
  const resultUrlOf = async (params: Readonly<Record<string, string | undefined>>): Promise<string | undefined> =>
    settings.resultUrl ? resultLocation(runtime, settings.resultUrl, params) : undefined;
  const show = (message: FramedResultMessage): Response => framedResultPage(message, language, settings);
  return {
    framed: true,
    async result(recorded) {
      const saved = recorded.saved_card;
      const lastFour = saved?.card_number?.match(/(\d{4})$/)?.[1];
      const installments = recorded.installments;
      const resultUrl = await resultUrlOf({
        merchant_reference: recorded.merchant_reference,
        outcome: recorded.outcome,
        response_code: recorded.response_code || undefined,
        error: recorded.error,
      });
      return show({
        type: FRAMED_MESSAGE_TYPES.result,
        intent: recorded.source === 'save-card' ? 'save-card' : 'pay',
        merchant_reference: recorded.merchant_reference,
        outcome: recorded.outcome,
        order_state: recorded.order_state,
        message: recorded.error ? ERROR_MESSAGES[recorded.error as EndpointErrorCode]?.[language] ?? recorded.response_message : recorded.response_message,
        ...(recorded.response_code ? { response_code: recorded.response_code } : {}),
        ...(recorded.error ? { error: recorded.error } : {}),
        ...(installments?.number_of_installments !== undefined
          ? {
              installments: {
                number_of_installments: installments.number_of_installments,
                ...(installments.plan_code ? { plan_code: installments.plan_code } : {}),
                ...(installments.issuer_code ? { issuer_code: installments.issuer_code } : {}),
              },
            }
          : {}),
        ...(saved ? { card: { ...(saved.card_brand ? { brand: saved.card_brand } : {}), ...(lastFour ? { last_four: lastFour } : {}) } } : {}),
        ...(resultUrl ? { result_url: resultUrl } : {}),
      });
    },
    async unconfirmed(merchantReference, intent = 'pay') {
      const resultUrl = await resultUrlOf({ merchant_reference: merchantReference, outcome: 'pending', error: 'gateway_unreachable' });
      return show({
        type: FRAMED_MESSAGE_TYPES.result,
        intent,
        merchant_reference: merchantReference,
        outcome: 'pending',
        message: ERROR_MESSAGES.gateway_unreachable[language],
        error: 'gateway_unreachable',
        ...(resultUrl ? { result_url: resultUrl } : {}),
      });
    },
    async refused(code, reference, intent = 'pay') {
      return show({
        type: FRAMED_MESSAGE_TYPES.result,
        intent,
        ...(reference ? { merchant_reference: reference } : {}),
        outcome: 'failure',
        message: ERROR_MESSAGES[code][language],
        error: code,
      });
    },
    threeDs(url, merchantReference) {
      return framedThreeDsPage({ type: FRAMED_MESSAGE_TYPES.threeDs, merchant_reference: merchantReference, url }, language, settings);
    },
    notRecorded(merchantReference, intent, code, status) {
      // Pending, never a failure: the element offers no "try again" that would pay a second time.
      const message: FramedResultMessage = {
        type: FRAMED_MESSAGE_TYPES.result,
        intent,
        ...(merchantReference ? { merchant_reference: merchantReference } : {}),
        outcome: 'pending',
        message: NOT_RECORDED_TEXT[language][intent].framed,
        error: code,
      };
      return framedResultPage(message, language, settings, { status, headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } });
    },
  };
}

/**
 * `resultUrl` with `merchant_reference`, `outcome` and, when known, `response_code` or `error`; and,
 * for a result page that shows the order's outcome only to the browser the gateway returned
 * (the standalone service's own), a `proof` for the reference (result-proof.ts), which covers the
 * `refusal` too when the return was refused: the page then says why. A reference no verified
 * answer named gets `no proof`.
 */
async function resultLocation(
  runtime: EndpointRuntime,
  resultUrl: string,
  params: Readonly<Record<string, string | undefined>>,
  proof: 'no proof' | { readonly refusal?: EndpointErrorCode } = {},
): Promise<string> {
  const url = new URL(resultUrl, runtime.settings.publicOrigin);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  const reference = params['merchant_reference'];
  const proofs = runtime.settings.resultProofs;
  if (proofs && reference !== undefined && proof !== 'no proof') url.searchParams.set(RESULT_PROOF_PARAMETER, await proofs.issue(reference, proof.refusal));
  return url.href;
}
