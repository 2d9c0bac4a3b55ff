/**
 * The gateway's return arrives while the store (the database) is down. The return is the customer's
 * own browser, navigating: it gets a small page in the payment's language, not a JSON error,
 * saying the payment is not confirmed yet and must not be paid again, with 503 and Retry-After and
 * the server pages' strict policy; nothing is recorded, and the same return posted again once the
 * store is back is confirmed as usual. In the element's frame, the framed page the element reads.
 * A caller that asks for JSON still gets the JSON error.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EMBEDDED_CONFIRM_ROUTE, framedResultMessage } from '../../src/core/endpoint-api.ts';
import { parse } from '../../src/core/shape.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { StoreUnavailableError, type Store } from '../../src/store/store.ts';
import { EndpointRefusal } from '../../src/server/errors.ts';
import { BASE_PATH, setup, SHOP_ORIGIN, type Answer, type Harness } from './harness.ts';
import { signedAnswer } from './support/returns.ts';
import { events } from './support/worlds.ts';
import { formAction, hiddenFields } from '../sandbox/support.ts';

/** What a browser's navigation asks for. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** A memory store that fails while `down` is set, as a database behind a cut connection. */
function flakyStore(): { store: Store; outage: { down: boolean } } {
  const inner = createMemoryStore();
  const outage = { down: false };
  const guard = <Part extends object>(part: Part): Part =>
    new Proxy(part, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          outage.down
            ? Promise.reject(new StoreUnavailableError('connection', 'the database connection was lost'))
            : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
  return { outage, store: { ...inner, results: guard(inner.results), watches: guard(inner.watches), orders: guard(inner.orders), limits: guard(inner.limits) } };
}

function world() {
  const { store, outage } = flakyStore();
  return { store, outage, harness: setup({ store, resultLedger: undefined }) };
}

/** The customer's browser posts the gateway's answer to `route` (the return route unless told). */
function browserPost(h: Harness, fields: Record<string, string>, options: { framed?: boolean; accept?: string; route?: string; origin?: string } = {}): Promise<Answer> {
  const route = options.route ?? `/return${options.framed ? '?pg_frame=1' : ''}`;
  return h.send(
    new Request(`${SHOP_ORIGIN}${BASE_PATH}${route}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: options.accept ?? BROWSER_ACCEPT,
        'accept-language': 'en-GB,en;q=0.9',
        ...(options.origin ? { origin: options.origin } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** The hosted page's signed answer: the customer paid order-1001 on the gateway's page. */
function paidReturn(language: 'en' | 'ar' = 'en'): Promise<Record<string, string>> {
  return signedAnswer('14000', { command: 'PURCHASE', merchant_reference: 'order-1001', amount: '250000', currency: 'EGP', svc_id: '1700000001', language });
}

/** The merchant page's signed TOKENIZATION answer: the card became a token, not charged yet. */
function tokenization(fields: Record<string, string> = {}): Promise<Record<string, string>> {
  return signedAnswer('18000', { service_command: 'TOKENIZATION', merchant_reference: 'order-1001', token_name: 'tok-1', merchant_extra1: 'PURCHASE', ...fields });
}

/** The page's Content-Security-Policy, one directive per name. */
function policyOf(answer: Answer): Record<string, string> {
  const policy = answer.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    policy.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

/** The text a customer reads on an HTML page (tags dropped). */
function visibleText(answer: Answer): string {
  return String(answer.body)
    .replace(/<style[^>]*>[^<]*<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

async function recordedCount(store: Store): Promise<number> {
  return (await store.results.list({ state: 'all', limit: 100 })).length;
}

describe('a top-level return while the store is down', () => {
  it('shows the customer a page, not JSON: not confirmed yet, do not pay again (503, Retry-After)', async () => {
    const { harness, outage } = world();
    harness.gateway.holds('order-1001', 'captured');
    outage.down = true;
    const answer = await browserPost(harness, await paidReturn());
    assert.equal(answer.status, 503);
    assert.equal(answer.headers.get('retry-after'), '30');
    assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const html = String(answer.body);
    assert.match(html, /<html lang="en" dir="ltr">/);
    const text = visibleText(answer);
    assert.match(text, /not (been )?confirmed yet/i);
    assert.match(text, /do not pay again/i);
    assert.doesNotMatch(html, /store_unavailable|"error"/, 'no JSON body, no code for a customer to read');
  });

  it('keeps to the strict policy of the other server pages: no script, nothing to load, framed by no one', async () => {
    const { harness, outage } = world();
    harness.gateway.holds('order-1001', 'captured');
    outage.down = true;
    const answer = await browserPost(harness, await paidReturn());
    const policy = policyOf(answer);
    assert.equal(policy['default-src'], "'none'");
    assert.equal(policy['script-src'], undefined, 'no script allowed');
    assert.equal(policy['form-action'], "'none'");
    assert.equal(policy['frame-ancestors'], "'none'");
    assert.equal(policy['base-uri'], "'none'");
    assert.doesNotMatch(String(answer.body), /<script/);
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
  });

  it('speaks the return’s language: Arabic, right to left, whatever the browser’s header says', async () => {
    const { harness, outage } = world();
    harness.gateway.holds('order-1001', 'captured');
    outage.down = true;
    const answer = await browserPost(harness, await paidReturn('ar'));
    assert.equal(answer.status, 503);
    assert.match(String(answer.body), /<html lang="ar" dir="rtl">/);
    assert.match(visibleText(answer), /[\u0600-\u06FF]{3}/);
    assert.doesNotMatch(visibleText(answer), /pay again/i);
  });

  it('records nothing, and the same return posted again once the store is back is confirmed and reported once', async () => {
    const { harness, outage, store } = world();
    harness.gateway.holds('order-1001', 'captured');
    const fields = await paidReturn();
    outage.down = true;
    assert.equal((await browserPost(harness, fields)).status, 503);
    assert.deepEqual(harness.results, [], 'the shop is told nothing');
    outage.down = false;
    assert.equal(await recordedCount(store), 0, 'nothing recorded during the outage');
    const back = await browserPost(harness, fields);
    assert.equal(back.status, 303);
    assert.match(back.headers.get('location') ?? '', /outcome=success/);
    assert.equal(harness.results.length, 1);
  });

  it('charges nothing for a merchant-page card while the charge cannot be watched, and charges it once when the page is posted again', async () => {
    const { harness, outage } = world();
    const fields = await tokenization();
    outage.down = true;
    const answer = await browserPost(harness, fields);
    assert.equal(answer.status, 503);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT').length, 0, 'no charge without its watch');
    outage.down = false;
    const again = await browserPost(harness, fields);
    assert.match(again.headers.get('location') ?? '', /outcome=success/);
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT').length, 1);
  });

  it('tells a customer saving a card that nothing was charged, rather than not to pay again', async () => {
    const { harness, outage } = world();
    harness.gateway.keepsToken('tok-1');
    outage.down = true;
    const answer = await browserPost(harness, await tokenization({ merchant_extra1: 'SAVE_CARD', remember_me: 'YES' }));
    assert.equal(answer.status, 503);
    const text = visibleText(answer);
    assert.match(text, /card not confirmed yet/i);
    assert.match(text, /nothing was charged/i);
    assert.doesNotMatch(text, /pay again/i);
  });

  it('still answers JSON to a caller that asked for JSON', async () => {
    const { harness, outage } = world();
    harness.gateway.holds('order-1001', 'captured');
    outage.down = true;
    const answer = await browserPost(harness, await paidReturn(), { accept: 'application/json' });
    assert.equal(answer.status, 503);
    assert.equal(answer.headers.get('retry-after'), '30');
    assert.equal(answer.body.error.code, 'store_unavailable');
  });
});

describe('a framed return while the store is down', () => {
  it('tells the element the payment is not confirmed yet (pending, store_unavailable), in the return’s language', async () => {
    const { harness, outage, store } = world();
    harness.gateway.holds('order-1001', 'captured');
    outage.down = true;
    const answer = await browserPost(harness, await paidReturn('ar'), { framed: true });
    assert.equal(answer.status, 503);
    assert.equal(answer.headers.get('retry-after'), '30');
    const match = /<script type="application\/json" id="pg-message">([^<]*)<\/script>/.exec(String(answer.body));
    assert.ok(match, 'a framed page');
    const message = parse(framedResultMessage, JSON.parse(match[1] ?? 'null'));
    assert.equal(message.outcome, 'pending', 'never a failure the customer would pay again after');
    assert.equal(message.error, 'store_unavailable');
    assert.equal(message.merchant_reference, 'order-1001');
    assert.match(message.message, /[\u0600-\u06FF]{3}/);
    assert.match(String(answer.body), /<html lang="ar" dir="rtl">/);
    assert.equal(policyOf(answer)['frame-ancestors'], `${SHOP_ORIGIN} https://elements.example`);
    outage.down = false;
    assert.equal(await recordedCount(store), 0);
  });

  it('tells the element the same when its Pay button’s confirmation meets the outage, and charges nothing', async () => {
    const { harness, outage } = world();
    const ready = String((await browserPost(harness, await tokenization({ merchant_extra4: 'ELEMENT' }), { framed: true })).body);
    assert.equal(new URL(formAction(ready, 'pg-confirm'), SHOP_ORIGIN).pathname, `${BASE_PATH}${EMBEDDED_CONFIRM_ROUTE}`);
    outage.down = true;
    const answer = await browserPost(harness, hiddenFields(ready, 'pg-confirm'), { route: EMBEDDED_CONFIRM_ROUTE, origin: SHOP_ORIGIN });
    assert.equal(answer.status, 503);
    const match = /<script type="application\/json" id="pg-message">([^<]*)<\/script>/.exec(String(answer.body));
    assert.ok(match, 'a framed page');
    const message = parse(framedResultMessage, JSON.parse(match[1] ?? 'null'));
    assert.deepEqual([message.outcome, message.error], ['pending', 'store_unavailable']);
    assert.equal(harness.gateway.callsOf('TOKEN_PAYMENT').length, 0);
  });
});

describe('a top-level return while the shop\'s order lookup fails, or the endpoint itself', () => {
  it('shows the same page when the shop cannot say what the order is (503), and records nothing', async () => {
    const { store } = world();
    const lookupDown = setup({ store, resultLedger: undefined, resolveOrder: () => Promise.reject(new EndpointRefusal('order_lookup_failed')) });
    lookupDown.gateway.holds('order-1001', 'captured');
    const answer = await browserPost(lookupDown, await paidReturn());
    assert.equal(answer.status, 503);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(visibleText(answer), /do not pay again/i);
    assert.equal(await recordedCount(store), 0);
  });

  it('shows the page, not a JSON error, when the endpoint fails on its own (500), and logs the fault', async () => {
    const failing = setup({ resolveOrder: () => Promise.reject(new TypeError('a bug')) });
    failing.gateway.holds('order-1001', 'captured');
    const answer = await browserPost(failing, await paidReturn('ar'));
    assert.equal(answer.status, 500);
    assert.match(String(answer.body), /<html lang="ar" dir="rtl">/);
    assert.equal(events(failing.logs, 'internal_error').length, 1);
  });
});
