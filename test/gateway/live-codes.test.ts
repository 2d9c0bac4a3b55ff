/**
 * A live account accepts a capture with 04000 (status 04) and a refund with 06000 (status 06) where
 * the specification says 20064 (status 04). The client reads both as success from the answer
 * itself, never as an unknown code to settle with CHECK_STATUS. A whole lifecycle (a charge, two
 * captures, a refund, a status, a void, a batch) against the sandbox over loopback HTTP, once answering the
 * specification's codes and once a live account's.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { GatewayClient } from '../../src/gateway/index.ts';
import type { SuccessCodes } from '../../src/sandbox/index.ts';
import { buildBatchFile } from '../../src/core/batch-file.ts';
import { authorize, card, challengeOf, clientFor, nextReference, sleepsOn, startSandbox, type Sandbox } from './support.ts';

const EXPECTED: Record<SuccessCodes, { capture: [string, string]; refund: [string, string]; hold: [string, string] }> = {
  spec: { capture: ['20064', '04'], refund: ['20064', '04'], hold: ['20000', '20'] },
  // A live account holds a charge for 3-D Secure with 20064 under status 20 (docs/decisions.md).
  live: { capture: ['04000', '04'], refund: ['06000', '06'], hold: ['20064', '20'] },
};

for (const mode of ['spec', 'live'] as const) {
  describe(`a lifecycle against the sandbox answering the ${mode === 'spec' ? 'specification’s' : 'live account’s'} success codes`, () => {
    let sandbox: Sandbox;
    let client: GatewayClient;
    const readings: string[] = [];

    before(async () => {
      sandbox = await startSandbox({ successCodes: mode });
      // Every CHECK_STATUS the client asks is counted: an answer it could not read would add readings.
      const counting: typeof fetch = async (input, init) => {
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
        if (body['query_command'] === 'CHECK_STATUS') readings.push(String(body['merchant_reference']));
        return fetch(input, init);
      };
      client = clientFor(sandbox.origin, { fetch: counting });
    });
    after(() => sandbox.close());

    it('charges, captures twice, refunds and reads the status, every step a success read from its own answer', async () => {
      const reference = nextReference(`life-${mode}`);
      await authorize(client, reference, 100_000);

      const part = await client.capture({ merchant_reference: reference, amount: 40_000, currency: 'EGP' });
      assert.deepEqual([part.outcome, part.source, part.response_code, part.status], ['success', 'answer', ...EXPECTED[mode].capture]);
      assert.equal(part.reason, undefined, 'not settled by CHECK_STATUS');
      const rest = await client.capture({ merchant_reference: reference, currency: 'EGP' });
      assert.deepEqual([rest.outcome, rest.source, rest.response_code], ['success', 'answer', EXPECTED[mode].capture[0]]);

      const refund = await client.refund({ merchant_reference: reference, amount: 30_000, currency: 'EGP' });
      assert.deepEqual([refund.outcome, refund.source, refund.response_code, refund.status], ['success', 'answer', ...EXPECTED[mode].refund]);

      const status = await client.checkStatus({ merchant_reference: reference });
      assert.equal(status.outcome, 'success');
      assert.deepEqual(
        [status.order?.state, status.order?.captured_amount, status.order?.refunded_amount, status.order?.transaction_code, status.order?.transaction_status],
        ['partially_refunded', 100_000, 30_000, ...EXPECTED[mode].refund],
      );
      // One reading before the charge, each capture and the refund, and the status itself: none to settle an answer.
      assert.equal(readings.filter((asked) => asked === reference).length, 5);
      const order = sandbox.gateway.order({ merchantReference: reference });
      assert.deepEqual(order?.operations.map((operation) => [operation.operation, operation.code]), [
        ['AUTHORIZATION', '02000'],
        ['CAPTURE', EXPECTED[mode].capture[0]],
        ['CAPTURE', EXPECTED[mode].capture[0]],
        ['REFUND', EXPECTED[mode].refund[0]],
      ]);
    });

    it('answers the same codes in a processed batch’s rows', async () => {
      const sleeps = sleepsOn(sandbox.clock);
      const batchClient = clientFor(sandbox.origin, { sleep: sleeps.sleep, now: sandbox.clock.now });
      const [held, paid] = [nextReference(`batch-auth-${mode}`), nextReference(`batch-paid-${mode}`)];
      await authorize(batchClient, held, 50_000);
      await authorize(batchClient, paid, 50_000, 'PURCHASE');
      const handle = { batch_reference: `lc-${mode}-${Date.now().toString(36)}`.slice(0, 20), batch_id: '' };
      const uploaded = await batchClient.uploadBatch({
        batch_reference: handle.batch_reference,
        file: buildBatchFile([
          { command: 'CAPTURE', merchant_reference: held, amount: '50000', currency: 'EGP' },
          { command: 'REFUND', merchant_reference: paid, amount: '10000', currency: 'EGP' },
        ]),
      });
      handle.batch_id = String(uploaded.answer?.batch_id);
      assert.equal((await batchClient.waitForBatch({ ...handle, until: 'validated' })).batch_status, 'VALIDATED');
      assert.equal((await batchClient.processBatch(handle)).outcome, 'success');
      const results = await batchClient.waitForBatch({ ...handle, until: 'processed' });
      assert.deepEqual(
        results.rows?.map((row) => [row.merchant_reference, row.response_code, row.status]),
        [
          [held, ...EXPECTED[mode].capture],
          [paid, ...EXPECTED[mode].refund],
        ],
      );
    });

    it('holds a charge for 3-D Secure with its 3ds_url, pending in the answer and in CHECK_STATUS until the challenge is approved', async () => {
      const reference = nextReference(`3ds-${mode}`);
      const held = await client.trustedPurchase({ merchant_reference: reference, amount: 10_000, currency: 'EGP', eci: 'ECOMMERCE', ...card('3ds') });
      assert.deepEqual([held.outcome, held.source, held.response_code, held.status], ['pending', 'answer', ...EXPECTED[mode].hold]);
      const url = String(held.answer?.['3ds_url']);
      assert.match(url, /\/3ds\/challenge\?id=/);
      const waiting = await client.checkStatus({ merchant_reference: reference });
      assert.deepEqual(
        [waiting.order?.state, waiting.order?.transaction_code, waiting.order?.transaction_status],
        ['pending', ...EXPECTED[mode].hold],
      );

      const page = await fetch(url);
      await fetch(`${sandbox.origin}${sandbox.gateway.paths.challenge}`, {
        method: 'POST',
        body: new URLSearchParams({ challenge: challengeOf(await page.text()), decision: 'approve' }),
      });
      const paid = await client.checkStatus({ merchant_reference: reference });
      assert.deepEqual([paid.order?.state, paid.order?.transaction_code, paid.order?.transaction_status], ['captured', '14000', '14']);
    });

    it('voids an authorization with 08000, status 08, in either mode', async () => {
      const reference = nextReference(`void-${mode}`);
      await authorize(client, reference, 20_000);
      const voided = await client.voidAuthorization({ merchant_reference: reference });
      assert.deepEqual([voided.outcome, voided.source, voided.response_code, voided.status], ['success', 'answer', '08000', '08']);
      assert.equal((await client.checkStatus({ merchant_reference: reference })).order?.state, 'voided');
    });
  });
}

describe('createSandboxGateway successCodes', () => {
  it('refuses a value other than spec or live', async () => {
    await assert.rejects(startSandbox({ successCodes: 'LIVE' as SuccessCodes }), /successCodes must be 'spec' or 'live'/);
  });
});
