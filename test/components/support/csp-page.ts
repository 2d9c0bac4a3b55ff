/**
 * Runs inside test/components/support/csp-page.html, a page whose Content Security Policy has no
 * 'unsafe-inline' and no 'unsafe-eval'. It drives every flow of the elements that needs no real
 * navigation and reports to the parent test page: policy violations, the forms that would have
 * been posted, whether the theme file applied, and any inline style attribute in a shadow root.
 */
import type { PgCheckout, PgInstallments } from '../../../src/index.ts';
import { startNetwork } from './network.ts';

export interface CspReport {
  readonly type: 'csp-report';
  readonly canarySeen: boolean;
  readonly violations: string[];
  readonly posts: string[];
  readonly themeApplied: boolean;
  readonly inlineStyles: number;
  readonly error?: string;
}

const violations: string[] = [];
let canarySeen = false;
document.addEventListener('securitypolicyviolation', (event) => {
  if (event.sample.includes('pg-canary')) canarySeen = true;
  else violations.push(`${event.effectiveDirective}: ${event.blockedURI} ${event.sample}`);
});

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 500 && !condition(); tries += 1) await frame();
  if (!condition()) throw new Error('timed out');
}

/** Some element (or one inside it) still loads its view or its text, or waits for the endpoint. */
function busy(): boolean {
  const hosts = [...document.querySelectorAll('pg-checkout, pg-installments')];
  const nested = hosts.flatMap((host) => [...(host.shadowRoot?.querySelectorAll('*') ?? [])]);
  return [...hosts, ...nested].some((host) => host.matches(':state(loading)') || host.matches(':state(pending)'));
}

function type(host: Element, selector: string, value: string): void {
  const input = host.shadowRoot!.querySelector<HTMLInputElement>(selector)!;
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
}

function click(host: Element, selector: string): void {
  host.shadowRoot!.querySelector<HTMLElement>(selector)!.click();
}

async function pay(host: PgCheckout | PgInstallments): Promise<void> {
  const outcome = new Promise<void>((resolve, reject) => {
    host.addEventListener('pg-payment-submit', () => resolve(), { once: true });
    host.addEventListener('pg-request-error', (event) => reject(new Error(`${host.id}: ${event.message}`)), { once: true });
  });
  click(host, 'button.Pay');
  await outcome;
  await host.updateComplete;
}

async function run(): Promise<CspReport> {
  // This page's own msw client: the merchant endpoint and the sandbox gateway, as in every test.
  await startNetwork();
  // Defined only now, so that their first requests meet the network.
  await import('../../../src/define.ts');

  // A canary: an inline style attribute must be refused, which proves the policy is in force.
  const canary = document.createElement('div');
  canary.setAttribute('style', '--pg-canary: 1; color: red');
  document.body.append(canary);

  const posts: string[] = [];
  const redirect = document.querySelector<PgCheckout>('#redirect')!;
  const card = document.querySelector<PgCheckout>('#card')!;
  const installments = document.querySelector<PgInstallments>('#installments')!;
  for (const host of [redirect, card, installments]) {
    host.submitForm = (form) => posts.push(`${host.id}:${form.action}:${new FormData(form).get('signature') ? 'signed' : 'unsigned'}`);
  }
  await Promise.all([redirect.updateComplete, card.updateComplete, installments.updateComplete]);
  await frame();
  await until(() => !busy());

  await pay(redirect);

  const year = String((new Date().getUTCFullYear() + 2) % 100);
  type(card, '#card-number', '٤١١١١١١١١١١١١١١١');
  type(card, '#card-expiry', `10/${year}`);
  type(card, '#card-cvv', '123');
  type(card, '#card-holder', 'Amira Hassan');
  await card.updateComplete;
  await pay(card);

  type(installments, '#card-prefix', '512345');
  await installments.updateComplete;
  click(installments, 'input[name="plan"]');
  await installments.updateComplete;
  click(installments, '#agree');
  await installments.updateComplete;
  await pay(installments);

  // The drop-in renders every method's element (voucher and financing included).
  const dropIn = document.querySelector<PgCheckout>('#drop-in')!;
  for (const method of ['installments', 'voucher', 'financing', 'card']) {
    click(dropIn, `input[name="method"][value="${method}"]`);
    await dropIn.updateComplete;
    await frame();
    await until(() => !busy());
    // The method's view arrived and rendered (a view that failed to load would be neither busy nor shown).
    const shown = dropIn.shadowRoot!.querySelector('pg-installments, pg-bill-voucher, pg-financing-otp');
    if (method !== 'card' && !shown?.shadowRoot?.querySelector('.title')) throw new Error(`the drop-in's ${method} shows no content`);
  }

  await until(() => canarySeen);
  await frame();
  const payButton = redirect.shadowRoot!.querySelector('.Pay')!;
  const inlineStyles = [redirect, card, installments, dropIn].reduce(
    (count, host) => count + host.shadowRoot!.querySelectorAll('[style]').length,
    0,
  );
  return {
    type: 'csp-report',
    canarySeen,
    violations,
    posts,
    themeApplied: getComputedStyle(payButton).backgroundColor === 'rgb(107, 79, 29)',
    inlineStyles,
  };
}

run()
  .then((report) => parent.postMessage(report, location.origin))
  .catch((error: unknown) =>
    parent.postMessage(
      { type: 'csp-report', canarySeen, violations, posts: [], themeApplied: false, inlineStyles: -1, error: String(error) },
      location.origin,
    ),
  );
