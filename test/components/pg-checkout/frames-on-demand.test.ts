/**
 * The code of the payment frames and the 3-D Secure dialog is not part of what a page downloads
 * up front: `<pg-checkout>` loads it when the customer first works with the card form, or with
 * the request that signs a form. (Each test file runs in a page of its own, so nothing was loaded
 * before this file's first test.)
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import { testCard } from '../../../src/sandbox/test-cards.ts';
import { captureSubmissions, settled, shadowQuery, typeCard } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

// The test page loads hundreds of modules: keep every resource entry (the default buffer holds 250).
performance.setResourceTimingBufferSize(100_000);

/** Whether the page has asked for the framed flow's module. */
const flowRequested = (): boolean =>
  performance.getEntriesByType('resource').some((entry) => entry.name.includes('/shared/framed-flow.ts'));

describe('<pg-checkout> loads its payment frames on demand', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  it('downloads nothing of them until the customer works with the card form, then pays in place', async () => {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout mode="drop-in" methods="card voucher" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-checkout>
    `);
    await settled(el);
    expect(el.shadowRoot!.querySelector('#card-number'), 'the card form is shown').not.to.equal(null);
    expect(flowRequested(), 'framed flow requested before the customer acted').to.equal(false);

    shadowQuery<HTMLInputElement>(el, '#card-number').focus();
    await waitUntil(flowRequested, 'the framed flow was not requested when the card form got focus');

    const submissions = captureSubmissions(el);
    typeCard(el, { number: testCard('success', 'VISA').number });
    await el.updateComplete;
    const submitted = oneEvent(el, 'pg-payment-submit');
    shadowQuery(el, 'button.Pay').click();
    await submitted;
    expect(submissions).to.have.length(1);
    // The form went to the hidden frame, styled by the styles that came with the flow's code.
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame');
    expect(frame.hidden).to.equal(true);
    expect(getComputedStyle(frame).display).to.equal('none');
    expect(submissions[0]!.fields).to.include({ card_holder_name: 'Amira Hassan' });
  });
});
