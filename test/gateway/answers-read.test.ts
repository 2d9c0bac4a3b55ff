/**
 * What the client makes of an answer it cannot take at its word, from a gateway over loopback HTTP
 * whose answers a test writes (signed with the response phrase): a money call answered with a code
 * this package does not know, or a status that disagrees with its code, is settled by CHECK_STATUS and
 * never called refused; an answer echoing another amount, currency, command or order is another
 * request's; a live account's charge held for 3-D Secure (20064 under status 20) is pending with its
 * `3ds_url`; and a redirect is never followed with the signed request.
 */
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sign } from '../../src/core/signature.ts';
import { createGatewayClient, GatewayUnavailableError, type GatewayClient } from '../../src/gateway/index.ts';

const RESPONSE_PHRASE = 'response-phrase';
type Fields = Record<string, string>;
type Answer = Fields | { readonly redirectTo: string };

/** The gateway: what it answers each request, and every request it received. */
let answerFor: (request: Fields) => Answer;
const received: Fields[] = [];
/** Where a redirect points: it must never be asked. */
const elsewhere: Fields[] = [];
let gateway: Server;
let thief: Server;
let client: GatewayClient;

const readBody = async (request: AsyncIterable<Buffer>): Promise<string> => {
  let text = '';
  for await (const chunk of request) text += chunk.toString('utf8');
  return text;
};

const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

before(async () => {
  thief = createServer(async (request, response) => {
    elsewhere.push(JSON.parse((await readBody(request)) || '{}') as Fields);
    response.end('{}');
  });
  gateway = createServer(async (request, response) => {
    const sent = JSON.parse(await readBody(request)) as Fields;
    received.push(sent);
    const answer = answerFor(sent);
    if ('redirectTo' in answer) {
      response.writeHead(307, { location: answer.redirectTo }).end();
      return;
    }
    const signature = await sign(answer, RESPONSE_PHRASE, 'sha256');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...answer, signature }));
  });
  await Promise.all([thief, gateway].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  client = createGatewayClient({
    merchantIdentifier: 'merchant01',
    accessCode: 'accessCode01',
    shaType: 'sha256',
    requestPhrase: 'request-phrase',
    responsePhrase: RESPONSE_PHRASE,
    gatewayBaseUrl: origin(gateway),
    apiRoot: 'FortAPI',
    sleep: async () => {},
  });
});
after(() => Promise.all([thief, gateway].map((server) => new Promise((resolve) => server.close(resolve)))));
beforeEach(() => {
  received.length = 0;
  elsewhere.length = 0;
});

/** The request echoed, as the gateway answers (the specification: every parameter sent comes back). */
const echo = ({ signature: _signature, ...request }: Fields): Fields => request;

/** An order authorized for EGP 1,000.00, its last operation given; captured as given. */
const status = (request: Fields, last: { code: string; status: string }, captured = '0'): Fields => ({
  ...echo(request),
  response_code: '12000',
  response_message: 'Success',
  status: '12',
  svc_id: '1700000001',
  transaction_code: last.code,
  transaction_status: last.status,
  authorized_amount: '100000',
  captured_amount: captured,
  refunded_amount: '0',
});

const commandOf = (request: Fields) => request['query_command'] ?? request['command'] ?? request['service_command'];

/** A trusted-channel PURCHASE of EGP 100.00 with a test card's clear data. */
const trustedPurchase = (reference: string) =>
  client.trustedPurchase({
    merchant_reference: reference,
    amount: 10_000,
    currency: 'EGP',
    eci: 'ECOMMERCE',
    card_number: '4005550000000001',
    expiry_date: '3012',
    card_security_code: '123',
    card_holder_name: 'Test Buyer',
  });

