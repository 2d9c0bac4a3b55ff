/**
 * Helpers for the sandbox tests: a gateway on a hand-moved clock, signed requests as the merchant
 * sends them, and readers for what the gateway's pages contain.
 */
import assert from 'node:assert/strict';
import { signatureOptionsFor, signParams, verifySignature, type SignableParams, type SignatureOptions } from '../../src/core/signature.ts';
import { createSandboxClock, type SandboxClock } from '../../src/sandbox/clock.ts';
import { createSandboxGateway, type SandboxGateway, type SandboxGatewayOptions } from '../../src/sandbox/gateway.ts';
import { SANDBOX_MERCHANT } from '../../src/sandbox/merchants.ts';

export const M = SANDBOX_MERCHANT;
export const ORIGIN = 'http://sandbox.test';
export const RETURN_URL = 'http://shop.test/pg/return';
/** The tests' "today": every card expiry and bill date is relative to it. */
export const START = '2026-03-10T09:00:00Z';

export interface Rig {
  readonly gateway: SandboxGateway;
  readonly clock: SandboxClock;
}

export function rig(options: SandboxGatewayOptions = {}): Rig {
  const clock = createSandboxClock(START);
  return { gateway: createSandboxGateway({ now: clock.now, ...options }), clock };
}

const identity = { access_code: M.accessCode, merchant_identifier: M.merchantIdentifier };

/** The fields every request of the test merchant carries. */
export function withIdentity<T extends Record<string, unknown>>(params: T): T & typeof identity {
  return { ...identity, ...params };
}

export async function signed(
  params: Record<string, unknown>,
  options: SignatureOptions = {},
): Promise<Record<string, unknown>> {
  return signParams(withIdentity(params) as SignableParams, M.requestPhrase, M.shaType, options);
}

export type Answer = Record<string, unknown>;

/** POSTs a JSON body to paymentApi as given (sign it first unless testing signatures). */
export async function postApi(gateway: SandboxGateway, body: unknown): Promise<Answer> {
  const response = await gateway.handle(
    new Request(`${ORIGIN}${gateway.paths.paymentApi}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  assert.equal(response.status, 200, 'paymentApi answers HTTP 200 whatever the outcome');
  return (await response.json()) as Answer;
}

/** Signs `params` as the test merchant and posts them to paymentApi. */
export async function api(gateway: SandboxGateway, params: Record<string, unknown>): Promise<Answer> {
  return postApi(gateway, await signed(params));
}

export async function postForm(gateway: SandboxGateway, path: string, fields: Record<string, unknown>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, String(value));
  return gateway.handle(new Request(`${ORIGIN}${path}`, { method: 'POST', body }));
}

/** True when the answer verifies with the test merchant's response phrase, by the core's rule for its operation. */
export async function verifiesAsGateway(answer: Answer): Promise<boolean> {
  return (await verifySignature(answer as SignableParams, M.responsePhrase, M.shaType, signatureOptionsFor(answer))).valid;
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The hidden fields of the form with this id (the return form, by default). */
export function hiddenFields(html: string, formId = 'return-form'): Record<string, string> {
  const start = html.indexOf(`<form id="${formId}"`);
  assert.ok(start >= 0, `no form #${formId} in the page`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const match of form.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[unescapeHtml(match[1] ?? '')] = unescapeHtml(match[2] ?? '');
  }
  return fields;
}

export function formAction(html: string, formId = 'return-form'): string {
  const match = new RegExp(`<form id="${formId}" method="post" action="([^"]*)"`).exec(html);
  assert.ok(match, `no form #${formId}`);
  return unescapeHtml(match[1] ?? '');
}

/** The session id of a card-entry page. */
export function sessionOf(html: string): string {
  const match = /name="session" value="([0-9a-f]+)"/.exec(html);
  assert.ok(match, 'no card-entry session in the page');
  return match[1] ?? '';
}

/** The challenge id of a 3-D Secure page. */
export function challengeOf(html: string): string {
  const match = /name="challenge" value="([0-9a-f]+)"/.exec(html);
  assert.ok(match, 'no challenge in the page');
  return match[1] ?? '';
}

/** A valid expiry as the page takes it (MM/YY) and as the wire carries it (YYMM), a few years after START. */
export const FUTURE_EXPIRY = { typed: '08/29', yymm: '2908' } as const;
export const PAST_EXPIRY = { typed: '01/26', yymm: '2601' } as const;

/** The hosted-page fields of an order, signed. */
export async function hostedFields(overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return signed({
    command: 'PURCHASE',
    merchant_reference: 'order-1',
    amount: '250000',
    currency: 'EGP',
    language: 'en',
    customer_email: 'buyer@example.com',
    order_description: 'Sandbox order',
    return_url: RETURN_URL,
    ...overrides,
  });
}

export interface CardEntry {
  readonly card_number: string;
  readonly expiry_date?: string;
  readonly card_security_code?: string;
  readonly card_holder_name?: string;
  readonly installment_plan?: string;
}

/** Opens the hosted page for `fields` and submits `card` on it; returns the final response. */
export async function payOnHostedPage(gateway: SandboxGateway, fields: Record<string, unknown>, card: CardEntry): Promise<Response> {
  const page = await postForm(gateway, gateway.paths.paymentPage, fields);
  assert.equal(page.status, 200, 'the card-entry page opens');
  const session = sessionOf(await page.text());
  return postForm(gateway, gateway.paths.pageSubmit, {
    session,
    expiry_date: FUTURE_EXPIRY.typed,
    card_security_code: '123',
    card_holder_name: 'Test Buyer',
    ...card,
  });
}

/** The signed answer of a return page, after checking it posts to `RETURN_URL` and verifies. */
export async function returnedAnswer(response: Response, returnUrl = RETURN_URL): Promise<Record<string, string>> {
  assert.equal(response.status, 200);
  const html = await response.text();
  assert.equal(formAction(html), returnUrl);
  const fields = hiddenFields(html);
  assert.ok(await verifiesAsGateway(fields), 'the return post carries a valid response signature');
  return fields;
}

/** Follows a 303 to the challenge page, answers it, and returns the final response. */
export async function answerChallenge(gateway: SandboxGateway, challengeUrl: string, decision: 'approve' | 'fail'): Promise<Response> {
  const page = await gateway.handle(new Request(new URL(challengeUrl, ORIGIN)));
  assert.equal(page.status, 200, 'the challenge page opens');
  const challenge = challengeOf(await page.text());
  return postForm(gateway, gateway.paths.challenge, { challenge, decision });
}
