/**
 * The small pages the return route answers inside a frame (the embedded gateway page, the merchant
 * page's hidden frame, the 3-D Secure dialog): instead of sending the customer's page anywhere,
 * the page tells the element what happened with `postMessage`, to the endpoint's public origin and
 * its allowed origins only, and can itself be framed by those origins only.
 *
 * What a page says is the framed message of the contract (core endpoint-api.ts): outcome,
 * reference, order state, a localized message; or, from the embedded page, that the card is ready
 * (the endpoint's sealed card stays in the frame's own form). Never a card number, token or signature. The data
 * travels in a JSON block that no browser runs; one nonce'd script posts it.
 */
import type { FramedReadyMessage, FramedResultMessage, FramedThreeDsMessage } from '../core/endpoint-results.ts';
import { escapeHtml } from '../core/html-text.ts';
import { directionOf, type Language } from '../core/language.ts';

const TEXT: Readonly<
  Record<Language, { readonly result: string; readonly threeDs: string; readonly continue: string; readonly check: string; readonly ready: string; readonly readyText: string }>
> = {
  en: {
    ready: 'Card ready',
    readyText: 'Nothing has been charged yet. Select Pay below this frame to pay.',
    result: 'Payment result',
    threeDs: 'Card check',
    continue: 'See your order',
    check: 'Continue to your bank’s card check',
  },
  ar: {
    ready: 'البطاقة جاهزة',
    readyText: 'لم يتم خصم أي مبلغ بعد. اختر زر الدفع أسفل هذا الإطار لإتمام الدفع.',
    result: 'نتيجة الدفع',
    threeDs: 'التحقق من البطاقة',
    continue: 'عرض طلبك',
    check: 'تابع إلى تحقق البنك من البطاقة',
  },
};

/** Where a framed page may post its message and who may frame it: the endpoint's own origin and the allowed ones. */
export interface FramedPageOrigins {
  readonly publicOrigin: string;
  readonly allowedOrigins: ReadonlySet<string>;
}

function originsOf(origins: FramedPageOrigins): string[] {
  return [...new Set([origins.publicOrigin, ...origins.allowedOrigins])];
}

/** JSON that cannot close its <script> block. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/** A fresh nonce for one page's Content-Security-Policy (its own style, its own script). */
export function cspNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * Posts the message to the parent: to the parent's own origin when the browser names it
 * (`location.ancestorOrigins`) and it is one of the targets, else to each target in turn (a
 * target that is not the parent's origin is dropped by the browser).
 */
const POST_SCRIPT = `(function () {
  var read = function (id) { return JSON.parse(document.getElementById(id).textContent); };
  var message = read('pg-message');
  var targets = read('pg-targets');
  if (window.parent === window) return;
  var ancestors = location.ancestorOrigins;
  var to = ancestors && ancestors.length > 0 ? targets.filter(function (origin) { return origin === ancestors[0]; }) : targets;
  to.forEach(function (origin) { window.parent.postMessage(message, origin); });
})();`;

/**
 * The ready page's second script: the element's Pay button asks (`pg-checkout:confirm`, from the
 * parent window and one of the targets only), and the page posts its form to the confirm route.
 */
const CONFIRM_SCRIPT = `(function () {
  var targets = JSON.parse(document.getElementById('pg-targets').textContent);
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || targets.indexOf(event.origin) < 0 || event.data !== 'pg-checkout:confirm') return;
    HTMLFormElement.prototype.submit.call(document.getElementById('pg-confirm'));
  });
})();`;

const STYLES = `
  body { margin: 0; padding: 1rem; font-family: system-ui, sans-serif; line-height: 1.5; color: #1d2330; background: #fff; }
  h1 { font-size: 1.1rem; margin-block: 0 0.5rem; }
`;

function page(
  language: Language,
  title: string,
  body: string,
  message: FramedResultMessage | FramedThreeDsMessage | FramedReadyMessage,
  origins: FramedPageOrigins,
  confirmAction?: string,
  answer: FramedAnswer = {},
): Response {
  const targets = originsOf(origins);
  const value = cspNonce();
  // The ready page's form goes to its own origin: its Origin header must be sent (no-referrer would make it "null").
  const referrer = confirmAction ? 'same-origin' : 'no-referrer';
  const html = `<!doctype html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${referrer}">
<title>${escapeHtml(title)}</title>
<style nonce="${value}">${STYLES}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
<script type="application/json" id="pg-message">${scriptJson(message)}</script>
<script type="application/json" id="pg-targets">${scriptJson(targets)}</script>
<script nonce="${value}">${POST_SCRIPT}</script>
${confirmAction ? `<script nonce="${value}">${CONFIRM_SCRIPT}</script>` : ''}
</body>
</html>`;
  const policy = [
    "default-src 'none'",
    `script-src 'nonce-${value}'`,
    `style-src 'nonce-${value}'`,
    "base-uri 'none'",
    `form-action ${confirmAction ?? "'none'"}`,
    `frame-ancestors ${targets.join(' ')}`,
  ].join('; ');
  return new Response(html, {
    status: answer.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': policy,
      'cache-control': 'no-store',
      'referrer-policy': referrer,
      'x-content-type-options': 'nosniff',
      ...answer.headers,
    },
  });
}

/** The HTTP status of a framed page (200 unless told) and headers of its own (`Retry-After`). */
export interface FramedAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The outcome, for the element; a link to the merchant's result page for a browser that runs no script. */
export function framedResultPage(message: FramedResultMessage, language: Language, origins: FramedPageOrigins, answer?: FramedAnswer): Response {
  const text = TEXT[language];
  const link = message.result_url
    ? `<p><a href="${escapeHtml(message.result_url)}" target="_top">${escapeHtml(text.continue)}</a></p>`
    : '';
  return page(language, text.result, `<p>${escapeHtml(message.message)}</p>${link}`, message, origins, undefined, answer);
}

/** The gateway asks for 3-D Secure: the element opens `url` in its dialog (a link for a browser that runs no script). */
export function framedThreeDsPage(message: FramedThreeDsMessage, language: Language, origins: FramedPageOrigins): Response {
  const text = TEXT[language];
  return page(language, text.threeDs, `<p><a href="${escapeHtml(message.url)}">${escapeHtml(text.check)}</a></p>`, message, origins);
}

/**
 * The embedded page took the card and nothing is charged: the element shows its Pay button. The
 * page keeps the endpoint's sealed card (opaque to any browser) in a form to `action`, the confirm
 * route, which it posts only when the element's Pay button asks: the shop's page never holds it.
 */
export function framedReadyPage(
  message: FramedReadyMessage,
  confirm: { readonly action: string; readonly card: string },
  language: Language,
  origins: FramedPageOrigins,
): Response {
  const text = TEXT[language];
  const fields = { card: confirm.card, merchant_reference: message.merchant_reference, language };
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
  const form = `<form id="pg-confirm" method="post" action="${escapeHtml(confirm.action)}">${inputs}</form>`;
  return page(language, text.ready, `<p>${escapeHtml(text.readyText)}</p>${form}`, message, origins, confirm.action);
}
