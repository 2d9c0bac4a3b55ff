/**
 * `serve --sandbox` as a merchant starts it from a copied `.env`: a gateway address left in the
 * environment would send payments away from the sandbox on this port (the command says so at
 * start-up, naming the variable), and the sandbox account signs with the SHA type the endpoint
 * signs with.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxAddressWarnings, withSandboxDefaults } from '../../src/cli/serve.ts';
import { freePort, killAll, startServe } from '../server/support/processes.ts';

describe('serve --sandbox: gateway addresses that are not this server', () => {
  it('names each address set to another origin, with this server and the fix', () => {
    const warnings = sandboxAddressWarnings({
      PG_PORT: '8787',
      PG_GATEWAY_BASE_URL: 'http://127.0.0.1:8788',
      PG_CHECKOUT_URL: 'http://127.0.0.1:8788/FortAPI/paymentPage',
    });
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /^pg-checkout serve --sandbox: PG_GATEWAY_BASE_URL is http:\/\/127\.0\.0\.1:8788, not this server \(http:\/\/127\.0\.0\.1:8787\).*Unset it/);
    assert.match(warnings[1]!, /PG_CHECKOUT_URL is http:\/\/127\.0\.0\.1:8788\/FortAPI\/paymentPage/);
  });

  it('names loopback, not 0.0.0.0, as the gateway a browser is sent to when the service listens on every interface', () => {
    const env = withSandboxDefaults({ PG_HOST: '0.0.0.0', PG_PORT: '8787' });
    assert.equal(env['PG_CHECKOUT_URL'], 'http://127.0.0.1:8787');
    assert.equal(env['PG_GATEWAY_BASE_URL'], 'http://127.0.0.1:8787');
    assert.deepEqual(sandboxAddressWarnings({ PG_HOST: '0.0.0.0', PG_GATEWAY_BASE_URL: 'http://127.0.0.1:8787' }), []);
  });

  it('says nothing when the addresses are unset, this server, or its public URL', () => {
    assert.deepEqual(sandboxAddressWarnings({}), []);
    assert.deepEqual(sandboxAddressWarnings({ PG_PORT: '9000', PG_GATEWAY_BASE_URL: 'http://127.0.0.1:9000/' }), []);
    assert.deepEqual(
      sandboxAddressWarnings({ PG_PUBLIC_URL: 'https://pay.shop.example', PG_CHECKOUT_URL: 'https://pay.shop.example/FortAPI/paymentPage' }),
      [],
    );
  });
});

describe('serve --sandbox: the sandbox account signs as the endpoint does', () => {
  after(killAll);

  it('takes PG_SHA_TYPE=SHA-512: the endpoint’s CHECK_STATUS before a form is answered, not refused for its signature', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'pg-sha512-'));
    const serve = await startServe({ port, sandbox: true, env: { PG_SHA_TYPE: 'SHA-512', PG_DATA_DIR: dataDir, PG_ALLOWED_ORIGINS: origin } });
    const answer = await fetch(`${serve.url}/hosted-page`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ merchant_reference: 'demo-1001', language: 'en', command: 'PURCHASE' }),
    });
    assert.equal(answer.status, 200, await answer.clone().text());
    const answers = serve.events('gateway_answer');
    assert.ok(answers.length > 0, 'the endpoint asked the gateway before signing');
    assert.deepEqual(
      answers.map((line) => line['outcome']),
      answers.map(() => 'not_found'),
      'CHECK_STATUS found no payment yet, rather than refusing the signature (00008)',
    );
  });
});
