/**
 * A saved card the reconciler confirms with GET_TOKENS, when the gateway refuses the question for
 * the merchant's own settings (00008 signature mismatch, 00006 access code or merchant identifier):
 * not an answer about the token, and every question is refused alike until the settings are
 * corrected. As CHECK_STATUS's settings refusal: logged once a round with the settings to check,
 * the watch kept (waiting by the usual backoff) through the outage's grace past its expiry, so that
 * a correction within it still confirms the card. Past the grace, the shop still hears of the token,
 * marked not confirmed (`token_list_refused`), as it did before at once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UNANSWERED_GRACE_MS } from '../../src/server/watches.ts';
import { RETURN_URL } from './harness.ts';
import { signedTokenization } from './support/returns.ts';
import { events, MINUTE, reconcilerWorld } from './support/worlds.ts';

const DAY = 24 * 60 * MINUTE;
const HINT = "check PG_SHA_REQUEST_PHRASE, PG_SHA_TYPE, PG_ACCESS_CODE and PG_MERCHANT_IDENTIFIER against the gateway's back office";

/** Cards saved on `references` whose token list could not be read at the return (the gateway down): each watched. */
async function unconfirmedCards(w: ReturnType<typeof reconcilerWorld>, references: readonly string[]): Promise<void> {
  w.harness.gateway.failWith(503);
  for (const reference of references) {
    const tokenization = await signedTokenization(reference, `tok-${reference}`, {
      return_url: RETURN_URL,
      merchant_extra1: 'SAVE_CARD',
      remember_me: 'YES',
      card_number: '411111******1111',
      expiry_date: '2812',
    });
    assert.equal((await w.harness.postReturn(tokenization)).status, 303);
    assert.equal((await w.store.watches.get(reference))?.kind, 'saved_card');
  }
  w.harness.gateway.reset();
}

describe('the reconciler when the gateway refuses GET_TOKENS for the merchant\'s settings', () => {
  for (const code of ['00008', '00006'] as const) {
    it(`logs it once a round with the settings to check, and keeps the saved cards watched (${code})`, async () => {
      const w = reconcilerWorld();
      await unconfirmedCards(w, ['order-1001', 'order-2002', 'order-3003']);
      w.harness.gateway.answer('GET_TOKENS', () => ({ code }));
      const round = await w.round();
      assert.deepEqual([round.asked, round.reported, round.ended, round.failed], [2, 0, 0, 2], 'paused after two refusals in a row');
      assert.deepEqual(w.reported, [], 'nothing said of the cards yet');
      const refused = events(w.logs, 'gateway_configuration_refused');
      assert.deepEqual(refused.map((line) => [line['level'], line['operation'], line['response_code'], line['hint']]), [['error', 'GET_TOKENS', code, HINT]]);
      assert.deepEqual(events(w.logs, 'reconcile_paused').map((line) => line['reason']), ['gateway_configuration_refused']);
      for (const reference of ['order-1001', 'order-2002', 'order-3003']) assert.equal((await w.store.watches.get(reference))?.ended_at, undefined);
      assert.equal((await w.store.watches.get('order-1001'))?.last_error, 'configuration_refused');
      await w.round();
      assert.equal(events(w.logs, 'gateway_configuration_refused').length, 2, 'once more, in the next round');
    });
  }

  it('confirms the card once the settings are corrected within the grace past the watch\'s expiry', async () => {
    const w = reconcilerWorld();
    await unconfirmedCards(w, ['order-1001']);
    w.harness.gateway.answer('GET_TOKENS', () => ({ code: '00008' }));
    await w.round();
    const watch = await w.store.watches.get('order-1001');
    // Past the watch's expiry, still within the grace: the settings are corrected.
    w.advance(Date.parse(watch?.expires_at ?? '') - w.now().getTime() + UNANSWERED_GRACE_MS / 2);
    await w.reconciler.runDue();
    assert.equal((await w.store.watches.get('order-1001'))?.ended_at, undefined, 'not ended at its expiry for a refusal of the settings');
    w.harness.gateway.reset();
    w.harness.gateway.keepsToken('tok-order-1001');
    w.advance(2 * 60 * MINUTE);
    await w.reconciler.runDue();
    assert.deepEqual(
      w.reported.map((result) => [result.kind, result.outcome, result.saved_card?.token_name, result.saved_card?.confirmed]),
      [['saved_card', 'success', 'tok-order-1001', true]],
    );
    assert.equal((await w.store.watches.get('order-1001'))?.end_reason, 'saved');
  });

  it('still tells the shop of the token, not confirmed, once the grace is over with the settings still refused', async () => {
    const w = reconcilerWorld();
    await unconfirmedCards(w, ['order-1001']);
    w.harness.gateway.answer('GET_TOKENS', () => ({ code: '00008' }));
    await w.round();
    const watch = await w.store.watches.get('order-1001');
    w.advance(Date.parse(watch?.expires_at ?? '') - w.now().getTime() + UNANSWERED_GRACE_MS + MINUTE);
    await w.reconciler.runDue();
    assert.deepEqual(
      w.reported.map((result) => [result.kind, result.outcome, result.saved_card?.confirmed, result.saved_card?.unconfirmed_reason]),
      [['saved_card', 'success', false, 'token_list_refused']],
    );
    assert.equal((await w.store.watches.get('order-1001'))?.end_reason, 'saved_unconfirmed');
    assert.deepEqual(events(w.logs, 'saved_card_unconfirmed').map((line) => [line['reason'], line['response_code']]), [['token_list_refused', '00008']]);
    w.advance(DAY);
    await w.reconciler.runDue();
    assert.equal(w.reported.length, 1, 'reported once');
  });

  it('still reports a list the gateway refuses for another reason at once, not confirmed (00001)', async () => {
    const w = reconcilerWorld();
    await unconfirmedCards(w, ['order-1001']);
    w.harness.gateway.answer('GET_TOKENS', () => ({ code: '00001' }));
    await w.round();
    assert.deepEqual(
      w.reported.map((result) => [result.saved_card?.confirmed, result.saved_card?.unconfirmed_reason]),
      [[false, 'token_list_refused']],
    );
    assert.equal(events(w.logs, 'gateway_configuration_refused').length, 0);
  });
});
