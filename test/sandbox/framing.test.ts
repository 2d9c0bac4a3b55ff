/**
 * The sandbox's pages in a merchant's frame: the card page (hosted payment, and the TOKENIZATION
 * page with no card fields that the element embeds), the 3-D Secure challenge page and the return
 * page say in their headers who may frame them (the origin of the request's return_url and the
 * account's framing origins, never `*`, and no X-Frame-Options), and report their height to those
 * origins only.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { merchantDirectory, SANDBOX_MERCHANT, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { testCard } from '../../src/sandbox/test-cards.ts';
import {
  answerChallenge,
  api,
  FUTURE_EXPIRY,
  hostedFields,
  payOnHostedPage,
  postForm,
  RETURN_URL,
  returnedAnswer,
  rig,
  sessionOf,
  signed,
} from './support.ts';

const SHOP = new URL(RETURN_URL).origin;
const EMBEDDING_SHOP = 'https://shop.example';
const FRAMED_MERCHANT: SandboxMerchant = { ...SANDBOX_MERCHANT, framingOrigins: [EMBEDDING_SHOP] };

function frameAncestors(response: Response): string[] {
  const policy = response.headers.get('content-security-policy') ?? '';
  const directive = policy.split(';').map((part) => part.trim()).find((part) => part.startsWith('frame-ancestors '));
  assert.ok(directive, `a frame-ancestors directive in: ${policy}`);
  return directive.split(/\s+/).slice(1);
}

/** The origins a page reports its height to (its JSON block). */
function heightTargets(html: string): string[] {
  const match = /<script type="application\/json" id="pg-frame-origins">([^<]*)<\/script>/.exec(html);
  assert.ok(match, 'the page carries its framing origins');
  return JSON.parse(match[1] ?? '[]') as string[];
}

/** The embedded page's form: TOKENIZATION with no card fields, signed as the endpoint signs it. */
function embeddedTokenization(overrides: Record<string, unknown> = {}) {
  return signed(
    {
      service_command: 'TOKENIZATION',
      merchant_reference: 'order-embedded',
      language: 'en',
      return_url: `${RETURN_URL}?pg_frame=1`,
      merchant_extra1: 'PURCHASE',
      ...overrides,
    },
    { merchantPage: true },
  );
}

describe('the sandbox pages in a frame', () => {
  it('lets the origin of return_url frame the hosted card page, and no one else', async () => {
    const { gateway } = rig();
    const response = await postForm(gateway, gateway.paths.paymentPage, await hostedFields());
    assert.deepEqual(frameAncestors(response), [SHOP]);
    assert.equal(response.headers.get('x-frame-options'), null);
    assert.deepEqual(heightTargets(await response.text()), [SHOP]);
  });

  it('adds the account’s framing origins, never *', async () => {
    const { gateway } = rig({ merchants: [FRAMED_MERCHANT] });
    const response = await postForm(gateway, gateway.paths.paymentPage, await embeddedTokenization());
    assert.equal(response.status, 200);
    const ancestors = frameAncestors(response);
    assert.deepEqual(ancestors, [SHOP, EMBEDDING_SHOP]);
    assert.ok(!ancestors.includes('*'));
    const html = await response.text();
    assert.deepEqual(heightTargets(html), [SHOP, EMBEDDING_SHOP]);
    assert.match(html, /<button type="submit" id="pay" class="Pay">Continue<\/button>/, 'the card page of a tokenization');
  });

  it('refuses an account whose framing origins are not origins', () => {
    for (const origin of ['*', 'https://shop.example/', 'shop.example', 'https://*.shop.example']) {
      assert.throws(() => merchantDirectory([{ ...SANDBOX_MERCHANT, framingOrigins: [origin] }]), /framing origin/);
    }
  });

  it('frames the return page and the 3-D Secure challenge page the same way', async () => {
    const { gateway } = rig({ merchants: [FRAMED_MERCHANT] });
    const challenged = await payOnHostedPage(gateway, await hostedFields(), { card_number: testCard('3ds').number });
    assert.equal(challenged.status, 303);
    const page = await gateway.handle(new Request(challenged.headers.get('location') ?? ''));
    assert.deepEqual(frameAncestors(page), [SHOP, EMBEDDING_SHOP]);
    assert.deepEqual(heightTargets(await page.text()), [SHOP, EMBEDDING_SHOP]);

    const back = await answerChallenge(gateway, challenged.headers.get('location') ?? '', 'approve');
    assert.deepEqual(frameAncestors(back), [SHOP, EMBEDDING_SHOP]);
  });

  it('frames the challenge of a token payment (the merchant page completion) by that payment’s return_url', async () => {
    const { gateway } = rig({ merchants: [FRAMED_MERCHANT] });
    const page = await postForm(gateway, gateway.paths.paymentPage, await embeddedTokenization());
    const token = await returnedAnswer(
      await postForm(gateway, gateway.paths.pageSubmit, {
        session: sessionOf(await page.text()),
        card_number: testCard('3ds').number,
        expiry_date: FUTURE_EXPIRY.typed,
        card_security_code: '123',
      }),
      `${RETURN_URL}?pg_frame=1`,
    );
    const completion = await api(gateway, {
      command: 'PURCHASE',
      merchant_reference: 'order-embedded',
      amount: '250000',
      currency: 'EGP',
      language: 'en',
      customer_email: 'buyer@example.com',
      customer_ip: '198.51.100.7',
      eci: 'ECOMMERCE',
      token_name: token['token_name'],
      return_url: 'https://other-shop.example/pg/return?pg_frame=1',
    });
    assert.equal(completion['response_code'], '20000');
    const challenge = await gateway.handle(new Request(String(completion['3ds_url'])));
    assert.deepEqual(frameAncestors(challenge), ['https://other-shop.example', EMBEDDING_SHOP]);
  });
});

