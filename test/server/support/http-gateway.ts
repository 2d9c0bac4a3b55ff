/**
 * The fake gateway of the endpoint's tests (fake-gateway.ts) over real HTTP on a loopback port, for
 * a `pg-checkout serve` running in another process: `PG_GATEWAY_BASE_URL` points at `origin`, and
 * every request reaches the fake's `fetch` as if sent to its usual address. It checks each
 * request's signature and schema, and answers CHECK_STATUS, signed with the response phrase, from
 * the orders it holds (`fake.holds(…)`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCESS_CODE, API_ROOT, createFakeGateway, GATEWAY_BASE_URL, MERCHANT_IDENTIFIER, REQUEST_PHRASE, RESPONSE_PHRASE, type FakeGateway } from '../fake-gateway.ts';

export interface HttpGateway {
  readonly fake: FakeGateway;
  /** Every request received, in order: when, its `query_command` or `command`, and its `merchant_reference`. */
  readonly received: readonly { readonly at: number; readonly command: string; readonly reference: string }[];
  /** The next `count` requests are answered 429 with `Retry-After: <retryAfterSeconds>` (a rate-limiting gateway). */
  limitNext(count: number, retryAfterSeconds: number): void;
  /**
   * The next request of `command` (`PURCHASE`, `CHECK_STATUS`…) is carried out (the fake records the
   * charge) but answered only on `release()`: a test kills the caller while the gateway is at work.
   * `arrived` settles when it has been carried out.
   */
  holdNext(command: string): { readonly arrived: Promise<void>; release(): void };
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The PG_* settings that point `serve` at this gateway with the fake's credentials. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

export async function startHttpGateway(): Promise<HttpGateway> {
  const fake = createFakeGateway();
  const received: { at: number; command: string; reference: string }[] = [];
  const limited = { count: 0, retryAfterSeconds: 0 };
  const holds = new Map<string, { arrived: () => void; released: Promise<void> }>();
  const server: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ at: Date.now(), ...fieldsOf(body) });
      if (limited.count > 0) {
        limited.count -= 1;
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(limited.retryAfterSeconds) });
        response.end('{"error":"too_many_requests"}');
        return;
      }
      const answer = await fake.fetch(`${GATEWAY_BASE_URL}${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
        ...(body === '' ? {} : { body }),
      });
      const text = await answer.text();
      const hold = holds.get(received.at(-1)?.command ?? '');
      if (hold) {
        holds.delete(received.at(-1)?.command ?? '');
        hold.arrived();
        await hold.released;
      }
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      response.end(text);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    fake,
    received,
    limitNext(count, retryAfterSeconds) {
      Object.assign(limited, { count, retryAfterSeconds });
    },
    holdNext(command) {
      let arrived: () => void = () => {};
      let release: () => void = () => {};
      const arrival = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.set(command, { arrived, released });
      return { arrived: arrival, release };
    },
    origin,
    env: {
      PG_MERCHANT_IDENTIFIER: MERCHANT_IDENTIFIER,
      PG_ACCESS_CODE: ACCESS_CODE,
      PG_SHA_TYPE: 'SHA-256',
      PG_SHA_REQUEST_PHRASE: REQUEST_PHRASE,
      PG_SHA_RESPONSE_PHRASE: RESPONSE_PHRASE,
      PG_GATEWAY_BASE_URL: origin,
      PG_CHECKOUT_URL: origin,
      PG_API_ROOT: API_ROOT,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function fieldsOf(body: string): { command: string; reference: string } {
  try {
    const fields = JSON.parse(body) as { query_command?: unknown; command?: unknown; service_command?: unknown; merchant_reference?: unknown };
    return { command: String(fields.query_command ?? fields.command ?? fields.service_command ?? ''), reference: String(fields.merchant_reference ?? '') };
  } catch {
    return { command: '', reference: '' };
  }
}
