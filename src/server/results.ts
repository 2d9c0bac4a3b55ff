/**
 * From what the gateway said to the result the merchant and the browser see, reported once.
 *
 * - A server-to-server operation answer (merchant-page completion, financing PURCHASE) is the
 *   gateway speaking now: its state is read from its code (`resultOfAnswer`).
 * - Anything the customer's browser brought back (the return URL) may be old or replayed, so it is
 *   only a reason to ask: CHECK_STATUS says where the order stands now (`confirmedResult`). If the
 *   gateway does not say, nothing is reported and the customer sees a pending result.
 *
 * An answer that does not match the merchant's order (reference unknown, other amount or currency)
 * is a failure whatever the gateway said; so is a payment CHECK_STATUS shows holding or having taken
 * another amount than the order's (`checkTakenAmount`), whatever answer made the endpoint ask.
 * When CHECK_STATUS names the amount of money held, that amount decides and the answer's own
 * amount is not compared (an old answer of an earlier attempt must not pre-empt the payment).
 * Each result carries a stable idempotency key; the ledger
 * (result-ledger.ts) hands a key to `onResult` once and answers a replay with the first result.
 */
import { AmountError, parseWireAmount } from '../core/amounts.ts';
import { formatDateTimeWithOffset } from '../core/dates.ts';
import type { EndpointErrorCode, PaymentResult } from '../core/endpoint-api.ts';
import type { Language } from '../core/language.ts';
import {
  BILL_ISSUED,
  billKeyOf,
  chargedAmountOf,
  DUPLICATE_REFERENCE,
  earlierPaidStates,
  isPaidState,
  namesNoPaidAmount,
  orderStateOfAnswer,
  paymentAmountOf,
  paymentOutcomeOf,
  resultKeyOf,
  runningTotalOf,
  savedCardKeyOf,
  type OrderState,
  type OrderStatus,
} from '../core/order-status.ts';
import { isOwnFailure, orderReferenceOf, paidOtherAttempt } from '../core/payment-attempts.ts';
import { classifyResponse, parseResponseCode } from '../core/response.ts';
import { fileDigest } from '../core/signature.ts';
import { getTokensRequest, getTokensResponse, type GetTokensResponse, type TokenListEntry } from '../core/schemas/index.ts';
import type { EndpointSettings, InstallmentsChoice, IssuedBillDetails, SavedCard, VerifiedResult } from './config.ts';
import { EndpointRefusal } from './errors.ts';
import { gatewayMessage } from './gateway-client.ts';
import { identityParams } from './gateway-params.ts';
import { gatewayOrderStatus, logConfigurationRefusal } from './gateway-status.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { orderDisagreement, type MerchantOrder } from './orders.ts';
import { keyedForLedger, recordedUnder, type ResultLedger } from './result-ledger.ts';
import type { EndpointRuntime } from './route.ts';
import { StoreUnavailableError, type NewWatch, type PaymentWatch } from '../store/store.ts';
import { billDetailsOf, endsWatch, resultWatch } from './watches.ts';

type Answer = Readonly<Record<string, unknown>>;

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/**
 * The verified answer's amount, and whether it disagrees with the merchant's order. Without
 * `compareAmount` (CHECK_STATUS named what the gateway took, which decides) the answer's amount is
 * read but not compared: an old answer of the same reference (an earlier attempt at another amount)
 * is not the payment's and proves nothing; its currency and the order are still checked.
 */
