/**
 * `serve --sandbox` with a gateway address left in the environment (a copied `.env`): the endpoint
 * would send payments to that address, not to the sandbox on its own port, and the customer's
 * browser would meet a closed port. The command says so at start-up, naming the variable.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxAddressWarnings } from '../../src/cli/serve.ts';

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

  it('says nothing when the addresses are unset, this server, or its public URL', () => {
    assert.deepEqual(sandboxAddressWarnings({}), []);
    assert.deepEqual(sandboxAddressWarnings({ PG_PORT: '9000', PG_GATEWAY_BASE_URL: 'http://127.0.0.1:9000/' }), []);
    assert.deepEqual(
      sandboxAddressWarnings({ PG_PUBLIC_URL: 'https://pay.shop.example', PG_CHECKOUT_URL: 'https://pay.shop.example/FortAPI/paymentPage' }),
      [],
    );
  });
});
