import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signParams } from '../../src/core/signature.ts';
import { createJsonLogger } from '../../src/log/logger.ts';
import { BASE_PATH, setup, SHOP_ORIGIN } from './harness.ts';

const harness = setup();

afterEach(() => {
  harness.gateway.reset();
  harness.logs.length = 0;
});

/** Every digit of the logs, in order: a card number shows up here whatever separated its digits. */
function loggedDigitRuns(): string[] {
  return harness.logs.map((line) => line.replace(/%3([0-9])/g, '$1').replace(/[^0-9[\]a-z]+/g, ''));
}

function assertNoCardNumberLogged(): void {
  for (const line of loggedDigitRuns()) assert.ok(!line.includes('4111111111111111'), `a card number reached the logs: ${line}`);
}

describe('when a card number is hidden in what a request names', () => {
  it('never logs one typed into the path with percent-encoded spaces: the route is logged as unknown, the typed segment as a star', async () => {
    const answer = await harness.send(
      new Request(`${SHOP_ORIGIN}${BASE_PATH}/4111%201111%201111%201111`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    assert.equal(answer.status, 404);
    assertNoCardNumberLogged();
    assert.ok(!harness.logs.join('\n').includes('%20'), 'the raw path reached the logs');
    assert.match(harness.logs.join('\n'), /"route":"unknown"/);
  });

  it('logs the name of a known route, not its path', async () => {
    await harness.post('/hosted-page', { merchant_reference: 'nope', language: 'en', command: 'PURCHASE' });
    assert.match(harness.logs.join('\n'), /"route":"hostedPage"/);
    assert.ok(!harness.logs.join('\n').includes('/hosted-page'));
  });

  it('never logs one written with dots as the merchant_reference of a forged return', async () => {
    const forged = await signParams(
      { merchant_reference: '4111.1111.1111.1111', response_code: '14000', status: '14', command: 'PURCHASE' },
      'not-the-response-phrase',
      'sha256',
    );
    const answer = await harness.send(
      new Request(`${SHOP_ORIGIN}${BASE_PATH}/return`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(forged as Record<string, string>).toString(),
      }),
    );
    assert.equal(answer.status, 303);
    assert.match(harness.logs.join('\n'), /return_signature_invalid/);
    assertNoCardNumberLogged();
  });

  it('never logs or echoes one written with underscores as the key above a card field', async () => {
    const answer = await harness.post('/order', {
      merchant_reference: 'order-1001',
      language: 'en',
      '4111_1111_1111_1111': { card_number: 'x' },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, 'card_data_refused');
    assert.equal(answer.body.error.field, '[digits].card_number');
    assertNoCardNumberLogged();
  });
});

describe('the log redaction', () => {
  const logged = (data: Record<string, unknown>): string => {
    const lines: string[] = [];
    createJsonLogger((line) => lines.push(line)).info('probe', data);
    return lines.join('');
  };

  for (const written of [
    '4111 1111 1111 1111',
    '4111-1111-1111-1111',
    '4111.1111.1111.1111',
    '4111_1111_1111_1111',
    '4111/1111/1111/1111',
    '4111+1111+1111+1111',
    '4111%201111%201111%201111',
    '4111%2D1111%2D1111%2D1111',
    '%34%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31',
    '٤١١١١١١١١١١١١١١١',
  ]) {
    it(`masks a card number written ${written}`, () => {
      const line = logged({ note: `paid with ${written} today` });
      assert.match(line, /paid with \[digits\] today/);
    });
  }

  it('masks a 12-digit card number, and keeps a 12-digit run that fails the Luhn check or is an IPv4 address', () => {
    // 5010 1234 5671 is a 12-digit number that passes the Luhn check (some Maestro cards are 12 digits).
    const line = logged({ note: 'paid with 5010-1234-5671 today', order: '501012345679', ip: '192.168.100.209' });
    assert.match(line, /paid with \[digits\] today/);
    assert.ok(line.includes('501012345679'), 'a 12-digit reference that is not a card number stays');
    assert.ok(line.includes('192.168.100.209'), 'an IPv4 address whose 12 digits pass the Luhn check stays');
  });

  it('masks a card number used as a key', () => {
    assert.ok(!logged({ '4111111111111111': 'x' }).includes('4111111111111111'));
  });

  it('leaves IPv4 addresses, response codes and dates as they are', () => {
    const line = logged({ ip: '192.168.100.200', response_code: '14000', at: '2026-11-22T05:00:00.000Z', bill: '12345678' });
    for (const kept of ['192.168.100.200', '14000', '2026-11-22T05:00:00.000Z', '12345678']) assert.ok(line.includes(kept), kept);
  });

  it('keeps the gateway’s own ids, which an operator looks a payment up by, in the fields that name one', () => {
    const line = logged({
      idempotency_key: 'order-1001:169996200003396711:captured:7000',
      key: 'order-1001:39420452089063:pending',
      svc_id: '169996200003396711',
      fort_id: '4111111111111111',
      bill_number: '39420452089063',
    });
    for (const kept of ['order-1001:169996200003396711:captured:7000', 'order-1001:39420452089063:pending', '"svc_id":"169996200003396711"', '"bill_number":"39420452089063"']) {
      assert.ok(line.includes(kept), kept);
    }
    assert.ok(line.includes('"fort_id":"4111111111111111"'), 'a gateway id is the gateway’s digits, whatever they look like');
  });

  it('still masks a card number anywhere else in those fields, and in any other field', () => {
    const line = logged({
      idempotency_key: '4111111111111111:169996200003396711:captured',
      key: 'order-1:4111 1111 1111 1111:captured',
      svc_id: '4111 1111 1111 1111',
      reference: '169996200003396711',
      note: 'order-1001:169996200003396711:captured',
    });
    assert.ok(!/4111[ ]?1111[ ]?1111[ ]?1111/.test(line), line);
    assert.ok(line.includes('"idempotency_key":"[digits]:169996200003396711:captured"'), line);
    assert.equal(line.match(/169996200003396711/g)?.length, 1, 'only where a field names a gateway id or a key');
  });

  it('drops a phone number by its key', () => {
    assert.ok(!logged({ phone_number: '01012345678' }).includes('01012345678'));
  });
});
