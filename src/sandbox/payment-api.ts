/**
 * `{base_url}/{api_root}/paymentApi`: the JSON operations of the spec's "Payment API" table —
 * capture, refund, void (command VOID_AUTHORIZATION, this project's name), CHECK_STATUS,
 * GET_INSTALLMENTS_PLANS, BILL_PRESENTMENT, the financing steps, and AUTHORIZATION / PURCHASE with
 * a token (merchant page completion, installments YES, recurring) or clear card data (trusted
 * channel). Every answer is HTTP 200 with the outcome in response_code, signed, echoing the request.
 */
import { parseWireAmount } from '../core/amounts.ts';
import { cardSchemeOf, isExpiredYymm, isLuhnValid } from '../core/card-number.ts';
import { fieldError } from '../core/field-errors.ts';
import { classifyResponse, responseMessage, type KnownResponseCode } from '../core/response.ts';
import {
  billPresentmentRequest,
  captureRequest,
  checkStatusRequest,
  installmentsDirectRequest,
  installmentsPlansRequest,
  recurringPurchaseRequest,
  refundRequest,
  trustedChannelRequest,
  voidAuthorizationRequest,
} from '../core/schemas/index.ts';
import type { SignableValue } from '../core/signature.ts';
import { charge, chargeFields, missingSecurityCode, orderDetailsOf } from './charges.ts';
import { unknownOperation, unreadableBody } from './answer-format.ts';
import { checkRequest, type GatewayContext } from './context.ts';
import { customerVerify, financingPurchase, otpGenerate, otpVerify } from './financing.ts';
import { currencyConversion } from './exchange.ts';
import { hasService, type GatewayAccount } from './merchants.ts';
import {
  SANDBOX_FINANCING_PARTNER_CODE as FINANCING_PARTNER_CODE,
  SANDBOX_VOUCHER_PARTNER_CODE as VOUCHER_PARTNER_CODE,
} from './partners.ts';
import { capture, issuedBill, lastOperation, refund, voidAuthorization, type SandboxOrder } from './orders.ts';
import { challengeUrl } from './payment-page.ts';
import { cardBelongsTo, findPlan, plansQueryIssuers } from './plans.ts';
import type { EnteredCard, SandboxToken } from './state.ts';
import { externalMpiDecision, threeDsAuthentication, threeDsEnrollment, type MpiResult } from './three-ds.ts';
import { getTokens, keepsToken, saveToken, spendToken, tokenizeCard, tokenRefusal, updateToken } from './tokens.ts';
import {
  apiAnswer,
  BodyError,
  httpUrl,
  isChargeableCurrency,
  readDateField,
  readJson,
  requestLanguage,
  statusOf,
  type WireParams,
} from './wire.ts';

type Params = Record<string, SignableValue>;

export async function postPaymentApi(ctx: GatewayContext, request: Request): Promise<Response> {
  let params: Params;
  try {
    params = await readJson(request);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    return unreadableBody(error);
  }
  const query = params['query_command'];
  const service = params['service_command'];
  const command = params['command'];
  if (query !== undefined) {
    const answerQuery = typeof query === 'string' ? QUERIES[query] : undefined;
    if (answerQuery) return answerQuery(ctx, params, request.url);
    return unknownOperation(ctx, params, 'query_command', Object.keys(QUERIES));
  }
  if (service !== undefined) {
    const answerService = typeof service === 'string' ? SERVICES[service] : undefined;
    if (answerService) return answerService(ctx, params, request.url);
    return unknownOperation(ctx, params, 'service_command', Object.keys(SERVICES));
  }
  switch (command) {
    case 'CAPTURE':
    case 'REFUND':
      return captureOrRefund(ctx, params, command);
    case 'VOID_AUTHORIZATION':
      return voidOrder(ctx, params);
    case 'PURCHASE':
    case 'AUTHORIZATION':
      if (command === 'PURCHASE' && (params['payment_option'] === FINANCING_PARTNER_CODE || params['transaction_id'] !== undefined)) {
        return financingPurchase(ctx, params);
      }
      return directOperation(ctx, params, command, request.url);
    default:
      return unknownOperation(ctx, params, 'command', ['AUTHORIZATION', 'PURCHASE', 'CAPTURE', 'REFUND', 'VOID_AUTHORIZATION']);
  }
}

