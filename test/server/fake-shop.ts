/**
 * A shop's back end for the standalone service's tests, on a real loopback port: it answers the
 * signed order lookup for the customer holding the order's token, and stores each signed result
 * webhook once per idempotency key, as a shop written in any language would. Faults can be switched
 * on: a forged or malformed answer, a slow lookup, an answer for another order, and the whole shop
 * going down and coming back on the same port.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HOOK_SIGNATURE_HEADER, signHookBody, verifyHookSignature } from '../../src/server/hook-signature.ts';
import type { OrderLookupRequest } from '../../src/server/shop-protocol.ts';

export const HOOK_SECRET = 'test-hook-secret-5c1f0e9a7b3d4c2e8f6a';

export interface ShopOrderRecord {
  readonly merchant_reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly description?: string;
  /** The customer's name as the shop keeps it (any text). */
  readonly customer_name?: string;
  /** How the shop has this order paid (`PURCHASE` or `AUTHORIZATION`), answered as the order's `command`. */
  readonly command?: 'PURCHASE' | 'AUTHORIZATION';
  /** The token the shop rendered into its page for this order's customer. */
  readonly token: string;
}

export type LookupFault = 'none' | 'forged' | 'malformed' | 'slow' | 'other-order' | 'unsigned' | 'error-500';

export interface FakeShop {
  readonly url: string;
  readonly orderUrl: string;
  readonly webhookUrl: string;
  /** Every lookup request the shop received, after its signature was checked. */
  readonly lookups: OrderLookupRequest[];
  /** Every webhook delivery that reached the shop (valid or not), in order. */
  readonly deliveries: { body: string; signature: string | undefined; accepted: boolean }[];
  /** Stored results, one per idempotency key. */
  readonly results: Map<string, Record<string, unknown>>;
  fault: LookupFault;
  /** The status every webhook delivery is answered with, instead of storing it. */
  webhookStatus: number | undefined;
  /** How long a `slow` lookup takes. */
  slowMs: number;
  stop(): Promise<void>;
  /** Starts again on the same port. */
  start(): Promise<void>;
}

async function readBody(request: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeShop(orders: readonly ShopOrderRecord[], secret = HOOK_SECRET): Promise<FakeShop> {
  const byReference = new Map(orders.map((order) => [order.merchant_reference, order]));
  let server: Server | undefined;
  let port = 0;

  const shop: FakeShop = {
    url: '',
    orderUrl: '',
    webhookUrl: '',
    lookups: [],
    deliveries: [],
    results: new Map(),
    fault: 'none',
    webhookStatus: undefined,
    slowMs: 2_000,
    async stop() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    async start() {
      if (server) return;
      server = createServer((request, response) => {
        void (async () => {
          const body = await readBody(request);
          const signature = request.headers[HOOK_SIGNATURE_HEADER.toLowerCase()] as string | undefined;
          const verified = await verifyHookSignature(body, signature, secret);
          const answer = async (status: number, value: unknown, signWith: string | null = secret) => {
            const text = JSON.stringify(value);
            const headers: Record<string, string> = { 'content-type': 'application/json' };
            if (signWith !== null) headers[HOOK_SIGNATURE_HEADER] = await signHookBody(text, signWith);
            response.writeHead(status, headers).end(text);
          };
          if (request.url === '/pg-hooks/result') {
            shop.deliveries.push({ body, signature, accepted: verified.valid });
            if (!verified.valid) return answer(401, { error: verified.reason });
            if (shop.webhookStatus !== undefined) return answer(shop.webhookStatus, { error: 'refused' });
            const message = JSON.parse(body) as { type: string; result: Record<string, unknown> };
            if (message.type !== 'payment_result') return answer(400, { error: 'type' });
            shop.results.set(String(message.result['idempotency_key']), message.result);
            return answer(200, { stored: true });
          }
          if (request.url !== '/pg-hooks/order') return answer(404, { error: 'not found' });
          if (!verified.valid) return answer(401, { error: verified.reason });
          const lookup = JSON.parse(body) as OrderLookupRequest;
          shop.lookups.push(lookup);
          if (shop.fault === 'slow') await new Promise((resolve) => setTimeout(resolve, shop.slowMs));
          if (shop.fault === 'error-500') return answer(500, { error: 'database down' });
          const order = byReference.get(lookup.merchant_reference);
          const owner = lookup.reference_source === 'gateway' || order?.token === lookup.headers['pg-order-token'];
          if (!order || !owner) return answer(404, { error: 'unknown order' });
          const { token: _token, ...fields } = order;
          if (shop.fault === 'forged') return answer(200, { ...fields, amount: 1 }, 'a-secret-the-service-does-not-know-000');
          if (shop.fault === 'unsigned') return answer(200, fields, null);
          if (shop.fault === 'malformed') return answer(200, { ...fields, amount: '2500.00' });
          if (shop.fault === 'other-order') return answer(200, { ...fields, merchant_reference: 'someone-else-1' });
          return answer(200, fields);
        })().catch(() => response.destroy());
      });
      await new Promise<void>((resolve, reject) => {
        server?.once('error', reject);
        server?.listen(port, '127.0.0.1', resolve);
      });
      port = (server.address() as AddressInfo).port;
      Object.assign(shop, {
        url: `http://127.0.0.1:${port}`,
        orderUrl: `http://127.0.0.1:${port}/pg-hooks/order`,
        webhookUrl: `http://127.0.0.1:${port}/pg-hooks/result`,
      });
    },
  };
  await shop.start();
  return shop;
}
