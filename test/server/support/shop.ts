/**
 * A shop's back end on a real loopback port, for tests that run `pg-checkout serve` as another
 * process: it answers the signed order lookup (any reference, one fixed amount, unless told
 * otherwise) and stores each signed `payment_result` webhook by idempotency key (an upsert, as
 * docs/standalone.md asks), answering 200 — or, when told to, the faults a real shop shows:
 * refusing (503), hanging without an answer, storing and then hanging, storing and then cutting
 * the connection before any answer.
 */
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from '../../../src/server/hook-signature.ts';
import type { OrderLookupRequest } from '../../../src/server/shop-protocol.ts';

export const SHOP_SECRET = 'crash-test-hook-secret-3f9a1c7e5b2d4f60a8';

/** What the webhook does with a delivery. */
export type WebhookMode = 'ok' | 'refuse' | 'hang' | 'store-then-hang' | 'store-then-destroy';

export interface Delivery {
  readonly key: string;
  readonly merchantReference: string;
  readonly orderState: string;
  readonly source: string;
  readonly outcome: string;
  /** The signature verified with the shared secret. */
  readonly valid: boolean;
  /** The mode the delivery met. */
  readonly mode: WebhookMode;
  readonly at: number;
}

export interface TestShop {
  readonly url: string;
  readonly orderUrl: string;
  readonly webhookUrl: string;
  mode: WebhookMode;
  /** Every webhook delivery that reached the shop, in arrival order. */
  readonly deliveries: Delivery[];
  /** The shop's table of results: one row per idempotency key (the first body stored). */
  readonly stored: Map<string, Record<string, unknown>>;
  /** How many times a delivery of the key was answered 2xx. */
  acknowledgedCount(key: string): number;
  deliveriesOf(key: string): Delivery[];
  /**
   * Called as soon as a delivery has met its mode (stored, hung, cut), before any answer: a test
   * kills the service here, at an exact point of the delivery.
   */
  onDelivery: ((delivery: Delivery) => void) | undefined;
  /** Order lookups received. */
  readonly lookups: OrderLookupRequest[];
  /** The order the lookup answers for a reference (default: EGP 2,500.00). */
  orderFor: (reference: string) => { amount: number; currency: string } | undefined;
  /** Forgets every delivery and stored result, back to `ok`. */
  reset(): void;
  stop(): Promise<void>;
}

export async function startShop(secret = SHOP_SECRET): Promise<TestShop> {
  const sockets = new Set<Socket>();
  const acknowledged = new Map<string, number>();
  const shop: TestShop = {
    url: '',
    orderUrl: '',
    webhookUrl: '',
    mode: 'ok',
    deliveries: [],
    stored: new Map(),
    acknowledgedCount: (key) => acknowledged.get(key) ?? 0,
    deliveriesOf: (key) => shop.deliveries.filter((delivery) => delivery.key === key),
    onDelivery: undefined,
    lookups: [],
    orderFor: () => ({ amount: 250_000, currency: 'EGP' }),
    reset() {
      shop.mode = 'ok';
      shop.onDelivery = undefined;
      shop.deliveries.length = 0;
      shop.lookups.length = 0;
      shop.stored.clear();
      acknowledged.clear();
      shop.orderFor = () => ({ amount: 250_000, currency: 'EGP' });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };

  const answer = async (response: ServerResponse, status: number, value: unknown) => {
    const text = JSON.stringify(value);
    response.writeHead(status, { 'content-type': 'application/json', [HOOK_SIGNATURE_HEADER]: await signHookBody(text, secret) });
    response.end(text);
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = request.headers[HOOK_SIGNATURE_HEADER.toLowerCase()] as string | undefined;
      const verified = await verifyHookSignature(body, signature, secret);
      if (request.url === '/pg-hooks/order') {
        if (!verified.valid) return answer(response, 401, { error: verified.reason });
        const lookup = JSON.parse(body) as OrderLookupRequest;
        shop.lookups.push(lookup);
        const order = shop.orderFor(lookup.merchant_reference);
        if (!order) return answer(response, 404, { error: 'unknown order' });
        return answer(response, 200, { merchant_reference: lookup.merchant_reference, ...order, description: 'Test order' });
      }
      if (request.url !== '/pg-hooks/result') return answer(response, 404, { error: 'not found' });
      const message = JSON.parse(body) as { type?: string; result?: Record<string, unknown> };
      const result = message.result ?? {};
      const key = String(result['idempotency_key']);
      const mode = shop.mode;
      const delivery: Delivery = {
        key,
        merchantReference: String(result['merchant_reference']),
        orderState: String(result['order_state']),
        source: String(result['source']),
        outcome: String(result['outcome']),
        valid: verified.valid && message.type === 'payment_result',
        mode,
        at: Date.now(),
      };
      shop.deliveries.push(delivery);
      if (!verified.valid) return answer(response, 401, { error: verified.reason });
      if (mode === 'refuse') {
        shop.onDelivery?.(delivery);
        return answer(response, 503, { error: 'shop database down' });
      }
      if (mode === 'hang') {
        shop.onDelivery?.(delivery);
        return; // never answered; the socket stays open
      }
      // The shop's upsert: a key it holds already is not stored twice.
      if (!shop.stored.has(key)) shop.stored.set(key, result);
      if (mode === 'store-then-hang') {
        shop.onDelivery?.(delivery);
        return;
      }
      if (mode === 'store-then-destroy') {
        request.socket.destroy();
        shop.onDelivery?.(delivery);
        return;
      }
      acknowledged.set(key, (acknowledged.get(key) ?? 0) + 1);
      shop.onDelivery?.(delivery);
      return answer(response, 200, { stored: key });
    })().catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(shop, { url: origin, orderUrl: `${origin}/pg-hooks/order`, webhookUrl: `${origin}/pg-hooks/result` });
  return shop;
}
