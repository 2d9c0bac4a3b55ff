import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { endpointError } from '../../src/core/endpoint-api.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import { serve, type RunningServer } from '../../src/server/serve.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { createFakeGateway, GATEWAY_ENV } from './fake-gateway.ts';
import { parse } from '../../src/core/shape.ts';

let server: RunningServer;
const logs: string[] = [];
/** The waiting handler's request arrived, and later its signal aborted. */
let arrived: () => void = () => {};
let abortSeen: () => void = () => {};

before(async () => {
  server = await serve(
    {
      ...GATEWAY_ENV,
      PG_PORT: '0',
    },
    {
      logger: createJsonLogger((line) => logs.push(line)),
      fetch: createFakeGateway().fetch,
      store: createMemoryStore(),
      mount: [
        async (request) => {
          const path = new URL(request.url).pathname;
          if (path === '/broken') throw new Error('the shop handler failed');
          if (path === '/echo-length') return new Response(String((await request.arrayBuffer()).byteLength));
          if (path === '/wait-for-abort') {
            // Answers only when the client has gone away: the signal is what tells the handler.
            const abort = new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
            arrived();
            await abort;
            abortSeen();
            return new Response('too late');
          }
          return undefined;
        },
      ],
    },
  );
});

after(() => server.close());

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A request as a client writes it on the wire, with whatever method and Host it likes. */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<RawAnswer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The headers every answer of the endpoint carries, and its JSON error body. */
function assertEndpointRefusal(answer: RawAnswer, status: number) {
  assert.equal(answer.status, status);
  assert.equal(answer.headers['cache-control'], 'no-store');
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  return parse(endpointError, JSON.parse(answer.body)).error;
}

describe('the Node adapter', () => {
  it('keeps an idle keep-alive connection open past 5 s, so a load balancer reusing it is answered, not reset', { timeout: 20_000 }, async () => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const ask = async () => {
      const before = received.length;
      socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
      const deadline = Date.now() + 5_000;
      while (!/HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n[\s\S]*\}/.test(received.slice(before)) && !socket.closed && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received.slice(before);
    };
    assert.match(await ask(), /^HTTP\/1\.1 200/);
    // Node's own default closes an idle connection after 5 s; a balancer keeps its side for 60.
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    assert.equal(socket.closed, false, 'the service kept the idle connection');
    assert.match(await ask(), /^HTTP\/1\.1 200/, 'the same connection answers again');
    socket.destroy();
  });

  it('answers TRACE with 405, an Allow header and the security headers', async () => {
    const answer = await raw('TRACE', '/order');
    assert.deepEqual(assertEndpointRefusal(answer, 405), { code: 'method_not_allowed', message: 'This method is not allowed here.' });
    assert.match(String(answer.headers['allow']), /POST/);
    assert.doesNotMatch(String(answer.headers['allow']), /TRACE/);
  });

  it('answers a malformed Host header with 400 naming the header, in the request language', async () => {
    const answer = await raw('POST', '/order', { host: 'shop example:80', 'accept-language': 'ar' });
    const error = assertEndpointRefusal(answer, 400);
    assert.equal(error.code, 'invalid_request');
    assert.equal(error.field, 'host');
    assert.match(error.message, /^host: [\u0600-\u06ff]/);
  });

  it('answers a handler that throws with 500 and the security headers, and logs it through onError', async () => {
    const answer = await raw('GET', '/broken');
    assert.equal(assertEndpointRefusal(answer, 500).code, 'internal_error');
    assert.ok(!answer.body.includes('the shop handler failed'), 'the error is not detailed to the browser');
    const line = logs.find((entry) => entry.includes('"event":"internal_error"'));
    assert.ok(line, 'serve logs the error');
    assert.match(line, /the shop handler failed/);
  });

  it('hands a handler the whole body, small (read at once) or large (streamed)', async () => {
    for (const size of [70, 200_000]) {
      const answer = await raw('POST', '/echo-length', { 'content-type': 'application/octet-stream' }, Buffer.alloc(size, 1));
      assert.equal(answer.body, String(size));
    }
  });

  it('aborts the request signal when the client goes away before the answer', async () => {
    const { port } = new URL(server.url);
    const inHandler = new Promise<void>((resolve) => (arrived = resolve));
    const signalled = new Promise<void>((resolve) => (abortSeen = resolve));
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: 'GET', path: '/wait-for-abort' });
    outgoing.on('error', () => {});
    outgoing.end();
    await inHandler;
    outgoing.destroy();
    await signalled;
  });

  it('still answers a well-formed request', async () => {
    const answer = await raw('OPTIONS', '/order');
    assert.equal(answer.status, 204);
  });
});
