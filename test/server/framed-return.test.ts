/**
 * The return route for a framed flow (`pg_frame=1` in the return URL the endpoint signed): the
 * embedded gateway page, the merchant page posted into a hidden frame, and the 3-D Secure dialog.
 * The result is the same verified, CHECK_STATUS-confirmed, reported-once result as at the top
 * level; only its presentation changes: a small page that tells the element by postMessage.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { framedResultMessage, framedThreeDsMessage, type FramedResultMessage } from '../../src/core/endpoint-api.ts';
import { expectedStatus, responseMessage, type KnownResponseCode } from '../../src/core/response.ts';
import { signParams } from '../../src/core/signature.ts';
import { ACCESS_CODE, MERCHANT_IDENTIFIER, RESPONSE_PHRASE, THREE_DS_TOKEN, THREE_DS_URL } from './fake-gateway.ts';
import { allLogs, BASE_PATH, ELEMENTS_ORIGIN, RETURN_URL, setup, SHOP_ORIGIN, type Answer, type Harness } from './harness.ts';
import { parse } from '../../src/core/shape.ts';

const harness = setup();
const FRAMED_RETURN_URL = `${RETURN_URL}?pg_frame=1`;

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, []);
  harness.gateway.reset();
  harness.results.length = 0;
  harness.ledger.clear();
});

async function gatewayAnswer(code: KnownResponseCode, fields: Readonly<Record<string, string>>): Promise<Record<string, string>> {
  return (await signParams(
    {
      access_code: ACCESS_CODE,
      merchant_identifier: MERCHANT_IDENTIFIER,
      language: 'en',
      return_url: FRAMED_RETURN_URL,
      ...fields,
      response_code: code,
      response_message: responseMessage(code, fields['language'] === 'ar' ? 'ar' : 'en'),
      status: expectedStatus(code),
    },
    RESPONSE_PHRASE,
    'sha256',
  )) as Record<string, string>;
}

const purchase = (extra: Record<string, string> = {}) =>
  gatewayAnswer('14000', {
    command: 'PURCHASE',
    merchant_reference: 'order-1001',
    amount: '250000',
    currency: 'EGP',
    svc_id: '169999',
    card_number: '411111******1111',
    ...extra,
  });

const tokenization = (extra: Record<string, string> = {}, code: KnownResponseCode = '18000') =>
  gatewayAnswer(code, {
    service_command: 'TOKENIZATION',
    merchant_reference: 'order-1001',
    token_name: 'tok-1',
    card_number: '411111******1111',
    expiry_date: '2812',
    merchant_extra1: 'PURCHASE',
    ...extra,
  });

/** The gateway's page posts its answer back, inside the element's frame. */
function framedPost(fields: Record<string, string>, on: Harness = harness, framed = true): Promise<Answer> {
  return on.send(
    new Request(`${SHOP_ORIGIN}${BASE_PATH}/return${framed ? '?pg_frame=1' : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
    { clientAddress: '198.51.100.20' },
  );
}

/** The page's Content-Security-Policy, one directive per name. */
function policyOf(answer: Answer): Record<string, string> {
  const policy = answer.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    policy.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

function jsonBlock(html: string, id: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  assert.ok(match, `a JSON block #${id}`);
  return JSON.parse(match[1] ?? 'null');
}

/** What the page tells the element, checked against the contract, and to whom. */
function framedPage(answer: Answer): { message: unknown; targets: unknown; html: string } {
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
  const html = String(answer.body);
  return { message: jsonBlock(html, 'pg-message'), targets: jsonBlock(html, 'pg-targets'), html };
}

function resultMessage(answer: Answer): FramedResultMessage {
  return parse(framedResultMessage, framedPage(answer).message);
}

describe('a framed return', () => {
  it('answers a page that posts the confirmed outcome to the endpoint’s own and allowed origins', async () => {
    harness.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    const answer = await framedPost(await purchase());
    const { message, targets, html } = framedPage(answer);
    assert.deepEqual(message, {
      type: 'pg-checkout:result',
      intent: 'pay',
      merchant_reference: 'order-1001',
      outcome: 'success',
      order_state: 'captured',
      message: 'Success',
      response_code: '14000',
      result_url: `${SHOP_ORIGIN}/checkout/result?merchant_reference=order-1001&outcome=success&response_code=14000`,
    });
    assert.deepEqual(targets, [SHOP_ORIGIN, ELEMENTS_ORIGIN]);
    assert.equal(harness.results.length, 1, 'the result is reported, once');
    assert.equal(harness.results[0]?.idempotency_key, 'order-1001:169999:captured');
    // Nothing of the gateway's answer beyond the message: no signature, no card number.
    assert.doesNotMatch(html, /signature|411111|\*\*\*\*/);
  });

  it('can be framed only by the endpoint’s own and allowed origins, and runs only its own nonce', async () => {
    harness.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    const answer = await framedPost(await purchase());
    const policy = policyOf(answer);
    assert.equal(policy['frame-ancestors'], `${SHOP_ORIGIN} ${ELEMENTS_ORIGIN}`);
    assert.equal(policy['default-src'], "'none'");
    const nonce = /'nonce-([^']+)'/.exec(policy['script-src'] ?? '')?.[1];
    assert.ok(nonce);
    assert.equal(policy['form-action'], "'none'");
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.equal(String(answer.body).match(/<script nonce=/g)?.length, 1);
    assert.match(String(answer.body), new RegExp(`<script nonce="${nonce.replace(/[+/=]/g, '\\$&')}">`));
  });

  it('answers a replay with the same outcome and reports nothing again', async () => {
    harness.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    const fields = await purchase();
    const first = resultMessage(await framedPost(fields));
    const again = resultMessage(await framedPost(fields));
    assert.deepEqual(again, first);
    assert.equal(harness.results.length, 1);
  });

  it('tells the element a declined payment in the request’s language', async () => {
    harness.gateway.holds('order-1001', 'declined', { svcId: '169999' });
    const message = resultMessage(await framedPost(await purchase({ language: 'ar' })));
    assert.equal(message.outcome, 'failure');
    assert.equal(message.order_state, 'failed');
    assert.equal(message.message, 'تم رفض العملية');
  });

  it('never tells the element an unsigned answer was paid', async () => {
    const { signature: _signature, ...unsigned } = await purchase();
    const message = resultMessage(await framedPost(unsigned));
    assert.equal(message.outcome, 'failure');
    assert.equal(message.error, 'gateway_signature_invalid');
    assert.equal(harness.results.length, 0);
  });

  it('says pending, and reports nothing, when CHECK_STATUS cannot be reached', async () => {
    harness.gateway.goOffline();
    const message = resultMessage(await framedPost(await purchase()));
    assert.equal(message.outcome, 'pending');
    assert.equal(message.error, 'gateway_unreachable');
    assert.equal(harness.results.length, 0);
  });

  it('uses the framed page even when onResult answers with its own Response (it would land in the frame)', async () => {
    const own = setup({ onResult: () => new Response('thanks', { status: 200 }) });
    own.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    assert.equal(resultMessage(await framedPost(await purchase(), own)).outcome, 'success');
    own.gateway.holds('order-2002', 'captured', { svcId: '170000', amount: 19_900 });
    const topLevel = await framedPost(
      await purchase({ merchant_reference: 'order-2002', amount: '19900', currency: 'SAR', svc_id: '170000' }),
      own,
      false,
    );
    assert.equal(topLevel.body, 'thanks', 'at the top level the hook still decides');
  });

  it('keeps redirecting a return that is not framed', async () => {
    harness.gateway.holds('order-1001', 'captured', { svcId: '169999' });
    const answer = await framedPost(await purchase(), harness, false);
    assert.equal(answer.status, 303);
  });
});

