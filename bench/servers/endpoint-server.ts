/**
 * The merchant endpoint as a merchant would mount it on Node: `createMerchantEndpoint` under
 * `toNodeListener`. Run as a child process; prints `PORT <n>` once listening on loopback.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../../src/server/node.ts';
import { createBenchEndpoint } from './bench-endpoint.ts';

const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
server.on('request', toNodeListener(createBenchEndpoint(`http://127.0.0.1:${port}`)));
console.log(`PORT ${port}`);
