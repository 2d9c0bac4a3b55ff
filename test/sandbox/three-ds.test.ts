/**
 * 3-D Secure services over loopback HTTP: 3DS_ENROLLMENT, the issuer's page and its post to
 * merchant_3ds_url, 3DS_AUTHENTICATION in both processor shapes, External MPI on a charge, Check
 * 3-D Secure and CVV suppression, for each 3-D Secure test card.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '../../src/core/field-errors.ts';
import { threeDsAuthenticationResponse, threeDsEnrollmentResponse } from '../../src/core/schemas/index.ts';
import { SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { PAGE_SESSION_MS, testCard, type CardOutcome } from '../../src/sandbox/test-cards.ts';
import { callApi, postForm, postJson, signedAs, startLoopback, type LoopbackGateway } from './loopback.ts';
import { challengeOf, formAction, FUTURE_EXPIRY, hiddenFields, PAST_EXPIRY, START } from './support.ts';

const M = SANDBOX_MERCHANT;
const BASIC = SANDBOX_MERCHANT_BASIC;
const MERCHANT_3DS_URL = 'http://shop.test/3ds-return';
let lb: LoopbackGateway;
let references = 0;

before(async () => {
  lb = await startLoopback();
});
after(() => lb.close());
beforeEach(() => {
  lb.gateway.reset();
  lb.clock.set(START);
});

const nextReference = (): string => `3ds-${++references}`;

function enroll(reference: string, number: string, merchant: SandboxMerchant = M, extra: Record<string, unknown> = {}) {
  return callApi(
    lb,
    {
      service_command: '3DS_ENROLLMENT',
      merchant_reference: reference,
      amount: '10000',
      currency: 'EGP',
      language: 'en',
      card_number: number,
      expiry_date: FUTURE_EXPIRY.yymm,
      merchant_3ds_url: MERCHANT_3DS_URL,
      ...extra,
    },
    merchant,
  );
}

const authenticate = (reference: string, thirdPartyBody: string, merchant: SandboxMerchant = M) =>
  callApi(lb, { service_command: '3DS_AUTHENTICATION', merchant_reference: reference, language: 'en', third_party_body: thirdPartyBody }, merchant);

/** The customer on the issuer's page: Approve or Fail; returns what the page posts to merchant_3ds_url. */
async function onIssuerPage(threeDsUrl: string, decision: 'approve' | 'fail'): Promise<Record<string, string>> {
  const page = await fetch(threeDsUrl);
  assert.equal(page.status, 200);
  const answered = await postForm(`${lb.origin}${lb.gateway.paths.acs}`, { challenge: challengeOf(await page.text()), decision });
  const html = await answered.text();
  assert.equal(formAction(html), MERCHANT_3DS_URL, 'the issuer posts its parameters to merchant_3ds_url');
  return hiddenFields(html);
}

function charge(number: string, extra: Record<string, unknown> = {}, merchant: SandboxMerchant = M) {
  return callApi(
    lb,
    {
      command: 'PURCHASE',
      merchant_reference: nextReference(),
      amount: '10000',
      currency: 'EGP',
      language: 'en',
      customer_email: 'buyer@example.com',
      card_number: number,
      expiry_date: FUTURE_EXPIRY.yymm,
      card_security_code: '123',
      return_url: 'http://shop.test/return',
      ...extra,
    },
    merchant,
  );
}

const card = (outcome: CardOutcome, brand: 'VISA' | 'MASTERCARD' = 'VISA') => testCard(outcome, brand).number;

