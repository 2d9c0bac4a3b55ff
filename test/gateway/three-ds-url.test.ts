/**
 * A `3ds_url` is where the customer's browser is sent to meet the issuer's challenge. From a gateway
 * reached over https it must be https (core `isUsableThreeDsUrl`): a plain http one, signed or not,
 * is an answer that cannot be used. The client then treats it as it treats any answer it cannot use
 * (an unknown code, a malformed answer): a charge is settled by CHECK_STATUS and the address is never
 * handed on; a 3DS_ENROLLMENT, sent once and moving no money, fails with `answer_invalid`; the
 * endpoint's calls (`client.call`) fail the same way, and the endpoint then asks CHECK_STATUS.
 *
 * "The live gateway" here is the sandbox behind an https address: the client's `fetch` hands each
 * request to the sandbox on loopback and, before the client reads the answer, moves its `3ds_url` to
 * the issuer's host under the scheme the test names, signing the answer again with the response
 * phrase, as a gateway would sign it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signParams, type SignableParams } from '../../src/core/signature.ts';
import { trustedChannelRequest, trustedChannelResponse } from '../../src/core/schemas/index.ts';
import { GatewayUnavailableError, type GatewayClient } from '../../src/gateway/index.ts';
import type { LogData, Logger } from '../../src/log/logger.ts';
import { card, clientFor, FUTURE_EXPIRY, M, nextReference, startSandbox, type Sandbox } from './support.ts';

const LIVE = 'https://paymentservices.gateway.example';

let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(() => sandbox.close());

interface Line {
  readonly level: string;
  readonly event: string;
  readonly data: LogData | undefined;
}

function recorder(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (event: string, data?: LogData) => void lines.push({ level, event, data });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

/** A client of "the live gateway" whose answers carry their `3ds_url` at `scheme`://acs.bank.example. */
function liveClient(scheme: 'https' | 'http'): { client: GatewayClient; lines: Line[] } {
  const { logger, lines } = recorder();
  const live: typeof fetch = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const response = await fetch(`${sandbox.origin}${url.pathname}${url.search}`, init);
    const answer = (await response.json()) as Record<string, unknown>;
    if (typeof answer['3ds_url'] !== 'string') return Response.json(answer);
    const moved = new URL(answer['3ds_url']);
    const signed = await signParams({ ...answer, '3ds_url': `${scheme}://acs.bank.example${moved.pathname}${moved.search}` } as SignableParams, M.responsePhrase, M.shaType);
    return Response.json(signed);
  };
  return { client: clientFor(LIVE, { fetch: live, logger }), lines };
}

const charge = (reference: string) => ({ merchant_reference: reference, amount: 10_000, currency: 'EGP', eci: 'ECOMMERCE' as const, ...card('3ds') });

describe('a 3ds_url from a gateway reached over https', () => {
  it('is handed on when it is https: the charge is pending, its answer carries the address', async () => {
    const { client } = liveClient('https');
    const held = await client.trustedPurchase(charge(nextReference('3ds-https')));
    assert.deepEqual([held.outcome, held.source], ['pending', 'answer']);
    assert.match(String(held.answer?.['3ds_url']), /^https:\/\/acs\.bank\.example\/.*3ds\/challenge\?id=/);
  });

  it('is never handed on when it is plain http: the charge is settled by CHECK_STATUS (pending), without the answer', async () => {
    const { client, lines } = liveClient('http');
    const reference = nextReference('3ds-http');
    const held = await client.trustedPurchase(charge(reference));
    assert.deepEqual([held.outcome, held.source, held.reason], ['pending', 'check_status', 'answer_invalid']);
    assert.equal(held.answer, undefined, 'no 3ds_url reaches the caller');
    assert.equal(held.order?.state, 'pending');
    assert.ok(!JSON.stringify(held).includes('http://'), JSON.stringify(held));
    // Logged by name, as an answer that cannot be used is: never the address itself.
    const refused = lines.find((line) => line.event === 'gateway_answer_malformed');
    assert.deepEqual(refused?.data, { operation: 'PURCHASE (trusted channel, ECOMMERCE)', fields: ['3ds_url https'] });
    assert.ok(!JSON.stringify(lines).includes('acs.bank.example'));
  });

  it('fails the endpoint’s own call (client.call) as an answer that cannot be used, which the endpoint settles with CHECK_STATUS', async () => {
    const { client } = liveClient('http');
    await assert.rejects(
      client.call(
        { name: 'PURCHASE', requestSchema: trustedChannelRequest, answerSchema: trustedChannelResponse },
        { language: 'en', params: { command: 'PURCHASE', language: 'en', ...charge(nextReference('3ds-call')), amount: '10000' } },
      ),
      (error) => error instanceof GatewayUnavailableError && error.kind === 'answer_invalid',
    );
  });

  it('fails a 3DS_ENROLLMENT whose issuer page is plain http (answer_invalid); an https one is answered', async () => {
    const enrollment = (reference: string) => ({
      merchant_reference: reference,
      amount: 10_000,
      currency: 'EGP',
      card_number: card('3ds').card_number,
      expiry_date: FUTURE_EXPIRY,
      merchant_3ds_url: 'https://shop.example/3ds-return',
    });
    await assert.rejects(
      liveClient('http').client.threeDsEnrollment(enrollment(nextReference('enrol-http'))),
      (error) => error instanceof GatewayUnavailableError && error.kind === 'answer_invalid' && error.operation === '3DS_ENROLLMENT',
    );
    const enrolled = await liveClient('https').client.threeDsEnrollment(enrollment(nextReference('enrol-https')));
    assert.equal(enrolled.outcome, 'success', JSON.stringify(enrolled));
    assert.match(String(enrolled.answer?.['3ds_url']), /^https:\/\/acs\.bank\.example\//);
  });
});

describe('a 3ds_url from the local sandbox (plain http on loopback)', () => {
  it('is handed on: the sandbox and the tests keep working over http://127.0.0.1', async () => {
    const held = await clientFor(sandbox.origin).trustedPurchase(charge(nextReference('3ds-local')));
    assert.deepEqual([held.outcome, held.source], ['pending', 'answer']);
    assert.match(String(held.answer?.['3ds_url']), new RegExp(`^${sandbox.origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/.*3ds/challenge\\?id=`));
  });
});
