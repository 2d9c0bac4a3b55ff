/**
 * What loads on demand: the views of <pg-installments>, <pg-bill-voucher> and <pg-financing-otp>,
 * and every element's Arabic text. The pending state while they load, a failed load shown with a
 * way to try again, the Arabic catalog loaded only for an element that shows Arabic, and the first
 * content within a frame of the module's arrival; <pg-checkout> renders at once in English.
 *
 * Each lazily loaded element is tested through a subclass registered under a test tag whose
 * `importView` goes through a gate: the test holds the import, makes it fail, or lets it through
 * to the element's own import; the gate also counts the calls to the Arabic catalog of the module
 * that arrived. <pg-checkout>'s subclass has its catalogs behind the same gate.
 */
import { expect, fixture } from '@open-wc/testing';
import '../../../src/define.ts';
import type { Language } from '../../../src/core/language.ts';
import { checkoutMessages } from '../../../src/components/pg-checkout/messages.ts';
import { billVoucherMessages } from '../../../src/components/pg-bill-voucher/messages.ts';
import { financingOtpMessages } from '../../../src/components/pg-financing-otp/messages.ts';
import { installmentsMessages } from '../../../src/components/pg-installments/messages.ts';
import type { ViewModule } from '../../../src/components/shared/element-view.ts';
import type { Catalogs } from '../../../src/components/shared/localize.ts';
import type { SharedMessages } from '../../../src/components/shared/messages.ts';
import type { PgElement } from '../../../src/components/shared/pg-element.ts';
import { PgBillVoucher, PgCheckout, PgFinancingOtp, PgInstallments } from '../../../src/index.ts';
import { elementReady, shadowQuery, textOf } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

/** What the test does to the view imports: holds them, fails them, or lets them through. */
class ViewGate {
  /** Imports asked for by the elements. */
  imports = 0;
  /** Imports still to fail (as a dynamic import fails when the network is down). */
  failures = 0;
  /** Calls to the Arabic catalog of the modules that arrived. */
  arabicLoads = 0;
  /** Arabic catalog loads still to fail. */
  arabicFailures = 0;
  /** The last import: resolves when its module has arrived (rejects when it failed). */
  lastImport: Promise<unknown> = Promise.resolve();
  /** Resolves when an element's Arabic catalog has arrived. */
  arabicArrived: Promise<void> = Promise.resolve();
  #arabicArrived = () => {};
  #held: Promise<void> = Promise.resolve();

