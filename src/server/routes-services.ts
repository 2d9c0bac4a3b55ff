/**
 * Routes answered by one server-to-server call: installment plans (GET_INSTALLMENTS_PLANS), the
 * cash bill (BILL_PRESENTMENT) and the order's status (CHECK_STATUS, gateway-status.ts).
 */
import { customerNameForGateway } from '../core/customer-name.ts';
import { formatDateTimeWithOffset } from '../core/dates.ts';
import {
  billRequest,
  billResult,
  installmentPlansRequest,
  installmentPlansResult,
  statusRequest,
  statusResult,
  type BillRequest,
  type BillResult,
  type InstallmentPlansRequest,
  type InstallmentPlansResult,
  type StatusRequest,
  type StatusResult,
} from '../core/endpoint-api.ts';
import { filterPlans, InstallmentError, planQuote, type InstallmentIssuer } from '../core/installments.ts';
import { VOUCHER_CURRENCY } from '../core/partners.ts';
import { AmountError, fromMinorUnits } from '../core/amounts.ts';
import type { Language } from '../core/language.ts';
import { BILL_ISSUED, DUPLICATE_REFERENCE, orderStatusOf, type OrderStatus } from '../core/order-status.ts';
import {
  billPresentmentRequest,
  billPresentmentResponse,
  installmentsPlansRequest,
  installmentsPlansResponse,
  type BillPresentmentResponse,
  type CheckStatusResponse,
} from '../core/schemas/index.ts';
import { EndpointRefusal } from './errors.ts';
import { gatewayAmount, requireSuccess } from './gateway-client.ts';
import { orderStatusBeforePayment, queryOrderStatus, queryStatus, refuseOrderPaidByMerchant, refuseUnpayableStatus } from './gateway-status.ts';
import { identityParams, orderParams } from './gateway-params.ts';
import { forMerchantHooks, issuedBillResult, recordAndReport, reportingOf, sendWatched, watchPayment } from './results.ts';
import { billDetailsOf, billNamedBy, billWatch, keptBillOf } from './watches.ts';
import { resultOfReading } from './reconciler.ts';
import type { PaymentWatch } from '../store/store.ts';
import { customerFieldsFor, type MerchantOrder } from './orders.ts';
import { assertPurchaseAllowed } from './routes-payment-pages.ts';
import { defineRoute, type EndpointRuntime, type JsonRoute } from './route.ts';

export const installmentPlansRoute: JsonRoute<unknown> = defineRoute<InstallmentPlansRequest>({
  schema: installmentPlansRequest,
  result: installmentPlansResult,
  async handle({ order, language, runtime }): Promise<InstallmentPlansResult> {
    const { settings, gateway } = runtime;
    const answer = await gateway.call({
      operation: 'GET_INSTALLMENTS_PLANS',
      schema: installmentsPlansRequest,
      answerSchema: installmentsPlansResponse,
      language,
      params: {
        query_command: 'GET_INSTALLMENTS_PLANS',
        ...identityParams(settings),
        language,
        amount: String(order.amount),
        currency: order.currency,
      },
    });
    requireSuccess(answer, language);
    // Only what this order can use: plans in its currency whose amount range holds it.
    const issuers = (answer.installment_detail?.issuer_detail ?? [])
      .map((issuer) => ({ ...issuer, plan_details: filterPlans(issuer.plan_details, order.amount, order.currency) }))
      .filter((issuer) => issuer.plan_details.length > 0)
      // Each flat plan says which variant it is, so the element quotes it without the choosing code.
      .map((issuer) => ({ ...issuer, plan_details: issuer.plan_details.map((plan) => withFlatVariant(plan, issuer, order.amount, order.currency)) }));
    for (const issuer of issuers) logPlanQuotes(issuer, order.amount, order.currency, runtime.log);
    return { merchant_reference: order.merchant_reference, amount: order.amount, currency: order.currency, issuers };
  },
});

/** A plan with the flat variant the core chooses for it (`flat_variant`), when it is a non-Islamic flat one. */
function withFlatVariant<Plan extends InstallmentIssuer['plan_details'][number]>(plan: Plan, issuer: InstallmentIssuer, amount: number, currency: string): Plan {
  try {
    const variant = planQuote(plan, issuer, amount, currency).flatVariant?.variant;
    return variant === undefined ? plan : { ...plan, flat_variant: variant };
  } catch (error) {
    if (!(error instanceof InstallmentError)) throw error;
    return plan;
  }
}

/**
 * The element quotes each plan with the same core formulas (and the same flat variant choice); where
 * the gateway's own amountPerMonth disagrees, or a plan cannot be quoted, the merchant hears it
 * here, once per answer: the check of the formulas against a live account.
 */
