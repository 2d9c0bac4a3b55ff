/**
 * The sandbox gateway behind `node:http` on 127.0.0.1 (port 0), for tests that talk to it the way
 * an official SDK does: real HTTP, a signed JSON body to paymentApi, the answer read from the wire
 * (JSON or, with `response_format: XML`, XML parsed back with the core's `parseXml`) and verified
 * with the response phrase by the core's rule for its operation.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureOptionsFor, signParams, verifySignature, type SignableParams } from '../../src/core/signature.ts';
import { parseXml } from '../../src/core/xml.ts';
import { toNodeListener } from '../../src/server/node.ts';
import { createSandboxClock, type SandboxClock } from '../../src/sandbox/clock.ts';
import { createSandboxGateway, type SandboxGateway, type SandboxGatewayOptions } from '../../src/sandbox/gateway.ts';
import { SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { START } from './support.ts';

export interface LoopbackGateway {
  readonly gateway: SandboxGateway;
  readonly clock: SandboxClock;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly paymentApiUrl: string;
  close(): Promise<void>;
}

/** Starts a gateway (both sandbox merchants, a hand-moved clock) on a free loopback port. */
export async function startLoopback(options: SandboxGatewayOptions = {}): Promise<LoopbackGateway> {
  const clock = createSandboxClock(START);
  const gateway = createSandboxGateway({ now: clock.now, merchants: [SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC], ...options });
  const server: Server = createServer(toNodeListener((request) => gateway.handle(request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    gateway,
    clock,
    origin,
    paymentApiUrl: `${origin}${gateway.paths.paymentApi}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // fetch keeps connections alive; close them so that the server can stop.
        server.closeAllConnections();
      }),
  };
}

export interface WireAnswer {
  readonly httpStatus: number;
  readonly contentType: string;
  /** The raw body, for XML assertions. */
  readonly text: string;
  /** The answer's fields: the JSON object, or the XML document parsed back. */
  readonly fields: Record<string, unknown>;
  /** True when `fields` verifies with the merchant's response phrase (false when unsigned). */
  readonly verified: boolean;
}

/** POSTs a JSON body as given (already signed, or deliberately not) and reads the answer off the wire. */
export async function postJson(
  url: string,
  body: unknown,
  merchant: SandboxMerchant = SANDBOX_MERCHANT,
): Promise<WireAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  const fields = (contentType.includes('xml') ? parseXml(text) : JSON.parse(text)) as Record<string, unknown>;
  const verified = (
    await verifySignature(fields as SignableParams, merchant.responsePhrase, merchant.shaType, signatureOptionsFor(fields))
  ).valid;
  return { httpStatus: response.status, contentType, text, fields, verified };
}

/** The request signed with the merchant's request phrase, identity included. */
export async function signedAs(merchant: SandboxMerchant, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const withIdentity = { access_code: merchant.accessCode, merchant_identifier: merchant.merchantIdentifier, ...params };
  return signParams(withIdentity as SignableParams, merchant.requestPhrase, merchant.shaType);
}

/**
 * Signs `params` as `merchant`, posts them to paymentApi and checks what every answer must be:
 * HTTP 200, signed with the response phrase. Returns the answer's fields.
 */
export async function callApi(
  loopback: LoopbackGateway,
  params: Record<string, unknown>,
  merchant: SandboxMerchant = SANDBOX_MERCHANT,
): Promise<Record<string, unknown>> {
  const answer = await postJson(loopback.paymentApiUrl, await signedAs(merchant, params), merchant);
  assert.equal(answer.httpStatus, 200, 'paymentApi answers HTTP 200 whatever the outcome');
  assert.ok(answer.verified, `the answer verifies with the response phrase: ${answer.text}`);
  return answer.fields;
}

/**
 * The official PHP SDK's answer check (payfort/payfort-php-sdk, APSSignature.php), written out
 * independently of the core: drop `signature` and `discriminator`, sort the names, write
 * `name=value` except `installment_detail`, which adds nothing, wrap in the phrase, hash, and
 * compare case-sensitively.
 */
export function phpSdkAccepts(answer: Record<string, unknown>, phrase: string, sha: 'sha256' | 'sha512' = 'sha256'): boolean {
  const { signature, discriminator: _discriminator, ...rest } = answer;
  const names = Object.keys(rest).sort();
  const text = names.map((name) => (name === 'installment_detail' ? '' : `${name}=${String(rest[name])}`)).join('');
  return createHash(sha).update(`${phrase}${text}${phrase}`, 'utf8').digest('hex') === signature;
}

/** A form post to the gateway over HTTP, as a browser submits it (redirects not followed). */
export async function postForm(url: string, fields: Record<string, unknown>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, String(value));
  return fetch(url, { method: 'POST', body, redirect: 'manual' });
}
