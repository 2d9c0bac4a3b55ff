/**
 * The card form reaches the screen before the order's amount: the page's first formatted amount
 * costs the browser its number-formatting data, so `<pg-checkout>` shows the order's amount from
 * the frame after its first, even when the order answers before that frame is drawn.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import { shadowQuery, textOf } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

/** Holds animation frames back until `release()`, as if the browser had not drawn yet. */
function holdFrames(): { release(): void; restore(): void } {
  const original = window.requestAnimationFrame;
  const queued: FrameRequestCallback[] = [];
  window.requestAnimationFrame = (callback) => queued.push(callback);
  return {
    release: () => {
      for (const callback of queued.splice(0)) callback(performance.now());
    },
    restore: () => {
      window.requestAnimationFrame = original;
    },
  };
}

const payLabel = (el: PgCheckout): string => textOf(shadowQuery(el, 'button.Pay'));

describe('<pg-checkout> paints its card form before the order amount', () => {
  let network: TestNetwork;
  let frames: ReturnType<typeof holdFrames> | undefined;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => {
    frames?.restore();
    frames = undefined;
    network.reset();
  });

  it('keeps an order that answered before the first frame for the frame after it', async () => {
    frames = holdFrames();
    const el = await fixture<PgCheckout>(html`
      <pg-checkout mode="merchant-page" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-checkout>
    `);
    await waitUntil(() => network.requestsTo('/order').length === 1 && !el.pending, 'the order was not answered');
    await el.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(shadowQuery<HTMLInputElement>(el, '#card-number').disabled, 'the card form is usable').to.equal(false);
    expect(payLabel(el), 'no amount before the first frame is drawn').to.equal('Pay');

    frames.release();
    await waitUntil(() => payLabel(el).includes('2,500.00'), `the amount never showed: "${payLabel(el)}"`);
    expect(payLabel(el)).to.equal('Pay EGP 2,500.00');
  });

  it('still shows the amount on a page that draws no frames, as in a background tab', async () => {
    frames = holdFrames();
    const el = await fixture<PgCheckout>(html`
      <pg-checkout mode="merchant-page" endpoint=${ENDPOINT} merchant-reference=${ORDERS.usd.merchant_reference}></pg-checkout>
    `);
    await waitUntil(() => payLabel(el).includes('100.00'), `the amount never showed: "${payLabel(el)}"`, { timeout: 3000 });
    expect(payLabel(el)).to.equal('Pay $100.00');
  });
});
