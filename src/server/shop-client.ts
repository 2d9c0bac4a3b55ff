/**
 * The service's calls to the shop's back end: one signed JSON POST with a time limit, and the
 * record of whether the shop is reachable. While the shop is down every lookup and every webhook
 * retry fails; the log says so once when it goes down and once when it comes back, never once
 * per attempt.
 */
import { BodyTooLarge, readLimitedText } from '../gateway/body.ts';
import { HOOK_SIGNATURE_HEADER, HOOK_TOLERANCE_SECONDS, signHookBody, verifyHookSignature, type HookVerification } from './hook-signature.ts';
import type { Logger } from '../log/logger.ts';

/** What the service asks the shop for: the order lookup or the result webhook. */
export type ShopChannel = 'order_lookup' | 'result_webhook';

/** The variable naming the shop's URL of each channel. */
const URL_SETTING: Readonly<Record<ShopChannel, string>> = { order_lookup: 'PG_ORDER_URL', result_webhook: 'PG_RESULT_WEBHOOK_URL' };

/** Whether the shop's answer refused the service's signature (or the service itself): 401 or 403. */
export function isSignatureRefusal(status: number): boolean {
  return status === 401 || status === 403;
}

/** The log's hint for a 401/403 from the shop: the setup mistakes that cause one. */
export function signatureRefusalHint(channel: ShopChannel): string {
  return `the shop refused the service's signature: PG_HOOK_SECRET differs between the two, their clocks are more than ${
    HOOK_TOLERANCE_SECONDS / 60
  } minutes apart, or ${URL_SETTING[channel]} points at another app`;
}

export interface ShopCallSettings {
  readonly url: string;
  readonly secret: string;
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
  readonly now: () => Date;
}

/** The shop answered (any status). */
export interface ShopAnswer {
  readonly status: number;
  readonly body: string;
  /** The answer's own `PG-Signature`, checked against its body. */
  readonly signature: HookVerification;
}

/** The shop could not be reached, or did not answer within the time limit. */
export class ShopUnreachable extends Error {
  constructor(readonly reason: 'timeout' | 'network') {
    super(reason === 'timeout' ? 'the shop did not answer in time' : 'the shop could not be reached');
    this.name = 'ShopUnreachable';
  }
}

/** The largest answer read from the shop (an order with its products is a few kilobytes). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** POSTs `body` (JSON text) signed with the shared secret, and reads the answer within the time limit. */
export async function postToShop(settings: ShopCallSettings, body: string): Promise<ShopAnswer> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), settings.timeoutMs);
  try {
    const response = await settings.fetch(settings.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        [HOOK_SIGNATURE_HEADER]: await signHookBody(body, settings.secret, settings.now()),
      },
      body,
      redirect: 'manual',
      signal: abort.signal,
    });
    const text = await readLimited(response, MAX_ANSWER_BYTES);
    const signature = await verifyHookSignature(text, response.headers.get(HOOK_SIGNATURE_HEADER), settings.secret, {
      now: settings.now(),
    });
    return { status: response.status, body: text, signature };
  } catch (error) {
    if (abort.signal.aborted) throw new ShopUnreachable('timeout');
    if (error instanceof ShopUnreachable) throw error;
    throw new ShopUnreachable('network');
  } finally {
    clearTimeout(timer);
  }
}

/** The answer's text; an answer over the limit reads as empty, so its signature cannot verify. */
async function readLimited(response: Response, maxBytes: number): Promise<string> {
  try {
    return await readLimitedText(response, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) return '';
    throw error;
  }
}

/**
 * Whether the shop's back end answers, per channel. `down` logs `shop_unreachable` only when the
 * channel was up; `up` logs `shop_reachable` only when it was down.
 */
export class ShopAvailability {
  readonly #log: Logger;
  readonly #now: () => Date;
  readonly #downSince = new Map<ShopChannel, number>();

  constructor(log: Logger, now: () => Date = () => new Date()) {
    this.#log = log;
    this.#now = now;
  }

  isDown(channel: ShopChannel): boolean {
    return this.#downSince.has(channel);
  }

  down(channel: ShopChannel, reason: string, status?: number): void {
    if (this.#downSince.has(channel)) return;
    this.#downSince.set(channel, this.#now().getTime());
    const what = URL_SETTING[channel];
    this.#log.error('shop_unreachable', {
      channel,
      reason,
      ...(status === undefined ? {} : { status }),
      message: `the shop's back end (${what}) is not answering; ${
        channel === 'order_lookup' ? 'checkouts fail until it is back' : 'results are kept and sent again until it acknowledges them'
      }`,
    });
  }

  up(channel: ShopChannel): void {
    const since = this.#downSince.get(channel);
    if (since === undefined) return;
    this.#downSince.delete(channel);
    this.#log.info('shop_reachable', { channel, down_seconds: Math.round((this.#now().getTime() - since) / 1000) });
  }
}
