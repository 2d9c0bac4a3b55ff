/**
 * The sandbox set to the live gateway's name of its order reference (`gatewayReferenceField:
 * 'fort_id'`): it answers `fort_id` wherever the specification says `svc_id` (operation answers,
 * CHECK_STATUS, the return post, XML), signs over that name, expects it in requests, and refuses
 * `svc_id` as any field it does not know. Set to the default it is the specification's gateway.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testCard } from '../../src/sandbox/test-cards.ts';
import {
  api,
  FUTURE_EXPIRY,
  hostedFields,
  ORIGIN,
  payOnHostedPage,
  returnedAnswer,
  rig,
  signed,
  verifiesAsGateway,
  type Answer,
  type Rig,
} from './support.ts';

const live = (): Rig => rig({ gatewayReferenceField: 'fort_id' });

async function authorized(r: Rig, reference: string, amount = '100000'): Promise<Answer> {
  const answer = await api(r.gateway, {
    command: 'AUTHORIZATION',
    merchant_reference: reference,
    amount,
    currency: 'EGP',
    language: 'en',
    card_number: testCard('success').number,
    expiry_date: FUTURE_EXPIRY.yymm,
    card_security_code: '123',
  });
  assert.equal(answer['response_code'], '02000', JSON.stringify(answer));
  return answer;
}

/** Asserts the answer is signed and names the reference fort_id only; its fort_id. */
async function fortIdOf(answer: Answer): Promise<string> {
  assert.ok(await verifiesAsGateway(answer), `signed over the names it carries: ${JSON.stringify(answer)}`);
  assert.ok(!('svc_id' in answer), `no svc_id on a fort_id wire: ${JSON.stringify(answer)}`);
  assert.match(String(answer['fort_id']), /^\d{1,20}$/);
  return String(answer['fort_id']);
}

describe('a sandbox that names its order reference fort_id', () => {
  it('answers a charge with fort_id, signed over fort_id', async () => {
    const r = live();
    await fortIdOf(await authorized(r, 'ref-charge'));
  });

  it('answers CHECK_STATUS with fort_id, by merchant_reference or by fort_id alone', async () => {
    const r = live();
    const fortId = await fortIdOf(await authorized(r, 'ref-status'));
    const byReference = await api(r.gateway, { query_command: 'CHECK_STATUS', merchant_reference: 'ref-status', language: 'en' });
    assert.equal(byReference['response_code'], '12000');
    assert.equal(await fortIdOf(byReference), fortId);
    const byId = await api(r.gateway, { query_command: 'CHECK_STATUS', fort_id: fortId, language: 'en' });
    assert.equal(byId['response_code'], '12000');
    assert.equal(byId['merchant_reference'], 'ref-status');
    assert.equal(await fortIdOf(byId), fortId);
  });

  it('captures, refunds and voids an order named by fort_id', async () => {
    const r = live();
    const fortId = await fortIdOf(await authorized(r, 'ref-money'));
    const money = { merchant_reference: 'ref-money', fort_id: fortId, amount: '100000', currency: 'EGP', language: 'en' };
    const captured = await api(r.gateway, { command: 'CAPTURE', ...money });
    assert.equal(captured['response_code'], '20064');
    assert.equal(await fortIdOf(captured), fortId);
    const refunded = await api(r.gateway, { command: 'REFUND', ...money, amount: '40000' });
    assert.equal(refunded['response_code'], '20064');
    assert.equal(r.gateway.order({ svcId: fortId })?.refundedAmount, 40_000);

    const other = await fortIdOf(await authorized(r, 'ref-void'));
    const voided = await api(r.gateway, { command: 'VOID_AUTHORIZATION', fort_id: other, language: 'en' });
    assert.equal(voided['response_code'], '08000');
    assert.equal(await fortIdOf(voided), other);
  });

  it('refuses svc_id in a request as a field it does not know (00002), naming it', async () => {
    const r = live();
    const fortId = await fortIdOf(await authorized(r, 'ref-foreign'));
    const answer = await api(r.gateway, { query_command: 'CHECK_STATUS', merchant_reference: 'ref-foreign', svc_id: fortId, language: 'en' });
    assert.equal(answer['response_code'], '00002');
    assert.match(String(answer['response_message']), /svc_id: is not a field of this request/);
    assert.equal(answer['svc_id'], fortId, 'the request is echoed as it came');
    assert.ok(await verifiesAsGateway(answer));
  });

  it('names fort_id in the refusal of a malformed fort_id', async () => {
    const r = live();
    const answer = await api(r.gateway, { query_command: 'CHECK_STATUS', fort_id: 'not-digits', language: 'en' });
    assert.equal(answer['response_code'], '00004');
    assert.match(String(answer['response_message']), /fort_id: may contain only digits/);
  });

  it('answers fort_id in XML too', async () => {
    const r = live();
    await authorized(r, 'ref-xml');
    const response = await r.gateway.handle(
      new Request(`${ORIGIN}${r.gateway.paths.paymentApi}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await signed({ query_command: 'CHECK_STATUS', merchant_reference: 'ref-xml', language: 'en', response_format: 'XML' })),
      }),
    );
    const xml = await response.text();
    assert.match(xml, /<fort_id>\d+<\/fort_id>/);
    assert.doesNotMatch(xml, /svc_id/);
  });

  it('posts fort_id back to the return URL after the hosted page, signed over it', async () => {
    const r = live();
    const response = await payOnHostedPage(r.gateway, await hostedFields({ merchant_reference: 'ref-hosted' }), { card_number: testCard('success').number });
    const fields = await returnedAnswer(response);
    assert.equal(fields['response_code'], '14000');
    await fortIdOf(fields);
  });
});

describe('a sandbox that keeps the specification’s name (the default)', () => {
  it('answers svc_id and refuses fort_id as a field it does not know', async () => {
    const r = rig();
    const answer = await authorized(r, 'spec-1');
    assert.match(String(answer['svc_id']), /^\d+$/);
    assert.ok(!('fort_id' in answer));
    const refused = await api(r.gateway, { query_command: 'CHECK_STATUS', merchant_reference: 'spec-1', fort_id: String(answer['svc_id']), language: 'en' });
    assert.equal(refused['response_code'], '00002');
    assert.match(String(refused['response_message']), /fort_id: is not a field of this request/);
  });

  it('refuses a name other than svc_id or fort_id for the setting', () => {
    assert.throws(() => rig({ gatewayReferenceField: 'FORT_ID' as 'fort_id' }), /svc_id or fort_id/);
  });
});
