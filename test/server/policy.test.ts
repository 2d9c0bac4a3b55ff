import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { endpointError } from '../../src/core/endpoint-api.ts';
import { ACCESS_CODE, REQUEST_PHRASE, RESPONSE_PHRASE } from './fake-gateway.ts';
import { allLogs, BASE_PATH, ELEMENTS_ORIGIN, setup, SHOP_ORIGIN, type Answer } from './harness.ts';
import { parse } from '../../src/core/shape.ts';

const harness = setup();

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, []);
  harness.gateway.reset();
});

/** A refusal as the merchant's element sees it: a 4xx (or 5xx) with the contract's error shape. */
function refusal(answer: Answer, status: number) {
  assert.equal(answer.status, status);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  return parse(endpointError, answer.body).error;
}

const PAN = '4005550000000001';

describe('when the order is not the merchant’s', () => {
  it('refuses an unknown merchant_reference, in English', async () => {
    const answer = await harness.post('/hosted-page', { merchant_reference: 'nope-1', language: 'en', command: 'PURCHASE' });
    assert.deepEqual(refusal(answer, 404), {
      code: 'unknown_order',
      field: 'merchant_reference',
      message: 'This order is not known to the merchant.',
    });
  });

  it('refuses it in Arabic when the request is in Arabic', async () => {
    const answer = await harness.post('/hosted-page', { merchant_reference: 'nope-1', language: 'ar', command: 'PURCHASE' });
    assert.deepEqual(refusal(answer, 404), {
      code: 'unknown_order',
      field: 'merchant_reference',
      message: 'هذا الطلب غير معروف لدى التاجر.',
    });
  });
});

describe('when the browser names another amount or currency than the order', () => {
  it('refuses a different amount', async () => {
    const answer = await harness.post('/hosted-page', {
      merchant_reference: 'order-1001',
      language: 'en',
      command: 'PURCHASE',
      amount: 100,
    });
    assert.deepEqual(refusal(answer, 409), {
      code: 'amount_mismatch',
      field: 'amount',
      message: 'The amount does not match the order.',
    });
  });

  it('refuses a different currency, in Arabic', async () => {
    const answer = await harness.post('/installment-plans', {
      merchant_reference: 'order-1001',
      language: 'ar',
      currency: 'USD',
    });
    assert.deepEqual(refusal(answer, 409), { code: 'currency_mismatch', field: 'currency', message: 'العملة لا تطابق الطلب.' });
    assert.equal(harness.gateway.calls.length, 0);
  });

  it('names the currency when both differ: an amount in another currency is not comparable', async () => {
    const answer = await harness.post('/hosted-page', {
      merchant_reference: 'order-1001',
      language: 'en',
      command: 'PURCHASE',
      amount: 100,
      currency: 'USD',
    });
    assert.equal(refusal(answer, 409).code, 'currency_mismatch');
    assert.equal(harness.gateway.calls.length, 0);
  });
});

describe('when the browser asks for an operation it may not', () => {
  for (const command of ['REFUND', 'CAPTURE', 'VOID_AUTHORIZATION']) {
    it(`refuses command ${command}`, async () => {
      const answer = await harness.post('/hosted-page', { merchant_reference: 'order-1001', language: 'en', command });
      assert.deepEqual(refusal(answer, 403), {
        code: 'command_refused',
        field: 'command',
        message: 'This operation cannot be requested from the browser.',
      });
    });
  }

  it('refuses a command on a route that takes none', async () => {
    const answer = await harness.post('/status', { merchant_reference: 'order-1001', language: 'ar', command: 'REFUND' });
    assert.deepEqual(refusal(answer, 403), {
      code: 'command_refused',
      field: 'command',
      message: 'لا يمكن طلب هذه العملية من المتصفح.',
    });
  });

  for (const [field, value] of [
    ['service_command', 'TOKENIZATION'],
    ['query_command', 'GET_TOKENS'],
    ['eci', 'RECURRING'],
    ['eci', 'MOTO'],
    ['token_name', 'stored-card'],
  ] as const) {
    it(`refuses ${field} ${value} (maintenance, recurring, trusted channel or stored token)`, async () => {
      const answer = await harness.post('/hosted-page', {
        merchant_reference: 'order-1001',
        language: 'en',
        command: 'PURCHASE',
        [field]: value,
      });
      const error = refusal(answer, 403);
      assert.equal(error.code, 'command_refused');
      assert.equal(error.field, field);
    });
  }

  it('signs nothing for a refused command', async () => {
    const answer = await harness.post('/hosted-page', { merchant_reference: 'order-1001', language: 'en', command: 'REFUND' });
    assert.ok(!JSON.stringify(answer.body).includes('signature'));
  });
});

