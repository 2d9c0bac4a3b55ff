import { expect, fixture, html } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import { setViewport } from '@web/test-runner-commands';
import '../../../src/define.ts';
import type { PgCheckout, PgInstallments } from '../../../src/index.ts';
import { settled, shadowQuery, typeInto } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

/** The longest numbers the form takes: 19 digits (Visa, its brand beside it; no known brand) and 16 (MasterCard, the longest brand name). */
const LONGEST_NUMBERS = {
  'a 19-digit Visa number': '4111111111111111110',
  'a 19-digit number of no known brand': '6011000000000000004',
  'a MasterCard number': '5123456789012346',
};

describe('the card form on a phone (375 px wide)', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
    await setViewport({ width: 375, height: 812 });
  });

  after(() => setViewport({ width: 800, height: 600 }));

  afterEach(() => network.reset());

  const hosts = {
    '<pg-checkout mode="drop-in">': (language: string) => html`
      <pg-checkout mode="drop-in" methods="card" card-mode="merchant-page" endpoint=${ENDPOINT}
        merchant-reference=${ORDERS.egp.merchant_reference} language=${language}></pg-checkout>
    `,
    '<pg-installments completion="hosted-checkout">': (language: string) => html`
      <pg-installments completion="hosted-checkout" endpoint=${ENDPOINT}
        merchant-reference=${ORDERS.egp.merchant_reference} language=${language}></pg-installments>
    `,
  };

  /** The element as a phone shows it, with `number` typed; the shop's page keeps margins of its own (the demo shop leaves 327 of the 375 px). */
  async function typed(template: (language: string) => TemplateResult, language: string, number: string) {
    const el = await fixture<PgCheckout | PgInstallments>(template(language));
    el.style.inlineSize = '327px';
    await settled(el);
    const input = shadowQuery<HTMLInputElement>(el, '#card-number');
    typeInto(input, number);
    await settled(el);
    return { el, input };
  }

  for (const language of ['en', 'ar'] as const) {
    it(`passes an axe check in ${language} with the brand beside or under the number`, async () => {
      for (const number of Object.values(LONGEST_NUMBERS)) {
        const { el } = await typed(hosts['<pg-checkout mode="drop-in">'], language, number);
        await expect(el).to.be.accessible();
      }
    });
  }

  for (const [host, template] of Object.entries(hosts)) {
    for (const language of ['en', 'ar'] as const) {
      for (const [kind, number] of Object.entries(LONGEST_NUMBERS)) {
        it(`shows all of ${kind} in ${host} (${language})`, async () => {
          const { input } = await typed(template, language, number);
          expect(input.value.replace(/\s/g, '')).to.equal(number);
          expect(input.scrollWidth, `${input.value}: ${input.scrollWidth} px in ${input.clientWidth} px`).to.be.at.most(input.clientWidth);
        });
      }
    }
  }
});
