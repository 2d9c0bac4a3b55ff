/**
 * The standalone service's own result page, as the customer the gateway returned reads it: the
 * outcome in their language (never the gateway's English message, never raw fields or minor
 * units), what to do next, and the gateway's own words only behind a disclosure for developers.
 * Still nothing of an order without the proof the return signed into its redirect.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { VerifiedResult } from '../../src/core/verified-result.ts';
import { createResultPage } from '../../src/server/result-page.ts';
import { createResultProofs } from '../../src/server/result-proof.ts';

const REFERENCE = 'shop-3001';

function declined(overrides: Partial<VerifiedResult> = {}): VerifiedResult {
  return {
    merchant_reference: REFERENCE,
    outcome: 'failure',
    response_code: '13001',
    response_message: 'Transaction declined',
    status: '13',
    svc_id: '1700000001',
    amount: 1284850,
    currency: 'EGP',
    source: 'return',
    kind: 'payment',
    idempotency_key: `${REFERENCE}:1700000001:declined`,
    order_state: 'declined',
    gateway: { card_number: '411111******1111', return_url: 'http://127.0.0.1:5173/pg/return', language: 'en', amount: '1284850' },
    ...overrides,
  } as VerifiedResult;
}

interface PageOptions {
  /** No proof at all (false); by default one for the order, covering `refusal` when given. */
  readonly proof?: boolean;
  /** The refused return's code, signed into the proof. */
  readonly refusal?: string;
  /** The `error` the query string claims (default: `refusal`). */
  readonly error?: string;
}

async function pageFor(result: VerifiedResult | undefined, options: PageOptions = {}): Promise<string> {
  const proofs = createResultProofs({ requestPhrase: 'phrase', merchantIdentifier: 'merchant', now: () => new Date('2026-11-26T10:00:00Z') });
  const handle = createResultPage({
    results: { latestFor: async (reference) => (reference === REFERENCE ? result : undefined) },
    proofs,
    basePath: '',
    shopUrl: 'http://shop.test/',
  });
  const url = new URL('http://service.test/result');
  url.searchParams.set('merchant_reference', REFERENCE);
  const error = options.error ?? options.refusal;
  if (error !== undefined) {
    url.searchParams.set('outcome', 'failure');
    url.searchParams.set('error', error);
  }
  if (options.proof !== false) url.searchParams.set('proof', await proofs.issue(REFERENCE, options.refusal));
  const response = await handle(new Request(url, { headers: { 'accept-language': 'en' } }));
  assert.ok(response);
  return response.text();
}

/** The page without its developer disclosure: what the customer reads at a glance. */
function customerPart(html: string): string {
  return html.replace(/<details>[\s\S]*<\/details>/, '');
}

describe('the service’s result page after a decline', () => {
  it('says the payment was declined, why, and what to do next, in the payment’s language', async () => {
    const html = await pageFor(declined({ gateway: { ...declined().gateway, language: 'ar' } }));
    assert.match(html, /<html lang="ar" dir="rtl">/);
    assert.match(html, /<h1>تم رفض الدفع<\/h1>/);
    assert.match(html, /<p class="reason">تم رفض العملية<\/p>/);
    assert.match(html, /جرّب بطاقة أخرى أو اتصل بالبنك/);
    assert.ok(!customerPart(html).includes('Transaction declined'), 'the gateway’s English message is not the customer’s');
  });

  it('shows the amount as people write it, never in minor units', async () => {
    const html = customerPart(await pageFor(declined()));
    assert.match(html, /<dt>Amount<\/dt><dd><bdi>EGP\u00a012,848\.50<\/bdi><\/dd>/);
    assert.ok(!html.includes('1284850'));
  });

  it('keeps the masked card number and the reference as left-to-right islands', async () => {
    const html = customerPart(await pageFor(declined({ gateway: { ...declined().gateway, language: 'ar' } })));
    assert.match(html, /<dt>البطاقة<\/dt><dd><bdi dir="ltr">411111\*\*\*\*\*\*1111<\/bdi><\/dd>/);
    assert.match(html, new RegExp(`<dt>الطلب</dt><dd><bdi dir="ltr">${REFERENCE}</bdi></dd>`));
  });

  it('keeps the gateway’s own words behind a disclosure for developers', async () => {
    const html = await pageFor(declined());
    const details = /<details><summary>Details for developers<\/summary>([\s\S]*)<\/details>/.exec(html)?.[1] ?? '';
    assert.match(details, /<dt>response_code<\/dt><dd><bdi dir="ltr">13001<\/bdi><\/dd>/);
    assert.match(details, /<dt>response_message<\/dt><dd><bdi dir="ltr">Transaction declined<\/bdi><\/dd>/);
    assert.ok(!html.includes('{'), 'no raw JSON anywhere');
  });

  it('leads back to the shop', async () => {
    assert.match(await pageFor(declined()), /<p class="actions"><a href="http:\/\/shop\.test\/">Back to the shop<\/a><\/p>/);
  });
});

