/**
 * The settings every caller of the gateway shares (the merchant endpoint, the back-office client
 * and its CLI): the merchant's identity, the SHA type and phrases, and the gateway's addresses.
 * The checks live here once; `pg-checkout/server`'s configuration builds on them. A refused
 * setting stops start-up with one message naming every setting at fault and never a value, so a
 * phrase can never be printed by mistake.
 */
import { field } from '../core/schemas/index.ts';
import { isLanguage, type Language } from '../core/language.ts';
import { isLoopbackUrl } from '../core/response.ts';
import type { ShaType } from '../core/signature.ts';
import { DEFAULT_GATEWAY_REFERENCE_FIELD, isGatewayReferenceField, type GatewayReferenceField } from '../core/wire-names.ts';
import { silentLogger, type Logger } from '../log/logger.ts';

export interface ConfigProblem {
  /** The variable (`PG_ACCESS_CODE`) or config field (`accessCode`) at fault. */
  readonly name: string;
  readonly message: string;
}

/** Refused configuration. The message is one line naming every variable at fault, and no value. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super(`Configuration refused: ${problems.map((problem) => `${problem.name} ${problem.message}`).join('; ')}.`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

// ---- Checks ----

/** A rule of one setting: undefined when the value is fine, else what is wrong (never the value). */
export type Check<T> = (value: T) => string | undefined;

/** An address on this machine, where plain http is accepted (the sandbox): the core's one rule. */
export const isLoopback: (url: URL) => boolean = isLoopbackUrl;

/** merchant_identifier and access_code share one rule (spec, Limits): letters and digits, max 20. */
export const identifier: Check<string> = (value) =>
  field('access_code').safeParse(value).success ? undefined : 'must be 1 to 20 letters or digits, as the back-office shows it';

export const phrase: Check<string> = (value) => (value.length > 0 ? undefined : 'must not be empty');

export const shaTypeRule: Check<ShaType> = (value) =>
  value === 'sha256' || value === 'sha512' ? undefined : 'must be sha256 or sha512';

/** An absolute http(s) URL without query or fragment; plain http only on loopback (the sandbox). */
export function serviceUrl(allowPath: boolean): Check<string> {
  return (value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'must be an absolute URL such as https://host.example';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
    if (url.protocol === 'http:' && !isLoopback(url)) return 'must use https (plain http is accepted only on localhost)';
    if (url.search || url.hash || url.username || url.password) return 'must not carry a query, fragment or credentials';
    if (!allowPath && url.pathname !== '/') {
      return 'must be a host URL without a path (the API root is configured separately)';
    }
    return undefined;
  };
}

export const gatewayReferenceField: Check<string> = (value) =>
  isGatewayReferenceField(value) ? undefined : 'must be svc_id (the specification’s name) or fort_id (the live gateway’s)';

export const apiRoot: Check<string> = (value) =>
  /^[A-Za-z0-9._~-]+$/.test(value) ? undefined : 'must be one path segment (letters, digits, ".", "_", "~" or "-")';

