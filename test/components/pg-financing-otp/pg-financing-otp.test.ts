import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { http, HttpResponse } from 'msw';
import '../../../src/components/pg-financing-otp/define.ts';
import type { PgFinancingOtp } from '../../../src/components/pg-financing-otp/pg-financing-otp.ts';
import type { PgFinancingCompleteEvent } from '../../../src/components/pg-financing-otp/events.ts';
import type { PgRequestErrorEvent } from '../../../src/components/shared/events.ts';
import { flowStorageKey } from '../../../src/components/pg-financing-otp/flow-state.ts';
import { formatMoney } from '../../../src/core/amounts.ts';
import type { FinancingProduct } from '../../../src/core/endpoint-api.ts';
import { createManualClock, type ManualClock } from '../../../src/core/voucher.ts';
import { emiOf } from '../../../src/sandbox/financing.ts';
import {
  FINANCING_DOWN_PAYMENT_PERCENT,
  FINANCING_TENURES,
  MAX_OTP_ATTEMPTS,
  REGISTERED_FINANCING_PHONE,
  SANDBOX_OTP,
  UNREGISTERED_FINANCING_PHONE,
} from '../../../src/sandbox/test-cards.ts';
import {
  assertFocused,
  deepActiveElement,
  pressKey,
  recordEvents,
  settled,
  shadowQuery,
  shadowQueryAll,
  tabTo,
  textOf,
  typeInto,
  typeKeys,
} from '../support/dom.ts';
import { ENDPOINT, startNetwork, type TestNetwork } from '../support/network.ts';

