/** The client's own refusals name the order's actual state, in English and in Arabic. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { OrderState } from '../../src/core/order-status.ts';
import { clientMessage } from '../../src/gateway/messages.ts';

describe('when nothing is left to capture', () => {
  it('names the state that stops it, one per state', () => {
    const said = (state: OrderState) =>
      clientMessage('nothing_to_capture', 'en', { state });
    assert.match(said('partially_refunded'), /: it was refunded in part/);
    assert.match(said('refunded'), /: it was refunded\.$/);
    assert.match(said('voided'), /: it was voided\.$/);
    assert.match(said('captured'), /: it is captured in full\.$/);
    assert.match(said('failed'), /: it is not authorized \(failed\)\.$/);
    for (const state of ['refunded', 'voided', 'captured'] as const) assert.doesNotMatch(said(state), / or /);
  });

  it('says it in Arabic too', () => {
    assert.match(clientMessage('nothing_to_capture', 'ar', { state: 'refunded' }), /تم استرداده/);
    assert.match(clientMessage('nothing_to_capture', 'ar', { state: 'voided' }), /تم إلغاؤه/);
  });
});

describe('when nothing is left to refund', () => {
  it('names the state that stops it', () => {
    assert.match(clientMessage('nothing_to_refund', 'en', { state: 'refunded' }), /: it is refunded in full\.$/);
    assert.match(clientMessage('nothing_to_refund', 'en', { state: 'voided' }), /: it was voided/);
    assert.match(clientMessage('nothing_to_refund', 'en', { state: 'authorized' }), /nothing is captured yet/);
    assert.match(clientMessage('nothing_to_refund', 'ar', { state: 'refunded' }), /تم استرداده بالكامل/);
  });
});

describe('when nothing is left to void', () => {
  it('names the state that stops it', () => {
    assert.match(clientMessage('nothing_to_void', 'en', { state: 'voided' }), /: it was voided already\.$/);
    assert.match(clientMessage('nothing_to_void', 'en', { state: 'captured' }), /refunded, not voided/);
    assert.match(clientMessage('nothing_to_void', 'ar', { state: 'voided' }), /تم إلغاؤه من قبل/);
  });
});
