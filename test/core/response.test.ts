import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { classifyResponse, expectedStatus, isSuccess, parseResponseCode, responseMessage } from '../../src/core/response.ts';

describe('parseResponseCode', () => {
  it('splits the status (first two digits) from the message code', () => {
    assert.deepEqual(parseResponseCode('14000'), { code: '14000', status: '14', message: '000' });
    assert.deepEqual(parseResponseCode('92182'), { code: '92182', status: '92', message: '182' });
  });

  it('restores the leading zero of a numeric code', () => {
    assert.deepEqual(parseResponseCode(2000), { code: '02000', status: '02', message: '000' });
  });

  it('gives nothing for a code that is not five digits', () => {
    assert.equal(parseResponseCode('1400'), undefined);
    assert.equal(parseResponseCode('14a00'), undefined);
    assert.equal(parseResponseCode(undefined), undefined);
  });
});

describe('classifyResponse', () => {
  it('treats the success pairs of the spec as success', () => {
    for (const [code, status] of [
      ['14000', '14'],
      ['12000', '12'],
      ['62000', '62'],
      ['88000', '88'],
      ['90000', '90'],
      ['92182', '92'],
      ['20064', '04'],
    ]) {
      assert.equal(classifyResponse({ response_code: code, status }), 'success', code);
    }
  });

  it('pairs 20064 with status 04 as the spec says, and refuses its own first digits', () => {
    assert.equal(expectedStatus('20064'), '04');
    assert.equal(classifyResponse({ response_code: '20064', status: '20' }), 'failure');
  });

  it('treats a status that disagrees with the code as a failure', () => {
    assert.equal(classifyResponse({ response_code: '14000', status: '13' }), 'failure');
  });

  it('treats a 3-D Secure request as pending', () => {
    assert.equal(classifyResponse({ response_code: '20000', status: '20' }), 'pending');
  });

  it('never treats an unknown or missing code as success', () => {
    assert.equal(classifyResponse({ response_code: '99999', status: '99' }), 'failure');
    assert.equal(classifyResponse({}), 'failure');
    assert.equal(isSuccess({ status: '14' }), false);
  });

  it('treats declines as failures', () => {
    assert.equal(classifyResponse({ response_code: '13001', status: '13' }), 'failure');
  });
});

describe('responseMessage', () => {
  it('answers in the request language', () => {
    assert.equal(responseMessage('00008', 'en'), 'Signature mismatch');
    assert.equal(responseMessage('00008', 'ar'), 'التوقيع غير مطابق');
  });
});