function checkAgainstOrder(
  answer: Answer,
  order: MerchantOrder | undefined,
  log: Logger,
  compareAmount = true,
): { amount?: number; currency?: string; error?: EndpointErrorCode } {
  const currency = text(answer['currency']);
  let amount: number | undefined;
  let error: EndpointErrorCode | undefined;
  try {
    amount = answer['amount'] === undefined ? undefined : parseWireAmount(answer['amount']);
  } catch (problem) {
    if (!(problem instanceof AmountError)) throw problem;
    log.error('gateway_amount_invalid', { operation: text(answer['command']) ?? 'return', field: 'amount', rule: problem.rule });
    if (compareAmount) error = 'gateway_answer_invalid';
  }
  if (!order) error = 'unknown_order';
  else if (error === undefined) error = orderDisagreement({ amount: compareAmount ? amount : undefined, currency }, order);
  if (error) log.error('verified_answer_disagrees_with_order', { merchant_reference: text(answer['merchant_reference']), error });
  return {
    ...(amount === undefined ? {} : { amount }),
    ...(currency === undefined ? {} : { currency }),
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * The money CHECK_STATUS shows the gateway took for a payment that holds or took money
 * (authorized, captured, partially refunded, refunded), checked against the merchant's order:
 * the payment's amount (`payment`, core `paymentAmountOf`: authorized, else captured) must be the
 * order's. The result reports `amount`, what the customer was charged (core `chargedAmountOf`: a
 * partial capture's captured amount, not the hold). A reading that names no amount for such a
 * payment (core `namesNoPaidAmount`) is not an answer about the money: the return and the
 * reconciler make no result of it and ask again; should one reach here, it is
 * `gateway_answer_invalid` (logged `gateway_amount_invalid`, rule `missing`), never paid.
 * CHECK_STATUS names no currency, so none is compared here (the posted answer's is, by
 * `checkAgainstOrder`). A disagreement is logged `verified_answer_disagrees_with_order` (`by`
 * `CHECK_STATUS`). Undefined for a state that holds no money (pending, failed, voided, not found).
 */
export function checkTakenAmount(
  reference: string,
  status: OrderStatus,
  /** The merchant's order, or what a watch kept of it; nothing is compared without an amount. */
  order: { readonly amount?: number | undefined } | undefined,
  log: Logger,
): { amount?: number; payment?: number; error?: EndpointErrorCode } | undefined {
  if (!isPaidState(status.state)) return undefined;
  const payment = paymentAmountOf(status);
  let error: EndpointErrorCode | undefined;
  if (payment === undefined) {
    log.error('gateway_amount_invalid', { operation: 'CHECK_STATUS', field: 'authorized_amount', rule: 'missing' });
    error = 'gateway_answer_invalid';
  } else if (order?.amount !== undefined && payment !== order.amount) {
    error = 'amount_mismatch';
  }
  if (error) log.error('verified_answer_disagrees_with_order', { merchant_reference: reference, error, by: 'CHECK_STATUS' });
  return {
    ...(payment === undefined ? {} : { amount: chargedAmountOf(status), payment }),
    ...(error === undefined ? {} : { error }),
  };
}

interface ResultParts {
  readonly reference: string;
  readonly answer: Answer;
  readonly order: MerchantOrder | undefined;
  /**
   * The amount accepted when the payment first held money (its earlier paid result, reported
   * without an error): what CHECK_STATUS shows taken is compared with it instead of the order's
   * amount now. A capture or refund after the order changed is the same payment, not a new one.
   */
  readonly accepted?: { readonly amount: number };
  readonly state: OrderState;
  readonly responseCode: string;
  readonly status: string;
  readonly message: string;
  readonly svcId: string | undefined;
  readonly source: VerifiedResult['source'];
  readonly orderStatus?: OrderStatus;
  /** The endpoint's reason for a result that is not paid (a completion that failed, say). */
  readonly reason?: EndpointErrorCode;
  readonly log: Logger;
}

function buildResult(parts: ResultParts): VerifiedResult {
  const { reference, answer, state, responseCode, svcId } = parts;
  // A state read from CHECK_STATUS that holds money: what the gateway took must be the order's
  // amount, whatever answer made the endpoint ask (one without an amount, an old one).
  const taken = parts.orderStatus && checkTakenAmount(reference, parts.orderStatus, parts.accepted ?? parts.order, parts.log);
  // Named, it decides: the answer's own amount is then another attempt's, or the payment's as the
  // gateway already said. Its currency is still checked (CHECK_STATUS names none); with no money
  // held, or no amount named, the answer's amount is all there is to check.
  const takenDecides = taken?.amount !== undefined;
  const checked = checkAgainstOrder(answer, parts.order, parts.log, !takenDecides);
  if (takenDecides && checked.amount !== undefined && checked.amount !== taken.payment) {
    parts.log.info('answer_amount_not_the_payment', { merchant_reference: reference, answer_amount: checked.amount, taken_amount: taken.payment });
  }
  const mismatch = checked.error ?? taken?.error;
  const outcome = mismatch ? 'failure' : paymentOutcomeOf(state);
  const error = mismatch ?? (outcome === 'success' ? undefined : parts.reason);
  // What the customer was charged, when money is held; else the amount the answer names (what was tried).
  const amount = taken ? taken.amount : checked.amount;
  const currency = checked.currency ?? (taken?.amount === undefined ? undefined : parts.order?.currency);
  const command = text(answer['command']) ?? text(answer['service_command']);
  const installments = installmentsOf(answer);
  const orderReference = orderReferenceOf(reference);
  return {
    merchant_reference: orderReference,
    ...(orderReference === reference ? {} : { payment_reference: reference }),
    outcome,
    response_code: responseCode,
    response_message: parts.message,
    status: parts.status,
    ...(svcId === undefined ? {} : { svc_id: svcId }),
    ...(amount === undefined ? {} : { amount }),
    ...(currency === undefined ? {} : { currency }),
    source: parts.source,
    kind: 'payment',
    idempotency_key: resultKeyOf({ merchant_reference: reference, svc_id: svcId, state, response_code: responseCode }),
    order_state: state,
    ...(parts.orderStatus === undefined ? {} : { order_status: parts.orderStatus }),
    ...(command === undefined ? {} : { command }),
    ...(error === undefined ? {} : { error }),
    ...(installments === undefined ? {} : { installments }),
    gateway: forMerchantHooks(answer),
  };
}

/** The installments plan an answer names (its number of months, plan and issuer), if any. */
export function installmentsOf(answer: Answer): InstallmentsChoice | undefined {
  const months = text(answer['number_of_installments']);
  const planCode = text(answer['plan_code']);
  const issuerCode = text(answer['issuer_code']);
  if (months === undefined && planCode === undefined && issuerCode === undefined) return undefined;
  return {
    ...(months !== undefined && /^\d{1,2}$/.test(months) ? { number_of_installments: Number(months) } : {}),
    ...(planCode === undefined ? {} : { plan_code: planCode }),
    ...(issuerCode === undefined ? {} : { issuer_code: issuerCode }),
  };
}

/**
 * The result of an operation answer the endpoint received server to server (merchant-page
 * completion, financing PURCHASE). `order` is the merchant's order for the answer's reference.
 */
export function resultOfAnswer(
  answer: Answer,
  order: MerchantOrder | undefined,
  source: VerifiedResult['source'],
  language: Language,
  log: Logger,
): VerifiedResult {
  return buildResult({
    reference: text(answer['merchant_reference']) ?? '',
    answer,
    order,
    state: orderStateOfAnswer(answer),
    responseCode: parseResponseCode(answer['response_code'])?.code ?? '',
    status: text(answer['status']) ?? '',
    message: gatewayMessage(answer, language),
    svcId: text(answer['svc_id']),
    source,
    log,
  });
}

/**
 * An issued cash bill as the shop hears it (`onResult`, the standalone service's webhook): a
 * `pending` payment of the order under the bill's own key, with what the customer was shown, so
 * the shop can show the bill again or send it, and hold the order until its expiry. Paid or
 * cancelled, the reconciler reports it under the key CHECK_STATUS gives it.
 */
export function issuedBillResult(answer: Answer, order: MerchantOrder, bill: IssuedBillDetails, language: Language, log: Logger): VerifiedResult {
  return {
    ...resultOfAnswer(answer, order, 'bill', language, log),
    idempotency_key: billKeyOf(order.merchant_reference, bill.bill_number),
    bill: billDetailsOf(bill),
  };
}

/**
 * The result for `reference` as CHECK_STATUS states it now: `answer` is the verified answer that
 * made the endpoint ask (a return, a duplicate-reference refusal), used for its currency (and,
 * when CHECK_STATUS shows no money held or names no amount, its amount) check and handed to the
 * merchant's hook. A state that holds or took money is checked by what the gateway took
 * (`checkTakenAmount`), which is the result's `amount`: an answer that names no amount (a
 * TOKENIZATION) cannot make a payment of another amount pay the order, and an old answer of
 * another amount (an earlier declined attempt's) cannot make a payment of the order's amount a
 * failure. Undefined when the gateway does not say (unreachable, unreadable), and when it says the
 * order holds or took money without naming any (core `namesNoPaidAmount`): no result, so nothing is
 * kept under the payment's key before a reading that names the money (the caller watches it);
 * unless the ledger already holds the payment's result in that state, which is answered again (a
 * reload of a paid order's return still shows it paid), or the posted answer's own signed amount or
 * currency is not the order's, which is the failure it always was.
 */
export async function confirmedResult(
  reference: string,
  answer: Answer,
  order: MerchantOrder | undefined,
  source: VerifiedResult['source'],
  language: Language,
  runtime: EndpointRuntime,
  reason?: EndpointErrorCode,
): Promise<VerifiedResult | undefined> {
  const orderStatus = await gatewayOrderStatus(runtime, reference, language);
  if (!orderStatus) return undefined;
  if (namesNoPaidAmount(orderStatus)) {
    runtime.log.error('gateway_amount_invalid', { operation: 'CHECK_STATUS', merchant_reference: reference, field: 'authorized_amount', rule: 'missing' });
    // The posted answer's own signed amount or currency disagreeing with the order is still a verdict.
    if (!postedDisagrees(answer, order)) return recordedInState(reference, orderStatus, runtime.settings.resultLedger);
  }
  const accepted = await acceptedAmountOf(reference, orderStatus, runtime.settings.resultLedger);
  // Nothing at the gateway: the answer's own code is all there is to report (a refused form, say);
  // likewise a card page left after a declined card, whose charge the reading is (core isOwnFailure).
  const ownFailure = isOwnFailure(answer, orderStatus);
  const transaction = orderStatus.transaction_code === undefined || ownFailure ? answer : {
    response_code: orderStatus.transaction_code,
    status: orderStatus.transaction_status,
  };
  return buildResult({
    reference,
    answer,
    order,
    state: orderStatus.state,
    responseCode: parseResponseCode(transaction['response_code'])?.code ?? '',
    status: text(transaction['status']) ?? '',
    message: gatewayMessage(transaction, language),
    // The declined charge's id is not this answer's: its result's key would be the decline's.
    svcId: ownFailure ? text(answer['svc_id']) : orderStatus.svc_id ?? text(answer['svc_id']),
    source,
    orderStatus,
    ...(accepted === undefined ? {} : { accepted }),
    ...(reason === undefined ? {} : { reason }),
    log: runtime.log,
  });
}

/** Whether a verified answer names an amount or a currency that is not the order's (nothing logged). */
function postedDisagrees(answer: Answer, order: MerchantOrder | undefined): boolean {
  const { error } = checkAgainstOrder(answer, order, silentLogger);
  return error === 'amount_mismatch' || error === 'currency_mismatch';
}

/**
 * The result the ledger recorded for the charge of `reference` (an order's, or a new attempt's
 * `<order>.pgN`), when the gateway keeps that reference for it: a payment that holds or took money
 * (even one since refunded, or overruled for its amount) or one since voided. `paid_by_another_attempt`
 * when the order's latest payment holds or took money under another attempt's reference: this one's
 * card (declined, its reference let go) must not be charged on a paid order. Undefined otherwise:
 * nothing recorded (the first charge's answer was lost: the gateway is asked, as for any return),
 * a payment still open (pending), or a declined one, whose reference the gateway lets go and a new
 * card may use (a financing purchase's too). A ledger that cannot tell an order's results (no `latestFor`) never answers one.
 * A store that cannot be read throws, as the charge's own watch would.
 */
export async function recordedCharge(reference: string, runtime: EndpointRuntime): Promise<VerifiedResult | 'paid_by_another_attempt' | undefined> {
  const ledger = runtime.settings.resultLedger;
  const latest = typeof ledger.latestFor === 'function' ? await ledger.latestFor(orderReferenceOf(reference)) : undefined;
  if (latest?.kind !== 'payment') return undefined;
  if ((latest.payment_reference ?? latest.merchant_reference) !== reference) {
    return isPaidState(latest.order_state) ? 'paid_by_another_attempt' : undefined;
  }
  return isPaidState(latest.order_state) || latest.order_state === 'voided' ? latest : undefined;
}

/**
 * The payment's latest result the ledger holds, when it is in the state `status` reads (same
 * reference, same `svc_id`): what a reading that names no amount is answered with, as a replay.
 * Undefined otherwise, and for a ledger that cannot say (no `latestFor`).
 */
async function recordedInState(reference: string, status: OrderStatus, ledger: ResultLedger): Promise<VerifiedResult | undefined> {
  if (typeof ledger.latestFor !== 'function' || status.svc_id === undefined) return undefined;
  const latest = await ledger.latestFor(orderReferenceOf(reference));
  const same = latest?.svc_id === status.svc_id && latest.order_state === status.state && (latest.payment_reference ?? latest.merchant_reference) === reference;
  return same ? latest : undefined;
}

/**
 * The amount accepted for the payment CHECK_STATUS shows when it first held money: the payment's
 * amount in its earliest paid result the ledger holds (same reference, same `svc_id`, an earlier
 * paid state: the authorization of a capture, the capture of a refund, a hold's first capture of a
 * further one) that was reported without an error; read from that result's CHECK_STATUS reading
 * when it has one, since a partial capture's result reports only what was captured.
 * That payment's capture or refund is the merchant's own move on money already accepted: the order
 * as it is now (reduced before a partial capture, say) no longer describes it. Undefined for a
 * payment first showing money, one whose earlier results were all failures (`amount_mismatch`:
 * the order as it is now decides, as before), a reading without a payment id, or a ledger that
 * cannot be read by key.
 */
async function acceptedAmountOf(reference: string, status: OrderStatus, ledger: ResultLedger): Promise<{ amount: number } | undefined> {
  const lookup = recordedUnder(ledger);
  if (!isPaidState(status.state) || status.svc_id === undefined || !lookup) return undefined;
  // A further capture or refund in the same state: the state's first result came before it too.
  const earlier = runningTotalOf(status) === undefined ? earlierPaidStates(status.state) : [...earlierPaidStates(status.state), status.state];
  for (const state of earlier) {
    const recorded = await lookup(resultKeyOf({ merchant_reference: reference, svc_id: status.svc_id, state, response_code: '' }));
    if (recorded?.outcome !== 'success' || recorded.error !== undefined) continue;
    const amount = recorded.order_status ? paymentAmountOf(recorded.order_status) : recorded.amount;
    if (amount !== undefined) return { amount };
  }
  return undefined;
}

/** A verified answer for the merchant's hooks: without its signature, the echoed one-time password or a token. */
export function forMerchantHooks(answer: Answer): Record<string, unknown> {
  // The one-time password is echoed by the gateway like every parameter; it is spent, but it is
  // the customer's, and the merchant's hook, logs and pages have no use for it. A token is
  // reported only as `saved_card`, once GET_TOKENS lists it: the echo may be a temporary one.
  const { signature: _signature, otp: _otp, token_name: _token, ...rest } = answer;
  return rest;
}

/** How far back GET_TOKENS looks for a token just created (a return arrives within minutes of it). */
const SAVED_CARD_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The gateway's code for a service the account does not have: it keeps no tokens at all. */
const SERVICE_NOT_ACTIVATED = '00014';

/** Why the token list could not confirm a token, as a saved card reports it. */
export type TokenListUnavailable = NonNullable<SavedCard['unconfirmed_reason']>;

/**
 * What the gateway's token list says of a token: `listed` (undefined: the list answered without
 * it, so the gateway did not keep it), or `unavailable` (the list cannot be had: not activated,
 * refused, an answer of an unknown shape). Undefined when the gateway did not answer at all.
 */
export type TokenLookup =
  | { readonly listed: TokenListEntry | undefined }
  | {
      readonly unavailable: TokenListUnavailable;
      readonly response_code?: string;
      /** Refused for the merchant's own settings (00008, 00006; logged `gateway_configuration_refused`), not about the card. */
      readonly settings?: true;
    }
  | undefined;

/**
 * Whether the gateway keeps `tokenName` for the merchant: GET_TOKENS lists only kept tokens (a
 * temporary token, made for a card the customer did not ask to remember, never appears), and
 * only ACTIVE ones are asked for.
 */
async function lookUpToken(tokenName: string, language: Language, runtime: EndpointRuntime): Promise<TokenLookup> {
  const { settings, gateway, log } = runtime;
  let answer: GetTokensResponse;
  try {
    answer = await gateway.call({
      operation: 'GET_TOKENS',
      schema: getTokensRequest,
      answerSchema: getTokensResponse,
      language,
      params: {
        query_command: 'GET_TOKENS',
        ...identityParams(settings),
        language,
        from_date: formatDateTimeWithOffset(settings.now().getTime() - SAVED_CARD_WINDOW_MS),
        token_status: 'ACTIVE',
      },
    });
  } catch (error) {
    if (!(error instanceof EndpointRefusal)) throw error;
    // A verified answer of a shape the list's schema does not know: the list cannot be read, now or later.
    if (error.details.failure === 'answer_invalid') return { unavailable: 'token_list_unreadable' };
    log.warn('saved_card_unconfirmed', { reason: error.code });
    return undefined;
  }
  const lookup = tokenLookupOf(answer, tokenName);
  return lookup && 'unavailable' in lookup && logConfigurationRefusal(runtime, 'GET_TOKENS', answer) ? { ...lookup, settings: true } : lookup;
}

/** What a verified GET_TOKENS answer says of `tokenName` (see TokenLookup). */
export function tokenLookupOf(answer: GetTokensResponse, tokenName: string): TokenLookup {
  if (classifyResponse(answer) === 'success') {
    return { listed: answer.data_list?.find((entry) => entry.token_name === tokenName && entry.token_status === 'ACTIVE') };
  }
  const code = parseResponseCode(answer.response_code)?.code;
  return {
    unavailable: code === SERVICE_NOT_ACTIVATED ? 'token_list_not_activated' : 'token_list_refused',
    ...(code === undefined ? {} : { response_code: code }),
  };
}

function savedCardOf(entry: TokenListEntry): SavedCard {
  return {
    token_name: entry.token_name,
    confirmed: true,
    card_number: entry.card_number,
    expiry_date: entry.expiry_date,
    card_brand: entry.card_brand,
    card_bin: entry.card_bin,
  };
}

/** The token as the gateway's signed answer of the saving (or the payment) named it, not confirmed by the list. */
function unconfirmedSavedCard(answer: Answer, tokenName: string, reason: TokenListUnavailable): SavedCard {
  const cardNumber = text(answer['card_number']);
  const expiry = text(answer['expiry_date']);
  const brand = text(answer['payment_option']);
  return {
    token_name: tokenName,
    confirmed: false,
    unconfirmed_reason: reason,
    ...(cardNumber === undefined ? {} : { card_number: cardNumber }),
    ...(expiry === undefined ? {} : { expiry_date: expiry }),
    ...(brand === undefined ? {} : { card_brand: brand }),
  };
}

/**
 * The result of a card saved without a payment: `success` with `saved_card` when GET_TOKENS lists
 * the token (or, when the list cannot be had, with the token the signed answer named, marked not
 * confirmed), else `failure` (`card_not_saved`); either way nothing was charged (`order_state`
 * `not_found`, kind `saved_card`). Undefined when the gateway did not answer.
 */
export async function confirmedSavedCard(
  tokenization: Answer,
  tokenName: string,
  language: Language,
  runtime: EndpointRuntime,
): Promise<VerifiedResult | undefined> {
  const lookup = await lookUpToken(tokenName, language, runtime);
  // Refused for the merchant's own settings: no answer about the card (the reconciler asks again, reconciler.ts).
  if (!lookup || ('unavailable' in lookup && lookup.settings)) return undefined;
  const result = await savedCardResult(tokenization, tokenName, lookup, language);
  if (result.error) runtime.log.warn('card_not_saved', { merchant_reference: result.merchant_reference });
  if (result.saved_card && !result.saved_card.confirmed) {
    runtime.log.warn('saved_card_unconfirmed', {
      merchant_reference: result.merchant_reference,
      reason: result.saved_card.unconfirmed_reason,
      ...('response_code' in lookup ? { response_code: lookup.response_code } : {}),
    });
  }
  return result;
}

/**
 * The result of a card saved without a payment, once GET_TOKENS has answered (see
 * confirmedSavedCard). The return and the reconciler (a list that could not be read at the
 * return) build it alike. Its key carries a digest of the token, never the token.
 */
export async function savedCardResult(
  tokenization: Answer,
  tokenName: string,
  lookup: NonNullable<TokenLookup>,
  language: Language,
): Promise<VerifiedResult> {
  const reference = text(tokenization['merchant_reference']) ?? '';
  const saved =
    'unavailable' in lookup
      ? unconfirmedSavedCard(tokenization, tokenName, lookup.unavailable)
      : lookup.listed
        ? savedCardOf(lookup.listed)
        : undefined;
  return {
    merchant_reference: reference,
    outcome: saved ? 'success' : 'failure',
    response_code: parseResponseCode(tokenization['response_code'])?.code ?? '',
    response_message: gatewayMessage(tokenization, language),
    status: text(tokenization['status']) ?? '',
    source: 'save-card',
    kind: 'saved_card',
    idempotency_key: savedCardKeyOf(reference, await fileDigest(tokenName, 'sha256')),
    order_state: 'not_found',
    command: 'TOKENIZATION',
    ...(saved ? { saved_card: saved } : { error: 'card_not_saved' }),
    gateway: forMerchantHooks(tokenization),
  };
}

/**
 * A paid result whose answer shows the customer asked to keep the card (`remember_me` YES) gets
 * `saved_card` once GET_TOKENS lists the token. The payment's result never waits on it: a token
 * the gateway does not list, or a list it cannot give, leaves the result as it was.
 */
export async function withSavedCard(
  result: VerifiedResult,
  answer: Answer,
  language: Language,
  runtime: EndpointRuntime,
): Promise<VerifiedResult> {
  const tokenName = text(answer['token_name']);
  if (result.outcome !== 'success' || answer['remember_me'] !== 'YES' || !tokenName) return result;
  const lookup = await lookUpToken(tokenName, language, runtime);
  if (!lookup) return result;
  if ('unavailable' in lookup) {
    runtime.log.warn('saved_card_unconfirmed', { merchant_reference: result.merchant_reference, reason: lookup.unavailable });
    return { ...result, saved_card: unconfirmedSavedCard(answer, tokenName, lookup.unavailable) };
  }
  return lookup.listed ? { ...result, saved_card: savedCardOf(lookup.listed) } : result;
}

/** The browser's view of a verified result: the contract's PaymentResult fields only. */
export function toPaymentResult(result: PaymentResult): PaymentResult {
  const { merchant_reference, outcome, response_code, response_message, status, svc_id, amount, currency } = result;
  return {
    merchant_reference,
    outcome,
    response_code,
    response_message,
    status,
    ...(svc_id === undefined ? {} : { svc_id }),
    ...(amount === undefined ? {} : { amount }),
    ...(currency === undefined ? {} : { currency }),
  };
}

export interface ReportedResult {
  /** The result under this key: this one when it is new, the one reported first for a replay. */
  readonly result: VerifiedResult;
  /** The Response `onResult` chose to answer with (only when this call reported the result). */
  readonly answered?: Response;
}

/**
 * Writes a watch when the endpoint has a store, so the reconciler asks about the payment after the
 * customer has left. A store that cannot take it throws (503), like any write the payment needs.
 */
export async function watchPayment(runtime: EndpointRuntime, watch: NewWatch | undefined): Promise<void> {
  const { watches, now } = runtime.settings;
  if (!watches || !watch) return;
  await watches.watch(watch, now());
}

/**
 * Sends a call that may move money with `watch` written first: a process killed while the gateway
 * works, or an answer lost on the way back, leaves the watch, and the reconciler reports what the
 * gateway did. When the call ends in a refusal that proves nothing moved and nothing is held (the
 * gateway's verified refusal, not a duplicate reference; a request refused before it was signed, or
 * one that never left), the watch is taken back: the order's earlier watch, if one was open, is put
 * back; else the watch ends (`not_sent`).
 *
 * The watch is written only over the order's watch as the caller read it before deciding to send
 * (`seen`; read here when not given), and taken back only while it is still this one: when another
 * request for the same order wrote its own in between, nothing is sent or overwritten, and the
 * customer is told the order is in progress (`order_in_progress`, logged `order_raced`).
 */
export async function sendWatched<T>(
  runtime: EndpointRuntime,
  watch: NewWatch,
  send: () => Promise<T>,
  seen?: { readonly watch: PaymentWatch | undefined },
): Promise<T> {
  const { watches, now } = runtime.settings;
  if (!watches) return send();
  const earlier = seen ? seen.watch : await watches.get(watch.merchant_reference);
  const mine = await watches.watchIfUnchanged(watch, now(), earlier);
  if (!mine) {
    runtime.log.info('order_raced', { merchant_reference: watch.merchant_reference });
    throw new EndpointRefusal('order_in_progress', { field: 'merchant_reference' });
  }
  try {
    return await send();
  } catch (error) {
    if (error instanceof EndpointRefusal && !leavesSomethingToWatch(error)) {
      if (earlier && earlier.ended_at === undefined) {
        const { checks: _checks, created_at: _created, last_error: _error, ended_at: _ended, end_reason: _reason, ...open } = earlier;
        await watches.watchIfUnchanged(open, now(), mine);
      } else {
        await watches.end(watch.merchant_reference, now(), 'not_sent', mine);
      }
    }
    throw error;
  }
}

/**
 * Whether the gateway may hold something under the reference after a failed call: the call may
 * have moved money (an answer lost or not verified), or the gateway refused it because the
 * reference is in use (00005: another request, another tab, got there first).
 */
function leavesSomethingToWatch(refusal: EndpointRefusal): boolean {
  if (refusal.code === 'gateway_signature_invalid') return true;
  if (refusal.code === 'gateway_refused') return refusal.details.responseCode === DUPLICATE_REFERENCE;
  return refusal.code === 'gateway_unreachable' && refusal.details.failure !== 'not_sent';
}

export interface ResultReporting {
  readonly ledger: ResultLedger;
  readonly onResult: EndpointSettings['onResult'];
  readonly log: Logger;
  readonly now: () => Date;
}

/**
 * Records the result (committed before anyone hears of it) and, the first time its key is seen,
 * logs it and hands it to `onResult`. The key is the one the ledger records it under
 * (`ledgerKeyOf`: a further capture or refund in the same state gets its own). A replay is logged
 * as such and reports nothing. If `onResult` throws, the key is released so that the next post of the same return reports it again (a store
 * keeps a result a delivery has handled: `ResultStore.release`). The reconciler reports what it
 * finds through the same function, without a request.
 */
export async function recordAndReport(
  reading: VerifiedResult,
  reporting: ResultReporting,
  request?: Request,
): Promise<ReportedResult & { readonly first: boolean }> {
  const { ledger, log } = reporting;
  const result = await keyedForLedger(reading, ledger);
  const entry = await ledger.record(result, reporting.now());
  const logged = loggedResult(result, entry.result);
  if (!entry.first) {
    log.info('payment_result_replayed', logged);
    return { result: entry.result, first: false };
  }
  log.info('payment_result', logged);
  let answered: void | Response;
  try {
    answered = await reporting.onResult?.(result, request);
  } catch (error) {
    try {
      await ledger.release(result.idempotency_key);
    } catch (releaseError) {
      // Kept, the safe way round: the hook's error is the one to answer with.
      log.warn('result_release_failed', { merchant_reference: result.merchant_reference, idempotency_key: result.idempotency_key, error: releaseError });
    }
    throw error;
  }
  return { result, first: true, ...(answered instanceof Response ? { answered } : {}) };
}

/** What the log says of a result (the one recorded under its key, for a replay): never its gateway fields. */
function loggedResult(result: VerifiedResult, recorded: VerifiedResult = result) {
  return {
    merchant_reference: result.merchant_reference,
    source: result.source,
    outcome: recorded.outcome,
    order_state: recorded.order_state,
    response_code: recorded.response_code,
    error: recorded.error,
  };
}

/** How the endpoint records and reports results: its ledger (the store's, when it has one) and the merchant's `onResult`. */
export function reportingOf(runtime: EndpointRuntime): ResultReporting {
  const { settings, log } = runtime;
  return { ledger: settings.resultLedger, onResult: settings.onResult, log, now: settings.now };
}

/**
 * A cash bill waiting at the partner's counter, as CHECK_STATUS reads it (last operation 30000).
 * Its one result is the bill's own, recorded when it was issued under the bill's number
 * (`billKeyOf`), which CHECK_STATUS does not answer: read again by a request (an old return posted
 * again, a replayed purchase), the same bill would come under the gateway's payment id, a second
 * key for a state that has not changed. Paid or cancelled, it is a new state with a key of its own.
 */
function isWaitingBill(result: VerifiedResult): boolean {
  return result.order_status !== undefined && result.order_state === 'pending' && result.response_code === BILL_ISSUED;
}

/**
 * Whether the bill a waiting reading shows was reported by its own result: that result (key
 * `billKeyOf(order, bill number)`) is in the ledger. The bill's number is the one the order's bill
 * watch keeps (the store's); without one (an endpoint without a store), the one the ledger's
 * furthest result of the order names, when that is a bill's own result. False when the bill's
 * result is not there (its recording failed: a store outage, a hook that threw and released it),
 * when no number is known, or when the ledger cannot be read by key: the reading is then recorded
 * as any other result, so the shop hears of the bill before it is paid or cancelled. A store that
 * cannot be read answers true (logged `bill_result_unchecked`): it could record nothing either.
 */
async function billReported(result: VerifiedResult, runtime: EndpointRuntime): Promise<boolean> {
  const reference = result.merchant_reference;
  const { watches, resultLedger: ledger } = runtime.settings;
  try {
    const watch = await watches?.get(reference);
    const kept = watch?.kind === 'bill' ? watch.detail?.['bill'] : undefined;
    const billNumber = isBillDetail(kept) ? kept.bill_number : undefined;
    if (billNumber !== undefined) {
      const lookup = recordedUnder(ledger);
      return lookup !== undefined && (await lookup(billKeyOf(reference, billNumber))) !== undefined;
    }
    if (watch?.kind === 'bill') return false;
    const latest = typeof ledger.latestFor === 'function' ? await ledger.latestFor(reference) : undefined;
    const bill = latest?.bill;
    return bill !== undefined && latest?.idempotency_key === billKeyOf(reference, bill.bill_number);
  } catch (error) {
    // The store cannot be read, so nothing could be recorded now either: the customer is shown the
    // bill waiting (not a 503), and the next request that reads it once the store is back checks again.
    if (!(error instanceof StoreUnavailableError)) throw error;
    runtime.log.warn('bill_result_unchecked', { merchant_reference: reference, reason: error.reason });
    return true;
  }
}

function isBillDetail(value: unknown): value is { readonly bill_number: string } {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['bill_number'] === 'string';
}

/**
 * A result of a request (a return, a financing purchase): recorded, reported once, and watched while
 * not final. A bill waiting is answered and not recorded when the bill's own result reported it
 * (isWaitingBill, billReported); else it is recorded as any other result.
 */
export async function reportOnce(result: VerifiedResult, request: Request, runtime: EndpointRuntime, language: Language): Promise<ReportedResult> {
  const { settings } = runtime;
  if (isWaitingBill(result) && (await billReported(result, runtime))) {
    runtime.log.info('payment_result_replayed', { ...loggedResult(result), reported_by: 'bill' });
    return { result };
  }
  const reported = await recordAndReport(result, reportingOf(runtime), request);
  if (reported.first) {
    try {
      const watch = resultWatch(result, language, settings.now().getTime(), settings.watchSettings);
      if (watch) await watchPayment(runtime, watch);
      // A final payment needs no more questions: a watch written before its charge ends with it.
      else if (endsWatch(result)) await settings.watches?.end(result.payment_reference ?? result.merchant_reference, settings.now(), 'reported');
    } catch (error) {
      // The result is committed and the shop told: the customer is shown it, never "nothing was
      // changed". The payment's earlier watch (the signed form's, the charge's) is still open, so the
      // reconciler asks again and writes what comes next; a replay of the same key changes nothing.
      if (!(error instanceof StoreUnavailableError)) throw error;
      runtime.log.warn('result_watch_deferred', { merchant_reference: result.merchant_reference, reason: error.reason });
    }
  }
  return reported;
}

/** Another attempt of the order that CHECK_STATUS shows paid (core `paidOtherAttempt`), if any. */
export function otherAttemptPaid(reference: string, language: Language, runtime: EndpointRuntime): Promise<string | undefined> {
  return paidOtherAttempt(reference, async (candidate) => (await gatewayOrderStatus(runtime, candidate, language))?.state);
}

/**
 * A paid result, marked `duplicate_of` when another attempt of the same order is paid too (core
 * payment-attempts.ts): the shop is told with the result itself, and the log says so.
 */
export async function withDuplicateCheck(result: VerifiedResult, language: Language, runtime: EndpointRuntime): Promise<VerifiedResult> {
  if (result.kind !== 'payment' || !isPaidState(result.order_state)) return result;
  const reference = result.payment_reference ?? result.merchant_reference;
  const other = await otherAttemptPaid(reference, language, runtime);
  if (other === undefined) return result;
  runtime.log.warn('duplicate_payment', { merchant_reference: result.merchant_reference, payment_reference: reference, duplicate_of: other });
  return { ...result, duplicate_of: other };
}
