/**
 * `pg-checkout serve [--sandbox]`: the merchant endpoint from `PG_*` environment variables, on
 * loopback. With `--sandbox`, the sandbox gateway shares the port (at `/{api_root}/…` and
 * `/sandbox-tools/…`) and any credential or gateway address not set in the environment defaults
 * to the sandbox's, so the whole flow runs offline. The sandbox keeps its state in
 * `<data folder>/sandbox-state.json`, so that its orders outlive a restart as a live gateway's do.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DEFAULT_HOST, DEFAULT_PORT } from '../server/config.ts';
import { StartupError } from '../server/errors.ts';
import { serve, type RunningServer } from '../server/serve.ts';
import {
  createSandboxGateway,
  SANDBOX_FINANCING_PARTNER_CODE,
  SANDBOX_MERCHANT,
  SANDBOX_VOUCHER_PARTNER_CODE,
  type SandboxGatewayOptions,
  type SandboxPersistence,
  type SuccessCodes,
} from '../sandbox/index.ts';
import { storeLocationFromEnv } from '../store/open.ts';
import { isGatewayReferenceField } from '../core/wire-names.ts';
import { parseShaType, type ShaType } from '../core/signature.ts';
import { CliConfigError } from './client-env.ts';

/** The sandbox's state file, inside the data folder (`PG_DATA_DIR`). */
export const SANDBOX_STATE_FILE = 'sandbox-state.json';

type Env = Readonly<Record<string, string | undefined>>;

/** Hosts that listen on every interface: a browser cannot be sent to them. */
const WILDCARD_HOSTS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '[::]']);

/**
 * This server's origin as the sandbox's addresses name it: the listening host and port, loopback
 * in place of a host that listens on every interface (`PG_HOST=0.0.0.0` in a container), since a
 * customer's browser is sent to these addresses.
 */
function sandboxOrigin(env: Env): string {
  const host = env.PG_HOST || DEFAULT_HOST;
  return `http://${WILDCARD_HOSTS.has(host) ? '127.0.0.1' : host}:${env.PG_PORT || DEFAULT_PORT}`;
}