const ORDER_AMOUNT = 250_000;
const DOWN_PAYMENT = (ORDER_AMOUNT * FINANCING_DOWN_PAYMENT_PERCENT) / 100;
/** Arabic-Indic digits of a string of ASCII digits. */
const arabicIndic = (digits: string) => digits.replace(/\d/g, (digit) => String.fromCharCode(0x0660 + Number(digit)));
const plain = (text: string) => text.replace(/[\u200e\u200f\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
const egp = (minor: number, language: 'en' | 'ar' = 'en') => plain(formatMoney(minor, 'EGP', language));
const WRONG_OTP = SANDBOX_OTP === '000000' ? '111111' : '000000';

describe('<pg-financing-otp>', () => {
  let network: TestNetwork;
  let orderCount = 0;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => {
    network.reset();
    sessionStorage.clear();
  });

  function newOrder(): string {
    orderCount += 1;
    const reference = `financing-test-${Date.now()}-${orderCount}`;
    network.orders.add({ merchant_reference: reference, amount: ORDER_AMOUNT, currency: 'EGP', description: 'Television' });
    return reference;
  }

  interface Options {
    reference?: string;
    language?: 'en' | 'ar';
    clock?: ManualClock;
    products?: FinancingProduct[];
  }

  async function financing(options: Options = {}) {
    const el = await fixture<PgFinancingOtp>(html`
      <pg-financing-otp
        endpoint=${ENDPOINT}
        merchant-reference=${options.reference ?? newOrder()}
        language=${options.language ?? 'en'}
        .clock=${options.clock ?? createManualClock(Date.now())}
        .products=${options.products ?? []}
      ></pg-financing-otp>
    `);
    await settled(el);
    return el;
  }

  const phoneInput = (el: PgFinancingOtp) => shadowQuery<HTMLInputElement>(el, '#phone');
  const otpInput = (el: PgFinancingOtp) => shadowQuery<HTMLInputElement>(el, '#otp');
  const primary = (el: PgFinancingOtp) => shadowQuery<HTMLButtonElement>(el, 'button.Pay');
  const errorText = (el: PgFinancingOtp) => textOf(shadowQuery(el, '[part~="error"]'));
  const status = (el: PgFinancingOtp) => textOf(shadowQuery(el, '[role="status"]'));
  const financingRequests = () => network.endpointRequests.filter((request) => request.path.startsWith(`${ENDPOINT}/financing/`));

  async function submitPhone(el: PgFinancingOtp, phone = REGISTERED_FINANCING_PHONE) {
    typeInto(phoneInput(el), phone);
    await el.updateComplete;
    primary(el).click();
    await settled(el);
  }

  async function submitOtp(el: PgFinancingOtp, otp = SANDBOX_OTP) {
    typeInto(otpInput(el), otp);
    await el.updateComplete;
    primary(el).click();
    await settled(el);
  }

  async function reachTenures(el: PgFinancingOtp) {
    await submitPhone(el);
    await submitOtp(el);
    expect(el.step).to.equal('tenure');
  }

  async function chooseTenure(el: PgFinancingOtp, months: number) {
    shadowQuery<HTMLInputElement>(el, `input[name="tenure"][value="${months}"]`).click();
    await el.updateComplete;
  }

  /** axe finds nothing, and no inline style attribute would need 'unsafe-inline' under a strict CSP. */
  async function checkPage(el: PgFinancingOtp) {
    await expect(el).to.be.accessible();
    expect(shadowQueryAll(el, '[style]')).to.have.length(0);
  }

  describe('accessibility', () => {
    for (const language of ['en', 'ar'] as const) {
      it(`passes an axe check in ${language} at every step`, async () => {
        const el = await financing({ language });
        await checkPage(el);
        await submitPhone(el, '123');
        await checkPage(el);
        await submitPhone(el);
        expect(el.step).to.equal('otp');
        await checkPage(el);
        await submitOtp(el, WRONG_OTP);
        await checkPage(el);
        await submitOtp(el);
        await checkPage(el);
        await chooseTenure(el, FINANCING_TENURES[1]!.months);
        primary(el).click();
        await settled(el);
        expect(el.step).to.equal('done');
        await checkPage(el);
      });
    }
  });

  describe('layout', () => {
    it('stacks each step in a column in the body font, only the title bold', async () => {
      const el = await financing();
      const style = (selector: string) => getComputedStyle(shadowQuery(el, selector));
      expect([style('.financing').display, style('.financing').flexDirection, style('.financing').fontWeight]).to.deep.equal(['flex', 'column', '400']);
      expect([style('.step').display, style('.step').flexDirection]).to.deep.equal(['flex', 'column']);
      expect(style('.title').fontWeight).to.equal('600');
      expect(style('.financing').fontSize).to.equal(getComputedStyle(el).fontSize);
    });

    for (const language of ['en', 'ar'] as const) {
      it(`shows each tenure as a block of labelled figures within a phone's screen (375 px, ${language})`, async () => {
        await setViewport({ width: 375, height: 812 });
        try {
          const el = await financing({ language });
          await reachTenures(el);
          expect(document.documentElement.scrollWidth).to.be.at.most(375);
          // In Arabic a table too wide spills to the left, where nothing scrolls: every cell is measured.
          const outside = shadowQueryAll(el, 'table, tbody th, tbody td').filter((cell) => {
            const box = cell.getBoundingClientRect();
            return box.left < 0 || box.right > 375;
          });
          expect(outside.map(textOf)).to.deep.equal([]);
          const labels = shadowQueryAll(el, 'thead th').slice(1).map((header) => `"${textOf(header)}"`);
          for (const row of shadowQueryAll(el, '[part~="tenure-row"]')) {
            expect([...row.querySelectorAll('td')].map((cell) => getComputedStyle(cell, '::before').content)).to.deep.equal(labels);
          }
        } finally {
          await setViewport({ width: 800, height: 600 });
        }
      });
    }

    it('gives each tenure’s radio and months a touch target at least 44 px tall, on a phone and a tablet', async () => {
      try {
        for (const width of [375, 1024]) {
          await setViewport({ width, height: 812 });
          const el = await financing({ language: 'ar' });
          await reachTenures(el);
          const heights = shadowQueryAll(el, 'tbody th label').map((label) => label.getBoundingClientRect().height);
          expect(heights).to.have.length(FINANCING_TENURES.length);
          expect(heights.filter((height) => height < 44), `${width} px`).to.deep.equal([]);
        }
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    });

    it('keeps the tenures a table with its header row on a wide screen', async () => {
      const el = await financing();
      await reachTenures(el);
      expect(getComputedStyle(shadowQuery(el, 'thead')).display).to.equal('table-header-group');
      expect(getComputedStyle(shadowQuery(el, 'tbody td')).display).to.equal('table-cell');
    });
  });

  describe('step 1: the mobile number (CUSTOMER_VERIFY)', () => {
    it('refuses a number outside the partner market before any request', async () => {
      const el = await financing();
      for (const number of ['12345', '+44 7700 900123', '0101234567']) {
        await submitPhone(el, number);
        expect(phoneInput(el).getAttribute('aria-invalid')).to.equal('true');
        expect(errorText(el)).to.contain('Egyptian mobile number');
      }
      await submitPhone(el, '');
      expect(errorText(el)).to.equal('Enter your mobile number.');
      expect(financingRequests()).to.have.length(0);
      assertFocused(phoneInput(el));
    });

    it('sends the number normalized, whatever the customer typed', async () => {
      const el = await financing();
      await submitPhone(el, `+20 ${arabicIndic(REGISTERED_FINANCING_PHONE.slice(1))}`);
      expect(network.requestsTo('/financing/verify-customer')[0]!.fields?.['phone_number']).to.equal(
        REGISTERED_FINANCING_PHONE,
      );
    });

    it('says when the customer is not registered with the partner, and asks for no code', async () => {
      const el = await financing();
      await submitPhone(el, UNREGISTERED_FINANCING_PHONE);
      expect(el.step).to.equal('phone');
      expect(errorText(el)).to.contain('not registered with the financing partner');
      expect(phoneInput(el).getAttribute('aria-invalid')).to.equal('true');
      expect(network.requestsTo('/financing/otp')).to.have.length(0);
    });

    it('shows that it is working while the number is checked', async () => {
      const el = await financing();
      typeInto(phoneInput(el), REGISTERED_FINANCING_PHONE);
      const release = network.holdEndpoint();
      primary(el).click();
      await el.updateComplete;
      expect(textOf(primary(el))).to.equal('Checking your number…');
      expect(primary(el).getAttribute('aria-disabled')).to.equal('true');
      expect(shadowQuery(el, 'form').getAttribute('aria-busy')).to.equal('true');
      primary(el).click();
      release();
      await settled(el);
      expect(network.requestsTo('/financing/verify-customer')).to.have.length(1);
    });

    it('explains that the endpoint is down and tries again', async () => {
      const el = await financing();
      network.endpointUnreachable();
      await submitPhone(el);
      expect(errorText(el)).to.contain('We could not reach the payment service');
      expect(deepActiveElement()?.matches('button.retry')).to.equal(true);
      network.worker.resetHandlers();
      shadowQuery(el, 'button.retry').click();
      await settled(el);
      expect(el.step).to.equal('otp');
    });
  });

  describe('step 2: the code by SMS (OTP_GENERATE)', () => {
    it('asks for the code right after the number is verified, with the products given', async () => {
      const products: FinancingProduct[] = [{ product_name: 'Television', product_price: '2500.00', product_category: 'electronics' }];
      const el = await financing({ products });
      await submitPhone(el);
      const verify = network.requestsTo('/financing/verify-customer');
      const otp = network.requestsTo('/financing/otp');
      expect(verify).to.have.length(1);
      expect(otp).to.have.length(1);
      expect(otp[0]!.fields?.['products']).to.deep.equal(products);
      expect(otp[0]!.fields?.['flow']).to.be.a('string').and.not.equal('');
      expect(el.step).to.equal('otp');
    });

    it('shows the down payment and the tenures offered', async () => {
      const el = await financing();
      await submitPhone(el);
      const summary = plain(textOf(shadowQuery(el, '[part~="summary"]')));
      expect(summary).to.contain(egp(DOWN_PAYMENT));
      for (const { months } of FINANCING_TENURES) expect(summary).to.contain(`${months} months`);
      expect(textOf(shadowQuery(el, 'form > p'))).to.contain('010•••••678');
    });

    it('keeps the verified number and asks again only for the code when sending it failed', async () => {
      const el = await financing();
      network.use(http.post(`${ENDPOINT}/financing/otp`, () => HttpResponse.error()));
      await submitPhone(el);
      expect(el.step).to.equal('verified');
      expect(errorText(el)).to.contain('We could not reach the payment service');
      network.worker.resetHandlers();
      shadowQuery(el, 'button.retry').click();
      await settled(el);
      expect(el.step).to.equal('otp');
      expect(network.requestsTo('/financing/verify-customer')).to.have.length(1);
    });

    it('offers no "Try again" when the order was paid another way meanwhile (a card in another tab): asking again would be refused again', async () => {
      const el = await financing();
      network.use(
        http.post(`${ENDPOINT}/financing/otp`, () =>
          HttpResponse.json({ error: { code: 'order_already_paid', message: 'paid', field: 'merchant_reference' } }, { status: 409 }),
        ),
      );
      await submitPhone(el);
      expect(errorText(el)).to.contain('This order has already been paid.');
      expect(el.shadowRoot?.querySelector('button.retry'), 'no way to ask again').to.equal(null);
    });

    it('goes back to the number with "Use a different number"', async () => {
      const el = await financing();
      await submitPhone(el);
      shadowQuery(el, 'button.back').click();
      await el.updateComplete;
      expect(el.step).to.equal('phone');
      expect(sessionStorage.getItem(flowStorageKey(el.merchantReference))).to.equal(null);
    });
  });

  describe('step 3: typing the code (OTP_VERIFY)', () => {
    it('is one numeric field that browsers can fill from the SMS', async () => {
      const el = await financing();
      await submitPhone(el);
      expect(shadowQueryAll(el, 'input:not([type="radio"])')).to.have.length(1);
      expect(otpInput(el).getAttribute('inputmode')).to.equal('numeric');
      expect(otpInput(el).getAttribute('autocomplete')).to.equal('one-time-code');
      assertFocused(otpInput(el));
    });

    it('takes a pasted code whole, whatever text comes with it', async () => {
      const el = await financing();
      await submitPhone(el);
      const data = new DataTransfer();
      data.setData('text/plain', `Your code is ${SANDBOX_OTP.slice(0, 3)} ${SANDBOX_OTP.slice(3)}`);
      otpInput(el).dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true }));
      await el.updateComplete;
      expect(otpInput(el).value).to.equal(SANDBOX_OTP);
      primary(el).click();
      await settled(el);
      expect(el.step).to.equal('tenure');
    });

    it('accepts Arabic-Indic digits typed on the keyboard', async () => {
      const el = await financing({ language: 'ar' });
      await submitPhone(el);
      otpInput(el).focus();
      await typeKeys(arabicIndic(SANDBOX_OTP));
      await el.updateComplete;
      expect(otpInput(el).value).to.equal(SANDBOX_OTP);
      primary(el).click();
      await settled(el);
      expect(network.requestsTo('/financing/verify-otp')[0]!.fields?.['otp']).to.equal(SANDBOX_OTP);
      expect(el.step).to.equal('tenure');
    });

    it('refuses a code of the wrong length before any request', async () => {
      const el = await financing();
      await submitPhone(el);
      await submitOtp(el, '12');
      expect(errorText(el)).to.equal('The code has 6 digits.');
      expect(network.requestsTo('/financing/verify-otp')).to.have.length(0);
    });

    it('shows the attempts left after a wrong code, then locks until a new code', async () => {
      const el = await financing();
      await submitPhone(el);
      for (let attempt = 1; attempt < MAX_OTP_ATTEMPTS; attempt += 1) {
        await submitOtp(el, WRONG_OTP);
        const left = MAX_OTP_ATTEMPTS - attempt;
        expect(errorText(el)).to.equal(`That code is not right. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`);
        expect(otpInput(el).getAttribute('aria-invalid')).to.equal('true');
        expect(status(el)).to.equal(errorText(el));
      }
      await submitOtp(el, WRONG_OTP);
      expect(errorText(el)).to.equal('Too many wrong codes. You need a new code to continue.');
      expect(otpInput(el).disabled).to.equal(true);
      expect(el.step).to.equal('otp');
      // "Send a new code" still waits: focus goes to the lock message, not to the greyed-out Verify.
      expect(shadowQuery<HTMLButtonElement>(el, 'button.resend-button').disabled).to.equal(true);
      assertFocused(shadowQuery(el, '#otp-error'));
    });

    it('at the phone number\'s ceiling, says to wait and counts down to the next code instead of asking for one now', async () => {
      const clock = createManualClock(Date.now());
      const el = await financing({ clock });
      await submitPhone(el);
      clock.advance(60_000);
      await el.updateComplete;
      network.use(
        http.post(`${ENDPOINT}/financing/verify-otp`, () =>
          HttpResponse.json(
            { error: { code: 'otp_attempts_limited', field: 'otp', message: 'otp: too many wrong codes', response_code: '93002' } },
            { status: 429, headers: { 'retry-after': '1800' } },
          ),
        ),
      );
      const events = recordEvents(el, 'pg-request-error');
      await submitOtp(el, WRONG_OTP);
      expect(errorText(el)).to.equal('Too many wrong codes for this number.');
      expect(otpInput(el).disabled).to.equal(true);
      expect(shadowQuery<HTMLButtonElement>(el, 'button.resend-button').disabled).to.equal(true);
      expect(textOf(shadowQuery(el, '[part~="countdown"]'))).to.equal('You can ask for a new code in 30:00.');
      assertFocused(shadowQuery(el, '#otp-error'));
      expect(events.map((event) => (event as PgRequestErrorEvent).message)).to.deep.equal(['Too many wrong codes for this number.']);
      // Pressing Verify again keeps saying why.
      shadowQuery<HTMLButtonElement>(el, 'button.Pay').click();
      await settled(el);
      expect(errorText(el)).to.equal('Too many wrong codes for this number.');
      clock.advance(1_800_000);
      await el.updateComplete;
      expect(shadowQuery<HTMLButtonElement>(el, 'button.resend-button').disabled).to.equal(false);
    });

    it('has a resend action with a visible countdown that follows the clock', async () => {
      const clock = createManualClock(Date.now());
      const el = await financing({ clock });
      await submitPhone(el);
      const resend = () => shadowQuery<HTMLButtonElement>(el, 'button.resend-button');
      const countdown = () => textOf(shadowQuery(el, '[part~="countdown"]'));
      expect(status(el)).to.contain('You can ask for a new code in 60 seconds');
      expect(resend().disabled).to.equal(true);
      expect(countdown()).to.equal('You can ask for a new code in 1:00.');
      expect(shadowQuery(el, '[part~="countdown"]').getAttribute('role')).to.equal('timer');
      clock.advance(59_000);
      await el.updateComplete;
      expect(countdown()).to.equal('You can ask for a new code in 0:01.');
      clock.advance(1000);
      await el.updateComplete;
      expect(resend().disabled).to.equal(false);
      expect(shadowQueryAll(el, '[part~="countdown"]')).to.have.length(0);
      expect(status(el)).to.equal('You can now ask for a new code.');
    });

    it('says when a new code may be asked for once the endpoint limits resends, and counts down to it', async () => {
      const clock = createManualClock(Date.now());
      const el = await financing({ clock, language: 'ar' });
      await submitPhone(el);
      clock.advance(60_000);
      await el.updateComplete;
      network.use(
        http.post(`${ENDPOINT}/financing/otp`, () =>
          HttpResponse.json(
            { error: { code: 'otp_resend_limited', message: 'too many codes' } },
            { status: 429, headers: { 'retry-after': '600' } },
          ),
        ),
      );
      shadowQuery(el, 'button.resend-button').click();
      await settled(el);
      expect(status(el)).to.equal('تم إرسال عدد كبير من الرموز. يمكنك طلب رمز جديد بعد ١٠ دقائق.');
      expect(shadowQuery<HTMLButtonElement>(el, 'button.resend-button').disabled).to.equal(true);
      expect(textOf(shadowQuery(el, '[part~="countdown"]'))).to.contain('١٠:٠٠');
      clock.advance(600_000);
      await el.updateComplete;
      expect(shadowQuery<HTMLButtonElement>(el, 'button.resend-button').disabled).to.equal(false);
    });

    it('sends a new code, which unlocks the field and restarts the countdown', async () => {
      const clock = createManualClock(Date.now());
      const el = await financing({ clock });
      await submitPhone(el);
      for (let attempt = 0; attempt < MAX_OTP_ATTEMPTS; attempt += 1) await submitOtp(el, WRONG_OTP);
      expect(otpInput(el).disabled).to.equal(true);
      clock.advance(60_000);
      await el.updateComplete;
      shadowQuery(el, 'button.resend-button').click();
      await settled(el);
      expect(network.requestsTo('/financing/otp')).to.have.length(2);
      expect(otpInput(el).disabled).to.equal(false);
      expect(shadowQuery<HTMLButtonElement>(el, 'button.resend-button').disabled).to.equal(true);
      await submitOtp(el);
      expect(el.step).to.equal('tenure');
    });

    it('explains that the endpoint is down', async () => {
      const el = await financing();
      await submitPhone(el);
      network.endpointUnreachable();
      await submitOtp(el);
      expect(errorText(el)).to.contain('We could not reach the payment service');
      expect(el.step).to.equal('otp');
    });
  });

  describe('step 4: the tenure and PURCHASE', () => {
    it('shows each tenure with its monthly installment, interest rate and full cost, down payment included', async () => {
      const el = await financing();
      await reachTenures(el);
      expect(shadowQueryAll(el, 'thead th').map(textOf)).to.deep.equal(['Plan', 'Monthly installment', 'Interest rate', 'Total payable']);
      const rows = shadowQueryAll(el, 'tr[part~="tenure-row"]');
      expect(rows).to.have.length(FINANCING_TENURES.length);
      FINANCING_TENURES.forEach(({ months, interestRate }, index) => {
        const emi = emiOf(ORDER_AMOUNT, DOWN_PAYMENT, months, interestRate);
        const cells = rows[index]!.querySelectorAll('th, td');
        expect(textOf(cells[0])).to.equal(`${months} months`);
        expect(plain(textOf(cells[1]))).to.equal(egp(emi));
        expect(textOf(cells[2])).to.equal(`${interestRate}%`);
        expect(plain(textOf(cells[3]))).to.equal(egp(DOWN_PAYMENT + months * emi));
      });
      expect(plain(textOf(shadowQuery(el, '[part~="summary"]')))).to.contain(egp(DOWN_PAYMENT));
      expect(deepActiveElement()?.matches('input[name="tenure"]')).to.equal(true);
    });

    it('asks for a tenure before any request', async () => {
      const el = await financing();
      await reachTenures(el);
      primary(el).click();
      await settled(el);
      expect(errorText(el)).to.equal('Choose a plan.');
      expect(network.requestsTo('/financing/purchase')).to.have.length(0);
    });

    it('completes the purchase with the tenure chosen and reports it without the OTP', async () => {
      const el = await financing();
      const events = recordEvents(el, 'pg-financing-step', 'pg-financing-complete', 'pg-request-start', 'pg-request-error');
      await reachTenures(el);
      const months = FINANCING_TENURES[1]!.months;
      await chooseTenure(el, months);
      const completed = oneEvent(el, 'pg-financing-complete') as Promise<PgFinancingCompleteEvent>;
      primary(el).click();
      const event = await completed;
      await settled(el);
      expect(event.outcome).to.equal('success');
      expect(event.tenure).to.equal(months);
      expect(event.merchantReference).to.equal(el.merchantReference);
      const purchase = network.requestsTo('/financing/purchase');
      expect(purchase).to.have.length(1);
      expect(purchase[0]!.fields?.['tenure']).to.equal(months);
      expect(purchase[0]!.fields).to.not.have.property('otp');
      expect(el.step).to.equal('done');
      expect(textOf(shadowQuery(el, '.result .title'))).to.equal('Your purchase is complete.');
      assertFocused(shadowQuery(el, '.result .title'));
      for (const recorded of events) {
        const payload = JSON.stringify({ ...recorded });
        expect(payload).to.not.contain(SANDBOX_OTP);
        expect(payload).to.not.contain(REGISTERED_FINANCING_PHONE);
      }
      expect(events.filter((recorded) => recorded.type === 'pg-financing-step').map((recorded) => (recorded as unknown as { step: string }).step))
        .to.deep.equal(['verified', 'otp', 'tenure', 'done']);
    });

    it('explains that the endpoint is down and tries the purchase again', async () => {
      const el = await financing();
      await reachTenures(el);
      await chooseTenure(el, FINANCING_TENURES[0]!.months);
      network.endpointUnreachable();
      primary(el).click();
      await settled(el);
      expect(errorText(el)).to.contain('We could not reach the payment service');
      network.worker.resetHandlers();
      shadowQuery(el, 'button.retry').click();
      await settled(el);
      expect(el.step).to.equal('done');
    });

    for (const [language, hint] of [
      ['en', 'Try another plan, or contact the financing partner.'],
      ['ar', 'جرّب خطة أخرى، أو تواصل مع شريك التمويل.'],
    ] as const) {
      it(`says after a declined purchase what to do next (${language})`, async () => {
        const el = await financing({ language });
        await reachTenures(el);
        await chooseTenure(el, FINANCING_TENURES[0]!.months);
        network.transformAnswer('/financing/purchase', (answer) => ({ ...answer, outcome: 'failure', response_message: 'Transaction declined' }));
        primary(el).click();
        await settled(el);
        expect(errorText(el)).to.equal(`Transaction declined ${hint}`);
        expect(el.step).to.equal('tenure');
      });
    }

    it('starts over with "Start over"', async () => {
      const el = await financing();
      await reachTenures(el);
      shadowQuery(el, 'button.back').click();
      await el.updateComplete;
      expect(el.step).to.equal('phone');
      assertFocused(phoneInput(el));
    });
  });

  describe('no PURCHASE without an OTP verified in this session', () => {
    it('offers no tenure or purchase before the code is verified', async () => {
      const el = await financing();
      await submitPhone(el);
      expect(shadowQueryAll(el, 'input[name="tenure"]')).to.have.length(0);
      expect(textOf(primary(el))).to.equal('Verify the code');
    });

    it('ignores a stored step that was not reached through the endpoint', async () => {
      const reference = newOrder();
      sessionStorage.setItem(
        flowStorageKey(reference),
        JSON.stringify({ version: 1, step: 'tenure', wrongAttempts: 0, currency: 'EGP', downPayment: 0 }),
      );
      const el = await financing({ reference });
      expect(el.step).to.equal('phone');
    });

    it('starts over when the endpoint refuses a forged flow token', async () => {
      const reference = newOrder();
      sessionStorage.setItem(
        flowStorageKey(reference),
        JSON.stringify({
          version: 1,
          step: 'tenure',
          flow: 'v1.forged',
          wrongAttempts: 0,
          currency: 'EGP',
          downPayment: 0,
          tenures: [{ months: 3, emi: 100, interest_rate: '0' }],
        }),
      );
      const el = await financing({ reference });
      await chooseTenure(el, 3);
      primary(el).click();
      await settled(el);
      expect(el.step).to.equal('phone');
      expect(status(el)).to.contain('session has expired');
      expect(network.gatewayRequests).to.have.length(0);
    });
  });

  describe('after a refresh or a re-render', () => {
    async function again(reference: string, clock?: ManualClock) {
      const before = network.endpointRequests.length;
      const el = await financing({ reference, ...(clock ? { clock } : {}) });
      const after = network.endpointRequests.length;
      return { el, requests: after - before };
    }

    it('stays on the code step without asking for another code, the countdown going on', async () => {
      const clock = createManualClock(Date.now());
      const first = await financing({ clock });
      await submitPhone(first);
      clock.advance(20_000);
      first.remove();
      const { el, requests } = await again(first.merchantReference, clock);
      expect(requests).to.equal(0);
      expect(el.step).to.equal('otp');
      expect(textOf(shadowQuery(el, '[part~="countdown"]'))).to.equal('You can ask for a new code in 0:40.');
      await submitOtp(el);
      expect(el.step).to.equal('tenure');
    });

    it('keeps the attempts left', async () => {
      const first = await financing();
      await submitPhone(first);
      await submitOtp(first, WRONG_OTP);
      first.remove();
      const { el } = await again(first.merchantReference);
      await submitOtp(el, WRONG_OTP);
      expect(errorText(el)).to.equal('That code is not right. 1 attempt left.');
    });

    it('stays on the tenures without verifying the code again', async () => {
      const first = await financing();
      await reachTenures(first);
      first.remove();
      const { el, requests } = await again(first.merchantReference);
      expect(requests).to.equal(0);
      expect(el.step).to.equal('tenure');
      expect(shadowQueryAll(el, 'tr[part~="tenure-row"]')).to.have.length(FINANCING_TENURES.length);
    });

    it('shows the result without purchasing again', async () => {
      const first = await financing();
      await reachTenures(first);
      await chooseTenure(first, FINANCING_TENURES[0]!.months);
      primary(first).click();
      await settled(first);
      first.remove();
      const { el, requests } = await again(first.merchantReference);
      expect(requests).to.equal(0);
      expect(el.step).to.equal('done');
      expect(network.requestsTo('/financing/purchase')).to.have.length(1);
    });
  });

  describe('in Arabic', () => {
    it('is right-to-left with the phone number, amounts and countdown as left-to-right islands', async () => {
      const el = await financing({ language: 'ar' });
      expect(shadowQuery(el, '.frame').getAttribute('dir')).to.equal('rtl');
      expect(phoneInput(el).getAttribute('dir')).to.equal('ltr');
      await submitPhone(el);
      expect(otpInput(el).getAttribute('dir')).to.equal('ltr');
      expect(shadowQuery(el, 'form > p bdi').getAttribute('dir')).to.equal('ltr');
      expect(plain(textOf(shadowQuery(el, '[part~="summary"] dd bdi')))).to.equal(egp(DOWN_PAYMENT, 'ar'));
      expect(textOf(shadowQuery(el, '[part~="countdown"] bdi'))).to.equal('١:٠٠');
      expect(shadowQuery(el, '[part~="countdown"] bdi').getAttribute('dir')).to.equal('ltr');
    });

    it('writes steps, counts, months and rates in Arabic-Indic digits, as the amounts are', async () => {
      const el = await financing({ language: 'ar' });
      const progress = () => textOf(shadowQuery(el, '[part~="progress"]'));
      expect(progress()).to.equal('الخطوة ١ من ٣');
      expect(textOf(shadowQuery(el, '#phone-hint'))).to.equal('رقم هاتف محمول مصري، مثل ٠١٠ ١٢٣٤ ٥٦٧٨');
      expect(shadowQuery(el, '#phone-hint')?.textContent, 'the example phone is a left-to-right island').to.include('\u2066٠١٠ ١٢٣٤ ٥٦٧٨\u2069');
      await submitPhone(el, '123');
      expect(errorText(el)).to.equal('أدخل رقم هاتف محمول مصريًا من ١١ رقمًا يبدأ بـ ٠١٠ أو ٠١١ أو ٠١٢ أو ٠١٥.');

      await submitPhone(el);
      expect(progress()).to.equal('الخطوة ٢ من ٣');
      expect(status(el)).to.match(/يمكنك طلب رمز جديد بعد ٦٠ ثانية\.$/);
      expect(textOf(shadowQueryAll(el, '[part~="summary"] dd')[1]!)).to.equal('٣ أشهر، ٦ أشهر، ١٢ شهرًا');
      const length = arabicIndic(String(SANDBOX_OTP.length));
      expect(textOf(shadowQuery(el, '#otp-hint'))).to.equal(`الرمز المكوّن من ${length} أرقام في الرسالة النصية`);
      await submitOtp(el, '12');
      expect(errorText(el)).to.equal(`يتكوّن الرمز من ${length} أرقام.`);

      await submitOtp(el);
      expect(progress()).to.equal('الخطوة ٣ من ٣');
      const rows = shadowQueryAll(el, '[part~="tenure-row"]');
      expect(rows.map((row) => plain(textOf(row.querySelector('th')!)))).to.deep.equal(['٣ أشهر', '٦ أشهر', '١٢ شهرًا']);
      // Rates as the browser writes a percentage in Arabic: the sign follows the digits, so it sits on
      // their left; no left-to-right island turns it to their right.
      const percent = new Intl.NumberFormat('ar-EG', { style: 'percent' });
      const rates = rows.map((row) => row.querySelector('td:nth-of-type(2)')!);
      expect(rates.map(textOf)).to.deep.equal(FINANCING_TENURES.map(({ interestRate }) => percent.format(Number(interestRate) / 100).replace('\u061c', '')));
      expect(rates.map((cell) => cell.querySelector('bdi'))).to.deep.equal([null, null, null]);
      const text = document.createTreeWalker(rates[2]!, NodeFilter.SHOW_TEXT, (node) => (node.textContent!.includes('٪') ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP)).nextNode() as Text;
      const box = (from: number, to: number) => {
        const range = document.createRange();
        range.setStart(text, from);
        range.setEnd(text, to);
        return range.getBoundingClientRect();
      };
      const sign = text.data.indexOf('٪');
      expect(text.data.slice(sign - 2, sign)).to.equal('١٠');
      expect(box(sign, sign + 1).right).to.be.at.most(box(sign - 2, sign).left + 0.5);
      const { months, interestRate } = FINANCING_TENURES[0]!;
      const total = DOWN_PAYMENT + months * emiOf(ORDER_AMOUNT, DOWN_PAYMENT, months, interestRate);
      expect(plain(textOf(rows[0]!.querySelector('td:last-child')!))).to.equal(egp(total, 'ar'));
    });
  });

  describe('keyboard', () => {
    it('completes every step with the keyboard only', async () => {
      const el = await financing();
      await tabTo('#phone');
      await typeKeys(REGISTERED_FINANCING_PHONE);
      await pressKey('Enter');
      await settled(el);
      expect(el.step).to.equal('otp');
      assertFocused(otpInput(el));
      await typeKeys(SANDBOX_OTP);
      await pressKey('Enter');
      await settled(el);
      expect(el.step).to.equal('tenure');
      expect(deepActiveElement()?.matches('input[name="tenure"]')).to.equal(true);
      await pressKey('ArrowDown');
      await el.updateComplete;
      await tabTo('button.Pay');
      await pressKey('Enter');
      await settled(el);
      expect(el.step).to.equal('done');
      expect(network.requestsTo('/financing/purchase')[0]!.fields?.['tenure']).to.equal(FINANCING_TENURES[1]!.months);
      expect(el.shadowRoot!.querySelector('[part~="progress"]'), 'the outcome is not a fourth step').to.equal(null);
    });
  });
});
