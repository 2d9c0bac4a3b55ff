import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { configFromEnv, ConfigError, ENV_VARIABLES, resolveSettings, type EndpointConfig } from '../../src/server/config.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';

const REQUEST_SECRET = 'req-Secret-Phrase-123';
const RESPONSE_SECRET = 'resp-Secret-Phrase-456';
const HOOK_SECRET = 'hook-secret-0123456789abcdef0123456789';

const VALID_ENV: Readonly<Record<string, string>> = {
  PG_MERCHANT_IDENTIFIER: 'merchant01',
  PG_ACCESS_CODE: 'accessCode01',
  PG_SHA_TYPE: 'SHA-256',
  PG_SHA_REQUEST_PHRASE: REQUEST_SECRET,
  PG_SHA_RESPONSE_PHRASE: RESPONSE_SECRET,
  PG_GATEWAY_BASE_URL: 'https://api.gateway.test',
  PG_CHECKOUT_URL: 'https://checkout.gateway.test/',
  PG_API_ROOT: 'FortAPI',
  PG_ALLOWED_ORIGINS: 'https://shop.example, https://www.shop.example',
  PG_PORT: '9090',
};

function refusal(env: Readonly<Record<string, string | undefined>>): ConfigError {
  try {
    configFromEnv(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error;
  }
  assert.fail('the configuration was accepted');
}

describe('configFromEnv', () => {
  it('reads every documented variable', () => {
    const config = configFromEnv({
      ...VALID_ENV,
      PG_PUBLIC_URL: 'https://shop.example',
      PG_BASE_PATH: '/pg',
      PG_RESULT_URL: '/checkout/result',
      PG_HOST: '0.0.0.0',
      PG_TRUSTED_PROXY_HOPS: '1',
      PG_VOUCHER_PARTNER_CODE: 'VCH01',
      PG_FINANCING_PARTNER_CODE: 'FIN01',
      PG_CHECK_3DS: 'NO',
      PG_CVV_SUPPRESSION: 'YES',
      PG_ORDER_URL: 'https://shop.example/index.php?route=pg/order',
      PG_ORDER_FORWARD_HEADERS: 'PG-Order-Token, Cookie',
      PG_RESULT_WEBHOOK_URL: 'https://shop.example/pg-hooks/result',
      PG_HOOK_SECRET: HOOK_SECRET,
      PG_SHOP_URL: 'https://shop.example/',
      PG_HOOK_TIMEOUT_MS: '2500',
      PG_BATCH_SANDBOX_URL: 'https://batch.sandbox.gateway.test',
      PG_GATEWAY_REFERENCE_FIELD: 'fort_id',
      PG_DATA_DIR: '/var/lib/pg-checkout',
      PG_DATABASE_URL: 'postgres://pgc:secret@db.internal:5432/pgcheckout',
      PG_RECONCILE_INTERVAL_SECONDS: '30',
      PG_AUTHORIZATION_HOLD_DAYS: '5',
      PG_RETENTION_DAYS: '90',
      PG_SHUTDOWN_GRACE_SECONDS: '25',
      PG_HEALTH_TOKEN: 'health-token-0123456789abcdef01234567',
      PG_CARD_ATTEMPTS_PER_HOUR: '20',
      PG_PAYMENT_COMMANDS: 'AUTHORIZATION, PURCHASE',
    });
    assert.deepEqual(config, {
      merchantIdentifier: 'merchant01',
      accessCode: 'accessCode01',
      shaType: 'sha256',
      requestPhrase: REQUEST_SECRET,
      responsePhrase: RESPONSE_SECRET,
      gatewayBaseUrl: 'https://api.gateway.test',
      checkoutUrl: 'https://checkout.gateway.test/',
      apiRoot: 'FortAPI',
      gatewayReferenceField: 'fort_id',
      allowedOrigins: ['https://shop.example', 'https://www.shop.example'],
      basePath: '/pg',
      publicUrl: 'https://shop.example',
      resultUrl: '/checkout/result',
      trustedProxyHops: 1,
      voucherPartnerCode: 'VCH01',
      financingPartnerCode: 'FIN01',
      check3ds: 'NO',
      cvvSuppression: true,
      paymentCommands: ['AUTHORIZATION', 'PURCHASE'],
      batchSandboxUrl: 'https://batch.sandbox.gateway.test',
      port: 9090,
      host: '0.0.0.0',
      orderUrl: 'https://shop.example/index.php?route=pg/order',
      orderForwardHeaders: ['pg-order-token', 'cookie'],
      resultWebhookUrl: 'https://shop.example/pg-hooks/result',
      hookSecret: HOOK_SECRET,
      store: { dataDir: '/var/lib/pg-checkout', databaseUrl: 'postgres://pgc:secret@db.internal:5432/pgcheckout' },
      reconcileIntervalSeconds: 30,
      authorizationHoldDays: 5,
      retentionDays: 90,
      shutdownGraceSeconds: 25,
      healthToken: 'health-token-0123456789abcdef01234567',
      cardAttemptsPerHour: 20,
      shopUrl: 'https://shop.example/',
      hookTimeoutMs: 2500,
    });
  });

  it('applies the defaults of the optional variables', () => {
    const { PG_ALLOWED_ORIGINS: _origins, PG_PORT: _port, ...required } = VALID_ENV;
    const config = configFromEnv(required);
    assert.equal(config.port, 8787);
    assert.equal(config.host, '127.0.0.1');
    assert.deepEqual(config.allowedOrigins, []);
    assert.equal(config.basePath, '');
    assert.equal(config.publicUrl, undefined);
    assert.equal(config.orderUrl, undefined, 'serve uses its demo orders');
    assert.deepEqual(config.orderForwardHeaders, ['pg-order-token']);
    assert.equal(config.resultWebhookUrl, undefined);
    assert.equal(config.hookTimeoutMs, 5000);
    assert.equal(config.gatewayReferenceField, 'svc_id', 'the specification’s name of the gateway’s order reference');
    assert.equal(config.check3ds, undefined, 'check_3ds is not sent');
    assert.equal(config.cvvSuppression, false, 'the security code stays required');
    assert.deepEqual(config.paymentCommands, ['PURCHASE'], 'the browser may ask for a purchase only');
  });

  it('takes PG_PAYMENT_COMMANDS as a comma list of PURCHASE and AUTHORIZATION, the default first', () => {
    assert.deepEqual(configFromEnv({ ...VALID_ENV, PG_PAYMENT_COMMANDS: 'AUTHORIZATION' }).paymentCommands, ['AUTHORIZATION']);
    assert.deepEqual(configFromEnv({ ...VALID_ENV, PG_PAYMENT_COMMANDS: ' PURCHASE ,AUTHORIZATION ' }).paymentCommands, ['PURCHASE', 'AUTHORIZATION']);
  });

  it('refuses a PG_PAYMENT_COMMANDS that is not such a list, naming the variable and never the value', () => {
    for (const value of ['purchase', 'CAPTURE', 'PURCHASE,REFUND', 'AUTHORISATION', 'PURCHASE;AUTHORIZATION', ' , ']) {
      const error = refusal({ ...VALID_ENV, PG_PAYMENT_COMMANDS: value });
      assert.deepEqual(
        error.problems.map((problem) => problem.name),
        ['PG_PAYMENT_COMMANDS'],
        value,
      );
      assert.match(error.message, /PG_PAYMENT_COMMANDS/);
      for (const part of ['purchase', 'CAPTURE', 'REFUND', 'AUTHORISATION', ';']) {
        if (value.includes(part)) assert.ok(!error.message.includes(part), `${value}: the message quotes the value`);
      }
    }
    const twice = refusal({ ...VALID_ENV, PG_PAYMENT_COMMANDS: 'PURCHASE,PURCHASE' });
    assert.deepEqual(twice.problems, [{ name: 'PG_PAYMENT_COMMANDS', message: 'must name each command once' }]);
  });

  it('takes PG_CVV_SUPPRESSION as YES or NO only', () => {
    assert.equal(configFromEnv({ ...VALID_ENV, PG_CVV_SUPPRESSION: 'NO' }).cvvSuppression, false);
    const error = refusal({ ...VALID_ENV, PG_CVV_SUPPRESSION: 'true' });
    assert.deepEqual(error.problems, [{ name: 'PG_CVV_SUPPRESSION', message: 'must be YES or NO' }]);
  });

  it('takes PG_CHECK_3DS as YES or NO only', () => {
    assert.equal(configFromEnv({ ...VALID_ENV, PG_CHECK_3DS: 'YES' }).check3ds, 'YES');
    for (const value of ['no', 'false', '0']) {
      const error = refusal({ ...VALID_ENV, PG_CHECK_3DS: value });
      assert.deepEqual(error.problems, [{ name: 'PG_CHECK_3DS', message: 'must be YES or NO' }], value);
    }
  });

  it('takes the gateway’s name of its order reference as svc_id or fort_id, and nothing else', () => {
    assert.equal(configFromEnv({ ...VALID_ENV, PG_GATEWAY_REFERENCE_FIELD: ' fort_id ' }).gatewayReferenceField, 'fort_id');
    assert.equal(configFromEnv({ ...VALID_ENV, PG_GATEWAY_REFERENCE_FIELD: 'svc_id' }).gatewayReferenceField, 'svc_id');
    for (const value of ['FORT_ID', 'fortid', 'id']) {
      const error = refusal({ ...VALID_ENV, PG_GATEWAY_REFERENCE_FIELD: value });
      assert.deepEqual(error.problems.map((problem) => problem.name), ['PG_GATEWAY_REFERENCE_FIELD'], value);
      assert.match(error.message, /must be svc_id .* or fort_id/);
    }
  });

  it('needs PG_HOOK_SECRET, of at least 32 characters, to talk to the shop', () => {
    for (const name of ['PG_ORDER_URL', 'PG_RESULT_WEBHOOK_URL']) {
      const error = refusal({ ...VALID_ENV, [name]: 'https://shop.example/hook' });
      assert.deepEqual(error.problems.map((problem) => problem.name), ['PG_HOOK_SECRET'], name);
      assert.match(error.message, /PG_HOOK_SECRET is not set/);
    }
    const short = refusal({ ...VALID_ENV, PG_ORDER_URL: 'https://shop.example/hook', PG_HOOK_SECRET: 'short-secret' });
    assert.match(short.message, /PG_HOOK_SECRET must be at least 32 characters/);
    assert.ok(!short.message.includes('short-secret'));
  });

  it('refuses the shop’s URLs and forwarded headers it cannot use', () => {
    const withSecret = { ...VALID_ENV, PG_HOOK_SECRET: HOOK_SECRET };
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ PG_ORDER_URL: 'http://shop.example/order' }, 'PG_ORDER_URL', /must use https/],
      [{ PG_RESULT_WEBHOOK_URL: 'https://user:pw@shop.example/hook' }, 'PG_RESULT_WEBHOOK_URL', /must not carry a fragment or credentials/],
      [{ PG_ORDER_URL: 'https://shop.example/o', PG_ORDER_FORWARD_HEADERS: 'host' }, 'PG_ORDER_FORWARD_HEADERS', /must not list host/],
      [{ PG_ORDER_URL: 'https://shop.example/o', PG_ORDER_FORWARD_HEADERS: 'bad header' }, 'PG_ORDER_FORWARD_HEADERS', /must list header names/],
      [{ PG_ORDER_FORWARD_HEADERS: 'cookie' }, 'PG_ORDER_FORWARD_HEADERS', /has no effect without PG_ORDER_URL/],
      [{ PG_HOOK_TIMEOUT_MS: '5' }, 'PG_HOOK_TIMEOUT_MS', /must be a whole number from 100 to 60000/],
    ];
    for (const [extra, name, message] of cases) {
      const error = refusal({ ...withSecret, ...extra });
      assert.deepEqual(error.problems.map((problem) => problem.name), [name], JSON.stringify(extra));
      assert.match(error.message, message);
    }
    assert.equal(configFromEnv({ ...withSecret, PG_ORDER_URL: 'http://127.0.0.1:8080/order.php' }).orderUrl, 'http://127.0.0.1:8080/order.php');
  });

  it('names every missing variable in one message', () => {
    const error = refusal({});
    const names = error.problems.map((problem) => problem.name);
    assert.deepEqual(names, [
      'PG_MERCHANT_IDENTIFIER',
      'PG_ACCESS_CODE',
      'PG_SHA_TYPE',
      'PG_SHA_REQUEST_PHRASE',
      'PG_SHA_RESPONSE_PHRASE',
      'PG_GATEWAY_BASE_URL',
      'PG_CHECKOUT_URL',
      'PG_API_ROOT',
    ]);
    for (const name of names) assert.match(error.message, new RegExp(`${name} is not set`));
    assert.equal(error.message.split('\n').length, 1, 'one line, for the CLI');
  });

  it('names a malformed variable and says what it must be', () => {
    const cases: [string, string, RegExp][] = [
      ['PG_SHA_TYPE', 'SHA-128', /PG_SHA_TYPE must be SHA-256 or SHA-512 \(the weak 128-bit variant is refused\)/],
      ['PG_GATEWAY_BASE_URL', 'api.gateway.test', /PG_GATEWAY_BASE_URL must be an absolute URL/],
      ['PG_CHECKOUT_URL', 'http://checkout.gateway.test', /PG_CHECKOUT_URL must use https/],
      ['PG_GATEWAY_BASE_URL', 'https://api.gateway.test/FortAPI', /PG_GATEWAY_BASE_URL must be a host URL without a path/],
      ['PG_PORT', 'eighty', /PG_PORT must be a whole number from 0 to 65535/],
      ['PG_PORT', '70000', /PG_PORT must be a whole number/],
      ['PG_SHUTDOWN_GRACE_SECONDS', '8s', /PG_SHUTDOWN_GRACE_SECONDS must be a whole number from 0 to 3600/],
      ['PG_HEALTH_TOKEN', 'short-token', /PG_HEALTH_TOKEN must be at least 32 characters/],
      ['PG_CARD_ATTEMPTS_PER_HOUR', '0', /PG_CARD_ATTEMPTS_PER_HOUR must be a whole number from 1 to 1000/],
      ['PG_ALLOWED_ORIGINS', '*', /PG_ALLOWED_ORIGINS must list origins such as https:\/\/shop.example; "\*" is refused/],
      ['PG_ALLOWED_ORIGINS', 'https://shop.example/checkout', /PG_ALLOWED_ORIGINS must list origins/],
      ['PG_MERCHANT_IDENTIFIER', 'merchant 01!', /PG_MERCHANT_IDENTIFIER must be 1 to 20 letters or digits/],
      ['PG_API_ROOT', 'a/b', /PG_API_ROOT must be one path segment/],
      ['PG_BASE_PATH', 'pg/', /PG_BASE_PATH must be empty or a path such as \/pg/],
      ['PG_RESULT_URL', 'javascript:alert(1)', /PG_RESULT_URL must be an absolute https URL or a path/],
      ['PG_VOUCHER_PARTNER_CODE', 'CASH-PARTNER', /PG_VOUCHER_PARTNER_CODE must be 1 to 5 letters or digits/],
      ['PG_FINANCING_PARTNER_CODE', 'FIN<script>', /PG_FINANCING_PARTNER_CODE must be the gateway’s payment_option code/],
    ];
    for (const [name, value, message] of cases) {
      const error = refusal({ ...VALID_ENV, [name]: value });
      assert.deepEqual(
        error.problems.map((problem) => problem.name),
        [name],
        `${name}=${value}`,
      );
      assert.match(error.message, message);
    }
  });

  it('accepts plain http for a gateway on loopback (the sandbox)', () => {
    const config = configFromEnv({ ...VALID_ENV, PG_GATEWAY_BASE_URL: 'http://127.0.0.1:8788', PG_CHECKOUT_URL: 'http://localhost:8788' });
    assert.equal(config.gatewayBaseUrl, 'http://127.0.0.1:8788');
  });

  it('never prints a configured value, secret or not', () => {
    const error = refusal({
      ...VALID_ENV,
      PG_ACCESS_CODE: 'bad access code with spaces',
      PG_SHA_TYPE: REQUEST_SECRET,
      PG_PORT: 'port-secret-777',
    });
    for (const value of [REQUEST_SECRET, RESPONSE_SECRET, 'bad access code with spaces', 'port-secret-777']) {
      assert.ok(!error.message.includes(value), value);
      assert.ok(!JSON.stringify(error.problems).includes(value), value);
    }
  });

  it('keeps a phrase exactly as set, spaces included', () => {
    const config = configFromEnv({ ...VALID_ENV, PG_SHA_REQUEST_PHRASE: ' spaced phrase ' });
    assert.equal(config.requestPhrase, ' spaced phrase ');
  });

  it('is documented variable by variable in .env.example', () => {
    const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
    for (const name of Object.keys(ENV_VARIABLES)) {
      assert.match(example, new RegExp(`^#? ?${name}=`, 'm'), `${name} is not in .env.example`);
    }
    assert.ok(!example.includes(REQUEST_SECRET));
  });
});

