/**
 * The gateway answers 429 with Retry-After: the browser's request is refused `502
 * gateway_unreachable` (nothing was done), and told when to try again, as the gateway said.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './harness.ts';

const ORDER = { merchant_reference: 'order-1001', language: 'en' } as const;

/** A gateway that refuses every call for a while. */
const limited = (retryAfter?: string) => async () =>
  new Response('Too Many Requests', { status: 429, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } });

describe('a browser request the gateway rate-limits', () => {
  it('passes the gateway\'s Retry-After on with its 502 gateway_unreachable', async () => {
    const harness = setup({ fetch: limited('7') });
    const answer = await harness.post('/bill', ORDER);
    assert.equal(answer.status, 502);
    assert.equal(answer.body.error.code, 'gateway_unreachable');
    assert.equal(answer.headers.get('retry-after'), '7');
  });

  it('names no wait the gateway did not name', async () => {
    const harness = setup({ fetch: limited() });
    const answer = await harness.post('/bill', ORDER);
    assert.equal(answer.status, 502);
    assert.equal(answer.headers.get('retry-after'), null);
  });
});
