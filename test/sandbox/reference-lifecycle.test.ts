/**
 * A whole payment under each name the gateway may give its order reference (`svc_id`, the
 * specification's; `fort_id`, the live gateway's), over real HTTP on loopback: the customer pays an
 * AUTHORIZATION on the hosted page through the merchant endpoint, then operations staff capture and
 * refund it in two steps each and read its status, once through the back-office client and once
 * through the `pg-checkout` CLI (a real process). Every message that reaches or leaves the sandbox
 * is recorded off the wire: it names the reference only as configured, and every signature on it
 * verifies. Inside, the reference is `svc_id` throughout (the endpoint's result, the client's
 * answers, the CLI's --json).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ROUTES } from '../../src/core/endpoint-api.ts';
import { signatureOptionsFor, verifySignature, type SignableParams } from '../../src/core/signature.ts';
import type { GatewayReferenceField } from '../../src/core/wire-names.ts';
import { createGatewayClient } from '../../src/gateway/client.ts';
import type { VerifiedResult } from '../../src/server/config.ts';
import { createMerchantEndpoint, type MerchantEndpoint } from '../../src/server/endpoint.ts';
import { toNodeListener } from '../../src/server/node.ts';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import { createSandboxClock } from '../../src/sandbox/clock.ts';
import { createSandboxGateway } from '../../src/sandbox/gateway.ts';
import { endpointCredentials, SANDBOX_MERCHANT as M } from '../../src/sandbox/merchants.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { FUTURE_EXPIRY, formAction, hiddenFields, sessionOf, START } from './support.ts';

const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
const BASE_PATH = '/pg';

/** One exchange with the sandbox, as it crossed the wire. */
interface Exchange {
  readonly path: string;
  readonly requestType: string;
  readonly request: string;
  readonly answerType: string;
  readonly answer: string;
}

interface Rig {
  readonly origin: string;
  readonly wire: Exchange[];
  readonly results: VerifiedResult[];
  close(): Promise<void>;
}

