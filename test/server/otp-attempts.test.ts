/**
 * Codes tried against the financing OTP are limited: someone who types another person's number on
 * their own order must not guess that person's code until the partner locks it (if it does). Every
 * try is counted before it reaches the gateway, per code sent and per phone number, in limiters
 * every instance shares; past them the endpoint refuses without asking the gateway.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../src/server/config.ts';
import { createMerchantEndpoint } from '../../src/server/endpoint.ts';
import type { RateLimiter } from '../../src/server/rate-limit.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { GATEWAY_ACCOUNT, GOOD_OTP } from './fake-gateway.ts';
import { SHOP_ORIGIN, setup, type Harness } from './harness.ts';

const ORDER = { merchant_reference: 'order-1001', language: 'en' } as const;
const PHONE = '01012345678';
const WRONG = ['111111', '222222', '333333', '444444', '555555', '666666'];

const CODE_LIMITED_EN = 'otp: too many wrong codes were entered for this code; ask for a new code.';
const PHONE_LIMITED_EN = 'otp: too many wrong codes were entered for this phone number; please wait before trying again.';

/** A harness whose partner, like the sandbox, gives each code sent a transaction_id of its own. */
function partnerHarness(overrides: Parameters<typeof setup>[0] = {}): Harness {
  const on = setup(overrides);
  let sent = 0;
  on.gateway.answer('OTP_GENERATE', () => ({
    code: '88000',
    fields: { transaction_id: `TX-${++sent}`, total_down_payment: '50000', otp_status: '1', tenure: '6-12-24' },
  }));
  return on;
}

async function verifiedFlow(on: Harness): Promise<string> {
  const answer = await on.post('/financing/verify-customer', { ...ORDER, phone_number: PHONE });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.flow as string;
}

/** Sends a code (the first, or a new one) with `flow`; answers the otp_sent token. */
async function sendCode(on: Harness, flow: string): Promise<string> {
  const answer = await on.post('/financing/otp', { ...ORDER, flow });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.flow as string;
}

function tryCode(on: Harness, flow: string, otp: string, language: 'en' | 'ar' = 'en') {
  return on.post('/financing/verify-otp', { ...ORDER, language, flow, otp });
}

/** Tries each code and answers the status and error code of each answer. */
async function tryCodes(on: Harness, flow: string, codes: readonly string[]): Promise<string[]> {
  const outcomes: string[] = [];
  for (const otp of codes) {
    const answer = await tryCode(on, flow, otp);
    outcomes.push(`${answer.status} ${answer.body.error?.code ?? ''}`.trim());
  }
  return outcomes;
}

const verifyCalls = (on: Harness) => on.gateway.callsOf('OTP_VERIFY').length;
const limitedLines = (on: Harness) => on.logs.map((line) => JSON.parse(line)).filter((line) => line.event === 'otp_attempts_limited');

describe('codes tried against one code sent', () => {
  it('refuses the fourth wrong code with 429 otp_attempts_limited, naming otp, without asking the gateway', async () => {
    const harness = partnerHarness();
    const flow = await sendCode(harness, await verifiedFlow(harness));
    assert.deepEqual(await tryCodes(harness, flow, WRONG.slice(0, 3)), Array(3).fill('422 gateway_refused'));
    const refused = await tryCode(harness, flow, WRONG[3]!);
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.body.error, { code: 'otp_attempts_limited', message: CODE_LIMITED_EN, field: 'otp', response_code: '93002' });
    assert.equal(refused.headers.get('retry-after'), null, 'a new code frees the tries, not waiting');
    assert.equal(verifyCalls(harness), 3);
    assert.deepEqual(limitedLines(harness).map((line) => line.limit), ['code']);
  });

  it('refuses even the right code once the tries are used up: the limit is a hard cap', async () => {
    const harness = partnerHarness();
    const flow = await sendCode(harness, await verifiedFlow(harness));
    await tryCodes(harness, flow, WRONG.slice(0, 3));
    assert.equal((await tryCode(harness, flow, GOOD_OTP)).status, 429);
    assert.equal(verifyCalls(harness), 3);
  });

  it('counts each try before the gateway answers, so tries sent together cannot race past the limit', async () => {
    const harness = partnerHarness();
    const flow = await sendCode(harness, await verifiedFlow(harness));
    const answers = await Promise.all(WRONG.map((otp) => tryCode(harness, flow, otp)));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [422, 422, 422, 429, 429, 429]);
    assert.equal(verifyCalls(harness), 3);
  });

  it('answers the refusal in Arabic for an Arabic request', async () => {
    const harness = partnerHarness();
    const flow = await sendCode(harness, await verifiedFlow(harness));
    await tryCodes(harness, flow, WRONG.slice(0, 3));
    const refused = await tryCode(harness, flow, WRONG[3]!, 'ar');
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'otp_attempts_limited');
    assert.equal(refused.body.error.field, 'otp');
    assert.equal(refused.body.error.message, 'otp: أُدخلت رموز خاطئة كثيرة لهذا الرمز؛ اطلب رمزًا جديدًا.');
  });

  it('allows tries again with a new code, and the right one is verified', async () => {
    const harness = partnerHarness();
    const first = await sendCode(harness, await verifiedFlow(harness));
    assert.deepEqual(await tryCodes(harness, first, WRONG.slice(0, 4)), [...Array(3).fill('422 gateway_refused'), '429 otp_attempts_limited']);
    const second = await sendCode(harness, first);
    assert.deepEqual(await tryCodes(harness, second, WRONG.slice(0, 2)), ['422 gateway_refused', '422 gateway_refused']);
    assert.equal((await tryCode(harness, second, GOOD_OTP)).status, 200);
    assert.equal(verifyCalls(harness), 6);
  });

  it('keeps the count when an older flow token is replayed: the count is kept by the endpoint, not the token', async () => {
    const harness = partnerHarness();
    const first = await sendCode(harness, await verifiedFlow(harness));
    await tryCodes(harness, first, WRONG.slice(0, 3));
    const second = await sendCode(harness, first);
    assert.equal((await tryCode(harness, first, GOOD_OTP)).status, 429, 'the used-up code stays used up');
    assert.equal((await tryCode(harness, first, WRONG[4]!)).status, 429);
    assert.equal(verifyCalls(harness), 3);
    assert.equal((await tryCode(harness, second, GOOD_OTP)).status, 200);
  });

  it('follows a configured number of tries per code', async () => {
    const harness = partnerHarness({ otpAttemptsPerCode: 1 });
    const flow = await sendCode(harness, await verifiedFlow(harness));
    assert.deepEqual(await tryCodes(harness, flow, WRONG.slice(0, 2)), ['422 gateway_refused', '429 otp_attempts_limited']);
  });
});

