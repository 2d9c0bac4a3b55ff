/**
 * A client whose request phrase is not the account's: the sandbox refuses every request, signed
 * with the response phrase (00008 signature mismatch). The client's result is a refusal like any
 * other (exit 5 in the CLI); what it adds is the hint that goes with it: which settings to compare
 * with the back office, never their values, in the place the endpoint takes it from too.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { configurationRefusalHint, refusalHint } from '../../src/gateway/messages.ts';
import { clientFor, M, startSandbox, type Sandbox } from './support.ts';

let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox.close());

describe('a client with a wrong SHA request phrase', () => {
  it('is refused 00008, and the refusal’s hint names the four settings to check', async () => {
    const client = clientFor(sandbox.origin, { requestPhrase: 'not-the-back-office-phrase' });
    const result = await client.checkStatus({ merchant_reference: 'order-77' });
    assert.deepEqual([result.outcome, result.response_code, result.status, result.source], ['refused', '00008', '00', 'answer']);
    const hint = refusalHint(result);
    assert.equal(hint, "check PG_SHA_REQUEST_PHRASE, PG_SHA_TYPE, PG_ACCESS_CODE and PG_MERCHANT_IDENTIFIER against the gateway's back office");
    assert.ok(!hint.includes(M.requestPhrase) && !hint.includes(M.accessCode));
    assert.match(refusalHint(result, 'ar') ?? '', /PG_SHA_REQUEST_PHRASE.*PG_SHA_TYPE.*PG_ACCESS_CODE.*PG_MERCHANT_IDENTIFIER/);
  });

  it('gives no such hint for a refusal of the request or the order', async () => {
    const client = clientFor(sandbox.origin);
    const result = await client.checkStatus({ merchant_reference: 'order-78' });
    assert.equal(result.response_code, '12001');
    assert.equal(refusalHint(result), undefined);
    for (const response_code of ['00001', '00002', '00005', '00007', '00014', '13001']) {
      assert.equal(refusalHint({ response_code, status: response_code.slice(0, 2) }), undefined, response_code);
    }
  });

  it('has one text per language, the same for every configuration refusal', () => {
    assert.equal(refusalHint({ response_code: '00006', status: '00' }), configurationRefusalHint('en'));
    assert.equal(refusalHint({ response_code: '00008', status: '00' }, 'ar'), configurationRefusalHint('ar'));
  });
});
