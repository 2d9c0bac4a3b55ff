/**
 * OTP resends are limited (SMS pumping): per flow, sealed in the flow token, and per phone number
 * and order within a window, through a limiter a deployment of several instances can share.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryOrderStore } from '../../src/server/orders.ts';
import type { RateLimiter } from '../../src/server/rate-limit.ts';
import { ELEMENTS_ORIGIN, setup, type Harness } from './harness.ts';

const ORDER = { merchant_reference: 'order-1001', language: 'en' } as const;
const PHONE = '01012345678';

async function verifiedFlow(on: Harness): Promise<string> {
  const answer = await on.post('/financing/verify-customer', { ...ORDER, phone_number: PHONE });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.flow as string;
}

/** Asks for the OTP with `flow`; answers the next flow token, or the refusal. */
function sendOtp(on: Harness, flow: string, language: 'en' | 'ar' = 'en', origin?: string) {
  return on.post('/financing/otp', { ...ORDER, language, flow }, origin ? { origin } : {});
}

describe('OTP resends within one flow', () => {
  const harness = setup();
  afterEach(() => harness.gateway.reset());

  it('allows three resends, then refuses with 429 otp_resend_limited and Retry-After, sending no SMS', async () => {
    let flow = await verifiedFlow(harness);
    for (let send = 0; send < 4; send++) {
      const answer = await sendOtp(harness, flow);
      assert.equal(answer.status, 200, `send ${send + 1}`);
      flow = answer.body.flow;
    }
    const refused = await sendOtp(harness, flow, 'ar');
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.body.error, {
      code: 'otp_resend_limited',
      message: 'تم إرسال عدد كبير من الرموز؛ يرجى الانتظار قبل طلب رمز آخر.',
    });
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 4);
  });

  it('follows a configured number of resends', async () => {
    const strict = setup({ otpResendsPerFlow: 0 });
    const sent = await sendOtp(strict, await verifiedFlow(strict));
    assert.equal(sent.status, 200);
    assert.equal((await sendOtp(strict, sent.body.flow)).status, 429);
  });
});

describe('OTP sends per phone number and order', () => {
  it('refuses a sixth send within 15 minutes even through new flows or replayed tokens', async () => {
    const harness = setup();
    const flow = await verifiedFlow(harness);
    const statuses: number[] = [];
    // Replaying the first token (each send looks like the flow's first) and starting new flows.
    for (let send = 0; send < 3; send++) statuses.push((await sendOtp(harness, flow)).status);
    for (let send = 0; send < 3; send++) statuses.push((await sendOtp(harness, await verifiedFlow(harness))).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 5);
  });

  it('says when to try again, and allows it once the window has passed', async () => {
    const harness = setup();
    const flow = await verifiedFlow(harness);
    for (let send = 0; send < 5; send++) await sendOtp(harness, flow);
    harness.advance(10 * 60_000);
    const refused = await sendOtp(harness, flow);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '300');
    harness.advance(5 * 60_000);
    assert.equal((await sendOtp(harness, await verifiedFlow(harness))).status, 200);
  });

  it('lets an allowed cross-origin page read Retry-After', async () => {
    const harness = setup({ otpSendLimiter: { hit: () => ({ allowed: false, retryAfterSeconds: 42 }) } });
    const refused = await sendOtp(harness, await verifiedFlow(harness), 'en', ELEMENTS_ORIGIN);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '42');
    assert.match(refused.headers.get('access-control-expose-headers') ?? '', /retry-after/i);
  });

  it('counts every send to one phone number across orders: new orders do not multiply the SMS', async () => {
    const orders = new InMemoryOrderStore(
      ['order-a', 'order-b', 'order-c'].map((reference) => ({ merchant_reference: reference, amount: 250_000, currency: 'EGP' })),
    );
    const harness = setup({ resolveOrder: orders.resolve });
    const statuses: number[] = [];
    for (const reference of ['order-a', 'order-b', 'order-c']) {
      const order = { merchant_reference: reference, language: 'en' } as const;
      for (let send = 0; send < 4; send++) {
        const verified = await harness.post('/financing/verify-customer', { ...order, phone_number: PHONE });
        statuses.push((await harness.post('/financing/otp', { ...order, flow: verified.body.flow })).status);
      }
    }
    // Four per order stays within each order's five; the phone's tenth is the last one sent.
    assert.deepEqual(statuses, [...Array<number>(10).fill(200), 429, 429]);
    assert.equal(harness.gateway.callsOf('OTP_GENERATE').length, 10);
    const refused = harness.logs.map((line) => JSON.parse(line)).filter((line) => line.event === 'otp_resend_limited');
    assert.deepEqual(refused.map((line) => line.limit), ['phone', 'phone']);
    assert.ok(!harness.logs.join('\n').includes(PHONE), 'no phone number in the logs');
  });

  it('takes a shared limiter, and gives it keys that hold no phone number', async () => {
    const keys: string[] = [];
    const shared: RateLimiter = {
      hit: (key) => {
        keys.push(key);
        return { allowed: true, retryAfterSeconds: 0 };
      },
    };
    const first = setup({ otpSendLimiter: shared });
    const second = setup({ otpSendLimiter: shared });
    await sendOtp(first, await verifiedFlow(first));
    await sendOtp(second, await verifiedFlow(second));
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1], 'the same phone number and order, whichever instance');
    assert.ok(!keys[0]?.includes(PHONE.slice(1)));
  });
});
