/**
 * The batch and reporting tests talk to the sandbox over real HTTP: the gateway behind `node:http`
 * on 127.0.0.1 (routed by `gateway.handles`, as `pg-checkout serve --sandbox` mounts it), the
 * merchant's requests signed with the request phrase, and every answer checked against the
 * response phrase before it is believed.
 */
import assert from 'node:assert/strict';
import { signParams, verifySignature, type SignableParams } from '../../src/core/signature.ts';
import type { SandboxGatewayOptions } from '../../src/sandbox/gateway.ts';
import { SANDBOX_MERCHANT, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { testCard, type CardOutcome } from '../../src/sandbox/test-cards.ts';
import { startLoopback as startGateway, type LoopbackGateway } from './loopback.ts';
import { FUTURE_EXPIRY, hiddenFields } from './support.ts';

export const M = SANDBOX_MERCHANT;

/** A second account, with the batch service not activated. */
export const NO_BATCH_MERCHANT: SandboxMerchant = {
  ...SANDBOX_MERCHANT,
  merchantIdentifier: 'pgNoBatchMerchant',
  accessCode: 'SBXaccess0000000002',
  services: { batch: false },
};

export type Loopback = LoopbackGateway;

/** The gateway on a free loopback port, with the batch-less account beside the sandbox merchant. */
export function startLoopback(options: SandboxGatewayOptions = {}): Promise<Loopback> {
  return startGateway({ merchants: [M, NO_BATCH_MERCHANT], ...options });
}

export type Answer = Record<string, unknown>;

/** The merchant's request: its identity added, signed with its request phrase. */
export async function signedBy(merchant: SandboxMerchant, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const identity = { access_code: merchant.accessCode, merchant_identifier: merchant.merchantIdentifier };
  return signParams({ ...identity, ...params } as SignableParams, merchant.requestPhrase, merchant.shaType);
}

export async function verifies(answer: Answer, merchant: SandboxMerchant = M): Promise<boolean> {
  return (await verifySignature(answer as SignableParams, merchant.responsePhrase, merchant.shaType)).valid;
}

/** POSTs a JSON body as given; asserts HTTP 200 and JSON. */
export async function postJson(origin: string, path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200, 'the gateway answers HTTP 200 whatever the outcome');
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  return (await response.json()) as Answer;
}

/** Signs `params` as `merchant`, POSTs them, and checks the answer's signature before returning it. */
export async function call(origin: string, path: string, params: Record<string, unknown>, merchant: SandboxMerchant = M): Promise<Answer> {
  const answer = await postJson(origin, path, await signedBy(merchant, params));
  assert.ok(await verifies(answer, merchant), `the answer to ${path} carries a valid response signature: ${JSON.stringify(answer)}`);
  return answer;
}

/** A trusted-channel charge with a test card (paymentApi). */
export async function chargeCard(
  lb: Loopback,
  command: 'AUTHORIZATION' | 'PURCHASE',
  merchantReference: string,
  amount: number,
  currency = 'EGP',
  outcome: CardOutcome = 'success',
  brand: 'VISA' | 'MASTERCARD' = 'VISA',
): Promise<Answer> {
  return call(lb.origin, lb.gateway.paths.paymentApi, {
    command,
    merchant_reference: merchantReference,
    amount: String(amount),
    currency,
    language: 'en',
    eci: 'ECOMMERCE',
    card_number: testCard(outcome, brand).number,
    expiry_date: FUTURE_EXPIRY.yymm,
    card_security_code: '123',
    card_holder_name: 'Test Buyer',
    customer_email: 'buyer@shop.test',
  });
}

/**
 * Stores a test card through the merchant page (TOKENIZATION) and returns its token_name. The
 * customer agrees to keep the card (remember_me YES) unless `remember` is false, which gives a
 * temporary token that pays only its own payment.
 */
export async function tokenize(
  lb: Loopback,
  merchantReference: string,
  outcome: CardOutcome = 'success',
  remember = true,
): Promise<string> {
  const merchantFields = await signParams(
    {
      access_code: M.accessCode,
      merchant_identifier: M.merchantIdentifier,
      service_command: 'TOKENIZATION',
      merchant_reference: merchantReference,
      language: 'en',
      return_url: 'http://shop.test/pg/return',
    },
    M.requestPhrase,
    M.shaType,
    { merchantPage: true },
  );
  const card = {
    card_number: testCard(outcome).number,
    expiry_date: FUTURE_EXPIRY.yymm,
    card_security_code: '123',
    card_holder_name: 'Test Buyer',
    ...(remember ? { remember_me: 'YES' } : {}),
  };
  const response = await fetch(`${lb.origin}${lb.gateway.paths.paymentPage}`, {
    method: 'POST',
    body: new URLSearchParams({ ...merchantFields, ...card } as Record<string, string>),
  });
  assert.equal(response.status, 200);
  const answer = hiddenFields(await response.text());
  assert.equal(answer['response_code'], '18000');
  assert.ok(await verifies(answer));
  return answer['token_name'] ?? '';
}
