/**
 * The parameters most gateway requests share, written once: the merchant's identity, and the
 * order's reference and money, which always come from the merchant's order, never the browser.
 */
import type { Language } from '../core/language.ts';
import { FRAMED_RETURN_PARAMETER, type EndpointSettings } from './config.ts';
import type { MerchantOrder } from './orders.ts';

/** `access_code` and `merchant_identifier`: every request carries them. */
export function identityParams(settings: EndpointSettings) {
  return { access_code: settings.accessCode, merchant_identifier: settings.merchantIdentifier };
}

/** Identity, the order's reference, amount (minor units, as digits) and currency, and the language. */
export function orderParams(settings: EndpointSettings, order: MerchantOrder, language: Language) {
  return {
    ...identityParams(settings),
    merchant_reference: order.merchant_reference,
    amount: String(order.amount),
    currency: order.currency,
    language,
  };
}

/**
 * The `return_url` to sign: the endpoint's, marked with `pg_frame=1` for a framed flow, whose
 * return then answers the element inside its frame.
 */
export function returnUrlFor(settings: EndpointSettings, framed: boolean): string {
  if (!framed) return settings.returnUrl;
  const url = new URL(settings.returnUrl);
  url.searchParams.set(FRAMED_RETURN_PARAMETER, '1');
  return url.href;
}
