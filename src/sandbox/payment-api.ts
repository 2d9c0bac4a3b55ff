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
import { classifyResponse, expectedStatus, responseMessage, type KnownResponseCode } from '../core/response.ts';
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
import { parseExpiry } from '../core/voucher.ts';
import { charge } from './charges.ts';
import { checkRequest, identifiedMerchant, type GatewayContext } from './context.ts';
import { customerVerify, financingPurchase, otpGenerate, otpVerify } from './financing.ts';
import type { SandboxMerchant } from './merchants.ts';
import {
  SANDBOX_FINANCING_PARTNER_CODE as FINANCING_PARTNER_CODE,
  SANDBOX_VOUCHER_PARTNER_CODE as VOUCHER_PARTNER_CODE,
} from './partners.ts';
import { capture, issuedBill, lastOperation, refund, voidAuthorization, type SandboxOrder } from './orders.ts';
import { challengeUrl } from './payment-page.ts';
import { cardBelongsTo, findPlan, plansQueryIssuers } from './plans.ts';
import type { EnteredCard } from './state.ts';
import {
  BodyError,
  httpUrl,
  isChargeableCurrency,
  jsonAnswer,
  jsonResponse,
  readJson,
  requestLanguage,
  type WireParams,
} from './wire.ts';

type Params = Record<string, SignableValue>;

export async function postPaymentApi(ctx: GatewayContext, request: Request): Promise<Response> {
  let params: Params;
  try {
    params = await readJson(request);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    // Nothing readable to echo or sign.
    const code = '00002';
    return jsonResponse(
      { response_code: code, response_message: responseMessage(code, 'en'), status: expectedStatus(code) },
      error.httpStatus,
    );
  }
  const query = params['query_command'];
  const service = params['service_command'];
  const command = params['command'];
  if (query !== undefined) {
    if (query === 'CHECK_STATUS') return checkStatus(ctx, params);
    if (query === 'GET_INSTALLMENTS_PLANS') return plansQuery(ctx, params);
    return unsupported(ctx, params, 'query_command', ['CHECK_STATUS', 'GET_INSTALLMENTS_PLANS']);
  }
  if (service !== undefined) {
    if (service === 'BILL_PRESENTMENT') return billPresentment(ctx, params);
    if (service === 'CUSTOMER_VERIFY') return customerVerify(ctx, params);
    if (service === 'OTP_GENERATE') return otpGenerate(ctx, params);
    if (service === 'OTP_VERIFY') return otpVerify(ctx, params);
    return unsupported(ctx, params, 'service_command', ['BILL_PRESENTMENT', 'CUSTOMER_VERIFY', 'OTP_GENERATE', 'OTP_VERIFY']);
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
    case undefined:
      return unsupported(ctx, params, 'command', undefined);
    default:
      return unsupported(ctx, params, 'command', ['AUTHORIZATION', 'PURCHASE', 'CAPTURE', 'REFUND', 'VOID_AUTHORIZATION']);
  }
}

/** An operation the sandbox does not offer, or none named: 00002 (or 00001), signed only for a known merchant. */
async function unsupported(
  ctx: GatewayContext,
  params: Params,
  field: string,
  values: readonly string[] | undefined,
): Promise<Response> {
  const language = requestLanguage(params);
  const merchant = identifiedMerchant(ctx, params);
  if (!values) return jsonAnswer(params, merchant, '00001', {}, fieldError(field, 'required', {}, language).message);
  return jsonAnswer(params, merchant, '00002', {}, fieldError(field, 'enum', { values }, language).message);
}

// ---- Maintenance ----

async function captureOrRefund(ctx: GatewayContext, params: Params, command: 'CAPTURE' | 'REFUND'): Promise<Response> {
  const checked = await checkRequest(ctx, params, command === 'CAPTURE' ? captureRequest : refundRequest);
  if (!checked.ok) return jsonAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const order = ctx.state.orderBySvcId(merchant.merchantIdentifier, data.svc_id);
  if (!order || order.merchantReference !== data.merchant_reference) return jsonAnswer(params, merchant, '00007');
  const amount = parseWireAmount(data.amount);
  const transition = (command === 'CAPTURE' ? capture : refund)(order, amount, data.currency, ctx.now());
  if (transition.ok) ctx.state.saveOrder(transition.order);
  return jsonAnswer(params, merchant, transition.code);
}

