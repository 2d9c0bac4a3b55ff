import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validate } from '../../src/core/field-errors.ts';
import { captureResponse, checkStatusResponse, refundResponse, voidAuthorizationResponse } from '../../src/core/schemas/index.ts';
import { capture, chargedOrder, refund, voidAuthorization, type SandboxOrder } from '../../src/sandbox/orders.ts';
import { AUTHORIZATION_HOLD_MS, testCard } from '../../src/sandbox/test-cards.ts';
import { api, hostedFields, payOnHostedPage, rig, verifiesAsGateway, type Rig } from './support.ts';

const AMOUNT = 250000;

async function newOrder(r: Rig, command: 'AUTHORIZATION' | 'PURCHASE', reference = 'order-1'): Promise<string> {
  await payOnHostedPage(r.gateway, await hostedFields({ command, merchant_reference: reference, amount: String(AMOUNT) }), {
    card_number: testCard('success').number,
  });
  const created = r.gateway.order({ merchantReference: reference });
  assert.ok(created);
  return created.svcId;
}

function maintenance(command: 'CAPTURE' | 'REFUND', svcId: string, amount: number, overrides: Record<string, unknown> = {}) {
  return { command, merchant_reference: 'order-1', amount: String(amount), currency: 'EGP', language: 'en', svc_id: svcId, ...overrides };
}

const voidRequest = (svcId: string) => ({ command: 'VOID_AUTHORIZATION', merchant_reference: 'order-1', svc_id: svcId, language: 'en' });
const statusRequest = { query_command: 'CHECK_STATUS', merchant_reference: 'order-1', language: 'en' };

