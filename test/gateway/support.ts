/**
 * The back-office client's tests talk to the sandbox gateway over real HTTP: the sandbox behind
 * `node:http` on 127.0.0.1 (port 0), on a hand-moved clock, and between them, when a test needs it,
 * a proxy that forwards each request and can lose its answer on the way back (a reset connection,
 * a 502 after the gateway acted), fail it before the gateway sees it (503), hold it past the
 * client's time limit, or keep it forever. The proxy counts what reached the gateway, so a test can
 * show that a capture was sent once.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signParams, type SignableParams } from '../../src/core/signature.ts';
import { createGatewayClient, type GatewayClient, type GatewayClientConfig } from '../../src/gateway/index.ts';
import { toNodeListener } from '../../src/server/node.ts';
import { createSandboxClock, type SandboxClock } from '../../src/sandbox/clock.ts';
import { createSandboxGateway, type SandboxGateway, type SandboxGatewayOptions } from '../../src/sandbox/gateway.ts';
import { SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC, type SandboxMerchant } from '../../src/sandbox/merchants.ts';
import { testCard, type CardOutcome } from '../../src/sandbox/test-cards.ts';
import { hiddenFields } from '../sandbox/support.ts';

export { challengeOf, formAction, hiddenFields } from '../sandbox/support.ts';

/** The tests' "today" on the gateway's clock. */
export const START = '2026-03-10T09:00:00Z';
/** A card expiry in the future of START (YYMM). */
export const FUTURE_EXPIRY = '2908';
export const M = SANDBOX_MERCHANT;

export interface Sandbox {
  readonly gateway: SandboxGateway;
  readonly clock: SandboxClock;
  readonly origin: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

/** The sandbox (both accounts) on a free loopback port, its clock at START; `options` as createSandboxGateway takes them. */
export async function startSandbox(options: Omit<SandboxGatewayOptions, 'now' | 'merchants'> = {}): Promise<Sandbox> {
  const clock = createSandboxClock(START);
  const gateway = createSandboxGateway({ ...options, now: clock.now, merchants: [SANDBOX_MERCHANT, SANDBOX_MERCHANT_BASIC] });
  const server = createServer(toNodeListener((request) => gateway.handle(request)));
  const origin = await listen(server);
  return { gateway, clock, origin, close: closer(server) };
}

/** What the proxy does with a request. */
export type Fault =
  /** Forward it and pass the answer back. */
  | 'pass'
  /** Forward it, then reset the connection instead of answering: the answer is lost. */
  | 'reset_after_forward'
  /** Forward it, then answer 502 Bad Gateway: the gateway acted, the answer is lost. */
  | 'bad_gateway_after_forward'
  /** Answer 503 without forwarding: the gateway never saw it. */
  | 'unavailable'
  /** Reset the connection without forwarding. */
  | 'reset'
  /** Hold it past the client's time limit, then forward it (the gateway acts after the client gave up). */
  | 'late'
  /** Never forward it and never answer. */
  | 'hang';

export interface FaultProxy {
  readonly origin: string;
  /** Operations (command, query_command or service_command) that reached the gateway, in order. */
  readonly forwarded: string[];
  /** Operations the proxy received, forwarded or not. */
  readonly received: string[];
  /** The fault for the next request of `operation` (once), or for every one (`times: Infinity`). */
  inject(operation: string, fault: Fault, times?: number): void;
  /** Resolves when a request of `operation` held by 'late' has been forwarded and answered by the gateway. */
  delivered(operation: string): Promise<void>;
  /** Run before each request is forwarded (its operation and how many of it came before): something else happens at the gateway first. */
  beforeForward: ((operation: string, seen: number) => Promise<void> | void) | undefined;
  close(): Promise<void>;
}

function operationOf(body: string, contentType: string): string {
  if (contentType.startsWith('multipart/')) return 'UPLOAD_BATCH_FILE';
  try {
    const fields = JSON.parse(body) as Record<string, unknown>;
    return String(fields['command'] ?? fields['query_command'] ?? fields['service_command'] ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/** A proxy in front of `target` that injects faults per operation. */
export async function startFaultProxy(target: string, lateMs = 300): Promise<FaultProxy> {
  const faults = new Map<string, { fault: Fault; times: number }>();
  const forwarded: string[] = [];
  const received: string[] = [];
  const waiting = new Map<string, () => void>();
  const delivered = new Map<string, Promise<void>>();

  const forward = async (request: IncomingMessage, body: Buffer): Promise<Response> => {
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'accept']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    return fetch(`${target}${request.url ?? '/'}`, { method: request.method ?? 'POST', headers, body: new Uint8Array(body) });
  };

  const relay = async (response: Response, out: ServerResponse): Promise<void> => {
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') headers[name] = value;
    });
    out.writeHead(response.status, headers);
    out.end(Buffer.from(await response.arrayBuffer()));
  };

  const server = createServer((request, out) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const operation = operationOf(body.toString('utf8'), String(request.headers['content-type'] ?? ''));
        const seen = received.filter((earlier) => earlier === operation).length;
        received.push(operation);
        const planned = faults.get(operation);
        const fault: Fault = planned && planned.times > 0 ? planned.fault : 'pass';
        if (planned && planned.times > 0) planned.times -= 1;
        if (fault === 'unavailable') {
          out.writeHead(503, { 'content-type': 'text/plain' });
          out.end('Service Unavailable');
          return;
        }
        if (fault === 'reset') return void request.socket.destroy();
        if (fault === 'hang') return;
        if (fault === 'late') await new Promise((resolve) => setTimeout(resolve, lateMs));
        await proxy.beforeForward?.(operation, seen);
        forwarded.push(operation);
        const response = await forward(request, body);
        if (fault === 'late') {
          await response.arrayBuffer();
          waiting.get(operation)?.();
          return void request.socket.destroy();
        }
        if (fault === 'reset_after_forward') {
          await response.arrayBuffer();
          return void request.socket.destroy();
        }
        if (fault === 'bad_gateway_after_forward') {
          await response.arrayBuffer();
          out.writeHead(502, { 'content-type': 'text/html' });
          out.end('<html><body>502 Bad Gateway</body></html>');
          return;
        }
        await relay(response, out);
      })().catch(() => request.socket.destroy());
    });
  });
  const origin = await listen(server);
  const proxy: FaultProxy = {
    origin,
    forwarded,
    received,
    inject(operation, fault, times = 1) {
      faults.set(operation, { fault, times });
      if (fault === 'late') delivered.set(operation, new Promise<void>((resolve) => waiting.set(operation, resolve)));
    },
    delivered: (operation) => delivered.get(operation) ?? Promise.resolve(),
    beforeForward: undefined,
    close: closer(server),
  };
  return proxy;
}

