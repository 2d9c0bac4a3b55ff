import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '../../src/core/field-errors.ts';
import { hostedPageResponse } from '../../src/core/schemas/index.ts';
import { SANDBOX_MERCHANT, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { AUTHORIZATION_HOLD_MS, PAGE_SESSION_MS, testCard } from '../../src/sandbox/test-cards.ts';
import {
  answerChallenge,
  FUTURE_EXPIRY,
  hiddenFields,
  hostedFields,
  ORIGIN,
  PAST_EXPIRY,
  payOnHostedPage,
  postForm,
  RETURN_URL,
  returnedAnswer,
  rig,
  sessionOf,
  signed,
} from './support.ts';

describe('hosted payment page', () => {
  describe('when the merchant posts a signed PURCHASE', () => {
    it('shows a card-entry page in the request language with stable field names', async () => {
      const { gateway } = rig();
      const response = await postForm(gateway, gateway.paths.paymentPage, await hostedFields());
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      const html = await response.text();
      assert.match(html, /<html lang="en" dir="ltr">/);
      for (const name of ['card_number', 'expiry_date', 'card_security_code', 'card_holder_name']) {
        assert.match(html, new RegExp(`<label for="${name}">`), `${name} has a label`);
        assert.match(html, new RegExp(`<input id="${name}" name="${name}"`), `${name} has a stable id and name`);
      }
      assert.match(html, /placeholder="MM\/YY"/);
      assert.match(html, /<button type="submit" id="pay" class="Pay">Pay EGP\u00a02,500\.00<\/button>/);
    });

    it('renders Arabic right to left', async () => {
      const { gateway } = rig();
      const html = await (await postForm(gateway, gateway.paths.paymentPage, await hostedFields({ language: 'ar' }))).text();
      assert.match(html, /<html lang="ar" dir="rtl">/);
      assert.match(html, /رقم البطاقة/);
    });

    it('sends a Content-Security-Policy that allows only its own nonce for style and script', async () => {
      const { gateway } = rig();
      const response = await postForm(gateway, gateway.paths.paymentPage, await hostedFields());
      const policy = response.headers.get('content-security-policy') ?? '';
      assert.match(policy, /default-src 'none'/);
      assert.match(policy, /form-action 'self'/);
      const nonce = /style-src 'nonce-([0-9a-f]+)'/.exec(policy)?.[1];
      assert.ok(nonce);
      // The one script reports the page's height to the merchant's page when it is framed.
      assert.match(policy, new RegExp(`script-src 'nonce-${nonce}'(;|$)`));
      const html = await response.text();
      assert.match(html, new RegExp(`<style nonce="${nonce}">`));
      assert.equal(html.match(/<script nonce=/g)?.length, 1);
      assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handlers');
    });
  });

  describe('when the customer pays with the success card', () => {
    it('returns to return_url with a signed 14000 answer that echoes the request', async () => {
      const { gateway } = rig();
      const response = await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('success').number });
      const policy = response.headers.get('content-security-policy') ?? '';
      assert.match(policy, /script-src 'nonce-[0-9a-f]+'/, 'the auto-submit script runs under a nonce');
      assert.match(policy, /form-action 'self' http:\/\/shop\.test/);
      const answer = await returnedAnswer(response);
      assert.equal(answer['response_code'], '14000');
      assert.equal(answer['status'], '14');
      assert.equal(answer['response_message'], 'Success');
      assert.equal(answer['merchant_reference'], 'order-1');
      assert.equal(answer['amount'], '250000');
      assert.equal(answer['customer_email'], 'buyer@example.com');
      assert.equal(answer['order_description'], 'Sandbox order');
      assert.equal(answer['return_url'], RETURN_URL);
      assert.equal(answer['card_number'], '411111******1111');
      assert.equal(answer['expiry_date'], FUTURE_EXPIRY.yymm);
      assert.equal(answer['eci'], 'ECOMMERCE');
      assert.equal(answer['payment_option'], 'VISA');
      assert.match(answer['svc_id'] ?? '', /^\d{1,20}$/);
      assert.match(answer['authorization_code'] ?? '', /^\d{6}$/);
      assert.ok(!('card_security_code' in answer), 'the CVV never comes back');
      assert.ok(validate(hostedPageResponse, answer, 'en').ok, 'the answer fits the spec schema');
    });

    it('stores the card when the request says remember_me=YES, and returns its token_name', async () => {
      const { gateway } = rig();
      const answer = await returnedAnswer(
        await payOnHostedPage(gateway, await hostedFields({ remember_me: 'YES', token_name: 'buyer-7' }), {
          card_number: testCard('success').number,
        }),
      );
      assert.equal(answer['token_name'], 'buyer-7');
      assert.deepEqual(gateway.tokens().map((token) => token.tokenName), ['buyer-7']);
    });

    it('keeps a visible Continue button for browsers without script', async () => {
      const { gateway } = rig();
      const response = await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('success').number });
      const html = await response.text();
      assert.match(html, /<button type="submit" id="continue">Continue<\/button>/);
    });

    it('records a captured order for a PURCHASE', async () => {
      const { gateway } = rig();
      await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('success', 'MASTERCARD').number });
      const order = gateway.order({ merchantReference: 'order-1' });
      assert.equal(order?.state, 'captured');
      assert.equal(order?.capturedAmount, 250000);
      assert.equal(order?.card?.scheme, 'MASTERCARD');
    });

    it('holds the amount for an AUTHORIZATION (02000), voided once the hold period passes', async () => {
      const { gateway, clock } = rig();
      const answer = await returnedAnswer(
        await payOnHostedPage(gateway, await hostedFields({ command: 'AUTHORIZATION' }), { card_number: testCard('success').number }),
      );
      assert.equal(answer['response_code'], '02000');
      assert.equal(gateway.order({ merchantReference: 'order-1' })?.state, 'authorized');
      clock.advance(AUTHORIZATION_HOLD_MS);
      const order = gateway.order({ merchantReference: 'order-1' });
      assert.equal(order?.state, 'voided');
      assert.equal(order?.voidReason, 'hold_expired');
    });
  });

  describe('when the card has a documented failure', () => {
    const cases = [
      ['decline', '13001', '03001'],
      ['insufficient_funds', '13002', '03002'],
      ['invalid_card', '13003', '03003'],
    ] as const;
    for (const [outcome, purchaseCode, authorizationCode] of cases) {
      it(`answers ${purchaseCode} to a PURCHASE and ${authorizationCode} to an AUTHORIZATION for the ${outcome} card`, async () => {
        const { gateway } = rig();
        const purchase = await returnedAnswer(await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard(outcome).number }));
        assert.equal(purchase['response_code'], purchaseCode);
        assert.equal(purchase['status'], purchaseCode.slice(0, 2));
        assert.ok(!('authorization_code' in purchase));
        const authorization = await returnedAnswer(
          await payOnHostedPage(gateway, await hostedFields({ command: 'AUTHORIZATION', merchant_reference: 'order-2' }), {
            card_number: testCard(outcome, 'MASTERCARD').number,
          }),
        );
        assert.equal(authorization['response_code'], authorizationCode);
      });
    }

    it('lets the customer retry the same order after a decline', async () => {
      const { gateway } = rig();
      await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('decline').number });
      const retry = await returnedAnswer(await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('success').number }));
      assert.equal(retry['response_code'], '14000');
    });

    it('treats a Luhn-valid number that is no test card as an invalid card', async () => {
      const { gateway } = rig();
      const answer = await returnedAnswer(await payOnHostedPage(gateway, await hostedFields(), { card_number: '4242424242424242' }));
      assert.equal(answer['response_code'], '13003');
    });
  });

  describe('when the 3-D Secure card is used', () => {
    it('sends the customer to a challenge page; approving returns 14000', async () => {
      const { gateway } = rig();
      const response = await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('3ds').number });
      assert.equal(response.status, 303);
      const location = response.headers.get('location') ?? '';
      assert.ok(location.startsWith(`${ORIGIN}${gateway.paths.challenge}?id=`));
      assert.equal(gateway.order({ merchantReference: 'order-1' })?.state, 'pending_3ds');
      const answer = await returnedAnswer(await answerChallenge(gateway, location, 'approve'));
      assert.equal(answer['response_code'], '14000');
      assert.equal(gateway.order({ merchantReference: 'order-1' })?.state, 'captured');
    });

    it('answers 13004 when the customer fails the challenge', async () => {
      const { gateway } = rig();
      const response = await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('3ds', 'MASTERCARD').number });
      const answer = await returnedAnswer(await answerChallenge(gateway, response.headers.get('location') ?? '', 'fail'));
      assert.equal(answer['response_code'], '13004');
      assert.equal(gateway.order({ merchantReference: 'order-1' })?.state, 'declined');
    });

    it('declines a challenge left open past the page session', async () => {
      const { gateway, clock } = rig();
      await payOnHostedPage(gateway, await hostedFields({ command: 'AUTHORIZATION' }), { card_number: testCard('3ds').number });
      clock.advance(PAGE_SESSION_MS);
      const order = gateway.order({ merchantReference: 'order-1' });
      assert.equal(order?.state, 'declined');
      assert.equal(order?.operations.at(-1)?.code, '03004');
    });
  });

  describe('when the card entry is wrong', () => {
    it('shows the page again with localized errors and no charge', async () => {
      const { gateway } = rig();
      const response = await payOnHostedPage(gateway, await hostedFields({ language: 'ar' }), {
        card_number: '4111111111111112',
        expiry_date: PAST_EXPIRY.typed,
        card_security_code: '12',
      });
      assert.equal(response.status, 422);
      const html = await response.text();
      assert.match(html, /role="alert"/);
      assert.match(html, /رقم البطاقة غير صالح/);
      assert.match(html, /انتهت صلاحية هذه البطاقة/);
      assert.match(html, /رمز الأمان من ٣ أو ٤ أرقام/);
      assert.match(html, /<input id="card_number"[^>]*aria-invalid="true"/);
      assert.doesNotMatch(html, /4111111111111112/, 'the typed card number is not written back');
      assert.equal(gateway.orders().length, 0);
    });

    it('refuses an expiry in the past and accepts the same card once corrected', async () => {
      const { gateway } = rig();
      const page = await postForm(gateway, gateway.paths.paymentPage, await hostedFields());
      const session = sessionOf(await page.text());
      const card = { session, card_number: testCard('success').number, card_security_code: '123' };
      const refused = await postForm(gateway, gateway.paths.pageSubmit, { ...card, expiry_date: PAST_EXPIRY.typed });
      assert.equal(refused.status, 422);
      assert.match(await refused.text(), /This card has expired/);
      const accepted = await postForm(gateway, gateway.paths.pageSubmit, { ...card, expiry_date: FUTURE_EXPIRY.typed });
      assert.equal((await returnedAnswer(accepted))['response_code'], '14000');
    });

    it('says the page expired when the session is older than the page lifetime', async () => {
      const { gateway, clock } = rig();
      const page = await postForm(gateway, gateway.paths.paymentPage, await hostedFields());
      const session = sessionOf(await page.text());
      clock.advance(PAGE_SESSION_MS);
      const response = await postForm(gateway, gateway.paths.pageSubmit, {
        session,
        card_number: testCard('success').number,
        expiry_date: FUTURE_EXPIRY.typed,
        card_security_code: '123',
      });
      assert.equal(response.status, 410);
      assert.equal(gateway.orders().length, 0);
    });
  });

  describe('the security code', () => {
    const withoutCvvSuppression: SandboxMerchant = { ...SANDBOX_MERCHANT, services: { cvv_suppression: false } };

    it('is required, and says so, where the account has no CVV suppression', async () => {
      const { gateway } = rig({ merchants: [withoutCvvSuppression] });
      const html = await (await postForm(gateway, gateway.paths.paymentPage, await hostedFields())).text();
      assert.match(html, /<label for="card_security_code">Security code<\/label>/);
      assert.match(html, /<input id="card_security_code"[^>]* required[^>]* aria-describedby="card_security_code-hint"/);
      const refused = await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('success').number, card_security_code: '' });
      assert.equal(refused.status, 422);
      assert.match(await refused.text(), /Enter the security code\./);
      assert.equal(gateway.orders().length, 0);
    });

    for (const [language, label, hint] of [
      ['en', 'Security code (optional)', 'You may leave it empty. Otherwise, the 3 digits on the back of the card.'],
      ['ar', 'رمز الأمان (اختياري)', 'يمكنك تركه فارغًا، وإلا فأدخل الأرقام الثلاثة على ظهر البطاقة.'],
    ] as const) {
      it(`is optional, and says so (${language}), where the account has CVV suppression`, async () => {
        const { gateway } = rig();
        const html = await (await postForm(gateway, gateway.paths.paymentPage, await hostedFields({ language }))).text();
        assert.match(html, new RegExp(`<label for="card_security_code">${label.replace(/[()]/g, '\\$&')}</label><span class="hint" id="card_security_code-hint">${hint}</span>`));
        const input = /<input id="card_security_code"[^>]*>/.exec(html)?.[0] ?? '';
        assert.doesNotMatch(input, / required/);
        assert.match(input, /aria-describedby="card_security_code-hint"/);
      });
    }

    it('may be left empty where the account has CVV suppression: the card is charged (14000)', async () => {
      const { gateway } = rig();
      const paid = await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('success').number, card_security_code: '' });
      assert.equal((await returnedAnswer(paid))['response_code'], '14000');
    });

    it('is still checked when typed', async () => {
      const { gateway } = rig();
      const refused = await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('success').number, card_security_code: '12' });
      assert.equal(refused.status, 422);
      assert.match(await refused.text(), /The security code is 3 or 4 digits\./);
    });
  });

  describe('when the request offers installments (STANDALONE)', () => {
    it('offers the plans of the order currency and amount, grouped by issuer', async () => {
      const { gateway } = rig();
      const html = await (await postForm(gateway, gateway.paths.paymentPage, await hostedFields({ installments: 'STANDALONE' }))).text();
      assert.match(html, /<select id="installment_plan" name="installment_plan"/);
      assert.match(html, /<optgroup label="Sandbox Nile Bank">/);
      // The first plan is preselected; its monthly amount comes from the core formulas.
      assert.match(html, /<option value="EGFIX1:EGX06" selected>6 months, EGP\u00a0\d+\.\d{2} a month<\/option>/);
      assert.match(html, /<option value="EGMIX1:EGF06">/);
      assert.doesNotMatch(html, /AEFLAT1|SAREDU1/, 'plans of other currencies are not offered');
    });

    it('writes the months and monthly amounts of the plans in Arabic-Indic digits in Arabic', async () => {
      const { gateway } = rig();
      const html = await (
        await postForm(gateway, gateway.paths.paymentPage, await hostedFields({ installments: 'STANDALONE', language: 'ar' }))
      ).text();
      assert.match(html, /<option value="EGFIX1:EGX06" selected>٦ أشهر، \u200f?[٠-٩٬]+٫[٠-٩]{2}\u00a0ج\.م\.\u200f? شهريًا<\/option>/);
      assert.match(html, /<option value="EGFIX1:EGX12">١٢ شهرًا، /);
      assert.match(html, /من ١٣ إلى ١٩ رقمًا كما هو مطبوع على البطاقة/);
    });

    it('returns the installments fields the specification lists for a redirection: installments and number_of_installments, not the plan or issuer codes', async () => {
      const { gateway } = rig();
      const answer = await returnedAnswer(
        await payOnHostedPage(gateway, await hostedFields({ installments: 'STANDALONE' }), {
          card_number: testCard('success', 'MASTERCARD').number,
          installment_plan: 'EGMIX1:EGF06',
        }),
      );
      assert.equal(answer['response_code'], '14000');
      assert.equal(answer['installments'], 'STANDALONE');
      assert.equal(answer['number_of_installments'], '6');
      assert.ok(!('plan_code' in answer) && !('issuer_code' in answer));
    });

    it('refuses a plan of a bank that did not issue the card', async () => {
      const { gateway } = rig();
      const response = await payOnHostedPage(gateway, await hostedFields({ installments: 'STANDALONE' }), {
        card_number: testCard('success', 'VISA').number,
        installment_plan: 'EGMIX1:EGF06',
      });
      assert.equal(response.status, 422);
      assert.match(await response.text(), /This card is not issued by Sandbox Delta Bank/);
    });

    it('lets the customer pay in full instead', async () => {
      const { gateway } = rig();
      const answer = await returnedAnswer(
        await payOnHostedPage(gateway, await hostedFields({ installments: 'STANDALONE' }), {
          card_number: testCard('success').number,
          installment_plan: '',
        }),
      );
      assert.equal(answer['response_code'], '14000');
      assert.ok(!('plan_code' in answer));
    });
  });

  describe('when the request names no return_url', () => {
    it('posts to the merchant’s back-office return address', async () => {
      const { gateway } = rig({ merchants: [{ ...(await import('../../src/sandbox/merchants.ts')).SANDBOX_MERCHANT, returnUrl: 'http://shop.test/default-return' }] });
      const fields = await signed({ command: 'PURCHASE', merchant_reference: 'order-1', amount: '1000', currency: 'EGP', language: 'en' });
      const answer = await returnedAnswer(await payOnHostedPage(gateway, fields, { card_number: testCard('success').number }), 'http://shop.test/default-return');
      assert.equal(answer['response_code'], '14000');
    });

    it('shows the signed answer when there is no return address at all', async () => {
      const { gateway } = rig();
      const fields = await signed({ command: 'PURCHASE', merchant_reference: 'order-1', amount: '1000', currency: 'EGP', language: 'en' });
      const response = await payOnHostedPage(gateway, fields, { card_number: testCard('decline').number });
      assert.equal(response.status, 400);
      const html = await response.text();
      assert.match(html, /<dt>response_code<\/dt><dd><span dir="ltr">13001<\/span><\/dd>/);
      assert.throws(() => hiddenFields(html));
    });
  });
});
