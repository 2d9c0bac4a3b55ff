/**
 * The reconciler checks what the gateway took against the merchant's order as it stands when the
 * payment shows up (its `orderOf` lookup), not only against the amount its watch kept when the
 * form was signed: an order whose amount changed afterwards without a new form (a back-office edit
 * of the cart) and whose old form is paid by a customer who never comes back is reported as the
 * return would report it, a failure (`amount_mismatch`). When the lookup fails (the shop down, the
 * order unknown) the watch's amount is compared, as before, and the failed lookup is logged.
 *
 * Over the sandbox (the library's reconciler, with the shop's own orders), then over the fake
 * gateway for the lookup's edge cases, then `pg-checkout serve` asking the shop's order lookup.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createJsonLogger } from '../../src/log/logger.ts';
import { EndpointRefusal } from '../../src/server/errors.ts';
import { signHookBody } from '../../src/server/hook-signature.ts';
import type { MerchantOrder } from '../../src/server/orders.ts';
import { serve, type RunningServer } from '../../src/server/serve.ts';
import type { OrderLookupRequest } from '../../src/server/shop-protocol.ts';
import { DEFAULT_WATCH_SETTINGS, formWatch, moneyCallWatch } from '../../src/server/watches.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import { GATEWAY_BASE_URL, GATEWAY_ENV, createFakeGateway } from './fake-gateway.ts';
import { HOOK_SECRET } from './fake-shop.ts';
import { START } from './harness.ts';
import { events, MINUTE, reconcilerWorld, SANDBOX_START, sandboxWorld, summary } from './support/worlds.ts';

// ---- Over the sandbox: the library's reconciler given the shop's orders ----

describe('an order changed after its form was signed, the old form paid and no return (sandbox)', () => {
  const cart = (amount: number): MerchantOrder => ({ merchant_reference: 'cart-91', amount, currency: 'EGP', description: 'cart' });

  it('is reported by the reconciler as the return reports it: a failure (amount_mismatch) against the order as it is now', async () => {
    const w = sandboxWorld([cart(10_000)], { orderLookup: true });
    const form = await w.post('/hosted-page', { merchant_reference: 'cart-91', language: 'en', command: 'PURCHASE' });
    assert.equal(form.body.fields['amount'], '10000');
    // The cart is edited in the back office: no new form is signed, the watch still says 10,000.
    w.shop.add(cart(500_000));
    assert.equal((await w.store.watches.get('cart-91'))?.amount, 10_000);
    const ret = await w.payForm(form.body);
    assert.equal(ret.fields['response_code'], '14000');

    w.clock.set(new Date(Date.parse(SANDBOX_START) + 31 * MINUTE));
    const round = await w.reconciler.runDue();
    assert.equal(round.reported, 1);
    assert.deepEqual(summary(w.results[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.deepEqual(w.lookedUp, ['cart-91']);
    assert.equal(w.shop.resolve('cart-91')?.paid, undefined, 'the shop does not mark the order paid');

    // The customer's return, had it come, says the same: the result already recorded.
    const query = await w.toEndpoint(ret.action, ret.fields);
    assert.equal(query.get('outcome'), 'failure');
    assert.equal(w.results.length, 1);
  });

  it('compares the watch\'s amount, as before, when the reconciler is given no lookup', async () => {
    const w = sandboxWorld([cart(10_000)], { orderLookup: false });
    const form = await w.post('/hosted-page', { merchant_reference: 'cart-91', language: 'en', command: 'PURCHASE' });
    w.shop.add(cart(500_000));
    await w.payForm(form.body);
    w.clock.set(new Date(Date.parse(SANDBOX_START) + 31 * MINUTE));
    await w.reconciler.runDue();
    assert.deepEqual(summary(w.results[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 10_000, currency: 'EGP' });
  });

  it('reports the form paid at the order\'s unchanged amount as paid', async () => {
    const w = sandboxWorld([cart(10_000)], { orderLookup: true });
    const form = await w.post('/hosted-page', { merchant_reference: 'cart-91', language: 'en', command: 'PURCHASE' });
    await w.payForm(form.body);
    w.clock.set(new Date(Date.parse(SANDBOX_START) + 31 * MINUTE));
    await w.reconciler.runDue();
    assert.deepEqual(summary(w.results[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 10_000, currency: 'EGP' });
    assert.equal(w.shop.resolve('cart-91')?.paid, true);
  });
});

// ---- Over the fake gateway: the lookup's edge cases ----

const basis = (reference = 'order-1001', amount: number | null = 10_000, currency = 'EGP') => ({
  merchant_reference: reference,
  ...(amount === null ? {} : { amount }),
  currency,
  language: 'en' as const,
});

const order = (amount: number, currency = 'EGP'): MerchantOrder => ({ merchant_reference: 'order-1001', amount, currency });

describe('the reconciler with the merchant\'s order lookup', () => {
  it('looks up a later attempt\'s payment (.pg2) under the order\'s reference, and compares with that order', async () => {
    const asked: string[] = [];
    const w = reconcilerWorld({
      orderOf: (reference) => {
        asked.push(reference);
        return order(500_000);
      },
    });
    await w.watch(formWatch(basis('order-1001.pg2'), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001.pg2', 'captured', { svcId: '1700000031', amount: 10_000 });
    await w.round();
    assert.deepEqual(asked, ['order-1001']);
    const [result] = w.reported;
    assert.deepEqual(summary(result), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.equal(result?.merchant_reference, 'order-1001');
    assert.equal(result?.payment_reference, 'order-1001.pg2');
  });

  it('is paid when the gateway took the order\'s current amount, though the watch kept another', async () => {
    const w = reconcilerWorld({ orderOf: () => order(500_000) });
    await w.watch(formWatch(basis(), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000032', amount: 500_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'captured', error: undefined, amount: 500_000, currency: 'EGP' });
  });

  it('compares the watch\'s amount when the lookup fails, logs it, and keeps watching', async () => {
    const w = reconcilerWorld({
      orderOf: () => {
        throw new EndpointRefusal('order_lookup_failed');
      },
    });
    await w.watch(formWatch(basis(), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'authorized', { svcId: '1700000033', amount: 10_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'success', order_state: 'authorized', error: undefined, amount: 10_000, currency: 'EGP' });
    assert.deepEqual(
      events(w.logs, 'reconcile_order_lookup_failed').map((line) => [line['merchant_reference'], line['reason']]),
      [['order-1001', 'order_lookup_failed']],
    );
    // The hold is watched on, as for any authorization.
    assert.equal((await w.store.watches.get('order-1001'))?.kind, 'authorization');
    assert.equal((await w.store.watches.get('order-1001'))?.ended_at, undefined);
    // A failed lookup never lets another amount through: the watch's is compared.
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000033', amount: 99_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[1]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 99_000, currency: 'EGP' });
  });

  it('compares the watch\'s amount when the merchant no longer knows the order, and logs it', async () => {
    const w = reconcilerWorld({ orderOf: () => undefined });
    await w.watch(formWatch(basis(), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000034', amount: 20_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 20_000, currency: 'EGP' });
    assert.deepEqual(events(w.logs, 'reconcile_order_lookup_failed').map((line) => line['reason']), ['unknown_order']);
  });

  it('checks an authorization\'s later capture against the order as it is now, even with the shop down by then', async () => {
    let answer: MerchantOrder | undefined = order(500_000);
    const w = reconcilerWorld({
      orderOf: () => {
        if (!answer) throw new EndpointRefusal('order_lookup_failed');
        return answer;
      },
    });
    await w.watch(formWatch(basis(), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'authorized', { svcId: '1700000035', amount: 10_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'failure', order_state: 'authorized', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    const next = await w.store.watches.get('order-1001');
    assert.deepEqual([next?.kind, next?.amount, next?.currency], ['authorization', 500_000, 'EGP'], 'the hold is watched against the order as last looked up');
    answer = undefined;
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000035', amount: 10_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[1]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
  });

  it('is a currency_mismatch when the order\'s currency is no longer the one the payment was signed in', async () => {
    const w = reconcilerWorld({ orderOf: () => order(10_000, 'SAR') });
    await w.watch(formWatch(basis('order-1001', 10_000, 'EGP'), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000036', amount: 10_000 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'failure', order_state: 'captured', error: 'currency_mismatch', amount: 10_000, currency: 'EGP' });
  });

  it('compares a watch that kept no amount (a back-office call\'s) with the order, and reports the order\'s currency', async () => {
    const w = reconcilerWorld({ orderOf: () => order(250_000, 'EGP') });
    await w.watch(moneyCallWatch({ merchant_reference: 'order-1001', language: 'en' }, 'authorized', START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'captured', { svcId: '1700000037', amount: 99_900 });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 99_900, currency: 'EGP' });
  });

  it('asks the merchant only about a payment that holds money, never for a state that holds none', async () => {
    const asked: string[] = [];
    const w = reconcilerWorld({
      orderOf: (reference) => {
        asked.push(reference);
        return order(10_000);
      },
    });
    await w.watch(formWatch(basis(), START.getTime(), DEFAULT_WATCH_SETTINGS));
    w.harness.gateway.holds('order-1001', 'declined', { svcId: '1700000038' });
    await w.round();
    assert.deepEqual(summary(w.reported[0]), { outcome: 'failure', order_state: 'failed', error: undefined, amount: 10_000, currency: 'EGP' });
    assert.deepEqual(asked, []);
  });
});

// ---- `pg-checkout serve`: the shop's order lookup ----

describe('pg-checkout serve', () => {
  const running: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.close()));
  });

  it('asks the shop for the order as it is now before reporting a payment the customer never came back from', async () => {
    let clock = Date.now();
    const now = () => new Date(clock);
    const gateway = createFakeGateway();
    const shopOrder = { merchant_reference: 'shop-3001', amount: 10_000, currency: 'EGP', description: 'Cart' };
    const lookups: OrderLookupRequest[] = [];
    const SHOP_LOOKUP = 'http://127.0.0.1:9/pg-hooks/order';
    // The shop's order lookup, signed on the service's clock.
    const shopFetch = async (init: RequestInit | undefined) => {
      const lookup = JSON.parse(String(init?.body)) as OrderLookupRequest;
      lookups.push(lookup);
      const text = JSON.stringify(shopOrder);
      return new Response(text, { status: 200, headers: { 'content-type': 'application/json', 'pg-signature': await signHookBody(text, HOOK_SECRET, now()) } });
    };
    const logs: string[] = [];
    const service = await serve(
      {
        ...GATEWAY_ENV,
        PG_PORT: '0',
        PG_ORDER_URL: SHOP_LOOKUP,
        PG_HOOK_SECRET: HOOK_SECRET,
        PG_ALLOWED_ORIGINS: 'http://127.0.0.1:9',
        PG_SHOP_URL: 'http://127.0.0.1:9/',
      },
      {
        logger: createJsonLogger((line) => logs.push(line)),
        store: createMemoryStore(),
        now,
        reconcilePollIntervalMs: 3_600_000,
        reconcileQuestionsPerMinute: 60_000,
        orderLookupRetry: { retries: 0, retryDelayMs: 1 },
        fetch: (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          if (url.startsWith(GATEWAY_BASE_URL)) return gateway.fetch(input, init);
          if (url === SHOP_LOOKUP) return shopFetch(init);
          return globalThis.fetch(input, init);
        },
      },
    );
    running.push(service);
    const form = await fetch(`${service.endpointUrl}/hosted-page`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:9' },
      body: JSON.stringify({ merchant_reference: 'shop-3001', language: 'en', command: 'PURCHASE' }),
    });
    assert.equal(form.status, 200, await form.clone().text());
    assert.equal(((await form.json()) as { fields: Record<string, string> }).fields['amount'], '10000');
    assert.equal((await service.store.watches.get('shop-3001'))?.amount, 10_000);
    // The shop edits the cart; the customer pays the old form and closes the tab.
    shopOrder.amount = 500_000;
    gateway.holds('shop-3001', 'captured', { svcId: '1700000041', amount: 10_000 });
    lookups.length = 0;

    clock += 31 * MINUTE;
    const round = await service.reconciler.runDue();
    assert.equal(round.reported, 1);
    const [entry] = await service.store.results.list({ limit: 10 });
    assert.deepEqual(summary(entry?.result), { outcome: 'failure', order_state: 'captured', error: 'amount_mismatch', amount: 10_000, currency: 'EGP' });
    assert.deepEqual(
      lookups.map((lookup) => [lookup.merchant_reference, lookup.reference_source, lookup.route, lookup.headers]),
      [['shop-3001', 'gateway', 'gatewayReturn', {}]],
    );
  });
});