describe('the TOKENIZATION page with no card fields (the embedded page)', () => {
  async function saveOnPage(merchantOverrides: Partial<SandboxMerchant>, fields: Record<string, unknown>) {
    const { gateway } = rig({ merchants: [{ ...SANDBOX_MERCHANT, ...merchantOverrides }] });
    const page = await postForm(gateway, gateway.paths.paymentPage, { ...(await embeddedTokenization({ merchant_extra1: 'SAVE_CARD' })), ...fields });
    assert.equal(page.status, 200, 'the card page opens');
    const answer = await returnedAnswer(
      await postForm(gateway, gateway.paths.pageSubmit, {
        session: sessionOf(await page.text()),
        card_number: testCard('success').number,
        expiry_date: FUTURE_EXPIRY.typed,
        card_security_code: '123',
      }),
      `${RETURN_URL}?pg_frame=1`,
    );
    return { gateway, answer };
  }

  it('asks to save the card when the form carries remember_me YES', async () => {
    const { gateway } = rig();
    const page = await postForm(gateway, gateway.paths.paymentPage, { ...(await embeddedTokenization({ merchant_extra1: 'SAVE_CARD' })), remember_me: 'YES' });
    const html = await page.text();
    assert.match(html, /<title>Save your card<\/title>/);
    assert.match(html, /<button type="submit" id="pay" class="Pay">Save card<\/button>/);
  });

  it('keeps the token when the form carries remember_me YES (unsigned, as the official plugins send it)', async () => {
    const { gateway, answer } = await saveOnPage({}, { remember_me: 'YES' });
    assert.equal(answer['response_code'], '18000');
    assert.equal(answer['remember_me'], 'YES');
    const [token] = gateway.tokens();
    assert.equal(token?.tokenName, answer['token_name']);
    assert.equal(token?.temporary, false);
    assert.deepEqual(gateway.orders(), [], 'nothing is charged');
  });

  it('gives a temporary token without remember_me, or on an account without tokenization', async () => {
    for (const [overrides, fields] of [
      [{}, {}],
      [{ services: { tokenization: false } }, { remember_me: 'YES' }],
    ] as const) {
      const { gateway } = await saveOnPage(overrides, fields);
      assert.equal(gateway.tokens()[0]?.temporary, true);
    }
  });
});