describe('the service’s result page for other outcomes', () => {
  it('says a saved card was saved and nothing was charged, with no amount', async () => {
    const html = await pageFor(
      declined({ outcome: 'success', response_code: '18000', response_message: 'Success', status: '18', kind: 'saved_card', source: 'save-card', order_state: 'not_found' }),
    );
    assert.match(html, /<h1>Card saved — nothing was charged<\/h1>/);
    assert.ok(!customerPart(html).includes('Amount'));
  });

  it('says a payment the customer cancelled on the gateway’s page was cancelled', async () => {
    const html = await pageFor(declined({ response_code: '00072', response_message: 'Transaction canceled by user', status: '00' }));
    assert.match(html, /<h1>Payment cancelled<\/h1>/);
    assert.match(html, /nothing was charged/);
  });

  it('still shows nothing of the order without the return’s proof', async () => {
    const html = await pageFor(declined(), { proof: false });
    assert.match(html, /<main data-outcome="private">/);
    assert.ok(!/declined|12,848|411111|shop-3001|<details>/i.test(html));
  });
});

describe('the service’s result page after a refused return', () => {
  it('says why the card was not charged, not the order’s earlier decline', async () => {
    const html = customerPart(await pageFor(declined({ gateway: { ...declined().gateway, language: 'ar' } }), { refusal: 'card_attempts_limited' }));
    assert.match(html, /<main data-outcome="unconfirmed">/);
    assert.match(html, /<h1>لم يتم تأكيد الدفع<\/h1>/);
    assert.match(html, /<p class="reason">جُرّبت بطاقات كثيرة لهذا الطلب؛ يرجى الانتظار قبل المحاولة مرة أخرى.<\/p>/);
    assert.ok(!html.includes('تم رفض'), 'not the earlier decline');
    assert.match(html, new RegExp(`<bdi dir="ltr">${REFERENCE}</bdi>`));
  });

  it('says why in the browser’s language when the order has no result yet', async () => {
    const html = await pageFor(undefined, { refusal: 'amount_mismatch' });
    assert.match(html, /<h1>Payment not confirmed<\/h1>/);
    assert.match(html, /<p class="reason">[^<]*amount[^<]*<\/p>/i);
  });

  it('still shows a paid order as paid', async () => {
    const paid = declined({ outcome: 'success', response_code: '14000', response_message: 'Success', status: '14', order_state: 'captured' });
    const html = await pageFor(paid, { refusal: 'card_attempts_limited' });
    assert.match(html, /<main data-outcome="success">/);
    assert.ok(!html.includes('Too many cards'));
  });

  it('believes no reason the proof does not cover: another code shows nothing of the order', async () => {
    const html = await pageFor(declined(), { refusal: 'card_attempts_limited', error: 'amount_mismatch' });
    assert.match(html, /<main data-outcome="private">/);
    assert.ok(!/amount|declined|shop-3001/i.test(customerPart(html)));
  });

  it('gives no reason for a code typed beside a proof of the order alone', async () => {
    const html = await pageFor(declined(), { error: 'card_attempts_limited' });
    assert.match(html, /<main data-outcome="failure">/);
    assert.ok(!html.includes('Too many cards'));
    assert.match(html, /<h1>Payment declined<\/h1>/);
  });
});