describe('when the browser sends card data', () => {
  for (const [field, value] of [
    ['card_number', PAN],
    ['card_security_code', '737'],
    ['expiry_date', '2812'],
  ] as const) {
    it(`refuses ${field} and never echoes or logs the value`, async () => {
      const before = harness.logs.length;
      const answer = await harness.post('/hosted-page', {
        merchant_reference: 'order-1001',
        language: 'en',
        command: 'PURCHASE',
        [field]: value,
      });
      assert.deepEqual(refusal(answer, 400), {
        code: 'card_data_refused',
        field,
        message: 'Card details must be sent to the payment gateway only, never to the merchant.',
      });
      assert.ok(!JSON.stringify(answer.body).includes(value));
      const lines = harness.logs.slice(before).join('\n');
      assert.match(lines, /"event":"card_data_refused"/);
      assert.ok(!lines.includes(value), `${field} value reached the logs`);
    });
  }

  it('finds a card number nested anywhere in the body', async () => {
    const answer = await harness.post('/financing/otp', {
      merchant_reference: 'order-1001',
      language: 'ar',
      flow: 'x',
      products: [{ product_name: 'a', product_price: '1', product_category: 'b', card_number: PAN }],
    });
    const error = refusal(answer, 400);
    assert.equal(error.code, 'card_data_refused');
    assert.equal(error.field, 'products[0].card_number');
    assert.equal(error.message, 'يجب إرسال بيانات البطاقة إلى بوابة الدفع فقط وليس إلى التاجر.');
    assert.ok(!allLogs(harness).includes(PAN));
  });

  it('never logs a card number typed into another field', async () => {
    await harness.post('/order', { merchant_reference: PAN, language: 'en' });
    assert.ok(!allLogs(harness).includes(PAN));
  });
});

describe('when the browser sends a field only the server sets', () => {
  for (const field of ['signature', 'access_code', 'return_url', 'merchant_extra1']) {
    it(`refuses ${field}`, async () => {
      const answer = await harness.post('/hosted-page', {
        merchant_reference: 'order-1001',
        language: 'en',
        command: 'PURCHASE',
        [field]: 'x',
      });
      assert.deepEqual(refusal(answer, 400), {
        code: 'invalid_request',
        field,
        message: `${field}: is set by the merchant server, never by the browser`,
      });
    });
  }
});

