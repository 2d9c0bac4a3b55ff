/**
 * The sandbox's state outlives a restart, as a live gateway's does: a new gateway on the same state
 * file answers as the old one did. The clock moves forward on request (advance-clock), so that a bill
 * expires and an authorization lapses without waiting, and the advance is kept too. The file is
 * replaced whole on every change; one that cannot be read stops creation, naming it.
 * Everything goes through the gateway's own handler, as a merchant's requests would; the last
 * part kills the real `pg-checkout serve --sandbox` and starts it again on the same data folder.
 */
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { SANDBOX_STATE_FILE, sandboxStateFile } from '../../src/cli/serve.ts';
import { buildBatchFile } from '../../src/core/batch-file.ts';
import { REPORT_FILE_HEADERS } from '../../src/core/report-file.ts';
import { createGatewayClient } from '../../src/gateway/client.ts';
import { BATCH_PROCESSING_MS, BATCH_VALIDATION_MS } from '../../src/sandbox/batch.ts';
import { createSandboxClock, MAX_CLOCK_ADVANCE_SECONDS, type SandboxClock } from '../../src/sandbox/clock.ts';
import { createSandboxGateway, type SandboxGateway, type SandboxGatewayOptions } from '../../src/sandbox/gateway.ts';
import { SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC } from '../../src/sandbox/merchants.ts';
import { SANDBOX_VOUCHER_PARTNER_CODE } from '../../src/sandbox/partners.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import {
  api,
  FUTURE_EXPIRY,
  hostedFields,
  ORIGIN,
  payOnHostedPage,
  postForm,
  returnedAnswer,
  sessionOf,
  signed,
  START,
  verifiesAsGateway,
  type Answer,
} from './support.ts';

const DAY_SECONDS = 86_400;

let folder: string;
let file: string;
let clock: SandboxClock;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pg-sandbox-state-'));
  file = join(folder, SANDBOX_STATE_FILE);
  clock = createSandboxClock(START);
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A sandbox on the state file: the first start, or a restart when the file already holds a state. */
function sandbox(options: SandboxGatewayOptions = {}): SandboxGateway {
  return createSandboxGateway({ now: clock.now, persistence: sandboxStateFile(file), ...options });
}

const checkStatus = (gateway: SandboxGateway, merchantReference: string): Promise<Answer> =>
  api(gateway, { query_command: 'CHECK_STATUS', merchant_reference: merchantReference, language: 'en' });

/** A trusted-channel charge of the success card. */
const charge = (gateway: SandboxGateway, command: 'AUTHORIZATION' | 'PURCHASE', merchantReference: string): Promise<Answer> =>
  api(gateway, {
    command,
    merchant_reference: merchantReference,
    amount: '250000',
    currency: 'EGP',
    language: 'en',
    eci: 'ECOMMERCE',
    card_number: testCard('success').number,
    expiry_date: FUTURE_EXPIRY.yymm,
    card_security_code: '123',
    card_holder_name: 'Test Buyer',
  });

/** A bill due 48 hours after START (09:00 UTC on the 12th, written with Cairo's offset). */
const issueBill = (gateway: SandboxGateway, merchantReference: string): Promise<Answer> =>
  api(gateway, {
    service_command: 'BILL_PRESENTMENT',
    merchant_reference: merchantReference,
    amount: '150000',
    currency: 'EGP',
    language: 'en',
    request_expiry_date: '2026-03-12T11:00:00+02:00',
    payment_partner: SANDBOX_VOUCHER_PARTNER_CODE,
  });

async function tool(gateway: SandboxGateway, name: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const init: RequestInit =
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) };
  const response = await gateway.handle(new Request(`${ORIGIN}${gateway.paths.tools}/${name}`, init));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A signed JSON request to one of the gateway's paths other than paymentApi, its answer checked. */
async function signedPost(gateway: SandboxGateway, path: string, params: Record<string, unknown>): Promise<Answer> {
  const response = await gateway.handle(
    new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(await signed(params)) }),
  );
  assert.equal(response.status, 200);
  const answer = (await response.json()) as Answer;
  assert.ok(await verifiesAsGateway(answer), JSON.stringify(answer));
  return answer;
}

