/**
 * Merchant accounts the sandbox knows: what the gateway's back-office would hold (spec,
 * Authentication): identifier, access code, SHA type and the two phrases.
 */
import type { ShaType } from '../core/signature.ts';
import { DEFAULT_GATEWAY_REFERENCE_FIELD, type GatewayReferenceField } from '../core/wire-names.ts';
import { SANDBOX_FINANCING_PARTNER_CODE, SANDBOX_VOUCHER_PARTNER_CODE } from './partners.ts';

/**
 * The optional services the gateway's back-office activates per merchant account (spec, "What the
 * service does"): an operation of a service that is off is answered 00014, "not activated".
 * Two settings the operations team switches on the same way ride along: Check 3-D Secure
 * (`check_3ds=NO` may skip the challenge) and CVV suppression (an e-commerce charge of clear card
 * data, and the card of a merchant page or of the card-entry page, may come without
 * `card_security_code`). What each does in the sandbox: docs/sandbox.md.
 */
export type SandboxService =
  | 'fraud_prevention'
  | '3ds'
  | 'installments'
  | 'tokenization'
  | 'batch'
  | 'currency_exchange'
  | 'check_3ds'
  | 'cvv_suppression';

export const SANDBOX_SERVICES: readonly SandboxService[] = [
  'fraud_prevention',
  '3ds',
  'installments',
  'tokenization',
  'batch',
  'currency_exchange',
  'check_3ds',
  'cvv_suppression',
];

export interface SandboxMerchant {
  readonly merchantIdentifier: string;
  readonly accessCode: string;
  readonly shaType: ShaType;
  /** Checks the merchant's request signatures. */
  readonly requestPhrase: string;
  /** Signs the sandbox's answers. */
  readonly responsePhrase: string;
  /** Where a customer returns when the request names no return_url (the back-office setting). */
  readonly returnUrl?: string;
  /** Optional services activated for this account; absent means every service is on. */
  readonly services?: Readonly<Partial<Record<SandboxService, boolean>>>;
  /**
   * Origins (`https://shop.example`) whose pages may show the gateway's card page and 3-D Secure
   * page in a frame, besides the origin of the request's `return_url` (the back-office setting a
   * merchant embedding the page asks for). Never `*`.
   */
  readonly framingOrigins?: readonly string[];
}

/**
 * An account as one gateway holds it: the merchant's settings, and the name that gateway gives its
 * reference of an order on the wire (`createSandboxGateway({ gatewayReferenceField })`), which
 * every answer signed for the merchant uses.
 */
export interface GatewayAccount extends SandboxMerchant {
  readonly gatewayReferenceField: GatewayReferenceField;
}

/**
 * Who may frame a page of this merchant's payment: the origin of its return address and the
 * account's framing origins, for `Content-Security-Policy: frame-ancestors`.
 */
export function framingOriginsOf(merchant: SandboxMerchant, returnUrl: URL | undefined): string[] {
  return [...new Set([...(returnUrl ? [returnUrl.origin] : []), ...(merchant.framingOrigins ?? [])])];
}

/** True when the account has `service` activated (services not listed are on). */
export function hasService(merchant: SandboxMerchant, service: SandboxService): boolean {
  return merchant.services?.[service] ?? true;
}

/**
 * The account the demo and the tests use. Not a secret: it exists only inside this sandbox.
 * Configure the merchant endpoint with these to talk to a local sandbox gateway.
 */
export const SANDBOX_MERCHANT: SandboxMerchant = {
  merchantIdentifier: 'pgSandboxMerchant',
  accessCode: 'SBXaccess0000000001',
  shaType: 'sha256',
  requestPhrase: 'sandbox-request-phrase',
  responsePhrase: 'sandbox-response-phrase',
};

/**
 * A second account with every optional service and setting off, signing with SHA-512: to see the
 * "not activated" answers (00014), a temporary token where the first account keeps one, and the
 * security code an e-commerce charge of clear card data needs without CVV suppression.
 */
export const SANDBOX_MERCHANT_BASIC: SandboxMerchant = {
  merchantIdentifier: 'pgSandboxBasic',
  accessCode: 'SBXaccess0000000002',
  shaType: 'sha512',
  requestPhrase: 'basic-request-phrase',
  responsePhrase: 'basic-response-phrase',
  services: Object.fromEntries(SANDBOX_SERVICES.map((service) => [service, false])),
};

/** The accounts a gateway knows unless told otherwise. */
export const SANDBOX_MERCHANTS: readonly SandboxMerchant[] = [SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC];

/**
 * The merchant endpoint's credentials for a sandbox account, to spread into its configuration:
 * the endpoint signs with the phrases the sandbox checks and verifies what the sandbox signs, and
 * names the sandbox's voucher and financing partners.
 */
export function endpointCredentials(merchant: SandboxMerchant = SANDBOX_MERCHANT) {
  const { merchantIdentifier, accessCode, shaType, requestPhrase, responsePhrase } = merchant;
  return {
    merchantIdentifier,
    accessCode,
    shaType,
    requestPhrase,
    responsePhrase,
    voucherPartnerCode: SANDBOX_VOUCHER_PARTNER_CODE,
    financingPartnerCode: SANDBOX_FINANCING_PARTNER_CODE,
  };
}

/** The merchants of a gateway, by merchant_identifier, as that gateway holds them; refuses duplicates and empty phrases. */
export function merchantDirectory(
  merchants: readonly SandboxMerchant[],
  gatewayReferenceField: GatewayReferenceField = DEFAULT_GATEWAY_REFERENCE_FIELD,
): ReadonlyMap<string, GatewayAccount> {
  const directory = new Map<string, GatewayAccount>();
  for (const merchant of merchants) {
    if (directory.has(merchant.merchantIdentifier)) {
      throw new Error(`sandbox merchant ${merchant.merchantIdentifier} is configured twice`);
    }
    if (!merchant.requestPhrase || !merchant.responsePhrase) {
      throw new Error(`sandbox merchant ${merchant.merchantIdentifier} needs a request and a response phrase`);
    }
    for (const origin of merchant.framingOrigins ?? []) {
      if (!isOrigin(origin)) {
        throw new Error(`sandbox merchant ${merchant.merchantIdentifier}: framing origin ${origin} must be scheme, host and port (never *)`);
      }
    }
    directory.set(merchant.merchantIdentifier, { ...merchant, gatewayReferenceField });
  }
  return directory;
}

/** Scheme, host and port, exactly; a wildcard is refused (URL would take `*.shop.example` as a host name). */
function isOrigin(value: string): boolean {
  if (value.includes('*')) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}
