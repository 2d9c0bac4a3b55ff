import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import type { PgPaymentResultEvent, PgPaymentSubmitEvent } from '../../../src/components/shared/events.ts';
import { DEFAULT_FRAME_HEIGHT } from '../../../src/components/shared/framed-flow.ts';
import { testCard } from '../../../src/sandbox/test-cards.ts';
import { formatMoney } from '../../../src/core/amounts.ts';
import { assertFocused, pressKey, recordEvents, settled, shadowQuery, shadowQueryAll, textOf, typeCard } from '../support/dom.ts';
import { ENDPOINT, GATEWAY_ORIGIN, ORDERS, PAYMENT_PAGE_URL, startNetwork, type TestNetwork } from '../support/network.ts';

/** A form the element posted: where, into which frame, and what. */
interface FramedPost {
  readonly action: string;
  readonly target: string;
  readonly fields: Record<string, string>;
}

/** Replaces `submitForm` with a recorder that keeps the form's target: nothing is loaded. */
function capturePosts(el: PgCheckout): FramedPost[] {
  const posts: FramedPost[] = [];
  el.submitForm = (form) => {
    const fields: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) fields[name] = String(value);
    posts.push({ action: form.action, target: form.target, fields });
  };
  return posts;
}

const ENDPOINT_ORIGIN = location.origin;
const CHALLENGE_URL = `${GATEWAY_ORIGIN}/FortAPI/3ds/challenge?id=0123456789abcdef`;

function resultMessage(overrides: Record<string, unknown> = {}) {
  return {
    type: 'pg-checkout:result',
    intent: 'pay',
    merchant_reference: ORDERS.egp.merchant_reference,
    outcome: 'success',
    order_state: 'captured',
    message: 'Success',
    response_code: '14000',
    result_url: `${ENDPOINT_ORIGIN}/checkout/result?merchant_reference=${ORDERS.egp.merchant_reference}&outcome=success`,
    ...overrides,
  };
}

/** A message as a frame's page posts it: from `source`, with the origin the browser gives it. */
function postFrom(source: Window | null, data: unknown, origin = ENDPOINT_ORIGIN): void {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
}