/** The environment with the sandbox's credentials and addresses filled in where unset. */
export function withSandboxDefaults(env: Env): Env {
  const port = env.PG_PORT || String(DEFAULT_PORT);
  const self = sandboxOrigin(env);
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

/** The gateway addresses `--sandbox` would otherwise fill in with its own origin. */
const SANDBOX_ADDRESSES = ['PG_GATEWAY_BASE_URL', 'PG_CHECKOUT_URL'] as const;

/**
 * What `serve --sandbox` warns of at start-up: a gateway address set in the environment (a copied
 * `.env`, say) that is not this server's origin, so payments would go there and not to the sandbox
 * on this port. One line each, naming the variable, both origins and the fix. A public URL
 * (`PG_PUBLIC_URL`) in front of this server counts as this server.
 */
export function sandboxAddressWarnings(env: Env): string[] {
  const self = new URL(sandboxOrigin(env)).origin;
  const own = new Set([self, ...(env.PG_PUBLIC_URL ? [originOf(env.PG_PUBLIC_URL)] : [])]);
  return SANDBOX_ADDRESSES.flatMap((name) => {
    const value = env[name]?.trim();
    if (!value) return [];
    const origin = originOf(value);
    if (origin !== undefined && own.has(origin)) return [];
    return [
      `pg-checkout serve --sandbox: ${name} is ${value}, not this server (${self}): the endpoint sends payments there, not to the sandbox on this port. Unset it to use the sandbox.`,
    ];
  });
}

function shaTypeOr(value: string | undefined, fallback: ShaType): ShaType {
  try {
    return value ? parseShaType(value) : fallback;
  } catch {
    return fallback;
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export async function serveFromEnv(env: Env, options: { sandbox?: boolean } = {}): Promise<RunningServer> {
  if (!options.sandbox) return serve(env);
  const settings = withSandboxDefaults(env);
  if (settings.PG_PORT === '0') throw new StartupError('PG_PORT: --sandbox needs a fixed port, since the gateway addresses name it');
  const { dataDir } = storeLocationFromEnv(settings);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new StartupError(`PG_DATA_DIR: ${dataDir} cannot be written (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  const referenceField = settings.PG_GATEWAY_REFERENCE_FIELD?.trim();
  const gateway = createGateway({
    merchants: [
      {
        merchantIdentifier: settings.PG_MERCHANT_IDENTIFIER ?? '',
        accessCode: settings.PG_ACCESS_CODE ?? '',
        // The account's SHA type as the endpoint signs with it (a malformed one is serve's to report).
        shaType: shaTypeOr(settings.PG_SHA_TYPE, SANDBOX_MERCHANT.shaType),
        requestPhrase: settings.PG_SHA_REQUEST_PHRASE ?? '',
        responsePhrase: settings.PG_SHA_RESPONSE_PHRASE ?? '',
        // The shop pages that may embed the card page and the 3-D Secure page: this server's own and the allowed origins.
        framingOrigins: framingOriginsFrom(settings),
      },
    ],
    apiRoot: settings.PG_API_ROOT ?? 'FortAPI',
    // The sandbox speaks the wire the endpoint is set for; a malformed value is serve's to report.
    ...(isGatewayReferenceField(referenceField) ? { gatewayReferenceField: referenceField } : {}),
    persistence: sandboxStateFile(join(dataDir, SANDBOX_STATE_FILE)),
    successCodes: successCodesFrom(settings),
  });
  return serve(settings, {
    mount: [(request) => (gateway.handles(request.url) ? gateway.handle(request) : undefined)],
  });
}

/**
 * `PG_SANDBOX_SUCCESS_CODES`: `live` makes the sandbox accept a capture with 04000 and a refund with
 * 06000, as live accounts answer; `spec` (the default) with the specification's 20064.
 */
export function successCodesFrom(settings: Env): SuccessCodes {
  const value = settings.PG_SANDBOX_SUCCESS_CODES?.trim().toLowerCase() || 'spec';
  if (value !== 'spec' && value !== 'live') throw new CliConfigError('PG_SANDBOX_SUCCESS_CODES must be spec or live');
  return value;
}

/** The origins of the server (public URL, else the listening one) and of `PG_ALLOWED_ORIGINS`. */
function framingOriginsFrom(settings: Env): string[] {
  const candidates = [
    settings.PG_PUBLIC_URL || sandboxOrigin(settings),
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

/** A state file that cannot be restored stops start-up as a configuration problem, naming the file. */
function createGateway(options: SandboxGatewayOptions) {
  try {
    return createSandboxGateway(options);
  } catch (error) {
    throw new CliConfigError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/**
 * The sandbox's state in a JSON file. Each save writes a temporary file beside it, flushes it to
 * disk and renames it over the old one, so that a process killed mid-write leaves the previous
 * state whole; a missing file is a fresh sandbox, an unreadable one an Error naming it.
 */
export function sandboxStateFile(path: string): SandboxPersistence {
  const folder = dirname(path);
  const temporaryPrefix = `.${basename(path)}.`;
  return {
    location: path,
    load() {
      // A temporary file left by a process killed mid-write is not the state: the file beside it is.
      for (const name of namesIn(folder)) {
        if (name.startsWith(temporaryPrefix) && name.endsWith('.tmp')) rmSync(join(folder, name), { force: true });
      }
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new Error(`the sandbox state file ${path} cannot be read: ${(error as Error).message}`, { cause: error });
      }
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new Error(`the sandbox state file ${path} is not valid JSON (${(error as Error).message}); delete it to start a fresh sandbox`, {
          cause: error,
        });
      }
    },
    save(snapshot) {
      const temporary = join(folder, `${temporaryPrefix}${process.pid}.tmp`);
      const descriptor = openSync(temporary, 'w', 0o600);
      try {
        writeFileSync(descriptor, JSON.stringify(snapshot));
        fsyncSync(descriptor);
      } catch (error) {
        closeSync(descriptor);
        rmSync(temporary, { force: true });
        throw error;
      }
      closeSync(descriptor);
      renameSync(temporary, path);
      syncFolder(folder);
    },
  };
}

/** The names in a folder; none when it does not exist yet. */
function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Flushes a folder's entries, so that the rename itself survives a crash. */
function syncFolder(folder: string): void {
  let descriptor: number;
  try {
    descriptor = openSync(folder, 'r');
  } catch {
    // Windows does not open folders; its rename is as durable as it gets there.
    return;
  }
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