describe('when the body breaks the contract', () => {
  it('names the field and the rule, in English', async () => {
    const answer = await harness.post('/hosted-page', { merchant_reference: 'order-1001', language: 'en' });
    assert.deepEqual(refusal(answer, 400), {
      code: 'invalid_request',
      field: 'command',
      message: 'command: is required',
    });
  });

  it('names the field and the rule, in Arabic', async () => {
    const answer = await harness.post('/order', { merchant_reference: 'x'.repeat(41), language: 'ar' });
    const error = refusal(answer, 400);
    assert.equal(error.code, 'invalid_request');
    assert.equal(error.field, 'merchant_reference');
    assert.match(error.message, /^merchant_reference: /);
    assert.match(error.message, /[\u0600-\u06ff]/);
  });

  it('answers in the Accept-Language when the body has no valid language', async () => {
    const answer = await harness.post('/order', { merchant_reference: 'order-1001' }, { headers: { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.5' } });
    const error = refusal(answer, 400);
    assert.equal(error.field, 'language');
    assert.equal(error.message, 'language: هذا الحقل مطلوب');
  });

  it('refuses a body that is not JSON', async () => {
    const answer = await harness.post('/order', 'merchant_reference=order-1001');
    assert.deepEqual(refusal(answer, 400), { code: 'invalid_json', message: 'The request body must be a JSON object.' });
  });

  it('refuses a JSON array', async () => {
    const answer = await harness.post('/order', '[1,2]');
    assert.equal(refusal(answer, 400).code, 'invalid_json');
  });
});

describe('when the body is too large', () => {
  const big = JSON.stringify({ merchant_reference: 'order-1001', language: 'en', padding: 'x'.repeat(20_000) });

  it('refuses it by its Content-Length', async () => {
    const answer = await harness.post('/order', big, { headers: { 'content-length': String(big.length) } });
    assert.deepEqual(refusal(answer, 413), { code: 'body_too_large', message: 'The request body is too large.' });
  });

  it('refuses it while it streams in, without a Content-Length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(4096));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 100) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const request = new Request(`${SHOP_ORIGIN}${BASE_PATH}/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    const answer = await harness.send(request);
    assert.equal(refusal(answer, 413).code, 'body_too_large');
    assert.ok(sent < 100, 'the endpoint stopped reading');
  });

  it('honours a configured limit', async () => {
    const small = setup({ maxBodyBytes: 256 });
    const answer = await small.post('/order', { merchant_reference: 'order-1001', language: 'en', note: 'y'.repeat(300) });
    assert.equal(refusal(answer, 413).code, 'body_too_large');
  });
});

describe('routes and methods', () => {
  it('answers 404 not_found for an unknown route', async () => {
    const answer = await harness.post('/refund', { merchant_reference: 'order-1001', language: 'en' });
    assert.deepEqual(refusal(answer, 404), { code: 'not_found', message: 'There is nothing at this address.' });
  });

  it('answers 404 outside the base path', async () => {
    const answer = await harness.send(new Request(`${SHOP_ORIGIN}/order`, { method: 'POST', body: '{}' }));
    assert.equal(refusal(answer, 404).code, 'not_found');
  });

  it('answers 405 with Allow for GET on a JSON route', async () => {
    const answer = await harness.send(new Request(`${SHOP_ORIGIN}${BASE_PATH}/order`));
    assert.equal(refusal(answer, 405).code, 'method_not_allowed');
    assert.equal(answer.headers.get('allow'), 'POST, OPTIONS');
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    harness.send(
      new Request(`${SHOP_ORIGIN}${BASE_PATH}/hosted-page`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      }),
    );

  it('answers the preflight of a configured origin', async () => {
    const answer = await preflight(ELEMENTS_ORIGIN);
    assert.equal(answer.status, 204);
    assert.equal(answer.headers.get('access-control-allow-origin'), ELEMENTS_ORIGIN);
    assert.match(answer.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(answer.headers.get('access-control-allow-headers') ?? '', /content-type/);
    assert.match(answer.headers.get('access-control-allow-headers') ?? '', /pg-order-token/, 'the elements’ order token');
    assert.equal(answer.headers.get('access-control-allow-credentials'), null);
  });

  it('refuses the preflight of any other origin', async () => {
    const answer = await preflight('https://evil.example');
    assert.deepEqual(refusal(answer, 403), { code: 'origin_refused', message: 'Requests from this site are not allowed.' });
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
  });

  it('refuses a POST from another origin before reading it', async () => {
    const answer = await harness.post(
      '/hosted-page',
      { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' },
      { origin: 'https://evil.example' },
    );
    assert.equal(refusal(answer, 403).code, 'origin_refused');
  });

  it('refuses the opaque origin "null" (sandboxed frames, files)', async () => {
    const answer = await harness.post('/order', { merchant_reference: 'order-1001', language: 'en' }, { origin: 'null' });
    assert.equal(refusal(answer, 403).code, 'origin_refused');
  });

  it('lets a configured origin read the answer', async () => {
    const answer = await harness.post('/order', { merchant_reference: 'order-1001', language: 'en' }, { origin: ELEMENTS_ORIGIN });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), ELEMENTS_ORIGIN);
    assert.equal(answer.headers.get('vary'), 'Origin');
  });

  it('lets a configured origin read a refusal too', async () => {
    const answer = await harness.post('/order', { merchant_reference: 'nope', language: 'en' }, { origin: ELEMENTS_ORIGIN });
    assert.equal(answer.status, 404);
    assert.equal(answer.headers.get('access-control-allow-origin'), ELEMENTS_ORIGIN);
  });

  it('does not take the Host header’s origin for its own (DNS rebinding)', async () => {
    const rebound = 'http://rebound.example:8787';
    const answer = await harness.send(
      new Request(`${rebound}${BASE_PATH}/order`, {
        method: 'POST',
        headers: { origin: rebound, 'content-type': 'application/json' },
        body: JSON.stringify({ merchant_reference: 'order-1001', language: 'en' }),
      }),
    );
    assert.equal(refusal(answer, 403).code, 'origin_refused');
  });

  it('allows same-origin calls, with or without an Origin header', async () => {
    const withOrigin = await harness.post('/order', { merchant_reference: 'order-1001', language: 'en' }, { origin: SHOP_ORIGIN });
    const without = await harness.post('/order', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(withOrigin.status, 200);
    assert.equal(without.status, 200);
    assert.equal(withOrigin.headers.get('access-control-allow-origin'), null);
  });
});

describe('when the gateway misbehaves', () => {
  it('never passes on an answer with a bad signature', async () => {
    harness.gateway.answer('CHECK_STATUS', () => ({
      code: '12000',
      fields: { transaction_status: '14', transaction_code: '14000' },
      tamper: (signed) => ({ ...signed, captured_amount: '999999' }),
    }));
    const answer = await harness.post('/status', { merchant_reference: 'order-1001', language: 'en' });
    assert.deepEqual(refusal(answer, 502), {
      code: 'gateway_signature_invalid',
      message: 'The payment gateway answer could not be verified.',
    });
    assert.ok(!JSON.stringify(answer.body).includes('999999'));
    assert.match(allLogs(harness), /"event":"gateway_signature_invalid"/);
  });

  it('never passes on an unsigned answer', async () => {
    harness.gateway.answer('GET_INSTALLMENTS_PLANS', () => ({
      code: '62000',
      tamper: ({ signature: _signature, ...unsigned }) => unsigned,
    }));
    const answer = await harness.post('/installment-plans', { merchant_reference: 'order-1001', language: 'ar' });
    assert.deepEqual(refusal(answer, 502), {
      code: 'gateway_signature_invalid',
      message: 'تعذر التحقق من رد بوابة الدفع.',
    });
  });

  it('refuses a signed answer about another order', async () => {
    harness.gateway.answer('CHECK_STATUS', (request) => ({
      code: '12000',
      fields: { merchant_reference: `${String(request['merchant_reference'])}-other` },
    }));
    const answer = await harness.post('/status', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(refusal(answer, 502).code, 'gateway_signature_invalid');
  });

  it('answers 502 gateway_unreachable when the gateway answers a server error', async () => {
    harness.gateway.failWith(503);
    const answer = await harness.post('/installment-plans', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(refusal(answer, 502).code, 'gateway_unreachable');
    assert.match(allLogs(harness), /"reason":"HTTP 503"/);
  });

  it('answers 502 gateway_unreachable, never gateway_signature_invalid, when the gateway answers 429 with an unsigned body', async () => {
    harness.gateway.failWith(429);
    const from = harness.logs.length;
    const answer = await harness.post('/installment-plans', { merchant_reference: 'order-1001', language: 'en' });
    assert.equal(refusal(answer, 502).code, 'gateway_unreachable');
    const logged = harness.logs.slice(from).join('\n');
    assert.match(logged, /"reason":"HTTP 429"/);
    assert.doesNotMatch(logged, /gateway_signature_invalid/);
  });

  it('answers 502 gateway_unreachable when the gateway cannot be reached', async () => {
    harness.gateway.goOffline();
    const answer = await harness.post('/status', { merchant_reference: 'order-1001', language: 'en' });
    assert.deepEqual(refusal(answer, 502), {
      code: 'gateway_unreachable',
      message: 'The payment gateway could not be reached; please try again.',
    });
  });
});

describe('logs', () => {
  it('hold no phrase, access code, signature or card number after a full round of calls', async () => {
    const all = setup();
    await all.post('/hosted-page', { merchant_reference: 'order-1001', language: 'en', command: 'PURCHASE' });
    await all.post('/merchant-page', { merchant_reference: 'order-1001', language: 'en' });
    await all.post('/installment-plans', { merchant_reference: 'order-1001', language: 'en' });
    await all.post('/status', { merchant_reference: 'order-1001', language: 'en' });
    await all.post('/bill', { merchant_reference: 'order-1001', language: 'en', card_number: PAN });
    const logs = allLogs(all);
    assert.ok(all.logs.length > 0);
    for (const line of all.logs) JSON.parse(line);
    for (const secret of [REQUEST_PHRASE, RESPONSE_PHRASE, ACCESS_CODE, PAN]) assert.ok(!logs.includes(secret), secret);
    assert.ok(!/[0-9a-f]{64}/.test(logs), 'a signature reached the logs');
  });
});

describe('when the body is not plain JSON', () => {
  it('refuses JSON nested 3,000 levels deep with 400 json_too_deep, in the request language', async () => {
    const deep = `{"merchant_reference":"order-1001","language":"ar","x":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    const answer = await harness.post('/order', deep, { headers: { 'accept-language': 'ar' } });
    assert.deepEqual(refusal(answer, 400), { code: 'json_too_deep', message: 'محتوى الطلب متداخل بعمق أكبر من المسموح.' });
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const answer = await harness.post('/order', { merchant_reference: 'order-1001', language: 'en', note: '[{'.repeat(100) });
    assert.equal(answer.status, 200);
  });

  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonp']) {
    it(`refuses Content-Type ${contentType} with 415 unsupported_media_type`, async () => {
      const answer = await harness.post('/order', { merchant_reference: 'order-1001', language: 'en' }, { headers: { 'content-type': contentType } });
      assert.deepEqual(refusal(answer, 415), {
        code: 'unsupported_media_type',
        field: 'content-type',
        message: 'The request body must be sent as application/json.',
      });
    });
  }

  it('refuses a body without a Content-Type', async () => {
    const answer = await harness.send(
      new Request(`${SHOP_ORIGIN}${BASE_PATH}/order`, {
        method: 'POST',
        body: new Blob([JSON.stringify({ merchant_reference: 'order-1001', language: 'en' })]),
      }),
    );
    assert.equal(refusal(answer, 415).code, 'unsupported_media_type');
  });

  for (const contentType of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"']) {
    it(`accepts Content-Type ${contentType}`, async () => {
      const answer = await harness.post('/order', { merchant_reference: 'order-1001', language: 'en' }, { headers: { 'content-type': contentType } });
      assert.equal(answer.status, 200);
    });
  }
});
