/**
 * The four consumer-financing steps (spec, "Consumer financing flow"): CUSTOMER_VERIFY,
 * OTP_GENERATE, OTP_VERIFY, then PURCHASE. Each step answers a sealed flow token (flow-token.ts)
 * and the next step accepts only a token of the step before it, for the same order, so the
 * browser cannot skip a step, switch orders or invent a transaction_id, down payment or OTP.
 *
 * Financing is an attempt at paying the order, as a card payment is: its first step chooses the
 * reference its gateway calls use (`payableReference`: the order's own, or the next attempt's after
 * an expired bill or a closed 3-D Secure check holds it), and the flow token keeps it to the end.
 */
import { amountErrorMessage } from '../core/amount-messages.ts';
import { AmountError, formatMoney, fromMinorUnits } from '../core/amounts.ts';
import {
  financingOtpRequest,
  financingOtpResult,
  financingPurchaseRequest,
  financingVerifyCustomerRequest,
  financingVerifyCustomerResult,
  financingVerifyOtpRequest,
  financingVerifyOtpResult,
  paymentResult,
  type FinancingOtpRequest,
  type FinancingOtpResult,
  type FinancingProduct,
  type FinancingPurchaseRequest,
  type FinancingVerifyCustomerRequest,
  type FinancingVerifyCustomerResult,
  type FinancingVerifyOtpRequest,
  type FinancingVerifyOtpResult,
  type PaymentResult,
  type TenureOption,
} from '../core/endpoint-api.ts';
import { fieldError } from '../core/field-errors.ts';
import { DUPLICATE_REFERENCE, isPaidState } from '../core/order-status.ts';
import type { Language } from '../core/language.ts';
import { orderReferenceOf } from '../core/payment-attempts.ts';
import { financingProductsTotal, normalizeFinancingPhone } from '../core/partners.ts';
import {
  customerVerifyRequest,
  customerVerifyResponse,
  financingPurchaseRequest as gatewayFinancingPurchaseRequest,
  financingPurchaseResponse,
  otpGenerateRequest,
  otpGenerateResponse,
  otpVerifyRequest,
  otpVerifyResponse,
} from '../core/schemas/index.ts';
import { EndpointRefusal } from './errors.ts';
import { limiterKey } from './rate-limit.ts';
import type { FlowState, FlowStep } from './flow-token.ts';
import { gatewayAmount, gatewayMonths, requireSuccess } from './gateway-client.ts';
import { gatewayOrderStatus, payableReference, refuseOrderPaidByMerchant, refuseUnpayableStatus } from './gateway-status.ts';
import { identityParams, orderParams } from './gateway-params.ts';
import { customerFieldsFor, type MerchantOrder } from './orders.ts';
import { assertPurchaseAllowed } from './routes-payment-pages.ts';
import { confirmedResult, otherAttemptPaid, recordedCharge, reportOnce, resultOfAnswer, sendWatched, toPaymentResult, withDuplicateCheck } from './results.ts';
import { unconfirmedWatch } from './watches.ts';
import { defineRoute, type EndpointRuntime, type JsonRoute } from './route.ts';

const PHONE_MESSAGE: Readonly<Record<Language, string>> = {
  en: 'phone_number: must be an Egyptian mobile number such as 01012345678',
  ar: 'phone_number: يجب أن يكون رقم هاتف محمول مصري مثل 01012345678',
};

/** The configured financing partner (`payment_option`); without one, no financing step signs anything. */
function financingPartner(runtime: EndpointRuntime): string {
  const partner = runtime.settings.financingPartnerCode;
  if (partner === undefined) throw new EndpointRefusal('service_not_configured');
  return partner;
}

/**
 * The configured partner, and a PURCHASE the merchant allows for the order: financing ends in one.
 * Every step checks it, the purchase included, so no SMS is sent for an order the merchant allows
 * only to be held, and no money is taken for it even with a flow started while it was allowed.
 */
function assertFinancingAllowed(runtime: EndpointRuntime, order: MerchantOrder): void {
  financingPartner(runtime);
  assertPurchaseAllowed(runtime, order, 'financing');
}

