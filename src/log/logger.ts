/**
 * Structured logs of the merchant endpoint. The endpoint logs events and the names of things
 * (route, merchant_reference, error code, field name), never request values but a refused Origin
 * and a not_found's path (no query), which name a setup mistake; the redaction
 * below is a second line of defence so that a phrase, signature, access code, card number or OTP
 * can never reach a log line even if a caller passes one.
 */

import { hideCardNumbers } from '../core/card-number.ts';
import { field } from '../core/schemas/fields.ts';
import { isGatewayReferenceField } from '../core/wire-names.ts';

export type LogData = Readonly<Record<string, unknown>>;

export interface Logger {
  info(event: string, data?: LogData): void;
  warn(event: string, data?: LogData): void;
  error(event: string, data?: LogData): void;
}

/** The default: the endpoint says nothing unless the merchant asks for logs. */
export const silentLogger: Logger = {
  info: () => {},
  warn: () => {},
  error: () => {},
};

/** Keys whose values are never logged, at any depth. */
const SECRET_KEY = new RegExp(
  [
    'signature',
    'phrase',
    'access_?code',
    'card_number',
    'card_security_code',
    'cvv',
    'expiry_date',
    'otp',
    'token_name',
    'order[-_]?token',
    'password',
    'secret',
    'authorization',
    'cookie',
    'flow',
    'phone',
  ].join('|'),
  'i',
);

/** The fields that hold a result's key (core `resultKeyOf`: `{merchant_reference}:{gateway id}:{state}…`). */
const RESULT_KEY_FIELD = /^(?:idempotency_key|key)$/;

/**
 * The gateway's own reference of a payment (`svc_id`, or a live account's name for it, core
 * `isGatewayReferenceField`) and a bill's number are digits the gateway made, 13 to 20 of them, which
 * `hideCardNumbers` would hide, leaving an operator nothing to look the payment up by: in the fields
 * that hold one, a value the spec's rule for the field accepts (core `field`) is kept as it is. In a
 * result's key, its gateway id (a payment's or a bill's, under the wider `svc_id` rule) is kept and
 * the rest masked as any text: a merchant_reference holds no `:`, so the key's second part is always
 * the gateway id.
 */
function redactIdField(name: string, value: string): string | undefined {
  if (isGatewayReferenceField(name)) return field('svc_id').safeParse(value).success ? value : undefined;
  if (name === 'bill_number') return field('bill_number').safeParse(value).success ? value : undefined;
  if (!RESULT_KEY_FIELD.test(name)) return undefined;
  const [reference = '', id, ...rest] = value.split(':');
  if (id === undefined || !field('svc_id').safeParse(id).success) return undefined;
  return [hideCardNumbers(reference), id, ...rest.map(hideCardNumbers)].join(':');
}

/**
 * A copy of `value` fit for a log line: secret keys dropped, and in every string (keys included) any
 * possible card number masked, whatever separates its digits (core `hideCardNumbers`), but for the
 * gateway's own ids in the fields that name one (`redactIdField`).
 */
export function redactForLog(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (typeof value === 'string') return hideCardNumbers(value);
  if (Array.isArray(value)) return value.map((item) => redactForLog(item, depth + 1));
  if (value instanceof Error) return { name: value.name, message: redactForLog(value.message, depth + 1) };
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[hideCardNumbers(key)] =
        SECRET_KEY.test(key) ? '[redacted]'
        : (typeof item === 'string' && redactIdField(key, item)) || redactForLog(item, depth + 1);
    }
    return copy;
  }
  return value;
}

/**
 * One JSON object per line: `{"time":…,"level":…,"event":…, …data}`. `write` receives the line
 * without a newline (Node: `line => process.stdout.write(line + '\n')`).
 */
export function createJsonLogger(write: (line: string) => void, now: () => Date = () => new Date()): Logger {
  const emit = (level: 'info' | 'warn' | 'error') => (event: string, data: LogData = {}) => {
    const fields = redactForLog(data) as Record<string, unknown>;
    write(JSON.stringify({ time: now().toISOString(), level, event, ...fields }));
  };
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** Wraps a merchant's logger so that everything it receives is redacted first (nothing to redact for the silent one). */
export function redactingLogger(inner: Logger): Logger {
  if (inner === silentLogger) return silentLogger;
  const wrap = (log: Logger['info']) => (event: string, data?: LogData) =>
    log(event, data === undefined ? undefined : (redactForLog(data) as LogData));
  return { info: wrap(inner.info.bind(inner)), warn: wrap(inner.warn.bind(inner)), error: wrap(inner.error.bind(inner)) };
}