type Operation = (ctx: GatewayContext, params: Params, requestUrl: string) => Promise<Response>;

/** The queries of paymentApi, by query_command. */
const QUERIES: Readonly<Record<string, Operation>> = {
  CHECK_STATUS: (ctx, params) => checkStatus(ctx, params),
  GET_INSTALLMENTS_PLANS: (ctx, params) => plansQuery(ctx, params),
  GET_TOKENS: (ctx, params) => getTokens(ctx, params),
};

/** The services of paymentApi, by service_command. */
const SERVICES: Readonly<Record<string, Operation>> = {
  BILL_PRESENTMENT: (ctx, params) => billPresentment(ctx, params),
  CUSTOMER_VERIFY: (ctx, params) => customerVerify(ctx, params),
  OTP_GENERATE: (ctx, params) => otpGenerate(ctx, params),
  OTP_VERIFY: (ctx, params) => otpVerify(ctx, params),
  TOKENIZATION: (ctx, params) => tokenizeCard(ctx, params),
  UPDATE_TOKEN: (ctx, params) => updateToken(ctx, params),
  '3DS_ENROLLMENT': threeDsEnrollment,
  '3DS_AUTHENTICATION': (ctx, params) => threeDsAuthentication(ctx, params),
  CURRENCY_CONVERSION: (ctx, params) => currencyConversion(ctx, params),
};

// ---- Maintenance ----