function logPlanQuotes(issuer: InstallmentIssuer, amount: number, currency: string, log: EndpointRuntime['log']): void {
  for (const plan of issuer.plan_details) {
    const names = { issuer_code: issuer.issuer_code, plan_code: plan.plan_code };
    try {
      const quote = planQuote(plan, issuer, amount, currency);
      const disagreement = quote.gatewayMonthly?.disagreement;
      if (disagreement === undefined) continue;
      log.warn('installment_amount_disagreement', {
        ...names,
        formula_kind: quote.formulaKind,
        ...(quote.flatVariant ? { flat_variant: quote.flatVariant.variant, decided_by: quote.flatVariant.decidedBy } : {}),
        monthly: quote.monthly,
        amount_per_month: quote.gatewayMonthly?.text,
        disagreement,
      });
    } catch (error) {
      if (!(error instanceof InstallmentError)) throw error;
      log.warn('installment_plan_unquotable', { ...names, field: error.field, rule: error.rule });
    }
  }
}

export const billRoute: JsonRoute<unknown> = defineRoute<BillRequest>({
  schema: billRequest,
  result: billResult,
  async handle({ input, order, language, request, runtime }): Promise<BillResult> {
    const { settings, gateway, log } = runtime;
    const partner = settings.voucherPartnerCode;
    if (partner === undefined) throw new EndpointRefusal('service_not_configured');
    // A bill is a purchase: refused for an order the merchant allows only to be held.
    assertPurchaseAllowed(runtime, order, 'bill');
    // Bills are EGP only: refused here rather than signed and sent.
    if (order.currency !== VOUCHER_CURRENCY) {
      throw new EndpointRefusal('currency_not_supported', { field: 'currency' });
    }
    refuseOrderPaidByMerchant(runtime, order);
    const reference = order.merchant_reference;
    const seen = { watch: await settings.watches?.get(reference) };
    const keptIn = (watch: PaymentWatch | undefined) => keptBillOf(watch, order, settings.now().getTime());
    const kept = keptIn(seen.watch);
    const status = await orderStatusBeforePayment(runtime, reference, language);
    const showAgain = (bill: BillResult): BillResult => {
      log.info('bill_shown_again', { merchant_reference: reference });
      return bill;
    };
    // The bill already issued for this order, still waiting at the partner's counter (or the
    // gateway cannot say): shown again as it was, not issued twice.
    if (kept && (status === undefined || status.state === 'pending')) return showAgain(kept);
    // Issued, but its answer was lost (the watch keeps no number): shown when the gateway names its number.
    const recovered = status?.transaction_code === BILL_ISSUED && !kept ? await billOfLostAnswer(runtime, order, seen.watch, language, request) : undefined;
    if (recovered) return showAgain(recovered);
    refuseUnpayableStatus(runtime, reference, status);
    // The order's name and e-mail, else the browser's (a guest checkout). The merchant's name for
    // the customer is sent as the gateway takes it, or not at all: an optional field never stops a
    // bill (the browser's was checked as typed, by the route's schema).
    const customer = customerFieldsFor(order, input, ['customer_name', 'customer_email'], log);
    const customerName = customerNameForGateway(customer.values.customer_name);
    if (customerName === undefined && customer.values.customer_name !== undefined && !customer.fromBrowser.includes('customer_name')) {
      log.info('customer_name_left_out', { merchant_reference: reference });
    }
    const now = settings.now().getTime();
    const expiry = now + settings.billLifetimeMinutes * 60_000;
    const basis = { ...order, language };
    const asked = { request_expiry_date: formatDateTimeWithOffset(expiry), payment_partner: partner };
    // Watched from before it is sent: paid at the partner's counter, or cancelled at its expiry,
    // the reconciler asks, even if the answer with the bill number never arrives.
    let answer: BillPresentmentResponse;
    try {
      answer = await sendWatched(runtime, billWatch(basis, expiry, now, settings.watchSettings, asked), async () => {
        const issued = await gateway.call({
          operation: 'BILL_PRESENTMENT',
          schema: billPresentmentRequest,
          answerSchema: billPresentmentResponse,
          language,
          browserFields: customer.fromBrowser,
          params: {
            service_command: 'BILL_PRESENTMENT',
            ...orderParams(settings, order, language),
            ...asked,
            customer_name: customerName,
            customer_email: customer.values.customer_email,
          },
        });
        requireSuccess(issued, language);
        return issued;
      }, seen);
    } catch (error) {
      // Another request for this order (a second tab, a double tap) issued its bill meanwhile, or
      // got it issued first: that bill is the one to show, once it is kept.
      const raced = error instanceof EndpointRefusal && (error.code === 'order_in_progress' || error.details.responseCode === DUPLICATE_REFERENCE);
      const issuedMeanwhile = raced ? keptIn(await settings.watches?.get(reference)) : undefined;
      if (!issuedMeanwhile) throw error;
      return showAgain(issuedMeanwhile);
    }
    if (answer.bill_number === undefined) {
      log.error('bill_number_missing', { merchant_reference: reference });
      throw new EndpointRefusal('gateway_unreachable');
    }
    const bill: BillResult = {
      merchant_reference: reference,
      bill_number: answer.bill_number,
      amount: order.amount,
      currency: VOUCHER_CURRENCY,
      payment_partner: answer.payment_partner,
      request_expiry_date: answer.request_expiry_date,
    };
    log.info('bill_issued', { merchant_reference: reference, amount: fromMinorUnits(order.amount, VOUCHER_CURRENCY) });
    await watchPayment(runtime, billWatch(basis, expiry, now, settings.watchSettings, bill));
    // The shop hears of it as the order's pending payment (onResult, the service's webhook), recorded
    // before the customer is shown it. The bill is issued and watched whatever the merchant's hook
    // does: a hook that fails is logged, and the customer still gets the bill.
    try {
      await recordAndReport(issuedBillResult(answer, order, bill, language, log), reportingOf(runtime), request);
    } catch (error) {
      log.error('bill_report_failed', { merchant_reference: reference, error });
    }
    await settings.onBill?.({ ...bill, gateway: forMerchantHooks(answer) }, request);
    return bill;
  },
});

