import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { CSSResultOrNative, CSSResultGroup } from 'lit';
import '../../../src/define.ts';
import { billVoucherView } from '../../../src/components/pg-bill-voucher/bill-voucher-view.ts';
import { financingOtpView } from '../../../src/components/pg-financing-otp/financing-otp-view.ts';
import { installmentsView } from '../../../src/components/pg-installments/installments-view.ts';
import type { PgCheckout, PgInstallments } from '../../../src/index.ts';
import { settled, shadowQuery, typeInto } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

/** Every element of the package that is registered in this page, with its styles. */
const TAGS = ['pg-checkout', 'pg-installments', 'pg-bill-voucher', 'pg-financing-otp'];

/** The styles of the elements whose view loads on demand: they come with the view, after the element's own. */
const VIEW_STYLES: Readonly<Record<string, CSSResultGroup>> = {
  'pg-installments': installmentsView.styles,
  'pg-bill-voucher': billVoucherView.styles,
  'pg-financing-otp': financingOtpView.styles,
};

function cssTextOf(styles: CSSResultGroup | undefined): string {
  if (!styles) return '';
  if (Array.isArray(styles)) return styles.map((style) => cssTextOf(style as CSSResultGroup)).join('\n');
  const style = styles as CSSResultOrNative;
  if (style instanceof CSSStyleSheet) return [...style.cssRules].map((rule) => rule.cssText).join('\n');
  return (style as { cssText: string }).cssText;
}

function elementStyles(): Array<[string, string]> {
  return TAGS.flatMap((tag) => {
    const element = customElements.get(tag) as (CustomElementConstructor & { styles?: CSSResultGroup }) | undefined;
    return element ? [[tag, `${cssTextOf(element.styles)}\n${cssTextOf(VIEW_STYLES[tag])}`] as [string, string]] : [];
  });
}

async function tokensDefinedIn(path: string): Promise<Set<string>> {
  const text = await (await fetch(path)).text();
  return new Set([...text.matchAll(/(--pg-[\w-]+)\s*:/g)].map((match) => match[1]!));
}

const SYSTEM_TOKEN = /^--pg-(color|space|radius|font)/;

