/**
 * The sandbox's card page as a customer meets it: a way back to the shop (the merchant hears of a
 * payment the customer cancelled), and the test cards with what each does, in English and Arabic.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CUSTOMER_CANCEL_CODE, describeOutcome } from '../../src/core/customer-outcome.ts';
import { classifyResponse } from '../../src/core/response.ts';
import { TEST_CARDS } from '../../src/sandbox/test-cards.ts';
import { hostedFields, postForm, RETURN_URL, returnedAnswer, rig, sessionOf, verifiesAsGateway } from './support.ts';

async function cardPageHtml(language: 'en' | 'ar'): Promise<{ html: string; gateway: ReturnType<typeof rig>['gateway'] }> {
  const { gateway } = rig();
  const response = await postForm(gateway, gateway.paths.paymentPage, await hostedFields({ language }));
  assert.equal(response.status, 200);
  return { html: await response.text(), gateway };
}

describe('the sandbox card page', () => {
  for (const [language, backToShop, hintTitle, approved] of [
    ['en', 'Back to the shop', 'Test cards', 'Approved'],
    ['ar', 'العودة إلى المتجر', 'بطاقات الاختبار', 'تتم الموافقة'],
  ] as const) {
    describe(`in ${language === 'en' ? 'English' : 'Arabic'}`, () => {
      it('lists every test card, grouped by four and kept left to right, with what it does', async () => {
        const { html } = await cardPageHtml(language);
        assert.match(html, new RegExp(`<details class="test-cards" id="test-cards"><summary>${hintTitle}</summary>`));
        for (const card of TEST_CARDS) {
          const grouped = card.number.replace(/(\d{4})(?=\d)/g, '$1 ');
          assert.ok(html.includes(`<span class="number" dir="ltr">${grouped}</span>`), `${card.number} is listed`);
        }
        assert.match(html, new RegExp(`4111 1111 1111 1111</span></td><td>${approved}</td>`));
      });

      it('offers a way back to the shop after the Pay button, so Enter in a field still pays', async () => {
        const { html } = await cardPageHtml(language);
        const pay = html.indexOf('id="pay"');
        const back = html.indexOf('id="back-to-shop"');
        assert.ok(pay > 0 && back > pay, 'Back to the shop follows Pay');
        assert.match(html, new RegExp(`id="back-to-shop" class="link">${backToShop}</button>`));
      });
    });
  }

  it('sends the customer back to the shop with a signed answer of a payment they cancelled', async () => {
    const { html, gateway } = await cardPageHtml('ar');
    const response = await postForm(gateway, gateway.paths.pageSubmit, { session: sessionOf(html), cancel: 'cancel' });
    const answer = await returnedAnswer(response, RETURN_URL);
    assert.equal(answer['response_code'], CUSTOMER_CANCEL_CODE);
    assert.equal(answer['status'], '00');
    assert.equal(answer['merchant_reference'], 'order-1');
    assert.ok(await verifiesAsGateway(answer), 'signed by the gateway');
    assert.equal(classifyResponse(answer), 'failure');
    assert.equal(describeOutcome({ outcome: 'failure', response_code: answer['response_code'] }, 'en').title, 'Payment cancelled');
    assert.equal(gateway.order({ merchantReference: 'order-1' }), undefined, 'nothing was charged');
  });

  it('leaves the reference free: the customer can come back and pay the same order', async () => {
    const { html, gateway } = await cardPageHtml('en');
    await postForm(gateway, gateway.paths.pageSubmit, { session: sessionOf(html), cancel: 'cancel' });
    const again = await postForm(gateway, gateway.paths.paymentPage, await hostedFields());
    assert.equal(again.status, 200);
    assert.match(await again.text(), /id="card_number"/);
  });

  it('closes the page: a second press finds it expired', async () => {
    const { html, gateway } = await cardPageHtml('en');
    const session = sessionOf(html);
    await postForm(gateway, gateway.paths.pageSubmit, { session, cancel: 'cancel' });
    const second = await postForm(gateway, gateway.paths.pageSubmit, { session, cancel: 'cancel' });
    assert.equal(second.status, 410);
  });
});
