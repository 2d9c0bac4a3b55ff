/**
 * The gateway's return to the endpoint's `/return` after a card payment, as the customer's browser
 * posts it: the fields signed with the fake gateway's response phrase (fake-gateway.ts). The
 * endpoint believes none of it until CHECK_STATUS confirms it.
 */
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../../src/core/response.ts';
import { signParams } from '../../../src/core/signature.ts';
import { ACCESS_CODE, MERCHANT_IDENTIFIER, RESPONSE_PHRASE } from '../fake-gateway.ts';
import { RETURN_URL } from '../harness.ts';

export interface ReturnOptions {
  readonly svcId: string;
  readonly amount?: number;
  readonly currency?: string;
  readonly code?: KnownResponseCode;
  /** PURCHASE (default) or AUTHORIZATION. */
  readonly command?: 'PURCHASE' | 'AUTHORIZATION';
  readonly language?: 'en' | 'ar';
}

/** The signed return fields of a payment of `reference` (a PURCHASE unless told), urlencoded. */
export async function signedReturn(reference: string, options: ReturnOptions): Promise<string> {
  const code = options.code ?? '14000';
  const fields = (await signParams(
    {
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      language: options.language ?? 'en',
      command: options.command ?? 'PURCHASE',
      merchant_reference: reference,
      amount: String(options.amount ?? 250_000),
      currency: options.currency ?? 'EGP',
      svc_id: options.svcId,
      response_code: code,
      response_message: responseMessage(code, 'en'),
      status: expectedStatus(code),
    },
    RESPONSE_PHRASE,
    'sha256',
  )) as Record<string, string>;
  return new URLSearchParams(fields).toString();
}

/** Posts a signed return body to `<endpointUrl>/return` (redirects not followed). */
export function postReturn(endpointUrl: string, body: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${endpointUrl}/return`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
    ...(signal ? { signal } : {}),
  });
}

/**
 * The gateway's signed answer to a merchant page's TOKENIZATION (the card form's card became
 * `token_name`), as the customer's browser posts it to `/return`: the service then charges the
 * token server to server. `fields` adds to it or changes it (`merchant_extra1` SAVE_CARD, `remember_me`…).
 */
export async function signedTokenization(reference: string, tokenName: string, fields: Record<string, string> = {}): Promise<Record<string, string>> {
  return (await signParams(
    {
      service_command: 'TOKENIZATION',
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      merchant_reference: reference,
      language: 'en',
      token_name: tokenName,
      merchant_extra1: 'PURCHASE',
      response_code: '18000',
      response_message: responseMessage('18000', 'en'),
      status: expectedStatus('18000'),
      ...fields,
    },
    RESPONSE_PHRASE,
    'sha256',
  )) as Record<string, string>;
}

/**
 * The gateway's signed answer with `code`, as the customer's browser posts it to the harness's
 * `/return` (fields, not urlencoded): the test account's identity, `language` en and the harness's
 * `return_url`, then `fields` (the payment's: `merchant_reference`, `command`, `amount`…, or a
 * TOKENIZATION's), then the code's message and `status` (the code's own unless told).
 */
export async function signedAnswer(
  code: KnownResponseCode,
  fields: Record<string, string>,
  status: string = expectedStatus(code),
): Promise<Record<string, string>> {
  return (await signParams(
    {
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      language: 'en',
      return_url: RETURN_URL,
      ...fields,
      response_code: code,
      response_message: responseMessage(code, 'en'),
      status,
    },
    RESPONSE_PHRASE,
    'sha256',
  )) as Record<string, string>;
}
