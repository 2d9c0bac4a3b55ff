/**
 * Structured logs of the merchant endpoint. The endpoint logs events and the names of things
 * (route, merchant_reference, error code, field name), never request values but a refused Origin
 * and a not_found's path (no query), which name a setup mistake; the redaction
 * below is a second line of defence so that a phrase, signature, access code, card number or OTP
 * can never reach a log line even if a caller passes one.
 */

import { hideCardNumbers } from '../core/card-number.ts';

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

/**
 * The fields that hold the gateway's own reference of a payment (`svc_id`, or a live account's name
 * for it) or a bill's number: digits the gateway made, 13 to 20 of them, which `hideCardNumbers`
 * would hide, leaving an operator nothing to look the payment up by.
 */
const GATEWAY_ID_FIELD = /^(?:svc_id|fort_id|bill_number)$/;
/** The fields that hold a result's key (core `resultKeyOf`: `{merchant_reference}:{gateway id}:{state}…`). */
const RESULT_KEY_FIELD = /^(?:idempotency_key|key)$/;
/** A gateway id as the gateway writes one: ASCII digits only, at most 20. */
const GATEWAY_ID = /^[0-9]{1,20}$/;

/**
 * A gateway id kept as it is; in a result's key, its gateway id kept and the rest masked as any
 * text. A merchant_reference holds no `:`, so the key's second part is always the gateway id.
 */
function redactIdField(field: string, value: string): string | undefined {
  if (GATEWAY_ID_FIELD.test(field)) return GATEWAY_ID.test(value) ? value : undefined;
  if (!RESULT_KEY_FIELD.test(field)) return undefined;
  const [reference = '', id, ...rest] = value.split(':');
  if (id === undefined || !GATEWAY_ID.test(id)) return undefined;
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
