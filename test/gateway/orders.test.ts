/**
 * An order's life through the back-office client, against the sandbox over loopback HTTP:
 * authorize, capture part, capture the rest, refund part, refund the rest; void; each amount read
 * back with CHECK_STATUS; and the client's own refusals of an amount the order does not allow,
 * made before anything is sent.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { authorize, clientFor, nextReference, startFaultProxy, startSandbox, type FaultProxy, type Sandbox } from './support.ts';
import type { GatewayClient } from '../../src/gateway/index.ts';

let sandbox: Sandbox;
let proxy: FaultProxy;
let client: GatewayClient;

before(async () => {
  sandbox = await startSandbox();
  proxy = await startFaultProxy(sandbox.origin);
  client = clientFor(proxy.origin);
});
after(async () => {
  await proxy.close();
  await sandbox.close();
});

const captures = () => proxy.forwarded.filter((operation) => operation === 'CAPTURE').length;
const refunds = () => proxy.forwarded.filter((operation) => operation === 'REFUND').length;

describe('an authorized order, captured and refunded in parts', () => {
  const reference = nextReference('life');
  let svcId = '';

  before(async () => {
    svcId = await authorize(client, reference, 250_000);
  });

  it('shows the authorization in CHECK_STATUS: state, amounts in minor units, the gateway’s id', async () => {
    const status = await client.checkStatus({ merchant_reference: reference });
    assert.equal(status.outcome, 'success');
    assert.equal(status.response_code, '12000');
    assert.deepEqual(
      [status.order?.state, status.order?.authorized_amount, status.order?.captured_amount, status.order?.svc_id],
      ['authorized', 250_000, 0, svcId],
    );
  });

  it('captures part (20064, status 04), then the rest when no amount is given', async () => {
    const part = await client.capture({ merchant_reference: reference, amount: 100_000, currency: 'EGP' });
    assert.deepEqual([part.outcome, part.response_code, part.status, part.source], ['success', '20064', '04', 'answer']);
    assert.equal(part.answer?.amount, '100000');
    assert.equal(part.answer?.svc_id, svcId, 'the order’s svc_id, as CHECK_STATUS named it, is sent with the capture');

    const rest = await client.capture({ merchant_reference: reference, currency: 'EGP' });
    assert.equal(rest.outcome, 'success');
    assert.equal(rest.answer?.amount, '150000', 'the rest: authorized less captured');
    const status = await client.checkStatus({ merchant_reference: reference });
    assert.deepEqual([status.order?.state, status.order?.captured_amount], ['captured', 250_000]);
  });

  it('refuses a third capture before sending it: nothing is left to capture', async () => {
    const sent = captures();
    const refused = await client.capture({ merchant_reference: reference, amount: 1, currency: 'EGP' });
    assert.deepEqual([refused.outcome, refused.source, refused.reason], ['refused', 'client', 'nothing_to_capture']);
    assert.equal(captures(), sent, 'the gateway saw no CAPTURE');
  });

  it('refunds part, then the rest, and refuses a refund beyond what was captured without sending it', async () => {
    const part = await client.refund({ merchant_reference: reference, amount: 40_000, currency: 'EGP' });
    assert.deepEqual([part.outcome, part.response_code], ['success', '20064']);
    const sent = refunds();
    const beyond = await client.refund({ merchant_reference: reference, amount: 210_001, currency: 'EGP' });
    assert.deepEqual([beyond.outcome, beyond.reason], ['refused', 'amount_exceeds_refundable']);
    assert.equal(beyond.order?.refunded_amount, 40_000, 'the refusal carries the order as it was read');
    assert.match(beyond.response_message, /EGP\s?2,100\.01.*EGP\s?2,100\.00/);
    assert.equal(refunds(), sent);

    const rest = await client.refund({ merchant_reference: reference, currency: 'EGP' });
    assert.deepEqual([rest.outcome, rest.answer?.amount], ['success', '210000']);
    const status = await client.checkStatus({ merchant_reference: reference });
    assert.deepEqual([status.order?.state, status.order?.refunded_amount], ['refunded', 250_000]);
    assert.equal((await client.refund({ merchant_reference: reference, currency: 'EGP' })).reason, 'nothing_to_refund');
  });
});

describe('a capture beyond the authorized amount', () => {
  it('is refused before it is sent: the sandbox sees no CAPTURE, the message names both amounts in the language asked', async () => {
    const reference = nextReference('over');
    await authorize(client, reference, 50_000);
    const sent = captures();
    const refused = await client.capture({ merchant_reference: reference, amount: 50_001, currency: 'EGP', language: 'ar' });
    assert.deepEqual([refused.outcome, refused.source, refused.reason, refused.response_code], ['refused', 'client', 'amount_exceeds_capturable', '']);
    assert.match(refused.response_message, /يتجاوز/);
    assert.equal(refused.order?.authorized_amount, 50_000);
    assert.equal(captures(), sent, 'no CAPTURE reached the gateway');
  });

  it('is refused for an order the gateway does not hold, without sending a capture', async () => {
    const sent = captures();
    const refused = await client.capture({ merchant_reference: nextReference('ghost'), amount: 1, currency: 'EGP' });
    assert.deepEqual([refused.outcome, refused.reason, refused.order?.state], ['refused', 'order_not_found', 'not_found']);
    assert.equal(captures(), sent);
  });
});

describe('void of an authorization', () => {
  it('voids an authorized order (08000) and CHECK_STATUS shows it voided', async () => {
    const reference = nextReference('void');
    await authorize(client, reference, 30_000);
    const voided = await client.voidAuthorization({ merchant_reference: reference });
    assert.deepEqual([voided.outcome, voided.response_code], ['success', '08000']);
    assert.equal((await client.checkStatus({ merchant_reference: reference })).order?.state, 'voided');
  });

  it('refuses to void a captured or voided order without sending it: captured payments are refunded', async () => {
    const voids = () => proxy.forwarded.filter((operation) => operation === 'VOID_AUTHORIZATION').length;
    const paid = nextReference('void-paid');
    await authorize(client, paid, 30_000, 'PURCHASE');
    const sent = voids();
    const refused = await client.voidAuthorization({ merchant_reference: paid });
    assert.deepEqual([refused.outcome, refused.reason, refused.source, refused.order?.state], ['refused', 'nothing_to_void', 'client', 'captured']);
    assert.match(refused.response_message ?? '', /refunded, not voided/);
    const voided = nextReference('void-twice');
    await authorize(client, voided, 30_000);
    assert.equal((await client.voidAuthorization({ merchant_reference: voided })).outcome, 'success');
    const again = await client.voidAuthorization({ merchant_reference: voided, language: 'ar' });
    assert.deepEqual([again.outcome, again.reason], ['refused', 'nothing_to_void']);
    assert.match(again.response_message ?? '', /تم إلغاؤه من قبل/);
    assert.equal(voids(), sent + 1, 'only the void of the authorization was sent');
  });
});

describe('answers as XML', () => {
  it('reads a capture and a status asked for as XML into the same shapes', async () => {
    const reference = nextReference('xml');
    await authorize(client, reference, 20_000);
    const captured = await client.capture({ merchant_reference: reference, amount: 5_000, currency: 'EGP', response_format: 'XML' });
    assert.deepEqual([captured.outcome, captured.answer?.amount, captured.answer?.response_format], ['success', '5000', 'XML']);
    const status = await client.checkStatus({ merchant_reference: reference, response_format: 'XML', return_third_party_response_codes: true });
    assert.deepEqual([status.order?.captured_amount, status.answer?.acquirer_response_code], [5_000, '00']);
  });
});
