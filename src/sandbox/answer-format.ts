/**
 * An answer as JSON, or as XML when the request asks for it with `response_format: XML` (spec,
 * "XML response builder"): the same fields and the same signature either way (core/xml.ts).
 */
import type { KnownResponseCode } from '../core/response.ts';
import { toXml } from '../core/xml.ts';
import type { SandboxMerchant } from './merchants.ts';
import { answer, jsonResponse, type WireParams } from './wire.ts';

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
