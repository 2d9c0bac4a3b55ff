/**
 * `npm start`: the demo storefront (Vite), the merchant endpoint (`/pg`) and the sandbox gateway
 * (`/FortAPI`, `/sandbox-tools`) on one loopback port, with the sandbox credentials built in.
 * Nothing to configure and no network needed.
 *
 * Every HTML page is served under a strict Content-Security-Policy (no 'unsafe-inline', no
 * 'unsafe-eval'), so the demo also shows that the elements need nothing more.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { toNodeListener } from '../src/server/index.ts';
import type { SandboxGateway } from '../src/sandbox/index.ts';
import { createDemoBackend } from './backend.ts';
import { DEMO_CSP } from './csp.ts';
import type { DemoState } from './demo-api.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const repositoryRoot = join(here, '..');

export { DEMO_CSP } from './csp.ts';

export interface DemoOptions {
  readonly port?: number;
  readonly host?: string;
  /** Print the endpoint's structured logs (default false). */
  readonly logs?: boolean;
}

export interface RunningDemo {
  readonly url: string;
  readonly gateway: SandboxGateway;
  readonly state: DemoState;
  close(): Promise<void>;
}

type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/** Serves `themes/*.css` from the package folder, so the demo uses the files merchants get. */
function themesMiddleware(): Middleware {
  const themes = join(repositoryRoot, 'themes');
  return (request, response, next) => {
    const path = new URL(request.url ?? '/', 'http://demo').pathname;
    if (!path.startsWith('/themes/') || extname(path) !== '.css') return next();
    const file = normalize(join(themes, path.slice('/themes/'.length)));
    if (!file.startsWith(themes)) return next();
    readFile(file).then(
      (css) => {
        response.setHeader('content-type', 'text/css; charset=utf-8');
        response.end(css);
      },
      () => next(),
    );
  };
}

function cspMiddleware(): Middleware {
  return (request, response, next) => {
    const path = new URL(request.url ?? '/', 'http://demo').pathname;
    if (path === '/' || path.endsWith('.html')) response.setHeader('content-security-policy', DEMO_CSP);
    next();
  };
}

function demoBackend(origin: string, logs: boolean): { plugin: Plugin; gateway: SandboxGateway; state: DemoState } {
  const backend = createDemoBackend(origin, logs);
  const listener = toNodeListener((request, context) => backend.handle(request, context));
  const plugin: Plugin = {
    name: 'pg-checkout-demo-backend',
    configureServer(server: ViteDevServer) {
      server.middlewares.use(cspMiddleware());
      server.middlewares.use(themesMiddleware());
      server.middlewares.use((request, response, next) => {
        const path = new URL(request.url ?? '/', origin).pathname;
        if (backend.handles(path)) listener(request, response);
        else next();
      });
    },
  };
  return { plugin, gateway: backend.gateway, state: backend.state };
}

/** Starts the demo and resolves once it answers. */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 5173;
  const origin = `http://${host}:${port}`;
  const backend = demoBackend(origin, options.logs ?? false);
  const vite = await createServer({
    configFile: false,
    root: here,
    logLevel: 'warn',
    clearScreen: false,
    server: { host, port, strictPort: true, hmr: false, fs: { allow: [repositoryRoot] } },
    appType: 'mpa',
    // Lit's production build, as a merchant's bundler picks it: without this Vite's dev server
    // resolves the `development` export condition, and Lit warns "Lit is in dev mode" on every page.
    resolve: { conditions: ['module', 'browser', 'production'] },
    // Its pre-bundled dependencies apart from those of Vite's default conditions (the library
    // build's, other checkouts sharing node_modules): a cache of the other kind would be rebuilt
    // at every start, reloading the page under a test.
    cacheDir: join(repositoryRoot, 'node_modules', '.vite-demo'),
    plugins: [backend.plugin],
  });
  await vite.listen();
  return { url: `${origin}/`, gateway: backend.gateway, state: backend.state, close: () => vite.close() };
}

const runDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === normalize(process.argv[1]);
if (runDirectly) {
  const port = Number(process.env.PORT ?? 5173);
  startDemo({ port, logs: process.env.PG_DEMO_LOGS === '1' }).then(
    (demo) => {
      console.log(`pg-checkout demo: ${demo.url}`);
      console.log('Test cards and the sandbox OTP: README.md, "Sandbox: test cards and OTP"');
    },
    (error: unknown) => {
      console.error(`pg-checkout demo: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
