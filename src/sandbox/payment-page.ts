/**
 * `{checkout_url}/{api_root}/paymentPage`: the form posts of the spec's "Redirection and hosted
 * page" table, and the sandbox's own pages behind them.
 *
 * - AUTHORIZATION / PURCHASE (redirection): card-entry page, with an installment plan choice when
 *   the request says `installments=STANDALONE`; the charge; a 3-D Secure challenge for the 3-D
 *   Secure card; the signed answer posted to return_url.
 * - TOKENIZATION with the card fields (merchant page 2.0; card fields unsigned): a token at once,
 *   or, with `installments=STANDALONE`, a plan choice page first (plans of the card's issuer).
 * - TOKENIZATION without card fields: the card-entry page, then the token.
 *
 * A refused request goes back to return_url with a signed failure when the merchant is known and
 * a return address exists; otherwise a page shows the refusal.
 */
import { formatMoney, parseWireAmount } from '../core/amounts.ts';
import { CARD_FIELDS } from '../core/endpoint-api.ts';
import {
  cardDigits,
  cardSchemeOf,
  isExpiredYymm,
  isLuhnValid,
  maskCardNumber,
  typedExpiryToYymm,
} from '../core/card-number.ts';
import { fieldError } from '../core/field-errors.ts';
import { normalizeDigits, type Language } from '../core/language.ts';
import { CUSTOMER_CANCEL_CODE } from '../core/customer-outcome.ts';
import { classifyResponse, type KnownResponseCode } from '../core/response.ts';
import {
  hostedPaymentRequest,
  installmentsMerchantPageMerchantFields,
  installmentsMerchantPageRequest,
  tokenizationMerchantFields,
  tokenizationRequest,
} from '../core/schemas/index.ts';
import { charge, chargeFields, missingSecurityCode, orderDetailsOf, outcomeOf } from './charges.ts';
import { checkRequest, identifiedMerchant, type GatewayContext } from './context.ts';
import { framingOriginsOf, hasService, type GatewayAccount } from './merchants.ts';
import { completeChallenge, lastOperation } from './orders.ts';
import { PAGE_TEXT } from './page-text.ts';
import {
  CANCEL_FIELD,
  cardPage,
  challengePage,
  htmlResponse,
  messagePage,
  resultPage,
  returnPage,
  type CardField,
  type CardPageModel,
  type SummaryLine,
} from './pages.ts';
import {
  cardBelongsTo,
  issuerName,
  issuerOfCard,
  offersFor,
  offersForCard,
  planFromValue,
  planGroups,
  planValue,
  type ChosenPlan,
  type PlanOffer,
} from './plans.ts';
import type { EnteredCard, PageSession } from './state.ts';
import { PAGE_SESSION_MS } from './test-cards.ts';
import { keepsToken, saveToken, spendToken } from './tokens.ts';
import { answer, BodyError, httpUrl, isChargeableCurrency, readForm, requestLanguage } from './wire.ts';

type Form = Record<string, string>;

// ---- Entry: the merchant's form post ----

export async function postPaymentPage(ctx: GatewayContext, request: Request): Promise<Response> {
  let params: Form;
  try {
    params = await readForm(request);
  } catch (error) {
    if (error instanceof BodyError) return unreadable(error);
    throw error;
  }
  if (params['service_command'] === 'TOKENIZATION') return tokenization(ctx, params);
  if (params['command'] === 'AUTHORIZATION' || params['command'] === 'PURCHASE') return hostedPayment(ctx, params);
  const language = requestLanguage(params);
  const named = params['command'] ?? params['service_command'];
  const detail =
    named === undefined
      ? fieldError('command', 'required', {}, language).message
      : fieldError('command', 'enum', { values: ['AUTHORIZATION', 'PURCHASE'] }, language).message;
  const merchant = identifiedMerchant(ctx, params);
  return deliver(params, merchant, await answer(params, merchant, named === undefined ? '00001' : '00002', {}, detail));
}

async function hostedPayment(ctx: GatewayContext, params: Form): Promise<Response> {
  const checked = await checkRequest(ctx, params, hostedPaymentRequest);
  if (!checked.ok) return refuse(params, checked.merchant, checked.code, checked.detail);
  const { merchant, data } = checked;
  if (data.installments !== undefined && !hasService(merchant, 'installments')) return refuse(params, merchant, '00014');
  if (data.check_3ds === 'NO' && !hasService(merchant, 'check_3ds')) return refuse(params, merchant, '00014');
  const money = orderMoney(params);
  if (!money.ok) return refuse(params, merchant, money.code, money.detail);
  if (ctx.state.referenceTaken(merchant.merchantIdentifier, data.merchant_reference)) {
    return refuse(params, merchant, '00005');
  }
  const session = openSession(ctx, merchant, params, 'payment');
  return htmlResponse(cardPage(pageModel(ctx, session)));
}