async function voidOrder(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, voidAuthorizationRequest);
  if (!checked.ok) return jsonAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const order = findOrder(ctx, merchant, data.svc_id, data.merchant_reference);
  if (!order) return jsonAnswer(params, merchant, '00007');
  const transition = voidAuthorization(order, ctx.now());
  if (transition.ok) ctx.state.saveOrder(transition.order);
  return jsonAnswer(params, merchant, transition.code, { svc_id: order.svcId });
}

/** By svc_id (and then the reference must agree), or by merchant_reference alone. */
function findOrder(
  ctx: GatewayContext,
  merchant: SandboxMerchant,
  svcId: string | undefined,
  merchantReference: string | undefined,
): SandboxOrder | undefined {
  if (svcId !== undefined) {
    const order = ctx.state.orderBySvcId(merchant.merchantIdentifier, svcId);
    return order && (merchantReference === undefined || order.merchantReference === merchantReference) ? order : undefined;
  }
  return merchantReference === undefined ? undefined : ctx.state.orderByReference(merchant.merchantIdentifier, merchantReference);
}

// ---- Queries ----

async function checkStatus(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, checkStatusRequest);
  if (!checked.ok) return jsonAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const order = findOrder(ctx, merchant, data.svc_id, data.merchant_reference);
  if (!order) return jsonAnswer(params, merchant, '12001');
  const last = lastOperation(order);
  const fields: WireParams = {
    svc_id: order.svcId,
    transaction_status: expectedStatus(last.code),
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
    const outcome = classifyResponse({ response_code: last.code });
    fields['acquirer_response_code'] = outcome === 'success' ? '00' : outcome === 'pending' ? '01' : '05';
  }
  return jsonAnswer(params, merchant, '12000', fields);
}

async function plansQuery(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, installmentsPlansRequest);
  if (!checked.ok) return jsonAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const language = requestLanguage(params);
  if (data.amount !== undefined && data.currency === undefined) {
    return jsonAnswer(params, merchant, '00001', {}, fieldError('currency', 'required', {}, language).message);
  }
  if (data.currency !== undefined && !isChargeableCurrency(data.currency)) return jsonAnswer(params, merchant, '00009');
  const issuers = plansQueryIssuers({
    ...(data.amount !== undefined ? { amount: parseWireAmount(data.amount) } : {}),
    ...(data.currency !== undefined ? { currency: data.currency } : {}),
    ...(data.issuer_code !== undefined ? { issuerCode: data.issuer_code } : {}),
  });
  // The fixture objects are plain JSON data; the cast only widens interface types to SignableValue.
  return jsonAnswer(params, merchant, '62000', { installment_detail: { issuer_detail: issuers as unknown as SignableValue } });
}

// ---- Cash bill ----

async function billPresentment(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, billPresentmentRequest);
  if (!checked.ok) {
    // A well-formed currency other than EGP: the service does not support it (bills are EGP only).
    const otherCurrency = checked.errors?.some((error) => error.field === 'currency' && error.rule === 'enum');
    return jsonAnswer(params, checked.merchant, otherCurrency ? '00009' : checked.code, {}, otherCurrency ? undefined : checked.detail);
  }
  const { merchant, data } = checked;
  const language = requestLanguage(params);
  if (data.payment_partner !== VOUCHER_PARTNER_CODE) {
    const detail = fieldError('payment_partner', 'enum', { values: [VOUCHER_PARTNER_CODE] }, language).message;
    return jsonAnswer(params, merchant, '00002', {}, detail);
  }
  const expiresAt = parseExpiry(data.request_expiry_date);
  if (expiresAt === undefined) {
    const detail = fieldError('request_expiry_date', 'format', { format: 'datetime_offset' }, language).message;
    return jsonAnswer(params, merchant, '00002', {}, detail);
  }
  if (expiresAt <= ctx.now()) return jsonAnswer(params, merchant, '31002');
  const amount = parseWireAmount(data.amount);
  if (amount <= 0) return jsonAnswer(params, merchant, '00002', {}, fieldError('amount', 'invalid', {}, language).message);
  if (ctx.state.referenceTaken(merchant.merchantIdentifier, data.merchant_reference)) return jsonAnswer(params, merchant, '00005');
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
  return jsonAnswer(params, merchant, '30000', { bill_number: billNumber });
}