describe('<pg-checkout mode="embedded">', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  async function embedded(language: 'en' | 'ar' = 'en', attributes: { mode?: string; cardMode?: string; method?: string } = {}) {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout
        mode=${attributes.mode ?? 'embedded'}
        card-mode=${attributes.cardMode ?? 'merchant-page'}
        method=${attributes.method ?? 'card'}
        methods="card installments voucher"
        endpoint=${ENDPOINT}
        merchant-reference=${ORDERS.egp.merchant_reference}
        language=${language}
      ></pg-checkout>
    `);
    const posts = capturePosts(el);
    await settled(el);
    await waitUntil(() => posts.length > 0, 'the element posts the signed form into its frame');
    await el.updateComplete;
    return { el, posts, frame: () => shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame') };
  }

  it('passes an accessibility check in English, the frame titled', async () => {
    const { el, frame } = await embedded('en');
    expect(frame().title).to.equal('Card details, on the payment gateway’s secure page');
    expect(textOf(shadowQuery(el, '.note'))).to.equal('Enter your card details on the payment gateway’s secure page below; the store never sees them.');
    await expect(el).to.be.accessible();
  });

  it('passes an accessibility check in Arabic, right to left', async () => {
    const { el, frame } = await embedded('ar');
    expect(frame().title).to.equal('بيانات البطاقة، على الصفحة الآمنة لبوابة الدفع');
    expect(textOf(shadowQuery(el, '.note'))).to.equal('أدخل بيانات بطاقتك في الصفحة الآمنة لبوابة الدفع أدناه؛ لا يطّلع عليها المتجر.');
    expect(shadowQuery(el, '.frame').getAttribute('dir')).to.equal('rtl');
    await expect(el).to.be.accessible();
  });

  describe('the gateway’s page in a frame', () => {
    it('posts the signed TOKENIZATION into its own frame, never the page, with no card field', async () => {
      const { posts, frame } = await embedded();
      expect(posts).to.have.length(1);
      const [post] = posts;
      expect(post?.action).to.equal(PAYMENT_PAGE_URL);
      expect(frame().name).not.to.equal('');
      expect(post?.target).to.equal(frame().name);
      expect(post?.fields['service_command']).to.equal('TOKENIZATION');
      expect(post?.fields['return_url']).to.equal(`${ENDPOINT_ORIGIN}${ENDPOINT}/return?pg_frame=1`);
      expect(post?.fields['merchant_extra1']).to.equal('PURCHASE');
      for (const name of ['card_number', 'expiry_date', 'card_security_code', 'remember_me']) expect(post?.fields).not.to.have.property(name);
    });

    it('tells listeners the form went into the frame (the embedded flow)', async () => {
      const el = document.createElement('pg-checkout');
      el.submitForm = () => {};
      const submitted = oneEvent(el, 'pg-payment-submit') as Promise<PgPaymentSubmitEvent>;
      el.setAttribute('mode', 'embedded');
      el.setAttribute('endpoint', ENDPOINT);
      el.setAttribute('merchant-reference', ORDERS.egp.merchant_reference);
      document.body.append(el);
      const event = await submitted;
      expect(event.flow).to.equal('embedded');
      expect(event.action).to.equal(PAYMENT_PAGE_URL);
      el.remove();
    });

    it('runs the frame sandboxed: the gateway’s page can never navigate the shop’s page by itself', async () => {
      const { frame } = await embedded();
      const sandbox = (frame().getAttribute('sandbox') ?? '').split(/\s+/);
      expect(sandbox).to.include.members(['allow-scripts', 'allow-forms', 'allow-same-origin']);
      expect(sandbox).not.to.include('allow-top-navigation');
    });

    it('asks the gateway’s page to offer installments (STANDALONE) for the installments method', async () => {
      const { posts } = await embedded('en', { mode: 'drop-in', cardMode: 'embedded', method: 'installments' });
      expect(posts[0]?.fields['installments']).to.equal('STANDALONE');
      expect(posts[0]?.fields['amount']).to.equal(String(ORDERS.egp.amount));
      const [request] = network.requestsTo('/merchant-page');
      expect(request?.fields).to.include({ installments: 'STANDALONE', framed: true });
    });

    it('loads the page again in the new language', async () => {
      const { el, posts } = await embedded('en');
      el.language = 'ar';
      await settled(el);
      await waitUntil(() => posts.length === 2, 'a second form, in Arabic');
      expect(posts[1]?.fields['language']).to.equal('ar');
    });
  });

  it('posts the page in the language it ends up in, when the language changes while it loads', async () => {
    const releaseOrder = network.holdEndpoint();
    const el = await fixture<PgCheckout>(html`
      <pg-checkout mode="embedded" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-checkout>
    `);
    const posts = capturePosts(el);
    await waitUntil(() => network.requestsTo('/order').length === 1, 'the order is asked for');
    // The order's answer goes; whatever is asked next (the signed form, in English) waits.
    releaseOrder();
    const release = network.holdEndpoint();
    await waitUntil(() => network.requestsTo('/merchant-page').length === 1, 'the English form is asked for');
    el.language = 'ar';
    await el.updateComplete;
    release();
    await settled(el);
    await waitUntil(() => posts.length > 0 && posts.at(-1)?.fields['language'] === 'ar', 'the Arabic form is posted last');
    expect(posts.map((post) => post.fields['language'])).to.deep.equal(['ar']);
  });

  describe('the frame’s height', () => {
    it('starts at a height that fits the card page, for a page that never reports one', async () => {
      const { frame } = await embedded();
      expect(getComputedStyle(frame()).blockSize).to.equal(`${DEFAULT_FRAME_HEIGHT}px`);
    });

    it('takes the height the gateway’s page reports', async () => {
      const { el, frame } = await embedded();
      postFrom(frame().contentWindow, { type: 'pg-checkout:height', height: 612.4 }, GATEWAY_ORIGIN);
      await el.updateComplete;
      expect(getComputedStyle(frame()).blockSize).to.equal('613px');
    });

    it('ignores a height from another origin or another window', async () => {
      const { el, frame } = await embedded();
      postFrom(frame().contentWindow, { type: 'pg-checkout:height', height: 900 }, 'https://evil.example');
      postFrom(window, { type: 'pg-checkout:height', height: 900 }, GATEWAY_ORIGIN);
      await el.updateComplete;
      expect(getComputedStyle(frame()).blockSize).to.equal(`${DEFAULT_FRAME_HEIGHT}px`);
    });

    it('sets it without a style attribute (the page’s CSP allows none)', async () => {
      const { el, frame } = await embedded();
      postFrom(frame().contentWindow, { type: 'pg-checkout:height', height: 700 }, GATEWAY_ORIGIN);
      await el.updateComplete;
      expect(frame().hasAttribute('style')).to.equal(false);
    });
  });

  describe('the outcome', () => {
    it('is shown in place and told as pg-payment-result, when the endpoint’s page in its frame says it', async () => {
      const { el, frame } = await embedded();
      const told = oneEvent(el, 'pg-payment-result') as Promise<PgPaymentResultEvent>;
      postFrom(frame().contentWindow, resultMessage({ installments: { number_of_installments: 6, plan_code: 'EGX6', issuer_code: 'EGFIX1' } }));
      const event = await told;
      expect(event.bubbles && event.composed).to.equal(true);
      expect({ intent: event.intent, outcome: event.outcome, reference: event.merchantReference, state: event.orderState }).to.deep.equal({
        intent: 'pay',
        outcome: 'success',
        reference: ORDERS.egp.merchant_reference,
        state: 'captured',
      });
      expect(event.installments).to.deep.equal({ months: 6, planCode: 'EGX6', issuerCode: 'EGFIX1' });
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '.outcome-title'))).to.equal('Payment successful');
      expect(textOf(shadowQuery(el, '.outcome'))).to.include('In 6 monthly installments');
      expect(shadowQuery<HTMLAnchorElement>(el, 'a.see-order').href).to.equal(resultMessage().result_url);
      expect(shadowQueryAll(el, 'iframe')).to.have.length(0);
      assertFocused(shadowQuery(el, '.outcome'));
      await expect(el).to.be.accessible();
    });

    it('shows a decline with Try again, which loads a new page', async () => {
      const { el, frame, posts } = await embedded('ar');
      postFrom(frame().contentWindow, resultMessage({ outcome: 'failure', order_state: 'failed', message: 'تم رفض العملية', response_code: '13001' }));
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '.outcome-title'))).to.equal('لم يكتمل الدفع');
      await expect(el).to.be.accessible();
      shadowQuery(el, '.outcome .retry').click();
      await settled(el);
      await waitUntil(() => posts.length === 2, 'a new form');
      // Focus goes to the new page's frame, not to the document's body.
      await waitUntil(() => el.shadowRoot?.activeElement === shadowQuery(el, 'iframe.payment-frame'), 'the new page focused');
    });

    /** Where the text of `element` starts and ends on screen (its own box may be wider than its words). */
    function textEdges(element: Element): { left: number; right: number } {
      const range = document.createRange();
      range.selectNodeContents(element);
      const { left, right } = range.getBoundingClientRect();
      return { left: Math.round(left), right: Math.round(right) };
    }

    for (const [language, hint] of [
      ['en', 'Try another card, or call your bank.'],
      ['ar', 'جرّب بطاقة أخرى، أو اتصل بالبنك.'],
    ] as const) {
      it(`says under a decline what to do next, its text aligned to the start like every outcome (${language})`, async () => {
        const { el, frame } = await embedded(language);
        postFrom(frame().contentWindow, resultMessage({ outcome: 'failure', order_state: 'failed', message: 'Transaction declined', response_code: '13001' }));
        await el.updateComplete;
        expect(textOf(shadowQuery(el, '.outcome'))).to.include(hint);
        const lines = [shadowQuery(el, '.outcome-title'), shadowQuery(el, '.outcome-message'), shadowQuery(el, '.see-order')].map(textEdges);
        const edge = language === 'en' ? 'left' : 'right';
        expect(lines.map((line) => line[edge])).to.deep.equal(lines.map(() => lines[0]![edge]));
        await expect(el).to.be.accessible();
      });
    }

    it('gives no such hint when the customer left the gateway’s page (00072): nothing was declined', async () => {
      const { el, frame } = await embedded();
      postFrom(frame().contentWindow, resultMessage({ outcome: 'failure', order_state: 'failed', message: 'Transaction canceled by user', response_code: '00072' }));
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '.outcome-title'))).to.equal('Payment not completed');
      expect(textOf(shadowQuery(el, '.outcome'))).not.to.include('Try another card');
      expect(el.shadowRoot?.querySelectorAll('.outcome button.retry')).to.have.length(1);
    });

    it('gives no such hint when the endpoint refused the card before any bank saw it (too many cards tried)', async () => {
      const { el, frame } = await embedded();
      postFrom(
        frame().contentWindow,
        resultMessage({ outcome: 'failure', message: 'Too many cards have been tried for this order; please wait before trying again.', error: 'card_attempts_limited', response_code: undefined, order_state: undefined }),
      );
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '.outcome-message'))).to.contain('Too many cards');
      expect(textOf(shadowQuery(el, '.outcome'))).not.to.include('Try another card');
    });

    it('gives no such hint when the payment succeeded, nor the gateway’s own word for it under the title', async () => {
      const { el, frame } = await embedded();
      postFrom(frame().contentWindow, resultMessage());
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '.outcome'))).not.to.include('Try another card');
      expect(textOf(shadowQuery(el, '.outcome-title'))).to.equal('Payment successful');
      expect(shadowQueryAll(el, '.outcome-message')).to.have.length(0);
      expect(textOf(shadowQuery(el, '.outcome'))).to.equal('Payment successful See your order');
      // A link a thumb can hit: at least 44 px tall.
      expect(shadowQuery(el, '.see-order').getBoundingClientRect().height).to.be.at.least(44);
    });

    it('ignores an outcome from another origin', async () => {
      const { el, frame } = await embedded();
      const events = recordEvents(el, 'pg-payment-result');
      postFrom(frame().contentWindow, resultMessage(), 'https://evil.example');
      postFrom(frame().contentWindow, resultMessage(), GATEWAY_ORIGIN);
      await el.updateComplete;
      expect(events).to.have.length(0);
      expect(shadowQueryAll(el, '.outcome')).to.have.length(0);
    });

    it('ignores an outcome from another window, even one of the endpoint’s origin', async () => {
      const { el } = await embedded();
      const other = document.createElement('iframe');
      document.body.append(other);
      const events = recordEvents(el, 'pg-payment-result');
      postFrom(other.contentWindow, resultMessage());
      postFrom(window, resultMessage());
      postFrom(null, resultMessage());
      await el.updateComplete;
      other.remove();
      expect(events).to.have.length(0);
    });

    it('ignores an outcome about another order, and a message that breaks the contract', async () => {
      const { el, frame } = await embedded();
      const events = recordEvents(el, 'pg-payment-result');
      postFrom(frame().contentWindow, resultMessage({ merchant_reference: 'someone-elses-order' }));
      postFrom(frame().contentWindow, { ...resultMessage(), outcome: 'paid' });
      postFrom(frame().contentWindow, 'pg-checkout:result');
      await el.updateComplete;
      expect(events).to.have.length(0);
    });
  });

  describe('the Pay button, once the gateway’s page took the card', () => {
    const ready = (overrides: Record<string, unknown> = {}) => ({
      type: 'pg-checkout:ready',
      merchant_reference: ORDERS.egp.merchant_reference,
      ...overrides,
    });

    /** What the element tells the page in its frame (the endpoint's ready page there). */
    function toldFrame(frame: HTMLIFrameElement): unknown[][] {
      const told: unknown[][] = [];
      frame.contentWindow!.postMessage = ((message: unknown, origin: string) => told.push([message, origin])) as Window['postMessage'];
      return told;
    }

    it('asks the endpoint for the two-step page (the gateway’s button only takes the card)', async () => {
      await embedded();
      const [request] = network.requestsTo('/merchant-page');
      expect(request?.fields).to.include({ framed: true, embedded: true });
    });

    for (const language of ['en', 'ar'] as const) {
      it(`shows no Pay button before, and "Pay" with the order’s amount once the card is ready (${language})`, async () => {
        const { el, frame, posts } = await embedded(language);
        const told = toldFrame(frame());
        expect(shadowQueryAll(el, 'button.Pay')).to.have.length(0);
        postFrom(frame().contentWindow, ready());
        await el.updateComplete;
        const pay = shadowQuery<HTMLButtonElement>(el, 'button.Pay');
        const amount = formatMoney(ORDERS.egp.amount, ORDERS.egp.currency, language);
        const spaced = (text: string) => text.replace(/\s+/g, ' ');
        expect(spaced(textOf(pay))).to.equal(language === 'en' ? 'Pay EGP 2,500.00' : spaced(`ادفع ${amount}`));
        // Focus leaves the gateway's page for the button that charges: a keyboard or screen reader user is told what it does.
        await waitUntil(() => el.shadowRoot?.activeElement === pay, 'the Pay button takes the focus');
        expect(shadowQuery(el, '.frame').getAttribute('dir')).to.equal(language === 'en' ? 'ltr' : 'rtl');
        // Nothing went anywhere but the gateway's page: nothing is charged before the press.
        expect(posts.map((post) => post.action)).to.deep.equal([PAYMENT_PAGE_URL]);
        expect(told).to.deep.equal([]);
        await expect(el).to.be.accessible();
      });
    }

    it('asks the endpoint’s page in its frame, at the endpoint’s origin only, to confirm when pressed, once', async () => {
      const { el, frame, posts } = await embedded();
      const told = toldFrame(frame());
      postFrom(frame().contentWindow, ready());
      await el.updateComplete;
      const pay = shadowQuery<HTMLButtonElement>(el, 'button.Pay');
      pay.click();
      pay.click();
      await el.updateComplete;
      expect(told).to.deep.equal([['pg-checkout:confirm', ENDPOINT_ORIGIN]]);
      expect(posts).to.have.length(1, 'the element itself posts nothing: the card never was in its page');
      expect(textOf(shadowQuery(el, 'button.Pay'))).to.equal('Processing your payment…');
      // The endpoint's answer in the frame ends it, as before.
      postFrom(frame().contentWindow, resultMessage());
      await el.updateComplete;
      expect(textOf(shadowQuery(el, '.outcome-title'))).to.equal('Payment successful');
    });

    it('drops a card readied for one order, and its Pay button, when the page moves to another order', async () => {
      const { el, frame } = await embedded();
      const told = toldFrame(frame());
      postFrom(frame().contentWindow, ready());
      await el.updateComplete;
      expect(shadowQueryAll(el, 'button.Pay')).to.have.length(1);
      el.merchantReference = ORDERS.small.merchant_reference;
      await el.updateComplete;
      expect(shadowQueryAll(el, 'button.Pay')).to.have.length(0, 'no button left to charge the first order');
      // The other order's page loads in its place.
      await waitUntil(() => network.requestsTo('/merchant-page').some((request) => request.fields?.['merchant_reference'] === ORDERS.small.merchant_reference), 'the new order’s page');
      expect(told).to.deep.equal([]);
    });

    it('takes the ready card only from its frame, the endpoint’s origin and its own order', async () => {
      const { el, frame } = await embedded();
      postFrom(frame().contentWindow, ready(), GATEWAY_ORIGIN);
      postFrom(window, ready());
      postFrom(frame().contentWindow, ready({ merchant_reference: 'someone-elses-order' }));
      await el.updateComplete;
      expect(shadowQueryAll(el, 'button.Pay')).to.have.length(0);
    });
  });

  describe('3-D Secure in a dialog', () => {
    async function challenged(language: 'en' | 'ar' = 'en') {
      const flow = await embedded(language);
      postFrom(flow.frame().contentWindow, { type: 'pg-checkout:3ds', merchant_reference: ORDERS.egp.merchant_reference, url: CHALLENGE_URL });
      await flow.el.updateComplete;
      const dialog = shadowQuery<HTMLDialogElement>(flow.el, 'dialog.challenge');
      await waitUntil(() => dialog.open, 'the dialog opens');
      return { ...flow, dialog };
    }

    it('opens a modal dialog, labelled, holding a titled frame with the bank’s page', async () => {
      const { el, dialog } = await challenged();
      expect(dialog.matches(':modal')).to.equal(true);
      const label = shadowQuery(el, `#${dialog.getAttribute('aria-labelledby')}`);
      expect(textOf(label)).to.equal('Confirm the payment with your bank');
      const frame = shadowQuery<HTMLIFrameElement>(el, 'dialog iframe.challenge-frame');
      expect(frame.src).to.equal(CHALLENGE_URL);
      expect(frame.title).to.equal('Your bank’s card check');
      assertFocused(dialog);
      await expect(el).to.be.accessible();
    });

    it('passes an accessibility check with the dialog open in Arabic', async () => {
      const { el, dialog } = await challenged('ar');
      expect(textOf(shadowQuery(el, '#challenge-title'))).to.equal('أكّد الدفع مع البنك');
      expect(dialog.open).to.equal(true);
      await expect(el).to.be.accessible();
    });

    it('keeps focus inside: the page behind it is inert', async () => {
      const { el, dialog } = await challenged();
      const behind = document.createElement('button');
      behind.textContent = 'Behind';
      document.body.append(behind);
      behind.focus();
      expect(document.activeElement).not.to.equal(behind);
      behind.remove();
      expect(dialog.open).to.equal(true);
      shadowQuery(el, 'dialog .close').focus();
      assertFocused(shadowQuery(el, 'dialog .close'));
    });

    it('closes on Escape and says the payment was not completed', async () => {
      const { el, dialog } = await challenged();
      const told = oneEvent(el, 'pg-payment-result') as Promise<PgPaymentResultEvent>;
      await pressKey('Escape');
      const event = await told;
      expect(event.outcome).to.equal('cancelled');
      await el.updateComplete;
      expect(dialog.open).to.equal(false);
      expect(textOf(shadowQuery(el, '.outcome-message'))).to.equal('You closed your bank’s card check, so the payment was not completed.');
      assertFocused(shadowQuery(el, '.outcome'));
    });

    it('closes on its Close button, in Arabic, with the same message', async () => {
      const { el } = await challenged('ar');
      shadowQuery(el, 'dialog .close').click();
      await waitUntil(() => el.shadowRoot?.querySelector('.outcome') !== null, 'the outcome is shown');
      expect(textOf(shadowQuery(el, '.outcome-message'))).to.equal('أُغلقت نافذة تحقق البنك، فلم تكتمل عملية الدفع.');
      expect(shadowQueryAll(el, 'dialog')).to.have.length(0);
    });

    it('closes when the bank’s final answer lands in its frame, and shows the outcome in place', async () => {
      const { el, dialog } = await challenged();
      const frame = shadowQuery<HTMLIFrameElement>(el, 'dialog iframe.challenge-frame');
      const told = oneEvent(el, 'pg-payment-result') as Promise<PgPaymentResultEvent>;
      postFrom(frame.contentWindow, resultMessage());
      expect((await told).outcome).to.equal('success');
      await el.updateComplete;
      expect(dialog.open).to.equal(false);
      expect(textOf(shadowQuery(el, '.outcome-title'))).to.equal('Payment successful');
    });

    it('takes the 3-D Secure address only from its payment frame and the endpoint’s origin', async () => {
      const { el, frame } = await embedded();
      const evil = { type: 'pg-checkout:3ds', merchant_reference: ORDERS.egp.merchant_reference, url: 'https://evil.example/phish' };
      postFrom(frame().contentWindow, evil, 'https://evil.example');
      postFrom(window, evil);
      postFrom(frame().contentWindow, { ...evil, url: 'javascript:alert(1)' });
      await el.updateComplete;
      expect(shadowQueryAll(el, 'dialog')).to.have.length(0);
    });
  });
});