describe('the sandbox keeps its state across a restart', () => {
  it('answers CHECK_STATUS of a paid order the same after a restart', async () => {
    const first = sandbox();
    const paid = await returnedAnswer(await payOnHostedPage(first, await hostedFields({ merchant_reference: 'paid-1' }), { card_number: testCard('success').number }));
    assert.equal(paid['response_code'], '14000');
    const before = await checkStatus(first, 'paid-1');

    const restarted = sandbox();
    assert.deepEqual(await checkStatus(restarted, 'paid-1'), before);
    assert.equal(before['transaction_code'], '14000');
    assert.equal(before['captured_amount'], '250000');
    const refund = await api(restarted, { command: 'REFUND', merchant_reference: 'paid-1', amount: '100000', currency: 'EGP', language: 'en' });
    assert.equal(refund['response_code'], '20064', 'the restored order takes maintenance as before');
  });

  it('keeps a token, which still pays and is still listed', async () => {
    const first = sandbox();
    const tokenized = await api(first, {
      service_command: 'TOKENIZATION',
      merchant_reference: 'tok-1',
      language: 'en',
      card_number: testCard('success').number,
      expiry_date: FUTURE_EXPIRY.yymm,
      card_security_code: '123',
    });
    assert.equal(tokenized['response_code'], '18000');
    const tokenName = tokenized['token_name'];

    const restarted = sandbox();
    const listed = await api(restarted, { query_command: 'GET_TOKENS', language: 'en' });
    assert.deepEqual(
      (listed['data_list'] as Record<string, unknown>[]).map((token) => token['token_name']),
      [tokenName],
    );
    const paid = await api(restarted, { command: 'PURCHASE', merchant_reference: 'tok-pay', amount: '10000', currency: 'EGP', language: 'en', token_name: tokenName });
    assert.equal(paid['response_code'], '14000');
  });

  it('keeps an issued bill, which the customer can still pay', async () => {
    const first = sandbox();
    const bill = await issueBill(first, 'bill-1');
    assert.equal(bill['response_code'], '30000');

    const restarted = sandbox();
    const issued = await checkStatus(restarted, 'bill-1');
    assert.deepEqual([issued['transaction_code'], issued['bill_number']], ['30000', bill['bill_number']]);
    const payment = await tool(restarted, 'pay-bill', { bill_number: bill['bill_number'] });
    assert.equal(payment.status, 200);
    assert.equal((await checkStatus(restarted, 'bill-1'))['transaction_code'], '14000');
  });

  it('lets a card page opened before the restart be paid after it', async () => {
    const first = sandbox();
    const page = await postForm(first, first.paths.paymentPage, await hostedFields({ merchant_reference: 'page-1' }));
    const session = sessionOf(await page.text());

    const restarted = sandbox();
    const submitted = await postForm(restarted, restarted.paths.pageSubmit, {
      session,
      card_number: testCard('success').number,
      expiry_date: FUTURE_EXPIRY.typed,
      card_security_code: '123',
    });
    assert.equal((await returnedAnswer(submitted))['response_code'], '14000');
  });

  it('carries a batch on from upload to results across two restarts', async () => {
    const first = sandbox();
    const authorization = await charge(first, 'AUTHORIZATION', 'batch-order');
    assert.equal(authorization['response_code'], '02000');
    const form = new FormData();
    const fields = await signed({ service_command: 'UPLOAD_BATCH_FILE', batch_reference: 'batch-1', language: 'en' });
    for (const [name, value] of Object.entries(fields)) form.set(name, String(value));
    const lines = buildBatchFile([{ command: 'CAPTURE', merchant_reference: 'batch-order', amount: '250000', currency: 'EGP' }]);
    form.set('file', new Blob([lines], { type: 'text/csv' }), 'batch.csv');
    const upload = (await (await first.handle(new Request(`${ORIGIN}${first.paths.batchUpload}/`, { method: 'POST', body: form }))).json()) as Answer;
    assert.equal(upload['response_code'], '50000');
    const batch = { batch_reference: 'batch-1', batch_id: upload['batch_id'], language: 'en' };

    // Restarted while the file is under validation: it is validated from the saved file.
    clock.advance(BATCH_VALIDATION_MS);
    const second = sandbox();
    const validated = await signedPost(second, `${second.paths.batchApi}/`, { service_command: 'GET_BATCH_RESULTS', ...batch });
    assert.deepEqual([validated['batch_status'], validated['transactions_count']], ['VALIDATED', '1']);
    const processing = await signedPost(second, `${second.paths.batchApi}/`, { service_command: 'PROCESS_BATCH', ...batch });
    assert.equal(processing['response_code'], '72147');

    clock.advance(BATCH_PROCESSING_MS);
    const third = sandbox();
    const results = await signedPost(third, `${third.paths.batchApi}/`, { service_command: 'GET_BATCH_RESULTS', ...batch });
    assert.equal(results['batch_status'], 'PROCESSED');
    assert.deepEqual(
      (results['rows'] as Record<string, unknown>[]).map((row) => [row['merchant_reference'], row['response_code']]),
      [['batch-order', '20064']],
    );
    const captured = await checkStatus(sandbox(), 'batch-order');
    assert.deepEqual([captured['transaction_code'], captured['captured_amount']], ['20064', '250000']);
  });

  it('serves a report generated before the restart, byte for byte', async () => {
    const first = sandbox();
    await charge(first, 'PURCHASE', 'reported-1');
    const window = { from_date: '2026-03-10T00:00:00+00:00', to_date: '2026-03-10T23:59:59+00:00' };
    const generated = await signedPost(first, first.paths.reportingApi, { query_command: 'GENERATE_REPORT', merchant_reference: 'rep-1', language: 'en', ...window });
    assert.deepEqual([generated['response_code'], generated['transactions_count']], ['56000', '1']);
    const download = async (gateway: SandboxGateway) => {
      const body = JSON.stringify(await signed({ query_command: 'DOWNLOAD_REPORT', merchant_reference: 'rep-1', file_format: 'CSV', language: 'en' }));
      const response = await gateway.handle(new Request(`${ORIGIN}${gateway.paths.reportingApi}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
      assert.equal(response.status, 200);
      return {
        text: await response.text(),
        digest: response.headers.get(REPORT_FILE_HEADERS.digest),
        signature: response.headers.get(REPORT_FILE_HEADERS.signature),
      };
    };
    const before = await download(first);
    assert.match(before.text, /reported-1/);
    assert.ok(before.digest && before.signature);

    assert.deepEqual(await download(sandbox()), before);
  });

  it('gives a new order after the restart an svc_id none before it had', async () => {
    const first = sandbox();
    const before = await charge(first, 'PURCHASE', 'seq-1');
    const after = await charge(sandbox(), 'PURCHASE', 'seq-2');
    assert.notEqual(after['svc_id'], before['svc_id']);
  });
});

describe('advance-clock', () => {
  it('answers the sandbox time it moved to, which the clock tool then shows', async () => {
    const gateway = sandbox();
    assert.deepEqual(await tool(gateway, 'clock'), { status: 200, body: { now: '2026-03-10T09:00:00.000Z' } });
    const moved = await tool(gateway, 'advance-clock', { seconds: 90 * 60 });
    assert.deepEqual(moved, { status: 200, body: { now: '2026-03-10T10:30:00.000Z', advanced_seconds: 5400 } });
    assert.deepEqual((await tool(gateway, 'clock')).body, { now: '2026-03-10T10:30:00.000Z' });
  });

  it('cancels an unpaid bill once the clock passes its expiry, and it can no longer be paid', async () => {
    const gateway = sandbox();
    const bill = await issueBill(gateway, 'bill-late');
    await tool(gateway, 'advance-clock', { seconds: 2 * DAY_SECONDS - 1 });
    assert.equal((await checkStatus(gateway, 'bill-late'))['transaction_code'], '30000', 'a second before the expiry it is still issued');

    await tool(gateway, 'advance-clock', { seconds: 1 });
    const expired = await checkStatus(gateway, 'bill-late');
    assert.deepEqual([expired['transaction_code'], expired['transaction_status']], ['31001', '31']);
    const payment = await tool(gateway, 'pay-bill', { bill_number: bill['bill_number'] });
    assert.deepEqual([payment.status, payment.body['error']], [409, 'bill_expired']);
  });

  it('voids an authorization neither captured nor voided within 7 days', async () => {
    const gateway = sandbox();
    assert.equal((await charge(gateway, 'AUTHORIZATION', 'held-1'))['response_code'], '02000');
    await tool(gateway, 'advance-clock', { seconds: 7 * DAY_SECONDS - 1 });
    assert.equal((await checkStatus(gateway, 'held-1'))['transaction_code'], '02000', 'still held a second before the 7 days');

    await tool(gateway, 'advance-clock', { seconds: 1 });
    const lapsed = await checkStatus(gateway, 'held-1');
    assert.deepEqual([lapsed['transaction_code'], lapsed['authorized_amount']], ['08000', '250000']);
    const capture = await api(gateway, { command: 'CAPTURE', merchant_reference: 'held-1', amount: '250000', currency: 'EGP', language: 'en' });
    assert.equal(capture['response_code'], '05002', 'a voided authorization cannot be captured');
  });

  it('keeps the advance across a restart', async () => {
    await tool(sandbox(), 'advance-clock', { seconds: 3 * DAY_SECONDS });
    assert.deepEqual((await tool(sandbox(), 'clock')).body, { now: '2026-03-13T09:00:00.000Z' });
  });

  it('refuses a body that is not a whole number of seconds from 1 to 400 days, and leaves the clock alone', async () => {
    const gateway = sandbox();
    for (const body of [{}, { seconds: 0 }, { seconds: -60 }, { seconds: 1.5 }, { seconds: '60' }, { seconds: MAX_CLOCK_ADVANCE_SECONDS + 1 }, 'not json', [60]]) {
      assert.deepEqual(await tool(gateway, 'advance-clock', body), { status: 400, body: { error: 'seconds_invalid' } }, JSON.stringify(body));
    }
    assert.equal(MAX_CLOCK_ADVANCE_SECONDS, 400 * DAY_SECONDS);
    assert.deepEqual((await tool(gateway, 'clock')).body, { now: '2026-03-10T09:00:00.000Z' });
  });

  it('is a method of the gateway too, with the same rule', () => {
    const gateway = sandbox();
    assert.equal(gateway.advanceClock(60).toISOString(), '2026-03-10T09:01:00.000Z');
    assert.throws(() => gateway.advanceClock(0), RangeError);
    assert.equal(sandbox().advanceClock(60).toISOString(), '2026-03-10T09:02:00.000Z', 'the method saves too');
  });

  it('is forgotten by reset, with everything else, in the file too', async () => {
    const gateway = sandbox();
    await charge(gateway, 'PURCHASE', 'forgotten-1');
    gateway.advanceClock(DAY_SECONDS);
    gateway.reset();

    const restarted = sandbox();
    assert.deepEqual(restarted.orders(), []);
    assert.deepEqual((await tool(restarted, 'clock')).body, { now: '2026-03-10T09:00:00.000Z' });
    assert.equal((await checkStatus(restarted, 'forgotten-1'))['response_code'], '12001');
  });
});

describe('the state file', () => {
  it('is not needed: without it the sandbox starts fresh', async () => {
    const gateway = sandbox();
    assert.deepEqual(gateway.orders(), []);
    assert.equal((await checkStatus(gateway, 'none'))['response_code'], '12001');
  });

  it('is replaced whole by each change, leaving no temporary file behind', async () => {
    const gateway = sandbox();
    await charge(gateway, 'PURCHASE', 'file-1');
    const before = statSync(file).ino;
    await charge(gateway, 'PURCHASE', 'file-2');
    // A new file renamed over the old one, never the old one rewritten in place.
    assert.notEqual(statSync(file).ino, before);
    assert.deepEqual(readdirSync(folder), [SANDBOX_STATE_FILE]);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { orders: { merchantReference: string }[] };
    assert.deepEqual(saved.orders.map((order) => order.merchantReference), ['file-1', 'file-2']);
  });

  it('is not touched by a request that changes nothing', async () => {
    const gateway = sandbox();
    await charge(gateway, 'PURCHASE', 'read-1');
    const before = statSync(file).ino;
    await tool(gateway, 'orders');
    await tool(gateway, 'clock');
    assert.equal(statSync(file).ino, before);
  });

  it('wins over a temporary file left by a process killed mid-write, which is cleared away', async () => {
    await charge(sandbox(), 'PURCHASE', 'whole-1');
    const leftover = join(folder, `.${SANDBOX_STATE_FILE}.4242.tmp`);
    writeFileSync(leftover, '{"version":1,"orders":[{"merch');

    const restarted = sandbox();
    assert.equal((await checkStatus(restarted, 'whole-1'))['transaction_code'], '14000');
    assert.deepEqual(readdirSync(folder), [SANDBOX_STATE_FILE]);
  });

  it('stops creation, naming the file, when it is not JSON', () => {
    writeFileSync(file, '{"version":1,"orders":[');
    assert.throws(() => sandbox(), (error: Error) => error.message.includes(file) && /not valid JSON/.test(error.message));
  });

  it('stops creation, naming the file, when it is JSON but not a sandbox state', () => {
    writeFileSync(file, JSON.stringify({ version: 1, orders: 'none' }));
    assert.throws(() => sandbox(), (error: Error) => error.message.includes(file) && /cannot be restored/.test(error.message));
    writeFileSync(file, '[]');
    assert.throws(() => sandbox(), (error: Error) => error.message.includes(file) && /not a sandbox state/.test(error.message));
  });

  it('stops creation, naming the file, when it cannot be read', () => {
    mkdirSync(file);
    assert.throws(() => sandbox(), (error: Error) => error.message.includes(file) && /cannot be read/.test(error.message));
  });

  it('stops creation when it holds work of a merchant the gateway is no longer configured with', async () => {
    const gateway = sandbox();
    const page = await postForm(gateway, gateway.paths.paymentPage, await hostedFields({ merchant_reference: 'gone-1' }));
    assert.equal(page.status, 200);
    assert.throws(
      () => sandbox({ merchants: [SANDBOX_MERCHANT_BASIC] }),
      (error: Error) => error.message.includes(file) && error.message.includes(`"${SANDBOX_MERCHANT.merchantIdentifier}"`),
    );
  });

  it('answers 500 when a change cannot be saved, rather than pretend it was', async (t) => {
    const gateway = sandbox();
    rmSync(folder, { recursive: true });
    t.mock.method(console, 'error', () => {});
    const response = await gateway.handle(
      new Request(`${ORIGIN}${gateway.paths.tools}/advance-clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"seconds":60}' }),
    );
    assert.equal(response.status, 500);
    assert.deepEqual(await response.json(), { error: 'state_not_saved' });
  });
});

// ---- The real CLI ----

const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

type Server = ChildProcessByStdio<null, Readable, Readable>;

/** `pg-checkout serve --sandbox`, once it says it listens. */
async function startServe(port: number, dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--sandbox'], {
    env: { ...process.env, PG_PORT: String(port), PG_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return child;
}

async function killHard(child: Server): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('pg-checkout serve --sandbox', () => {
  it('finds an order made before a kill -9 after it starts again on the same data folder', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const dataDir = join(folder, 'data');
    const client = createGatewayClient({
      merchantIdentifier: SANDBOX_MERCHANT.merchantIdentifier,
      accessCode: SANDBOX_MERCHANT.accessCode,
      shaType: SANDBOX_MERCHANT.shaType,
      requestPhrase: SANDBOX_MERCHANT.requestPhrase,
      responsePhrase: SANDBOX_MERCHANT.responsePhrase,
      gatewayBaseUrl: `http://127.0.0.1:${port}`,
      apiRoot: 'FortAPI',
    });
    let server = await startServe(port, dataDir);
    try {
      const purchase = await client.trustedPurchase({
        merchant_reference: 'killed-1',
        amount: 250_000,
        currency: 'EGP',
        eci: 'ECOMMERCE',
        card_number: testCard('success').number,
        expiry_date: FUTURE_EXPIRY.yymm,
        card_security_code: '123',
      });
      assert.equal(purchase.outcome, 'success', JSON.stringify(purchase));
      await killHard(server);
      assert.ok(readdirSync(dataDir).includes(SANDBOX_STATE_FILE), 'the state is in the data folder');

      server = await startServe(port, dataDir);
      const status = await client.checkStatus({ merchant_reference: 'killed-1' });
      assert.equal(status.response_code, '12000');
      assert.deepEqual(
        [status.order?.state, status.order?.captured_amount, status.order?.svc_id],
        ['captured', 250_000, purchase.answer?.svc_id],
      );
    } finally {
      await killHard(server);
    }
  });
});
