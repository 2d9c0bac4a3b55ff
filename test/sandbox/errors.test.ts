import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { responseMessage } from '../../src/core/response.ts';
import { signParams } from '../../src/core/signature.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import {
  api,
  hostedFields,
  M,
  ORIGIN,
  payOnHostedPage,
  postApi,
  postForm,
  returnedAnswer,
  rig,
  signed,
  verifiesAsGateway,
  withIdentity,
  type Rig,
} from './support.ts';

/** An authorized order to aim maintenance requests at. */
async function authorizedOrder({ gateway }: Rig): Promise<string> {
  await payOnHostedPage(gateway, await hostedFields({ command: 'AUTHORIZATION' }), { card_number: testCard('success').number });
  const order = gateway.order({ merchantReference: 'order-1' });
  assert.equal(order?.state, 'authorized');
  return order.svcId;
}

function captureParams(svcId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: 'CAPTURE',
    merchant_reference: 'order-1',
    amount: '1000',
    currency: 'EGP',
    language: 'en',
    svc_id: svcId,
    ...overrides,
  };
}

describe('refused requests', () => {
  describe('when the signature does not match', () => {
    it('answers 00008 in the request language, signed, and captures nothing', async () => {
      const r = rig();
      const svcId = await authorizedOrder(r);
      for (const language of ['en', 'ar'] as const) {
        const body = { ...(await signed(captureParams(svcId, { language }))), amount: '2000' };
        const answer = await postApi(r.gateway, body);
        assert.equal(answer['response_code'], '00008');
        assert.equal(answer['status'], '00');
        assert.equal(answer['response_message'], responseMessage('00008', language));
        assert.ok(await verifiesAsGateway(answer));
      }
      assert.equal(r.gateway.order({ svcId })?.capturedAmount, 0);
    });

    it('refuses a request signed with the response phrase', async () => {
      const { gateway } = rig();
      const body = await signParams(
        withIdentity({ query_command: 'CHECK_STATUS', merchant_reference: 'order-1', language: 'en' }),
        M.responsePhrase,
        M.shaType,
      );
      assert.equal((await postApi(gateway, body))['response_code'], '00008');
    });

    it('refuses a merchant-page signature on a request that must sign every field', async () => {
      const r = rig();
      const svcId = await authorizedOrder(r);
      const body = await signParams(withIdentity({ ...captureParams(svcId), card_holder_name: 'X' }), M.requestPhrase, M.shaType, {
        merchantPage: true,
      });
      assert.equal((await postApi(r.gateway, body))['response_code'], '00008');
    });

    it('sends a hosted-page customer back to return_url with a signed 00008 and opens no page', async () => {
      const { gateway } = rig();
      const fields = { ...(await hostedFields({ language: 'ar' })), amount: '1' };
      const answer = await returnedAnswer(await postForm(gateway, gateway.paths.paymentPage, fields));
      assert.equal(answer['response_code'], '00008');
      assert.equal(answer['response_message'], 'التوقيع غير مطابق');
      assert.equal(gateway.orders().length, 0);
    });

    it('answers 00001 when the signature is missing', async () => {
      const { gateway } = rig();
      const answer = await postApi(gateway, withIdentity({ query_command: 'CHECK_STATUS', merchant_reference: 'order-1', language: 'en' }));
      assert.equal(answer['response_code'], '00001');
      assert.match(String(answer['response_message']), /signature: is required/);
    });
  });

  describe('when the merchant cannot be identified', () => {
    it('answers an unknown merchant_identifier with 00006, unsigned', async () => {
      const { gateway } = rig();
      const answer = await postApi(gateway, {
        ...(await signed({ query_command: 'CHECK_STATUS', merchant_reference: 'order-1', language: 'en' })),
        merchant_identifier: 'someoneElse',
      });
      assert.equal(answer['response_code'], '00006');
      assert.ok(!('signature' in answer), 'nothing is signed for a stranger');
    });

    it('answers a wrong access_code with 00006', async () => {
      const { gateway } = rig();
      const answer = await postApi(gateway, {
        ...(await signed({ query_command: 'CHECK_STATUS', merchant_reference: 'order-1', language: 'en' })),
        access_code: 'wrongAccessCode',
      });
      assert.equal(answer['response_code'], '00006');
    });
  });

  describe('when a field breaks the spec’s rules', () => {
    it('answers a missing mandatory field with 00001, naming it, in English and Arabic', async () => {
      const r = rig();
      const svcId = await authorizedOrder(r);
      const english = await api(r.gateway, { ...captureParams(svcId), merchant_reference: undefined });
      assert.equal(english['response_code'], '00001');
      assert.equal(english['status'], '00');
      assert.equal(english['response_message'], 'Missing parameter: merchant_reference: is required');
      const arabic = await api(r.gateway, { ...captureParams(svcId, { language: 'ar' }), merchant_reference: undefined });
      assert.equal(arabic['response_message'], 'معامل مفقود: merchant_reference: هذا الحقل مطلوب');
      assert.equal(r.gateway.order({ svcId })?.capturedAmount, 0);
    });

    it('answers an over-long merchant_reference with 00003', async () => {
      const { gateway } = rig();
      const answer = await api(gateway, { query_command: 'CHECK_STATUS', merchant_reference: 'r'.repeat(41), language: 'en' });
      assert.equal(answer['response_code'], '00003');
      assert.equal(answer['response_message'], 'Parameter too long: merchant_reference: must be at most 40 characters');
      const arabic = await api(gateway, { query_command: 'CHECK_STATUS', merchant_reference: 'r'.repeat(41), language: 'ar' });
      assert.equal(arabic['response_message'], 'المعامل أطول من المسموح: merchant_reference: يجب ألا يزيد عن ٤٠ حرفًا');
    });

    it('answers an over-long amount with 00003', async () => {
      const r = rig();
      const svcId = await authorizedOrder(r);
      const answer = await api(r.gateway, captureParams(svcId, { amount: '12345678901' }));
      assert.equal(answer['response_code'], '00003');
    });

    it('answers characters outside the field’s set with 00004', async () => {
      const { gateway } = rig();
      const answer = await api(gateway, { query_command: 'CHECK_STATUS', merchant_reference: 'order#1', language: 'en' });
      assert.equal(answer['response_code'], '00004');
      assert.match(String(answer['response_message']), /^Invalid character set: merchant_reference: may contain only Latin letters and digits, plus - _ \./);
      const arabic = await api(gateway, { query_command: 'CHECK_STATUS', merchant_reference: 'طلب-1', language: 'ar' });
      assert.equal(arabic['response_code'], '00004');
      assert.match(String(arabic['response_message']), /^أحرف غير مسموح بها: merchant_reference:/);
    });

    it('sends the hosted-page customer back with the field error', async () => {
      const { gateway } = rig();
      const answer = await returnedAnswer(
        await postForm(gateway, gateway.paths.paymentPage, await hostedFields({ merchant_reference: 'order 1' })),
      );
      assert.equal(answer['response_code'], '00004');
      assert.equal(gateway.orders().length, 0);
    });

    it('answers an unknown command with 00002', async () => {
      const { gateway } = rig();
      const answer = await api(gateway, { command: 'TELEPORT', merchant_reference: 'order-1', language: 'en' });
      assert.equal(answer['response_code'], '00002');
      assert.match(String(answer['response_message']), /command: must be one of/);
      assert.ok(await verifiesAsGateway(answer));
    });

    it('answers a body that is not JSON with HTTP 400 and 00002', async () => {
      const { gateway } = rig();
      const response = await gateway.handle(
        new Request(`${ORIGIN}${gateway.paths.paymentApi}`, { method: 'POST', body: 'command=CAPTURE' }),
      );
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as Record<string, unknown>)['response_code'], '00002');
    });

    it('allows only POST on paymentApi', async () => {
      const { gateway } = rig();
      const response = await gateway.handle(new Request(`${ORIGIN}${gateway.paths.paymentApi}`));
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    });
  });

  describe('when the merchant_reference is already used', () => {
    it('answers 00005 on the hosted page and leaves the first order as it was', async () => {
      const { gateway } = rig();
      await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('success').number });
      const before = gateway.order({ merchantReference: 'order-1' });
      const answer = await returnedAnswer(await postForm(gateway, gateway.paths.paymentPage, await hostedFields({ amount: '1' })));
      assert.equal(answer['response_code'], '00005');
      assert.equal(answer['response_message'], 'Duplicate merchant reference');
      assert.deepEqual(gateway.orders(), before ? [before] : []);
    });

    it('answers 00005 when two open pages for one reference both complete', async () => {
      const { gateway } = rig();
      const first = await postForm(gateway, gateway.paths.paymentPage, await hostedFields());
      const second = await postForm(gateway, gateway.paths.paymentPage, await hostedFields());
      const card = { card_number: testCard('success').number, expiry_date: '08/29', card_security_code: '123' };
      const sessionOf = async (response: Response) => /name="session" value="([0-9a-f]+)"/.exec(await response.text())?.[1];
      const [a, b] = [await sessionOf(first), await sessionOf(second)];
      assert.equal((await returnedAnswer(await postForm(gateway, gateway.paths.pageSubmit, { session: a, ...card })))['response_code'], '14000');
      assert.equal((await returnedAnswer(await postForm(gateway, gateway.paths.pageSubmit, { session: b, ...card })))['response_code'], '00005');
      assert.equal(gateway.orders().length, 1);
    });
  });

  describe('every answer', () => {
    it('echoes every request parameter, optional ones and merchant_extra included', async () => {
      const { gateway } = rig();
      const request = {
        query_command: 'CHECK_STATUS',
        merchant_reference: 'unknown-order',
        language: 'en',
        return_third_party_response_codes: 'NO',
      };
      const answer = await api(gateway, request);
      for (const [name, value] of Object.entries(withIdentity(request))) assert.equal(answer[name], value, name);
      assert.equal(answer['response_code'], '12001');
      assert.ok(await verifiesAsGateway(answer));
    });
  });
});