describe('<pg-checkout mode="merchant-page"> posts into a hidden frame', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  async function paid() {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout mode="merchant-page" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-checkout>
    `);
    const posts = capturePosts(el);
    await settled(el);
    typeCard(el, { number: testCard('3ds').number });
    await el.updateComplete;
    shadowQuery(el, 'button.Pay').click();
    await settled(el);
    await waitUntil(() => posts.length === 1, 'the form is posted');
    await el.updateComplete;
    return { el, posts };
  }

  it('posts the card fields into its own hidden frame, and the endpoint hears no card field', async () => {
    const { el, posts } = await paid();
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame');
    expect(frame.hidden).to.equal(true);
    expect(posts[0]?.target).to.equal(frame.name);
    expect(posts[0]?.fields['card_number']).to.equal(testCard('3ds').number);
    expect(posts[0]?.fields['return_url']).to.match(/\?pg_frame=1$/);
    expect(textOf(shadowQuery(el, 'button.Pay'))).to.equal('Processing your payment…');
    for (const request of network.endpointRequests) expect(request.body).not.to.include(testCard('3ds').number);
    expect(el.shadowRoot?.querySelector('form.gateway-form'), 'the card fields do not stay in the page').to.equal(null);
  });

  it('opens its 3-D Secure challenge in the dialog too', async () => {
    const { el } = await paid();
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame');
    postFrom(frame.contentWindow, { type: 'pg-checkout:3ds', merchant_reference: ORDERS.egp.merchant_reference, url: CHALLENGE_URL });
    await el.updateComplete;
    const dialog = shadowQuery<HTMLDialogElement>(el, 'dialog.challenge');
    await waitUntil(() => dialog.open, 'the dialog opens');
    postFrom(shadowQuery<HTMLIFrameElement>(el, 'iframe.challenge-frame').contentWindow, resultMessage());
    await el.updateComplete;
    expect(textOf(shadowQuery(el, '.outcome-title'))).to.equal('Payment successful');
  });
});