export function wholeNumber(min: number, max: number): Check<number> {
  return (value) =>
    Number.isSafeInteger(value) && value >= min && value <= max ? undefined : `must be a whole number from ${min} to ${max}`;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Collects the problems of a whole configuration, so that one error names every one of them. */
export function problemCollector(): {
  readonly problems: ConfigProblem[];
  check<T>(name: string, value: T | undefined, rule: Check<T>, required?: boolean): void;
} {
  const problems: ConfigProblem[] = [];
  return {
    problems,
    check(name, value, rule, required = true) {
      if (value === undefined || value === '') {
        if (required) problems.push({ name, message: 'is missing' });
        return;
      }
      const message = rule(value);
      if (message) problems.push({ name, message });
    },
  };
}

// ---- The connection to the gateway ----

/** Who the merchant is and where the gateway answers: what every server-to-server caller needs. */
export interface GatewayConnection {
  /** `merchant_identifier` from the back-office. */
  readonly merchantIdentifier: string;
  /** `access_code` from the back-office. */
  readonly accessCode: string;
  /** The back-office SHA type; use `parseShaType("SHA-256")` to read a setting. */
  readonly shaType: ShaType;
  /** SHA request phrase: signs every request. Never leaves the server. */
  readonly requestPhrase: string;
  /** SHA response phrase: verifies every answer. Never leaves the server. */
  readonly responsePhrase: string;
  /** `{base_url}`: host of the payment services API (paymentApi, reportingApi, the batch service). */
  readonly gatewayBaseUrl: string;
  /** `{api_root}`: the fixed first path segment of every gateway path. */
  readonly apiRoot: string;
  /**
   * The wire name of the gateway's reference of an order: `svc_id` (the specification's, the
   * default) or `fort_id` (the live gateway's and its official SDKs'). Only the wire changes:
   * requests are signed with it and answers are verified with it, then read as `svc_id`.
   */
  readonly gatewayReferenceField?: GatewayReferenceField | undefined;
}

/** The connection settings of a larger configuration (the endpoint's, the environment's), and nothing else. */
export function connectionOf(config: GatewayConnection): GatewayConnection {
  const { merchantIdentifier, accessCode, shaType, requestPhrase, responsePhrase, gatewayBaseUrl, apiRoot, gatewayReferenceField } = config;
  return {
    merchantIdentifier,
    accessCode,
    shaType,
    requestPhrase,
    responsePhrase,
    gatewayBaseUrl,
    apiRoot,
    ...(gatewayReferenceField === undefined ? {} : { gatewayReferenceField }),
  };
}

/** Checks the connection settings into `check`; the endpoint and the client both call it. */
export function checkConnection(config: Partial<GatewayConnection>, check: ReturnType<typeof problemCollector>['check']): void {
  check('merchantIdentifier', config.merchantIdentifier, identifier);
  check('accessCode', config.accessCode, identifier);
  check('shaType', config.shaType, shaTypeRule);
  check('requestPhrase', config.requestPhrase, phrase);
  check('responsePhrase', config.responsePhrase, phrase);
  check('gatewayBaseUrl', config.gatewayBaseUrl, serviceUrl(false));
  check('apiRoot', config.apiRoot, apiRoot);
  check('gatewayReferenceField', config.gatewayReferenceField, gatewayReferenceField, false);
}

// ---- The back-office client's configuration ----

/** How read-only calls are retried after a transport failure (never a call that moves money). */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 3; 1 means no retry). */
  readonly attempts: number;
  /** Wait before the second attempt (default 250 ms); each later wait doubles, up to `maxDelayMs`. */
  readonly delayMs: number;
  /** Longest wait between two attempts (default 4 s). */
  readonly maxDelayMs: number;
}

/** How long the client keeps asking CHECK_STATUS after the answer to a money-moving call was lost. */
export interface ReconcilePolicy {
  /** CHECK_STATUS readings in all (default 4). */
  readonly attempts: number;
  /** Wait before the first reading (default 500 ms); each later wait doubles, up to `maxDelayMs`. */
  readonly delayMs: number;
  /** Longest wait between two readings (default 8 s). */
  readonly maxDelayMs: number;
}

export interface GatewayClientConfig extends GatewayConnection {
  /**
   * `{batch_sandbox_url}`: the sandbox host of PROCESS_BATCH. Set, the client talks to the
   * sandbox environment and sends PROCESS_BATCH to `{batchSandboxUrl}/integration-batch/batchApi/`;
   * unset, it talks to the live environment and sends it to `{gatewayBaseUrl}/{apiRoot}/batchApi/`.
   */
  readonly batchSandboxUrl?: string | undefined;
  /** The server-to-server `fetch` (default `globalThis.fetch`). */
  readonly fetch?: typeof fetch;
  /** Time limit of one HTTP exchange with the gateway, answer included (default 30 s). */
  readonly timeoutMs?: number;
  /** Retries of read-only calls on transport failures; `false` for none. */
  readonly retry?: Partial<RetryPolicy> | false;
  /** CHECK_STATUS polling after a lost answer to a money-moving call. */
  readonly reconcile?: Partial<ReconcilePolicy>;
  /**
   * The longest one call waits between its attempts, in all (default 120 s): no wait of a retried
   * read ends past this many milliseconds from its first attempt, nor a wait of the CHECK_STATUS
   * readings after a lost answer past them from the loss. A wait the gateway's `Retry-After` asks
   * for (HTTP 429 or 5xx) is honoured within it; one that would pass it ends the call there.
   */
  readonly deadlineMs?: number;
  /** Structured logs (default: none). Everything passed to it is redacted: no card data, phrase or signature. */
  readonly logger?: Logger;
  /** Language of the gateway's messages and of field errors when a call names none (default `en`). */
  readonly language?: Language;
  /** The clock, for the deadline of `waitForBatch` (default `new Date()`); tests pass the sandbox's. */
  readonly now?: () => Date;
  /** Waits between retries and CHECK_STATUS readings (default: a timer); tests pass one that does not wait. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Largest answer read, in bytes (default 16 MiB: a processed batch of 10,000 lines fits). */
  readonly maxAnswerBytes?: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024;
export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, delayMs: 250, maxDelayMs: 4_000 };
export const DEFAULT_RECONCILE: ReconcilePolicy = { attempts: 4, delayMs: 500, maxDelayMs: 8_000 };
export const DEFAULT_DEADLINE_MS = 120_000;