describe('order state machine', () => {
  describe('capture of an authorization', () => {
    it('accepts a partial capture with 20064 / status 04, then the rest', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      const first = await api(r.gateway, maintenance('CAPTURE', svcId, 100000));
      assert.equal(first['response_code'], '20064');
      assert.equal(first['status'], '04');
      assert.equal(first['response_message'], 'Request accepted');
      assert.ok(await verifiesAsGateway(first));
      assert.ok(validate(captureResponse, first, 'en').ok);
      const second = await api(r.gateway, maintenance('CAPTURE', svcId, 150000));
      assert.equal(second['response_code'], '20064');
      const order = r.gateway.order({ svcId });
      assert.equal(order?.state, 'captured');
      assert.equal(order?.capturedAmount, AMOUNT);
    });

    it('refuses to capture more than was authorized (05001) and changes nothing', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      await api(r.gateway, maintenance('CAPTURE', svcId, 200000));
      const answer = await api(r.gateway, maintenance('CAPTURE', svcId, 50001));
      assert.equal(answer['response_code'], '05001');
      assert.equal(answer['status'], '05');
      assert.equal(r.gateway.order({ svcId })?.capturedAmount, 200000);
    });

    it('refuses a capture in another currency (00013)', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      assert.equal((await api(r.gateway, maintenance('CAPTURE', svcId, 1000, { currency: 'USD' })))['response_code'], '00013');
    });

    it('answers 00007 for an svc_id the merchant does not have, or a reference that does not match it', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      assert.equal((await api(r.gateway, maintenance('CAPTURE', '999', 1000)))['response_code'], '00007');
      assert.equal((await api(r.gateway, maintenance('CAPTURE', svcId, 1000, { merchant_reference: 'other' })))['response_code'], '00007');
    });

    it('refuses to capture after the hold period has voided the authorization (05002)', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      r.clock.advance(AUTHORIZATION_HOLD_MS - 1);
      assert.equal(r.gateway.order({ svcId })?.state, 'authorized');
      r.clock.advance(1);
      assert.equal((await api(r.gateway, maintenance('CAPTURE', svcId, 1000)))['response_code'], '05002');
      const status = await api(r.gateway, statusRequest);
      assert.equal(status['transaction_code'], '08000');
      assert.equal(status['transaction_status'], '08');
    });
  });

  describe('refund', () => {
    it('is refused before capture (06002)', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      const answer = await api(r.gateway, maintenance('REFUND', svcId, 1000));
      assert.equal(answer['response_code'], '06002');
      assert.equal(r.gateway.order({ svcId })?.refundedAmount, 0);
    });

    it('accepts partial refunds of a purchase up to the captured amount, then refuses (06001)', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'PURCHASE');
      const first = await api(r.gateway, maintenance('REFUND', svcId, 50000));
      assert.equal(first['response_code'], '20064');
      assert.equal(first['status'], '04');
      assert.ok(validate(refundResponse, first, 'en').ok);
      assert.equal((await api(r.gateway, maintenance('REFUND', svcId, 200001)))['response_code'], '06001');
      assert.equal((await api(r.gateway, maintenance('REFUND', svcId, 200000)))['response_code'], '20064');
      const order = r.gateway.order({ svcId });
      assert.equal(order?.state, 'refunded');
      assert.equal(order?.refundedAmount, AMOUNT);
    });

    it('is bounded by what was captured, not what was authorized', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      await api(r.gateway, maintenance('CAPTURE', svcId, 100000));
      assert.equal((await api(r.gateway, maintenance('REFUND', svcId, 100001)))['response_code'], '06001');
      assert.equal((await api(r.gateway, maintenance('REFUND', svcId, 100000)))['response_code'], '20064');
    });

    it('ends capturing: no capture after a refund (05002)', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      await api(r.gateway, maintenance('CAPTURE', svcId, 100000));
      await api(r.gateway, maintenance('REFUND', svcId, 1000));
      assert.equal((await api(r.gateway, maintenance('CAPTURE', svcId, 1000)))['response_code'], '05002');
    });
  });

  describe('void', () => {
    it('voids an authorization (08000)', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      const answer = await api(r.gateway, voidRequest(svcId));
      assert.equal(answer['response_code'], '08000');
      assert.equal(answer['status'], '08');
      assert.ok(validate(voidAuthorizationResponse, answer, 'en').ok);
      assert.equal(r.gateway.order({ svcId })?.state, 'voided');
      assert.equal((await api(r.gateway, maintenance('CAPTURE', svcId, 1000)))['response_code'], '05002');
    });

    it('voids by merchant_reference alone', async () => {
      const r = rig();
      await newOrder(r, 'AUTHORIZATION');
      const answer = await api(r.gateway, { command: 'VOID_AUTHORIZATION', merchant_reference: 'order-1', language: 'en' });
      assert.equal(answer['response_code'], '08000');
    });

    it('refuses to void a captured payment (09001): it can only be refunded', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'PURCHASE');
      const answer = await api(r.gateway, voidRequest(svcId));
      assert.equal(answer['response_code'], '09001');
      assert.equal(answer['response_message'], 'Captured payments can only be refunded');
      assert.equal(r.gateway.order({ svcId })?.state, 'captured');
    });

    it('refuses to void a partly captured authorization (09001)', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      await api(r.gateway, maintenance('CAPTURE', svcId, 1));
      assert.equal((await api(r.gateway, voidRequest(svcId)))['response_code'], '09001');
    });

    it('refuses to void twice (09002)', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      await api(r.gateway, voidRequest(svcId));
      assert.equal((await api(r.gateway, voidRequest(svcId)))['response_code'], '09002');
    });
  });

  describe('CHECK_STATUS', () => {
    it('reports the last operation and the authorized, captured and refunded amounts', async () => {
      const r = rig();
      const svcId = await newOrder(r, 'AUTHORIZATION');
      let status = await api(r.gateway, statusRequest);
      assert.equal(status['response_code'], '12000');
      assert.equal(status['status'], '12');
      assert.equal(status['svc_id'], svcId);
      assert.equal(status['transaction_status'], '02');
      assert.equal(status['transaction_code'], '02000');
      assert.deepEqual([status['authorized_amount'], status['captured_amount'], status['refunded_amount']], ['250000', '0', '0']);
      assert.ok(validate(checkStatusResponse, status, 'en').ok);

      await api(r.gateway, maintenance('CAPTURE', svcId, 200000));
      await api(r.gateway, maintenance('REFUND', svcId, 50000));
      status = await api(r.gateway, { ...statusRequest, language: 'ar', merchant_reference: undefined, svc_id: svcId });
      assert.equal(status['transaction_status'], '04');
      assert.equal(status['transaction_code'], '20064');
      assert.equal(status['transaction_message'], 'تم قبول الطلب');
      assert.deepEqual([status['authorized_amount'], status['captured_amount'], status['refunded_amount']], ['250000', '200000', '50000']);
      assert.match(String(status['authorization_code']), /^\d{6}$/);
      assert.ok(await verifiesAsGateway(status));
    });

    it('adds simulated processor and acquirer codes when asked', async () => {
      const r = rig();
      await newOrder(r, 'PURCHASE');
      const status = await api(r.gateway, { ...statusRequest, return_third_party_response_codes: 'YES' });
      assert.equal(status['processor_response_code'], '14000');
      assert.equal(status['acquirer_response_code'], '00');
    });

    it('answers 12001 for an unknown order', async () => {
      const { gateway } = rig();
      const status = await api(gateway, statusRequest);
      assert.equal(status['response_code'], '12001');
      assert.equal(status['status'], '12');
      assert.ok(!('transaction_status' in status));
    });
  });

  describe('the pure transitions', () => {
    const authorized = chargedOrder(
      {
        merchantIdentifier: 'm',
        merchantReference: 'r',
        svcId: '1',
        command: 'AUTHORIZATION',
        channel: 'hosted_page',
        amount: 10_000,
        currency: 'EGP',
      },
      'success',
      0,
    );
    type Step = { kind: 'capture' | 'refund'; amount: number } | { kind: 'void' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constantFrom('capture' as const, 'refund' as const), amount: fc.integer({ min: -5, max: 12_000 }) }),
      fc.constant({ kind: 'void' as const }),
    );

    it('never lets captured exceed authorized or refunded exceed captured, and a refusal changes nothing', () => {
      fc.assert(
        fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
          let current: SandboxOrder = authorized;
          for (const s of steps) {
            const result =
              s.kind === 'void'
                ? voidAuthorization(current, 1)
                : (s.kind === 'capture' ? capture : refund)(current, s.amount, 'EGP', 1);
            if (result.ok) current = result.order;
            assert.ok(current.capturedAmount <= current.authorizedAmount);
            assert.ok(current.refundedAmount <= current.capturedAmount);
            if (current.state === 'voided') assert.equal(current.capturedAmount, 0);
          }
        }),
      );
    });
  });
});
