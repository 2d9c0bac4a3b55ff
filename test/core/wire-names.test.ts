import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { writeBatchResults } from '../../src/core/batch-file.ts';
import { fieldError } from '../../src/core/field-errors.ts';
import { signParams, verifySignature } from '../../src/core/signature.ts';
import {
  csvHeaderToWire,
  foreignReferenceIn,
  fromWireName,
  fromWireNames,
  isGatewayReferenceField,
  toWireFieldError,
  toWireName,
  toWireNames,
} from '../../src/core/wire-names.ts';

describe('the gateway reference under the specification’s name (svc_id)', () => {
  it('leaves every message as it is, both ways', () => {
    const message = { command: 'CAPTURE', svc_id: '1700000001', fort_id: 'x', rows: [{ svc_id: '1' }] };
    assert.equal(toWireNames(message, 'svc_id'), message);
    assert.equal(fromWireNames(message, 'svc_id'), message);
    assert.equal(foreignReferenceIn(message, 'svc_id'), undefined);
  });
});

describe('the gateway reference under the live gateway’s name (fort_id)', () => {
  it('renames the field of a request and of an answer, and back', () => {
    const request = { query_command: 'CHECK_STATUS', merchant_reference: 'order-1', svc_id: '1700000001' };
    const wire = toWireNames(request, 'fort_id');
    assert.deepEqual(wire, { query_command: 'CHECK_STATUS', merchant_reference: 'order-1', fort_id: '1700000001' });
    assert.ok(!('svc_id' in wire));
    assert.deepEqual(fromWireNames(wire, 'fort_id'), request);
  });

  it('renames the column of batch rows, report columns and filters, and the header of the results text', () => {
    const rows = [{ Line_Number: '2', response_code: '20064', response_message: 'Success', status: '04', svc_id: '17' }];
    const answer = {
      rows,
      columns: ['merchant_reference', 'svc_id'],
      filters: [{ key: 'svc_id', value: '17' }, { key: 'currency', value: 'EGP' }],
      batch_results: writeBatchResults(rows),
    };
    const wire = toWireNames(answer, 'fort_id');
    assert.deepEqual(wire.rows, [{ Line_Number: '2', response_code: '20064', response_message: 'Success', status: '04', fort_id: '17' }]);
    assert.deepEqual(wire.columns, ['merchant_reference', 'fort_id']);
    assert.deepEqual(wire.filters, [{ key: 'fort_id', value: '17' }, { key: 'currency', value: 'EGP' }]);
    const text = String(wire.batch_results);
    assert.match(text, /^"Line_Number","response_code","response_message","status","eci","fort_id","merchant_reference",/);
    assert.equal(text.slice(text.indexOf('\r\n')), answer.batch_results.slice(answer.batch_results.indexOf('\r\n')), 'the rows are untouched');
    assert.deepEqual(fromWireNames(wire, 'fort_id'), answer);
  });

  it('drops svc_id read off a fort_id wire, where it is no field (the wire’s own reference wins)', () => {
    assert.equal(fromWireName('svc_id', 'fort_id'), undefined);
    assert.deepEqual(fromWireNames({ svc_id: '1', fort_id: '2' }, 'fort_id'), { svc_id: '2' });
    assert.deepEqual(fromWireNames({ svc_id: '1' }, 'fort_id'), {});
  });

  it('finds where a message names the reference by the other name', () => {
    assert.equal(foreignReferenceIn({ command: 'CAPTURE', svc_id: '1' }, 'fort_id'), 'svc_id');
    assert.equal(foreignReferenceIn({ columns: ['amount', 'svc_id'] }, 'fort_id'), 'columns[1]');
    assert.equal(foreignReferenceIn({ filters: [{ key: 'svc_id', value: '1' }] }, 'fort_id'), 'filters[0].key');
    assert.equal(foreignReferenceIn({ fort_id: '1', columns: ['fort_id'] }, 'fort_id'), undefined);
  });

  it('keeps the sent order and later-wins: an answer’s own reference over the echoed one', () => {
    assert.deepEqual(Object.keys(toWireNames({ a: 1, svc_id: '1', b: 2 }, 'fort_id')), ['a', 'fort_id', 'b']);
    assert.deepEqual(toWireNames({ fort_id: 'echoed', svc_id: 'own' }, 'fort_id'), { fort_id: 'own' });
  });

  it('signs the wire names: a request renamed after signing no longer verifies', async () => {
    const signedOverSvcId = await signParams({ command: 'CAPTURE', svc_id: '17' }, 'phrase', 'sha256');
    const renamedAfterwards = toWireNames(signedOverSvcId, 'fort_id');
    assert.equal((await verifySignature(renamedAfterwards, 'phrase', 'sha256')).valid, false);
    const signedOverWire = await signParams(toWireNames({ command: 'CAPTURE', svc_id: '17' }, 'fort_id'), 'phrase', 'sha256');
    assert.equal((await verifySignature(signedOverWire, 'phrase', 'sha256')).valid, true);
    assert.ok('fort_id' in signedOverWire);
  });

  it('rewrites the header of a batch file, keeping a byte order mark and the lines', () => {
    const file = '\ufeffcommand,merchant_reference,svc_id,amount\r\nCAPTURE,o-1,17,100\r\n';
    assert.equal(csvHeaderToWire(file, 'fort_id'), '\ufeffcommand,merchant_reference,fort_id,amount\r\nCAPTURE,o-1,17,100\r\n');
    assert.equal(csvHeaderToWire('command,fort_id\nCAPTURE,17\n', 'fort_id'), 'command,fort_id\nCAPTURE,17\n');
    assert.equal(csvHeaderToWire(file, 'svc_id'), file);
  });

  it('names the wire field in a field error', () => {
    const error = toWireFieldError(fieldError('svc_id', 'max_length', { limit: 20 }, 'en'), 'fort_id');
    assert.equal(error.field, 'fort_id');
    assert.match(error.message, /^fort_id: /);
    const other = fieldError('amount', 'required', {}, 'en');
    assert.equal(toWireFieldError(other, 'fort_id'), other);
  });

  it('names the wire field among the allowed values of a list (a report column), in English and Arabic', () => {
    const values = ['merchant_reference', 'svc_id', 'amount'];
    for (const language of ['en', 'ar'] as const) {
      const error = toWireFieldError(fieldError('columns.1', 'enum', { values }, language), 'fort_id');
      assert.equal(error.field, 'columns.1');
      assert.ok(error.message.includes('fort_id'), error.message);
      assert.ok(!error.message.includes('svc_id'), error.message);
    }
    const untouched = fieldError('columns.1', 'enum', { values: ['svc_id_extra', 'amount'] }, 'en');
    assert.equal(toWireFieldError(untouched, 'fort_id'), untouched);
  });

  it('round-trips any flat message that does not use the other name', () => {
    const name = fc.constantFrom('svc_id', 'command', 'amount', 'merchant_reference', 'x');
    fc.assert(
      fc.property(fc.dictionary(name, fc.string()), (message) => {
        assert.deepEqual(fromWireNames(toWireNames(message, 'fort_id'), 'fort_id'), { ...message });
      }),
    );
  });
});

describe('the setting’s values', () => {
  it('are svc_id and fort_id, nothing else', () => {
    assert.ok(isGatewayReferenceField('svc_id') && isGatewayReferenceField('fort_id'));
    assert.ok(!isGatewayReferenceField('FORT_ID') && !isGatewayReferenceField('') && !isGatewayReferenceField(undefined));
    assert.equal(toWireName('amount', 'fort_id'), 'amount');
  });
});
