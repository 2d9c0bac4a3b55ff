import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { authorize, clientFor } from '../gateway/support.ts';

const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

function cli(args: string[], input?: string, env: Record<string, string | undefined> = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', bin, ...args], {
    input: input ?? '',
    encoding: 'utf8',
    env: { ...process.env, PG_GATEWAY_REFERENCE_FIELD: undefined, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** An independent signature: openssl over the exact bytes. */
function opensslDigest(algorithm: 'sha256' | 'sha512', text: string): string {
  const result = spawnSync('openssl', ['dgst', `-${algorithm}`, '-r'], { input: text, encoding: 'utf8' });
  return result.stdout.split(' ')[0] ?? '';
}

const request = { command: 'PURCHASE', amount: '10000', currency: 'EGP', merchant_reference: 'order-1', language: 'en' };
const canonical = 'amount=10000command=PURCHASEcurrency=EGPlanguage=enmerchant_reference=order-1';

describe('pg-checkout sign', () => {
  it('prints the signature that openssl computes over phrase + string + phrase', () => {
    const { code, stdout } = cli(['sign', '--phrase', 'in$ecret'], JSON.stringify(request));
    assert.equal(code, 0);
    assert.equal(stdout.trim(), opensslDigest('sha256', `in$ecret${canonical}in$ecret`));
  });

  it('signs with SHA-512 when asked', () => {
    const { stdout } = cli(['sign', '--phrase', 'p', '--sha', 'sha512'], JSON.stringify(request));
    assert.equal(stdout.trim(), opensslDigest('sha512', `p${canonical}p`));
  });

  it('explains the hashed string with the phrase masked, then prints the signature', () => {
    const { stdout } = cli(['sign', '--phrase', 'in$ecret', '--explain'], JSON.stringify(request));
    const [explained, signature] = stdout.trim().split('\n');
    assert.equal(explained, `<phrase>${canonical}<phrase>`);
    assert.doesNotMatch(stdout, /in\$ecret/);
    assert.match(signature ?? '', /^[0-9a-f]{64}$/);
  });

  it('leaves card fields out in merchant page mode', () => {
    const withCard = { ...request, card_number: '4005550000000001', card_security_code: '123' };
    const { stdout } = cli(['sign', '--phrase', 'p', '--merchant-page', '--explain'], JSON.stringify(withCard));
    assert.equal(stdout.split('\n')[0], `<phrase>${canonical}<phrase>`);
  });

  it('refuses the weak SHA variant with a one-line reason', () => {
    const { code, stderr } = cli(['sign', '--phrase', 'p', '--sha', 'SHA-128'], JSON.stringify(request));
    assert.equal(code, 2);
    assert.match(stderr, /weak 128-bit variant/);
    assert.equal(stderr.trim().split('\n').length, 1);
  });
});

describe('pg-checkout verify', () => {
  const signature = opensslDigest('sha256', `resp${canonical}resp`);

  it('exits 0 for a correctly signed JSON response', () => {
    const { code, stdout } = cli(['verify', '--phrase', 'resp'], JSON.stringify({ ...request, signature }));
    assert.equal(code, 0);
    assert.match(stdout, /signature valid/);
  });

  it('reads a return-URL form body a=b&c=d', () => {
    const body = new URLSearchParams({ ...request, signature }).toString();
    assert.equal(cli(['verify', '--phrase', 'resp'], body).code, 0);
  });

  it('exits 1 with the reason when a value was changed', () => {
    const { code, stderr } = cli(['verify', '--phrase', 'resp'], JSON.stringify({ ...request, amount: '1', signature }));
    assert.equal(code, 1);
    assert.match(stderr, /does not match/);
  });

  it('verifies a plans answer as the gateway signs it: installment_detail left out of the string', () => {
    const plans = { query_command: 'GET_INSTALLMENTS_PLANS', response_code: '62000', status: '62' };
    const plansSignature = opensslDigest('sha256', 'respquery_command=GET_INSTALLMENTS_PLANSresponse_code=62000status=62resp');
    const answer = { ...plans, installment_detail: { issuer_detail: [{ issuer_code: 'X' }] }, signature: plansSignature };
    assert.equal(cli(['verify', '--phrase', 'resp'], JSON.stringify(answer)).code, 0);
  });

  it('exits 1 when there is no signature at all', () => {
    const { code, stderr } = cli(['verify', '--phrase', 'resp'], JSON.stringify(request));
    assert.equal(code, 1);
    assert.match(stderr, /no signature/);
  });
});

describe('pg-checkout sign and verify, and the gateway’s name of its order reference', () => {
  // A CHECK_STATUS as the live gateway takes it: the order reference named fort_id.
  const live = { query_command: 'CHECK_STATUS', fort_id: '1773133200000000001', merchant_reference: 'order-1', language: 'en' };
  const liveCanonical = 'fort_id=1773133200000000001language=enmerchant_reference=order-1query_command=CHECK_STATUS';

  it('signs a body carrying fort_id as given, and --explain shows fort_id in the string', () => {
    const { code, stdout, stderr } = cli(['sign', '--phrase', 'p', '--explain'], JSON.stringify(live), { PG_GATEWAY_REFERENCE_FIELD: 'fort_id' });
    assert.equal(code, 0);
    const [explained, signature] = stdout.trim().split('\n');
    assert.equal(explained, `<phrase>${liveCanonical}<phrase>`);
    assert.equal(signature, opensslDigest('sha256', `p${liveCanonical}p`));
    assert.equal(stderr, '', 'nothing to note: the gateway is set to fort_id');
  });

  it('verifies an answer carrying fort_id as given, and --explain shows the string it checked', () => {
    const answer = { ...live, signature: opensslDigest('sha256', `resp${liveCanonical}resp`) };
    const { code, stdout } = cli(['verify', '--phrase', 'resp', '--explain', '--reference-field', 'fort_id'], JSON.stringify(answer));
    assert.equal(code, 0);
    assert.deepEqual(stdout.trim().split('\n'), [`<phrase>${liveCanonical}<phrase>`, 'signature valid']);
    const form = new URLSearchParams(answer as Record<string, string>).toString();
    assert.equal(cli(['verify', '--phrase', 'resp', '--reference-field', 'fort_id'], form).code, 0, 'a return-URL body too');
  });

  it('notes a message that names the reference otherwise than the gateway is set to, and still takes it as given', () => {
    const signedAsSvcId = cli(['sign', '--phrase', 'p'], JSON.stringify({ ...request, svc_id: '17' }), { PG_GATEWAY_REFERENCE_FIELD: 'fort_id' });
    assert.equal(signedAsSvcId.code, 0);
    assert.match(signedAsSvcId.stderr, /^note: the message carries svc_id, but the gateway is set to name its order reference fort_id/);
    assert.equal(signedAsSvcId.stdout.trim(), opensslDigest('sha256', `p${canonical}svc_id=17p`));

    const answer = { ...live, signature: opensslDigest('sha256', `resp${liveCanonical}resp`) };
    const unset = cli(['verify', '--phrase', 'resp'], JSON.stringify(answer));
    assert.equal(unset.code, 0, 'verified as given');
    assert.match(unset.stderr, /carries fort_id, but the gateway is set to name its order reference svc_id/);
  });

  it('refuses a reference name other than svc_id or fort_id', () => {
    const flag = cli(['verify', '--phrase', 'resp', '--reference-field', 'FORT_ID'], JSON.stringify(live));
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--reference-field must be svc_id or fort_id/);
    const env = cli(['sign', '--phrase', 'p'], JSON.stringify(live), { PG_GATEWAY_REFERENCE_FIELD: 'fortid' });
    assert.equal(env.code, 3);
    assert.match(env.stderr, /PG_GATEWAY_REFERENCE_FIELD must be svc_id or fort_id/);
  });

  it('says in the order commands’ help that the gateway id is sent under the configured name, and takes --fort-id too', () => {
    for (const command of ['status', 'capture', 'refund', 'void']) {
      const { code, stdout } = cli([command, '--help']);
      assert.equal(code, 0);
      assert.match(stdout, /--svc-id ID {7}the gateway's id of the order \(also --fort-id ID\); sent under the wire name\n\s+PG_GATEWAY_REFERENCE_FIELD sets: svc_id \(default\) or fort_id/, command);
    }
    const both = cli(['status', '--svc-id', '1', '--fort-id', '2']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--svc-id and --fort-id name the same id/);
  });
});

describe('bad input', () => {
  it('says so in one line when stdin is empty', () => {
    const { code, stderr } = cli(['sign', '--phrase', 'p'], '');
    assert.equal(code, 2);
    assert.match(stderr, /^pg-checkout sign: no input on stdin/);
  });

  it('says so in one line when the JSON is invalid', () => {
    const { code, stderr } = cli(['sign', '--phrase', 'p'], '{"amount": ');
    assert.equal(code, 2);
    assert.match(stderr, /invalid JSON/);
    assert.equal(stderr.trim().split('\n').length, 1);
  });

  it('refuses a JSON array', () => {
    assert.match(cli(['sign', '--phrase', 'p'], '[1,2]').stderr, /one JSON object/);
  });

  it('refuses an unknown option', () => {
    const { code, stderr } = cli(['sign', '--phrase', 'p', '--colour'], JSON.stringify(request));
    assert.equal(code, 2);
    assert.match(stderr, /Unknown option '--colour'/);
  });

  it('refuses an unknown command', () => {
    const { code, stderr } = cli(['signn']);
    assert.equal(code, 2);
    assert.match(stderr, /unknown command "signn"/);
  });

  it('requires the phrase', () => {
    assert.match(cli(['sign'], JSON.stringify(request)).stderr, /--phrase is required/);
  });
});

/** `pg-checkout serve --sandbox` on a free loopback port with a data folder of its own, once it listens. */
async function serveSandbox(env: Record<string, string> = {}) {
  const { spawn } = await import('node:child_process');
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address() as { port: number };
      probe.close(() => resolve(address.port));
    });
  });
  const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--sandbox'], {
    // The sandbox keeps its state, and serve its store, in a folder of the test's own.
    env: { ...process.env, PG_PORT: String(port), PG_DATA_DIR: mkdtempSync(`${tmpdir()}/pg-cli-serve-`), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
    });
  } catch (error) {
    child.kill();
    throw error;
  }
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

