/**
 * The endpoint against the project's sandbox gateway rather than the in-test fake: the two were
 * written side by side from the same spec and core, and these journeys show they agree on every
 * wire shape (signatures, field names, units) from the browser's form post to the verified return.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  billResult,
  financingOtpResult,
  financingVerifyOtpResult,
  formPostResult,
  installmentPlansResult,
  paymentResult,
  statusResult,
} from '../../src/core/endpoint-api.ts';
import { REGISTERED_FINANCING_PHONE, SANDBOX_OTP, testCard } from '../../src/sandbox/test-cards.ts';
import { parse } from '../../src/core/shape.ts';
import { browserPost, returnForm, SANDBOX, SHOP, shop } from './support/sandbox-shop.ts';

describe('the endpoint with the sandbox gateway', () => {
  it('completes a merchant page payment: tokenization, server-to-server PURCHASE, verified return', async () => {
    const { endpoint, gateway, results, post } = shop();
    const form = parse(formPostResult, (await post('/merchant-page', { merchant_reference: 'shop-1', language: 'en' })).body);
    const card = { card_number: testCard('success').number, expiry_date: '3012', card_security_code: '123', card_holder_name: 'Mona Hassan' };
    const page = await browserPost(gateway, form.action, { ...form.fields, ...card });
    const back = returnForm(await page.text());
    assert.equal(back.action, `${SHOP}/pg/return`);
    assert.ok(!JSON.stringify(back.fields).includes(card.card_number), 'the gateway masks the card number');

    const returned = await browserPost({ handle: (request) => endpoint(request, { clientAddress: '198.51.100.4' }) }, back.action, back.fields);
    assert.equal(returned.status, 303);
    assert.equal(returned.headers.get('location'), `${SHOP}/result?merchant_reference=shop-1&outcome=success&response_code=14000`);
    assert.equal(results[0]?.source, 'merchant-page');
    assert.equal(gateway.order({ merchantReference: 'shop-1' })?.state, 'captured');
  });

  it('answers a re-submitted merchant page return from CHECK_STATUS without reporting a failure', async () => {
    const { endpoint, gateway, results, post } = shop();
    const form = parse(formPostResult, (await post('/merchant-page', { merchant_reference: 'shop-2', language: 'en' })).body);
    const card = { card_number: testCard('success').number, expiry_date: '3012', card_security_code: '123' };
    const back = returnForm(await (await browserPost(gateway, form.action, { ...form.fields, ...card })).text());
    const customer = { handle: (request: Request) => endpoint(request, { clientAddress: '198.51.100.4' }) };
    await browserPost(customer, back.action, back.fields);

    const again = await browserPost(customer, back.action, back.fields);
    assert.equal(again.status, 303);
    assert.equal(again.headers.get('location'), `${SHOP}/result?merchant_reference=shop-2&outcome=success&response_code=14000`, 'the same answer as the first post');
    assert.equal(results.length, 1, 'the paid order is reported once, and never overwritten by the duplicate');
    assert.equal(gateway.order({ merchantReference: 'shop-2' })?.capturedAmount, 250_000, 'charged once');
  });

  it('sends a 3-D Secure card through the challenge and verifies the final return', async () => {
    const { endpoint, gateway, results, post } = shop();
    const form = parse(formPostResult, 
      (await post('/merchant-page', { merchant_reference: 'shop-2', language: 'ar', command: 'AUTHORIZATION' })).body,
    );
    const card = { card_number: testCard('3ds').number, expiry_date: '3012', card_security_code: '123' };
    const back = returnForm(await (await browserPost(gateway, form.action, { ...form.fields, ...card })).text());
    const completion = await browserPost({ handle: (request) => endpoint(request) }, back.action, back.fields);
    assert.equal(completion.status, 303);
    const challenge = completion.headers.get('location') ?? '';
    assert.match(challenge, /3ds\/challenge\?id=/);
    assert.equal(results.length, 0);

    const challengePage = await (await gateway.handle(new Request(challenge))).text();
    const challengeId = /name="challenge" value="([^"]+)"/.exec(challengePage)?.[1] ?? '';
    const approved = await browserPost(gateway, new URL(gateway.paths.challenge, SANDBOX).href, {
      challenge: challengeId,
      decision: 'approve',
    });
    const final = returnForm(await approved.text());
    const landed = await browserPost({ handle: (request) => endpoint(request) }, final.action, final.fields);
    assert.equal(landed.headers.get('location'), `${SHOP}/result?merchant_reference=shop-2&outcome=success&response_code=02000`);
    assert.equal(results[0]?.command, 'AUTHORIZATION');
  });

  it('sends a 3-D Secure card held as a live account holds it (20064 under status 20) through the challenge', async () => {
    const { endpoint, gateway, results, post } = shop({ successCodes: 'live' });
    const form = parse(formPostResult, (await post('/merchant-page', { merchant_reference: 'shop-1', language: 'en' })).body);
    const card = { card_number: testCard('3ds').number, expiry_date: '3012', card_security_code: '123' };
    const back = returnForm(await (await browserPost(gateway, form.action, { ...form.fields, ...card })).text());
    const completion = await browserPost({ handle: (request) => endpoint(request) }, back.action, back.fields);
    assert.equal(completion.status, 303, 'the endpoint reads the hold as pending and sends the customer to its 3ds_url');
    const challenge = completion.headers.get('location') ?? '';
    assert.match(challenge, /3ds\/challenge\?id=/);
    const held = gateway.order({ merchantReference: 'shop-1' })?.operations.at(-1);
    assert.deepEqual([held?.code, held?.status], ['20064', '20']);
    const pending = await post('/status', { merchant_reference: 'shop-1', language: 'en' });
    const shown = parse(statusResult, pending.body);
    assert.deepEqual([shown.transaction_code, shown.transaction_status], ['20064', '20'], 'CHECK_STATUS shows the hold under status 20');

    const challengePage = await (await gateway.handle(new Request(challenge))).text();
    const challengeId = /name="challenge" value="([^"]+)"/.exec(challengePage)?.[1] ?? '';
    const approved = await browserPost(gateway, new URL(gateway.paths.challenge, SANDBOX).href, { challenge: challengeId, decision: 'approve' });
    const final = returnForm(await approved.text());
    const landed = await browserPost({ handle: (request) => endpoint(request) }, final.action, final.fields);
    assert.equal(landed.headers.get('location'), `${SHOP}/result?merchant_reference=shop-1&outcome=success&response_code=14000`);
    assert.equal(results.length, 1);
  });

  it('runs the four financing steps', async () => {
    const { post, results } = shop();
    const order = { merchant_reference: 'shop-3', language: 'en' };
    const verified = await post('/financing/verify-customer', { ...order, phone_number: REGISTERED_FINANCING_PHONE });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const otp = await post('/financing/otp', { ...order, flow: verified.body.flow });
    assert.equal(otp.status, 200, JSON.stringify(otp.body));
    const sent = parse(financingOtpResult, otp.body);
    const checked = await post('/financing/verify-otp', { ...order, flow: sent.flow, otp: SANDBOX_OTP });
    assert.equal(checked.status, 200, JSON.stringify(checked.body));
    const tenures = parse(financingVerifyOtpResult, checked.body).tenures;
    assert.ok(tenures.every((option) => Number.isInteger(option.emi) && option.emi > 0));
    const bought = await post('/financing/purchase', { ...order, flow: checked.body.flow, tenure: tenures[0]?.months });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    assert.equal(parse(paymentResult, bought.body).outcome, 'success');
    assert.equal(results[0]?.source, 'financing');
    assert.equal(String(results[0]?.gateway['tenure']), String(tenures[0]?.months), 'the verified answer reaches the hook');
    assert.ok(!('otp' in (results[0]?.gateway ?? {})), 'the echoed one-time password does not reach the hook');
  });

  it('issues a bill, lists plans and checks the status', async () => {
    const { post } = shop();
    const bill = await post('/bill', { merchant_reference: 'shop-1', language: 'ar' });
    assert.equal(bill.status, 200, JSON.stringify(bill.body));
    parse(billResult, bill.body);
    const plans = await post('/installment-plans', { merchant_reference: 'shop-1', language: 'en' });
    assert.equal(plans.status, 200, JSON.stringify(plans.body));
    assert.ok(parse(installmentPlansResult, plans.body).issuers.length > 0);
    const status = await post('/status', { merchant_reference: 'shop-1', language: 'en' });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    parse(statusResult, status.body);
  });
});