  reset(): void {
    this.imports = this.failures = this.arabicLoads = this.arabicFailures = 0;
    this.lastImport = Promise.resolve();
    this.arabicArrived = new Promise((resolve) => (this.#arabicArrived = resolve));
    this.#held = Promise.resolve();
  }

  /** Holds every import (and Arabic catalog) from now on; returns what lets them through. */
  hold(): () => void {
    let release = () => {};
    this.#held = new Promise((resolve) => (release = resolve));
    return release;
  }

  /** An element's import, through the gate: `load` is the element's own import. */
  through<Host extends PgElement<Messages>, Messages extends SharedMessages>(
    load: () => Promise<ViewModule<Host, Messages>>,
  ): Promise<ViewModule<Host, Messages>> {
    this.imports += 1;
    const held = this.#held;
    const arrival = (async () => {
      await held;
      if (this.failures > 0) {
        this.failures -= 1;
        throw new TypeError('Failed to fetch dynamically imported module');
      }
      const module = await load();
      return { ...module, catalogs: this.watched(module.catalogs) };
    })();
    this.lastImport = arrival;
    return arrival;
  }

  /** The same catalogs, counting the loads of the Arabic one. */
  watched<Messages>(catalogs: Catalogs<Messages>): Catalogs<Messages> {
    return {
      en: catalogs.en,
      ar: async () => {
        this.arabicLoads += 1;
        await this.#held;
        if (this.arabicFailures > 0) {
          this.arabicFailures -= 1;
          throw new TypeError('Failed to fetch dynamically imported module');
        }
        const messages = await catalogs.ar();
        this.#arabicArrived();
        return messages;
      },
    };
  }
}

const gate = new ViewGate();

class GatedInstallments extends PgInstallments {
  protected override importView(language: Language) {
    return gate.through(() => super.importView(language));
  }
}

class GatedBillVoucher extends PgBillVoucher {
  protected override importView(language: Language) {
    return gate.through(() => super.importView(language));
  }
}

class GatedFinancingOtp extends PgFinancingOtp {
  protected override importView(language: Language) {
    return gate.through(() => super.importView(language));
  }
}

class GatedCheckout extends PgCheckout {
  protected override catalogs = gate.watched(checkoutMessages);
}

customElements.define('gated-checkout', GatedCheckout);
customElements.define('gated-installments', GatedInstallments);
customElements.define('gated-bill-voucher', GatedBillVoucher);
customElements.define('gated-financing-otp', GatedFinancingOtp);

type LazyElement = GatedInstallments | GatedBillVoucher | GatedFinancingOtp;

const LAZY_ELEMENTS: readonly { readonly name: string; readonly tag: string; readonly catalogs: Catalogs<{ readonly title: string }> }[] = [
  { name: '<pg-installments>', tag: 'gated-installments', catalogs: installmentsMessages },
  { name: '<pg-bill-voucher>', tag: 'gated-bill-voucher', catalogs: billVoucherMessages },
  { name: '<pg-financing-otp>', tag: 'gated-financing-otp', catalogs: financingOtpMessages },
];

const TEXT = {
  en: {
    loading: 'Loading…',
    failed: 'This part of the checkout could not be loaded. Check your connection and try again.',
    retry: 'Try again',
  },
  ar: {
    loading: 'جارٍ التحميل…',
    failed: 'تعذّر تحميل هذا الجزء من صفحة الدفع. تحقّق من اتصالك وحاول مرة أخرى.',
    retry: 'حاول مرة أخرى',
  },
} as const;

/** An element of `tag` for the EGP order, alone or inside `container`, once it has rendered once. */
async function mount(tag: string, attributes: Record<string, string> = {}, container?: HTMLElement): Promise<LazyElement> {
  const el = document.createElement(tag) as LazyElement;
  for (const [name, value] of Object.entries({ endpoint: ENDPOINT, 'merchant-reference': ORDERS.egp.merchant_reference, ...attributes })) {
    el.setAttribute(name, value);
  }
  container?.append(el);
  await fixture(container ?? el);
  await el.updateComplete;
  return el;
}

const loading = (el: Element) => el.matches(':state(loading)');
const title = (el: Element) => el.shadowRoot?.querySelector('.title') ?? null;

describe('elements loaded on demand', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  beforeEach(() => gate.reset());

  afterEach(() => network.reset());

  for (const { name, tag, catalogs } of LAZY_ELEMENTS) {
    describe(name, () => {
      for (const language of ['en', 'ar'] as const) {
        it(`shows its pending state in ${language} while its view loads, and asks the endpoint nothing`, async () => {
          const release = gate.hold();
          const el = await mount(tag, { language });
          expect(loading(el), ':state(loading)').to.equal(true);
          const frame = shadowQuery(el, '[part~="frame"]');
          expect(frame.getAttribute('lang')).to.equal(language);
          expect(frame.getAttribute('dir')).to.equal(language === 'ar' ? 'rtl' : 'ltr');
          expect(textOf(shadowQuery(el, '.loading'))).to.equal(TEXT[language].loading);
          expect(title(el), 'no content yet').to.equal(null);
          expect(network.endpointRequests).to.have.length(0);

          release();
          await elementReady(el);
          expect(loading(el), ':state(loading)').to.equal(false);
          expect(el.shadowRoot!.querySelector('.loading')).to.equal(null);
          const messages = language === 'en' ? catalogs.en : await catalogs.ar();
          expect(textOf(title(el))).to.equal(messages.title);
        });

        it(`shows its first content in ${language} within one frame of its module's arrival`, async () => {
          const release = gate.hold();
          const el = await mount(tag, { language });
          expect(loading(el)).to.equal(true);
          release();
          // In Arabic the element needs its Arabic catalog as well (imported beside the view).
          await Promise.all([gate.lastImport, language === 'ar' ? gate.arabicArrived : undefined]);
          await new Promise(requestAnimationFrame);
          expect(loading(el), ':state(loading)').to.equal(false);
          const messages = language === 'en' ? catalogs.en : await catalogs.ar();
          expect(textOf(title(el))).to.equal(messages.title);
        });
      }

      it('shows a failed load with Try again, and loads the view when the customer tries again', async () => {
        gate.failures = 1;
        const el = await elementReady(await mount(tag));
        expect(gate.imports).to.equal(1);
        expect(loading(el), ':state(loading)').to.equal(false);
        const failure = shadowQuery(el, '[part~="failure"]');
        expect(failure.getAttribute('role')).to.equal('alert');
        expect(textOf(shadowQuery(el, '[part~="failure"] [part~="error"]'))).to.equal(TEXT.en.failed);
        const retry = shadowQuery<HTMLButtonElement>(el, '[part~="failure"] [part~="retry"]');
        expect(retry.localName).to.equal('button');
        expect(textOf(retry)).to.equal(TEXT.en.retry);
        expect(title(el), 'no content').to.equal(null);
        expect(network.endpointRequests).to.have.length(0);

        retry.click();
        await elementReady(el);
        expect(gate.imports).to.equal(2);
        expect(el.shadowRoot!.querySelector('[part~="failure"]'), 'the failure is gone').to.equal(null);
        expect(textOf(title(el))).to.equal(catalogs.en.title);
      });

      it('never loads its Arabic catalog in English, and loads it once it is switched to Arabic', async () => {
        const el = await elementReady(await mount(tag));
        expect(textOf(title(el))).to.equal(catalogs.en.title);
        expect(gate.arabicLoads, 'Arabic catalog loads in English').to.equal(0);

        el.language = 'ar';
        await elementReady(el);
        expect(gate.arabicLoads, 'Arabic catalog loads').to.equal(1);
        expect(textOf(title(el))).to.equal((await catalogs.ar()).title);
      });
    });
  }

  it('says in Arabic that the load failed, with Try again in Arabic', async () => {
    gate.failures = 1;
    const el = await elementReady(await mount('gated-installments', { language: 'ar' }));
    expect(textOf(shadowQuery(el, '[part~="failure"] [part~="error"]'))).to.equal(TEXT.ar.failed);
    const retry = shadowQuery<HTMLButtonElement>(el, '[part~="failure"] [part~="retry"]');
    expect(textOf(retry)).to.equal(TEXT.ar.retry);
    retry.click();
    await elementReady(el);
    expect(textOf(title(el))).to.equal((await installmentsMessages.ar()).title);
  });

  describe('a required <pg-installments> in a form', () => {
    it('makes the form invalid while its plans cannot be chosen yet', async () => {
      const release = gate.hold();
      const form = document.createElement('form');
      const el = (await mount('gated-installments', { required: '' }, form)) as GatedInstallments;
      expect(loading(el)).to.equal(true);
      expect(el.validity.valueMissing).to.equal(true);
      expect(el.validationMessage).to.equal('The installment plans are still loading.');
      expect(form.checkValidity()).to.equal(false);

      release();
      await elementReady(el);
      // Loaded, and still no plan chosen.
      expect(el.validity.valueMissing).to.equal(true);
      expect(form.checkValidity()).to.equal(false);
    });

    it('leaves a form valid while loading when no plan is required', async () => {
      gate.hold();
      const form = document.createElement('form');
      const el = (await mount('gated-installments', {}, form)) as GatedInstallments;
      expect(loading(el)).to.equal(true);
      expect(el.validity.valid).to.equal(true);
      expect(form.checkValidity()).to.equal(true);
    });
  });

  describe('<pg-checkout>', () => {
    const checkout = async (language: Language) => {
      const el = document.createElement('gated-checkout') as GatedCheckout;
      el.setAttribute('mode', 'drop-in');
      el.setAttribute('methods', 'card voucher');
      el.setAttribute('language', language);
      await fixture(el);
      return el;
    };
    const legend = (el: Element) => textOf(shadowQuery(el, '[part~="methods"] legend'));

    it('renders its content in English at its first update, without the Arabic catalog', async () => {
      gate.hold();
      const el = await checkout('en');
      expect(loading(el), ':state(loading)').to.equal(false);
      expect(legend(el)).to.equal(checkoutMessages.en.methodsLegend);
      expect(gate.arabicLoads).to.equal(0);
    });

    it('shows its pending state in Arabic until its Arabic catalog arrives, then Arabic only', async () => {
      const release = gate.hold();
      const el = await checkout('ar');
      expect(loading(el), ':state(loading)').to.equal(true);
      expect(textOf(shadowQuery(el, '[part~="frame"]')), 'nothing but the pending text').to.equal(TEXT.ar.loading);
      expect(gate.arabicLoads).to.equal(1);

      release();
      await gate.arabicArrived;
      await new Promise(requestAnimationFrame);
      expect(loading(el), ':state(loading)').to.equal(false);
      expect(legend(el)).to.equal((await checkoutMessages.ar()).methodsLegend);
    });

    it('shows a failed Arabic catalog with Try again in Arabic, and loads it when the customer tries again', async () => {
      gate.arabicFailures = 1;
      const el = await elementReady(await checkout('ar'));
      expect(textOf(shadowQuery(el, '[part~="failure"] [part~="error"]'))).to.equal(TEXT.ar.failed);
      const retry = shadowQuery<HTMLButtonElement>(el, '[part~="failure"] [part~="retry"]');
      expect(textOf(retry)).to.equal(TEXT.ar.retry);
      expect(el.shadowRoot!.querySelector('[part~="methods"]'), 'no content').to.equal(null);

      retry.click();
      await elementReady(el);
      expect(gate.arabicLoads).to.equal(2);
      expect(legend(el)).to.equal((await checkoutMessages.ar()).methodsLegend);
    });
  });
});
