/**
 * Every public property of every element takes its attribute's text as well as its own type:
 * React 19 and Vue 3 set the DOM property whenever the element has one of the prop's name, so
 * `methods="card voucher"` arrives as the text set on `el.methods`. Set either way, a property reads
 * the same; an invalid value reads as the invalid attribute does; a framework dropping a prop
 * (null or undefined) gives the default back, as removing the attribute does.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/define.ts';
import { createManualClock, systemClock } from '../../../src/core/voucher.ts';
import type { SharedMessages } from '../../../src/components/shared/messages.ts';
import { PgBillVoucher, PgCheckout, PgFinancingOtp, PgInstallments, type PgElement } from '../../../src/index.ts';
import { elementReady, settled, shadowQuery, shadowQueryAll, textOf } from '../support/dom.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

interface PropertyCase {
  /** The property's attribute; none for a property only a script or a framework sets. */
  readonly attribute?: string;
  /** What the property reads with nothing set, and again once the attribute is removed or the prop dropped. */
  readonly initial: unknown;
  /** Texts an attribute can take (valid and invalid), each with what the property reads. */
  readonly texts?: readonly (readonly [string, unknown])[];
  /** Values of the property's own type (or wrong types), each with what the property reads. */
  readonly values?: readonly (readonly [unknown, unknown])[];
}

type Cases = Readonly<Record<string, PropertyCase>>;

const manualClock = createManualClock(Date.UTC(2026, 10, 1));
const products = [{ product_name: 'Television', product_price: '2500.00', product_category: 'electronics' }];

/** The base class's properties, on every element. */
const SHARED: Cases = {
  endpoint: { attribute: 'endpoint', initial: '', texts: [['/pg', '/pg']] },
  merchantReference: {
    attribute: 'merchant-reference',
    initial: '',
    texts: [['order-1042', 'order-1042']],
    values: [[1042, '1042']],
  },
  language: { attribute: 'language', initial: 'en', texts: [['ar', 'ar'], ['en', 'en'], ['fr', 'en'], ['AR', 'en']] },
  themeHref: { attribute: 'theme-href', initial: '', texts: [['/themes/back-office-example.css', '/themes/back-office-example.css']] },
  orderToken: { attribute: 'order-token', initial: '', texts: [['9f3c0a7e', '9f3c0a7e']] },
};

const flag = (attribute: string): PropertyCase => ({
  attribute,
  initial: false,
  texts: [['', true], [attribute, true], ['true', true], ['false', false], ['FALSE', false]],
  values: [[true, true], [false, false]],
});

const command: PropertyCase = {
  attribute: 'command',
  initial: 'PURCHASE',
  // An unknown command is kept, so that it is refused rather than charged as a PURCHASE (below).
  texts: [['AUTHORIZATION', 'AUTHORIZATION'], ['PURCHASE', 'PURCHASE'], ['AUTHORISATION', 'AUTHORISATION']],
};

const plansView: PropertyCase = { attribute: 'plans-view', initial: 'dropdown', texts: [['table', 'table'], ['list', 'dropdown']] };

const amount: PropertyCase = {
  attribute: 'amount',
  initial: undefined,
  texts: [['150000', 150000], [' 4500 ', 4500], ['١٥٠٠٠٠', 150000], ['1500.50', undefined], ['-5', undefined], ['EGP', undefined], ['', undefined]],
  values: [[150000, 150000], [0, 0], [2.5, undefined], [Number.NaN, undefined]],
};

const clock: PropertyCase = { initial: systemClock, values: [[manualClock, manualClock], [{ now: 5 }, systemClock]] };

const text = (attribute: string, sample: string): PropertyCase => ({ attribute, initial: '', texts: [[sample, sample]] });