describe('3-D Secure in a framed flow', () => {
  it('hands the element the 3ds_url instead of redirecting, and the completion returns framed too', async () => {
    const answer = await framedPost(await tokenization({ token_name: THREE_DS_TOKEN }));
    const message = parse(framedThreeDsMessage, framedPage(answer).message);
    assert.deepEqual(message, { type: 'pg-checkout:3ds', merchant_reference: 'order-1001', url: THREE_DS_URL });
    assert.equal(policyOf(answer)['frame-ancestors'], `${SHOP_ORIGIN} ${ELEMENTS_ORIGIN}`);
    const [completion] = harness.gateway.callsOf('TOKEN_PAYMENT');
    assert.equal(completion?.request['return_url'], FRAMED_RETURN_URL, 'the final return lands in the dialog’s frame');
    assert.equal(harness.results.length, 0, 'nothing is reported before 3-D Secure finishes');

    // The customer passes the challenge in the dialog; the gateway's final return comes back framed.
    harness.gateway.holds('order-1001', 'captured', { svcId: '1700000003' });
    const final = resultMessage(await framedPost(await purchase({ token_name: THREE_DS_TOKEN, eci: 'ECOMMERCE', svc_id: '1700000003' })));
    assert.equal(final.outcome, 'success');
    assert.equal(harness.results.length, 1);
  });

  it('signs the plain return URL for the completion of a top-level merchant page', async () => {
    await framedPost(await tokenization({ return_url: RETURN_URL }), harness, false);
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT')[0]?.request['return_url'], RETURN_URL);
  });
});

