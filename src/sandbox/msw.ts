/**
 * msw handlers backed by a sandbox gateway: the element tests mock the gateway with the same
 * logic the Node tests and the demo run, so there is one source of truth for how it behaves.
 * The only file of src/sandbox that imports msw.
 */
import { http, type HttpHandler } from 'msw';
import { createSandboxGateway, type SandboxGateway, type SandboxGatewayOptions } from './gateway.ts';

export interface SandboxHandlersOptions extends SandboxGatewayOptions {
  /** The gateway to forward to; default: a new one made from the other options. */
  readonly gateway?: SandboxGateway;
  /** Only requests to this origin (e.g. 'https://sandbox.test') are answered; default: any origin. */
  readonly origin?: string;
}

/** One catch-all handler: requests on the gateway's paths go to `gateway.handle()`, others pass on. */
export function sandboxHandlers(options: SandboxHandlersOptions = {}): HttpHandler[] {
  const gateway = options.gateway ?? createSandboxGateway(options);
  const origin = options.origin?.replace(/\/+$/, '');
  return [
    http.all(origin ? `${origin}/*` : '*', async ({ request }) => {
      if (!gateway.handles(request.url)) return undefined;
      return gateway.handle(request);
    }),
  ];
}
