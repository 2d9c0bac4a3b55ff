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
 * A copy of `value` fit for a log line: secret keys dropped, and in every string (keys included) any
 * possible card number masked, whatever separates its digits (core `hideCardNumbers`).
 */
export function redactForLog(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (typeof value === 'string') return hideCardNumbers(value);
  if (Array.isArray(value)) return value.map((item) => redactForLog(item, depth + 1));
  if (value instanceof Error) return { name: value.name, message: redactForLog(value.message, depth + 1) };
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[hideCardNumbers(key)] = SECRET_KEY.test(key) ? '[redacted]' : redactForLog(item, depth + 1);
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
