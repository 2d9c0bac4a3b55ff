import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { customerNameForGateway } from '../../src/core/customer-name.ts';
import { validate } from '../../src/core/field-errors.ts';
import { billPresentmentRequest } from '../../src/core/schemas/index.ts';

describe('customer_name as the gateway takes it (customerNameForGateway)', () => {
  it('sends a name in Arabic letters, or Latin ones with accents, unchanged', () => {
    for (const name of ['محمد عبد الله', 'فاطمة الزهراء', "مُحَمَّد عبد-الله O'Neil", 'Zoë Ñúñez', 'A. B_C\\D/E']) {
      assert.equal(customerNameForGateway(name), name);
    }
  });

  it('drops direction marks, joiners and the byte-order mark, which are invisible and not letters', () => {
    assert.equal(customerNameForGateway('\u200fمحمد عبد\u200cالله\u200e'), 'محمد عبدالله');
    assert.equal(customerNameForGateway('\ufeffMona\u200d Hassan'), 'Mona Hassan');
  });

  it('makes every kind of space one plain space, and trims the ends', () => {
    assert.equal(customerNameForGateway(' محمد\u00a0\u202f عبد\tالله\n'), 'محمد عبد الله');
  });

  it('writes a letter and its accent typed apart as one character (NFC)', () => {
    assert.equal(customerNameForGateway('Zoe\u0308'), 'Zo\u00eb');
  });

  it('cuts a name longer than 50 characters after its last whole word', () => {
    const long = 'عبد الرحمن بن محمد بن عبد العزيز بن عبد الله بن فيصل آل سعود';
    assert.equal(Array.from(long).length, 60);
    assert.equal(customerNameForGateway(long), 'عبد الرحمن بن محمد بن عبد العزيز بن عبد الله بن');
    assert.equal(customerNameForGateway('م'.repeat(60)), 'م'.repeat(50));
    assert.equal(customerNameForGateway('م'.repeat(50)), 'م'.repeat(50));
  });

  it('leaves out a name that still breaks the rule, or nothing at all', () => {
    for (const name of ['محمد 2', 'Mona <script>', 'Ali 🙂', '\u200f \u00a0', '']) {
      assert.equal(customerNameForGateway(name), undefined, name);
    }
    assert.equal(customerNameForGateway(undefined), undefined);
  });

  it('gives only names the BILL_PRESENTMENT schema accepts', () => {
    const bill = {
      service_command: 'BILL_PRESENTMENT',
      access_code: 'abc',
      merchant_identifier: 'm1',
      merchant_reference: 'r-1',
      amount: '100',
      currency: 'EGP',
      language: 'ar',
      signature: 'a'.repeat(64),
      request_expiry_date: '2026-03-10T10:00:00+02:00',
      payment_partner: 'CASHP',
    };
    for (const name of ['\u200fمحمد\u200e', 'عبد الرحمن بن محمد بن عبد العزيز بن عبد الله بن فيصل آل سعود', ' Mona\u00a0Hassan ']) {
      const sent = customerNameForGateway(name);
      assert.ok(sent);
      assert.equal(validate(billPresentmentRequest, { ...bill, customer_name: sent }, 'ar').ok, true, sent);
    }
  });
});