/**
 * The merchant_reference of a new flow, asked of the gateway at its first step as a card payment's
 * is (`payableReference`): refused when any attempt of the order is paid or a bill waits; else the
 * order's own, a declined one's used again, or the next attempt's while an expired bill or a
 * closed 3-D Secure check holds the order's (the gateway would refuse the flow's steps as 00005).
 */
function flowReference(runtime: EndpointRuntime, order: MerchantOrder, language: Language): Promise<string> {
  assertFinancingAllowed(runtime, order);
  return payableReference(runtime, order, language);
}

/**
 * The steps after the first refuse an order the merchant says is paid; the gateway was asked at
 * the first. The code's step and the purchase ask again (`refusePaidMeanwhile`): a card may have
 * paid the order in another tab since the flow began.
 */
function assertFinanceable(runtime: EndpointRuntime, order: MerchantOrder): void {
  assertFinancingAllowed(runtime, order);
  refuseOrderPaidByMerchant(runtime, order);
}

/** Who says the order was paid another way while the flow ran: what `order_already_paid` is logged with. */
type PaidBy = 'ledger' | 'merchant' | 'gateway';

/** Refuses a flow step for an order paid another way (a card in another tab) since the flow began, as `paidBy` says. */
function refusePaidMeanwhile(runtime: EndpointRuntime, order: MerchantOrder, reference: string, paidBy: PaidBy): never {
  runtime.log.info('order_already_paid', { merchant_reference: order.merchant_reference, by: paidBy, attempt: reference });
  throw new EndpointRefusal('order_already_paid', { field: 'merchant_reference' });
}

/**
 * Whether the ledger holds a paid result of the order, under any attempt. Before its purchase the
 * flow has paid nothing, so a payment under its own reference is another's too: a card in another
 * tab that took the reference the flow picked, before the flow's OTP_GENERATE could hold it.
 */
async function ledgerSaysPaid(reference: string, runtime: EndpointRuntime): Promise<boolean> {
  const recorded = await recordedCharge(reference, runtime);
  return recorded === 'paid_by_another_attempt' || (recorded !== undefined && isPaidState(recorded.order_state));
}

/**
 * After the gateway refused the flow's reference as taken (00005), what CHECK_STATUS shows holds
 * it: the order paid, under that reference (a card took it since the first step) or another
 * attempt, is `order_already_paid`; a payment waiting under it (a bill issued or a 3-D Secure check
 * begun in another tab) is `order_in_progress`, as the first step refuses it
 * (`refuseUnpayableStatus`). Otherwise returns, and the gateway's refusal stands.
 */
async function refuseTakenReference(runtime: EndpointRuntime, order: MerchantOrder, reference: string, language: Language): Promise<void> {
  const own = await gatewayOrderStatus(runtime, reference, language);
  if ((own !== undefined && isPaidState(own.state)) || (await otherAttemptPaid(reference, language, runtime)) !== undefined) {
    refusePaidMeanwhile(runtime, order, reference, 'gateway');
  }
  refuseUnpayableStatus(runtime, reference, own);
}

/** The merchant_reference the flow's gateway calls use: sealed at its first step, else (a token sealed before attempts) the order's. */
function referenceOf(state: FlowState): string {
  return state.payment_reference ?? state.merchant_reference;
}

/** The financing fields every step sends, under the flow's reference (`reference`). */
function financingParams(runtime: EndpointRuntime, reference: string, phone: string, language: Language) {
  return {
    ...identityParams(runtime.settings),
    merchant_reference: reference,
    language,
    payment_option: financingPartner(runtime),
    phone_number: phone,
  };
}

/**
 * The financing fields plus the order's money and id, for the steps after verification, under the
 * flow's reference. `merchant_order_id`, the merchant's order id, stays the order's own in every attempt.
 */
function financingOrderParams(runtime: EndpointRuntime, order: MerchantOrder, state: FlowState, language: Language) {
  return {
    ...orderParams(runtime.settings, order, language),
    merchant_reference: referenceOf(state),
    payment_option: financingPartner(runtime),
    phone_number: state.phone_number,
    merchant_order_id: order.merchant_reference,
  };
}

/**
 * Opens the flow token of a step: it must be intact, unexpired, for this order as it stands (its
 * reference, when it names one, an attempt of this order), and at one of `steps`.
 */
