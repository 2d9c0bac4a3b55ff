/**
 * The parameters most gateway requests share, written once: the merchant's identity, and the
 * order's reference and money, which always come from the merchant's order, never the browser.
 */
import type { Language } from '../core/language.ts';
import type { EndpointSettings } from './config.ts';
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
