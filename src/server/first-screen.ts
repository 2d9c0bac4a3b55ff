/**
 * The first screen of `<pg-checkout>`, written by the shop's server into its page: the element
 * with a declarative shadow root already holding the card form, its Pay button naming the order's
 * amount and the merchant page's signed TOKENIZATION. The customer can type and pay before any
 * script has arrived, and with no script at all: the form posts the card straight to the gateway
 * (never to the shop), and the gateway's return lands, at the top level, on the endpoint's return
 * route, which completes the payment as it does for a hidden frame and sends the customer on to
 * the result page. When the element's script runs, it takes the markup over, keeping what was
 * typed (pg-checkout.ts).
 *
 * Asked for by the shop's server (`POST {endpoint}/first-screen`, the caller's own order as for
 * every route), never by the elements: docs/endpoint.md, "The first screen".
 */
import { formatMoney } from '../core/amounts.ts';
import { FIRST_SCREEN_ROUTE, firstScreenRequest, type FirstScreenRequest, type FormPostResult } from '../core/endpoint-api.ts';
import { ORDER_TOKEN_HEADER } from '../core/endpoint-routes.ts';
import { escapeHtml } from '../core/html-text.ts';
import { directionOf, type Language } from '../core/language.ts';
import { FIELD_RULES, formatPattern } from '../core/schemas/fields.ts';
import { object, string } from '../core/shape.ts';
import { cardFormStyles } from '../components/shared/card-form.ts';
import { loadCatalog, ltr } from '../components/shared/localize.ts';
import { foundationStyles } from '../components/shared/styles.ts';
import { checkoutStyles } from '../components/pg-checkout/styles.ts';
import { checkoutMessages, type CheckoutMessages } from '../components/pg-checkout/messages.ts';
import type { PaymentMethod } from '../components/pg-checkout/events.ts';
import { EndpointRefusal } from './errors.ts';
import { merchantPageForm } from './routes-payment-pages.ts';
import { defineRoute, type JsonRoute } from './route.ts';
import { PAYMENT_COMMANDS } from './orders.ts';

/** What the first screen shows and posts. */
export interface FirstScreen {
  /** The merchant page's signed TOKENIZATION, not framed (`merchantPageForm`). */
  readonly form: FormPostResult;
  readonly amount: number;
  readonly currency: string;
  readonly language: Language;
  /** The element's text in `language` (`checkoutMessages`, its Arabic loaded on demand as in the page). */
  readonly messages: CheckoutMessages;
  readonly mode: 'merchant-page' | 'drop-in';
  /** Drop-in: the methods offered, the card first. */
  readonly methods?: readonly PaymentMethod[];
  /** The element's attributes, as the browser will use them. */
  readonly endpoint: string;
  readonly merchantReference: string;
  readonly command?: string;
  readonly orderToken?: string;
  readonly themeHref?: string;
  readonly hideRememberMe?: boolean;
  /** The account lets the security code be left empty (CVV suppression). */
  readonly cvvOptional?: boolean;
  /** The page's Content-Security-Policy nonce for the element's `<style>`. */
  readonly styleNonce?: string;
}

/**
 * Text only the first screen needs: without a script nothing can turn "MM/YY" into the gateway's
 * `expiry_date`, so its field is the gateway's own, year then month.
 */
const NO_SCRIPT_TEXT = {
  en: {
    expiryHint: '4 digits, year then month: 2712 for December 2027',
    numberTitle: 'Digits only, without spaces',
    cvvTitle: '3 or 4 digits',
  },
  ar: {
    expiryHint: '٤ أرقام، السنة ثم الشهر: 2712 لشهر ديسمبر 2027',
    numberTitle: 'أرقام فقط، بلا مسافات',
    cvvTitle: '٣ أو ٤ أرقام',
  },
} as const;

/**
 * The gateway's rules for the card fields, as the browser checks them without a script (a `pattern`
 * is anchored by the browser): digits only, the expiry YYMM, the lengths the spec allows.
 */
const CARD_NUMBER_PATTERN = `[0-9]{12,${FIELD_RULES.card_number.maxLength}}`;
const EXPIRY_PATTERN = formatPattern(FIELD_RULES.expiry_date.format).source.replace(/^\^|\$$/g, '');
const CVV_PATTERN = `[0-9]{3,${FIELD_RULES.card_security_code.maxLength}}`;

/** The element's own style sheets, as its shadow root adopts them, in one `<style>`. */
const ELEMENT_CSS = [foundationStyles, cardFormStyles, checkoutStyles]
  .map((sheet) => sheet.cssText)
  .join('')
  .replace(/\s+/g, ' ');