const ELEMENTS: readonly { readonly tag: string; readonly element: typeof PgElement<SharedMessages>; readonly cases: Cases }[] = [
  {
    tag: 'pg-checkout',
    element: PgCheckout,
    cases: {
      ...SHARED,
      mode: {
        attribute: 'mode',
        initial: 'redirect',
        texts: [['drop-in', 'drop-in'], ['merchant-page', 'merchant-page'], ['embedded', 'embedded'], ['dropin', 'redirect']],
      },
      intent: { attribute: 'intent', initial: 'pay', texts: [['save-card', 'save-card'], ['save', 'pay']] },
      command,
      methods: {
        attribute: 'methods',
        initial: ['card'],
        texts: [
          ['card voucher', ['card', 'voucher']],
          ['voucher, card bogus card', ['voucher', 'card']],
          ['bogus', ['card']],
          ['', ['card']],
        ],
        values: [
          [['financing', 'card'], ['financing', 'card']],
          [['cash'], ['card']],
          [42, ['card']],
        ],
      },
      method: { attribute: 'method', initial: undefined, texts: [['voucher', 'voucher'], ['cash', undefined]] },
      cardMode: {
        attribute: 'card-mode',
        initial: 'merchant-page',
        texts: [['redirect', 'redirect'], ['embedded', 'embedded'], ['hosted', 'merchant-page']],
      },
      customerEmail: text('customer-email', 'laila@example.com'),
      plansView,
      hideRememberMe: flag('hide-remember-me'),
    },
  },
  {
    tag: 'pg-installments',
    element: PgInstallments,
    cases: {
      ...SHARED,
      plansView,
      completion: { attribute: 'completion', initial: 'hosted-page', texts: [['hosted-checkout', 'hosted-checkout'], ['direct', 'hosted-checkout'], ['none', 'none'], ['later', 'hosted-page']] },
      cardSource: { attribute: 'card-source', initial: 'own', texts: [['host', 'host'], ['parent', 'own']] },
      cardPrefix: { initial: '', values: [['51234567', '51234567']] },
      command,
      monthlySource: { attribute: 'monthly-source', initial: 'formula', texts: [['gateway', 'gateway'], ['bank', 'formula']] },
      hideReceipt: flag('hide-receipt'),
      required: flag('required'),
    },
  },
  {
    tag: 'pg-bill-voucher',
    element: PgBillVoucher,
    cases: {
      ...SHARED,
      currency: text('currency', 'EGP'),
      amount,
      billNumber: { attribute: 'bill-number', initial: '', texts: [['12345678901234', '12345678901234']] },
      expires: {
        attribute: 'expires',
        initial: '',
        texts: [['2026-12-01T18:00:00+02:00', '2026-12-01T18:00:00+02:00'], ['next week', 'next week']],
        values: [
          [new Date(Date.UTC(2026, 11, 1, 16)), '2026-12-01T16:00:00.000Z'],
          [new Date(Number.NaN), 'Invalid Date'],
        ],
      },
      paymentPartner: text('payment-partner', 'CASHP'),
      partnerName: text('partner-name', 'Cash Point'),
      allowReissue: flag('allow-reissue'),
      autoIssue: flag('auto-issue'),
      customerName: text('customer-name', 'Laila Nabil'),
      customerEmail: text('customer-email', 'laila@example.com'),
      timeZone: text('time-zone', 'Africa/Cairo'),
      clock,
    },
  },
  {
    tag: 'pg-financing-otp',
    element: PgFinancingOtp,
    cases: {
      ...SHARED,
      products: { initial: [], values: [[products, products], ['Television', []]] },
      currency: text('currency', 'EGP'),
      amount,
      customerEmail: text('customer-email', 'laila@example.com'),
      resendAfter: { attribute: 'resend-after', initial: 60, texts: [['30', 30], ['0', 0], ['soon', 60], ['-1', 60]], values: [[45, 45]] },
      maxOtpAttempts: { attribute: 'max-otp-attempts', initial: 3, texts: [['5', 5], ['0', 3]], values: [[2, 2]] },
      otpLength: { attribute: 'otp-length', initial: 6, texts: [['4', 4], ['six', 6]], values: [[8, 8]] },
      clock,
    },
  },
];

/** The element's property by name, for reading and writing in a table-driven test. */
const properties = (element: Element) => element as unknown as Record<string, unknown>;