// ---- AUTHORIZATION / PURCHASE with a token or a card ----

async function directOperation(
  ctx: GatewayContext,
  params: Params,
  command: 'AUTHORIZATION' | 'PURCHASE',
  requestUrl: string,
): Promise<Response> {
  const recurring = params['eci'] === 'RECURRING' && command === 'PURCHASE';
  const installments = params['installments'] !== undefined;
  const schema = installments ? installmentsDirectRequest : recurring ? recurringPurchaseRequest : trustedChannelRequest;
  // Merchant page completion sends no eci; it is an e-commerce transaction.
  const checked = await checkRequest(ctx, params, schema, installments || recurring ? {} : { defaults: { eci: 'ECOMMERCE' } });
  if (!checked.ok) return jsonAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const language = requestLanguage(params);
  const eci = data.eci ?? 'ECOMMERCE';
  if (!isChargeableCurrency(data.currency)) return jsonAnswer(params, merchant, '00009');
  const amount = parseWireAmount(data.amount);
  if (amount <= 0) return jsonAnswer(params, merchant, '00002', {}, fieldError('amount', 'invalid', {}, language).message);

  const source = cardSource(ctx, merchant, data, command);
  if (!source.ok) return jsonAnswer(params, merchant, source.code);
  const { card } = source;
  if (isExpiredYymm(card.expiryDate, new Date(ctx.now()))) return jsonAnswer(params, merchant, '00011');
  if (ctx.state.referenceTaken(merchant.merchantIdentifier, data.merchant_reference)) return jsonAnswer(params, merchant, '00005');

  let plan;
  if ('installments' in data && data.installments === 'YES') {
    plan = findPlan(data.issuer_code, data.plan_code, amount, data.currency);
    if (!plan || !cardBelongsTo(plan.issuer, card.number)) return jsonAnswer(params, merchant, '00012');
  }

  const tokenName = data.token_name;
  const result = charge(ctx, {
    merchant,
    command,
    merchantReference: data.merchant_reference,
    amount,
    currency: data.currency,
    card,
    channel: recurring ? 'recurring' : tokenName ? 'token' : 'card',
    eci,
    ...(tokenName ? { tokenName } : {}),
    ...(plan ? { plan } : {}),
  });
  if (result.code !== '20000') return jsonAnswer(params, merchant, result.code, result.fields);

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
    ...(tokenName ? { tokenName } : {}),
    ...(returnUrl ? { returnUrl } : {}),
  });
  return jsonAnswer(params, merchant, result.code, { ...result.fields, '3ds_url': challengeUrl(ctx, requestUrl, id) });
}

type CardSource = { ok: true; card: EnteredCard } | { ok: false; code: KnownResponseCode };

/** The card to charge: the stored token's, or the clear card data of the trusted channel. */
function cardSource(
  ctx: GatewayContext,
  merchant: SandboxMerchant,
  data: { token_name?: string | undefined; card_number?: string | undefined; expiry_date?: string | undefined; card_holder_name?: string | undefined },
  command: 'AUTHORIZATION' | 'PURCHASE',
): CardSource {
  if (data.token_name !== undefined) {
    const token = ctx.state.token(merchant.merchantIdentifier, data.token_name);
    if (!token) return { ok: false, code: '00010' };
    return {
      ok: true,
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
