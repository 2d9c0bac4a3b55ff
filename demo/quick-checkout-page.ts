/**
 * `/quick-checkout`: a page the shop's server writes whole, with `<pg-checkout>`'s first screen
 * already in it (the endpoint's `first-screen` route): the card form is usable before the
 * element's script arrives, and pays with no script at all. One product, bought now; `?lang=ar`
 * for Arabic. The page's Content-Security-Policy allows the element's `<style>` by its nonce.
 */
import { firstScreenHtml } from '../src/server/index.ts';
import { DEMO_CSP } from './csp.ts';
import { createOrder, newSession, sessionCookie, sessionOf, type DemoState } from './demo-api.ts';
import { MESSAGES } from './i18n.ts';

export const QUICK_CHECKOUT_PATH = '/quick-checkout';

const TEXT = {
  en: { title: 'Quick checkout — Nile Gadgets', heading: 'Wireless earbuds, bought now', other: 'العربية', back: 'Back to the shop', failed: 'The checkout could not be prepared' },
  ar: { title: 'دفع سريع — نايل جادجتس', heading: 'سماعات لاسلكية، شراء فوري', other: 'English', back: 'العودة إلى المتجر', failed: 'تعذّر تجهيز الدفع' },
} as const;

export async function quickCheckoutPage(state: DemoState, request: Request): Promise<Response> {
  const language = new URL(request.url).searchParams.get('lang') === 'ar' ? 'ar' : 'en';
  const text = TEXT[language];
  const existing = sessionOf(state, request);
  const session = existing ?? newSession();
  const order = createOrder(state, [{ sku: 'buds', quantity: 1 }], session);
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  // What a shop's server does while writing its page: ask its endpoint, as this customer, for the first screen.
  const asCustomer = new Request(request.url, { headers: { cookie: `${state.sessionCookie}=${session}` } });
  const checkout = await firstScreenHtml(state.endpoint, asCustomer, {
    endpointUrl: `${state.origin}/pg`,
    endpoint: '/pg',
    merchantReference: order.merchant_reference,
    language,
    mode: 'drop-in',
    methods: ['card', 'voucher'],
    styleNonce: nonce,
  }).catch(() => undefined);
  const page = `<!doctype html>
<html lang="${language}" dir="${language === 'ar' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${text.title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml" />
<link rel="stylesheet" href="/demo.css" />
<link rel="stylesheet" href="/themes/default.css" />
<script type="module" src="/quick-checkout.ts"></script>
</head>
<body>
<header class="site-header"><a class="brand" href="/">${MESSAGES[language].brand}</a><nav class="switches"><a href="?lang=${language === 'ar' ? 'en' : 'ar'}" lang="${language === 'ar' ? 'en' : 'ar'}">${text.other}</a> <a href="/">${text.back}</a></nav></header>
<main id="main"><section class="checkout"><h1>${text.heading}</h1>
${checkout ?? `<p class="message" role="alert">${text.failed}</p>`}
</section></main>
</body>
</html>`;
  const headers: Record<string, string> = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': DEMO_CSP.replace("style-src 'self'", `style-src 'self' 'nonce-${nonce}'`),
  };
  if (!existing) headers['set-cookie'] = sessionCookie(state, session);
  return new Response(page, { status: checkout ? 200 : 502, headers });
}
