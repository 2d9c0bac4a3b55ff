/**
 * The first screen needs no schema: `<pg-checkout>` checks its order's answer without the
 * contract's schemas (zod), so a page downloads them only with the first request the customer
 * makes, and every answer is still checked before it is used. The endpoint here is a few msw
 * handlers, not the real endpoint (which would load the schemas into the test page itself). Each
 * test file runs in a page of its own, so nothing was loaded before this file's first test.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { setupWorker } from 'msw/browser';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import type { PgRequestErrorEvent } from '../../../src/components/shared/events.ts';
import { shadowQuery, textOf, typeCard } from '../support/dom.ts';

// The test page loads hundreds of modules: keep every resource entry (the default buffer holds 250).
performance.setResourceTimingBufferSize(100_000);

const ENDPOINT = '/schemas-on-demand';
const ORDER = { merchant_reference: 'order-schemas-1', amount: 250_000, currency: 'EGP', description: 'Headphones' };

/** Whether the page has asked for the contract's schemas or zod. */
const schemasRequested = (): boolean =>
  performance
    .getEntriesByType('resource')
    .some((entry) => entry.name.includes('/src/core/endpoint-results.ts') || /\/node_modules\/zod\//.test(entry.name));

const payLabel = (el: PgCheckout): string => textOf(shadowQuery(el, 'button.Pay'));

describe('<pg-checkout> shows its first screen without the contract\'s schemas', () => {
  let order: Record<string, string | number> = ORDER;
  const worker = setupWorker(
    http.post(`${ENDPOINT}/order`, () => HttpResponse.json(order)),
    http.post(`${ENDPOINT}/merchant-page`, () =>
      HttpResponse.json({ error: { code: 'order_in_progress', message: 'in progress' } }, { status: 409 }),
    ),
  );

  before(async () => {
    await worker.start({ quiet: true, onUnhandledRequest: 'bypass', serviceWorker: { url: '/mockServiceWorker.js' } });
  });

  after(() => worker.stop());

  it('puts the checked order\'s amount on the Pay button before any schema is downloaded, and loads them with the customer\'s first request', async () => {
    order = ORDER;
    const el = await fixture<PgCheckout>(html`
      <pg-checkout
        mode="drop-in"
        methods="card installments voucher financing"
        card-mode="merchant-page"
        endpoint=${ENDPOINT}
        merchant-reference=${ORDER.merchant_reference}
      ></pg-checkout>
    `);
    await waitUntil(() => payLabel(el).includes('2,500.00'), 'the order\'s amount on the Pay button');
    expect(schemasRequested(), 'schemas downloaded before the customer acted').to.equal(false);

    // The customer pays: the endpoint's refusal is read with the schemas, which load with that request.
    typeCard(el, { number: '4111111111111111' });
    await el.updateComplete;
    const refused = oneEvent(el, 'pg-request-error') as Promise<PgRequestErrorEvent>;
    shadowQuery(el, 'button.Pay').click();
    const event = await refused;
    expect(event.route).to.equal('merchantPage');
    expect(event.kind).to.equal('refused');
    expect(schemasRequested(), 'the schemas load with the first request the customer makes').to.equal(true);
  });

  it('still refuses an order answer that breaks the contract (an amount with a fraction): no amount is shown', async () => {
    order = { ...ORDER, amount: 2500.5 };
    const errors: PgRequestErrorEvent[] = [];
    const el = await fixture<PgCheckout>(html`
      <pg-checkout
        mode="merchant-page"
        endpoint=${ENDPOINT}
        merchant-reference=${ORDER.merchant_reference}
        @pg-request-error=${(event: PgRequestErrorEvent) => errors.push(event)}
      ></pg-checkout>
    `);
    await waitUntil(() => el.shadowRoot?.querySelector('.failure'), 'the failure shown');
    expect(errors.map((error) => [error.route, error.kind])).to.deep.equal([['order', 'invalid_response']]);
    expect(payLabel(el)).not.to.match(/\d/);
  });
});