describe('a capture answered with something the client cannot read', () => {
  it('settles an unknown code by CHECK_STATUS, where the same code as the last operation settles nothing: unknown, never refused', async () => {
    let last = { code: '02000', status: '02' };
    answerFor = (request) => {
      if (request['query_command'] === 'CHECK_STATUS') return status(request, last);
      // Accepted, held, the money not moved yet: under a code this package does not know.
      last = { code: '04999', status: '04' };
      return { ...echo(request), response_code: '04999', response_message: 'Capture on hold', status: '04' };
    };
    const result = await client.capture({ merchant_reference: 'order-1', amount: 40_000, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.source, result.reason], ['unknown', 'check_status', 'unknown_code']);
    assert.ok(received.filter((request) => commandOf(request) === 'CHECK_STATUS').length > 2, 'asked again after the capture');
    assert.equal(received.filter((request) => commandOf(request) === 'CAPTURE').length, 1, 'sent once');
  });

  it('settles a known code under a status that disagrees with it by CHECK_STATUS, which finds the capture applied', async () => {
    let captured = '0';
    answerFor = (request) => {
      if (request['query_command'] === 'CHECK_STATUS') return status(request, captured === '0' ? { code: '02000', status: '02' } : { code: '04000', status: '04' }, captured);
      captured = '40000';
      return { ...echo(request), response_code: '04000', response_message: 'Capture accepted', status: '02' };
    };
    const result = await client.capture({ merchant_reference: 'order-2', amount: 40_000, currency: 'EGP' });
    assert.deepEqual([result.outcome, result.source], ['success', 'check_status']);
  });
});

describe("a live account's charge held for 3-D Secure", () => {
  it('is pending with its 3ds_url (20064 under status 20), not refused', async () => {
    answerFor = (request) => {
      if (request['query_command'] === 'CHECK_STATUS') return { ...echo(request), response_code: '12036', response_message: 'Order not found', status: '12' };
      const { card_number: _number, card_security_code: _code, expiry_date: _expiry, card_holder_name: _holder, ...rest } = echo(request);
      return { ...rest, response_code: '20064', response_message: '3-D Secure check requested', status: '20', '3ds_url': 'https://acs.issuer.test/challenge', svc_id: '1700000002' };
    };
    const result = await trustedPurchase('order-3');
    assert.deepEqual([result.outcome, result.source, result.answer?.['3ds_url']], ['pending', 'answer', 'https://acs.issuer.test/challenge']);
  });
});

describe('an answer that echoes what was not sent', () => {
  it('is not taken for a capture of another amount or currency: the capture is settled by CHECK_STATUS', async () => {
    answerFor = (request) => {
      if (request['query_command'] === 'CHECK_STATUS') return status(request, { code: '02000', status: '02' });
      return { ...echo(request), amount: '100000', currency: 'KWD', response_code: '04000', response_message: 'Capture accepted', status: '04' };
    };
    const result = await client.capture({ merchant_reference: 'order-4', amount: 100, currency: 'EGP' });
    assert.notEqual(result.source, 'answer');
    assert.notEqual(result.outcome, 'success');
  });

  it("refuses a status read by the gateway's id answered about another order", async () => {
    answerFor = (request) => ({ ...status(request, { code: '02000', status: '02' }), svc_id: '5555' });
    await assert.rejects(client.checkStatus({ svc_id: '1700000001' }), (error: unknown) => {
      assert.ok(error instanceof GatewayUnavailableError);
      assert.equal(error.kind, 'foreign_answer');
      return true;
    });
  });

  it('takes an answer that leaves an echoed field out', async () => {
    answerFor = (request) => {
      const { svc_id: _id, ...rest } = status(request, { code: '02000', status: '02' });
      return rest;
    };
    const result = await client.checkStatus({ svc_id: '1700000001' });
    assert.deepEqual([result.outcome, result.order?.state], ['success', 'authorized']);
  });
});

describe('a redirect', () => {
  it('is never followed: the signed charge is not posted where it points, and the charge is settled by CHECK_STATUS', async () => {
    const notFound = (request: Fields): Fields => ({ ...echo(request), response_code: '12036', response_message: 'Order not found', status: '12' });
    answerFor = (request) => (request['query_command'] === 'CHECK_STATUS' ? notFound(request) : { redirectTo: `${origin(thief)}/collect` });
    const result = await trustedPurchase('order-6');
    assert.equal(elsewhere.length, 0, 'nothing reached the redirect target');
    assert.notEqual(result.outcome, 'success');
    assert.equal(result.source, 'check_status');
    assert.deepEqual(received.map(commandOf).slice(0, 3), ['CHECK_STATUS', 'PURCHASE', 'CHECK_STATUS']);
  });
});