async function openFlow(
  runtime: EndpointRuntime,
  token: string,
  order: MerchantOrder,
  steps: readonly FlowStep[],
): Promise<FlowState> {
  const state = await runtime.flows.open(token);
  if (
    !state ||
    state.merchant_reference !== order.merchant_reference ||
    state.amount !== order.amount ||
    state.currency !== order.currency ||
    (state.payment_reference !== undefined && orderReferenceOf(state.payment_reference) !== order.merchant_reference)
  ) {
    runtime.log.warn('flow_invalid', { merchant_reference: order.merchant_reference });
    throw new EndpointRefusal('flow_invalid', { field: 'flow' });
  }
  if (!steps.includes(state.step)) {
    runtime.log.warn('step_out_of_order', { merchant_reference: order.merchant_reference, step: state.step });
    throw new EndpointRefusal('step_out_of_order', { field: 'flow' });
  }
  return state;
}

export const financingVerifyCustomerRoute: JsonRoute<unknown> = defineRoute<FinancingVerifyCustomerRequest>({
  schema: financingVerifyCustomerRequest,
  result: financingVerifyCustomerResult,
  async handle({ input, order, language, runtime }): Promise<FinancingVerifyCustomerResult> {
    assertFinancingAllowed(runtime, order);
    const phone = normalizeFinancingPhone(input.phone_number);
    if (!phone) throw new EndpointRefusal('invalid_request', { field: 'phone_number', message: PHONE_MESSAGE });
    // Chosen once: every later step sends the reference sealed here, whatever the gateway holds by then.
    const reference = await flowReference(runtime, order, language);
    const answer = await runtime.gateway.call({
      operation: 'CUSTOMER_VERIFY',
      schema: customerVerifyRequest,
      answerSchema: customerVerifyResponse,
      language,
      params: { service_command: 'CUSTOMER_VERIFY', ...financingParams(runtime, reference, phone, language) },
    });
    requireSuccess(answer, language);
    const flow = await runtime.flows.seal({
      merchant_reference: order.merchant_reference,
      payment_reference: reference,
      phone_number: phone,
      step: 'customer_verified',
      amount: order.amount,
      currency: order.currency,
    });
    return { flow };
  },
});

const PRODUCTS_SET_BY_MERCHANT: Readonly<Record<Language, string>> = {
  en: 'products: are set by the merchant for this order',
  ar: 'products: يحددها التاجر لهذا الطلب',
};

function productsTotalMessage(order: MerchantOrder): Readonly<Record<Language, string>> {
  return {
    en: `products: the prices must add up to the order amount, ${formatMoney(order.amount, order.currency, 'en')}`,
    ar: `products: يجب أن يساوي مجموع الأسعار مبلغ الطلب، ${formatMoney(order.amount, order.currency, 'ar')}`,
  };
}

/**
 * The products sent with OTP_GENERATE: the order's; else the browser's, only when their prices add
 * up to the order amount (the partner must not finance EGP 5,000.00 as one item at 0.01); else the
 * order as one product. A browser list for an order that lists its own is refused, naming it.
 */
function productsFor(
  order: MerchantOrder,
  fromBrowser: readonly FinancingProduct[] | undefined,
  language: Language,
): FinancingProduct[] {
  const browserSent = fromBrowser !== undefined && fromBrowser.length > 0;
  if (order.products && order.products.length > 0) {
    if (browserSent) throw new EndpointRefusal('invalid_request', { field: 'products', message: PRODUCTS_SET_BY_MERCHANT });
    return [...order.products];
  }
  if (browserSent) {
    let total: number;
    try {
      total = financingProductsTotal(fromBrowser, order.currency);
    } catch (error) {
      if (!(error instanceof AmountError)) throw error;
      throw new EndpointRefusal('invalid_request', { field: error.field, message: amountErrorMessage(error, language) });
    }
    if (total !== order.amount) {
      throw new EndpointRefusal('invalid_request', { field: 'products', message: productsTotalMessage(order) });
    }
    return [...fromBrowser];
  }
  return [
    {
      product_name: order.description ?? order.merchant_reference,
      product_price: fromMinorUnits(order.amount, order.currency),
      product_category: 'general',
    },
  ];
}

