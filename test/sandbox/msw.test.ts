import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createSandboxGateway } from '../../src/sandbox/gateway.ts';
import { sandboxHandlers } from '../../src/sandbox/msw.ts';
import { signed, verifiesAsGateway } from './support.ts';

const origin = 'https://gateway.msw.test';

describe('msw handlers', () => {
  const gateway = createSandboxGateway({ basePath: '/sandbox' });
  const server = setupServer(
    ...sandboxHandlers({ gateway, origin }),
    http.all(`${origin}/*`, () => HttpResponse.text('not the gateway', { status: 418 })),
  );
  before(() => server.listen({ onUnhandledRequest: 'error' }));
  after(() => server.close());

  it('answers the gateway’s paths with the same gateway logic', async () => {
    const body = await signed({ query_command: 'CHECK_STATUS', merchant_reference: 'nothing-yet', language: 'en' });
    const response = await fetch(`${origin}${gateway.paths.paymentApi}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    assert.equal(answer['response_code'], '12001');
    assert.ok(await verifiesAsGateway(answer));
  });

  it('passes other paths on to the next handler', async () => {
    const response = await fetch(`${origin}/somewhere-else`);
    assert.equal(response.status, 418);
  });
});