async function captureOrRefund(ctx: GatewayContext, params: Params, command: 'CAPTURE' | 'REFUND'): Promise<Response> {
  const checked = await checkRequest(ctx, params, command === 'CAPTURE' ? captureRequest : refundRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const order = findOrder(ctx, merchant, data.svc_id, data.merchant_reference);
  if (!order) return apiAnswer(params, merchant, '00007');
  const amount = parseWireAmount(data.amount);
  const transition = (command === 'CAPTURE' ? capture : refund)(order, amount, data.currency, ctx.now(), ctx.successCodes);
  if (transition.ok) ctx.state.saveOrder(transition.order);
  return apiAnswer(params, merchant, transition.code);
}

async function voidOrder(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, voidAuthorizationRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const order = findOrder(ctx, merchant, data.svc_id, data.merchant_reference);
  if (!order) return apiAnswer(params, merchant, '00007');
  const transition = voidAuthorization(order, ctx.now());
  if (transition.ok) ctx.state.saveOrder(transition.order);
  return apiAnswer(params, merchant, transition.code, { svc_id: order.svcId });
}

/** By svc_id (and then a reference sent beside it must agree: 00007 otherwise), or by merchant_reference alone. */
function findOrder(
  ctx: GatewayContext,
  merchant: GatewayAccount,
  svcId: string | undefined,
  merchantReference: string | undefined,
): SandboxOrder | undefined {
  return ctx.state.findOrder(merchant.merchantIdentifier, { svcId, merchantReference });
}

/** True when svc_id names an order whose merchant_reference is not the one sent beside it. */
function namesAnotherOrder(
  ctx: GatewayContext,
  merchant: GatewayAccount,
  svcId: string | undefined,
  merchantReference: string | undefined,
): boolean {
  if (svcId === undefined || merchantReference === undefined) return false;
  const order = ctx.state.orderBySvcId(merchant.merchantIdentifier, svcId);
  return order !== undefined && order.merchantReference !== merchantReference;
}

// ---- Queries ----

async function checkStatus(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, checkStatusRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const order = findOrder(ctx, merchant, data.svc_id, data.merchant_reference);
  // 12001 for an order the gateway does not hold; 00007, as CAPTURE answers, for two references that disagree.
  if (!order) return apiAnswer(params, merchant, namesAnotherOrder(ctx, merchant, data.svc_id, data.merchant_reference) ? '00007' : '12001');
  const last = lastOperation(order);
  const fields: WireParams = {
    // Asked by svc_id alone, the answer still names the order's reference.
    merchant_reference: order.merchantReference,
    svc_id: order.svcId,
    transaction_status: statusOf(last),
    transaction_code: last.code,
    transaction_message: responseMessage(last.code, requestLanguage(params)),
    authorized_amount: String(order.authorizedAmount),
    captured_amount: String(order.capturedAmount),
    refunded_amount: String(order.refundedAmount),
  };
  if (order.authorizationCode && order.authorizedAmount > 0) fields['authorization_code'] = order.authorizationCode;
  if (order.bill) fields['bill_number'] = order.bill.billNumber;
  if (data.return_third_party_response_codes === 'YES') {
    fields['processor_response_code'] = last.code;
    // Simulated: "00" approved, "01" waiting (3-D Secure), "05" not honoured.
    const outcome = classifyResponse({ response_code: last.code, status: statusOf(last) });
    fields['acquirer_response_code'] = outcome === 'success' ? '00' : outcome === 'pending' ? '01' : '05';
  }
  return apiAnswer(params, merchant, '12000', fields);
}

async function plansQuery(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, installmentsPlansRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const language = requestLanguage(params);
  if (!hasService(merchant, 'installments')) return apiAnswer(params, merchant, '00014');
  if (data.amount !== undefined && data.currency === undefined) {
    return apiAnswer(params, merchant, '00001', {}, fieldError('currency', 'required', {}, language).message);
  }
  if (data.currency !== undefined && !isChargeableCurrency(data.currency)) return apiAnswer(params, merchant, '00009');
  const issuers = plansQueryIssuers({
    ...(data.amount !== undefined ? { amount: parseWireAmount(data.amount) } : {}),
    ...(data.currency !== undefined ? { currency: data.currency } : {}),
    ...(data.issuer_code !== undefined ? { issuerCode: data.issuer_code } : {}),
  });
  // The spec's plans answer carries issuer_code at its top level: the request's, echoed; asked for
  // none, the one issuer the answer lists. One code cannot name several issuers: then it is left out.
  const [only, ...others] = issuers;
  const issuerCode = data.issuer_code === undefined && only && others.length === 0 ? { issuer_code: only.issuer_code } : {};
  // The fixture objects are plain JSON data; the cast only widens interface types to SignableValue.
  return apiAnswer(params, merchant, '62000', { installment_detail: { issuer_detail: issuers as unknown as SignableValue }, ...issuerCode });
}

// ---- Cash bill ----

async function billPresentment(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, billPresentmentRequest);
  if (!checked.ok) {
    // A well-formed currency other than EGP: the service does not support it (bills are EGP only).
    const otherCurrency = checked.errors?.some((error) => error.field === 'currency' && error.rule === 'enum');
    return apiAnswer(params, checked.merchant, otherCurrency ? '00009' : checked.code, {}, otherCurrency ? undefined : checked.detail);
  }
  const { merchant, data } = checked;
  const language = requestLanguage(params);
  if (data.payment_partner !== VOUCHER_PARTNER_CODE) {
    const detail = fieldError('payment_partner', 'enum', { values: [VOUCHER_PARTNER_CODE] }, language).message;
    return apiAnswer(params, merchant, '00002', {}, detail);
  }
  const expiry = readDateField('request_expiry_date', data.request_expiry_date, language);
  if ('refused' in expiry) return apiAnswer(params, merchant, '00002', {}, expiry.refused);
  const expiresAt = expiry.instant;
  if (expiresAt <= ctx.now()) return apiAnswer(params, merchant, '31002');
  const amount = parseWireAmount(data.amount);
  if (amount <= 0) return apiAnswer(params, merchant, '00002', {}, fieldError('amount', 'invalid', {}, language).message);
  if (ctx.state.referenceTaken(merchant.merchantIdentifier, data.merchant_reference)) return apiAnswer(params, merchant, '00005');
  const billNumber = ctx.state.newBillNumber();
  const order = issuedBill(
    {
      merchantIdentifier: merchant.merchantIdentifier,
      merchantReference: data.merchant_reference,
      svcId: ctx.state.nextSvcId(),
      amount,
      currency: data.currency,
    },
    billNumber,
    expiresAt,
    ctx.now(),
  );
  ctx.state.saveOrder(order);
  return apiAnswer(params, merchant, '30000', { bill_number: billNumber });
}