async function tokenization(ctx: GatewayContext, params: Form): Promise<Response> {
  const withCard = CARD_FIELDS.some((name) => params[name] !== undefined);
  const installments = params['installments'] !== undefined;
  const schema = withCard
    ? installments
      ? installmentsMerchantPageRequest
      : tokenizationRequest
    : installments
      ? installmentsMerchantPageMerchantFields
      : tokenizationMerchantFields;
  const checked = await checkRequest(ctx, params, schema, { signatureForms: [{ merchantPage: true }, {}] });
  if (!checked.ok) return refuse(params, checked.merchant, checked.code, checked.detail);
  const { merchant } = checked;
  // Without CVV suppression the card typed on the merchant page needs its security code.
  const missingCode = withCard ? missingSecurityCode(merchant, params['card_security_code'], requestLanguage(params)) : undefined;
  if (missingCode) return refuse(params, merchant, '00001', missingCode);
  if (installments) {
    if (!hasService(merchant, 'installments')) return refuse(params, merchant, '00014');
    const money = orderMoney(params);
    if (!money.ok) return refuse(params, merchant, money.code, money.detail);
  }
  if (!withCard) {
    const session = openSession(ctx, merchant, params, 'tokenization');
    return htmlResponse(cardPage(pageModel(ctx, session)));
  }
  // Merchant page 2.0: the card arrived with the request.
  const number = params['card_number'] ?? '';
  const scheme = cardSchemeOf(number);
  if (!isLuhnValid(number) || !scheme) return refuse(params, merchant, '17003');
  const expiryDate = params['expiry_date'] ?? '';
  if (isExpiredYymm(expiryDate, new Date(ctx.now()))) return refuse(params, merchant, '00011');
  const holderName = params['card_holder_name'];
  const card: EnteredCard = { number, scheme, expiryDate, ...(holderName ? { holderName } : {}) };
  if (!installments) return finishTokenization(ctx, params, merchant, card, undefined);
  const session = openSession(ctx, merchant, params, 'tokenization', card);
  return htmlResponse(cardPage(pageModel(ctx, session)));
}

// ---- The sandbox card-entry / plan form ----

export async function submitPaymentPage(ctx: GatewayContext, request: Request): Promise<Response> {
  let form: Form;
  try {
    form = await readForm(request);
  } catch (error) {
    if (error instanceof BodyError) return unreadable(error);
    throw error;
  }
  const session = liveSession(ctx, form['session']);
  if (!session) return expired(requestLanguage(form));
  if (form[CANCEL_FIELD] !== undefined) {
    // The customer went back to the shop: the merchant hears of a cancelled payment, signed like any answer.
    ctx.state.sessions.delete(session.id);
    return refuse(session.params, session.merchant, CUSTOMER_CANCEL_CODE);
  }
  const language = requestLanguage(session.params);
  const errors: Partial<Record<CardField, string>> = {};
  const card = session.card ?? readTypedCard(form, language, ctx.now(), errors, hasService(session.merchant, 'cvv_suppression'));
  const plan = readPlanChoice(session, form['installment_plan'] ?? '', card, errors);
  if (!card || Object.keys(errors).length > 0) {
    const values = {
      ...(form['expiry_date'] ? { expiry_date: form['expiry_date'] } : {}),
      ...(form['card_holder_name'] ? { card_holder_name: form['card_holder_name'] } : {}),
    };
    return htmlResponse(cardPage({ ...pageModel(ctx, session), errors, values, selectedPlan: form['installment_plan'] ?? '' }));
  }
  ctx.state.sessions.delete(session.id);
  return session.kind === 'payment'
    ? finishHostedPayment(ctx, session, card, plan, request)
    : finishTokenization(ctx, session.params, session.merchant, card, plan);
}

