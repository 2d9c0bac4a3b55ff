/**
 * Consumer financing (spec, "Consumer financing flow"): CUSTOMER_VERIFY → OTP_GENERATE →
 * OTP_VERIFY → PURCHASE. The partner is simulated: every valid Egyptian mobile number is a
 * registered customer except UNREGISTERED_FINANCING_PHONE, the OTP is always SANDBOX_OTP, and
 * MAX_OTP_ATTEMPTS wrong answers lock the OTP until a new one is generated.
 *
 * The steps are one flow: OTP_GENERATE needs the customer verified for the same merchant_reference
 * and phone (00007 otherwise), and OTP_VERIFY and PURCHASE must name the transaction OTP_GENERATE
 * created: its phone, merchant_order_id and amount (00002 naming the field) and currency (00013).
 *
 * Shapes follow the spec, both down-payment spellings included: OTP_GENERATE answers
 * `total_down_payment` and `tenure: "3-6-12"`; OTP_VERIFY takes and answers `total_downpayment`
 * and answers `tenure: { TENURE_VM: [{ EMI, TENURE, InterestRate }] }` (strings); PURCHASE takes
 * `total_down_payment`. Money is in minor units, EMI included (a string of digits).
 */
import { parseWireAmount } from '../core/amounts.ts';
import { parsePercentage, roundHalfUp } from '../core/installments.ts';
import { fieldError } from '../core/field-errors.ts';
import type { Language } from '../core/language.ts';
import { normalizeFinancingPhone } from '../core/partners.ts';
import type { KnownResponseCode } from '../core/response.ts';
import {
  customerVerifyRequest,
  financingPurchaseRequest,
  otpGenerateRequest,
  otpVerifyRequest,
} from '../core/schemas/index.ts';
import { checkRequest, type GatewayContext } from './context.ts';
import { SANDBOX_FINANCING_PARTNER_CODE as FINANCING_PARTNER_CODE } from './partners.ts';
import { financedPurchase } from './orders.ts';
import type { FinancingTransaction } from './state.ts';
import {
  FINANCING_DOWN_PAYMENT_PERCENT,
  FINANCING_TENURES,
  MAX_OTP_ATTEMPTS,
  SANDBOX_FINANCING_CUSTOMER_IP,
  SANDBOX_OTP,
  UNREGISTERED_FINANCING_PHONE,
} from './test-cards.ts';
import { apiAnswer, isChargeableCurrency, requestLanguage, type WireParams } from './wire.ts';

type Params = Record<string, WireParams[string]>;

/** The partner's checks shared by every step: its code, and a registered Egyptian mobile number. */
function partnerCheck(params: Params): { ok: true; phone: string } | { ok: false; code: KnownResponseCode; detail?: string } {
  const language = requestLanguage(params);
  if (params['payment_option'] !== FINANCING_PARTNER_CODE) {
    return {
      ok: false,
      code: '00002',
      detail: fieldError('payment_option', 'enum', { values: [FINANCING_PARTNER_CODE] }, language).message,
    };
  }
  const phone = normalizeFinancingPhone(String(params['phone_number'] ?? ''));
  if (!phone) return { ok: false, code: '00002', detail: fieldError('phone_number', 'invalid', {}, language).message };
  if (phone === UNREGISTERED_FINANCING_PHONE) return { ok: false, code: '91001' };
  return { ok: true, phone };
}

export async function customerVerify(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, customerVerifyRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const partner = partnerCheck(params);
  if (!partner.ok) return apiAnswer(params, checked.merchant, partner.code, {}, partner.detail);
  ctx.state.saveCustomerVerification({
    merchantIdentifier: checked.merchant.merchantIdentifier,
    merchantReference: checked.data.merchant_reference,
    phone: partner.phone,
    verifiedAt: ctx.now(),
  });
  return apiAnswer(params, checked.merchant, '90000');
}

/**
 * Why a later step does not belong to the transaction OTP_GENERATE created, or undefined when it
 * does: another currency (00013, as a capture of another currency), or another amount or
 * merchant_order_id (00002 naming the field).
 */
function transactionMismatch(
  transaction: FinancingTransaction,
  request: { readonly currency: string; readonly amount: string | number; readonly merchant_order_id: string },
  language: Language,
): { code: KnownResponseCode; detail?: string } | undefined {
  if (request.currency !== transaction.currency) return { code: '00013' };
  if (parseWireAmount(request.amount) !== transaction.amount) {
    return { code: '00002', detail: fieldError('amount', 'invalid', {}, language).message };
  }
  if (request.merchant_order_id !== transaction.merchantOrderId) {
    return { code: '00002', detail: fieldError('merchant_order_id', 'invalid', {}, language).message };
  }
  return undefined;
}

/** Down payment: a fixed share of the amount, rounded half up to the minor unit. */
export function downPaymentOf(amount: number): number {
  return Math.round((amount * FINANCING_DOWN_PAYMENT_PERCENT) / 100);
}

/**
 * Monthly instalment in minor units: the financed amount plus flat interest, over the months, half
 * up. Exact for a decimal rate ("2.5"): the rate's digits over their scale, in integers.
 */
export function emiOf(amount: number, downPayment: number, months: number, interestRate: string): number {
  const { units, scale } = parsePercentage(interestRate);
  const hundred = 100n * 10n ** scale;
  return Number(roundHalfUp(BigInt(amount - downPayment) * (hundred + units), hundred * BigInt(months)));
}

