/**
 * A shop whose endpoint talks to the project's sandbox gateway in process, and what a customer's
 * browser does with the form posts in between (sandbox-interop.test.ts, first-screen.test.ts).
 */
import assert from 'node:assert/strict';
import { createMerchantEndpoint, type MerchantEndpoint } from '../../../src/server/endpoint.ts';
import { InMemoryOrderStore } from '../../../src/server/orders.ts';
import type { EndpointConfig, VerifiedResult } from '../../../src/server/config.ts';
import { createSandboxGateway, type SandboxGateway } from '../../../src/sandbox/gateway.ts';
import type { SuccessCodes } from '../../../src/sandbox/orders.ts';
import { endpointCredentials, SANDBOX_MERCHANT } from '../../../src/sandbox/merchants.ts';

export const SANDBOX = 'https://sandbox.test';
export const SHOP = 'https://shop.example';

export interface Shop {
  readonly endpoint: MerchantEndpoint;
  readonly gateway: SandboxGateway;
  readonly results: VerifiedResult[];
  post(route: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function shop(options: { readonly successCodes?: SuccessCodes; readonly settings?: Partial<EndpointConfig> } = {}): Shop {
  const gateway = createSandboxGateway({ merchants: [SANDBOX_MERCHANT], apiRoot: 'FortAPI', ...(options.successCodes ? { successCodes: options.successCodes } : {}) });
  const orders = new InMemoryOrderStore([
    { merchant_reference: 'shop-1', amount: 250_000, currency: 'EGP', description: 'Headphones' },
    { merchant_reference: 'shop-2', amount: 250_000, currency: 'EGP', description: 'Speaker' },
    { merchant_reference: 'shop-3', amount: 120_000, currency: 'EGP', description: 'Watch' },
  ]);
  const results: VerifiedResult[] = [];
  const endpoint = createMerchantEndpoint({
    ...endpointCredentials(),
    gatewayBaseUrl: SANDBOX,
    checkoutUrl: SANDBOX,
    apiRoot: 'FortAPI',
    publicUrl: SHOP,
    basePath: '/pg',
    resolveOrder: orders.resolve,
    resultUrl: '/result',
    // One journey authorizes from the browser: this shop captures from its back office.
    paymentCommands: ['PURCHASE', 'AUTHORIZATION'],
    onResult: (result) => void results.push(result),
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => gateway.handle(new Request(input, init))) as typeof fetch,
    ...options.settings,
  });
  return {
    endpoint,
    gateway,
    results,
    async post(route, body, headers = {}) {
      const response = await endpoint(
        new Request(`${SHOP}/pg${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
      );
      return { status: response.status, body: await response.json() };
    },
  };
}

/** Text of an HTML attribute value or element, as the browser reads it (the escapes core `escapeHtml` writes). */
export function decode(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The hidden fields of the sandbox's auto-submitting return page, and where it posts them. */
export function returnForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form id="return-form" method="post" action="([^"]*)"/.exec(html)?.[1];
  assert.ok(action, 'a return form');
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[decode(match[1] ?? '')] = decode(match[2] ?? '');
  }
  return { action: decode(action), fields };
}

/** What the customer's browser does with a form post: send it, and show what comes back. */
export function browserPost(target: { handle(request: Request): Promise<Response> }, action: string, fields: Record<string, string>) {
  return target.handle(
    new Request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}