/** The client's configuration checked, with every default applied and every address worked out. */
export interface GatewaySettings extends GatewayConnection {
  readonly gatewayReferenceField: GatewayReferenceField;
  /** `sandbox` when `batchSandboxUrl` is set, else `live`. */
  readonly environment: 'sandbox' | 'live';
  readonly urls: {
    readonly paymentApi: string;
    readonly reportingApi: string;
    readonly batchUpload: string;
    readonly batchApi: string;
    /** Where PROCESS_BATCH goes: the batch sandbox host in the sandbox, batchApi live. */
    readonly processBatch: string;
  };
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly reconcile: ReconcilePolicy;
  readonly deadlineMs: number;
  readonly logger: Logger;
  readonly language: Language;
  readonly now: () => Date;
  readonly sleep: (ms: number) => Promise<void>;
  readonly maxAnswerBytes: number;
}

const timerSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function policy<P extends RetryPolicy | ReconcilePolicy>(
  name: string,
  given: Partial<P> | undefined,
  fallback: P,
  check: ReturnType<typeof problemCollector>['check'],
): P {
  const merged = { ...fallback, ...given } as P;
  check(`${name}.attempts`, merged.attempts, wholeNumber(1, 20));
  check(`${name}.delayMs`, merged.delayMs, wholeNumber(0, 600_000));
  check(`${name}.maxDelayMs`, merged.maxDelayMs, wholeNumber(0, 600_000));
  return merged;
}

/** Checks a client configuration and completes it; throws ConfigError naming each bad field. */
export function resolveGatewaySettings(config: GatewayClientConfig): GatewaySettings {
  const { problems, check } = problemCollector();
  checkConnection(config, check);
  check('batchSandboxUrl', config.batchSandboxUrl, serviceUrl(false), false);
  check('timeoutMs', config.timeoutMs, wholeNumber(1, 600_000), false);
  check('maxAnswerBytes', config.maxAnswerBytes, wholeNumber(1024, 1024 * 1024 * 1024), false);
  check('deadlineMs', config.deadlineMs, wholeNumber(0, 3_600_000), false);
  check('language', config.language, (value) => (isLanguage(value) ? undefined : 'must be en or ar'), false);
  const retry = config.retry === false ? { ...DEFAULT_RETRY, attempts: 1 } : policy('retry', config.retry, DEFAULT_RETRY, check);
  const reconcile = policy('reconcile', config.reconcile, DEFAULT_RECONCILE, check);
  if (problems.length > 0) throw new ConfigError(problems);

  const root = `${trimSlash(config.gatewayBaseUrl)}/${config.apiRoot}`;
  const sandboxHost = config.batchSandboxUrl ? trimSlash(config.batchSandboxUrl) : undefined;
  return {
    ...connectionOf(config),
    gatewayReferenceField: config.gatewayReferenceField ?? DEFAULT_GATEWAY_REFERENCE_FIELD,
    environment: sandboxHost ? 'sandbox' : 'live',
    urls: {
      paymentApi: `${root}/paymentApi`,
      reportingApi: `${root}/reportingApi`,
      // The spec writes the batch paths with a trailing slash.
      batchUpload: `${root}/upload/`,
      batchApi: `${root}/batchApi/`,
      processBatch: sandboxHost ? `${sandboxHost}/integration-batch/batchApi/` : `${root}/batchApi/`,
    },
    fetch: config.fetch ?? globalThis.fetch.bind(globalThis),
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry,
    reconcile,
    deadlineMs: config.deadlineMs ?? DEFAULT_DEADLINE_MS,
    logger: config.logger ?? silentLogger,
    language: config.language ?? 'en',
    now: config.now ?? (() => new Date()),
    sleep: config.sleep ?? timerSleep,
    maxAnswerBytes: config.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
  };
}
