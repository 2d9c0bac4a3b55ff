/**
 * Routes that prepare a form post to the gateway's payment page: the hosted page (AUTHORIZATION
 * or PURCHASE, optionally with installments STANDALONE) and the merchant page's TOKENIZATION.
 * They answer the action URL and the complete signed field set; the element only builds and
 * submits the form. Also the order route, which tells the element what it is paying for.
 */
import {
  formPostResult,
  hostedPageRequest,
  merchantPageRequest,
  orderRequest,
  orderResult,
  type FormPostResult,
  type HostedPageRequest,
  type MerchantPageRequest,
  type OrderRequest,
  type OrderResult,
} from '../core/endpoint-api.ts';
import { fieldError } from '../core/field-errors.ts';
import { hostedPaymentRequest, tokenizationMerchantFields } from '../core/schemas/index.ts';
import { signParams } from '../core/signature.ts';
import { EndpointRefusal } from './errors.ts';
import { identityParams, orderParams } from './gateway-params.ts';
import { assertOrderPayable } from './gateway-status.ts';
import { checkOutgoing, type OutgoingCheck } from './outgoing.ts';
import { defineRoute, type EndpointRuntime, type JsonRoute } from './route.ts';

/**
 * Where the merchant page's completion choices travel: the gateway returns merchant_extra fields
 * unchanged and signed, so the return URL learns them without server memory. merchant_extra,
 * merchant_extra4 and merchant_extra5 are not used.
 */
export const COMPLETION_FIELDS = {
  command: 'merchant_extra1',
  plan_code: 'merchant_extra2',
  issuer_code: 'merchant_extra3',
} as const;

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

export const orderRoute: JsonRoute<unknown> = defineRoute<OrderRequest>({
  schema: orderRequest,
  result: orderResult,
  async handle({ order }): Promise<OrderResult> {
    return {
      merchant_reference: order.merchant_reference,
      amount: order.amount,
      currency: order.currency,
      ...(order.description ? { description: order.description } : {}),
    };
  },
});

export const hostedPageRoute: JsonRoute<unknown> = defineRoute<HostedPageRequest>({
  schema: hostedPageRequest,
  result: formPostResult,
  commands: ['AUTHORIZATION', 'PURCHASE'],
  async handle({ input, order, language, runtime }): Promise<FormPostResult> {
    const { settings } = runtime;
    await assertOrderPayable(runtime, order, language);
    const customerEmail = input.customer_email ?? order.customer_email;
    const params = {
      command: input.command,
      ...orderParams(settings, order, language),
      customer_email: customerEmail,
      order_description: order.description,
      return_url: settings.returnUrl,
      installments: input.installments,
    };
    const browserFields = input.customer_email === undefined ? [] : ['customer_email'];
    const check = { operation: input.command, schema: hostedPaymentRequest, browserFields, language };
    return signedForm(runtime, params, check, false);
  },
});

export const merchantPageRoute: JsonRoute<unknown> = defineRoute<MerchantPageRequest>({
  schema: merchantPageRequest,
  result: formPostResult,
  commands: ['AUTHORIZATION', 'PURCHASE'],
  async handle({ input, order, language, runtime }): Promise<FormPostResult> {
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
    await assertOrderPayable(runtime, order, language);
    const params = {
      service_command: 'TOKENIZATION',
      ...identityParams(settings),
      merchant_reference: order.merchant_reference,
      language,
      return_url: settings.returnUrl,
      [COMPLETION_FIELDS.command]: input.command ?? 'PURCHASE',
      [COMPLETION_FIELDS.plan_code]: input.plan_code,
      [COMPLETION_FIELDS.issuer_code]: input.issuer_code,
    };
    // The card fields the customer adds in the browser are left out of the signature (merchant page 2.0).
    const check = { operation: 'TOKENIZATION', schema: tokenizationMerchantFields, language };
    return signedForm(runtime, params, check, true);
  },
});
