import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyNotUtf8, BodyTooLarge, KNOWN_BODY, readLimitedText } from '../../src/gateway/body.ts';
import type { OrderLookup } from '../../src/server/orders.ts';
import { toNodeListener } from '../../src/server/node.ts';
import { BASE_PATH, ELEMENTS_ORIGIN, ORDERS, setup, type Harness } from './harness.ts';

/**
 * The merchant endpoint mounted on its own takes the adapter's short path (the small body kept in
 * memory, JSON answered as text); the same endpoint behind any other handler takes the usual one
 * (a Request with its body, a Response). Both must answer every request alike.
 */

interface WireAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** What the resolver saw of the request, for each order asked about. */
const seen: { bodyUsed: boolean; reread: string }[] = [];
/** The order the resolver holds until the client has gone away. */
const WAITING = 'wait-for-abort';
/** The order the resolver holds until the test says the client has gone, then looks at the signal. */
const LATE = 'look-after-close';
let arrived: () => void = () => {};
let abortSeen: (aborted?: boolean) => void = () => {};
let clientGone: Promise<void> = Promise.resolve();
let harness: Harness;
let shortPath: Server;
let usualPath: Server;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function send(server: Server, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<WireAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const { date: _date, ...rest } = incoming.headers;
        resolve({ status: incoming.statusCode ?? 0, headers: rest, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The same request through both paths; the answers must be equal (the Date header aside). */
async function sameAnswer(method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<WireAnswer> {
  const usual = await send(usualPath, method, path, headers, body);
  const short = await send(shortPath, method, path, headers, body);
  assert.deepEqual(short, usual);
  return short;
}

const json = { 'content-type': 'application/json' };
const hostedPage = `${BASE_PATH}/hosted-page`;
const order = ORDERS[0]!.merchant_reference;
const PURCHASE = JSON.stringify({ merchant_reference: order, language: 'en', command: 'PURCHASE' });

before(async () => {
  harness = setup({
    maxBodyBytes: 1024,
    resolveOrder: async (reference: string, lookup: OrderLookup) => {
      if (reference === WAITING) {
        arrived();
        const { signal } = lookup.request;
        if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        abortSeen();
        return undefined;
      }
      if (reference === LATE) {
        arrived();
        await clientGone;
        abortSeen(lookup.request.signal.aborted);
        return undefined;
      }
      const { bodyUsed } = lookup.request;
      const reread = await lookup.request.text().then(
        () => 'read again',
        (error: unknown) => (error instanceof TypeError ? 'refused with a TypeError' : 'refused otherwise'),
      );
      seen.push({ bodyUsed, reread });
      return ORDERS.find((candidate) => candidate.merchant_reference === reference);
    },
  });
  shortPath = createServer(toNodeListener(harness.endpoint));
  usualPath = createServer(toNodeListener((request, context) => harness.endpoint(request, context)));
  await Promise.all([listen(shortPath), listen(usualPath)]);
});

after(() => {
  shortPath.close();
  usualPath.close();
});

describe('the endpoint mounted on its own (body in memory, JSON as text)', () => {
  it('signs the same form', async () => {
    const answer = await sameAnswer('POST', hostedPage, json, PURCHASE);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-length'], String(Buffer.byteLength(answer.body)));
    assert.match((JSON.parse(answer.body) as { fields: { signature: string } }).fields.signature, /^[0-9a-f]{64}$/);
  });

  it('gives the order resolver a request whose body was read, as the usual path does', async () => {
    seen.length = 0;
    await sameAnswer('POST', hostedPage, json, PURCHASE);
    assert.deepEqual(seen, [
      { bodyUsed: true, reread: 'refused with a TypeError' },
      { bodyUsed: true, reread: 'refused with a TypeError' },
    ]);
  });

  it('refuses a body that is not JSON, not an object, or not UTF-8', async () => {
    for (const body of ['{"merchant_reference":', '[1, 2]', '', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]) {
      const answer = await sameAnswer('POST', hostedPage, json, body);
      assert.equal(answer.status, 400, `${String(body)}`);
      assert.match(answer.body, /"invalid_json"/);
    }
  });

  it('refuses a body larger than the endpoint reads, held in memory or streamed', async () => {
    for (const size of [2_000, 100_000]) {
      const body = JSON.stringify({ merchant_reference: order, command: 'PURCHASE', padding: 'x'.repeat(size) });
      const answer = await sameAnswer('POST', hostedPage, json, body);
      assert.equal(answer.status, 413);
      assert.match(answer.body, /"body_too_large"/);
    }
  });

  it('refuses a command, a field only the server sets, the schema, an unknown order and another amount alike, in Arabic too', async () => {
    const refusals: [object, number][] = [
      [{ merchant_reference: order, language: 'en', command: 'REFUND' }, 403],
      [{ merchant_reference: order, language: 'en', command: 'PURCHASE', signature: 'x' }, 400],
      [{ merchant_reference: 7, command: 'PURCHASE' }, 400],
      [{ merchant_reference: 'nobody-9', language: 'en', command: 'PURCHASE' }, 404],
      [{ merchant_reference: order, language: 'en', command: 'PURCHASE', amount: 1 }, 409],
    ];
    for (const [body, status] of refusals) {
      const answer = await sameAnswer('POST', hostedPage, { ...json, 'accept-language': 'ar' }, JSON.stringify(body));
      assert.equal(answer.status, status, answer.body);
    }
  });

  it('answers CORS, preflight, a wrong method or media type and an unknown route alike', async () => {
    assert.equal((await sameAnswer('POST', hostedPage, { ...json, origin: ELEMENTS_ORIGIN }, PURCHASE)).status, 200);
    assert.equal((await sameAnswer('OPTIONS', hostedPage, { origin: ELEMENTS_ORIGIN, 'access-control-request-method': 'POST' })).status, 204);
    assert.equal((await sameAnswer('POST', hostedPage, { ...json, origin: 'https://evil.example' }, '{}')).status, 403);
    assert.equal((await sameAnswer('GET', hostedPage, {})).status, 405);
    assert.equal((await sameAnswer('HEAD', hostedPage, {})).body, '');
    assert.equal((await sameAnswer('POST', hostedPage, { 'content-type': 'text/plain' }, '{}')).status, 415);
    assert.equal((await sameAnswer('POST', `${BASE_PATH}/nowhere`, json, '{}')).status, 404);
  });

  it('answers the gateway’s return (a Response, not JSON) alike', async () => {
    const answer = await sameAnswer('GET', `${BASE_PATH}/return?merchant_reference=${order}`, {});
    assert.ok(answer.status >= 300, `status ${answer.status}`);
  });

  it('answers TRACE and a malformed Host itself, alike', async () => {
    assert.equal((await sameAnswer('TRACE', hostedPage, {})).status, 405);
    assert.equal((await sameAnswer('POST', hostedPage, { ...json, host: 'shop example:80', 'accept-language': 'ar' }, '{}')).status, 400);
  });

  it('aborts the request signal when the client goes away before the answer', async () => {
    const inResolver = new Promise<void>((resolve) => (arrived = resolve));
    const signalled = new Promise<void>((resolve) => (abortSeen = () => resolve()));
    const { port } = shortPath.address() as AddressInfo;
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: hostedPage, headers: json });
    outgoing.on('error', () => {});
    outgoing.end(JSON.stringify({ merchant_reference: WAITING, language: 'en', command: 'PURCHASE' }));
    await inResolver;
    outgoing.destroy();
    await signalled;
  });

  it('gives an aborted signal to a handler that first asks for it after the client went away', async () => {
    const inResolver = new Promise<void>((resolve) => (arrived = resolve));
    const looked = new Promise<boolean | undefined>((resolve) => (abortSeen = resolve));
    const socketClosed = new Promise<void>((resolve) => shortPath.once('connection', (socket) => socket.once('close', () => resolve())));
    let gone: () => void = () => {};
    clientGone = new Promise<void>((resolve) => (gone = resolve));
    const { port } = shortPath.address() as AddressInfo;
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: hostedPage, headers: { ...json, connection: 'close' } });
    outgoing.on('error', () => {});
    outgoing.end(JSON.stringify({ merchant_reference: LATE, language: 'en', command: 'PURCHASE' }));
    await inResolver;
    outgoing.destroy();
    await socketClosed;
    gone();
    assert.equal(await looked, true);
  });
});