describe('createMerchantEndpoint configuration', () => {
  const valid: EndpointConfig = {
    merchantIdentifier: 'merchant01',
    accessCode: 'accessCode01',
    shaType: 'sha512',
    requestPhrase: REQUEST_SECRET,
    responsePhrase: RESPONSE_SECRET,
    gatewayBaseUrl: 'https://api.gateway.test/',
    checkoutUrl: 'https://checkout.gateway.test',
    apiRoot: 'FortAPI',
    publicUrl: 'https://shop.example/',
    basePath: '/pg',
    resolveOrder: new InMemoryOrderStore().resolve,
    returnParameters: { pg_site: 'eg' },
  };

  it('names the gateway’s order reference svc_id on the wire unless told fort_id, and refuses any other name', () => {
    assert.equal(resolveSettings(valid).gatewayReferenceField, 'svc_id');
    assert.equal(resolveSettings({ ...valid, gatewayReferenceField: 'fort_id' }).gatewayReferenceField, 'fort_id');
    assert.throws(
      () => resolveSettings({ ...valid, gatewayReferenceField: 'FORT_ID' as 'fort_id' }),
      (error: unknown) => error instanceof ConfigError && error.problems.map((problem) => problem.name).join() === 'gatewayReferenceField',
    );
  });

  it('works out the gateway addresses and the return URL', () => {
    const settings = resolveSettings(valid);
    assert.equal(settings.paymentApiUrl, 'https://api.gateway.test/FortAPI/paymentApi');
    assert.equal(settings.paymentPageUrl, 'https://checkout.gateway.test/FortAPI/paymentPage');
    assert.equal(settings.returnUrl, 'https://shop.example/pg/return?pg_site=eg');
    assert.equal(settings.maxBodyBytes, 16 * 1024);
  });

  it('names every bad field, without values', () => {
    assert.throws(
      () =>
        resolveSettings({
          ...valid,
          requestPhrase: '',
          shaType: 'sha1' as 'sha256',
          publicUrl: 'shop.example',
          returnParameters: { site: 'eg' },
          maxBodyBytes: 0,
        }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.map((problem) => problem.name).join() ===
          'shaType,requestPhrase,publicUrl,returnParameters,maxBodyBytes' &&
        !error.message.includes(RESPONSE_SECRET),
    );
  });

  it('refuses a cvvSuppression that is not a boolean', () => {
    assert.equal(resolveSettings({ ...valid, cvvSuppression: true }).cvvSuppression, true);
    assert.equal(resolveSettings(valid).cvvSuppression, false);
    assert.throws(
      () => resolveSettings({ ...valid, cvvSuppression: 'YES' as unknown as boolean }),
      (error: unknown) => error instanceof ConfigError && error.problems.map((problem) => problem.name).join() === 'cvvSuppression',
    );
  });

  it('lets the browser ask for a purchase only, unless paymentCommands says otherwise', () => {
    assert.deepEqual(resolveSettings(valid).paymentCommands, ['PURCHASE']);
    assert.deepEqual(resolveSettings({ ...valid, paymentCommands: ['AUTHORIZATION', 'PURCHASE'] }).paymentCommands, ['AUTHORIZATION', 'PURCHASE']);
    for (const commands of [[], ['REFUND'], ['PURCHASE', 'PURCHASE'], 'PURCHASE']) {
      assert.throws(
        () => resolveSettings({ ...valid, paymentCommands: commands as unknown as readonly ['PURCHASE'] }),
        (error: unknown) => error instanceof ConfigError && error.problems.map((problem) => problem.name).join() === 'paymentCommands',
        JSON.stringify(commands),
      );
    }
  });

  it('refuses a check3ds other than YES or NO', () => {
    assert.equal(resolveSettings({ ...valid, check3ds: 'NO' }).check3ds, 'NO');
    assert.equal(resolveSettings(valid).check3ds, undefined);
    assert.throws(
      () => resolveSettings({ ...valid, check3ds: 'no' as 'NO' }),
      (error: unknown) => error instanceof ConfigError && error.problems.map((problem) => problem.name).join() === 'check3ds',
    );
  });

  describe('the result URL', () => {
    const refusedFor = (resultUrl: string, extra: Partial<EndpointConfig> = {}) => {
      try {
        resolveSettings({ ...valid, ...extra, resultUrl });
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        return error.problems.map((problem) => `${problem.name} ${problem.message}`);
      }
      return [];
    };

    for (const offSite of ['/\\evil.example/landing', '//evil.example', 'https://evil.example', '/\t/evil.example/x', 'http://127.0.0.1:9/landing']) {
      it(`refuses ${JSON.stringify(offSite)}, which would send the customer to another site`, () => {
        const problems = refusedFor(offSite);
        assert.equal(problems.length, 1);
        assert.match(problems[0] ?? '', /^resultUrl must /);
      });
    }

    it('accepts a path, or a URL on its own origin', () => {
      assert.deepEqual(refusedFor('/checkout/result'), []);
      assert.deepEqual(refusedFor('https://shop.example/checkout/result'), []);
    });

    it('accepts a URL on one of its allowed origins (a standalone endpoint sending customers back to the shop)', () => {
      assert.deepEqual(refusedFor('https://www.shop.example/thanks'), [`resultUrl must be on the endpoint’s own origin or on one of the allowed origins`]);
      assert.deepEqual(refusedFor('https://www.shop.example/thanks', { allowedOrigins: ['https://www.shop.example'] }), []);
    });

    it('is checked from the environment too, naming PG_RESULT_URL', () => {
      assert.throws(
        () => configFromEnv({ ...VALID_ENV, PG_PUBLIC_URL: 'https://shop.example', PG_RESULT_URL: '/\\evil.example/landing' }),
        (error: unknown) => error instanceof ConfigError && error.problems.map((problem) => problem.name).join() === 'PG_RESULT_URL',
      );
      assert.throws(
        () => configFromEnv({ ...VALID_ENV, PG_RESULT_URL: '//evil.example' }),
        (error: unknown) => error instanceof ConfigError && error.problems.map((problem) => problem.name).join() === 'PG_RESULT_URL',
      );
    });

    it('holds an absolute PG_RESULT_URL to the allowed origins when PG_PUBLIC_URL is not set', () => {
      const { PG_PUBLIC_URL: _public, ...withoutPublicUrl } = VALID_ENV;
      assert.throws(
        () => configFromEnv({ ...withoutPublicUrl, PG_RESULT_URL: 'https://evil.example/x' }),
        (error: unknown) =>
          error instanceof ConfigError && /PG_RESULT_URL must be on one of the allowed origins/.test(error.message) && !error.message.includes('evil.example'),
      );
      assert.equal(configFromEnv({ ...withoutPublicUrl, PG_RESULT_URL: 'https://www.shop.example/thanks' }).resultUrl, 'https://www.shop.example/thanks');
    });
  });
});
