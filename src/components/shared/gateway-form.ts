/**
 * The last step of a payment from the browser: a form posted to the gateway. The endpoint signs
 * the fields; card fields, when present, are added here in the browser and go straight to the
 * gateway, never to the merchant endpoint.
 */
import type { FormPostResult } from '../../core/endpoint-results.ts';
import { PgPaymentSubmitEvent } from './events.ts';

/** An element that posts to the gateway. `submitForm` is its test and integration seam. */
export interface GatewayFormHost extends HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** Submits the built form; the default is `form.submit()`. */
  submitForm(form: HTMLFormElement): void;
}

/**
 * Builds `<form method="post">` with one hidden input per field; no markup strings, CSP-safe.
 * With `target`, the form posts into the frame of that name instead of the whole page.
 */
export function buildGatewayForm(
  post: FormPostResult,
  extraFields: Readonly<Record<string, string>> = {},
  target?: string,
): HTMLFormElement {
  const form = Object.assign(document.createElement('form'), {
    method: 'post',
    action: post.action,
    acceptCharset: 'UTF-8',
    hidden: true,
    className: 'gateway-form',
  });
  if (target) form.target = target;
  for (const [name, value] of Object.entries({ ...post.fields, ...extraFields })) {
    form.append(Object.assign(document.createElement('input'), { type: 'hidden', name, value }));
  }
  return form;
}

/**
 * Builds the form inside the host's shadow root (a form must be connected to submit), fires
 * `pg-payment-submit`, hands the form to `host.submitForm` and takes it out again: the submission
 * has read its fields, and card fields left in the page would outlive it (a page restored from the
 * back-forward cache, a `submitForm` that does not navigate).
 */
export function postToGateway(
  host: GatewayFormHost,
  flow: 'hosted-page' | 'merchant-page' | 'embedded',
  post: FormPostResult,
  extraFields: Readonly<Record<string, string>> = {},
  target?: string,
): void {
  const form = buildGatewayForm(post, extraFields, target);
  host.renderRoot.append(form);
  host.dispatchEvent(new PgPaymentSubmitEvent(flow, post.action));
  host.submitForm(form);
  form.remove();
}
