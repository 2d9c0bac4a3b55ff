/**
 * A page in English downloads no Arabic text: every element shown in English, with its view
 * loaded, and not one `messages.ar` module among the page's resources. Its own page (a test file
 * is one page), so that no other test has loaded an Arabic catalog before.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgBillVoucher, PgCheckout, PgFinancingOtp, PgInstallments } from '../../../src/index.ts';
import { elementReady, settled } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

// Modules are resources: keep every one (the default buffer holds 250).
performance.setResourceTimingBufferSize(100_000);

/** Paths of the modules the page has downloaded, from `fragment` on. */
function downloaded(fragment: RegExp): string[] {
  return performance
    .getEntriesByType('resource')
    .map((entry) => new URL(entry.name).pathname)
    .filter((path) => fragment.test(path));
}

describe('a page in English', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  after(() => network.reset());

  it('downloads the views it shows and no Arabic catalog', async () => {
    const reference = ORDERS.egp.merchant_reference;
    const page = await fixture<HTMLElement>(html`
      <div>
        <pg-checkout mode="drop-in" methods="card installments voucher financing" endpoint=${ENDPOINT} merchant-reference=${reference}></pg-checkout>
        <pg-installments endpoint=${ENDPOINT} merchant-reference=${reference}></pg-installments>
        <pg-bill-voucher endpoint=${ENDPOINT} merchant-reference=${reference}></pg-bill-voucher>
        <pg-financing-otp endpoint=${ENDPOINT} merchant-reference=${reference}></pg-financing-otp>
      </div>
    `);
    const elements = [...page.children] as Array<PgCheckout | PgInstallments | PgBillVoucher | PgFinancingOtp>;
    for (const el of elements) await settled(el);
    for (const el of elements) expect(el.matches(':state(loading)'), el.localName).to.equal(false);

    // The views were downloaded now, after the buffer was enlarged: the list sees what the elements load.
    expect(downloaded(/\/pg-[\w-]+\/[\w-]+-view\.ts$/).sort()).to.deep.equal([
      '/src/components/pg-bill-voucher/bill-voucher-view.ts',
      '/src/components/pg-financing-otp/financing-otp-view.ts',
      '/src/components/pg-installments/installments-view.ts',
    ]);
    expect(downloaded(/messages\.ar\.ts$/)).to.deep.equal([]);

    // And the list does show an Arabic catalog once an element shows Arabic.
    await elementReady(await fixture<PgInstallments>(html`<pg-installments language="ar"></pg-installments>`));
    expect(downloaded(/messages\.ar\.ts$/)).to.include('/src/components/pg-installments/messages.ar.ts');
  });
});
