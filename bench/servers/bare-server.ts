/**
 * The baseline of the endpoint benchmark: a bare `node:http` handler that reads the JSON body,
 * parses it, and answers a JSON form post shaped like `/hosted-page`'s (without checking or
 * signing anything). Run as a child process; prints `PORT <n>` once listening on loopback.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
    const answer = {
      action: 'http://127.0.0.1:9/FortAPI/paymentPage',
      method: 'POST',
      fields: {
        command: body['command'] ?? 'PURCHASE',
        access_code: 'zx0IPmPy5jp1vAz8Kpg7',
        merchant_identifier: 'CycHZxVj',
        merchant_reference: body['merchant_reference'] ?? '',
        amount: '10000',
        currency: 'AED',
        language: body['language'] ?? 'en',
        customer_email: 'customer@example.com',
        order_description: 'Benchmark order',
        return_url: 'http://127.0.0.1/return',
        signature: '0'.repeat(64),
      },
    };
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(answer));
  });
});

server.listen(0, '127.0.0.1', () => {
  console.log(`PORT ${(server.address() as AddressInfo).port}`);
});
