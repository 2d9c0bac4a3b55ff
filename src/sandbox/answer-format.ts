/**
 * The refusals every gateway path answers alike: a body that cannot be read, and a request naming
 * no operation of the path or one it does not offer. The answers themselves are `apiAnswer`'s
 * (wire.ts): JSON, or XML when the request asks for it with `response_format: XML`.
 */
import { fieldError } from '../core/field-errors.ts';
import { expectedStatus, responseMessage } from '../core/response.ts';
import { identifiedMerchant, type GatewayContext } from './context.ts';
import { apiAnswer, jsonResponse, requestLanguage, type BodyError } from './wire.ts';

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
  field: string,
  values: readonly string[],
): Promise<Response> {
  const language = requestLanguage(params);
  const merchant = identifiedMerchant(ctx, params);
  if (params[field] === undefined) return apiAnswer(params, merchant, '00001', {}, fieldError(field, 'required', {}, language).message);
  return apiAnswer(params, merchant, '00002', {}, fieldError(field, 'enum', { values }, language).message);
}
