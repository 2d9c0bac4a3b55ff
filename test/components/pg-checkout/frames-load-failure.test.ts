/**
 * When the code of the payment frames cannot be downloaded (the network dropped), `<pg-checkout>`
 * posts nothing, says so in the page's language and offers to try again. In a file of its own:
 * the page must not have loaded that code before.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import { testCard } from '../../../src/sandbox/test-cards.ts';
import { captureSubmissions, settled, shadowQuery, textOf, typeCard } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

describe('<pg-checkout> when its payment frames cannot be loaded', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  it('posts nothing, says so in Arabic, and pays when the customer tries again', async () => {
    network.use(http.get(/\/shared\/framed-flow\.ts/, () => HttpResponse.error()));
    const el = await fixture<PgCheckout>(html`
      <pg-checkout mode="merchant-page" language="ar" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-checkout>
    `);
    await settled(el);
    const submissions = captureSubmissions(el);
    typeCard(el, { number: testCard('success', 'VISA').number });
    await el.updateComplete;
    shadowQuery(el, 'button.Pay').click();
    await settled(el);
    await waitUntil(() => el.shadowRoot!.querySelector('[part~="failure"]'), 'no failure shown');

    expect(textOf(shadowQuery(el, '[part~="failure"] [part~="error"]'))).to.equal(
      'تعذّر تحميل هذا الجزء من صفحة الدفع. تحقّق من اتصالك وحاول مرة أخرى.',
    );
    expect(el.shadowRoot!.querySelector('[part~="failure"] button.retry'), 'Try again is offered').not.to.equal(null);
    expect(submissions).to.have.length(0);
    expect(el.shadowRoot!.querySelector('iframe.payment-frame')).to.equal(null);
    expect(shadowQuery(el, 'button.Pay').getAttribute('aria-disabled')).to.equal('false');

    // The network is back: Try again signs anew and posts the card into the hidden frame.
    network.reset();
    const submitted = oneEvent(el, 'pg-payment-submit');
    shadowQuery(el, '[part~="failure"] button.retry').click();
    await submitted;
    expect(submissions).to.have.length(1);
    expect(network.requestsTo('/merchant-page'), 'signed anew after the reset').to.have.length(1);
    expect(shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame').hidden).to.equal(true);
  });
});