function readTypedCard(
  form: Form,
  language: Language,
  now: number,
  errors: Partial<Record<CardField, string>>,
  securityCodeOptional: boolean,
): EnteredCard | undefined {
  const text = PAGE_TEXT[language].errors;
  const number = cardDigits(form['card_number'] ?? '');
  const scheme = cardSchemeOf(number);
  if (number === '') errors.card_number = text.cardNumberRequired;
  else if (!isLuhnValid(number) || !scheme) errors.card_number = text.cardNumberInvalid;

  const typedExpiry = (form['expiry_date'] ?? '').trim();
  const expiryDate = typedExpiryToYymm(typedExpiry);
  if (typedExpiry === '') errors.expiry_date = text.expiryRequired;
  else if (!expiryDate) errors.expiry_date = text.expiryInvalid;
  else if (isExpiredYymm(expiryDate, new Date(now))) errors.expiry_date = text.expiryPast;

  const securityCode = normalizeDigits(form['card_security_code'] ?? '').trim();
  if (securityCode === '') {
    if (!securityCodeOptional) errors.card_security_code = text.securityCodeRequired;
  } else if (!/^\d{3,4}$/.test(securityCode)) errors.card_security_code = text.securityCodeInvalid;

  const holderName = (form['card_holder_name'] ?? '').trim();
  if (holderName.length > 50) errors.card_holder_name = text.holderNameTooLong;

  if (errors.card_number || errors.expiry_date || errors.card_security_code || errors.card_holder_name) return undefined;
  if (!scheme || !expiryDate) return undefined;
  return { number, scheme, expiryDate, ...(holderName ? { holderName } : {}) };
}

/** The chosen plan, checked against the offers and the card's issuer. '' is paying in full. */
function readPlanChoice(
  session: PageSession,
  value: string,
  card: EnteredCard | undefined,
  errors: Partial<Record<CardField, string>>,
): ChosenPlan | undefined {
  const offers = sessionOffers(session);
  if (!offers || value === '') return undefined;
  const language = requestLanguage(session.params);
  const text = PAGE_TEXT[language].errors;
  const chosen = planFromValue(offers, value);
  if (!chosen) {
    errors.installment_plan = text.planUnknown;
    return undefined;
  }
  if (card && !cardBelongsTo(chosen.issuer, card.number)) {
    const actual = issuerOfCard(offers, card.number);
    errors.installment_plan = actual ? text.planOtherIssuer(issuerName(chosen.issuer, language)) : text.planNoIssuer;
    return undefined;
  }
  return chosen;
}

async function finishHostedPayment(
  ctx: GatewayContext,
  session: PageSession,
  card: EnteredCard,
  plan: ChosenPlan | undefined,
  request: Request,
): Promise<Response> {
  const { merchant, params } = session;
  // Another page for the same reference may have completed meanwhile.
  if (ctx.state.referenceTaken(merchant.merchantIdentifier, params['merchant_reference'] ?? '')) {
    return refuse(params, merchant, '00005');
  }
  // A token is kept for the customer only where the account keeps tokens.
  const remember = keepsToken(merchant, params['remember_me']);
  const tokenName = remember ? (params['token_name'] ?? ctx.state.newTokenName()) : undefined;
  const customerEmail = params['customer_email'];
  const details = orderDetailsOf(params);
  const result = charge(ctx, {
    merchant,
    command: params['command'] === 'AUTHORIZATION' ? 'AUTHORIZATION' : 'PURCHASE',
    merchantReference: params['merchant_reference'] ?? '',
    amount: parseWireAmount(params['amount']),
    currency: params['currency'] ?? '',
    card,
    channel: 'hosted_page',
    eci: 'ECOMMERCE',
    ...(plan ? { plan } : {}),
    ...(customerEmail ? { customerEmail } : {}),
    ...(details ? { details } : {}),
    ...(params['check_3ds'] === 'NO' ? { threeDs: 'skip' as const } : {}),
  });
  if (result.order.state === 'pending_3ds') {
    const id = ctx.state.newPageId();
    const returnUrl = returnAddress(params, merchant);
    ctx.state.challenges.set(id, {
      id,
      merchant,
      svcId: result.order.svcId,
      params,
      eci: 'ECOMMERCE',
      language: requestLanguage(params),
      createdAt: ctx.now(),
      ...(tokenName ? { tokenName, cardToSave: card } : {}),
      ...(returnUrl ? { returnUrl } : {}),
      ...(result.authenticationFails ? { authenticationFails: true } : {}),
    });
    return Response.redirect(challengeUrl(ctx, request.url, id), 303);
  }
  const saved = tokenName && result.order.state !== 'declined' ? saveToken(ctx, merchant, tokenName, card) : undefined;
  const fields = saved ? chargeFields(result.order, 'ECOMMERCE', saved) : result.fields;
  return deliver(params, merchant, await answer(params, merchant, result.code, fields));
}