describe('codes tried for one phone number', () => {
  it('refuses the eleventh try within the hour across new codes, flows and orders, saying when to try again', async () => {
    const harness = partnerHarness();
    // Four codes in one flow (the first and three resends): 3 + 3 + 3 tries, then the tenth.
    let flow = await sendCode(harness, await verifiedFlow(harness));
    const outcomes = await tryCodes(harness, flow, WRONG.slice(0, 3));
    for (let code = 0; code < 3; code++) {
      flow = await sendCode(harness, flow);
      outcomes.push(...(await tryCodes(harness, flow, code < 2 ? WRONG.slice(0, 3) : WRONG.slice(0, 2))));
    }
    assert.deepEqual(outcomes, [...Array(10).fill('422 gateway_refused'), '429 otp_attempts_limited']);
    const last = await tryCode(harness, flow, GOOD_OTP);
    assert.equal(last.status, 429);
    assert.equal(last.body.error.message, PHONE_LIMITED_EN);
    assert.equal(last.body.error.field, 'otp');
    assert.match(last.headers.get('retry-after') ?? '', /^[1-9]\d*$/);

    // A new flow and a new code do not lift the ceiling.
    const fresh = await sendCode(harness, await verifiedFlow(harness));
    assert.equal((await tryCode(harness, fresh, GOOD_OTP)).status, 429);
    assert.equal(verifyCalls(harness), 10);
    assert.deepEqual(limitedLines(harness).map((line) => line.limit), ['phone', 'phone', 'phone']);
  });

  it('holds across new codes at a configured ceiling, and frees up after the hour', async () => {
    const harness = partnerHarness({ otpAttemptsPerPhone: 4 });
    const first = await sendCode(harness, await verifiedFlow(harness));
    await tryCodes(harness, first, WRONG.slice(0, 3));
    const second = await sendCode(harness, first);
    assert.deepEqual(await tryCodes(harness, second, WRONG.slice(0, 2)), ['422 gateway_refused', '429 otp_attempts_limited']);
    harness.advance(3600_000);
    const later = await sendCode(harness, await verifiedFlow(harness));
    assert.equal((await tryCode(harness, later, GOOD_OTP)).status, 200);
  });

  it('never logs the phone number, and gives shared limiters keys that hold none', async () => {
    const keys: string[] = [];
    const counting: RateLimiter = {
      hit: (key) => {
        keys.push(key);
        return { allowed: true, retryAfterSeconds: 0 };
      },
    };
    const harness = partnerHarness({ otpAttemptLimiter: counting, otpPhoneAttemptLimiter: counting });
    await tryCode(harness, await sendCode(harness, await verifiedFlow(harness)), WRONG[0]!);
    assert.equal(keys.length, 2, 'one key per code, one per phone number');
    assert.ok(keys.every((key) => !key.includes(PHONE.slice(1))));
    assert.ok(!harness.logs.join('\n').includes(PHONE.slice(1)));
  });
});

describe('several instances', () => {
  it('share the count through the store, so tries spread over instances are refused all the same', async () => {
    const store = createMemoryStore();
    const one = partnerHarness({ store });
    const two = partnerHarness({ store });
    const flow = await sendCode(one, await verifiedFlow(one));
    assert.deepEqual(await tryCodes(one, flow, WRONG.slice(0, 2)), ['422 gateway_refused', '422 gateway_refused']);
    assert.deepEqual(await tryCodes(two, flow, WRONG.slice(2, 4)), ['422 gateway_refused', '429 otp_attempts_limited']);
    assert.equal((await tryCode(one, flow, GOOD_OTP)).status, 429);
    assert.equal(verifyCalls(one) + verifyCalls(two), 3);
  });
});

describe('configuring the tries', () => {
  for (const [name, value] of [['otpAttemptsPerCode', 0], ['otpAttemptsPerCode', 1.5], ['otpAttemptsPerPhone', 0]] as const) {
    it(`refuses ${name} ${value}`, () => {
      assert.throws(
        () => createMerchantEndpoint({ ...GATEWAY_ACCOUNT, checkoutUrl: 'https://checkout.gateway.test', publicUrl: SHOP_ORIGIN, resolveOrder: () => undefined, [name]: value }),
        (error) => error instanceof ConfigError && error.message.includes(name),
      );
    });
  }
});