describe('element properties', () => {
  for (const { tag, element, cases } of ELEMENTS) {
    describe(`<${tag}>`, () => {
      const create = () => document.createElement(tag);

      it('has a case here for each of its public properties, and each reads through a property reader', () => {
        const declared = [...element.elementProperties].filter(([, options]) => !options.state);
        expect(declared.map(([name]) => String(name)).sort()).to.deep.equal(Object.keys(cases).sort());
        for (const [name, options] of declared) {
          const reader = options.converter as { fromValue?: unknown } | undefined;
          expect(typeof reader?.fromValue, `${String(name)} has a reader`).to.equal('function');
        }
      });

      it('observes exactly the attributes listed here', () => {
        const attributes = Object.values(cases).flatMap((entry) => (entry.attribute ? [entry.attribute] : []));
        expect([...element.observedAttributes].sort()).to.deep.equal(attributes.sort());
      });

      for (const [name, entry] of Object.entries(cases)) {
        describe(name, () => {
          it('starts at its default', () => {
            expect(properties(create())[name]).to.deep.equal(entry.initial);
          });

          for (const [text, expected] of entry.texts ?? []) {
            it(`reads ${JSON.stringify(text)} the same from the attribute and from the property`, () => {
              const byAttribute = create();
              byAttribute.setAttribute(entry.attribute ?? name, text);
              const byProperty = create();
              properties(byProperty)[name] = text;
              expect(properties(byAttribute)[name], 'attribute').to.deep.equal(expected);
              expect(properties(byProperty)[name], 'property').to.deep.equal(expected);
            });
          }

          for (const [value, expected] of entry.values ?? []) {
            it(`reads ${describeValue(value)} set as the property`, () => {
              const el = create();
              properties(el)[name] = value;
              expect(properties(el)[name]).to.deep.equal(expected);
            });
          }

          it('goes back to its default when a framework drops the prop (null, undefined)', () => {
            const [sample] = entry.values?.[0] ?? entry.texts?.[0] ?? [];
            for (const dropped of [null, undefined]) {
              const el = create();
              properties(el)[name] = sample;
              properties(el)[name] = dropped;
              expect(properties(el)[name], String(dropped)).to.deep.equal(entry.initial);
            }
          });

          if (entry.attribute) {
            it('goes back to its default when the attribute is removed', () => {
              const el = create();
              el.setAttribute(entry.attribute!, entry.texts?.[0]?.[0] ?? '');
              el.removeAttribute(entry.attribute!);
              expect(properties(el)[name]).to.deep.equal(entry.initial);
            });
          }
        });
      }
    });
  }
});

function describeValue(value: unknown): string {
  if (value instanceof Date) return `a Date (${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  if (value === manualClock) return 'a clock';
  return JSON.stringify(value) ?? String(value);
}

describe('properties set as text, as React 19 and Vue 3 set them', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  it('renders a drop-in whose methods were given as text, accessibly', async () => {
    const el = await fixture<PgCheckout>(html`<pg-checkout mode="drop-in" endpoint=${ENDPOINT}></pg-checkout>`);
    properties(el)['methods'] = 'voucher card';
    el.merchantReference = ORDERS.egp.merchant_reference;
    await settled(el);
    const offered = shadowQueryAll<HTMLInputElement>(el, 'input[name="method"]').map((radio) => radio.value);
    expect(offered).to.deep.equal(['voucher', 'card']);
    await expect(el).to.be.accessible();
  });

  it('refuses an unknown command without asking the endpoint, instead of charging a PURCHASE', async () => {
    const el = await fixture<PgCheckout>(html`
      <pg-checkout endpoint=${ENDPOINT} merchant-reference=${ORDERS.egp.merchant_reference} command="AUTHORISATION"></pg-checkout>
    `);
    await settled(el);
    shadowQuery<HTMLButtonElement>(el, 'button.Pay').click();
    await settled(el);
    expect(network.requestsTo('/hosted-page')).to.have.length(0);
    expect(textOf(shadowQuery(el, '.failure'))).not.to.equal('');
  });

  it('shows a stored bill whose expiry was given as a Date and whose amount as text', async () => {
    const el = await fixture<PgBillVoucher>(html`<pg-bill-voucher bill-number="12345678901234"></pg-bill-voucher>`);
    el.clock = createManualClock(Date.UTC(2026, 10, 1));
    properties(el)['amount'] = '150000';
    properties(el)['expires'] = new Date(Date.UTC(2026, 11, 1, 16));
    await elementReady(el);
    expect(el.issuedBill).to.include({ billNumber: '12345678901234', amount: 150000, expires: '2026-12-01T16:00:00.000Z' });
    expect(textOf(shadowQuery(el, '[part~="amount"]'))).to.contain('1,500.00');
  });

  it('shows the order total of a financing element whose amount was given as text', async () => {
    const el = await fixture<PgFinancingOtp>(html`<pg-financing-otp currency="EGP"></pg-financing-otp>`);
    properties(el)['amount'] = '250000';
    await elementReady(el);
    expect(el.amount).to.equal(250000);
    expect(textOf(shadowQuery(el, 'form'))).to.contain('2,500.00');
  });
});
