/**
 * The service's own result page, where the customer lands after paying when the shop has set no
 * `PG_RESULT_URL`: plain HTML in the language of the payment (right to left in Arabic), a strict
 * Content-Security-Policy and no script at all, and a link back to the shop (`PG_SHOP_URL`).
 *
 * It does not trust its query string (anyone can type `?outcome=success`): the outcome shown is
 * the result the service recorded for the order, and only to a browser holding the `proof` the
 * return signed into its redirect (result-proof.ts); anyone else sees a page with nothing of the order. Without one, the page says the payment is being
 * confirmed and refreshes itself, or, when the return was refused, that it could not be confirmed.
 */
import { directionOf, isLanguage, type Language } from '../core/language.ts';
import { field } from '../core/schemas/index.ts';
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

const TEXT: Readonly<Record<Language, Readonly<Record<Shown, { title: string; body: string }>> & { order: string; back: string }>> = {
  en: {
    success: { title: 'Payment received', body: 'Thank you: your payment has been received.' },
    pending: { title: 'Confirming your payment', body: 'The payment gateway has not confirmed this payment yet. This page refreshes by itself.' },
    failure: { title: 'Payment not completed', body: 'This payment did not go through. You can try again from the shop.' },
    unconfirmed: { title: 'Payment not confirmed', body: 'We could not confirm a payment for this order. If you paid, the shop will be told by the payment gateway.' },
    private: { title: 'Payment status', body: 'This link no longer shows a payment. The shop has your order’s status: please check it there.' },
    order: 'Order',
    back: 'Back to the shop',
  },
  ar: {
    success: { title: 'تم استلام الدفع', body: 'شكرًا لك: تم استلام دفعتك.' },
    pending: { title: 'جارٍ تأكيد الدفع', body: 'لم تؤكد بوابة الدفع هذه الدفعة بعد. ستُحدَّث هذه الصفحة تلقائيًا.' },
    failure: { title: 'لم يكتمل الدفع', body: 'لم تتم عملية الدفع هذه. يمكنك المحاولة مرة أخرى من المتجر.' },
    unconfirmed: { title: 'لم يتم تأكيد الدفع', body: 'تعذر علينا تأكيد دفعة لهذا الطلب. إذا كنت قد دفعت، فستُبلغ بوابة الدفع المتجر بذلك.' },
    private: { title: 'حالة الدفع', body: 'لم يعد هذا الرابط يعرض دفعة. حالة طلبك لدى المتجر: يرجى مراجعتها هناك.' },
    order: 'الطلب',
    back: 'العودة إلى المتجر',
  },
};

/** The page allows its own stylesheet and nothing else: no script, no frame, no form. */
export const RESULT_PAGE_CSP =
  "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLES = `body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:#1f2328;background:#f6f8fa}
main{max-inline-size:32rem;margin-block:4rem;margin-inline:auto;padding:2rem;background:#fff;border-radius:.5rem;border:1px solid #d0d7de}
h1{margin-block:0 1rem;font-size:1.5rem}
main[data-outcome=success] h1{color:#1a7f37}
main[data-outcome=failure] h1,main[data-outcome=unconfirmed] h1{color:#b42318}
dl{display:flex;gap:.5rem}dt{font-weight:600}dd{margin:0}
a{color:#0550ae}`;

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

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
    const reference = field('merchant_reference').safeParse(url.searchParams.get('merchant_reference'));
    // Only the browser the gateway returned holds a proof for the reference: anyone else sees nothing of the order.
    const proven = reference.success && (await options.proofs.check(reference.data, url.searchParams.get(RESULT_PROOF_PARAMETER)));
    const recorded = proven ? await options.results.latestFor(reference.data) : undefined;
    const paymentLanguage = recorded?.gateway['language'];
    const language: Language = isLanguage(paymentLanguage) ? paymentLanguage : languageFromHeaders(request);
    const shown: Shown = !reference.success
      ? 'unconfirmed'
      : !proven
        ? 'private'
        : recorded
          ? recorded.outcome
          : url.searchParams.get('outcome') === 'failure'
            ? 'unconfirmed'
            : 'pending';
    const html = renderResultPage({
      language,
      shown,
      reference: proven ? reference.data : undefined,
      gatewayMessage: recorded?.outcome === 'failure' ? recorded.response_message : undefined,
      shopUrl: options.shopUrl,
      stylesHref: stylesPath,
    });
    return new Response(html, {
      status: reference.success ? 200 : 400,
      headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': RESULT_PAGE_CSP, ...PAGE_HEADERS },
    });
  };
}

interface PageContent {
  readonly language: Language;
  readonly shown: Shown;
  readonly reference: string | undefined;
  /** The gateway's reason for a failure, in the payment's language. */
  readonly gatewayMessage: string | undefined;
  readonly shopUrl: string | undefined;
  readonly stylesHref: string;
}

export function renderResultPage(content: PageContent): string {
  const text = TEXT[content.language];
  const { title, body } = text[content.shown];
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
    `<p>${escapeHtml(body)}</p>`,
    content.gatewayMessage ? `<p>${escapeHtml(content.gatewayMessage)}</p>` : '',
    content.reference ? `<dl><dt>${escapeHtml(text.order)}</dt><dd><bdi>${escapeHtml(content.reference)}</bdi></dd></dl>` : '',
    content.shopUrl ? `<p><a href="${escapeHtml(content.shopUrl)}">${escapeHtml(text.back)}</a></p>` : '',
    '</main>',
    '</body>',
    '</html>',
  ];
  return `${lines.filter((line) => line !== '').join('\n')}\n`;
}
