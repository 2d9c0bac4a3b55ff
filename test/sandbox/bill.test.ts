import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '../../src/core/field-errors.ts';
import { SANDBOX_VOUCHER_PARTNER_CODE as VOUCHER_PARTNER_CODE } from '../../src/sandbox/partners.ts';
import { billPresentmentResponse } from '../../src/core/schemas/index.ts';
import { api, ORIGIN, rig, verifiesAsGateway, type Rig } from './support.ts';

/** START (09:00 UTC) plus 48 hours, written with Cairo's offset. */
const EXPIRY = '2026-03-12T11:00:00+02:00';
const HOURS = 3_600_000;

function billRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    service_command: 'BILL_PRESENTMENT',
    merchant_reference: 'bill-1',
    amount: '150000',
    currency: 'EGP',
    language: 'en',
    request_expiry_date: EXPIRY,
    payment_partner: VOUCHER_PARTNER_CODE,
    customer_name: 'Test Buyer',
    customer_email: 'buyer@example.com',
    ...overrides,
  };
}

async function issue(r: Rig, overrides: Record<string, unknown> = {}) {
  return api(r.gateway, billRequest(overrides));
}

const status = (reference = 'bill-1') => ({ query_command: 'CHECK_STATUS', merchant_reference: reference, language: 'en' });

async function payTool(r: Rig, billNumber: string): Promise<Response> {
  return r.gateway.handle(
    new Request(`${ORIGIN}${r.gateway.paths.tools}/pay-bill`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bill_number: billNumber }),
    }),
  );
}

describe('cash bills (BILL_PRESENTMENT)', () => {
  it('issues a unique 14-digit bill number (30000) and echoes the request', async () => {
    const r = rig();
    const first = await issue(r);
    assert.equal(first['response_code'], '30000');
    assert.equal(first['status'], '30');
    assert.match(String(first['bill_number']), /^[1-9]\d{13}$/);
    assert.equal(first['request_expiry_date'], EXPIRY);
    assert.equal(first['customer_name'], 'Test Buyer');
    assert.ok(await verifiesAsGateway(first));
    assert.ok(validate(billPresentmentResponse, first, 'en').ok);
    const second = await issue(r, { merchant_reference: 'bill-2' });
    assert.notEqual(second['bill_number'], first['bill_number']);
  });

  it('shows the issued bill in CHECK_STATUS, nothing captured yet', async () => {
    const r = rig();
    const bill = await issue(r);
    const answer = await api(r.gateway, status());
    assert.equal(answer['transaction_code'], '30000');
    assert.equal(answer['bill_number'], bill['bill_number']);
    assert.equal(answer['captured_amount'], '0');
  });

  it('cancels a bill whose expiry passes unpaid (31001 in CHECK_STATUS)', async () => {
    const r = rig();
    await issue(r);
    r.clock.advance(48 * HOURS - 1);
    assert.equal((await api(r.gateway, status()))['transaction_code'], '30000');
    r.clock.advance(1);
    const answer = await api(r.gateway, status());
    assert.equal(answer['transaction_code'], '31001');
    assert.equal(answer['transaction_status'], '31');
    assert.equal(answer['transaction_message'], 'Bill expired');
    assert.equal(r.gateway.order({ merchantReference: 'bill-1' })?.state, 'bill_cancelled');
  });

  it('captures the full amount when the customer pays (sandbox tool), and refuses to pay twice', async () => {
    const r = rig();
    const bill = await issue(r);
    const paid = await payTool(r, String(bill['bill_number']));
    assert.equal(paid.status, 200);
    assert.deepEqual(await paid.json(), {
      bill_number: bill['bill_number'],
      merchant_reference: 'bill-1',
      svc_id: r.gateway.order({ merchantReference: 'bill-1' })?.svcId,
      state: 'captured',
      response_code: '14000',
    });
    const answer = await api(r.gateway, status());
    assert.equal(answer['transaction_code'], '14000');
    assert.equal(answer['captured_amount'], '150000');
    assert.equal((await payTool(r, String(bill['bill_number']))).status, 409);
    r.clock.advance(72 * HOURS);
    assert.equal(r.gateway.order({ merchantReference: 'bill-1' })?.state, 'captured', 'a paid bill does not expire');
  });

  it('refuses to pay an expired bill', async () => {
    const r = rig();
    const bill = await issue(r);
    r.clock.advance(48 * HOURS);
    const response = await payTool(r, String(bill['bill_number']));
    assert.equal(response.status, 409);
    assert.equal(((await response.json()) as Record<string, unknown>)['response_code'], '31001');
    assert.equal(r.gateway.payBill('00000000000000').code, '00007');
  });

  it('refuses another currency than EGP (00009)', async () => {
    const r = rig();
    const answer = await issue(r, { currency: 'AED' });
    assert.equal(answer['response_code'], '00009');
    assert.ok(!('bill_number' in answer));
    assert.equal(r.gateway.orders().length, 0);
  });

  it('refuses an expiry that is not in the future (31002) or has no offset (00002)', async () => {
    const r = rig();
    assert.equal((await issue(r, { request_expiry_date: '2026-03-10T10:59:59+02:00' }))['response_code'], '31002');
    assert.equal((await issue(r, { request_expiry_date: '2026-03-12T11:00:00' }))['response_code'], '00002');
    assert.equal(r.gateway.orders().length, 0);
  });

  it('takes the specification’s date shape only: Z for UTC is refused (00002), fractional seconds break the 25 characters (00003)', async () => {
    const r = rig();
    const utc = await issue(r, { request_expiry_date: '2026-03-12T09:00:00Z' });
    assert.equal(utc['response_code'], '00002');
    assert.match(String(utc['response_message']), /request_expiry_date: must be a date and time with a time zone offset, such as 2025-01-31T23:59:59\+03:00/);
    assert.equal((await issue(r, { request_expiry_date: '2026-03-12T11:00:00.5+02:00' }))['response_code'], '00003');
    assert.equal(r.gateway.orders().length, 0);
  });

  it('refuses another payment partner (00002) and an over-long one (00003)', async () => {
    const r = rig();
    const other = await issue(r, { payment_partner: 'OTHER' });
    assert.equal(other['response_code'], '00002');
    assert.match(String(other['response_message']), /payment_partner: must be CASHP/);
    assert.equal((await issue(r, { payment_partner: 'CASHPX' }))['response_code'], '00003');
  });

  it('refuses a second bill for the same reference (00005)', async () => {
    const r = rig();
    await issue(r);
    assert.equal((await issue(r, { amount: '1' }))['response_code'], '00005');
    assert.equal(r.gateway.orders().length, 1);
  });
});
