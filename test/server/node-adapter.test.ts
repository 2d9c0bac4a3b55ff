import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { endpointError } from '../../src/core/endpoint-api.ts';
import { createJsonLogger } from '../../src/server/logger.ts';
import { serve, type RunningServer } from '../../src/server/serve.ts';
import {
  ACCESS_CODE,
  API_ROOT,
  CHECKOUT_URL,
  createFakeGateway,
  GATEWAY_BASE_URL,
  MERCHANT_IDENTIFIER,
  REQUEST_PHRASE,
  RESPONSE_PHRASE,
} from './fake-gateway.ts';

let server: RunningServer;
const logs: string[] = [];

before(async () => {
  server = await serve(
    {
      PG_MERCHANT_IDENTIFIER: MERCHANT_IDENTIFIER,
      PG_ACCESS_CODE: ACCESS_CODE,
      PG_SHA_TYPE: 'SHA-256',
      PG_SHA_REQUEST_PHRASE: REQUEST_PHRASE,
      PG_SHA_RESPONSE_PHRASE: RESPONSE_PHRASE,
      PG_GATEWAY_BASE_URL: GATEWAY_BASE_URL,
      PG_CHECKOUT_URL: CHECKOUT_URL,
      PG_API_ROOT: API_ROOT,
      PG_PORT: '0',
    },
    {
      logger: createJsonLogger((line) => logs.push(line)),
      fetch: createFakeGateway().fetch,
      mount: [
        (request) => {
          if (new URL(request.url).pathname === '/broken') throw new Error('the shop handler failed');
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
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The headers every answer of the endpoint carries, and its JSON error body. */
function assertEndpointRefusal(answer: RawAnswer, status: number) {
  assert.equal(answer.status, status);
  assert.equal(answer.headers['cache-control'], 'no-store');
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  return endpointError.parse(JSON.parse(answer.body)).error;
}

describe('the Node adapter', () => {
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

  it('still answers a well-formed request', async () => {
    const answer = await raw('OPTIONS', '/order');
    assert.equal(answer.status, 204);
  });
});