describe('3-D Secure services', () => {
  describe('with a processor of the first type (the 3-D Secure card)', () => {
    it('enrolls (44000), the issuer’s page posts its parameters, and authentication answers the result', async () => {
      const reference = nextReference();
      const enrollment = await enroll(reference, card('3ds'));
      assert.deepEqual([enrollment['response_code'], enrollment['status']], ['44000', '44']);
      assert.equal(enrollment['3ds_enrolled'], 'Y');
      assert.equal(enrollment['card_number'], '400000******3220');
      assert.ok(String(enrollment['3ds_url']).startsWith(`${lb.origin}${lb.gateway.paths.acs}?id=`), 'the issuer’s page is on the gateway’s host');
      assert.ok(!('MD' in enrollment));
      assert.ok(validate(threeDsEnrollmentResponse, enrollment, 'en').ok);

      const processor = await onIssuerPage(String(enrollment['3ds_url']), 'approve');
      assert.equal(processor['threeds_id'], enrollment['threeds_id']);
      assert.equal(processor['acs_result'], 'Y');

      const answer = await authenticate(reference, new URLSearchParams(processor).toString());
      assert.deepEqual([answer['response_code'], answer['status']], ['44000', '44']);
      assert.equal(answer['threeds_id'], enrollment['threeds_id']);
      assert.equal(answer['3ds_enrolled'], 'Y');
      assert.equal(answer['3ds_status'], 'Y');
      assert.equal(answer['3ds_eci'], '05');
      assert.match(String(answer['3ds_xid']), /^[A-Za-z0-9+/=]{20,}$/);
      assert.match(String(answer['ver_token']), /^[A-Za-z0-9+/=]{20,}$/);
      assert.ok(validate(threeDsAuthenticationResponse, answer, 'en').ok);

      assert.equal((await authenticate(reference, new URLSearchParams(processor).toString()))['response_code'], '45003', 'a check authenticates once');
    });

    it('answers status N and ECI 07 when the customer fails on the issuer’s page (00 for MasterCard)', async () => {
      for (const [brand, eci] of [['VISA', '07'], ['MASTERCARD', '00']] as const) {
        const reference = nextReference();
        const enrollment = await enroll(reference, card('3ds', brand));
        const processor = await onIssuerPage(String(enrollment['3ds_url']), 'fail');
        const answer = await authenticate(reference, new URLSearchParams(processor).toString());
        assert.equal(answer['3ds_status'], 'N');
        assert.equal(answer['3ds_eci'], eci);
        assert.match(String(answer['ver_token']), /^[A-Za-z0-9+/=]{20,}$/, 'the spec lists ver_token whatever the status');
        assert.ok(validate(threeDsAuthenticationResponse, answer, 'en').ok);
      }
    });

    it('refuses authentication before the issuer’s page is answered (45004), with a forged proof or for another order (45003)', async () => {
      const reference = nextReference();
      const enrollment = await enroll(reference, card('3ds'));
      const id = String(enrollment['threeds_id']);
      assert.equal((await authenticate(reference, `threeds_id=${id}&acs_result=Y&acs_reference=x`))['response_code'], '45004');
      const processor = await onIssuerPage(String(enrollment['3ds_url']), 'approve');
      assert.equal((await authenticate(reference, new URLSearchParams({ ...processor, acs_reference: 'forged' }).toString()))['response_code'], '45003');
      assert.equal((await authenticate('another-order', new URLSearchParams(processor).toString()))['response_code'], '45003');
      assert.equal((await authenticate(reference, new URLSearchParams(processor).toString()))['response_code'], '44000');
    });

    it('lets a check lapse with the page session (45003)', async () => {
      const reference = nextReference();
      const enrollment = await enroll(reference, card('3ds'));
      const processor = await onIssuerPage(String(enrollment['3ds_url']), 'approve');
      lb.clock.advance(PAGE_SESSION_MS);
      assert.equal((await authenticate(reference, new URLSearchParams(processor).toString()))['response_code'], '45003');
    });
  });

  describe('with a processor of the second type', () => {
    it('answers MD and PaRes with the enrollment, sent back as MD=…&PaRes=…', async () => {
      const reference = nextReference();
      const enrollment = await enroll(reference, card('3ds_md_pares'));
      assert.equal(enrollment['3ds_enrolled'], 'Y');
      assert.ok(!('3ds_url' in enrollment));
      const body = `MD=${encodeURIComponent(String(enrollment['MD']))}&PaRes=${encodeURIComponent(String(enrollment['PaRes']))}`;
      const answer = await authenticate(reference, body);
      assert.equal(answer['response_code'], '44000');
      assert.equal(answer['3ds_status'], 'Y');
      assert.equal(answer['threeds_id'], enrollment['threeds_id']);
    });

    it('authenticates the failing card to status N', async () => {
      const reference = nextReference();
      const enrollment = await enroll(reference, card('3ds_fails'));
      const answer = await authenticate(reference, new URLSearchParams({ MD: String(enrollment['MD']), PaRes: String(enrollment['PaRes']) }).toString());
      assert.equal(answer['response_code'], '44000');
      assert.equal(answer['3ds_status'], 'N');
    });
  });

  describe('a card that is not enrolled', () => {
    it('answers 3ds_enrolled N with nothing to authenticate, and refuses authentication (45002)', async () => {
      const reference = nextReference();
      const enrollment = await enroll(reference, card('3ds_not_enrolled'));
      assert.equal(enrollment['3ds_enrolled'], 'N');
      assert.ok(!('3ds_url' in enrollment) && !('MD' in enrollment));
      const answer = await authenticate(reference, `threeds_id=${String(enrollment['threeds_id'])}`);
      assert.equal(answer['response_code'], '45002');
      assert.equal(answer['response_message'], 'Card not enrolled in 3-D Secure');
    });

    it('is charged without a challenge', async () => {
      assert.equal((await charge(card('3ds_not_enrolled')))['response_code'], '14000');
    });
  });

  describe('enrollment refusals', () => {
    it('refuses an invalid card (45001), an expired one (00011) and a request signed wrongly (00008)', async () => {
      assert.equal((await enroll(nextReference(), card('invalid_card')))['response_code'], '45001');
      assert.equal((await enroll(nextReference(), card('3ds'), M, { expiry_date: PAST_EXPIRY.yymm }))['response_code'], '00011');
      const body = await signedAs(M, { service_command: '3DS_ENROLLMENT', merchant_reference: 'x', amount: '1', currency: 'EGP', language: 'en', card_number: card('3ds'), expiry_date: FUTURE_EXPIRY.yymm, merchant_3ds_url: MERCHANT_3DS_URL });
      assert.equal((await postJson(lb.paymentApiUrl, { ...body, amount: '2' })).fields['response_code'], '00008');
    });

    it('answers in XML when asked, signed over the same fields', async () => {
      const answer = await postJson(
        lb.paymentApiUrl,
        await signedAs(M, { service_command: '3DS_ENROLLMENT', merchant_reference: nextReference(), amount: '10000', currency: 'EGP', language: 'en', card_number: card('3ds'), expiry_date: FUTURE_EXPIRY.yymm, merchant_3ds_url: MERCHANT_3DS_URL, response_format: 'XML' }),
      );
      assert.match(answer.contentType, /^application\/xml/);
      assert.match(answer.text, /<_3ds_enrolled>Y<\/_3ds_enrolled>/);
      assert.ok(answer.verified);
      assert.equal(answer.fields['3ds_enrolled'], 'Y');
    });
  });

  describe('External MPI', () => {
    async function authenticated(outcome: CardOutcome, decision: 'approve' | 'fail'): Promise<Record<string, unknown>> {
      const reference = nextReference();
      const enrollment = await enroll(reference, card(outcome));
      const processor = await onIssuerPage(String(enrollment['3ds_url']), decision);
      return authenticate(reference, new URLSearchParams(processor).toString());
    }
    const mpiOf = (answer: Record<string, unknown>) => ({
      '3ds_enrolled': answer['3ds_enrolled'],
      '3ds_status': answer['3ds_status'],
      '3ds_eci': answer['3ds_eci'],
      '3ds_xid': answer['3ds_xid'],
      ver_token: answer['ver_token'],
    });

    it('charges the 3-D Secure card with an authentication done elsewhere, without a challenge', async () => {
      const result = mpiOf(await authenticated('3ds', 'approve'));
      const answer = await charge(card('3ds'), result);
      assert.equal(answer['response_code'], '14000');
      assert.ok(!('3ds_url' in answer));
      assert.equal(answer['3ds_status'], 'Y', 'the MPI fields are echoed');
    });

    it('declines a failed authentication (13004 / 03004)', async () => {
      const result = mpiOf(await authenticated('3ds', 'fail'));
      assert.equal((await charge(card('3ds'), result))['response_code'], '13004');
      assert.equal((await charge(card('3ds'), { ...result, command: 'AUTHORIZATION' }))['response_code'], '03004');
    });

    it('charges a card the MPI found not enrolled, and asks for what an enrolled result lacks (00001)', async () => {
      assert.equal((await charge(card('success'), { '3ds_enrolled': 'N' }))['response_code'], '14000');
      const missing = await charge(card('3ds'), { '3ds_enrolled': 'Y', '3ds_status': 'Y', '3ds_eci': '05' });
      assert.equal(missing['response_code'], '00001');
      assert.match(String(missing['response_message']), /3ds_xid: is required/);
      assert.equal((await charge(card('3ds'), { '3ds_status': 'Y' }))['response_code'], '00001');
    });
  });

  describe('charging the enrolled cards directly', () => {
    it('meets the challenge page; the failing card’s challenge declines even when approved', async () => {
      const pending = await charge(card('3ds_fails'));
      assert.equal(pending['response_code'], '20000');
      const page = await fetch(String(pending['3ds_url']));
      const answered = await postForm(`${lb.origin}${lb.gateway.paths.challenge}`, { challenge: challengeOf(await page.text()), decision: 'approve' });
      assert.equal(hiddenFields(await answered.text())['response_code'], '13004');
      assert.equal((await charge(card('3ds_md_pares')))['response_code'], '20000');
    });

    it('asks no challenge of a MOTO charge: the customer is not there to answer it', async () => {
      assert.equal((await charge(card('3ds'), { eci: 'MOTO' }))['response_code'], '14000');
    });
  });

  describe('Check 3-D Secure', () => {
    it('skips the challenge with check_3ds NO where the account has it activated', async () => {
      assert.equal((await charge(card('3ds'), { check_3ds: 'NO' }))['response_code'], '14000');
      assert.equal((await charge(card('3ds'), { check_3ds: 'YES' }))['response_code'], '20000');
    });

    it('skips the challenge of the hosted page too', async () => {
      const fields = await signedAs(M, {
        command: 'PURCHASE',
        merchant_reference: nextReference(),
        amount: '10000',
        currency: 'EGP',
        language: 'en',
        return_url: 'http://shop.test/return',
        check_3ds: 'NO',
      });
      const page = await postForm(`${lb.origin}${lb.gateway.paths.paymentPage}`, fields);
      const session = /name="session" value="([0-9a-f]+)"/.exec(await page.text())?.[1];
      const paid = await postForm(`${lb.origin}${lb.gateway.paths.pageSubmit}`, {
        session,
        card_number: card('3ds'),
        expiry_date: FUTURE_EXPIRY.typed,
        card_security_code: '123',
      });
      assert.equal(paid.status, 200, 'no redirect to a challenge');
      assert.equal(hiddenFields(await paid.text())['response_code'], '14000');
    });

    it('is refused (00014) where it is not activated', async () => {
      const answer = await charge(card('3ds'), { check_3ds: 'NO' }, BASIC);
      assert.equal(answer['response_code'], '00014');
      assert.equal(lb.gateway.orders().length, 0);
    });
  });

  describe('CVV suppression', () => {
    const withoutCvv = { card_security_code: undefined };

    it('lets an e-commerce charge of clear card data come without card_security_code where activated', async () => {
      assert.equal((await charge(card('success'), withoutCvv))['response_code'], '14000');
    });

    it('asks for card_security_code (00001) where it is not, except for MOTO and RECURRING', async () => {
      const answer = await charge(card('success'), withoutCvv, BASIC);
      assert.equal(answer['response_code'], '00001');
      assert.match(String(answer['response_message']), /card_security_code: is required/);
      assert.equal((await charge(card('success'), {}, BASIC))['response_code'], '14000');
      assert.equal((await charge(card('success'), { ...withoutCvv, eci: 'MOTO' }, BASIC))['response_code'], '14000');
      assert.equal((await charge(card('success'), { ...withoutCvv, eci: 'RECURRING' }, BASIC))['response_code'], '14000');
    });
  });

  describe('an account without 3-D Secure services', () => {
    it('answers enrollment, authentication and an External MPI result with 00014', async () => {
      assert.equal((await enroll(nextReference(), card('3ds'), BASIC))['response_code'], '00014');
      assert.equal((await authenticate(nextReference(), 'MD=a&PaRes=b', BASIC))['response_code'], '00014');
      assert.equal((await charge(card('success'), { '3ds_enrolled': 'N' }, BASIC))['response_code'], '00014');
    });
  });
});
