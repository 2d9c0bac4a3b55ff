/**
 * A load balancer for tests: a `node:http` proxy on a loopback port that hands each request to the
 * next backend in turn (round robin), passing method, path, headers and body through and the
 * answer back unchanged (redirects included). It counts what each backend was given.
 */
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RoundRobin {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Requests handed to each backend, by index. */
  readonly counts: number[];
  /** Requests the chosen backend failed to answer (answered 502 here). */
  readonly failures: string[];
  close(): Promise<void>;
}

export async function startRoundRobin(backends: readonly string[]): Promise<RoundRobin> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const counts = backends.map(() => 0);
  const failures: string[] = [];
  const sockets = new Set<Socket>();
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const index = next;
    next = (next + 1) % backends.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = new URL(incoming.url ?? '/', backends[index]);
    const forwarded = httpRequest(
      target,
      { method: incoming.method, headers: { ...incoming.headers, host: target.host }, agent },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => {
      failures.push(`${backends[index]}: ${error.message}`);
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end('bad gateway');
    });
    incoming.pipe(forwarded);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        agent.destroy();
      }),
  };
}
