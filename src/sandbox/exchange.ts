/**
 * Currency exchange (CURRENCY_CONVERSION on paymentApi) at the sandbox's fixed rate table, for an
 * account with the service activated (00014 otherwise). The arithmetic is the core's
 * (core/exchange.ts): integers only, rounded half up.
 */
import { parseWireAmount } from '../core/amounts.ts';
import { convertMinorUnits, crossRate } from '../core/exchange.ts';
import { fieldError } from '../core/field-errors.ts';
import { currencyConversionRequest } from '../core/schemas/index.ts';
import type { SignableValue } from '../core/signature.ts';
import { checkRequest, type GatewayContext } from './context.ts';
import { hasService } from './merchants.ts';
import { apiAnswer, requestLanguage } from './wire.ts';

/**
 * The sandbox's rates: units of each currency per one US dollar. Fixed, so tests and demos can
 * state their results; the live service uses the day's rates.
 */
export const SANDBOX_EXCHANGE_RATES: Readonly<Record<string, string>> = {
  USD: '1',
  EUR: '0.92',
  EGP: '48.50',
  SAR: '3.75',
  AED: '3.6725',
  KWD: '0.3075',
  QAR: '3.64',
  BHD: '0.376',
  OMR: '0.3845',
  JOD: '0.709',
};

export async function currencyConversion(ctx: GatewayContext, params: Record<string, SignableValue>): Promise<Response> {
  const checked = await checkRequest(ctx, params, currencyConversionRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  if (!hasService(merchant, 'currency_exchange')) return apiAnswer(params, merchant, '00014');
  const fromRate = SANDBOX_EXCHANGE_RATES[data.currency];
  const toRate = SANDBOX_EXCHANGE_RATES[data.converted_currency];
  if (fromRate === undefined || toRate === undefined) return apiAnswer(params, merchant, '00009');
  const amount = parseWireAmount(data.amount);
  if (amount <= 0) {
    return apiAnswer(params, merchant, '00002', {}, fieldError('amount', 'invalid', {}, requestLanguage(params)).message);
  }
  const rate = crossRate(fromRate, toRate);
  return apiAnswer(params, merchant, '42000', {
    converted_amount: String(convertMinorUnits(amount, data.currency, data.converted_currency, rate)),
    conversion_rate: rate,
  });
}
