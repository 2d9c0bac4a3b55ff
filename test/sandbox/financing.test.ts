import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '../../src/core/field-errors.ts';
import { SANDBOX_FINANCING_PARTNER_CODE as FINANCING_PARTNER_CODE } from '../../src/sandbox/partners.ts';
import {
  customerVerifyResponse,
  financingPurchaseResponse,
  otpGenerateResponse,
  otpVerifyResponse,
} from '../../src/core/schemas/index.ts';
import {
  MAX_OTP_ATTEMPTS,
  REGISTERED_FINANCING_PHONE,
  SANDBOX_FINANCING_CUSTOMER_IP,
  SANDBOX_OTP,
  UNREGISTERED_FINANCING_PHONE,
} from '../../src/sandbox/test-cards.ts';
import { api, rig, verifiesAsGateway, type Answer, type Rig } from './support.ts';

const common = {
  merchant_reference: 'fin-1',
  language: 'en',
  payment_option: FINANCING_PARTNER_CODE,
  phone_number: REGISTERED_FINANCING_PHONE,
};
const order = { merchant_order_id: 'shop-order-1', amount: '1200000', currency: 'EGP' };
const products = [{ product_name: 'Phone', product_price: '12000.00', product_category: 'Electronics' }];

const verifyCustomer = (overrides: Record<string, unknown> = {}) => ({ service_command: 'CUSTOMER_VERIFY', ...common, ...overrides });
const generate = (overrides: Record<string, unknown> = {}) => ({ service_command: 'OTP_GENERATE', ...common, ...order, products, ...overrides });
const verify = (otp: string, downPayment: number, overrides: Record<string, unknown> = {}) => ({
  service_command: 'OTP_VERIFY',
  ...common,
  ...order,
  total_downpayment: downPayment,
  otp,
  ...overrides,
});
const purchase = (generated: Answer, overrides: Record<string, unknown> = {}) => ({
  command: 'PURCHASE',
  ...common,
  ...order,
  customer_email: 'buyer@example.com',
  customer_code: 'cust-1',
  transaction_id: generated['transaction_id'],
  otp: SANDBOX_OTP,
  tenure: '6',
  total_down_payment: generated['total_down_payment'],
  purchase_description: 'Phone in 6 months',
  ...overrides,
});

/** Steps 1 and 2 of the flow: the customer verified, then the OTP sent. */
async function generated(r: Rig): Promise<Answer> {
  assert.equal((await api(r.gateway, verifyCustomer()))['response_code'], '90000');
  const answer = await api(r.gateway, generate());
  assert.equal(answer['response_code'], '88000');
  return answer;
}

