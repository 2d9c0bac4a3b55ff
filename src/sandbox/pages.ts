/**
 * The sandbox's HTML pages: card entry (with the installment plan choice), the 3-D Secure
 * challenge, the return to the merchant (a signed form that submits itself), and the error pages.
 * Plain HTML that works without script, every control labelled, `lang`/`dir` from the request
 * language, and a Content-Security-Policy with a per-response nonce: no inline handlers, nonce'd
 * scripts only (the return page's self-submission; in a frame, the card and challenge pages'
 * height report to the merchant's page).
 *
 * A page of a merchant's payment says who may frame it (`frame-ancestors`: the origin of the
 * return address and the account's framing origins, never `*`); pages that belong to no known
 * payment (an expired session, an unreadable request) carry no action to trick anyone into. The spec's style class names (installments-container,
 * credit-card-container, floatl, half1, half2, full-width, error, Pay) are applied as given.
 */
import { directionOf, type Language } from '../core/language.ts';
import { PAGE_TEXT } from './page-text.ts';
import { TEST_CARDS } from './test-cards.ts';
import { randomHex } from './wire.ts';

import { escapeHtml } from '../core/html-text.ts';

export { escapeHtml };

/** A page ready to send: the HTML and what its Content-Security-Policy must allow. */
export interface HtmlPage {
  readonly html: string;
  readonly status: number;
  readonly nonce: string;
  /** Where its forms post: 'self' and/or the merchant's origin. */
  readonly formActions: readonly string[];
  readonly script: boolean;
  /** Origins whose pages may frame it (`frame-ancestors`); absent for pages of no known payment. */
  readonly frameAncestors?: readonly string[];
}

