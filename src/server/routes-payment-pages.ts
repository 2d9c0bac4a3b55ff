/**
 * Routes that prepare a form post to the gateway's payment page: the hosted page (AUTHORIZATION
 * or PURCHASE, as the merchant allows: `paymentCommandFor`; optionally with installments
 * STANDALONE), the TOKENIZATION of the merchant page and of the embedded gateway page (completed
 * by the return route with the command signed here), and the TOKENIZATION that only saves a
 * card. They answer the action URL and the complete signed field set; the element only builds
 * and submits the form (at the top level, or into a frame of its own). Also the order
 * route, which tells the element what it is paying for (and whether the account lets its card
 * form leave the security code empty).
 */
import {
  formPostResult,
  hostedPageRequest,
  merchantPageRequest,
  orderRequest,
  orderResult,
  saveCardRequest,
  type FormPostResult,
  type HostedPageRequest,
  type MerchantPageRequest,
  type OrderRequest,
  type OrderResult,
  type SaveCardRequest,
} from '../core/endpoint-api.ts';
import { fieldError } from '../core/field-errors.ts';
import type { Language } from '../core/language.ts';
import { hostedPaymentRequest, installmentsMerchantPageMerchantFields, tokenizationMerchantFields } from '../core/schemas/index.ts';
import { signParams } from '../core/signature.ts';
import { assertCardAttemptAllowed } from './card-attempts.ts';
import type { EndpointSettings } from './config.ts';
import { EndpointRefusal } from './errors.ts';
import { identityParams, orderParams, returnUrlFor } from './gateway-params.ts';
import { assertOrderPayable, payableReference } from './gateway-status.ts';
import { watchPayment } from './results.ts';
import { formWatch } from './watches.ts';
import { customerFieldsFor, isPaymentCommand, PAYMENT_COMMANDS, type MerchantOrder, type PaymentCommand } from './orders.ts';
import { checkOutgoing, type OutgoingCheck } from './outgoing.ts';
import { defineRoute, type EndpointRuntime, type JsonRoute } from './route.ts';

/**
 * Where the merchant page's completion choices travel: the gateway returns merchant_extra fields
 * unchanged and signed, so the return URL learns them without server memory. merchant_extra is
 * not used.
 */
export const COMPLETION_FIELDS = {
  command: 'merchant_extra1',
  plan_code: 'merchant_extra2',
  issuer_code: 'merchant_extra3',
  /** `ELEMENT_CONFIRMATION` on the embedded page: the element's Pay button, not the return, charges. */
  confirmation: 'merchant_extra4',
  /**
   * The amount the element's Pay button named, `{minor units} {currency}` (`shownAmountOf`): the
   * charge at the return, and the embedded page's confirmation, refuse an order that no longer
   * costs it. Signed only when the element sent the amount it shows.
   */
  shownAmount: 'merchant_extra5',
} as const;

/** How `COMPLETION_FIELDS.shownAmount` writes an amount. */
export function shownAmountOf(order: { readonly amount: number; readonly currency: string }): string {
  return `${order.amount} ${order.currency}`;
}

/** The amount `shownAmountOf` wrote, read back (an amount that is not digits reads as none: NaN). */
export function readShownAmount(text: string): { readonly amount: number; readonly currency: string } {
  const [amount = '', currency = ''] = text.split(' ');
  return { amount: /^\d+$/.test(amount) ? Number(amount) : Number.NaN, currency };
}

/** The embedded page's TOKENIZATION only readies the card: the element's own Pay button confirms the charge. */
export const ELEMENT_CONFIRMATION = 'ELEMENT';

/** The completion choice of a TOKENIZATION that only saves a card: nothing is charged after it. */
export const SAVE_CARD_COMPLETION = 'SAVE_CARD';

/** Signs a form's fields once the core schema of that form has accepted them. */
async function signedForm(
  runtime: EndpointRuntime,
  params: Readonly<Record<string, string | undefined>>,
  check: OutgoingCheck,
  merchantPage: boolean,
): Promise<FormPostResult> {
  const { settings, log } = runtime;
  const fields = await signParams(params, settings.requestPhrase, settings.shaType, { merchantPage });
  checkOutgoing(check, fields, log);
  return { action: settings.paymentPageUrl, method: 'POST', fields: fields as Record<string, string> };
}

/**
 * The payment to sign for `order`: the one the browser asked for, when the merchant allows it, or
 * a refusal (`command_refused`, field `command`) before anything is signed or the gateway asked.
 * An order's own `command` is the only one allowed for it; otherwise the endpoint's
 * `paymentCommands`. None asked: the order's own, else the first allowed. An authorization reads
 * as a success and pays nothing until it is captured, so it is never the browser's choice alone.
 * A payment method that is a purchase by nature asks it for a PURCHASE (`assertPurchaseAllowed`),
 * with a `refusal` message of its own.
 */
