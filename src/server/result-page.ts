/**
 * The service's own result page, where the customer lands after paying when the shop has set no
 * `PG_RESULT_URL`: plain HTML in the language of the payment (right to left in Arabic), a strict
 * Content-Security-Policy and no script at all, and a link back to the shop (`PG_SHOP_URL`).
 *
 * It does not trust its query string (anyone can type `?outcome=success`): the outcome shown is
 * the result the service recorded for the order, and only to a browser holding the `proof` the
 * return signed into its redirect (result-proof.ts); anyone else sees a page with nothing of the order. Without one, the page says the payment is being
 * confirmed and refreshes itself, or, when the return was refused, that it could not be confirmed.
 * A refused return's proof also covers its code: the page says why (too many cards tried for the
 * order, an amount that changed), not the order's earlier result, unless the order is paid.
 *
 * Also the page the endpoint's return route answers when it cannot record the return (the store is
 * down): payment not confirmed yet, do not pay again (`returnNotRecordedPage`).
 */
import { formatMoney } from '../core/amounts.ts';
import { describeOutcome, OUTCOME_TEXT } from '../core/customer-outcome.ts';
import { escapeHtml } from '../core/html-text.ts';
import { directionOf, isLanguage, type Language } from '../core/language.ts';
import type { VerifiedResult } from '../core/verified-result.ts';
import { field } from '../core/schemas/index.ts';
import type { EndpointErrorCode } from '../core/endpoint-api.ts';
import { ERROR_MESSAGES, STORE_RETRY_AFTER_SECONDS } from './errors.ts';
import { cspNonce } from './framed-pages.ts';
import { languageFromHeaders } from './http.ts';
import type { ResultStore } from '../store/store.ts';
import { RESULT_PROOF_PARAMETER, type ResultProofs } from './result-proof.ts';
import { SERVICE_ROUTES } from './shop-protocol.ts';

export interface ResultPageOptions {
  readonly results: Pick<ResultStore, 'latestFor'>;
  /**
   * Checks the `proof` the return signed into the redirect: without a valid one the page shows
   * nothing specific to the order (anyone may know or guess a reference).
   */
  readonly proofs: ResultProofs;
  readonly basePath: string;
  /** Where "Back to the shop" leads; no link without it. */
  readonly shopUrl: string | undefined;
}

type Shown = 'success' | 'pending' | 'failure' | 'unconfirmed' | 'private';

/** The page's own words; an order's outcome is described by the core (`describeOutcome`), as on every result page. */
const TEXT: Readonly<Record<Language, { unconfirmed: { title: string; body: string }; private: { title: string; body: string }; refreshes: string }>> = {
  en: {
    unconfirmed: { title: 'Payment not confirmed', body: 'We could not confirm a payment for this order. If you paid, the shop will be told by the payment gateway.' },
    private: { title: 'Payment status', body: 'This link no longer shows a payment. The shop has your order’s status: please check it there.' },
    refreshes: 'This page refreshes by itself.',
  },
  ar: {
    unconfirmed: { title: 'لم يتم تأكيد الدفع', body: 'تعذر علينا تأكيد دفعة لهذا الطلب. إذا كنت قد دفعت، فستُبلغ بوابة الدفع المتجر بذلك.' },
    private: { title: 'حالة الدفع', body: 'لم يعد هذا الرابط يعرض دفعة. حالة طلبك لدى المتجر: يرجى مراجعتها هناك.' },
    refreshes: 'ستُحدَّث هذه الصفحة تلقائيًا.',
  },
};

/** The page allows its own stylesheet and nothing else: no script, no frame, no form. */
export const RESULT_PAGE_CSP =
  "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLES = `body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1f2328;background:#f6f8fa}
