import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyResponse,
  expectedStatus,
  isReadableAnswer,
  isSuccess,
  operationOutcome,
  parseResponseCode,
  responseMessage,
} from '../../src/core/response.ts';

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

  it('pairs 20064 with status 04 as the spec says', () => {
    assert.equal(expectedStatus('20064'), '04');
    assert.equal(classifyResponse({ response_code: '20064', status: '04' }), 'success');
  });

  it('accepts the codes a live account answers to a capture, a refund and a void, each with its own status', () => {
    for (const [code, status] of [
      ['04000', '04'],
      ['06000', '06'],
      ['08000', '08'],
    ] as const) {
      assert.equal(expectedStatus(code), status, code);
      assert.equal(classifyResponse({ response_code: code, status }), 'success', code);
      assert.equal(operationOutcome({ response_code: code, status }), 'success', code);
      assert.ok(isReadableAnswer({ response_code: code, status }), code);
    }
    assert.equal(responseMessage('04000', 'en'), 'Capture accepted');
    assert.equal(responseMessage('06000', 'ar'), 'تم قبول الاسترداد');
    assert.equal(classifyResponse({ response_code: '04000', status: '20' }), 'failure', 'a status that is not the code’s');
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

describe('operationOutcome', () => {
  const outcomeOf = (code: string) => operationOutcome({ response_code: code, status: expectedStatus(code) });

  it('keeps success and pending as classifyResponse says them', () => {
    assert.equal(outcomeOf('20064'), 'success');
    assert.equal(outcomeOf('14000'), 'success');
    assert.equal(outcomeOf('20000'), 'pending');
  });

  it('calls the issuer’s, the fraud screening’s and the financing partner’s refusals declines', () => {
    for (const code of ['13001', '13002', '03004', '13005', '17003', '91001', '93001']) {
      assert.equal(outcomeOf(code), 'declined', code);
    }
  });

  it('calls refusals of the request or of the order’s state refused', () => {
    for (const code of ['00008', '00002', '00005', '05001', '06001', '09001', '12001', '73001', '57002']) {
      assert.equal(outcomeOf(code), 'refused', code);
    }
  });

  it('says a service that is not activated is not_activated', () => {
    assert.equal(outcomeOf('00014'), 'not_activated');
  });

  it('refuses an answer whose status disagrees with its code, and one without a code', () => {
    assert.equal(operationOutcome({ response_code: '13001', status: '14' }), 'refused');
    assert.equal(operationOutcome({}), 'refused');
  });

  it('reads an answer only when it knows the code and the status agrees with it', () => {
    assert.equal(isReadableAnswer({ response_code: '05001' }), true);
    assert.equal(isReadableAnswer({ response_code: '05001', status: '05' }), true);
    assert.equal(isReadableAnswer({ response_code: '99999' }), false);
    assert.equal(isReadableAnswer({}), false);
    // A known code under another status proves nothing: not a refusal to act on.
    assert.equal(isReadableAnswer({ response_code: '20064', status: '02' }), false);
    assert.equal(isReadableAnswer({ response_code: '04000', status: '02' }), false);
  });

  it("reads a live account's 20064 under status 20 as a charge held for 3-D Secure, and under 04 as an accepted capture or refund", () => {
    assert.equal(classifyResponse({ response_code: '20064', status: '20' }), 'pending');
    assert.equal(operationOutcome({ response_code: '20064', status: '20' }), 'pending');
    assert.equal(classifyResponse({ response_code: '20064', status: '04' }), 'success');
    assert.equal(classifyResponse({ response_code: '20064', status: '14' }), 'failure');
  });

  it("knows a live account's CHECK_STATUS answer for a reference it does not hold (12036)", () => {
    assert.equal(operationOutcome({ response_code: '12036', status: '12' }), 'refused');
    assert.equal(responseMessage('12036', 'en'), 'Order not found');
  });
});