export function paymentCommandFor(
  runtime: EndpointRuntime,
  order: MerchantOrder,
  asked: PaymentCommand | undefined,
  refusal: PaymentMethodRefusal = {},
): PaymentCommand {
  const { settings, log } = runtime;
  const reference = order.merchant_reference;
  // A resolver written in plain JavaScript could return anything: never sign a command nobody allowed.
  if (order.command !== undefined && !isPaymentCommand(order.command)) {
    log.error('order_command_invalid', { merchant_reference: reference });
    throw new EndpointRefusal('internal_error');
  }
  const allowed = order.command === undefined ? settings.paymentCommands : [order.command];
  if (asked === undefined) return allowed[0] ?? 'PURCHASE';
  if (allowed.includes(asked)) return asked;
  log.warn('payment_command_refused', {
    merchant_reference: reference,
    command: asked,
    allowed: order.command === undefined ? 'paymentCommands' : 'order',
    ...(refusal.method === undefined ? {} : { method: refusal.method }),
  });
  throw new EndpointRefusal('command_refused', { field: 'command', ...(refusal.message === undefined ? {} : { message: refusal.message }) });
}

/** How a payment method that names no `command` of its own is refused by `paymentCommandFor`. */
interface PaymentMethodRefusal {
  /** The payment method, for the log (`bill`, `financing`). */
  readonly method?: string;
  /** The refusal's message, replacing the generic one (the browser asked for no command). */
  readonly message?: Readonly<Record<Language, string>>;
}

const PURCHASE_NOT_ALLOWED: Readonly<Record<Language, string>> = {
  en: 'command: this payment method takes the money at once (PURCHASE), which the merchant does not allow for this order.',
  ar: 'command: طريقة الدفع هذه تأخذ المبلغ فورًا (PURCHASE)، وهذا ما لا يسمح به التاجر لهذا الطلب.',
};

/**
 * A cash bill and consumer financing take the money at once: they are purchases, allowed only
 * when the merchant allows a PURCHASE for the order (`paymentCommandFor`, the hosted page's rule).
 * An order the merchant allows only to be held is refused them (`command_refused`, field
 * `command`), before the gateway is asked anything.
 */
export function assertPurchaseAllowed(runtime: EndpointRuntime, order: MerchantOrder, method: 'bill' | 'financing'): void {
  paymentCommandFor(runtime, order, 'PURCHASE', { method, message: PURCHASE_NOT_ALLOWED });
}

export const orderRoute: JsonRoute<unknown> = defineRoute<OrderRequest>({
  schema: orderRequest,
  result: orderResult,
  async handle({ order, runtime }): Promise<OrderResult> {
    return {
      merchant_reference: order.merchant_reference,
      amount: order.amount,
      currency: order.currency,
      ...(order.description ? { description: order.description } : {}),
      // The account's CVV suppression: the element's card form may then leave the security code empty.
      ...(runtime.settings.cvvSuppression ? { cvv_optional: true as const } : {}),
    };
  },
});

export const hostedPageRoute: JsonRoute<unknown> = defineRoute<HostedPageRequest>({
  schema: hostedPageRequest,
  result: formPostResult,
  commands: PAYMENT_COMMANDS,
  async handle({ input, order, language, runtime }): Promise<FormPostResult> {
    const { settings } = runtime;
    const command = paymentCommandFor(runtime, order, input.command);
    // A new attempt after a closed 3-D Secure check goes under a reference of its own (payableReference).
    const attempt = { ...order, merchant_reference: await payableReference(runtime, order, language) };
    // The order's e-mail, else the browser's (a guest checkout): the gateway screens payments by it.
    const customer = customerFieldsFor(order, input, ['customer_email'], runtime.log);
    const params = {
      command,
      ...orderParams(settings, attempt, language),
      customer_email: customer.values.customer_email,
      order_description: order.description,
      return_url: settings.returnUrl,
      installments: input.installments,
    };
    const check = { operation: command, schema: hostedPaymentRequest, browserFields: customer.fromBrowser, language };
    // The card is typed on the gateway's page this form opens: one card tried for the order.
    await assertCardAttemptAllowed(runtime, attempt.merchant_reference, 'hosted_page');
    const form = await signedForm(runtime, params, check, false);
    // The customer may pay on the gateway's page and never come back: the reconciler will ask.
    await watchPayment(runtime, formWatch({ ...attempt, language }, settings.now().getTime(), settings.watchSettings));
    return form;
  },
});

