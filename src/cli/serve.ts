/**
 * `pg-checkout serve [--sandbox]`: the merchant endpoint from `PG_*` environment variables, on
 * loopback. With `--sandbox`, the sandbox gateway shares the port (at `/{api_root}/…` and
 * `/sandbox-tools/…`) and any credential or gateway address not set in the environment defaults
 * to the sandbox's, so the whole flow runs offline.
 */
import { DEFAULT_HOST, DEFAULT_PORT } from '../server/config.ts';
import { serve, type RunningServer } from '../server/serve.ts';
import {
  createSandboxGateway,
  SANDBOX_FINANCING_PARTNER_CODE,
  SANDBOX_MERCHANT,
  SANDBOX_VOUCHER_PARTNER_CODE,
} from '../sandbox/index.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The environment with the sandbox's credentials and addresses filled in where unset. */
export function withSandboxDefaults(env: Env): Env {
  const host = env.PG_HOST || DEFAULT_HOST;
  const port = env.PG_PORT || String(DEFAULT_PORT);
  const self = `http://${host}:${port}`;
  const defaults: Record<string, string> = {
    PG_MERCHANT_IDENTIFIER: SANDBOX_MERCHANT.merchantIdentifier,
    PG_ACCESS_CODE: SANDBOX_MERCHANT.accessCode,
    PG_SHA_TYPE: SANDBOX_MERCHANT.shaType,
    PG_SHA_REQUEST_PHRASE: SANDBOX_MERCHANT.requestPhrase,
    PG_SHA_RESPONSE_PHRASE: SANDBOX_MERCHANT.responsePhrase,
    PG_GATEWAY_BASE_URL: self,
    PG_CHECKOUT_URL: self,
    PG_API_ROOT: 'FortAPI',
    // The sandbox answers the batch sandbox host's path on its own origin.
    PG_BATCH_SANDBOX_URL: self,
    PG_VOUCHER_PARTNER_CODE: SANDBOX_VOUCHER_PARTNER_CODE,
    PG_FINANCING_PARTNER_CODE: SANDBOX_FINANCING_PARTNER_CODE,
    PG_PORT: port,
  };
  const filled: Record<string, string | undefined> = { ...env };
  for (const [name, value] of Object.entries(defaults)) if (!filled[name]) filled[name] = value;
  return filled;
}

export async function serveFromEnv(env: Env, options: { sandbox?: boolean } = {}): Promise<RunningServer> {
  if (!options.sandbox) return serve(env);
  const settings = withSandboxDefaults(env);
  if (settings.PG_PORT === '0') throw new Error('PG_PORT: --sandbox needs a fixed port, since the gateway addresses name it');
  const gateway = createSandboxGateway({
    merchants: [
      {
        merchantIdentifier: settings.PG_MERCHANT_IDENTIFIER ?? '',
        accessCode: settings.PG_ACCESS_CODE ?? '',
        shaType: SANDBOX_MERCHANT.shaType,
        requestPhrase: settings.PG_SHA_REQUEST_PHRASE ?? '',
        responsePhrase: settings.PG_SHA_RESPONSE_PHRASE ?? '',
        // The shop pages that may embed the card page and the 3-D Secure page: this server's own and the allowed origins.
        framingOrigins: framingOriginsFrom(settings),
      },
    ],
    apiRoot: settings.PG_API_ROOT ?? 'FortAPI',
  });
  return serve(settings, {
    mount: [(request) => (gateway.handles(request.url) ? gateway.handle(request) : undefined)],
  });
}

/** The origins of the server (public URL, else the listening one) and of `PG_ALLOWED_ORIGINS`. */
function framingOriginsFrom(settings: Env): string[] {
  const candidates = [
    settings.PG_PUBLIC_URL || `http://${settings.PG_HOST || DEFAULT_HOST}:${settings.PG_PORT}`,
    ...(settings.PG_ALLOWED_ORIGINS ?? '').split(','),
  ];
  // A malformed value is serve's to report (configFromEnv names it); it frames nothing here.
  const origins = candidates.flatMap((candidate) => {
    try {
      const { origin } = new URL(candidate.trim());
      return origin === 'null' || origin.includes('*') ? [] : [origin];
    } catch {
      return [];
    }
  });
  return [...new Set(origins)];
}
