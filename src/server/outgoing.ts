/**
 * The last check before anything is signed for the gateway: the core's schema of that request.
 * A request it refuses is never signed or sent. When the field at fault came from the browser,
 * the browser hears which (400 invalid_request, localized); otherwise the fault is the merchant's
 * order data or ours, which is logged by field name and answered 500.
 */
import type * as z from 'zod/mini';
import { toFieldErrors, type FieldError } from '../core/field-errors.ts';
import type { Language } from '../core/language.ts';
import { compiled } from '../gateway/compiled.ts';
import { EndpointRefusal } from './errors.ts';
import type { Logger } from '../log/logger.ts';

export interface OutgoingCheck {
  /** The operation, for logs. */
  readonly operation: string;
  readonly schema: z.ZodMiniType;
  /** Parameters whose values came from the browser. */
  readonly browserFields?: readonly string[];
  readonly language: Language;
}

/** Throws an EndpointRefusal unless `params` (signed, or with a placeholder signature) fit the schema. */
export function checkOutgoing(check: OutgoingCheck, params: Readonly<Record<string, unknown>>, log: Logger): void {
  const result = compiled(check.schema).safeParse(params);
  if (result.success) return;
  throw outgoingRefusal(check, toFieldErrors(result.error.issues, params, check.language), log);
}

/** The refusal for a request the gateway's field rules refuse: the browser's field named (400), or ours logged (500). */
export function outgoingRefusal(check: Omit<OutgoingCheck, 'schema'>, errors: readonly FieldError[], log: Logger): EndpointRefusal {
  const browserError = errors.find((error) => check.browserFields?.includes(error.field.split(/[.[]/)[0] ?? ''));
  if (browserError) {
    return new EndpointRefusal('invalid_request', { field: browserError.field, message: browserError.message });
  }
  log.error('gateway_request_invalid', {
    operation: check.operation,
    fields: errors.map((error) => `${error.field} ${error.rule}`),
  });
  return new EndpointRefusal('internal_error');
}
