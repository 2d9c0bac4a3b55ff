/**
 * The PG-Signature scheme between the service and the shop: HMAC-SHA-256 of `${t}.${body}` with the
 * shared secret, checked over the exact bytes, within five minutes either way.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { signHookBody, verifyHookSignature } from '../../src/server/hook-signature.ts';

const SECRET = 'hook-secret-for-tests-0123456789abcdef';
const BODY = '{"type":"payment_result","result":{"idempotency_key":"order-1:17:captured"}}';
const AT = new Date('2026-11-22T10:00:00Z');
const T = AT.getTime() / 1000;

describe('signHookBody', () => {
  it('writes t= the Unix seconds and v1= the hex HMAC-SHA-256 of "t.body"', async () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    assert.equal(await signHookBody(BODY, SECRET, AT), `t=${T},v1=${expected}`);
  });
});

describe('verifyHookSignature', () => {
  const at = (offsetSeconds: number) => new Date(AT.getTime() + offsetSeconds * 1000);

  it('accepts its own signature over the same bytes within the window', async () => {
    const header = await signHookBody(BODY, SECRET, AT);
    assert.deepEqual(await verifyHookSignature(BODY, header, SECRET, { now: at(299) }), { valid: true, timestamp: T });
    assert.equal((await verifyHookSignature(BODY, header, SECRET, { now: at(-299) })).valid, true);
  });

  it('refuses a replay outside five minutes, either way', async () => {
    const header = await signHookBody(BODY, SECRET, AT);
    assert.deepEqual(await verifyHookSignature(BODY, header, SECRET, { now: at(301) }), { valid: false, reason: 'expired' });
    assert.deepEqual(await verifyHookSignature(BODY, header, SECRET, { now: at(-301) }), { valid: false, reason: 'expired' });
  });

  it('refuses a changed body, another secret and a moved timestamp', async () => {
    const header = await signHookBody(BODY, SECRET, AT);
    const mismatch = { valid: false, reason: 'mismatch' };
    assert.deepEqual(await verifyHookSignature(BODY.replace('captured', 'refunded'), header, SECRET, { now: AT }), mismatch);
    assert.deepEqual(await verifyHookSignature(BODY, header, `${SECRET}x`, { now: AT }), mismatch);
    assert.deepEqual(await verifyHookSignature(BODY, header.replace(`t=${T}`, `t=${T + 1}`), SECRET, { now: AT }), mismatch);
  });

  it('says which is wrong with a missing or malformed header', async () => {
    assert.deepEqual(await verifyHookSignature(BODY, null, SECRET), { valid: false, reason: 'missing' });
    assert.deepEqual(await verifyHookSignature(BODY, '', SECRET), { valid: false, reason: 'missing' });
    for (const header of ['v1=abc', `t=${T}`, `t=soon,v1=${'a'.repeat(64)}`, `t=${T},v1=${'z'.repeat(64)}`, 'sha256=abc']) {
      assert.deepEqual(await verifyHookSignature(BODY, header, SECRET, { now: AT }), { valid: false, reason: 'malformed' }, header);
    }
  });

  it('accepts any one of several v1 signatures, for a secret being rotated', async () => {
    const current = await signHookBody(BODY, SECRET, AT);
    const old = (await signHookBody(BODY, 'the-previous-secret-0123456789abcdef', AT)).split(',')[1];
    assert.equal((await verifyHookSignature(BODY, `${current},${old}`, SECRET, { now: AT })).valid, true);
    assert.equal((await verifyHookSignature(BODY, `t=${T},${old}`, SECRET, { now: AT })).valid, false);
  });
});