/** The sandbox and the merchant endpoint on one loopback port, both set to `field`; the sandbox's traffic recorded. */
async function startRig(field: GatewayReferenceField): Promise<Rig> {
  const clock = createSandboxClock(START);
  const gateway = createSandboxGateway({ now: clock.now, gatewayReferenceField: field });
  const orders = new InMemoryOrderStore();
  orders.add({ merchant_reference: 'life-1', amount: 100_000, currency: 'EGP', description: 'Headphones', customer_email: 'buyer@example.com' });
  const wire: Exchange[] = [];
  const results: VerifiedResult[] = [];
  // The endpoint needs the server's origin; the server routes to it once it exists.
  const mounted: { endpoint?: MerchantEndpoint } = {};
  const recorded = async (request: Request): Promise<Response> => {
    const sent = await request.clone().text();
    const response = await gateway.handle(request);
    wire.push({
      path: new URL(request.url).pathname,
      requestType: request.headers.get('content-type') ?? '',
      request: sent,
      answerType: response.headers.get('content-type') ?? '',
      answer: await response.clone().text(),
    });
    return response;
  };
  const server: Server = createServer(
    toNodeListener((request, context) => (gateway.handles(request.url) ? recorded(request) : (mounted.endpoint as MerchantEndpoint)(request, context))),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mounted.endpoint = createMerchantEndpoint({
    ...endpointCredentials(),
    gatewayBaseUrl: origin,
    checkoutUrl: origin,
    apiRoot: 'FortAPI',
    publicUrl: origin,
    basePath: BASE_PATH,
    gatewayReferenceField: field,
    resolveOrder: orders.resolve,
    // The payment is authorized on the hosted page, then captured by operations staff.
    paymentCommands: ['PURCHASE', 'AUTHORIZATION'],
    onResult: (result) => {
      results.push(result);
    },
    now: clock.now,
  });
  return {
    origin,
    wire,
    results,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The browser posting a form, never following redirects by itself. */
function submit(action: string, fields: Record<string, unknown>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, String(value));
  return fetch(action, { method: 'POST', body, redirect: 'manual' });
}

/** The customer pays the order on the gateway's hosted page; the endpoint's JSON result of the return. */
async function payOnHostedPage(rig: Rig, reference: string): Promise<Record<string, unknown>> {
  const started = await fetch(`${rig.origin}${BASE_PATH}${ROUTES.hostedPage}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: rig.origin },
    body: JSON.stringify({ merchant_reference: reference, language: 'en', command: 'AUTHORIZATION' }),
  });
  assert.equal(started.status, 200);
  const form = (await started.json()) as { action: string; fields: Record<string, string> };
  const page = await submit(form.action, form.fields);
  const html = await page.text();
  const cardAction = new URL(/<form class="credit-card-container" method="post" action="([^"]+)"/.exec(html)?.[1] ?? '', rig.origin);
  const returned = await submit(cardAction.href, {
    session: sessionOf(html),
    card_number: testCard('success').number,
    expiry_date: FUTURE_EXPIRY.typed,
    card_security_code: '123',
    card_holder_name: 'Test Buyer',
  });
  const returnPage = await returned.text();
  const back = await submit(formAction(returnPage), hiddenFields(returnPage));
  assert.equal(back.status, 200);
  return (await back.json()) as Record<string, unknown>;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The `pg-checkout` CLI as operations staff run it, configured by PG_* for this rig. */
function cli(rig: Rig, field: GatewayReferenceField, args: string[]): Promise<Run> {
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    PG_MERCHANT_IDENTIFIER: M.merchantIdentifier,
    PG_ACCESS_CODE: M.accessCode,
    PG_SHA_TYPE: 'SHA-256',
    PG_SHA_REQUEST_PHRASE: M.requestPhrase,
    PG_SHA_RESPONSE_PHRASE: M.responsePhrase,
    PG_GATEWAY_BASE_URL: rig.origin,
    PG_CHECKOUT_URL: rig.origin,
    PG_API_ROOT: 'FortAPI',
    PG_GATEWAY_REFERENCE_FIELD: field,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

const verifies = async (fields: Record<string, unknown>, phrase: string): Promise<boolean> =>
  (await verifySignature(fields as SignableParams, phrase, M.shaType, signatureOptionsFor(fields))).valid;

/** Every recorded message names the reference only as `field` (and does name it), and every signature verifies. */
async function assertWire(wire: readonly Exchange[], field: GatewayReferenceField, atLeast = 10): Promise<void> {
  const other = field === 'svc_id' ? 'fort_id' : 'svc_id';
  let named = 0;
  let signed = 0;
  for (const exchange of wire) {
    for (const text of [exchange.request, exchange.answer]) {
      assert.doesNotMatch(text, new RegExp(other), `${exchange.path} carries ${other}: ${text.slice(0, 400)}`);
      if (text.includes(field)) named += 1;
    }
    // Requests: JSON to paymentApi, and the merchant's signed form to paymentPage (not the card page's own submit).
    if (exchange.requestType.startsWith('application/json')) {
      assert.ok(await verifies(JSON.parse(exchange.request) as Record<string, unknown>, M.requestPhrase), `request to ${exchange.path} signed over what it carries`);
      signed += 1;
    } else if (exchange.path.endsWith('/paymentPage')) {
      assert.ok(await verifies(Object.fromEntries(new URLSearchParams(exchange.request)), M.requestPhrase), 'the hosted-page form is signed over what it carries');
      signed += 1;
    }
    // Answers: JSON, and the return post the gateway's page hands the browser.
    if (exchange.answerType.startsWith('application/json')) {
      assert.ok(await verifies(JSON.parse(exchange.answer) as Record<string, unknown>, M.responsePhrase), `answer of ${exchange.path} signed over what it carries`);
      signed += 1;
    } else if (exchange.answer.includes('<form id="return-form"')) {
      const returned = hiddenFields(exchange.answer);
      assert.ok(returned[field], `the return post names the reference ${field}`);
      assert.ok(await verifies(returned, M.responsePhrase), 'the return post is signed over what it carries');
      signed += 1;
    }
  }
  assert.ok(named >= atLeast, `the reference travels as ${field} (${named} messages)`);
  assert.ok(signed >= 2 * atLeast, `${signed} signatures checked`);
}

for (const field of ['svc_id', 'fort_id'] as const) {
  describe(`a payment’s life on a gateway that names its order reference ${field}`, () => {
    let rig: Rig | undefined;
    after(() => rig?.close());

    it('pays on the hosted page, captures, refunds and reads the status through the client and the CLI, the wire naming it only so', async () => {
      rig = await startRig(field);
      const reference = 'life-1';

      // The customer pays through the endpoint; its /return verified the gateway's post as it came.
      const paid = await payOnHostedPage(rig, reference);
      assert.deepEqual([paid['outcome'], paid['response_code']], ['success', '02000']);
      const svcId = String(paid['svc_id']);
      assert.match(svcId, /^\d+$/, 'the endpoint reads the reference as svc_id');
      assert.equal(rig.results.at(-1)?.svc_id, svcId);
      assert.equal(rig.results.at(-1)?.idempotency_key, `${reference}:${svcId}:authorized`);
      assert.equal(rig.results.at(-1)?.gateway['svc_id'], svcId, 'the merchant’s hook sees svc_id');

      // Operations staff: the client and the CLI, each capturing and refunding part.
      const client = createGatewayClient({ ...endpointCredentials(), gatewayBaseUrl: rig.origin, apiRoot: 'FortAPI', gatewayReferenceField: field });
      const captured = await client.capture({ merchant_reference: reference, svc_id: svcId, amount: 60_000, currency: 'EGP' });
      assert.deepEqual([captured.outcome, captured.response_code], ['success', '20064']);
      const idOption = field === 'fort_id' ? '--fort-id' : '--svc-id';
      const cliCapture = await cli(rig, field, ['capture', '--reference', reference, idOption, svcId, '--currency', 'EGP', '--yes']);
      assert.equal(cliCapture.code, 0, cliCapture.stderr);
      assert.match(cliCapture.stdout, /Captured EGP 400\.00/);

      const refunded = await client.refund({ merchant_reference: reference, amount: 30_000, currency: 'EGP' });
      assert.deepEqual([refunded.outcome, refunded.response_code], ['success', '20064']);
      const cliRefund = await cli(rig, field, ['refund', '--reference', reference, '--svc-id', svcId, '--amount', '200', '--currency', 'EGP', '--yes']);
      assert.equal(cliRefund.code, 0, cliRefund.stderr);

      const status = await client.checkStatus({ svc_id: svcId });
      assert.equal(status.order?.svc_id, svcId);
      assert.deepEqual([status.order?.state, status.order?.captured_amount, status.order?.refunded_amount], ['partially_refunded', 100_000, 50_000]);
      const cliStatus = await cli(rig, field, ['status', '--reference', reference, '--json']);
      assert.equal(cliStatus.code, 0, cliStatus.stderr);
      const shown = JSON.parse(cliStatus.stdout) as { order: { svc_id: string; refunded_amount: number }; answer: Record<string, unknown> };
      assert.equal(shown.order.svc_id, svcId, 'the CLI’s typed result names it svc_id');
      assert.equal(shown.answer['svc_id'], svcId);
      assert.equal(shown.order.refunded_amount, 50_000);

      await assertWire(rig.wire, field);
    });

    it('uploads a batch file whose column says svc_id under the configured name, and checks it there first', async () => {
      assert.ok(rig, 'the payment above ran');
      const folder = mkdtempSync(join(tmpdir(), 'pg-reference-'));
      try {
        const from = rig.wire.length;
        const good = join(folder, 'good.csv');
        writeFileSync(good, 'command,merchant_reference,svc_id,amount,currency\r\nCAPTURE,life-2,1773133200000000001,100,EGP\r\n');
        const uploaded = await cli(rig, field, ['batch', 'upload', good, '--reference', `b-${field}`]);
        assert.equal(uploaded.code, 0, uploaded.stderr);
        assert.match(uploaded.stdout, new RegExp(`^b-${field}:\\d+$`, 'm'));
        const upload = rig.wire.slice(from).find((exchange) => exchange.path.includes('/upload'));
        assert.match(upload?.request ?? '', new RegExp(`command,merchant_reference,${field},amount,currency`), 'the file part names the column as the wire does');
        await assertWire(rig.wire.slice(from), field, 0);

        const bad = join(folder, 'bad.csv');
        writeFileSync(bad, 'command,merchant_reference,svc_id,amount,currency\nCAPTURE,life-3,12ab,100,EGP\n');
        const refused = await cli(rig, field, ['batch', 'upload', bad]);
        assert.equal(refused.code, 2);
        assert.match(refused.stderr, new RegExp(`bad\\.csv:2 ${field}: may contain only digits`), 'the field named once, under the wire name');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
}