describe('pg-checkout serve --sandbox', () => {
  it('answers the endpoint routes with the sandbox gateway on the same loopback port', async () => {
    const served = await serveSandbox();
    try {
      const response = await fetch(`${served.origin}/installment-plans`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ merchant_reference: 'demo-1001', language: 'en' }),
      });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { amount: number; currency: string; issuers: unknown[] };
      assert.equal(body.currency, 'EGP');
      assert.equal(body.amount, 250000);
      assert.ok(body.issuers.length > 0, 'the sandbox answered with issuers');
    } finally {
      served.stop();
    }
  });

  it('runs the sandbox under PG_GATEWAY_REFERENCE_FIELD: fort_id on its wire', async () => {
    const { signParams } = await import('../../src/core/signature.ts');
    const { SANDBOX_MERCHANT: M } = await import('../../src/sandbox/merchants.ts');
    const { testCard } = await import('../../src/sandbox/test-cards.ts');
    const served = await serveSandbox({ PG_GATEWAY_REFERENCE_FIELD: 'fort_id' });
    try {
      const charge = await signParams(
        {
          access_code: M.accessCode,
          merchant_identifier: M.merchantIdentifier,
          command: 'AUTHORIZATION',
          merchant_reference: `fort-${Date.now()}`,
          amount: '1000',
          currency: 'EGP',
          language: 'en',
          card_number: testCard('success').number,
          expiry_date: '2908',
          card_security_code: '123',
        },
        M.requestPhrase,
        M.shaType,
      );
      const response = await fetch(`${served.origin}/FortAPI/paymentApi`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(charge) });
      const answer = (await response.json()) as Record<string, unknown>;
      assert.equal(answer['response_code'], '02000');
      assert.match(String(answer['fort_id']), /^\d+$/);
      assert.ok(!('svc_id' in answer));
    } finally {
      served.stop();
    }
  });

  it('answers a capture with a live account’s 04000 and a refund with 06000 when PG_SANDBOX_SUCCESS_CODES=live', async () => {
    const served = await serveSandbox({ PG_SANDBOX_SUCCESS_CODES: 'live' });
    try {
      const client = clientFor(served.origin);
      const reference = `serve-live-${Date.now()}`;
      await authorize(client, reference, 10_000);
      const captured = await client.capture({ merchant_reference: reference, currency: 'EGP' });
      assert.deepEqual([captured.outcome, captured.source, captured.response_code, captured.status], ['success', 'answer', '04000', '04']);
      const refunded = await client.refund({ merchant_reference: reference, amount: 2_500, currency: 'EGP' });
      assert.deepEqual([refunded.outcome, refunded.response_code, refunded.status], ['success', '06000', '06']);
    } finally {
      served.stop();
    }
  });

  it('stops with the configuration exit code for a PG_SANDBOX_SUCCESS_CODES other than spec or live', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', bin, 'serve', '--sandbox'], {
      env: { ...process.env, PG_PORT: '18999', PG_DATA_DIR: mkdtempSync(`${tmpdir()}/pg-cli-serve-`), PG_SANDBOX_SUCCESS_CODES: 'production' },
      encoding: 'utf8',
    });
    assert.equal(result.status, 3, result.stderr);
    assert.match(result.stderr, /PG_SANDBOX_SUCCESS_CODES must be spec or live/);
  });

  it('stops with the configuration exit code, in one line naming the setting, for a port or a data folder it cannot use', async () => {
    const serveWith = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', bin, 'serve', '--sandbox'], { env: { ...process.env, PG_DATA_DIR: mkdtempSync(`${tmpdir()}/pg-cli-serve-`), ...env }, encoding: 'utf8' });
    const unfixed = serveWith({ PG_PORT: '0' });
    assert.equal(unfixed.status, 3, unfixed.stderr);
    assert.match(unfixed.stderr, /^pg-checkout serve: PG_PORT: --sandbox needs a fixed port/);

    const file = join(mkdtempSync(`${tmpdir()}/pg-cli-serve-`), 'a-file');
    writeFileSync(file, '');
    const notAFolder = serveWith({ PG_PORT: '18998', PG_DATA_DIR: file });
    assert.equal(notAFolder.status, 3, notAFolder.stderr);
    assert.match(notAFolder.stderr, /^pg-checkout serve: PG_DATA_DIR: .*a-file cannot be written \(EEXIST\)\n$/);

    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--sandbox'], {
          env: { ...process.env, PG_PORT: String(port), PG_DATA_DIR: mkdtempSync(`${tmpdir()}/pg-cli-serve-`) },
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('exit', (status) => resolve({ status, stderr }));
      });
      assert.equal(result.status, 3, result.stderr);
      assert.match(result.stderr, /PG_PORT \/ PG_HOST: 127\.0\.0\.1:\d+ is already in use/);
    } finally {
      taken.close();
    }
  });
});
