/**
 * An Arabic page whose first element is `<pg-installments>`: the Arabic catalog is not loaded yet
 * when the element asks for its plans (this file runs in a page of its own, so nothing loaded it
 * before). What the live region says must be Arabic from the first word.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgInstallments } from '../../../src/index.ts';
import { settled, shadowQuery, textOf } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

describe('<pg-installments> on an Arabic page that has loaded no Arabic yet', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  it('announces the plans in Arabic, and never in English', async () => {
    const said: string[] = [];
    const el = document.createElement('pg-installments') as PgInstallments;
    // Everything the live region ever holds, as it changes.
    const listen = new MutationObserver(() => {
      const status = el.shadowRoot?.querySelector('[role="status"]');
      if (status) said.push(textOf(status));
    });
    el.setAttribute('endpoint', ENDPOINT);
    el.setAttribute('merchant-reference', ORDERS.egp.merchant_reference);
    el.setAttribute('language', 'ar');
    await fixture<HTMLDivElement>(html`<div></div>`).then((parent) => {
      parent.append(el);
      listen.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true });
    });
    await settled(el);
    await waitUntil(() => textOf(shadowQuery(el, '[role="status"]')).startsWith('تتوفر خطط تقسيط'), 'the plans announced in Arabic');
    listen.disconnect();
    expect(said.filter((text) => /[A-Za-z]/.test(text))).to.deep.equal([]);
  });
});