describe('theming', () => {
  describe('design tokens', () => {
    it('every element is checked', () => {
      expect(elementStyles().map(([tag]) => tag)).to.include.members(['pg-checkout', 'pg-installments']);
    });

    it('every var(--pg-…) has a fallback, so an element renders without any theme', () => {
      for (const [tag, css] of elementStyles()) {
        const bare = [...css.matchAll(/var\(\s*(--pg-[\w-]+)\s*\)/g)].map((match) => match[1]);
        expect(bare, `${tag} reads tokens without a fallback`).to.deep.equal([]);
      }
    });

    it('every system token an element reads is defined by the default theme', async () => {
      const defined = await tokensDefinedIn('/themes/default.css');
      for (const [tag, css] of elementStyles()) {
        const used = [...css.matchAll(/var\(\s*(--pg-[\w-]+)/g)].map((match) => match[1]!).filter((token) => SYSTEM_TOKEN.test(token));
        const undefinedTokens = [...new Set(used)].filter((token) => !defined.has(token));
        expect(undefinedTokens, `${tag} reads system tokens the default theme does not define`).to.deep.equal([]);
      }
    });

    it('every token the default theme defines is read by some element', async () => {
      const defined = await tokensDefinedIn('/themes/default.css');
      const allCss = elementStyles().map(([, css]) => css).join('\n');
      const unused = [...defined].filter((token) => !new RegExp(`var\\(\\s*${token}[\\s,)]`).test(allCss));
      expect(unused).to.deep.equal([]);
    });

    it('the dark theme sets exactly the tokens of the default theme', async () => {
      const light = await tokensDefinedIn('/themes/default.css');
      const dark = await tokensDefinedIn('/themes/dark.css');
      expect([...dark].sort()).to.deep.equal([...light].sort());
    });
  });

  describe('right to left without a second stylesheet', () => {
    const PHYSICAL = [
      /(?:margin|padding|border)-(?:left|right|top|bottom)\b/,
      /(?:^|[\s;{])(?:left|right|top|bottom)\s*:/,
      /text-align\s*:\s*(?:left|right)/,
      /float\s*:\s*(?:left|right)/,
      /(?:^|[\s;{])(?:min-|max-)?(?:width|height)\s*:/,
      /border-(?:top|bottom)-(?:left|right)-radius/,
    ];

    it('element styles use logical properties only', () => {
      for (const [tag, css] of elementStyles()) {
        for (const pattern of PHYSICAL) {
          expect(pattern.test(css), `${tag} uses a physical property matching ${pattern}`).to.equal(false);
        }
      }
    });
  });

  describe('the documented class names, also exposed as parts', () => {
    let network: TestNetwork;

    before(async () => {
      network = await startNetwork();
    });

    afterEach(() => network.reset());

    function expectClassAndPart(host: Element, name: string) {
      const element = host.shadowRoot!.querySelector(`.${name}`);
      expect(element, `.${name} in <${host.localName}>`).not.to.equal(null);
      expect(element!.part.contains(name), `part="${name}" on .${name} in <${host.localName}>`).to.equal(true);
    }

    it('<pg-checkout> carries credit-card-container, floatl, half1, half2, error, Pay, Visa and MasterCard', async () => {
      const el = await fixture<PgCheckout>(html`
        <pg-checkout mode="merchant-page" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-checkout>
      `);
      await settled(el);
      for (const name of ['credit-card-container', 'floatl', 'half1', 'half2', 'error', 'Pay']) expectClassAndPart(el, name);
      typeInto(shadowQuery<HTMLInputElement>(el, '#card-number'), '4111');
      await el.updateComplete;
      expectClassAndPart(el, 'Visa');
      typeInto(shadowQuery<HTMLInputElement>(el, '#card-number'), '5123');
      await el.updateComplete;
      expectClassAndPart(el, 'MasterCard');
    });

    it('<pg-installments> carries installments-container, full-width, bank, receipt-container, floatl, error and Pay', async () => {
      for (const view of ['dropdown', 'table']) {
        const el = await fixture<PgInstallments>(html`
          <pg-installments plans-view=${view} endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-installments>
        `);
        await settled(el);
        typeInto(shadowQuery<HTMLInputElement>(el, '#card-prefix'), '411111');
        await el.updateComplete;
        const plan = el.shadowRoot!.querySelector<HTMLInputElement | HTMLSelectElement>('select#plan, input[name="plan"]')!;
        if (plan instanceof HTMLSelectElement) plan.value = 'EGX06';
        else plan.checked = true;
        plan.dispatchEvent(new Event('change'));
        await el.updateComplete;
        for (const name of ['installments-container', 'full-width', 'bank', 'receipt-container', 'floatl', 'error', 'Pay']) {
          expectClassAndPart(el, name);
        }
      }
    });
  });

  describe('the dark theme', () => {
    let network: TestNetwork;
    let link: HTMLLinkElement;

    before(async () => {
      network = await startNetwork();
      link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = '/themes/dark.css';
      const loaded = new Promise((resolve) => link.addEventListener('load', resolve, { once: true }));
      document.head.append(link);
      await loaded;
    });

    after(() => link.remove());

    afterEach(() => network.reset());

    it('applies through the page and keeps every element accessible (contrast included)', async () => {
      const el = await fixture<PgCheckout>(html`
        <pg-checkout mode="drop-in" methods="card installments" endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference}></pg-checkout>
      `);
      await settled(el);
      expect(getComputedStyle(shadowQuery(el, '.frame')).backgroundColor).to.equal('rgb(22, 27, 34)');
      shadowQuery(el, 'button.Pay').click();
      await settled(el);
      await expect(el).to.be.accessible();
      const installments = shadowQuery<HTMLInputElement>(el, 'input[name="method"][value="installments"]');
      installments.click();
      await settled(el);
      typeInto(shadowQuery<HTMLInputElement>(el, '#card-number'), '4111111111111111');
      await settled(el);
      await expect(el).to.be.accessible();
    });
  });

  describe('a back-office theme file through theme-href', () => {
    let network: TestNetwork;

    before(async () => {
      network = await startNetwork();
    });

    afterEach(() => network.reset());

    it('is loaded with a <link rel=stylesheet> inside the shadow root and styles the documented classes', async () => {
      const el = await fixture<PgCheckout>(html`
        <pg-checkout
          mode="merchant-page"
          theme-href="/themes/back-office-example.css"
          endpoint=${ENDPOINT}
          merchant-reference=${ORDERS.egp.merchant_reference}
        ></pg-checkout>
      `);
      await settled(el);
      const link = shadowQuery<HTMLLinkElement>(el, 'link[rel="stylesheet"]');
      expect(link.getAttribute('href')).to.equal('/themes/back-office-example.css');
      const pay = shadowQuery(el, '.Pay');
      await waitUntil(() => getComputedStyle(pay).backgroundColor === 'rgb(107, 79, 29)', 'the theme file did not apply');
      expect(getComputedStyle(pay).textTransform).to.equal('uppercase');
    });

    it('passes the theme to the elements a drop-in hosts', async () => {
      const el = await fixture<PgCheckout>(html`
        <pg-checkout
          mode="drop-in"
          methods="installments"
          card-mode="redirect"
          theme-href="/themes/back-office-example.css"
          endpoint=${ENDPOINT}
          merchant-reference=${ORDERS.egp.merchant_reference}
        ></pg-checkout>
      `);
      await settled(el);
      const installments = shadowQuery<PgInstallments>(el, 'pg-installments');
      const container = shadowQuery(installments, '.installments-container');
      await waitUntil(() => getComputedStyle(container).backgroundColor === 'rgb(253, 248, 240)', 'the theme file did not apply');
    });
  });
});