/**
 * Every OTP is an SMS to a number the caller typed: resends are limited per flow (the count is
 * sealed in the flow token), every send per phone number and order within a window (a new flow,
 * or an old token replayed, counts there too), and every send to the phone number whatever the
 * order (new orders do not multiply the SMS). Refused: 429 otp_resend_limited with Retry-After.
 */
async function assertOtpSendAllowed(runtime: EndpointRuntime, order: MerchantOrder, state: FlowState): Promise<void> {
  const { settings, log } = runtime;
  const sent = state.otp_sends ?? 0;
  if (sent > settings.otpResendsPerFlow) {
    log.warn('otp_resend_limited', { merchant_reference: order.merchant_reference, limit: 'flow' });
    // This flow will not send again; by the time it has expired the customer may start a new one.
    throw new EndpointRefusal('otp_resend_limited', { headers: { 'retry-after': String(settings.flowLifetimeSeconds) } });
  }
  const limits = [
    ['phone', settings.otpPhoneLimiter, await limiterKey('otp-phone', state.phone_number)],
    ['phone_and_order', settings.otpSendLimiter, await limiterKey('otp', order.merchant_reference, state.phone_number)],
  ] as const;
  for (const [limit, limiter, key] of limits) {
    const decision = await limiter.hit(key);
    if (decision.allowed) continue;
    log.warn('otp_resend_limited', { merchant_reference: order.merchant_reference, limit });
    throw new EndpointRefusal('otp_resend_limited', { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
  }
}

export const financingOtpRoute: JsonRoute<unknown> = defineRoute<FinancingOtpRequest>({
  schema: financingOtpRequest,
  result: financingOtpResult,
  async handle({ input, order, language, runtime }): Promise<FinancingOtpResult> {
    assertFinanceable(runtime, order);
    // A second OTP may be asked for before one is verified ("send the code again"), within limits.
    const state = await openFlow(runtime, input.flow, order, ['customer_verified', 'otp_sent']);
    const reference = referenceOf(state);
    // No SMS for an order a card paid in another tab since the first step, when the ledger knows it.
    if (await ledgerSaysPaid(reference, runtime)) refusePaidMeanwhile(runtime, order, reference, 'ledger');
    const products = productsFor(order, input.products, language);
    await assertOtpSendAllowed(runtime, order, state);
    const answer = await runtime.gateway.call({
      operation: 'OTP_GENERATE',
      schema: otpGenerateRequest,
      answerSchema: otpGenerateResponse,
      language,
      browserFields: order.products && order.products.length > 0 ? [] : ['products'],
      params: {
        service_command: 'OTP_GENERATE',
        ...financingOrderParams(runtime, order, state, language),
        products,
      },
    });
    // Refused as taken (00005) by a card that paid the order meanwhile, its return not recorded yet,
    // or by a payment begun in another tab: the customer is told so, not the gateway's generic refusal.
    if (answer.response_code === DUPLICATE_REFERENCE) await refuseTakenReference(runtime, order, reference, language);
    requireSuccess(answer, language);
    if (answer.transaction_id === undefined || answer.total_down_payment === undefined) {
      runtime.log.error('otp_generate_incomplete', { merchant_reference: order.merchant_reference });
      throw new EndpointRefusal('gateway_unreachable');
    }
    const downPayment = gatewayAmount(answer.total_down_payment, 'total_down_payment', 'OTP_GENERATE', runtime.log);
    const flow = await runtime.flows.seal({
      merchant_reference: order.merchant_reference,
      ...(state.payment_reference === undefined ? {} : { payment_reference: state.payment_reference }),
      phone_number: state.phone_number,
      step: 'otp_sent',
      amount: order.amount,
      currency: order.currency,
      transaction_id: answer.transaction_id,
      down_payment: downPayment,
      otp_sends: (state.otp_sends ?? 0) + 1,
    });
    const tenureMonths = (answer.tenure ?? '')
      .split('-')
      .filter(Boolean)
      .map((months) => gatewayMonths(months, 'tenure', 'OTP_GENERATE', runtime.log));
    return { flow, down_payment: downPayment, tenure_months: tenureMonths };
  },
});

/** The partner's "too many wrong OTP attempts": the element shows its locked-code state for it, whoever locked. */
const OTP_LOCKED = '93002';

const OTP_ATTEMPTS_MESSAGE: Readonly<Record<'code' | 'phone', Readonly<Record<Language, string>>>> = {
  code: {
    en: 'otp: too many wrong codes were entered for this code; ask for a new code.',
    ar: 'otp: أُدخلت رموز خاطئة كثيرة لهذا الرمز؛ اطلب رمزًا جديدًا.',
  },
  phone: {
    en: 'otp: too many wrong codes were entered for this phone number; please wait before trying again.',
    ar: 'otp: أُدخلت رموز خاطئة كثيرة لرقم الهاتف هذا؛ يرجى الانتظار قبل المحاولة مرة أخرى.',
  },
};

/**
 * Every code tried is counted before it reaches the gateway, so concurrent tries cannot race past
 * the limit: per code sent (phone, order and the code's transaction_id; a new code is a new count,
 * an old token replayed keeps its own) and per phone number across codes and orders. The counts
 * are the store's, shared by every instance. Without them a wrong code costs nothing, and whoever
 * typed another person's number guesses that person's code until the partner's own lockout.
 * Refused: 429 otp_attempts_limited naming `otp`, with the partner's locked-code response code.
 */
async function assertOtpAttemptAllowed(runtime: EndpointRuntime, order: MerchantOrder, state: FlowState): Promise<void> {
  const { settings, log } = runtime;
  const limits = [
    ['code', settings.otpAttemptLimiter, await limiterKey('otp-try', order.merchant_reference, state.phone_number, state.transaction_id ?? '')],
    ['phone', settings.otpPhoneAttemptLimiter, await limiterKey('otp-try-phone', state.phone_number)],
  ] as const;
  // One at a time: a try refused for its code does not use up the phone number's ceiling.
  for (const [limit, limiter, key] of limits) {
    const decision = await limiter.hit(key);
    if (decision.allowed) continue;
    log.warn('otp_attempts_limited', { merchant_reference: order.merchant_reference, limit });
    throw new EndpointRefusal('otp_attempts_limited', {
      field: 'otp',
      message: OTP_ATTEMPTS_MESSAGE[limit],
      responseCode: OTP_LOCKED,
      // A new code is what frees a code's tries; the phone number's ceiling frees up with time.
      ...(limit === 'phone' ? { headers: { 'retry-after': String(decision.retryAfterSeconds) } } : {}),
    });
  }
}

export const financingVerifyOtpRoute: JsonRoute<unknown> = defineRoute<FinancingVerifyOtpRequest>({
  schema: financingVerifyOtpRequest,
  result: financingVerifyOtpResult,
  async handle({ input, order, language, runtime }): Promise<FinancingVerifyOtpResult> {
    assertFinanceable(runtime, order);
    const state = await openFlow(runtime, input.flow, order, ['otp_sent']);
    await assertOtpAttemptAllowed(runtime, order, state);
    const downPayment = state.down_payment ?? 0;
    const answer = await runtime.gateway.call({
      operation: 'OTP_VERIFY',
      schema: otpVerifyRequest,
      answerSchema: otpVerifyResponse,
      language,
      browserFields: ['otp'],
      params: {
        service_command: 'OTP_VERIFY',
        ...financingOrderParams(runtime, order, state, language),
        total_downpayment: downPayment,
        otp: input.otp,
      },
    });
    // A wrong OTP is refused with the gateway's code; the browser keeps its otp_sent token and may try again, within its tries.
    requireSuccess(answer, language);
    const tenures: TenureOption[] = (answer.tenure?.TENURE_VM ?? []).map((option) => ({
      months: gatewayMonths(option.TENURE, 'TENURE', 'OTP_VERIFY', runtime.log),
      // Like every amount on the wire, EMI is in minor units (a string of digits).
      emi: gatewayAmount(option.EMI, 'EMI', 'OTP_VERIFY', runtime.log),
      interest_rate: option.InterestRate,
    }));
    const confirmedDownPayment = gatewayAmount(answer.total_downpayment, 'total_downpayment', 'OTP_VERIFY', runtime.log);
    const flow = await runtime.flows.seal({
      ...state,
      step: 'otp_verified',
      down_payment: confirmedDownPayment,
      otp: input.otp,
      tenures: tenures.map((option) => option.months),
    });
    return { flow, down_payment: confirmedDownPayment, tenures };
  },
});

export const financingPurchaseRoute: JsonRoute<unknown> = defineRoute<FinancingPurchaseRequest>({
  schema: financingPurchaseRequest,
  result: paymentResult,
  async handle({ input, order, language, request, runtime }): Promise<PaymentResult> {
    assertFinancingAllowed(runtime, order);
    const state = await openFlow(runtime, input.flow, order, ['otp_verified']);
    const offered = state.tenures ?? [];
    if (!offered.includes(input.tenure)) {
      const error = fieldError('tenure', 'enum', { values: offered.map(String) }, language);
      throw new EndpointRefusal('invalid_request', { field: 'tenure', message: error.message });
    }
    if (state.transaction_id === undefined || state.otp === undefined || state.down_payment === undefined) {
      throw new EndpointRefusal('flow_invalid', { field: 'flow' });
    }
    const reference = referenceOf(state);
    // The purchase posted again after its result was recorded is answered from the ledger. An order
    // paid meanwhile another way (a card in another tab, under another attempt) is not charged again:
    // as the ledger, the merchant's order or the gateway (another attempt held paid) says.
    const recorded = await recordedCharge(reference, runtime);
    if (recorded !== undefined && recorded !== 'paid_by_another_attempt') return toPaymentResult(recorded);
    const paidBy: PaidBy | undefined =
      recorded === 'paid_by_another_attempt' ? 'ledger'
      : order.paid ? 'merchant'
      : (await otherAttemptPaid(reference, language, runtime)) !== undefined ? 'gateway'
      : undefined;
    if (paidBy !== undefined) refusePaidMeanwhile(runtime, order, reference, paidBy);
    // Watched from before the money moves: a lost answer, or a process killed meanwhile, leaves the
    // watch, and the reconciler reports what the partner did, whether the customer stays or not.
    // Under the attempt's reference, the one CHECK_STATUS knows the payment by.
    const watch = unconfirmedWatch({ ...order, merchant_reference: reference, language }, runtime.settings.now().getTime(), runtime.settings.watchSettings);
    // The order's e-mail, else the browser's (a guest checkout): the gateway screens payments by it.
    const customer = customerFieldsFor(order, input, ['customer_email'], runtime.log);
    const answer = await sendWatched(runtime, watch, () => runtime.gateway.call({
      operation: 'financing PURCHASE',
      schema: gatewayFinancingPurchaseRequest,
      answerSchema: financingPurchaseResponse,
      language,
      browserFields: customer.fromBrowser,
      params: {
        command: 'PURCHASE',
        // The order's amount and currency, never the browser's.
        ...financingOrderParams(runtime, order, state, language),
        customer_email: customer.values.customer_email,
        customer_code: order.customer_code ?? state.phone_number,
        transaction_id: state.transaction_id,
        otp: state.otp,
        tenure: input.tenure,
        total_down_payment: state.down_payment,
        purchase_description: order.description ?? `Order ${order.merchant_reference}`,
      },
    }));
    // A replayed purchase (the flow token is still valid) is refused by the gateway as a duplicate
    // reference: the attempt's outcome is what CHECK_STATUS says, and it was reported the first time.
    const result =
      answer.response_code === DUPLICATE_REFERENCE
        ? await confirmedResult(reference, answer, order, 'financing', language, runtime)
        : resultOfAnswer(answer, order, 'financing', language, runtime.log);
    if (!result) throw new EndpointRefusal('gateway_unreachable');
    // Paid while another attempt of the order is paid too (a closed 3-D Secure check finished in
    // another tab): the shop is told with the result, as for a card.
    const checked = await withDuplicateCheck(result, language, runtime);
    // A Response from onResult is for browser navigations (the return URL); here the element gets JSON.
    const reported = await reportOnce(checked, request, runtime, language);
    return toPaymentResult(reported.result);
  },
});