async function finishTokenization(
  ctx: GatewayContext,
  params: Readonly<Record<string, string>>,
  merchant: GatewayAccount,
  card: EnteredCard,
  plan: ChosenPlan | undefined,
): Promise<Response> {
  // A token is stored only if the card is valid (spec, Token); the charge outcomes come later.
  if (outcomeOf(card.number) === 'invalid_card') return refuse(params, merchant, '17003');
  // Without the customer's agreement (or the account's tokenization), the token pays this payment only.
  const temporaryFor = keepsToken(merchant, params['remember_me']) ? undefined : (params['merchant_reference'] ?? '');
  const tokenName = saveToken(ctx, merchant, params['token_name'] ?? ctx.state.newTokenName(), card, temporaryFor);
  const fields: Record<string, string> = {
    token_name: tokenName,
    card_number: card.number,
    expiry_date: card.expiryDate,
    card_bin: card.number.slice(0, 6),
    payment_option: card.scheme,
    ...(card.holderName ? { card_holder_name: card.holderName } : {}),
    ...(plan
      ? {
          number_of_installments: String(plan.plan.number_of_installment),
          plan_code: plan.plan.plan_code,
          issuer_code: plan.issuer.issuer_code,
        }
      : {}),
  };
  // echo() masks card_number wherever it comes from.
  return deliver(params, merchant, await answer({ ...params, ...fields }, merchant, '18000'));
}

// ---- 3-D Secure challenge ----

/** The absolute address of a challenge page, on the host the request came to. */
export function challengeUrl(ctx: GatewayContext, requestUrl: string, id: string): string {
  const url = new URL(ctx.paths.challenge, requestUrl);
  url.searchParams.set('id', id);
  return url.href;
}

export function showChallenge(ctx: GatewayContext, request: Request): Response {
  const id = new URL(request.url).searchParams.get('id') ?? '';
  const challenge = ctx.state.challenges.get(id);
  const order = challenge && ctx.state.orderBySvcId(challenge.merchant.merchantIdentifier, challenge.svcId);
  if (!challenge || !order || order.state !== 'pending_3ds') return expired(challenge?.language ?? 'en');
  const text = PAGE_TEXT[challenge.language];
  // What a bank's 3-D Secure page shows: the amount and the card, not the shop's reference (which
  // names the attempt, `.pg2`, that the customer never saw).
  const lines: SummaryLine[] = [
    { label: text.amount, value: formatMoney(order.amount, order.currency, challenge.language) },
    ...(order.card ? [{ label: text.card, value: order.card.maskedNumber, ltr: true }] : []),
  ];
  const framing = framingOriginsOf(challenge.merchant, challenge.returnUrl);
  return htmlResponse(challengePage({ language: challenge.language, action: ctx.paths.challenge, challengeId: id, summary: lines, framing }));
}

export async function answerChallenge(ctx: GatewayContext, request: Request): Promise<Response> {
  let form: Form;
  try {
    form = await readForm(request);
  } catch (error) {
    if (error instanceof BodyError) return unreadable(error);
    throw error;
  }
  const challenge = ctx.state.challenges.get(form['challenge'] ?? '');
  if (!challenge) return expired('en');
  const current = ctx.state.orderBySvcId(challenge.merchant.merchantIdentifier, challenge.svcId);
  if (!current) return expired(challenge.language);
  ctx.state.challenges.delete(challenge.id);
  // A challenge left open too long was declined by settle(); that result is what goes back.
  const order = completeChallenge(current, form['decision'] === 'approve' && !challenge.authenticationFails, ctx.now());
  ctx.state.saveOrder(order);
  const approved = order.state === 'authorized' || order.state === 'captured';
  // A charge with a stored token names it either way; a card to remember is stored only if approved.
  let tokenName = challenge.cardToSave ? undefined : challenge.tokenName;
  if (challenge.cardToSave && challenge.tokenName && approved) {
    tokenName = saveToken(ctx, challenge.merchant, challenge.tokenName, challenge.cardToSave);
  }
  if (tokenName && approved) spendToken(ctx, challenge.merchant, tokenName);
  const body = await answer(challenge.params, challenge.merchant, lastOperation(order), chargeFields(order, challenge.eci, tokenName));
  return deliverTo(challenge.language, challenge.returnUrl, body, framingOriginsOf(challenge.merchant, challenge.returnUrl));
}

// ---- Sessions and page models ----

function openSession(
  ctx: GatewayContext,
  merchant: GatewayAccount,
  params: Form,
  kind: PageSession['kind'],
  card?: EnteredCard,
): PageSession {
  const session: PageSession = { id: ctx.state.newPageId(), merchant, params, kind, createdAt: ctx.now(), ...(card ? { card } : {}) };
  ctx.state.sessions.set(session.id, session);
  return session;
}

function liveSession(ctx: GatewayContext, id: string | undefined): PageSession | undefined {
  const session = id ? ctx.state.sessions.get(id) : undefined;
  if (!session) return undefined;
  if (ctx.now() - session.createdAt >= PAGE_SESSION_MS) {
    ctx.state.sessions.delete(session.id);
    return undefined;
  }
  return session;
}

