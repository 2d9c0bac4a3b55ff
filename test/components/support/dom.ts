/**
 * Helpers for driving the elements in tests: shadow-root queries, typing (programmatic and with
 * real key presses), capturing the forms posted to the gateway, and recording events.
 */
import { waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';

/** The first match inside `host`'s shadow root; throws with the selector when there is none. */
export function shadowQuery<T extends Element = HTMLElement>(host: Element, selector: string): T {
  const found = host.shadowRoot?.querySelector<T>(selector);
  if (!found) throw new Error(`no ${selector} in <${host.localName}>`);
  return found;
}

export function shadowQueryAll<T extends Element = HTMLElement>(host: Element, selector: string): T[] {
  return [...(host.shadowRoot?.querySelectorAll<T>(selector) ?? [])];
}

/** Visible text of an element, whitespace collapsed and bidi isolates dropped. */
export function textOf(element: Element | null | undefined): string {
  return (element?.textContent ?? '').replace(/[\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
}

/** Sets an input's value as typing would and fires `input` (and `change` when asked). */
export function typeInto(input: HTMLInputElement | HTMLSelectElement, value: string, options: { change?: boolean } = {}): void {
  input.focus();
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText' }));
  if (options.change) input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** An expiry three years ahead, as a customer types it (MM/YY). */
export const FUTURE_EXPIRY = `08/${(new Date().getUTCFullYear() + 3) % 100}`;

/** Types a whole card into an element's card form: number, expiry, security code and holder. */
export function typeCard(host: Element, card: { number: string; expiry?: string; cvv?: string; holder?: string }): void {
  typeInto(shadowQuery<HTMLInputElement>(host, '#card-number'), card.number);
  typeInto(shadowQuery<HTMLInputElement>(host, '#card-expiry'), card.expiry ?? FUTURE_EXPIRY);
  typeInto(shadowQuery<HTMLInputElement>(host, '#card-cvv'), card.cvv ?? '123');
  typeInto(shadowQuery<HTMLInputElement>(host, '#card-holder'), card.holder ?? 'Amira Hassan');
}

/** Leaves a field (what makes its problem visible). */
export function leave(input: HTMLElement): void {
  input.dispatchEvent(new FocusEvent('focusout', { bubbles: true, composed: true }));
  input.blur();
}

/** Chooses an option of a select or a radio/checkbox as a click would. */
export function choose(control: HTMLInputElement | HTMLSelectElement, value?: string): void {
  if (control instanceof HTMLSelectElement) {
    control.value = value ?? '';
  } else if (control.type === 'checkbox') {
    control.checked = !control.checked;
  } else {
    control.checked = true;
  }
  control.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

/** The element that has focus, looking inside every open shadow root. */
export function deepActiveElement(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

export async function pressKey(key: string): Promise<void> {
  await sendKeys({ press: key });
}

export async function typeKeys(text: string): Promise<void> {
  await sendKeys({ type: text });
}

/**
 * Presses Tab until focus is on an element matching `selector` (inside any shadow root), and
 * returns it. Fails after `limit` presses: the element is not reachable by keyboard.
 */
export async function tabTo(selector: string, limit = 30): Promise<Element> {
  for (let presses = 0; presses < limit; presses += 1) {
    await pressKey('Tab');
    const active = deepActiveElement();
    if (active?.matches(selector)) return active;
  }
  throw new Error(`${selector} not reached with ${limit} presses of Tab`);
}

/** A form the element handed to `submitForm`: its address and fields. */
export interface Submission {
  readonly action: string;
  readonly method: string;
  readonly fields: Record<string, string>;
}

/** Replaces the element's `submitForm` with a recorder: nothing navigates, every post is kept. */
export function captureSubmissions(element: { submitForm(form: HTMLFormElement): void }): Submission[] {
  const submissions: Submission[] = [];
  element.submitForm = (form: HTMLFormElement) => {
    const fields: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) fields[name] = String(value);
    submissions.push({ action: form.action, method: form.method, fields });
  };
  return submissions;
}

/** Records events of the given types dispatched on (or bubbling to) `target`. */
export function recordEvents(target: EventTarget, ...types: string[]): Event[] {
  const events: Event[] = [];
  for (const type of types) target.addEventListener(type, (event) => events.push(event));
  return events;
}

/** Whether `element` shows its pending state: its code (a view loaded on demand) or its language's catalog is still loading. */
function loading(element: Element): boolean {
  return element.matches(':state(loading)');
}

/**
 * Waits until `element` has loaded what it shows (its view, its language's catalog) and has
 * rendered it: what a test does before looking at an element's content. Resolves with the element
 * (also when the load failed: it then shows the failure and its retry).
 */
export async function elementReady<T extends HTMLElement & { updateComplete: Promise<boolean> }>(element: T): Promise<T> {
  await element.updateComplete;
  if (loading(element)) {
    await waitUntil(() => !loading(element), `<${element.localName}> still loading`, { interval: 5, timeout: 5000 });
  }
  await element.updateComplete;
  return element;
}

/**
 * Waits until `element` and the elements inside it have loaded (see {@link elementReady}), no
 * request of theirs is in flight and all have rendered.
 */
export async function settled(element: HTMLElement & { updateComplete: Promise<boolean> }): Promise<void> {
  const nested = (): Array<Partial<{ updateComplete: Promise<boolean> }> & Element> => [
    element,
    ...(element.shadowRoot?.querySelectorAll('*') ?? []),
  ];
  const renders = async (): Promise<void> => {
    for (const node of nested()) if (node.updateComplete) await node.updateComplete;
  };
  const busy = (): boolean => nested().some((node) => loading(node) || node.matches(':state(pending)'));
  // Nested elements load, then start their own requests on their first render: settle until nothing moves.
  for (let round = 0; round < 5; round += 1) {
    await renders();
    if (!busy()) return;
    await waitUntil(() => !busy(), 'still loading, or requests still pending', { interval: 5, timeout: 5000 });
  }
  await renders();
}

/** A short description of an element for failure messages (chai's DOM diffs are huge). */
export function describeElement(element: Element | null | undefined): string {
  if (!element) return 'nothing';
  const id = element.id ? `#${element.id}` : '';
  const classes = element.classList.length > 0 ? `.${[...element.classList].join('.')}` : '';
  return `<${element.localName}${id}${classes}>`;
}

/** Asserts that `element` has focus (looking through shadow roots). */
export function assertFocused(element: Element): void {
  const active = deepActiveElement();
  if (active !== element) {
    throw new Error(`expected ${describeElement(element)} to have focus, but ${describeElement(active)} has it`);
  }
}