/** The `<pg-checkout>` element of `screen`, its first screen in a declarative shadow root. */
export function renderFirstScreen(screen: FirstScreen): string {
  const m = screen.messages;
  const extra = NO_SCRIPT_TEXT[screen.language];
  const attributes = attributesOf({
    mode: screen.mode,
    methods: screen.mode === 'drop-in' && screen.methods ? screen.methods.join(' ') : undefined,
    endpoint: screen.endpoint,
    'merchant-reference': screen.merchantReference,
    language: screen.language,
    command: screen.command,
    'order-token': screen.orderToken,
    'theme-href': screen.themeHref,
    'hide-remember-me': screen.hideRememberMe ? '' : undefined,
  });
  const card = m.card;
  const cvvHint = screen.cvvOptional ? `${card.cvvOptional}: ${card.cvvHint}` : card.cvvHint;
  const pay = textOf(m.payAmount(ltr(formatMoney(screen.amount, screen.currency, screen.language))));
  const hidden = Object.entries(screen.form.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const remember = screen.hideRememberMe
    ? ''
    : `<div class="check remember"><input id="remember-me" name="remember_me" type="checkbox" value="YES"><label for="remember-me">${escapeHtml(card.rememberMe)}</label></div>`;
  return `<pg-checkout${attributes}><template shadowrootmode="open">\
<style${screen.styleNonce ? ` nonce="${escapeHtml(screen.styleNonce)}"` : ''}>${ELEMENT_CSS}</style>\
${screen.themeHref ? `<link rel="stylesheet" href="${escapeHtml(screen.themeHref)}">` : ''}\
<div class="frame" part="frame" dir="${directionOf(screen.language)}" lang="${screen.language}" data-pg-first-screen>\
${screen.mode === 'drop-in' ? renderMethods(m, screen.methods ?? ['card']) : ''}\
<div class="method-panel" part="method-panel">\
<form class="pay-form" method="post" action="${escapeHtml(screen.form.action)}" accept-charset="utf-8">${hidden}\
<fieldset class="credit-card-container" part="credit-card-container"><legend>${escapeHtml(card.legend)}</legend>\
<div class="floatl card-number" part="floatl"><label for="card-number">${escapeHtml(card.number)}</label>\
<div class="number-row"><input id="card-number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" dir="ltr" spellcheck="false" required pattern="${CARD_NUMBER_PATTERN}" maxlength="${FIELD_RULES.card_number.maxLength}" title="${escapeHtml(extra.numberTitle)}" aria-describedby="card-number-hint card-brand"><span id="card-brand" class="brand" part="brand"></span></div>\
<span id="card-number-hint" class="hint">${escapeHtml(card.numberHint)}</span></div>\
<div class="split"><div class="floatl half1" part="floatl half1"><label for="card-expiry">${escapeHtml(card.expiry)}</label>\
<input id="card-expiry" name="expiry_date" type="text" inputmode="numeric" autocomplete="off" dir="ltr" required pattern="${EXPIRY_PATTERN}" maxlength="${FIELD_RULES.expiry_date.length}" placeholder="YYMM" title="${escapeHtml(extra.expiryHint)}" aria-describedby="card-expiry-hint">\
<span id="card-expiry-hint" class="hint">${escapeHtml(extra.expiryHint)}</span></div>\
<div class="floatl half2" part="floatl half2"><label for="card-cvv">${escapeHtml(card.cvv)}</label>\
<input id="card-cvv" name="card_security_code" type="text" inputmode="numeric" autocomplete="cc-csc" dir="ltr"${screen.cvvOptional ? '' : ' required'} pattern="${CVV_PATTERN}" maxlength="${FIELD_RULES.card_security_code.maxLength}" title="${escapeHtml(extra.cvvTitle)}" aria-describedby="card-cvv-hint">\
<span id="card-cvv-hint" class="hint">${escapeHtml(cvvHint)}</span></div></div>\
<div class="floatl" part="floatl"><label for="card-holder">${escapeHtml(card.holder)}</label>\
<input id="card-holder" name="card_holder_name" type="text" autocomplete="cc-name" spellcheck="false" required maxlength="50"></div>\
${remember}</fieldset>\
<p class="note muted">${escapeHtml(m.merchantPageNote)}</p>\
<button type="submit" class="Pay" part="Pay">${pay}</button></form></div>\
<span class="status visually-hidden" part="status" role="status"></span></div></template></pg-checkout>`;
}

/** The drop-in's methods as the element shows them, the card chosen; the others wait for the script. */
function renderMethods(m: CheckoutMessages, methods: readonly PaymentMethod[]): string {
  const choices = methods
    .map(
      (method) =>
        `<label class="check method${method === 'card' ? ' selected' : ''}" part="method"><input type="radio" name="method" value="${method}"${method === 'card' ? ' checked' : ' disabled'}><span>${escapeHtml(m.methods[method])}</span></label>`,
    )
    .join('');
  return `<fieldset class="methods" part="methods"><legend>${escapeHtml(m.methodsLegend)}</legend><div class="method-list">${choices}</div></fieldset>`;
}

function attributesOf(values: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => (value === '' ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`))
    .join('');
}

interface TextTemplate {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

/**
 * A message as HTML: the catalogs' texts are strings, or Lit templates made of text and other
 * templates only (`html\`Pay ${amount}\``), whose static parts are the catalog's own markup.
 */
function textOf(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return escapeHtml(String(value));
  const template = value as Partial<TextTemplate>;
  if (!template.strings || !template.values) return '';
  return template.strings.reduce((text, part, index) => text + (index === 0 ? '' : textOf(template.values?.[index - 1])) + part, '');
}

const firstScreenResult = object({ html: string });

/**
 * `POST {endpoint}/first-screen`: the element's first screen for the caller's order. The card is
 * the only method written without a script, so a drop-in must list it first.
 */
export const firstScreenRoute: JsonRoute<unknown> = defineRoute<FirstScreenRequest>({
  schema: firstScreenRequest,
  result: firstScreenResult,
  commands: PAYMENT_COMMANDS,
  async handle({ input, order, language, request, runtime }) {
    const mode = input.mode ?? 'merchant-page';
    if (input.methods !== undefined && (mode !== 'drop-in' || input.methods[0] !== 'card')) {
      throw new EndpointRefusal('invalid_request', { field: 'methods', message: METHODS_REFUSAL });
    }
    // Not framed: posted by the page itself, the return comes back at the top level.
    const form = await merchantPageForm(runtime, order, language, {
      merchant_reference: order.merchant_reference,
      language,
      amount: order.amount,
      currency: order.currency,
      ...(input.command ? { command: input.command } : {}),
    });
    const orderToken = request.headers.get(ORDER_TOKEN_HEADER) ?? undefined;
    const html = renderFirstScreen({
      form,
      amount: order.amount,
      currency: order.currency,
      language,
      messages: await loadCatalog(checkoutMessages, language),
      mode,
      ...(input.methods ? { methods: input.methods } : {}),
      endpoint: input.endpoint,
      merchantReference: input.merchant_reference,
      ...(input.command ? { command: input.command } : {}),
      ...(orderToken ? { orderToken } : {}),
      ...(input.theme_href ? { themeHref: input.theme_href } : {}),
      ...(input.hide_remember_me ? { hideRememberMe: true } : {}),
      ...(runtime.settings.cvvSuppression ? { cvvOptional: true } : {}),
      ...(input.style_nonce ? { styleNonce: input.style_nonce } : {}),
    });
    return { html };
  },
});

const METHODS_REFUSAL = {
  en: 'methods: only a drop-in lists methods, and its first screen is the card, so "card" comes first',
  ar: 'methods: الطرق للعرض المجمّع فقط، وشاشته الأولى هي البطاقة، فتأتي "card" أولًا',
};

/** What a shop's server names when it asks for the first screen (`firstScreenHtml`). */
export interface FirstScreenOptions {
  /** The endpoint's URL as this server reaches it, its base path included (`https://shop.example/pg`). */
  readonly endpointUrl: string;
  /** The element's `endpoint` attribute: the URL the browser calls (`/pg`). */
  readonly endpoint: string;
  readonly merchantReference: string;
  readonly language?: Language;
  /** `merchant-page` (default) or `drop-in`, whose `methods` list the card first. */
  readonly mode?: 'merchant-page' | 'drop-in';
  readonly methods?: readonly PaymentMethod[];
  readonly command?: 'PURCHASE' | 'AUTHORIZATION';
  readonly themeHref?: string;
  readonly hideRememberMe?: boolean;
  /** The page's Content-Security-Policy nonce, when its `style-src` has no `'unsafe-inline'`. */
  readonly styleNonce?: string;
  /**
   * How long the page may wait (default 3000 ms): a gateway that does not answer the endpoint's
   * CHECK_STATUS holds the first screen up to the gateway client's time limit (5 s).
   */
  readonly timeoutMs?: number;
}

/**
 * The `<pg-checkout>` element with its first screen, for the customer whose `request` the shop's
 * server is answering: asks `endpoint` (this process's handler) as that customer, their cookie
 * and order token passed on, so the order lookup sees whose order it is. Throws the endpoint's
 * refusal (`code`, `message`) when it cannot write it; the page may then give the plain element.
 */
export async function firstScreenHtml(
  endpoint: (request: Request) => Promise<Response>,
  request: Request,
  options: FirstScreenOptions,
): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of ['cookie', ORDER_TOKEN_HEADER]) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body = {
    merchant_reference: options.merchantReference,
    language: options.language ?? 'en',
    endpoint: options.endpoint,
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.methods ? { methods: options.methods } : {}),
    ...(options.command ? { command: options.command } : {}),
    ...(options.themeHref ? { theme_href: options.themeHref } : {}),
    ...(options.hideRememberMe ? { hide_remember_me: true } : {}),
    ...(options.styleNonce ? { style_nonce: options.styleNonce } : {}),
  };
  const url = `${options.endpointUrl.replace(/\/$/, '')}${FIRST_SCREEN_ROUTE}`;
  const asked = endpoint(new Request(url, { method: 'POST', headers, body: JSON.stringify(body) })).then(async (answer) => {
    const read = (await answer.json()) as { html?: unknown; error?: { code?: string; message?: string } };
    if (answer.ok && typeof read.html === 'string') return read.html;
    throw refusal(read.error?.message ?? `first screen: HTTP ${answer.status}`, read.error?.code ?? 'internal_error');
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(refusal('first screen: the endpoint did not answer in time', 'timeout')), options.timeoutMs ?? 3000);
  });
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

function refusal(message: string, code: string): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}