// ---- AUTHORIZATION / PURCHASE with a token or a card ----

async function directOperation(
  ctx: GatewayContext,
  params: Params,
  command: 'AUTHORIZATION' | 'PURCHASE',
  requestUrl: string,
): Promise<Response> {
  // A recurring charge of a stored token; RECURRING with clear card data is the trusted channel's.
  const recurring = params['eci'] === 'RECURRING' && command === 'PURCHASE' && params['card_number'] === undefined;
  const installments = params['installments'] !== undefined;
  const schema = installments ? installmentsDirectRequest : recurring ? recurringPurchaseRequest : trustedChannelRequest;
  // Merchant page completion sends no eci; it is an e-commerce transaction.
  const checked = await checkRequest(ctx, params, schema, installments || recurring ? {} : { defaults: { eci: 'ECOMMERCE' } });
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const language = requestLanguage(params);
  const eci = data.eci ?? 'ECOMMERCE';
  // Recurring requests carry no card fields and no External MPI result (their schema refuses them).
  const card: CardFields = 'card_number' in data ? data : {};
  const withCard = card.card_number !== undefined;
  const mpi = externalMpiDecision(data as MpiResult, language);
  const services = serviceRefusal(merchant, { installments, check3ds: data.check_3ds, externalMpi: mpi !== undefined });
  if (services) return apiAnswer(params, merchant, services);
  if (mpi && !mpi.ok) return apiAnswer(params, merchant, mpi.code, {}, mpi.detail);
  if (!isChargeableCurrency(data.currency)) return apiAnswer(params, merchant, '00009');
  const amount = parseWireAmount(data.amount);
  if (amount <= 0) return apiAnswer(params, merchant, '00002', {}, fieldError('amount', 'invalid', {}, language).message);
  // Without CVV suppression an e-commerce charge of clear card data needs the security code.
  const missingCode = withCard && eci === 'ECOMMERCE' ? missingSecurityCode(merchant, card.card_security_code, language) : undefined;
  if (missingCode) return apiAnswer(params, merchant, '00001', {}, missingCode);

  const source = cardSource(ctx, merchant, { ...card, token_name: data.token_name }, command);
  if (!source.ok) return apiAnswer(params, merchant, source.code);
  if (isExpiredYymm(source.card.expiryDate, new Date(ctx.now()))) return apiAnswer(params, merchant, '00011');
  if (ctx.state.referenceTaken(merchant.merchantIdentifier, data.merchant_reference)) return apiAnswer(params, merchant, '00005');
  // After the reference check, so that a replayed completion is told 00005 like any duplicate.
  if (source.token) {
    const refusal = tokenRefusal(source.token, { merchantReference: data.merchant_reference, eci }, ctx.now());
    if (refusal) return apiAnswer(params, merchant, refusal);
  }

  let plan;
  if ('installments' in data && data.installments !== undefined) {
    plan = findPlan(data.issuer_code, data.plan_code, amount, data.currency);
    if (!plan || !cardBelongsTo(plan.issuer, source.card.number)) return apiAnswer(params, merchant, '00012');
  }

  // remember_me YES with clear card data keeps a token for the card once the charge succeeds.
  const tokenToSave = withCard && keepsToken(merchant, data.remember_me) ? (data.token_name ?? ctx.state.newTokenName()) : undefined;
  const paidWithToken = source.token?.tokenName;
  const details = orderDetailsOf(params);
  const checkSkipped = data.check_3ds === 'NO';
  const result = charge(ctx, {
    merchant,
    command,
    merchantReference: data.merchant_reference,
    amount,
    currency: data.currency,
    card: source.card,
    channel: recurring ? 'recurring' : paidWithToken ? 'token' : 'card',
    eci,
    ...(paidWithToken ? { tokenName: paidWithToken } : {}),
    ...(plan ? { plan } : {}),
    ...(data.customer_email ? { customerEmail: data.customer_email } : {}),
    ...(details ? { details } : {}),
    ...(mpi ? { threeDs: mpi.threeDs } : checkSkipped ? { threeDs: 'skip' as const } : {}),
  });
  if (result.order.state === 'authorized' || result.order.state === 'captured') {
    if (paidWithToken) spendToken(ctx, merchant, paidWithToken);
    if (tokenToSave) {
      const saved = saveToken(ctx, merchant, tokenToSave, source.card);
      return apiAnswer(params, merchant, result.code, chargeFields(result.order, eci, saved));
    }
  }
  if (result.order.state !== 'pending_3ds') return apiAnswer(params, merchant, result.code, result.fields);

  const id = ctx.state.newPageId();
  const returnUrl = httpUrl(params['return_url']) ?? httpUrl(merchant.returnUrl);
  ctx.state.challenges.set(id, {
    id,
    merchant,
    svcId: result.order.svcId,
    params,
    eci,
    language,
    createdAt: ctx.now(),
    ...(paidWithToken ? { tokenName: paidWithToken } : {}),
    ...(tokenToSave ? { tokenName: tokenToSave, cardToSave: source.card } : {}),
    ...(returnUrl ? { returnUrl } : {}),
    ...(result.authenticationFails ? { authenticationFails: true } : {}),
  });
  // The hold: 20000, or a live account's 20064 under status 20.
  return apiAnswer(params, merchant, lastOperation(result.order), { ...result.fields, '3ds_url': challengeUrl(ctx, requestUrl, id) });
}