describe('consumer financing', () => {
  describe('CUSTOMER_VERIFY', () => {
    it('verifies a registered customer (90000), typed with spaces and +20 or Arabic-Indic digits too', async () => {
      const { gateway } = rig();
      for (const phone of [REGISTERED_FINANCING_PHONE, '+20 101 234 5678', '٠١٠١٢٣٤٥٦٧٨']) {
        const answer = await api(gateway, verifyCustomer({ phone_number: phone }));
        assert.equal(answer['response_code'], '90000', phone);
        assert.equal(answer['status'], '90');
        assert.ok(validate(customerVerifyResponse, answer, 'en').ok);
        assert.ok(await verifiesAsGateway(answer));
      }
    });

    it('answers 91001 for the unregistered number, in the request language', async () => {
      const { gateway } = rig();
      const answer = await api(gateway, verifyCustomer({ phone_number: UNREGISTERED_FINANCING_PHONE, language: 'ar' }));
      assert.equal(answer['response_code'], '91001');
      assert.equal(answer['response_message'], 'العميل غير مسجل لدى شريك التمويل');
    });

    it('refuses another partner code and a number that is no Egyptian mobile (00002)', async () => {
      const { gateway } = rig();
      assert.equal((await api(gateway, verifyCustomer({ payment_option: 'OTHER' })))['response_code'], '00002');
      assert.equal((await api(gateway, verifyCustomer({ phone_number: '12345' })))['response_code'], '00002');
    });
  });

  describe('OTP_GENERATE', () => {
    it('answers a transaction_id, total_down_payment, otp_status and the tenure "3-6-12"', async () => {
      const r = rig();
      const answer = await generated(r);
      assert.equal(answer['status'], '88');
      assert.match(String(answer['transaction_id']), /^FT[0-9a-f]+$/);
      assert.equal(answer['total_down_payment'], 120000);
      assert.equal(answer['otp_status'], '1');
      assert.equal(answer['tenure'], '3-6-12');
      assert.deepEqual(answer['products'], products);
      assert.ok(validate(otpGenerateResponse, answer, 'en').ok);
      assert.ok(await verifiesAsGateway(answer), 'the products list is signed in the spec’s list form');
    });

    it('answers 00007 when the customer was not verified first for the reference and phone, and sends no OTP', async () => {
      const r = rig();
      assert.equal((await api(r.gateway, generate()))['response_code'], '00007');
      await api(r.gateway, verifyCustomer({ merchant_reference: 'fin-other' }));
      assert.equal((await api(r.gateway, generate()))['response_code'], '00007', 'verified for another reference');
      await api(r.gateway, verifyCustomer({ phone_number: '01112345678' }));
      assert.equal((await api(r.gateway, generate()))['response_code'], '00007', 'verified with another phone');
      assert.equal(r.gateway.financingTransactions().length, 0);
      await api(r.gateway, verifyCustomer({ phone_number: '+20 101 234 5678' }));
      assert.equal((await api(r.gateway, generate()))['response_code'], '88000', 'the same phone, typed otherwise');
    });

    it('remembers the verified customer across a restart', async () => {
      const { createSandboxGateway } = await import('../../src/sandbox/gateway.ts');
      let saved: unknown;
      const persistence = { location: 'memory', load: () => saved, save: (snapshot: unknown) => void (saved = snapshot) };
      const first = rig({ persistence });
      await api(first.gateway, verifyCustomer());
      const restarted = createSandboxGateway({ now: first.clock.now, persistence });
      assert.equal((await api(restarted, generate()))['response_code'], '88000');
    });
  });

  describe('OTP_VERIFY', () => {
    it('accepts the sandbox OTP (92182) and returns the tenure options in the TENURE_VM shape', async () => {
      const r = rig();
      const otp = await generated(r);
      const answer = await api(r.gateway, verify(SANDBOX_OTP, Number(otp['total_down_payment'])));
      assert.equal(answer['response_code'], '92182');
      assert.equal(answer['status'], '92');
      assert.equal(answer['total_downpayment'], 120000);
      assert.equal(answer['otp_status'], '1');
      assert.deepEqual(answer['tenure'], {
        TENURE_VM: [
          { EMI: '360000', TENURE: '3', InterestRate: '0' },
          { EMI: '189000', TENURE: '6', InterestRate: '5' },
          { EMI: '99000', TENURE: '12', InterestRate: '10' },
        ],
      });
      assert.ok(validate(otpVerifyResponse, answer, 'en').ok);
      assert.ok(await verifiesAsGateway(answer));
    });

    it(`answers a wrong OTP with 93001, and locks the OTP at the ${MAX_OTP_ATTEMPTS}rd wrong try (93002)`, async () => {
      const r = rig();
      await generated(r);
      for (let attempt = 1; attempt < MAX_OTP_ATTEMPTS; attempt++) {
        assert.equal((await api(r.gateway, verify('000000', 120000)))['response_code'], '93001');
      }
      assert.equal((await api(r.gateway, verify('000000', 120000)))['response_code'], '93002');
      const locked = await api(r.gateway, verify(SANDBOX_OTP, 120000));
      assert.equal(locked['response_code'], '93002', 'even the right OTP is refused once locked');
      assert.ok(!('tenure' in locked));
    });

    it('starts over with a new OTP_GENERATE', async () => {
      const r = rig();
      await generated(r);
      for (let attempt = 0; attempt < MAX_OTP_ATTEMPTS; attempt++) await api(r.gateway, verify('000000', 120000));
      await generated(r);
      assert.equal((await api(r.gateway, verify(SANDBOX_OTP, 120000)))['response_code'], '92182');
    });

    for (const [what, change, code, field] of [
      ['another merchant_order_id', { merchant_order_id: 'shop-order-2' }, '00002', 'merchant_order_id'],
      ['another amount', { amount: '1200001' }, '00002', 'amount'],
      ['another currency', { currency: 'USD' }, '00013', undefined],
    ] as const) {
      it(`refuses ${what} than OTP_GENERATE's (${code}), without counting a wrong try`, async () => {
        const r = rig();
        await generated(r);
        const refused = await api(r.gateway, verify(SANDBOX_OTP, 120000, change));
        assert.equal(refused['response_code'], code);
        if (field) assert.match(String(refused['response_message']), new RegExp(`${field}: is not valid`));
        assert.ok(!('tenure' in refused));
        assert.equal(r.gateway.financingTransactions()[0]?.verified, false);
        assert.equal((await api(r.gateway, verify(SANDBOX_OTP, 120000)))['response_code'], '92182');
      });
    }

    it('answers 00007 when no OTP was generated for the reference', async () => {
      const r = rig();
      assert.equal((await api(r.gateway, verify(SANDBOX_OTP, 120000)))['response_code'], '00007');
    });
  });

  describe('PURCHASE', () => {
    it('completes after OTP verification (14000) with svc_id and eci, and captures the order', async () => {
      const r = rig();
      const otp = await generated(r);
      await api(r.gateway, verify(SANDBOX_OTP, 120000));
      const answer = await api(r.gateway, purchase(otp));
      assert.equal(answer['response_code'], '14000');
      assert.match(String(answer['svc_id']), /^\d+$/);
      assert.equal(answer['eci'], 'ECOMMERCE');
      assert.equal(answer['customer_ip'], SANDBOX_FINANCING_CUSTOMER_IP, 'the spec’s answer adds customer_ip, sent or not');
      assert.equal(answer['total_down_payment'], 120000);
      assert.ok(validate(financingPurchaseResponse, answer, 'en').ok);
      assert.ok(await verifiesAsGateway(answer));
      const stored = r.gateway.order({ merchantReference: 'fin-1' });
      assert.equal(stored?.state, 'captured');
      assert.equal(stored?.channel, 'financing');
    });

    it('refuses a PURCHASE before the OTP is verified (93003)', async () => {
      const r = rig();
      const otp = await generated(r);
      assert.equal((await api(r.gateway, purchase(otp)))['response_code'], '93003');
      assert.equal(r.gateway.orders().length, 0);
    });

    it('refuses a PURCHASE with another OTP than the verified one (93003)', async () => {
      const r = rig();
      const otp = await generated(r);
      await api(r.gateway, verify(SANDBOX_OTP, 120000));
      assert.equal((await api(r.gateway, purchase(otp, { otp: '654321' })))['response_code'], '93003');
    });

    it('refuses a tenure that was not offered (00002) and an unknown transaction (00007)', async () => {
      const r = rig();
      const otp = await generated(r);
      await api(r.gateway, verify(SANDBOX_OTP, 120000));
      const tenure = await api(r.gateway, purchase(otp, { tenure: '9' }));
      assert.equal(tenure['response_code'], '00002');
      assert.match(String(tenure['response_message']), /tenure: must be one of: 3, 6, 12/);
      assert.equal((await api(r.gateway, purchase(otp, { transaction_id: 'FT000' })))['response_code'], '00007');
    });

    for (const [what, change, code] of [
      ['another merchant_order_id', { merchant_order_id: 'shop-order-2' }, '00002'],
      ['another amount', { amount: '1200001' }, '00002'],
      ['another currency', { currency: 'USD' }, '00013'],
    ] as const) {
      it(`refuses a PURCHASE with ${what} than the transaction's (${code}), and charges nothing`, async () => {
        const r = rig();
        const otp = await generated(r);
        await api(r.gateway, verify(SANDBOX_OTP, 120000));
        assert.equal((await api(r.gateway, purchase(otp, change)))['response_code'], code);
        assert.equal(r.gateway.orders().length, 0);
        assert.equal((await api(r.gateway, purchase(otp)))['response_code'], '14000');
      });
    }

    it('refuses a second PURCHASE for the reference (00005)', async () => {
      const r = rig();
      const otp = await generated(r);
      await api(r.gateway, verify(SANDBOX_OTP, 120000));
      await api(r.gateway, purchase(otp));
      assert.equal((await api(r.gateway, purchase(otp)))['response_code'], '00005');
      assert.equal((await api(r.gateway, generate()))['response_code'], '00005');
    });
  });
});

describe("the sandbox partner's monthly instalment (EMI)", () => {
  it('is the financed amount with flat interest over the months, rounded half up exactly, for a decimal rate too', async () => {
    const { emiOf } = await import('../../src/sandbox/financing.ts');
    assert.equal(emiOf(250_000, 50_000, 6, '5'), 35_000);
    // 1,025 / 3 = 341.67; 3 / 2 and 1 / 2 are exact halves, rounded up.
    assert.equal(emiOf(1_000, 0, 3, '2.5'), 342);
    assert.equal(emiOf(3, 0, 2, '0'), 2);
    assert.equal(emiOf(1, 0, 2, '0'), 1);
    assert.equal(emiOf(1_000_000, 0, 1, '0.29'), 1_002_900);
  });
});
