/**
 * An answer as JSON, or as XML when the request asks for it with `response_format: XML` (spec,
 * "XML response builder"): the same fields and the same signature either way (core/xml.ts).
 */
import { fieldError } from '../core/field-errors.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../core/response.ts';
import { toXml } from '../core/xml.ts';
import { identifiedMerchant, type GatewayContext } from './context.ts';
import type { SandboxMerchant } from './merchants.ts';
import { answer, jsonResponse, requestLanguage, type BodyError, type WireParams } from './wire.ts';

export const XML_CONTENT_TYPE = 'application/xml; charset=utf-8';

/** {@link answer} in the format the request asks for. */
export async function formattedAnswer(
  params: Readonly<Record<string, unknown>>,
  merchant: SandboxMerchant | undefined,
  code: KnownResponseCode,
  fields: WireParams = {},
  detail?: string,
): Promise<Response> {
  const body = await answer(params, merchant, code, fields, detail);
  if (params['response_format'] !== 'XML') return jsonResponse(body);
  return new Response(toXml(body), { headers: { 'content-type': XML_CONTENT_TYPE, 'cache-control': 'no-store' } });
}

/** A body that could not be read as the request: nothing to echo or sign, so an unsigned 00002. */
export function unreadableBody(error: BodyError): Response {
  const code = '00002';
  return jsonResponse({ response_code: code, response_message: responseMessage(code, 'en'), status: expectedStatus(code) }, error.httpStatus);
}

/**
 * A request naming no operation of this path (00001), or one it does not offer (00002), in the
 * requested format; signed only for a merchant the request identifies.
 */
export function unknownOperation(
  ctx: GatewayContext,
  params: Readonly<Record<string, unknown>>,
  field: 'query_command' | 'service_command',
  values: readonly string[],
): Promise<Response> {
  const language = requestLanguage(params);
  const merchant = identifiedMerchant(ctx, params);
  if (params[field] === undefined) return formattedAnswer(params, merchant, '00001', {}, fieldError(field, 'required', {}, language).message);
  return formattedAnswer(params, merchant, '00002', {}, fieldError(field, 'enum', { values }, language).message);
}