/** An optional service a charge asks for that the account does not have (00014), if any. */
function serviceRefusal(
  merchant: GatewayAccount,
  asked: { readonly installments: boolean; readonly check3ds: string | undefined; readonly externalMpi: boolean },
): KnownResponseCode | undefined {
  if (asked.installments && !hasService(merchant, 'installments')) return '00014';
  if (asked.check3ds === 'NO' && !hasService(merchant, 'check_3ds')) return '00014';
  if (asked.externalMpi && !hasService(merchant, '3ds')) return '00014';
  return undefined;
}

interface CardFields {
  readonly card_number?: string | undefined;
  readonly expiry_date?: string | undefined;
  readonly card_security_code?: string | undefined;
  readonly card_holder_name?: string | undefined;
}

type CardSource = { ok: true; card: EnteredCard; token?: SandboxToken } | { ok: false; code: KnownResponseCode };

/** The card to charge: the clear card data of the trusted channel when sent, else the stored token's. */
function cardSource(
  ctx: GatewayContext,
  merchant: GatewayAccount,
  data: CardFields & { readonly token_name?: string | undefined },
  command: 'AUTHORIZATION' | 'PURCHASE',
): CardSource {
  if (data.card_number === undefined && data.token_name !== undefined) {
    const token = ctx.state.token(merchant.merchantIdentifier, data.token_name);
    if (!token) return { ok: false, code: '00010' };
    return {
      ok: true,
      token,
      card: {
        number: token.cardNumber,
        scheme: token.scheme,
        expiryDate: token.expiryDate,
        ...(token.holderName ? { holderName: token.holderName } : {}),
      },
    };
  }
  const number = data.card_number ?? '';
  const scheme = cardSchemeOf(number);
  if (!isLuhnValid(number) || !scheme) return { ok: false, code: command === 'PURCHASE' ? '13003' : '03003' };
  return {
    ok: true,
    card: {
      number,
      scheme,
      expiryDate: data.expiry_date ?? '',
      ...(data.card_holder_name ? { holderName: data.card_holder_name } : {}),
    },
  };
}