describe('installments on the gateway’s page (embedded, installments STANDALONE)', () => {
  it('completes the plan the customer chose there as a direct installments operation, and reports it', async () => {
    const answer = await framedPost(
      await tokenization({
        installments: 'STANDALONE',
        amount: '250000',
        currency: 'EGP',
        plan_code: 'NBE6',
        issuer_code: 'NBE01',
        number_of_installments: '6',
      }),
    );
    const [call] = harness.gateway.callsOf('INSTALLMENTS_PAYMENT');
    assert.equal(call?.request['installments'], 'YES');
    assert.equal(call?.request['plan_code'], 'NBE6');
    assert.equal(call?.request['issuer_code'], 'NBE01');
    const plan = { number_of_installments: 6, plan_code: 'NBE6', issuer_code: 'NBE01' };
    assert.deepEqual(harness.results[0]?.installments, plan);
    assert.deepEqual(resultMessage(answer).installments, plan);
  });

  it('pays in full when the customer chose no plan on the gateway’s page', async () => {
    await framedPost(await tokenization({ installments: 'STANDALONE', amount: '250000', currency: 'EGP' }));
    assert.equal(harness.gateway.callsOf('INSTALLMENTS_PAYMENT').length, 0);
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT').length, 1);
  });

  it('takes no plan from a page that was not asked for installments', async () => {
    await framedPost(await tokenization({ plan_code: 'NBE6', issuer_code: 'NBE01' }));
    assert.equal(harness.gateway.callsOf('INSTALLMENTS_PAYMENT').length, 0);
  });
});

describe('paying and keeping the card', () => {
  it('reports no saved card, and asks for none, when the customer did not ask to keep it', async () => {
    await framedPost(await tokenization());
    assert.equal(harness.gateway.callsOf('GET_TOKENS').length, 0);
    assert.equal(harness.results[0]?.saved_card, undefined);
    assert.equal(harness.results[0]?.gateway['token_name'], undefined, 'the temporary token is not handed on');
  });

  it('reports the kept card once GET_TOKENS lists it, and asks the payment to keep it too', async () => {
    harness.gateway.keepsToken('tok-1');
    await framedPost(await tokenization({ remember_me: 'YES' }));
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT')[0]?.request['remember_me'], 'YES');
    assert.equal(harness.results[0]?.kind, 'payment', 'a payment that also kept the card is a payment');
    assert.deepEqual(harness.results[0]?.saved_card, {
      token_name: 'tok-1',
      confirmed: true,
      card_number: '411111******1111',
      expiry_date: '2812',
      card_brand: 'VISA',
      card_bin: '411111',
    });
    assert.equal(harness.results[0]?.outcome, 'success');
  });

  it('never reports a temporary token as a saved card (the gateway does not list it)', async () => {
    harness.gateway.keepsToken('someone-else');
    await framedPost(await tokenization({ remember_me: 'YES' }));
    assert.equal(harness.gateway.callsOf('GET_TOKENS').length, 1);
    assert.equal(harness.results[0]?.outcome, 'success', 'the payment itself is reported as it is');
    assert.equal(harness.results[0]?.saved_card, undefined);
    assert.doesNotMatch(allLogs(harness), /tok-1/);
  });
});