main{max-inline-size:32rem;margin-block:2rem;margin-inline:auto;padding:1.5rem;background:#fff;border-radius:.5rem;border:1px solid #d0d7de;text-align:start}
@media (max-width:34rem){main{margin-block:0;border-radius:0;border-inline:0}}
h1{margin-block:0 .5rem;font-size:1.5rem;line-height:1.25}
p{margin-block:0 .75rem}
main[data-outcome=success] h1{color:#1a7f37}
main[data-outcome=failure] h1,main[data-outcome=unconfirmed] h1{color:#b42318}
.reason{font-weight:600}
dl.summary{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.25rem 1rem;margin-block:0 1rem}
dt{font-weight:600}dd{margin:0}
bdi[dir=ltr]{unicode-bidi:isolate;white-space:nowrap}
.actions{display:flex;flex-wrap:wrap;gap:.5rem 1rem}
details{margin-block-start:1rem;font-size:.875rem;color:#57606a}
summary{cursor:pointer}
details dl{margin-block:.5rem 0}
details dt{font:400 .8125rem ui-monospace,monospace}
details dd{margin-block-end:.25rem}
details bdi[dir=ltr]{white-space:normal;overflow-wrap:anywhere}
a{color:#0550ae}`;

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** A handler for the page and its stylesheet; undefined for any other path. */
export function createResultPage(options: ResultPageOptions): (request: Request) => Promise<Response | undefined> {
  const pagePath = `${options.basePath}${SERVICE_ROUTES.resultPage}`;
  const stylesPath = `${options.basePath}${SERVICE_ROUTES.resultPageStyles}`;

  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== pagePath && url.pathname !== stylesPath) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response(null, { status: 405, headers: { allow: 'GET, HEAD', ...PAGE_HEADERS } });
    }
    if (url.pathname === stylesPath) {
      return new Response(STYLES, { headers: { 'content-type': 'text/css; charset=utf-8', ...PAGE_HEADERS } });
    }
    const parsed = field('merchant_reference').safeParse(url.searchParams.get('merchant_reference'));
    const reference = parsed.success ? parsed.data : undefined;
    // Only the browser the gateway returned holds a proof for the reference: anyone else sees nothing of the order.
    const proof = url.searchParams.get(RESULT_PROOF_PARAMETER);
    const claimedRefusal = url.searchParams.get('outcome') === 'failure' ? refusalCode(url.searchParams.get('error')) : undefined;
    const refusal =
      reference !== undefined && claimedRefusal && (await options.proofs.check(reference, proof, claimedRefusal)) ? claimedRefusal : undefined;
    const proven = reference !== undefined && (refusal !== undefined || (await options.proofs.check(reference, proof)));
    const recorded = proven ? await options.results.latestFor(reference) : undefined;
    const paymentLanguage = recorded?.gateway['language'];
    const language: Language = isLanguage(paymentLanguage) ? paymentLanguage : languageFromHeaders(request);
    const shown: Shown = reference === undefined
      ? 'unconfirmed'
      : !proven
        ? 'private'
        : refusal && recorded?.outcome !== 'success'
          ? 'unconfirmed'
          : recorded
            ? recorded.outcome
            : url.searchParams.get('outcome') === 'failure'
              ? 'unconfirmed'
              : 'pending';
    const html = renderResultPage({
      language,
      shown,
      reference: proven ? reference : undefined,
      result: recorded,
      refusal,
      shopUrl: options.shopUrl,
      stylesHref: stylesPath,
    });
    return new Response(html, {
      status: reference !== undefined ? 200 : 400,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': RESULT_PAGE_CSP, ...PAGE_HEADERS },
    });
  };
}

/** What the page shows of a recorded result: never a token (`saved_card.token_name` is not read). */
export type ShownResult = Pick<VerifiedResult, 'outcome' | 'response_code' | 'response_message' | 'status' | 'kind' | 'amount' | 'currency' | 'svc_id' | 'gateway'>;

interface PageContent {
  readonly language: Language;
  readonly shown: Shown;
  readonly reference: string | undefined;
  /** The order's recorded result, for the browser holding the return's proof only. */
  readonly result: ShownResult | undefined;
  /** Why the return was refused, when its proof says so: the reason an unconfirmed page gives. */
  readonly refusal?: EndpointErrorCode | undefined;
  readonly shopUrl: string | undefined;
  readonly stylesHref: string;
}

/** The endpoint's code in the query string, when it is one. */
function refusalCode(value: string | null): EndpointErrorCode | undefined {
  return value !== null && Object.hasOwn(ERROR_MESSAGES, value) ? (value as EndpointErrorCode) : undefined;
}

/** A masked card number as the gateway returned it (`411111******1111`); anything else is not shown. */
function maskedCard(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{0,6}\*+\d{0,4}$/.test(value) ? value : undefined;
}

/** The amount as the customer reads it; nothing when the result names none (a saved card charges nothing). */
function amountText(result: ShownResult, language: Language): string | undefined {
  if (result.kind === 'saved_card' || result.amount === undefined || result.currency === undefined) return undefined;
  try {
    return formatMoney(result.amount, result.currency, language);
  } catch {
    return undefined;
  }
}

/** `<dl>` rows; values marked `ltr` (references, card numbers, codes) are left-to-right islands an Arabic line never splits. */
function rows(lines: readonly (readonly [string, string | undefined, 'ltr'?])[]): string {
  return lines
    .filter((line): line is readonly [string, string, 'ltr'?] => line[1] !== undefined && line[1] !== '')
    .map(([label, value, ltr]) => `<dt>${escapeHtml(label)}</dt><dd><bdi${ltr ? ' dir="ltr"' : ''}>${escapeHtml(value)}</bdi></dd>`)
    .join('');
}

export function renderResultPage(content: PageContent): string {
  const words = OUTCOME_TEXT[content.language].actions;
  const result = content.shown === 'unconfirmed' || content.shown === 'private' ? undefined : content.result;
  const described = result
    ? describeOutcome({ outcome: result.outcome, response_code: result.response_code, status: result.status, savedCard: result.kind === 'saved_card' }, content.language)
    : undefined;
  const own = content.shown === 'unconfirmed' || content.shown === 'private' ? TEXT[content.language][content.shown] : undefined;
  const pending = content.shown === 'pending' ? OUTCOME_TEXT[content.language].pending : undefined;
  const title = described?.title ?? own?.title ?? pending?.title ?? '';
  const reason = described?.reason ?? (content.shown === 'unconfirmed' && content.refusal ? ERROR_MESSAGES[content.refusal][content.language] : undefined);
  const refreshes = content.shown === 'pending' ? ` ${TEXT[content.language].refreshes}` : '';
  const body = `${described?.next ?? own?.body ?? pending?.next ?? ''}${refreshes}`;
  const summary = rows([
    [words.amount, result ? amountText(result, content.language) : undefined],
    [words.order, content.reference, 'ltr'],
    [words.card, result ? maskedCard(result.gateway['card_number']) : undefined, 'ltr'],
  ]);
  // For the shop's developers: the gateway's own words (English), apart from what the customer reads.
  const details = result
    ? rows([
        ['response_code', result.response_code, 'ltr'],
        ['response_message', result.response_message, 'ltr'],
        ['status', result.status, 'ltr'],
        ['svc_id', result.svc_id, 'ltr'],
      ])
    : '';
  const lines = [
    '<!doctype html>',
    `<html lang="${content.language}" dir="${directionOf(content.language)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    content.shown === 'pending' ? '<meta http-equiv="refresh" content="5">' : '',
    `<title>${escapeHtml(title)}</title>`,
    `<link rel="stylesheet" href="${escapeHtml(content.stylesHref)}">`,
    '</head>',
    '<body>',
    `<main data-outcome="${content.shown}">`,
    `<h1>${escapeHtml(title)}</h1>`,
    reason ? `<p class="reason">${escapeHtml(reason)}</p>` : '',
    `<p>${escapeHtml(body)}</p>`,
    summary ? `<dl class="summary">${summary}</dl>` : '',
    content.shopUrl ? `<p class="actions"><a href="${escapeHtml(content.shopUrl)}">${escapeHtml(words.backToShop)}</a></p>` : '',
    details ? `<details><summary>${escapeHtml(words.details)}</summary><dl>${details}</dl></details>` : '',
    '</main>',
    '</body>',
    '</html>',
  ];
  return `${lines.filter((line) => line !== '').join('\n')}\n`;
}

/** Whether the return was to pay, or only to save a card (nothing is charged then). */
export type ReturnIntent = 'pay' | 'save-card';

/**
 * What the customer reads when their return could not be recorded (the store is down): not
 * confirmed yet, never "failed" or "try again" (the payment may have gone through), and not to pay
 * again. `next` is the page's way on (posting the same return again is safe: it is recorded once);
 * `framed` is the element's line, where there is no page to reload.
 */
export const NOT_RECORDED_TEXT: Readonly<Record<Language, Readonly<Record<ReturnIntent, { title: string; body: string; next: string; framed: string }>>>> = {
  en: {
    pay: {
      title: 'Payment not confirmed yet',
      body: 'We could not confirm your payment just now. Please do not pay again.',
      next: 'Reload this page in a minute to finish confirming it, or check your order with the shop.',
      framed: 'We could not confirm your payment just now. Please do not pay again: check your order with the shop in a few minutes.',
    },
    'save-card': {
      title: 'Card not confirmed yet',
      body: 'We could not confirm your saved card just now. Nothing was charged.',
      next: 'Reload this page in a minute to finish confirming it.',
      framed: 'We could not confirm your saved card just now. Nothing was charged: please try again in a few minutes.',
    },
  },
  ar: {
    pay: {
      title: 'لم يتم تأكيد الدفع بعد',
      body: 'تعذر علينا تأكيد دفعتك الآن. يرجى عدم الدفع مرة أخرى.',
      next: 'أعد تحميل هذه الصفحة بعد دقيقة لإكمال التأكيد، أو راجع طلبك لدى المتجر.',
      framed: 'تعذر علينا تأكيد دفعتك الآن. يرجى عدم الدفع مرة أخرى: راجع طلبك لدى المتجر بعد بضع دقائق.',
    },
    'save-card': {
      title: 'لم يتم تأكيد البطاقة بعد',
      body: 'تعذر علينا تأكيد بطاقتك المحفوظة الآن. لم يتم خصم أي مبلغ.',
      next: 'أعد تحميل هذه الصفحة بعد دقيقة لإكمال التأكيد.',
      framed: 'تعذر علينا تأكيد بطاقتك المحفوظة الآن. لم يتم خصم أي مبلغ: يرجى المحاولة مرة أخرى بعد بضع دقائق.',
    },
  },
};

/**
 * The page a top-level return gets when it could not be recorded (the store or the shop's order
 * lookup is down: 503; a fault of the endpoint's own: 500), with `Retry-After`, nothing recorded. The endpoint may be mounted in any shop, where the service's
 * stylesheet route does not exist, so the page carries its style under a nonce; no script, no
 * form, framed by no one. `reference` is the verified return's order, for the customer to name to the shop.
 */
export function returnNotRecordedPage(language: Language, intent: ReturnIntent, reference: string | undefined, status = 503): Response {
  const text = NOT_RECORDED_TEXT[language][intent];
  const nonce = cspNonce();
  const summary = rows([[OUTCOME_TEXT[language].actions.order, reference, 'ltr']]);
  const lines = [
    '<!doctype html>',
    `<html lang="${language}" dir="${directionOf(language)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(text.title)}</title>`,
    `<style nonce="${nonce}">${STYLES}</style>`,
    '</head>',
    '<body>',
    '<main data-outcome="pending">',
    `<h1>${escapeHtml(text.title)}</h1>`,
    `<p class="reason">${escapeHtml(text.body)}</p>`,
    `<p>${escapeHtml(text.next)}</p>`,
    summary ? `<dl class="summary">${summary}</dl>` : '',
    '</main>',
    '</body>',
    '</html>',
  ];
  return new Response(`${lines.filter((line) => line !== '').join('\n')}\n`, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'retry-after': String(STORE_RETRY_AFTER_SECONDS),
      ...PAGE_HEADERS,
    },
  });
}
