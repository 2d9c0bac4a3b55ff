/**
 * The first screen the shop's server writes into its page (`POST {endpoint}/first-screen`): a
 * `<pg-checkout>` whose declarative shadow root already holds a card form a browser can pay with
 * before, or without, any script, against the project's sandbox gateway.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserPost, decode, returnForm, SANDBOX, SHOP, shop } from './support/sandbox-shop.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { firstScreenHtml } from '../../src/server/index.ts';

/** The form of the first screen as a browser would post it: its action, hidden fields and the names of its inputs. */
function formOf(html: string): { action: string; hidden: Record<string, string>; inputs: string[] } {
  const action = /<form class="pay-form" method="post" action="([^"]*)"/.exec(html)?.[1];
  assert.ok(action, 'a form that posts without a script');
  const hidden: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) hidden[decode(match[1] ?? '')] = decode(match[2] ?? '');
  const inputs = [...html.matchAll(/<input id="[^"]*" name="([^"]*)"/g)].map((match) => match[1] ?? '');
  return { action: decode(action), hidden, inputs };
}

const ASK = { merchant_reference: 'shop-1', language: 'en', endpoint: '/pg' } as const;

describe('the first screen written by the shop server', () => {
  it('is a card form a browser pays with and no script: the card goes to the gateway, the return completes and records the payment', async () => {
    const { endpoint, gateway, results, post } = shop();
    const answer = await post('/first-screen', { ...ASK, mode: 'drop-in', methods: ['card', 'voucher'] });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const html: string = answer.body.html;
    assert.match(html, /^<pg-checkout mode="drop-in" methods="card voucher" endpoint="\/pg" merchant-reference="shop-1" language="en"><template shadowrootmode="open">/);
    assert.match(html, /<button type="submit" class="Pay" part="Pay">Pay <bdi dir="ltr" class="ltr">EGP\s2,500\.00<\/bdi><\/button>/);
    assert.match(html, /value="voucher" disabled>/, 'the other methods wait for the script');

    const form = formOf(html);
    assert.equal(form.action, `${SANDBOX}/FortAPI/paymentPage`);
    assert.deepEqual(form.inputs, ['card_number', 'expiry_date', 'card_security_code', 'card_holder_name', 'remember_me'], 'the gateway\'s own field names');
    assert.equal(form.hidden['service_command'], 'TOKENIZATION');
    assert.equal(form.hidden['return_url'], `${SHOP}/pg/return`, 'not framed: the return lands at the top level');
    assert.equal(form.hidden['merchant_extra5'], '250000 EGP', 'the amount the button names binds the charge');
    // The browser's own check of the expiry, with no script: the gateway's YYMM, a month 01 to 12.
    const expiry = new RegExp(`^(?:${decode(/name="expiry_date"[^>]* pattern="([^"]+)"/.exec(html)?.[1] ?? '')})$`, 'v');
    assert.deepEqual(['3012', '2713', '12/30', '301'].map((typed) => expiry.test(typed)), [true, false, false, false]);

    const card = { card_number: testCard('success').number, expiry_date: '3012', card_security_code: '123', card_holder_name: 'Mona Hassan' };
    const back = returnForm(await (await browserPost(gateway, form.action, { ...form.hidden, ...card })).text());
    const landed = await browserPost({ handle: (request) => endpoint(request) }, back.action, back.fields);
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.get('location'), `${SHOP}/result?merchant_reference=shop-1&outcome=success&response_code=14000`);
    assert.equal(results.length, 1);
    assert.equal(gateway.order({ merchantReference: 'shop-1' })?.capturedAmount, 250_000);
  });

  it('charges nothing more when its form is posted again after it paid (the page back from the back-forward cache, another card typed)', async () => {
    const { endpoint, gateway, results, post } = shop();
    const answer = await post('/first-screen', ASK);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const form = formOf(answer.body.html);
    const pay = async (card: Record<string, string>) => {
      const back = returnForm(await (await browserPost(gateway, form.action, { ...form.hidden, ...card })).text());
      return browserPost({ handle: (request) => endpoint(request) }, back.action, back.fields);
    };
    const first = await pay({ card_number: testCard('success').number, expiry_date: '3012', card_security_code: '123', card_holder_name: 'Mona Hassan' });
    assert.equal(first.headers.get('location'), `${SHOP}/result?merchant_reference=shop-1&outcome=success&response_code=14000`);
    const again = await pay({ card_number: testCard('success', 'MASTERCARD').number, expiry_date: '3111', card_security_code: '456', card_holder_name: 'Mona Hassan' });
    assert.equal(again.status, 303);
    assert.match(again.headers.get('location') ?? '', /merchant_reference=shop-1&outcome=success/, 'the order still reads paid');
    assert.equal(gateway.order({ merchantReference: 'shop-1' })?.capturedAmount, 250_000, 'charged once');
    assert.equal(results.length, 1, 'one result for the shop');
  });

  it('is written right to left in Arabic, with the amount in Arabic digits', async () => {
    const { post } = shop();
    const answer = await post('/first-screen', { ...ASK, language: 'ar' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const html: string = answer.body.html;
    assert.match(html, /<pg-checkout mode="merchant-page" endpoint="\/pg" merchant-reference="shop-1" language="ar">/);
    assert.match(html, /<div class="frame" part="frame" dir="rtl" lang="ar" data-pg-first-screen>/);
    assert.match(html, /ادفع <bdi dir="ltr" class="ltr">[^<]*٢٬٥٠٠/);
    assert.match(html, /السنة ثم الشهر/, 'the expiry field says how the gateway takes it');
    assert.doesNotMatch(html, /class="methods"/, 'no methods outside a drop-in');
  });

  it('gives the element the order token the shop server passed on, and the page\'s style nonce', async () => {
    const { post } = shop();
    const answer = await post('/first-screen', { ...ASK, style_nonce: 'r4nd0m', hide_remember_me: true }, { 'pg-order-token': 'tok-1' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.match(answer.body.html, / order-token="tok-1"/);
    assert.match(answer.body.html, / hide-remember-me>/);
    assert.match(answer.body.html, /<style nonce="r4nd0m">@layer pg\{/);
    assert.doesNotMatch(answer.body.html, /remember_me/);
  });

  it('writes what the shop named as text, never as markup', async () => {
    const { post } = shop();
    const answer = await post('/first-screen', { ...ASK, endpoint: '/pg"><script>alert(1)</script>', theme_href: '/t.css"><b>' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.doesNotMatch(answer.body.html, /<script>|<b>/);
    assert.match(answer.body.html, /endpoint="\/pg&quot;&gt;&lt;script&gt;/);
  });

  it('leaves the security code optional when the account suppresses it', async () => {
    const { post } = shop({ settings: { cvvSuppression: true } });
    const answer = await post('/first-screen', ASK);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.match(answer.body.html, /<input id="card-cvv" name="card_security_code" type="text" inputmode="numeric" autocomplete="cc-csc" dir="ltr" pattern=/);
    assert.match(answer.body.html, /<input id="card-number" [^>]* required /);
  });

  it('refuses, naming the field in the request\'s language, what it cannot write', async () => {
    const { post } = shop();
    const notCardFirst = await post('/first-screen', { ...ASK, language: 'ar', mode: 'drop-in', methods: ['voucher', 'card'] });
    assert.equal(notCardFirst.status, 400);
    assert.equal(notCardFirst.body.error.field, 'methods');
    assert.match(notCardFirst.body.error.message, /البطاقة/);
    const methodsOutsideDropIn = await post('/first-screen', { ...ASK, methods: ['card'] });
    assert.equal(methodsOutsideDropIn.body.error.field, 'methods');
    const noEndpoint = await post('/first-screen', { merchant_reference: 'shop-1', language: 'en' });
    assert.deepEqual([noEndpoint.status, noEndpoint.body.error.field], [400, 'endpoint']);
    const unknown = await post('/first-screen', { ...ASK, merchant_reference: 'no-such-order' });
    assert.equal(unknown.body.error.code, 'unknown_order');
    const signing = await post('/first-screen', { ...ASK, signature: 'x' });
    assert.deepEqual([signing.status, signing.body.error.field], [400, 'signature']);
    // Written into the page as the element's attributes: a path or an http(s) URL, nothing a browser would run.
    for (const [field, value] of [['endpoint', 'javascript:alert(1)'], ['endpoint', '//elsewhere.example/pg'], ['theme_href', 'data:text/css,x']] as const) {
      const unsafe = await post('/first-screen', { ...ASK, [field]: value });
      assert.deepEqual([unsafe.status, unsafe.body.error.field], [400, field], value);
      assert.doesNotMatch(JSON.stringify(unsafe.body), /<pg-checkout/);
    }
    const absolute = await post('/first-screen', { ...ASK, endpoint: 'https://pay.shop.example/pg', theme_href: '/themes/dark.css' });
    assert.equal(absolute.status, 200);
  });

  it('is asked for by a Node shop with firstScreenHtml, as the customer whose page it writes', async () => {
    const { endpoint } = shop();
    const seen: Request[] = [];
    const asked = (request: Request) => {
      seen.push(request.clone());
      return endpoint(request);
    };
    const customer = new Request(`${SHOP}/checkout`, { headers: { cookie: 'session=abc', 'pg-order-token': 'tok-9', 'user-agent': 'phone' } });
    const options = { endpointUrl: `${SHOP}/pg/`, endpoint: '/pg', merchantReference: 'shop-2', language: 'ar', mode: 'drop-in', methods: ['card'] } as const;
    const html = await firstScreenHtml(asked, customer, options);
    assert.match(html, /^<pg-checkout mode="drop-in" methods="card" endpoint="\/pg" merchant-reference="shop-2" language="ar" order-token="tok-9">/);
    assert.equal(seen[0]?.url, `${SHOP}/pg/first-screen`);
    assert.deepEqual([seen[0]?.headers.get('cookie'), seen[0]?.headers.get('user-agent')], ['session=abc', null], 'the customer\'s cookie and token, nothing else');

    await assert.rejects(firstScreenHtml(asked, customer, { ...options, merchantReference: 'nobody' }), { code: 'unknown_order' });
    const silent = () => new Promise<Response>(() => {});
    await assert.rejects(firstScreenHtml(silent, customer, { ...options, timeoutMs: 50 }), { code: 'timeout' }, 'the page is not held up');
  });
});