export async function otpGenerate(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, otpGenerateRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const partner = partnerCheck(params);
  if (!partner.ok) return apiAnswer(params, merchant, partner.code, {}, partner.detail);
  if (!isChargeableCurrency(data.currency)) return apiAnswer(params, merchant, '00009');
  if (ctx.state.referenceTaken(merchant.merchantIdentifier, data.merchant_reference)) {
    return apiAnswer(params, merchant, '00005');
  }
  // Step 2 of the spec's flow: the partner sends an OTP only to a customer it verified (step 1).
  if (!ctx.state.customerVerified(merchant.merchantIdentifier, data.merchant_reference, partner.phone)) {
    return apiAnswer(params, merchant, '00007');
  }
  const amount = parseWireAmount(data.amount);
  const transaction: FinancingTransaction = {
    transactionId: ctx.state.newTransactionId(),
    merchantIdentifier: merchant.merchantIdentifier,
    merchantReference: data.merchant_reference,
    merchantOrderId: data.merchant_order_id,
    phone: partner.phone,
    amount,
    currency: data.currency,
    downPayment: downPaymentOf(amount),
    otp: SANDBOX_OTP,
    wrongAttempts: 0,
    verified: false,
    locked: false,
    completed: false,
    createdAt: ctx.now(),
  };
  ctx.state.saveFinancing(transaction);
  return apiAnswer(params, merchant, '88000', {
    transaction_id: transaction.transactionId,
    total_down_payment: transaction.downPayment,
    otp_status: '1',
    tenure: FINANCING_TENURES.map((option) => option.months).join('-'),
  });
}

export async function otpVerify(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, otpVerifyRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const partner = partnerCheck(params);
  if (!partner.ok) return apiAnswer(params, merchant, partner.code, {}, partner.detail);
  const transaction = ctx.state.latestFinancing(merchant.merchantIdentifier, data.merchant_reference);
  if (!transaction || transaction.phone !== partner.phone || transaction.completed) return apiAnswer(params, merchant, '00007');
  if (transaction.locked) return apiAnswer(params, merchant, '93002');
  const mismatch = transactionMismatch(transaction, data, requestLanguage(params));
  if (mismatch) return apiAnswer(params, merchant, mismatch.code, {}, mismatch.detail);
  // The customer confirms the down payment OTP_GENERATE offered, not another.
  if (parseWireAmount(data.total_downpayment) !== transaction.downPayment) return apiAnswer(params, merchant, '93004');
  if (data.otp !== transaction.otp) {
    const wrongAttempts = transaction.wrongAttempts + 1;
    const locked = wrongAttempts >= MAX_OTP_ATTEMPTS;
    ctx.state.saveFinancing({ ...transaction, wrongAttempts, locked });
    return apiAnswer(params, merchant, locked ? '93002' : '93001');
  }
  ctx.state.saveFinancing({ ...transaction, verified: true });
  return apiAnswer(params, merchant, '92182', {
    total_downpayment: transaction.downPayment,
    otp_status: '1',
    tenure: {
      TENURE_VM: FINANCING_TENURES.map((option) => ({
        EMI: String(emiOf(transaction.amount, transaction.downPayment, option.months, option.interestRate)),
        TENURE: String(option.months),
        InterestRate: option.interestRate,
      })),
    },
  });
}

export async function financingPurchase(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, financingPurchaseRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const language = requestLanguage(params);
  const partner = partnerCheck(params);
  if (!partner.ok) return apiAnswer(params, merchant, partner.code, {}, partner.detail);
  const transaction = ctx.state.financing(merchant.merchantIdentifier, data.transaction_id);
  if (!transaction || transaction.merchantReference !== data.merchant_reference || transaction.phone !== partner.phone) {
    return apiAnswer(params, merchant, '00007');
  }
  if (ctx.state.referenceTaken(merchant.merchantIdentifier, data.merchant_reference)) {
    return apiAnswer(params, merchant, '00005');
  }
  if (!transaction.verified || transaction.locked || data.otp !== transaction.otp) return apiAnswer(params, merchant, '93003');
  const mismatch = transactionMismatch(transaction, data, language);
  if (mismatch) return apiAnswer(params, merchant, mismatch.code, {}, mismatch.detail);
  if (parseWireAmount(data.total_down_payment) !== transaction.downPayment) return apiAnswer(params, merchant, '93004');
  const months = FINANCING_TENURES.map((option) => String(option.months));
  if (!months.includes(String(data.tenure))) {
    return apiAnswer(params, merchant, '00002', {}, fieldError('tenure', 'enum', { values: months }, language).message);
  }
  const order = financedPurchase(
    {
      merchantIdentifier: merchant.merchantIdentifier,
      merchantReference: data.merchant_reference,
      svcId: ctx.state.nextSvcId(),
      amount: transaction.amount,
      currency: transaction.currency,
    },
    ctx.now(),
  );
  ctx.state.saveOrder(order);
  ctx.state.saveFinancing({ ...transaction, completed: true });
  // The spec's answer adds customer_ip: the request's (echoed), else the sandbox's stand-in.
  const customerIp = data.customer_ip === undefined ? { customer_ip: SANDBOX_FINANCING_CUSTOMER_IP } : {};
  return apiAnswer(params, merchant, '14000', { svc_id: order.svcId, eci: 'ECOMMERCE', ...customerIp });
}