export const merchantPageRoute: JsonRoute<unknown> = defineRoute<MerchantPageRequest>({
  schema: merchantPageRequest,
  result: formPostResult,
  commands: PAYMENT_COMMANDS,
  handle: ({ input, order, language, runtime }) => merchantPageForm(runtime, order, language, input),
});

/**
 * The merchant page's signed TOKENIZATION for `order`, as the element asks for it (`input`); also
 * the form of the server-rendered first screen (first-screen.ts), which posts at the top level.
 */
export async function merchantPageForm(
  runtime: EndpointRuntime,
  order: MerchantOrder,
  language: Language,
  input: MerchantPageRequest,
): Promise<FormPostResult> {
  const { settings } = runtime;
  // A plan is chosen with its issuer, or not at all.
  for (const [present, missing] of [
    ['plan_code', 'issuer_code'],
    ['issuer_code', 'plan_code'],
  ] as const) {
    if (input[present] !== undefined && input[missing] === undefined) {
      const error = fieldError(missing, 'required', {}, language);
      throw new EndpointRefusal('invalid_request', { field: missing, message: error.message });
    }
  }
  // The plan is chosen here (plan_code) or on the gateway's page (installments STANDALONE), not both.
  if (input.installments !== undefined && input.plan_code !== undefined) {
    const message = { en: 'plan_code: not with installments STANDALONE (the gateway’s page offers the plans)', ar: 'plan_code: لا يُرسل مع installments STANDALONE (صفحة البوابة تعرض الخطط)' };
    throw new EndpointRefusal('invalid_request', { field: 'plan_code', message });
  }
  // What the return (or the embedded page's confirmation) completes the token with, signed.
  const command = paymentCommandFor(runtime, order, input.command);
  const attempt = { ...order, merchant_reference: await payableReference(runtime, order, language) };
  const standalone = input.installments === 'STANDALONE';
  const params = {
    ...tokenizationParams(settings, attempt, language, input.framed === true, command),
    [COMPLETION_FIELDS.plan_code]: input.plan_code,
    [COMPLETION_FIELDS.issuer_code]: input.issuer_code,
    // The gateway's own page in the element's frame: its button only takes the card (two steps).
    [COMPLETION_FIELDS.confirmation]: input.embedded === true && input.framed === true ? ELEMENT_CONFIRMATION : undefined,
    // The amount the element shows (checked against the order before this route ran) binds the charge.
    [COMPLETION_FIELDS.shownAmount]: input.amount !== undefined ? shownAmountOf(order) : undefined,
    // Installments through the merchant page (spec): the gateway's page shows the order's plans.
    ...(standalone
      ? {
          installments: 'STANDALONE',
          amount: String(order.amount),
          currency: order.currency,
          customer_country_code: order.customer_country_code,
        }
      : {}),
  };
  // The card fields the customer adds in the browser are left out of the signature (merchant page 2.0).
  const schema = standalone ? installmentsMerchantPageMerchantFields : tokenizationMerchantFields;
  const check = { operation: standalone ? 'TOKENIZATION installments' : 'TOKENIZATION', schema, language };
  return signedForm(runtime, params, check, true);
}

/**
 * The fields of every TOKENIZATION the endpoint signs: identity, the order's reference, the
 * return URL (framed or not) and what the return completes it with (`COMPLETION_FIELDS.command`).
 */
function tokenizationParams(
  settings: EndpointSettings,
  order: MerchantOrder,
  language: Language,
  framed: boolean,
  completion: string,
) {
  return {
    service_command: 'TOKENIZATION',
    ...identityParams(settings),
    merchant_reference: order.merchant_reference,
    language,
    return_url: returnUrlFor(settings, framed),
    [COMPLETION_FIELDS.command]: completion,
  };
}

/**
 * Save a card without paying: the spec's "create new token" (TOKENIZATION; the card is verified
 * and a token issued, nothing charged). The completion choice says so, signed, so the return
 * confirms the token with GET_TOKENS and charges nothing. `remember_me` YES is the customer's
 * consent, given in the element; like merchant page 2.0's card fields it is not signed.
 */
export const saveCardRoute: JsonRoute<unknown> = defineRoute<SaveCardRequest>({
  schema: saveCardRequest,
  result: formPostResult,
  async handle({ input, order, language, runtime }): Promise<FormPostResult> {
    const { settings } = runtime;
    await assertOrderPayable(runtime, order, language);
    const params = {
      ...tokenizationParams(settings, order, language, input.framed === true, SAVE_CARD_COMPLETION),
      remember_me: 'YES',
    };
    const check = { operation: 'TOKENIZATION save card', schema: tokenizationMerchantFields, language };
    // The gateway checks the card on the page this form opens, and tells the browser: one card tried.
    await assertCardAttemptAllowed(runtime, order.merchant_reference, 'save_card');
    return signedForm(runtime, params, check, true);
  },
});