/**
 * The bill of an order whose BILL_PRESENTMENT answer never came back (a gateway too slow, a
 * process killed while it waited): its watch, written before the call, keeps the partner and expiry
 * asked for but no number. When CHECK_STATUS shows the bill waiting and names its number
 * (`billNamedBy`), the watch keeps the bill, the shop hears of it (recorded once, under the key the
 * reconciler would report it with) and the customer is shown it, instead of `order_in_progress`
 * until it expires. Undefined when the watch is not such a bill's (ended, another order's amount,
 * expired) or the gateway names no number.
 */
async function billOfLostAnswer(
  runtime: EndpointRuntime,
  order: MerchantOrder,
  watch: PaymentWatch | undefined,
  language: Language,
  request: Request,
): Promise<BillResult | undefined> {
  const { settings, log } = runtime;
  const now = settings.now().getTime();
  if (watch?.kind !== 'bill' || watch.ended_at !== undefined || watch.due_at === undefined || Date.parse(watch.due_at) <= now) return undefined;
  if (watch.amount !== order.amount || watch.currency !== order.currency) return undefined;
  let answer: CheckStatusResponse;
  try {
    answer = await queryStatus(runtime, order.merchant_reference, language);
  } catch (error) {
    if (error instanceof EndpointRefusal) return undefined;
    throw error;
  }
  const bill = billNamedBy(watch, answer);
  const status = bill && readableStatus(answer);
  if (!bill || status?.state !== 'pending' || status.transaction_code !== BILL_ISSUED) return undefined;
  const kept = await settings.watches?.watchIfUnchanged(billWatch({ ...order, language }, Date.parse(watch.due_at), now, settings.watchSettings, bill), new Date(now), watch);
  if (settings.watches && !kept) return undefined;
  log.warn('bill_recovered', { merchant_reference: order.merchant_reference, bill_number: bill.bill_number });
  // As for a bill issued here: the customer gets the bill whatever the merchant's hook does (a
  // failure is logged, and the reconciler, which now reads the number too, reports it).
  try {
    const reading = resultOfReading(watch, { status, answer }, log);
    await recordAndReport({ ...reading, source: 'bill', bill: billDetailsOf(bill) }, reportingOf(runtime), request);
  } catch (error) {
    log.error('bill_report_failed', { merchant_reference: order.merchant_reference, error });
  }
  const shown: BillResult = { ...bill, merchant_reference: order.merchant_reference, amount: order.amount, currency: VOUCHER_CURRENCY };
  await settings.onBill?.({ ...shown, gateway: forMerchantHooks(answer) }, request);
  return shown;
}

/** Where a verified CHECK_STATUS answer says the order stands; undefined when an amount in it cannot be read. */
function readableStatus(answer: CheckStatusResponse): OrderStatus | undefined {
  try {
    return orderStatusOf(answer);
  } catch (error) {
    if (error instanceof AmountError) return undefined;
    throw error;
  }
}

export const statusRoute: JsonRoute<unknown> = defineRoute<StatusRequest>({
  schema: statusRequest,
  result: statusResult,
  async handle({ order, language, runtime }): Promise<StatusResult> {
    // After a closed 3-D Secure check the customer may have paid under a new attempt's reference.
    const { answer, reference } = await queryOrderStatus(runtime, order.merchant_reference, language);
    requireSuccess(answer, language);
    const amount = (value: string | number | undefined, name: string) =>
      value === undefined ? {} : { [name]: gatewayAmount(value, name, 'CHECK_STATUS', runtime.log) };
    return {
      merchant_reference: order.merchant_reference,
      // Another attempt's answer (`<order>.pg2`): its money is not a bill's, which keeps the order's reference.
      ...(reference === order.merchant_reference ? {} : { payment_reference: reference }),
      ...(answer.transaction_status === undefined ? {} : { transaction_status: answer.transaction_status }),
      ...(answer.transaction_code === undefined ? {} : { transaction_code: answer.transaction_code }),
      ...(answer.transaction_message === undefined ? {} : { transaction_message: answer.transaction_message }),
      ...amount(answer.authorized_amount, 'authorized_amount'),
      ...amount(answer.captured_amount, 'captured_amount'),
      ...amount(answer.refunded_amount, 'refunded_amount'),
    };
  },
});