describe('a body held in memory (KNOWN_BODY), read by readLimitedText', () => {
  const source = (bytes: Uint8Array, headers: Record<string, string> = {}) => {
    let given = false;
    return {
      headers: new Headers(headers),
      body: null,
      [KNOWN_BODY]: () => (given ? undefined : ((given = true), bytes)),
    };
  };

  it('is read once, as UTF-8 text', async () => {
    const body = source(new TextEncoder().encode('{"a":"مرحبا"}'));
    assert.equal(await readLimitedText(body, 100, { fatal: true }), '{"a":"مرحبا"}');
    assert.equal(await readLimitedText(body, 100), '', 'taken: nothing is left to read');
  });

  it('is refused past the limit, declared or not', async () => {
    await assert.rejects(readLimitedText(source(new Uint8Array(11)), 10), BodyTooLarge);
    await assert.rejects(readLimitedText(source(new Uint8Array(5), { 'content-length': '11' }), 10), BodyTooLarge);
  });

  it('is refused when it is not UTF-8 and the reader is strict', async () => {
    await assert.rejects(readLimitedText(source(new Uint8Array([0x7b, 0xff])), 10, { fatal: true }), BodyNotUtf8);
    assert.equal(await readLimitedText(source(new Uint8Array([0x7b, 0xff])), 10), '{\ufffd');
  });
});
