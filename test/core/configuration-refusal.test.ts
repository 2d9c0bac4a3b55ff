/**
 * Which gateway refusals say the merchant's own settings are wrong (core `isConfigurationRefusal`):
 * 00008 signature mismatch and 00006 invalid access code or merchant identifier, read as the
 * answer says them. Every other request refusal is the request's, the order's, the card's or the
 * account's services'; and an answer the project cannot read proves nothing, whatever its code.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isConfigurationRefusal, isReadableAnswer, RESPONSE_CODES } from '../../src/core/response.ts';

describe('a refusal for the merchant’s settings', () => {
  it('is 00008 (signature mismatch) and 00006 (invalid access code or merchant identifier), under status 00 or none', () => {
    for (const code of ['00008', '00006']) {
      assert.equal(isConfigurationRefusal({ response_code: code, status: '00' }), true, code);
      assert.equal(isConfigurationRefusal({ response_code: code }), true, `${code} without a status`);
    }
  });

  it('is no other known code: a bad request, the order, a card, a token or a service not activated', () => {
    const others = Object.keys(RESPONSE_CODES).filter((code) => code !== '00008' && code !== '00006');
    for (const code of others) assert.equal(isConfigurationRefusal({ response_code: code }), false, code);
  });

  it('is never an answer the project cannot read: 00008 under another status, or an unknown code', () => {
    assert.equal(isReadableAnswer({ response_code: '00008', status: '14' }), false);
    assert.equal(isConfigurationRefusal({ response_code: '00008', status: '14' }), false);
    assert.equal(isConfigurationRefusal({ response_code: '00099', status: '00' }), false);
    assert.equal(isConfigurationRefusal({ response_code: '8', status: '00' }), false, 'not five digits');
    assert.equal(isConfigurationRefusal({}), false);
  });
});