export function htmlResponse(page: HtmlPage, headers: Record<string, string> = {}): Response {
  const ancestors = page.frameAncestors;
  const policy = [
    "default-src 'none'",
    `style-src 'nonce-${page.nonce}'`,
    page.script ? `script-src 'nonce-${page.nonce}'` : '',
    `form-action ${page.formActions.join(' ')}`,
    "base-uri 'none'",
    ancestors ? `frame-ancestors ${ancestors.length > 0 ? ancestors.join(' ') : "'none'"}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return new Response(page.html, {
    status: page.status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': policy,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
  });
}

const STYLES = `
  :root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { margin: 0; padding-block: 2rem; padding-inline: 1rem; background: #f4f5f7; color: #1d2330; }
  main { max-inline-size: 28rem; margin-inline: auto; background: #fff; padding: 1.5rem; border-radius: 0.5rem; box-shadow: 0 1px 3px #0002; }
  h1 { font-size: 1.3rem; margin-block: 0 1rem; }
  .notice { font-size: 0.85rem; background: #fff7d6; padding: 0.5rem 0.75rem; border-radius: 0.25rem; }
  dl.summary { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; }
  dl.summary dt { font-weight: 600; }
  dl.summary dd { margin: 0; overflow-wrap: break-word; }
  .floatl { margin-block-end: 1rem; }
  .floatl label { display: block; font-weight: 600; }
  .floatl .hint { display: block; font-size: 0.85rem; color: #4a5263; }
  input, select { box-sizing: border-box; inline-size: 100%; font: inherit; padding: 0.5rem; border: 1px solid #8a93a6; border-radius: 0.25rem; }
  input[aria-invalid="true"], select[aria-invalid="true"] { border-color: #b00020; }
  input[name="card_number"], input[name="expiry_date"], input[name="card_security_code"] { direction: ltr; text-align: start; }
  .half-row { display: flex; gap: 1rem; }
  .half1, .half2 { flex: 1; }
  .error { color: #b00020; }
  .error-summary { border: 2px solid #b00020; padding: 0.75rem; border-radius: 0.25rem; margin-block-end: 1rem; }
  button { font: inherit; padding-block: 0.6rem; padding-inline: 1.2rem; border-radius: 0.25rem; border: 0; background: #1a56db; color: #fff; cursor: pointer; }
  button.secondary { background: #6b7280; }
  .actions { display: flex; gap: 0.75rem; flex-wrap: wrap; align-items: center; }
  button.link { background: none; color: #1a56db; padding-inline: 0; text-decoration: underline; }
  .test-cards { font-size: 0.85rem; margin-block: 0.5rem 1rem; }
  .test-cards summary { cursor: pointer; font-weight: 600; }
  .test-cards table { border-collapse: collapse; inline-size: 100%; margin-block-start: 0.5rem; }
  .test-cards th, .test-cards td { text-align: start; padding-block: 0.2rem; padding-inline-end: 0.75rem; vertical-align: top; }
  .test-cards .number { white-space: nowrap; font-family: ui-monospace, monospace; unicode-bidi: isolate; }
`;

/**
 * In a frame, tells the merchant's page how tall the content is, so the frame can fit it: to the
 * parent's origin when the browser names it and it is one of the framing origins, else to each of
 * them (the browser drops a message whose target is not the parent's origin).
 */
const HEIGHT_SCRIPT = `(function () {
  if (window.parent === window) return;
  var targets = JSON.parse(document.getElementById('pg-frame-origins').textContent);
  var ancestors = location.ancestorOrigins;
  var to = ancestors && ancestors.length > 0 ? targets.filter(function (origin) { return origin === ancestors[0]; }) : targets;
  var send = function () {
    var height = Math.ceil(document.body.getBoundingClientRect().height);
    to.forEach(function (origin) { window.parent.postMessage({ type: 'pg-checkout:height', height: height }, origin); });
  };
  send();
  if (window.ResizeObserver) new ResizeObserver(send).observe(document.body);
})();`;

/** The height report of a framed page, with the origins it may report to. */
function heightScript(nonce: string, origins: readonly string[]): string {
  const json = JSON.stringify(origins).replace(/</g, '\\u003c');
  return `<script type="application/json" id="pg-frame-origins">${json}</script>
<script nonce="${nonce}">${HEIGHT_SCRIPT}</script>`;
}

function layout(language: Language, title: string, nonce: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLES}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p class="notice">${escapeHtml(PAGE_TEXT[language].sandboxNotice)}</p>
${body}
</main>
${script}
</body>
</html>`;
}

export interface SummaryLine {
  readonly label: string;
  readonly value: string;
  /** Codes and card numbers: kept left to right inside an Arabic page. */
  readonly ltr?: boolean;
}

function summary(lines: readonly SummaryLine[]): string {
  if (lines.length === 0) return '';
  const rows = lines
    .map((line) => {
      const value = escapeHtml(line.value);
      return `<dt>${escapeHtml(line.label)}</dt><dd>${line.ltr ? `<span dir="ltr">${value}</span>` : value}</dd>`;
    })
    .join('');
  return `<dl class="summary">${rows}</dl>`;
}

// ---- Card entry and plan choice ----

export type CardField = 'card_number' | 'expiry_date' | 'card_security_code' | 'card_holder_name' | 'installment_plan';

export interface PlanGroup {
  readonly issuerName: string;
  readonly options: readonly { readonly value: string; readonly label: string }[];
}

export interface CardPageModel {
  readonly language: Language;
  readonly action: string;
  readonly sessionId: string;
  readonly kind: 'payment' | 'tokenization';
  /** A tokenization that keeps the card (remember_me YES): "Save card"; otherwise the token pays next: "Continue". */
  readonly keepsCard?: boolean;
  readonly summary: readonly SummaryLine[];
  /** The amount as people read it, for the pay button. */
  readonly amountText?: string;
  /** Set when the card is already known (merchant page 2.0): only the plan is chosen here. */
  readonly knownCard?: string;
  /** The account has CVV suppression: the security code may be left empty. */
  readonly securityCodeOptional?: boolean;
  /** Present when installments are offered. */
  readonly plans?: readonly PlanGroup[];
  readonly selectedPlan?: string;
  readonly values?: Partial<Record<'expiry_date' | 'card_holder_name', string>>;
  readonly errors?: Partial<Record<CardField, string>>;
  /** Origins that may frame the page (it then reports its height to them). */
  readonly framing: readonly string[];
}

/** The order in which fields appear, and their errors in the summary. */
const FIELD_ORDER: readonly CardField[] = ['card_number', 'expiry_date', 'card_security_code', 'card_holder_name', 'installment_plan'];

function describedBy(id: string, hint: boolean, error: boolean): string {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids ? ` aria-describedby="${ids}"` : '';
}

interface InputSpec {
  readonly name: Exclude<CardField, 'installment_plan'>;
  readonly label: string;
  readonly hint?: string;
  readonly autocomplete: string;
  readonly inputmode?: string;
  readonly maxlength: number;
  readonly required: boolean;
  readonly value?: string;
  readonly placeholder?: string;
  readonly className?: string;
}

function inputField(spec: InputSpec, error: string | undefined): string {
  const invalid = error ? ' aria-invalid="true"' : '';
  const hint = spec.hint ? `<span class="hint" id="${spec.name}-hint">${escapeHtml(spec.hint)}</span>` : '';
  const errorText = error ? `<span class="error" id="${spec.name}-error">${escapeHtml(error)}</span>` : '';
  const attributes = [
    `id="${spec.name}"`,
    `name="${spec.name}"`,
    'type="text"',
    `autocomplete="${spec.autocomplete}"`,
    spec.inputmode ? `inputmode="${spec.inputmode}"` : '',
    `maxlength="${spec.maxlength}"`,
    spec.required ? 'required' : '',
    spec.placeholder ? `placeholder="${escapeHtml(spec.placeholder)}"` : '',
    spec.value ? `value="${escapeHtml(spec.value)}"` : '',
    'spellcheck="false"',
  ]
    .filter(Boolean)
    .join(' ');
  return `<div class="floatl${spec.className ? ` ${spec.className}` : ''}">
<label for="${spec.name}">${escapeHtml(spec.label)}</label>${hint}
<input ${attributes}${describedBy(spec.name, Boolean(spec.hint), Boolean(error))}${invalid}>
${errorText}</div>`;
}

function planSelect(model: CardPageModel, error: string | undefined): string {
  const text = PAGE_TEXT[model.language];
  const groups = model.plans ?? [];
  const selected = model.selectedPlan ?? '';
  const option = (value: string, label: string): string =>
    `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  const optgroups = groups
    .map((group) => `<optgroup label="${escapeHtml(group.issuerName)}">${group.options.map((o) => option(o.value, o.label)).join('')}</optgroup>`)
    .join('');
  const none = groups.length === 0 ? `<span class="hint" id="installment_plan-hint">${escapeHtml(text.noPlans)}</span>` : '';
  const errorText = error ? `<span class="error" id="installment_plan-error">${escapeHtml(error)}</span>` : '';
  return `<div class="floatl full-width installments-container">
<label for="installment_plan">${escapeHtml(text.plan)}</label>${none}
<select id="installment_plan" name="installment_plan"${describedBy('installment_plan', groups.length === 0, Boolean(error))}${error ? ' aria-invalid="true"' : ''}>
${option('', text.payInFull)}${optgroups}
</select>
${errorText}</div>`;
}

function errorSummary(model: CardPageModel): string {
  const errors = model.errors ?? {};
  const items = FIELD_ORDER.filter((field) => errors[field]).map(
    (field) => `<li><a href="#${field}">${escapeHtml(errors[field] ?? '')}</a></li>`,
  );
  if (items.length === 0) return '';
  // Focused when the page loads: a keyboard or screen-reader user starts at the list, each item a link to its field.
  return `<div class="error-summary" role="alert" tabindex="-1" autofocus><p>${escapeHtml(PAGE_TEXT[model.language].errorSummary)}</p><ul>${items.join('')}</ul></div>`;
}

/** The card page's button that leaves it: the form field it posts, whose presence cancels the payment. */
export const CANCEL_FIELD = 'cancel';

/** The test cards and what each does, one row per card, as the sandbox's own hint (closed until opened). */
function testCardsHint(language: Language): string {
  const text = PAGE_TEXT[language];
  const rows = TEST_CARDS.map((card) => {
    const number = card.number.replace(/(\d{4})(?=\d)/g, '$1 ');
    return `<tr><td><span class="number" dir="ltr">${number}</span></td><td>${escapeHtml(text.testCardOutcomes[card.outcome])}</td></tr>`;
  }).join('');
  return `<details class="test-cards" id="test-cards"><summary>${escapeHtml(text.testCardsTitle)}</summary>
<p>${escapeHtml(text.testCardsIntro)}</p>
<table><thead><tr><th scope="col">${escapeHtml(text.testCardNumber)}</th><th scope="col">${escapeHtml(text.testCardEffect)}</th></tr></thead><tbody>${rows}</tbody></table>
</details>`;
}

/** The card-entry page (and, for a card already known, the plan-only page). */
export function cardPage(model: CardPageModel): HtmlPage {
  const text = PAGE_TEXT[model.language];
  const nonce = randomHex(16);
  const errors = model.errors ?? {};
  const values = model.values ?? {};
  const tokenizationTitle = model.keepsCard ? text.tokenizationTitle : text.cardTitle;
  const title = model.knownCard ? text.planTitle : model.kind === 'tokenization' ? tokenizationTitle : text.paymentTitle;
  const cardFields = model.knownCard
    ? ''
    : [
        inputField(
          { name: 'card_number', label: text.cardNumber, hint: text.cardNumberHint, autocomplete: 'cc-number', inputmode: 'numeric', maxlength: 23, required: true },
          errors.card_number,
        ),
        `<div class="half-row">`,
        inputField(
          { name: 'expiry_date', label: text.expiryDate, hint: text.expiryHint, autocomplete: 'cc-exp', inputmode: 'numeric', maxlength: 7, required: true, placeholder: 'MM/YY', value: values.expiry_date, className: 'half1' },
          errors.expiry_date,
        ),
        inputField(
          model.securityCodeOptional
            ? { name: 'card_security_code', label: text.securityCodeOptional, hint: text.securityCodeOptionalHint, autocomplete: 'cc-csc', inputmode: 'numeric', maxlength: 4, required: false, className: 'half2' }
            : { name: 'card_security_code', label: text.securityCode, hint: text.securityCodeHint, autocomplete: 'cc-csc', inputmode: 'numeric', maxlength: 4, required: true, className: 'half2' },
          errors.card_security_code,
        ),
        `</div>`,
        inputField(
          { name: 'card_holder_name', label: text.holderName, autocomplete: 'cc-name', maxlength: 50, required: false, value: values.card_holder_name },
          errors.card_holder_name,
        ),
      ].join('\n');
  const plans = model.plans ? planSelect(model, errors.installment_plan) : '';
  const button = model.knownCard
    ? text.confirmPlan
    : model.kind === 'tokenization'
      ? model.keepsCard
        ? text.saveCard
        : text.submitCard
      : text.pay(model.amountText ?? '');
  const lines = model.knownCard ? [...model.summary, { label: text.card, value: model.knownCard, ltr: true }] : model.summary;
  // "Back to the shop" comes after Pay, so that Enter in a field still pays.
  const body = `${summary(lines)}
${model.knownCard ? '' : testCardsHint(model.language)}
${errorSummary(model)}
<form class="credit-card-container" method="post" action="${escapeHtml(model.action)}" novalidate>
<input type="hidden" name="session" value="${escapeHtml(model.sessionId)}">
${cardFields}
${plans}
<div class="actions"><button type="submit" id="pay" class="Pay">${escapeHtml(button)}</button>
<button type="submit" name="${CANCEL_FIELD}" value="${CANCEL_FIELD}" id="back-to-shop" class="link">${escapeHtml(text.backToShop)}</button></div>
</form>`;
  const status = Object.keys(errors).length > 0 ? 422 : 200;
  const html = layout(model.language, title, nonce, body, heightScript(nonce, model.framing));
  return { html, status, nonce, formActions: ["'self'"], script: true, frameAncestors: model.framing };
}

// ---- 3-D Secure challenge ----

export interface ChallengePageModel {
  readonly language: Language;
  readonly action: string;
  readonly challengeId: string;
  readonly summary: readonly SummaryLine[];
  /** Origins that may frame the page (a merchant's 3-D Secure dialog). */
  readonly framing: readonly string[];
}

/** The simulated issuer page: approve or fail the authentication. */
export function challengePage(model: ChallengePageModel): HtmlPage {
  const text = PAGE_TEXT[model.language];
  const nonce = randomHex(16);
  const body = `${summary(model.summary)}
<p>${escapeHtml(text.challengeText)}</p>
<form method="post" action="${escapeHtml(model.action)}">
<input type="hidden" name="challenge" value="${escapeHtml(model.challengeId)}">
<div class="actions">
<button type="submit" name="decision" value="approve" id="approve">${escapeHtml(text.approve)}</button>
<button type="submit" name="decision" value="fail" id="fail" class="secondary">${escapeHtml(text.fail)}</button>
</div>
</form>`;
  const html = layout(model.language, text.challengeTitle, nonce, body, heightScript(nonce, model.framing));
  return { html, status: 200, nonce, formActions: ["'self'"], script: true, frameAncestors: model.framing };
}

// ---- Return to the merchant ----

/**
 * The signed answer posted to the merchant's return_url: a form that a nonce'd script submits at
 * once, with a visible Continue button for browsers that run no script.
 */
export function returnPage(
  language: Language,
  returnUrl: URL,
  fields: Readonly<Record<string, unknown>>,
  framing: readonly string[],
): HtmlPage {
  const text = PAGE_TEXT[language];
  const nonce = randomHex(16);
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(String(value))}">`)
    .join('\n');
  const body = `<form id="return-form" method="post" action="${escapeHtml(returnUrl.href)}">
${inputs}
<p>${escapeHtml(text.returningText)}</p>
<div class="actions"><button type="submit" id="continue">${escapeHtml(text.continue)}</button></div>
</form>`;
  // HTMLFormElement.prototype.submit: a field named "submit" cannot shadow it.
  const script = `<script nonce="${nonce}">HTMLFormElement.prototype.submit.call(document.getElementById('return-form'));</script>`;
  return {
    html: layout(language, text.returningTitle, nonce, body, script),
    status: 200,
    nonce,
    // form-action also governs the redirects that follow the post: the merchant's return URL may
    // send the customer on to another origin (a standalone endpoint to the shop's result page).
    formActions: ["'self'", returnUrl.origin, 'https:', 'http:'],
    script: true,
    frameAncestors: framing,
  };
}

/** The signed answer shown in the page, when neither the request nor the merchant names a return address. */
export function resultPage(
  language: Language,
  fields: Readonly<Record<string, unknown>>,
  status = 200,
  framing?: readonly string[],
): HtmlPage {
  const text = PAGE_TEXT[language];
  const nonce = randomHex(16);
  const lines = Object.entries(fields).map(([label, value]) => ({ label, value: String(value), ltr: true }));
  const body = `<p>${escapeHtml(text.resultText)}</p>\n${summary(lines)}`;
  return {
    html: layout(language, text.resultTitle, nonce, body),
    status,
    nonce,
    formActions: ["'none'"],
    script: false,
    ...(framing ? { frameAncestors: framing } : {}),
  };
}

/** A page for what cannot go back to the merchant: an expired session, an unusable request. */
export function messagePage(language: Language, title: string, message: string, status: number): HtmlPage {
  const nonce = randomHex(16);
  const body = `<p role="alert">${escapeHtml(message)}</p>`;
  return { html: layout(language, title, nonce, body), status, nonce, formActions: ["'none'"], script: false };
}
