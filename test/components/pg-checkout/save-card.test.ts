import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../../src/define.ts';
import type { PgCheckout } from '../../../src/index.ts';
import type { PgPaymentResultEvent } from '../../../src/components/shared/events.ts';
import { setViewport } from '@web/test-runner-commands';
import { testCard } from '../../../src/sandbox/test-cards.ts';
import { assertFocused, pressKey, recordEvents, settled, shadowQuery, shadowQueryAll, tabTo, textOf, typeCard } from '../support/dom.ts';
import { ENDPOINT, ORDERS, PAYMENT_PAGE_URL, startNetwork, type TestNetwork } from '../support/network.ts';

interface Post {
  readonly action: string;
  readonly target: string;
  readonly fields: Record<string, string>;
}

function capturePosts(el: PgCheckout): Post[] {
  const posts: Post[] = [];
  el.submitForm = (form) => {
    const fields: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) fields[name] = String(value);
    posts.push({ action: form.action, target: form.target, fields });
  };
  return posts;
}

const VISA = testCard('success').number;

describe('<pg-checkout intent="save-card">', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  async function saving(mode: string, language: 'en' | 'ar' = 'en') {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout
        intent="save-card"
        mode=${mode}
        methods="card voucher financing"
        endpoint=${ENDPOINT}
        merchant-reference=${ORDERS.egp.merchant_reference}
        language=${language}
      ></pg-checkout>
    `);
    const posts = capturePosts(el);
    await settled(el);
    return { el, posts };
  }

  const consent = (el: PgCheckout) => shadowQuery<HTMLInputElement>(el, '#save-consent');

  async function agree(el: PgCheckout): Promise<void> {
    consent(el).click();
    await el.updateComplete;
  }

  async function fillCard(el: PgCheckout): Promise<void> {
    typeCard(el, { number: VISA });
    await el.updateComplete;
  }

  for (const language of ['en', 'ar'] as const) {
    it(`passes an accessibility check in every card mode (${language})`, async () => {
      for (const mode of ['redirect', 'merchant-page', 'embedded', 'drop-in']) {
        const { el } = await saving(mode, language);
        await expect(el).to.be.accessible();
      }
    });
  }

  it('asks for the customer’s agreement, saying plainly that nothing is charged, in English and Arabic', async () => {
    const en = (await saving('redirect', 'en')).el;
    expect(textOf(shadowQuery(en, 'label[for="save-consent"]'))).to.equal(
      'Save this card for future payments. I understand nothing is charged now.',
    );
    expect(textOf(shadowQuery(en, '.note'))).to.include('Nothing is charged');
    expect(consent(en).required).to.equal(true);
    expect(consent(en).checked).to.equal(false);
    const ar = (await saving('redirect', 'ar')).el;
    expect(textOf(shadowQuery(ar, 'label[for="save-consent"]'))).to.equal('احفظ هذه البطاقة للمدفوعات القادمة. أفهم أنه لن يتم خصم أي مبلغ الآن.');
    expect(textOf(shadowQuery(ar, '.note'))).to.include('لن يتم خصم أي مبلغ');
  });

  it('sends nothing without the agreement, and says why on the checkbox', async () => {
    const { el, posts } = await saving('redirect');
    shadowQuery(el, 'button.Pay').click();
    await settled(el);
    expect(network.requestsTo('/save-card')).to.have.length(0);
    expect(posts).to.have.length(0);
    expect(consent(el).getAttribute('aria-invalid')).to.equal('true');
    expect(textOf(shadowQuery(el, '#save-consent-error'))).to.equal('Tick the box to agree to saving your card.');
    assertFocused(consent(el));
    await expect(el).to.be.accessible();
  });

  it('can be agreed to and sent with the keyboard alone', async () => {
    const { el, posts } = await saving('redirect');
    await tabTo('#save-consent');
    await pressKey('Space');
    await el.updateComplete;
    await tabTo('button.Pay');
    await pressKey('Enter');
    await settled(el);
    expect(posts).to.have.length(1);
  });

  it('redirect mode: posts the signed TOKENIZATION to the whole page (the gateway’s card page), keeping the card', async () => {
    const { el, posts } = await saving('redirect');
    await agree(el);
    shadowQuery(el, 'button.Pay').click();
    await settled(el);
    expect(posts).to.have.length(1);
    expect(posts[0]?.action).to.equal(PAYMENT_PAGE_URL);
    expect(posts[0]?.target).to.equal('');
    expect(posts[0]?.fields).to.include({ service_command: 'TOKENIZATION', merchant_extra1: 'SAVE_CARD', remember_me: 'YES' });
    expect(posts[0]?.fields).not.to.have.property('amount');
    expect(network.requestsTo('/save-card')[0]?.fields).to.deep.equal({
      merchant_reference: ORDERS.egp.merchant_reference,
      language: 'en',
      framed: false,
    });
  });

  it('merchant page: the card and the agreement go to the gateway in the hidden frame, never to the endpoint', async () => {
    const { el, posts } = await saving('merchant-page');
    expect(shadowQueryAll(el, '#remember-me'), 'the agreement replaces "remember this card"').to.have.length(0);
    await fillCard(el);
    await agree(el);
    shadowQuery(el, 'button.Pay').click();
    await settled(el);
    await waitUntil(() => posts.length === 1, 'the form is posted');
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame');
    expect(posts[0]?.target).to.equal(frame.name);
    expect(frame.hidden).to.equal(true);
    expect(posts[0]?.fields).to.include({ card_number: VISA, remember_me: 'YES', merchant_extra1: 'SAVE_CARD' });
    for (const request of network.endpointRequests) {
      expect(request.body).not.to.include(VISA);
      expect(request.body).not.to.match(/card_number|card_security_code|remember_me/);
    }
  });

  it('embedded: once agreed, the gateway’s own card page opens in the frame', async () => {
    const { el, posts } = await saving('embedded');
    expect(shadowQueryAll(el, 'iframe'), 'nothing loads before the agreement').to.have.length(0);
    expect(textOf(shadowQuery(el, 'button.Pay'))).to.equal('Continue to the secure card page');
    await agree(el);
    shadowQuery(el, 'button.Pay').click();
    await settled(el);
    await waitUntil(() => posts.length === 1, 'the form is posted');
    await el.updateComplete;
    const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame');
    expect(frame.hidden).to.equal(false);
    expect(posts[0]?.target).to.equal(frame.name);
    expect(posts[0]?.fields['return_url']).to.match(/\?pg_frame=1$/);
    expect(textOf(shadowQuery(el, '.note'))).to.equal('Nothing is charged: your card is saved for your future payments when you continue.');
    await expect(el).to.be.accessible();
  });

  it('embedded, in Arabic: says above the gateway’s page that nothing is charged and the card is saved', async () => {
    const { el, posts } = await saving('embedded', 'ar');
    await agree(el);
    shadowQuery(el, 'button.Pay').click();
    await settled(el);
    await waitUntil(() => posts.length === 1, 'the form is posted');
    await el.updateComplete;
    expect(textOf(shadowQuery(el, '.note'))).to.equal('لن يتم خصم أي مبلغ: تُحفظ بطاقتك لمدفوعاتك القادمة عند المتابعة.');
    expect(posts[0]?.fields['merchant_extra4'], 'one step: the gateway’s button saves the card').to.equal(undefined);
  });

  it('offers only the card in a drop-in: no other method saves a card', async () => {
    const { el } = await saving('drop-in');
    expect(shadowQueryAll(el, 'input[name="method"]')).to.have.length(0);
    expect(shadowQueryAll(el, '#card-number')).to.have.length(1);
  });

  for (const [language, brand, lastFour, gatewayMessage, line] of [
    ['ar', 'MASTERCARD', '2346', 'تمت العملية بنجاح', 'بطاقة Mastercard المنتهية بـ 2346'],
    ['en', 'VISA', '1111', 'Success', 'Visa ending in 1111'],
    ['en', 'MADA', '1111', 'Success', 'Mada ending in 1111'],
  ] as const) {
    it(`shows the saved card as the customer knows it (brand name, last four digits in one piece), and fires no token (${language}, ${brand})`, async () => {
      await setViewport({ width: 375, height: 812 });
      try {
        const { el, posts } = await saving('embedded', language);
        await agree(el);
        shadowQuery(el, 'button.Pay').click();
        await settled(el);
        await waitUntil(() => posts.length === 1, 'the form is posted');
        await el.updateComplete;
        const frame = shadowQuery<HTMLIFrameElement>(el, 'iframe.payment-frame');
        const told = oneEvent(el, 'pg-payment-result') as Promise<PgPaymentResultEvent>;
        const events = recordEvents(el, 'pg-payment-result');
        window.dispatchEvent(
          new MessageEvent('message', {
            origin: location.origin,
            source: frame.contentWindow,
            data: {
              type: 'pg-checkout:result',
              intent: 'save-card',
              merchant_reference: ORDERS.egp.merchant_reference,
              outcome: 'success',
              order_state: 'not_found',
              message: gatewayMessage,
              response_code: '18000',
              card: { brand, last_four: lastFour },
            },
          }),
        );
        const event = await told;
        expect(event.intent).to.equal('save-card');
        expect(event.card).to.deep.equal({ brand, lastFour });
        expect(JSON.stringify({ ...events[0] })).not.to.match(/token|TK|411111/i);
        await el.updateComplete;
        expect(textOf(shadowQuery(el, '.outcome-title'))).to.equal(language === 'ar' ? 'تم حفظ البطاقة' : 'Card saved');
        const outcome = shadowQuery(el, '.outcome');
        // The title says it succeeded: the gateway's own word for it ("Success") is not repeated under it.
        expect(textOf(outcome)).not.to.include(gatewayMessage);
        const cardLine = [...outcome.querySelectorAll('p')].find((p) => p.textContent?.includes(lastFour));
        expect(textOf(cardLine)).to.equal(line);
        // The digits are a left-to-right island that never breaks across lines.
        const island = cardLine!.querySelector('bdi')!;
        expect([island.dir, textOf(island)]).to.deep.equal(['ltr', lastFour]);
        expect(island.getClientRects()).to.have.length(1);
        await expect(el).to.be.accessible();
        // The shop then asks to pay the order (its intent switched to pay): the saved card's outcome gives way.
        el.intent = 'pay';
        await settled(el);
        expect(shadowQueryAll(el, '.outcome'), 'no saved-card outcome over the payment').to.have.length(0);
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    });
  }
});