/** What the client's injected sleep saw: every wait, which also moves the sandbox's clock. */
export interface Sleeps {
  readonly waits: number[];
  readonly sleep: (ms: number) => Promise<void>;
}

export function sleepsOn(clock?: SandboxClock, then?: () => Promise<void>): Sleeps {
  const waits: number[] = [];
  return {
    waits,
    async sleep(ms) {
      waits.push(ms);
      clock?.advance(ms);
      await then?.();
    },
  };
}

/** A client of `merchant` talking to `origin` (the sandbox, or a proxy in front of it). */
export function clientFor(origin: string, overrides: Partial<GatewayClientConfig> = {}, merchant: SandboxMerchant = M): GatewayClient {
  return createGatewayClient({
    merchantIdentifier: merchant.merchantIdentifier,
    accessCode: merchant.accessCode,
    shaType: merchant.shaType,
    requestPhrase: merchant.requestPhrase,
    responsePhrase: merchant.responsePhrase,
    gatewayBaseUrl: origin,
    apiRoot: 'FortAPI',
    batchSandboxUrl: origin,
    sleep: async () => {},
    ...overrides,
  });
}

/** A test card's clear data, as a trusted-channel charge sends it. */
export function card(outcome: CardOutcome = 'success', brand: 'VISA' | 'MASTERCARD' = 'VISA') {
  return {
    card_number: testCard(outcome, brand).number,
    expiry_date: FUTURE_EXPIRY,
    card_security_code: '123',
    card_holder_name: 'Test Buyer',
  } as const;
}

let references = 0;
/** A merchant_reference no other test uses. */
export const nextReference = (prefix = 'gw'): string => `${prefix}-${++references}-${Date.now().toString(36)}`;

/** An authorization of `amount` EGP minor units with a test card (trusted channel), asserted to succeed; its svc_id. */
export async function authorize(client: GatewayClient, merchantReference: string, amount: number, command: 'AUTHORIZATION' | 'PURCHASE' = 'AUTHORIZATION'): Promise<string> {
  const charge = command === 'AUTHORIZATION' ? client.trustedAuthorization : client.trustedPurchase;
  const result = await charge({
    merchant_reference: merchantReference,
    amount,
    currency: 'EGP',
    eci: 'ECOMMERCE',
    customer_email: 'buyer@example.com',
    ...card(),
  });
  assert.equal(result.outcome, 'success', JSON.stringify(result));
  return String(result.answer?.svc_id);
}

/**
 * A card saved at checkout: the merchant page 2.0 form the element posts to the gateway, signed
 * fields from the merchant plus the customer's card and `remember_me=YES` (unsigned, as the rule
 * for merchant page 2.0 says). Returns the gateway's signed answer fields (token_name among them).
 */
export async function saveCardAtCheckout(origin: string, merchantReference: string, outcome: CardOutcome = 'success'): Promise<Record<string, string>> {
  const signed = await signParams(
    {
      access_code: M.accessCode,
      merchant_identifier: M.merchantIdentifier,
      service_command: 'TOKENIZATION',
      merchant_reference: merchantReference,
      language: 'en',
      return_url: 'http://shop.test/pg/return',
    } as SignableParams,
    M.requestPhrase,
    M.shaType,
    { merchantPage: true },
  );
  const { card_security_code, ...typed } = card(outcome);
  const form = new URLSearchParams({ ...(signed as Record<string, string>), ...typed, card_security_code, remember_me: 'YES' });
  const response = await fetch(`${origin}/FortAPI/paymentPage`, { method: 'POST', body: form });
  assert.equal(response.status, 200);
  return hiddenFields(await response.text());
}