/** The plans a page offers, or undefined when the request did not ask for installments. */
function sessionOffers(session: PageSession): PlanOffer[] | undefined {
  if (session.params['installments'] !== 'STANDALONE') return undefined;
  const amount = parseWireAmount(session.params['amount']);
  const offers = offersFor(amount, session.params['currency'] ?? '', session.params['customer_country_code']);
  return session.card ? offersForCard(offers, session.card.number) : offers;
}

function pageModel(ctx: GatewayContext, session: PageSession): CardPageModel {
  const { params } = session;
  const language = requestLanguage(params);
  const text = PAGE_TEXT[language];
  const summary: SummaryLine[] = [{ label: text.order, value: params['merchant_reference'] ?? '', ltr: true }];
  let amountText: string | undefined;
  if (params['amount'] !== undefined && params['currency'] !== undefined) {
    amountText = formatMoney(parseWireAmount(params['amount']), params['currency'], language);
    summary.push({ label: text.amount, value: amountText });
  }
  const offers = sessionOffers(session);
  const plans = offers
    ? planGroups(offers, parseWireAmount(params['amount']), params['currency'] ?? '', language)
    : undefined;
  const firstOffer = offers?.[0];
  const firstPlan = firstOffer?.plans[0];
  return {
    language,
    action: ctx.paths.pageSubmit,
    framing: framingOriginsOf(session.merchant, returnAddress(params, session.merchant)),
    sessionId: session.id,
    kind: session.kind,
    ...(session.kind === 'tokenization' && params['remember_me'] === 'YES' ? { keepsCard: true } : {}),
    summary,
    ...(amountText ? { amountText } : {}),
    ...(session.card ? { knownCard: maskCardNumber(session.card.number) } : {}),
    ...(hasService(session.merchant, 'cvv_suppression') ? { securityCodeOptional: true } : {}),
    ...(plans ? { plans } : {}),
    ...(firstOffer && firstPlan ? { selectedPlan: planValue(firstOffer.issuer, firstPlan) } : {}),
  };
}

/** Amount and currency the gateway can charge: a known currency and more than zero. */
function orderMoney(params: Form): { ok: true } | { ok: false; code: KnownResponseCode; detail?: string } {
  const language = requestLanguage(params);
  if (!isChargeableCurrency(params['currency'] ?? '')) return { ok: false, code: '00009' };
  if (parseWireAmount(params['amount']) <= 0) {
    return { ok: false, code: '00002', detail: fieldError('amount', 'invalid', {}, language).message };
  }
  return { ok: true };
}

// ---- Answers ----

/** The request's return_url, else the merchant's back-office return address. */
function returnAddress(params: Readonly<Record<string, unknown>>, merchant: GatewayAccount | undefined): URL | undefined {
  if (!merchant) return undefined;
  return httpUrl(params['return_url']) ?? httpUrl(merchant.returnUrl);
}

async function refuse(
  params: Readonly<Record<string, unknown>>,
  merchant: GatewayAccount | undefined,
  code: KnownResponseCode,
  detail?: string,
): Promise<Response> {
  return deliver(params, merchant, await answer(params, merchant, code, {}, detail));
}

function deliver(
  params: Readonly<Record<string, unknown>>,
  merchant: GatewayAccount | undefined,
  body: Readonly<Record<string, unknown>>,
): Response {
  const returnUrl = returnAddress(params, merchant);
  return deliverTo(requestLanguage(params), returnUrl, body, merchant ? framingOriginsOf(merchant, returnUrl) : undefined);
}

/**
 * Posts the signed answer to the merchant, or shows it when there is nowhere to post it. Framed
 * by the merchant's origins when the merchant is known (the answer of a framed payment comes back
 * inside the frame).
 */
function deliverTo(
  language: Language,
  returnUrl: URL | undefined,
  body: Readonly<Record<string, unknown>>,
  framing: readonly string[] | undefined,
): Response {
  if (returnUrl) return htmlResponse(returnPage(language, returnUrl, body, framing ?? [returnUrl.origin]));
  return htmlResponse(resultPage(language, body, classifyResponse(body) === 'failure' ? 400 : 200, framing));
}

function expired(language: Language): Response {
  const text = PAGE_TEXT[language];
  return htmlResponse(messagePage(language, text.expiredTitle, text.expiredText, 410));
}

function unreadable(error: BodyError): Response {
  const text = PAGE_TEXT.en;
  return htmlResponse(messagePage('en', text.refusedTitle, error.message, error.httpStatus));
}
